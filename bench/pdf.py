"""Part 4, PDF: seconds to render the evening report of 40 rounds, against WeasyPrint rendering a
one-line page in the same run.

    .venv/bin/python -m bench.pdf [--quick] [--json FILE]

An evening of 40 rounds is stored through the services (bench/seed.py) in a temp SQLite
database with the production settings (bench/site.py). The report is fetched in-process with
Django's test client, `GET /e/<token>/report.pdf`: the selectors, the template and WeasyPrint,
as the view runs them. The baseline is `weasyprint.HTML(string=<one line>).write_pdf()` with a
line of Chinese, so both load the CJK font. After one untimed render of each, they alternate
5 times (3 with --quick); the median counts, and the first (cold) renders are shown too.
"""
from __future__ import annotations

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

    def report() -> tuple[float, int]:
        start = time.perf_counter()
        response = client.get(path)
        seconds = time.perf_counter() - start
        if response.status_code != 200 or response["Content-Type"] != "application/pdf":
            raise RuntimeError(f"GET {path} answered {response.status_code} {response['Content-Type']}")
        return seconds, len(response.content)

    def one_line() -> tuple[float, int]:
        start = time.perf_counter()
        pdf = HTML(string=ONE_LINE).write_pdf()
        return time.perf_counter() - start, len(pdf)

    cold_line, _ = one_line()
    cold_report, report_bytes = report()
    lines, reports = [], []
    for _ in range(repeats):
        lines.append(one_line()[0])
        reports.append(report()[0])
    pages = _pages(client.get(path).content)
    return {"cold_one_line_s": cold_line, "cold_report_s": cold_report, "one_line_s": lines,
            "report_s": reports, "report_bytes": report_bytes, "report_pages": pages, "rounds": tokens["rounds"],
            "records": tokens["source"]}


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
    import json

    return json.loads(os.environ["BENCH_EVENING"])


def run(quick: bool) -> dict:
    repeats = 3 if quick else 5
    results: dict = {"part": "pdf", "rows": [], "failures": [], "summary": []}
    with prepared_site(seed_rounds=ROUNDS) as site:
        tokens = evening_tokens(site)
        done = subprocess.run(
            [sys.executable, "-c", f"import json; from bench.pdf import _measure; print(json.dumps(_measure({repeats})))"],
            cwd=ROOT, env=site.env, capture_output=True, text=True, check=False,
        )
    if done.returncode:
        results["failures"].append(f"rendering failed: {done.stderr.strip()[-1500:]}")
        results["ok"] = False
        return results
    m = __import__("json").loads(done.stdout.strip().splitlines()[-1])
    report, line = statistics.median(m["report_s"]), statistics.median(m["one_line_s"])
    row = {
        "what": f"evening report, {m['rounds']} rounds",
        "records": m["records"],
        "report_median_s": report,
        "one_line_median_s": line,
        "ratio": report / line,
        "report_cold_s": m["cold_report_s"],
        "one_line_cold_s": m["cold_one_line_s"],
        "report_bytes": m["report_bytes"],
        "report_pages": m["report_pages"],
        "runs": m,
        "tokens_refused": tokens["refused"],
    }
    row["met"] = report < TARGET_SECONDS and row["ratio"] <= TARGET_RATIO
    results["rows"].append(row)
    results["summary"] = [
        {
            "figure": f"evening report PDF, {m['rounds']} rounds ({m['report_pages']} pages), median of {repeats}",
            "value": f"{report:.2f} s vs one-line page {line:.3f} s = {row['ratio']:.1f}x",
            "target": f"< {TARGET_SECONDS} s and <= {TARGET_RATIO:g}x",
            "met": row["met"],
        },
        {
            "figure": "evening report PDF, first render in the process",
            "value": f"{m['cold_report_s']:.2f} s (one-line page first: {m['cold_one_line_s']:.2f} s)",
        },
    ]
    results["ok"] = True
    return results


if __name__ == "__main__":
    main(run, run_id(__file__))
