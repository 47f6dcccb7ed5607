"""Run every benchmark part, each in a fresh process, then print one table and keep the JSON.

    .venv/bin/python -m bench [--quick] [--only PART ...]     (bench/run does this after setup)

Results go to bench/results/latest.json (git-ignored). The exit status is 1 when a part failed
(an error, or our answers disagreeing with a reference), not when a target is missed: the table
says which targets were met.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from .common import ROOT, machine

PARTS = {
    "hands": "1. hand analysis vs the mahjong package",
    "scoring": "2. scoring throughput",
    "web": "3. web latency under loopback load",
    "pdf": "4. evening PDF",
    "weight": "5. page weight",
    "entry": "6. entering a round in the browser: one recorder, four phones",
}
PART_TIMEOUT = 240  # seconds; parts 1–5 stay under five minutes together
PART_TIMEOUTS = {"entry": 900}  # eight rounds entered twice in headless Chromium, polls of 2 s


def _run_part(name: str, quick: bool, out_dir: Path) -> dict:
    out = out_dir / f"{name}.json"
    command = [sys.executable, "-m", f"bench.{name}", "--json", str(out)] + (["--quick"] if quick else [])
    start, load_before = time.perf_counter(), os.getloadavg()[0]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                              timeout=PART_TIMEOUTS.get(name, PART_TIMEOUT), check=False)
    except subprocess.TimeoutExpired:
        return {"part": name, "ok": False,
                "failures": [f"timed out after {PART_TIMEOUTS.get(name, PART_TIMEOUT)} s"]}
    seconds = time.perf_counter() - start
    # The 1-minute load average around the part: on a shared machine, other work skews timings.
    load = {"before": load_before, "after": os.getloadavg()[0]}
    if not out.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-15:]
        return {"part": name, "ok": False, "failures": [f"exit {done.returncode}", *tail], "seconds": seconds,
                "load": load}
    result = json.loads(out.read_text(encoding="utf-8"))
    result["seconds"] = seconds
    result["load"] = load
    if done.returncode not in (0, 1):
        result["ok"] = False
        result.setdefault("failures", []).append(f"exit {done.returncode}: {done.stderr.strip()[-500:]}")
    return result


def _mark(met: bool | None) -> str:
    return {True: "met", False: "MISSED", None: ""}[met]


def print_table(results: dict) -> None:
    rows = [("figure", "value", "target", "")]
    for name, part in results["parts"].items():
        load = part.get("load", {})
        heading = (f"== {PARTS[name]}  ({part.get('seconds', 0):.0f} s; load average"
                   f" {load.get('before', 0):.1f} → {load.get('after', 0):.1f} on {os.cpu_count()} cores)")
        rows.append((heading, "", "", ""))
        for line in part.get("summary", []):
            met = _mark(line.get("met"))
            rows.append(("  " + line["figure"], line["value"], line.get("target", ""), met))
        for missing in part.get("missing", []):
            rows.append(("  MISSING", missing, "", ""))
        for failure in part.get("failures", []):
            rows.append(("  FAILED", failure, "", ""))
    widths = [max(len(r[i]) for r in rows if not r[0].startswith("==")) for i in range(3)]
    for row in rows:
        if row[0].startswith("=="):
            print(row[0])
        else:
            print(f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:<{widths[2]}}  {row[3]}".rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench/run")
    parser.add_argument("--quick", action="store_true", help="smaller runs: a quick look, not figures")
    parser.add_argument("--only", nargs="+", choices=list(PARTS), help="run only these parts")
    args = parser.parse_args()
    started = time.perf_counter()
    results: dict = {
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": machine(),
        "git": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True, check=False).stdout.strip(),
        "parts": {},
    }
    with tempfile.TemporaryDirectory(prefix="zhuoji-bench-") as tmp:
        for name in args.only or PARTS:
            print(f"bench: {PARTS[name]} ...", file=sys.stderr, flush=True)
            results["parts"][name] = _run_part(name, args.quick, Path(tmp))
    results["seconds"] = time.perf_counter() - started
    results["ok"] = all(part.get("ok", False) for part in results["parts"].values())

    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    text = json.dumps(results, ensure_ascii=False, indent=1) + "\n"
    (out / "latest.json").write_text(text, encoding="utf-8")
    m = results["machine"]
    print(f"\n{m['nproc']} cores, {m['cpu']}, Python {m['python']}, commit {results['git']}"
          + (", --quick" if args.quick else ""))
    print_table(results)
    print(f"\n{results['seconds']:.0f} s in all; JSON in bench/results/latest.json;"
          f" {'all parts ran' if results['ok'] else 'SOME PARTS FAILED'}")
    sys.exit(0 if results["ok"] else 1)


if __name__ == "__main__":
    main()
