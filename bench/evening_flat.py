"""The evening page of a 500-round evening against a 20-round one (issue 15): bytes (as sent,
gzipped, and raw) and time to render, in-process with Django's test client.

    .venv/bin/python -m bench.evening_flat [--quick] [--json FILE]

The 20 rounds are stored through the services (bench/seed.py); the 500-round evening copies
them under later numbers (bulk insert: the page reads stored rounds, it never re-scores them).
Time is the median of 15 GETs (5 with --quick), CPU time of this thread. Target: within 1.5×.
"""
from __future__ import annotations

import json
import subprocess
import sys

from .common import ROOT, main, run_id
from .site import prepared_site

TARGET = 1.5


def _measure(repeats: int) -> dict:
    import statistics
    import time

    import django

    django.setup()
    from django.test import Client

    from bench.seed import seed
    from calculator.models import Evening, Round

    short = Evening.objects.get(token=seed(20)["token"])
    long = Evening.objects.get(token=seed(20)["token"])
    model = list(Round.objects.filter(evening=long).order_by("number"))
    Round.objects.bulk_create(
        Round(evening=long, number=n, record=r.record, settlement=r.settlement, rules=r.rules, net=r.net,
              dealer=r.dealer, next_dealer=r.next_dealer)
        for n in range(21, 501) for r in [model[n % 20]])
    client = Client(HTTP_HOST="127.0.0.1")
    out = {}
    for name, evening in (("20 rounds", short), ("500 rounds", long)):
        url = f"/e/{evening.token}/"
        times = []
        for _ in range(repeats):
            start = time.thread_time()
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
            times.append(time.thread_time() - start)
        raw = client.get(url).content
        out[name] = {"gzip_bytes": len(response.content), "raw_bytes": len(raw),
                     "median_ms": round(statistics.median(times) * 1000, 1)}
    return out


def run(quick: bool) -> dict:
    with prepared_site() as site:
        code = f"import json; from bench.evening_flat import _measure; print(json.dumps(_measure({5 if quick else 15})))"
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=site.env,
                              capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])
        pages = json.loads(done.stdout.strip().splitlines()[-1])
    short, long = pages["20 rounds"], pages["500 rounds"]
    ratios = {key: round(long[key] / short[key], 2) for key in ("gzip_bytes", "raw_bytes", "median_ms")}
    return {"id": run_id(__file__), "pages": pages, "ratio_500_to_20": ratios, "target": TARGET,
            "ok": all(r <= TARGET for r in ratios.values())}


if __name__ == "__main__":
    main(run, "bench.evening_flat")
