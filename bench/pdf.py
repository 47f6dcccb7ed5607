"""Part 4, PDF: seconds to render the evening report of 40 rounds, against WeasyPrint rendering a
one-line page in the same run.

    .venv/bin/python -m bench.pdf [--quick] [--json FILE]

An evening of 40 rounds is stored through the services (bench/seed.py) in a temp SQLite
database with the production settings (bench/site.py). The report is fetched in-process with
Django's test client, `GET /e/<token>/report.pdf`: the selectors, the template and WeasyPrint,
as the view runs them. The baseline is `weasyprint.HTML(string=<one line>).write_pdf()` with a
line of Chinese, so both load the CJK font. After a first render of each (shown as the cold
figure), they alternate 5 times (3 with --quick) and the medians count. Times are the CPU time
of the rendering thread, since the machine is shared; the wall clock is shown beside them.
Python's full garbage collections, which scan the whole process and land inside some renders
and not others, are timed too and shown as a figure without them (the medians keep them).
"""
from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import time

from .common import ROOT, main, run_id
from .site import evening_tokens, prepared_site

ROUNDS = 40
TARGET_SECONDS = 1.5
TARGET_RATIO = 10.0
ONE_LINE = '<html lang="zh-CN"><body><p>捉鸡算账 — one line.</p></body></html>'


def _measure(repeats: int) -> dict:
    """Runs inside the site's environment (see `run`)."""
    import django

    django.setup()
    from django.test import Client
    from weasyprint import HTML

    tokens = evening_tokens_from_env()
    client = Client(HTTP_HOST="127.0.0.1")
    path = f"/e/{tokens['token']}/report.pdf"

    full_gc = {"started": None, "seconds": 0.0}

    def on_gc(phase: str, info: dict) -> None:
        """Times Python's full (generation 2) collections: they scan the whole heap of the
        process, Django included, and fall inside some renders and not others."""
        if info["generation"] != 2:
            return
        if phase == "start":
            full_gc["started"] = time.thread_time()
        elif full_gc["started"] is not None:
            full_gc["seconds"] += time.thread_time() - full_gc["started"]
            full_gc["started"] = None

    gc.callbacks.append(on_gc)

    def timed(render) -> tuple[float, float, bytes, float]:
        """(CPU seconds, wall seconds, the PDF, CPU seconds of full garbage collections)."""
        full_gc["seconds"] = 0.0
        cpu, wall = time.thread_time(), time.perf_counter()
        pdf = render()
        return time.thread_time() - cpu, time.perf_counter() - wall, pdf, full_gc["seconds"]

    def report() -> bytes:
        response = client.get(path)
        if response.status_code != 200 or response["Content-Type"] != "application/pdf":
            raise RuntimeError(f"GET {path} answered {response.status_code} {response['Content-Type']}")
        return response.content

    def one_line() -> bytes:
        return HTML(string=ONE_LINE).write_pdf()

    cold_line = timed(one_line)
    cold_report = timed(report)
    lines, reports = [], []
    for _ in range(repeats):
        lines.append(timed(one_line))
        reports.append(timed(report))
    return {"cold_one_line_s": cold_line[0], "cold_report_s": cold_report[0],
            "one_line_s": [m[0] for m in lines], "report_s": [m[0] for m in reports],
            "one_line_wall_s": [m[1] for m in lines], "report_wall_s": [m[1] for m in reports],
            "one_line_full_gc_s": [m[3] for m in lines], "report_full_gc_s": [m[3] for m in reports],
            "report_bytes": len(cold_report[2]), "report_pages": _pages(cold_report[2]),
            "rounds": tokens["rounds"], "records": tokens["source"]}


def _pages(pdf: bytes) -> int | None:
    try:
        done = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    for line in done.stdout.decode(errors="replace").splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return None


def evening_tokens_from_env() -> dict:
    return json.loads(os.environ["BENCH_EVENING"])


def run(quick: bool) -> dict:
    repeats = 3 if quick else 5
    results: dict = {"part": "pdf", "rows": [], "failures": [], "summary": []}
    with prepared_site(seed_rounds=ROUNDS) as site:
        tokens = evening_tokens(site)
        code = f"import json; from bench.pdf import _measure; print(json.dumps(_measure({repeats})))"
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT, env=site.env, capture_output=True, text=True, check=False,
        )
    if done.returncode:
        results["failures"].append(f"rendering failed: {done.stderr.strip()[-1500:]}")
        results["ok"] = False
        return results
    m = json.loads(done.stdout.strip().splitlines()[-1])
    report, line = statistics.median(m["report_s"]), statistics.median(m["one_line_s"])
    report_wall, line_wall = statistics.median(m["report_wall_s"]), statistics.median(m["one_line_wall_s"])
    row = {
        "what": f"evening report, {m['rounds']} rounds",
        "records": m["records"],
        "report_median_s": report,
        "one_line_median_s": line,
        "ratio": report / line,
        "report_median_wall_s": report_wall,
        "one_line_median_wall_s": line_wall,
        "report_median_without_full_gc_s": statistics.median(
            cpu - collecting for cpu, collecting in zip(m["report_s"], m["report_full_gc_s"])),
        "report_full_gc_s": m["report_full_gc_s"],
        "report_cold_s": m["cold_report_s"],
        "one_line_cold_s": m["cold_one_line_s"],
        "report_bytes": m["report_bytes"],
        "report_pages": m["report_pages"],
        "runs": m,
        "tokens_refused": tokens["refused"],
    }
    row["met_seconds"] = report < TARGET_SECONDS
    row["met_ratio"] = row["ratio"] <= TARGET_RATIO
    row["met"] = row["met_seconds"] and row["met_ratio"]
    results["rows"].append(row)
    what = f"evening report PDF, {m['rounds']} rounds ({m['report_pages']} pages)"
    results["summary"] = [
        {
            "figure": f"{what}, median of {repeats}",
            "value": f"{report:.2f} s CPU (wall {report_wall:.2f} s)",
            "target": f"< {TARGET_SECONDS} s",
            "met": row["met_seconds"],
        },
        {
            "figure": f"{what} vs a one-line page",
            "value": f"{report:.2f} s vs {line:.3f} s = {row['ratio']:.0f}x",
            "target": f"<= {TARGET_RATIO:g}x",
            "met": row["met_ratio"],
        },
        {
            "figure": f"{what}, median of {repeats} less the full garbage collections inside them",
            "value": f"{row['report_median_without_full_gc_s']:.2f} s CPU ("
                     f"{sum(1 for s in m['report_full_gc_s'] if s)} of {repeats} renders had one)",
        },
        {
            "figure": f"{what}, first render in the process",
            "value": f"{m['cold_report_s']:.2f} s CPU (one-line page first: {m['cold_one_line_s']:.2f} s)",
        },
    ]
    results["ok"] = True
    return results


if __name__ == "__main__":
    main(run, run_id(__file__))
