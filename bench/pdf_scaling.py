"""The evening report's time per round at 10, 40, 100 and 200 rounds (issue 15), split into our
part (selectors + Django template) and WeasyPrint's (layout + PDF).

    .venv/bin/python -m bench.pdf_scaling [--quick] [--json FILE]

Evenings are seeded through the services (bench/seed.py) in a temp SQLite database with the
production settings (bench/site.py). For each, the view's own context (`calculator.pdf.report_context`) is
built and rendered to HTML, then WeasyPrint writes the PDF; CPU time of this thread, the best of
2 runs (1 with --quick, which also stops at 100 rounds). "Linear" means the per-round figure
stays flat as the evening grows.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time

from .common import ROOT, main, run_id
from .site import prepared_site

SIZES = (10, 40, 100, 200)


def _measure(sizes: list[int], repeats: int) -> list[dict]:
    import django

    django.setup()
    from django.template.loader import render_to_string
    from django.utils import translation
    from weasyprint import HTML

    from bench.seed import seed
    from calculator.models import Evening
    from calculator.pdf import BASE_URL, StaticFileFetcher
    from calculator.pdf import report_context

    translation.activate("zh-hans")
    rows = []
    for n in sizes:
        evening = Evening.objects.get(token=seed(n)["token"])
        ours, theirs = [], []
        for _ in range(repeats):
            start = time.thread_time()
            html = render_to_string("calculator/pdf/evening_report.html", report_context(evening))
            middle = time.thread_time()
            pdf = HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFileFetcher()).write_pdf()
            ours.append(middle - start)
            theirs.append(time.thread_time() - middle)
        total = min(ours) + min(theirs)
        rows.append({"rounds": n, "django_s": round(min(ours), 3), "weasyprint_s": round(min(theirs), 3),
                     "total_s": round(total, 3), "ms_per_round": round(total / n * 1000, 1),
                     "weasyprint_share": round(min(theirs) / total, 2), "pdf_bytes": len(pdf)})
    return rows


def run(quick: bool) -> dict:
    sizes = [s for s in SIZES if not quick or s <= 100]
    with prepared_site() as site:
        code = ("import json, sys; from bench.pdf_scaling import _measure; "
                f"print(json.dumps(_measure({sizes!r}, {1 if quick else 2})))")
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=site.env,
                              capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])
        rows = json.loads(done.stdout.strip().splitlines()[-1])
    per_round = [r["ms_per_round"] for r in rows if r["rounds"] >= 40]
    return {"id": run_id(__file__), "rows": rows,
            "linear": max(per_round) <= 1.5 * min(per_round) if per_round else None}


if __name__ == "__main__":
    main(run, "bench.pdf_scaling")
