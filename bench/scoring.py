"""Part 2, scoring: rounds per second of the full settlement, and µs per round.

    .venv/bin/python -m bench.scoring [--quick] [--json FILE]

The rounds come from the project's generator of random legal records,
`tests.scoring.random_rounds.random_record(rng)`, with a fixed seed. One round is
`settle_record(record).to_dict()`: the record (JSON-shaped data) parsed and validated, every hand
analysed, the items, matrix and net worked out, and the RULES §6 result built. Each record is
settled once, in one process on one core, after 200 other records have warmed the process up.

Each round is timed twice: by this thread's CPU time (`time.thread_time`), which is what the
figures use, since the machine is shared and the wall clock also counts the time other
processes held the core; and by the wall clock, shown beside it. On an idle machine they agree.

Two more rows for context: the eight RULES examples (E1–E8) settled over and over, and
`manage.py settle --jsonl` over the same random records (JSON text in and out, Django start-up
included), timed from outside.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from calculator.scoring import PRESETS, RecordInvalid, settle_record

from .common import ROOT, main, median, percentile, run_id

TARGET_RPS = 5_000
SEED = 20240602
WARM_UP = 200


def load_generator():
    """The shared generator, or None while it has not landed."""
    try:
        from tests.scoring.random_rounds import random_record
    except ImportError:
        return None
    return random_record


@dataclass
class Pass:
    cpu: list[float] = field(default_factory=list)  # per round, CPU seconds of this thread
    wall: list[float] = field(default_factory=list)  # per round, wall-clock seconds
    cpu_total: float = 0.0
    wall_total: float = 0.0
    problems: list[str] = field(default_factory=list)


def _settle_all(records: list[dict]) -> Pass:
    """Settle each record once, timing each round by CPU time and by the wall clock."""
    result = Pass()
    cpu, wall = time.thread_time, time.perf_counter
    cpu_start, wall_start = cpu(), wall()
    for i, record in enumerate(records):
        c0, w0 = cpu(), wall()
        try:
            net = settle_record(record).to_dict()["net"]
        except RecordInvalid as invalid:
            net = [0]
            result.problems.append(f"record {i} rejected: {[p.code for p in invalid.problems]}")
        w1, c1 = wall(), cpu()
        result.cpu.append(c1 - c0)
        result.wall.append(w1 - w0)
        if sum(net) != 0:
            result.problems.append(f"record {i}: net does not sum to zero: {net}")
    result.cpu_total, result.wall_total = cpu() - cpu_start, wall() - wall_start
    return result


def _row(what: str, run: Pass) -> dict:
    n = len(run.cpu)
    return {
        "what": what,
        "rounds": n,
        "rounds_per_second": n / run.cpu_total,
        "median_us": median(run.cpu) * 1e6,
        "p99_us": percentile(run.cpu, 99) * 1e6,
        "max_us": max(run.cpu) * 1e6,
        "wall_rounds_per_second": n / run.wall_total,
        "wall_median_us": median(run.wall) * 1e6,
        "wall_p99_us": percentile(run.wall, 99) * 1e6,
    }


def _examples(repeats: int) -> dict:
    folder = ROOT / "tests" / "data" / "examples"
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("E*.json"))]
    _settle_all(records * 5)
    return _row(f"RULES examples E1–E{len(records)}, each {repeats}×", _settle_all(records * repeats))


def _command(records: list[dict]) -> dict:
    """`manage.py settle --jsonl` over the records, timed from outside (start-up included)."""
    with tempfile.TemporaryDirectory(prefix="zhuoji-bench-") as tmp:
        path = Path(tmp) / "rounds.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "manage.py", "settle", "--jsonl", str(path)],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )
        wall = time.perf_counter() - start
    lines = done.stdout.splitlines()
    return {
        "what": "manage.py settle --jsonl (start-up included)",
        "rounds": len(lines),
        "rounds_per_second": len(lines) / wall,
        "seconds": wall,
        "exit": done.returncode,
        "command": f".venv/bin/python manage.py settle --jsonl FILE  # {len(records)} records",
    }


def run(quick: bool) -> dict:
    n = 1_000 if quick else 5_000
    results: dict = {"part": "scoring", "rows": [], "failures": []}
    random_record = load_generator()
    if random_record is None:
        results["missing"] = ["tests/scoring/random_rounds.py (random_record) has not landed"]
        results["rows"].append(_examples(50 if quick else 250))
        results["ok"] = True
        results["summary"] = [_summary(results["rows"][0])]
        return results

    rng = random.Random(SEED)
    warm = [random_record(rng) for _ in range(WARM_UP)]
    records = [random_record(rng) for _ in range(n)]
    _settle_all(warm)
    measured = _settle_all(records)
    problems = measured.problems
    row = _row(f"random legal records ({n}, seed {SEED})", measured)
    row["presets"] = dict(Counter(r.get("preset", "guiyang") for r in records))
    row["outcomes"] = dict(Counter(
        "draw" if r["outcome"]["type"] == "draw"
        else "self_draw" if r["outcome"].get("from") is None
        else f"discard, {len(r['outcome']['winners'])} winner(s)"
        for r in records
    ))
    row["target"] = f">= {TARGET_RPS} rounds/s on one core"
    row["met"] = row["rounds_per_second"] >= TARGET_RPS and not problems
    results["rows"].append(row)
    missing_presets = set(PRESETS) - set(row["presets"])
    if missing_presets:
        problems.append(f"presets never drawn: {sorted(missing_presets)}")
    results["rows"].append(_examples(50 if quick else 250))
    results["rows"].append(_command(records))
    results["failures"] = problems[:20] + ([f"... {len(problems)} problems"] if len(problems) > 20 else [])
    results["ok"] = not problems
    results["summary"] = [_summary(r) for r in results["rows"]]
    return results


def _summary(row: dict) -> dict:
    line = {"figure": f"settle: {row['what']}", "value": f"{row['rounds_per_second']:,.0f} rounds/s"}
    if "median_us" in row:
        line["value"] += (f", median {row['median_us']:.0f} µs, p99 {row['p99_us']:.0f} µs CPU"
                          f" (wall: {row['wall_rounds_per_second']:,.0f}/s, p99 {row['wall_p99_us']:.0f} µs)")
    if "target" in row:
        line["target"] = row["target"]
        line["met"] = row["met"]
    return line


if __name__ == "__main__":
    main(run, run_id(__file__))
