"""Part 3, the web: latency of POST /api/settle and of the round form's live preview under a
bounded loopback load, against a trivial Django view measured in the same run.

    .venv/bin/python -m bench.web [--quick] [--json FILE]

The app runs as in production (DJANGO_DEBUG=0, WhiteNoise, a migrated SQLite database) under
gunicorn with 2 sync workers on 127.0.0.1, started and stopped by this script (bench/site.py).
8 client threads in this process send 2,000 requests to each endpoint (400 with --quick), each
on a new connection as gunicorn's sync workers close them, after 100 untimed warm-up requests.
The endpoints take turns in 8 slices, so that other work on the (shared) machine weighs on all
three alike. A request's latency runs from connecting to having read the whole answer.

Beside it, each endpoint's median CPU time per request in-process (Django's test client, 300
requests): the app's own cost, which the latencies under load multiply.

- trivial: `POST /bench/trivial` (bench/bench_urls.py) with the same JSON body as the API gets;
  it goes through every middleware and returns "ok".
- api: `POST /api/settle` with a round record as JSON; answers the settlement.
- preview: `POST /round/preview/` with the round form's fields for the same records, the CSRF
  cookie and header and `HX-Request`, as htmx sends it on every change; answers the partial.
"""
from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlencode

from .common import ROOT, main, median, percentile, run_id
from .records import records
from .site import HOST, WORKERS, get, gunicorn, prepared_site

CLIENTS = 8
SLICES = 8
TARGET_RATIO = 2.0
SEED = 20240603


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes
    headers: dict[str, str]


def _send(port: int, request: Request) -> tuple[int, float]:
    start = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request(request.method, request.path, body=request.body, headers=request.headers)
        response = conn.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = 0
    finally:
        conn.close()
    return status, time.perf_counter() - start


def hammer(port: int, requests: list[Request],
           clients: int = CLIENTS) -> tuple[list[float], list[int], float]:
    """Send every request once from `clients` threads; latencies, statuses, wall seconds."""
    latencies: list[float] = [0.0] * len(requests)
    statuses: list[int] = [0] * len(requests)
    lock = threading.Lock()
    next_index = iter(range(len(requests)))

    def client() -> None:
        while True:
            with lock:
                i = next(next_index, None)
            if i is None:
                return
            statuses[i], latencies[i] = _send(port, requests[i])

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, statuses, time.perf_counter() - start


def _csrf(port: int) -> str:
    status, headers, _ = get(port, "/round/")
    cookie = headers.get("set-cookie", "")
    for part in cookie.replace("\n", ";").split(";"):
        name, _, value = part.strip().partition("=")
        if name.endswith("csrftoken"):
            return value
    raise RuntimeError(f"GET /round/ ({status}) set no csrftoken cookie")


def _form_body(data: dict) -> bytes:
    return urlencode(data, doseq=True).encode()


def _requests(port: int, n: int) -> tuple[dict[str, list[Request]], str]:
    from tests.round_form_data import record_to_post_data

    pool, source = records(n, SEED)
    json_type = {"Content-Type": "application/json", "Connection": "close"}
    token = _csrf(port)
    form_headers = {
        "Content-Type": "application/x-www-form-urlencoded", "Connection": "close",
        "Cookie": f"csrftoken={token}", "X-CSRFToken": token, "HX-Request": "true",
    }
    bodies = [json.dumps(r, ensure_ascii=False).encode() for r in pool]
    return {
        "trivial": [Request("POST", "/bench/trivial", b, json_type) for b in bodies],
        "api": [Request("POST", "/api/settle", b, json_type) for b in bodies],
        "preview": [
            Request("POST", "/round/preview/", _form_body(record_to_post_data(r)), form_headers) for r in pool
        ],
    }, source


def _cpu_per_request(site, n: int) -> dict[str, float]:
    """Median CPU ms per request of each endpoint, in-process through Django's test client: the
    app's own cost, free of the network, gunicorn and the other work on the machine."""
    code = f"import json; from bench.web import _cpu_inside; print(json.dumps(_cpu_inside({n})))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=site.env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"in-process timing failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _cpu_inside(n: int) -> dict[str, float]:
    import django

    django.setup()
    from django.test import Client

    from tests.round_form_data import record_to_post_data

    pool, _ = records(n, SEED)
    client = Client(HTTP_HOST=HOST)
    client.get("/round/")
    token = client.cookies["csrftoken"].value
    htmx = {"HTTP_X_CSRFTOKEN": token, "HTTP_HX_REQUEST": "true"}
    form = "application/x-www-form-urlencoded"
    calls = {
        "trivial": [("/bench/trivial", json.dumps(r), "application/json", {}) for r in pool],
        "api": [("/api/settle", json.dumps(r), "application/json", {}) for r in pool],
        "preview": [("/round/preview/", _form_body(record_to_post_data(r)), form, htmx) for r in pool],
    }
    out = {}
    for name, requests in calls.items():
        times = []
        for path, body, content_type, extra in requests[:20] + requests:  # 20 untimed first
            start = time.thread_time()
            response = client.post(path, body, content_type=content_type, **extra)
            times.append(time.thread_time() - start)
            if response.status_code != 200:
                raise RuntimeError(f"{path} answered {response.status_code}")
        out[name] = median(times[20:]) * 1e3
    return out


def run(quick: bool) -> dict:
    n = 400 if quick else 2_000
    results: dict = {"part": "web", "rows": [], "failures": [], "summary": [],
                     "setup": {"clients": CLIENTS, "requests": n, "workers": WORKERS, "host": HOST}}
    with prepared_site() as site:
        with gunicorn(site) as port:
            sets, source = _requests(port, n)
            results["setup"]["records"] = source
            timed = {name: ([], [], 0.0) for name in sets}
            for requests in sets.values():
                hammer(port, requests[:100])  # warm-up, untimed
            # The endpoints take turns, a slice each, so that the other work on this shared
            # machine weighs on all three alike.
            step = n // SLICES
            for start in range(0, n, step):
                for name, requests in sets.items():
                    latencies, statuses, wall = hammer(port, requests[start:start + step])
                    done = timed[name]
                    timed[name] = (done[0] + latencies, done[1] + statuses, done[2] + wall)
        cpu = _cpu_per_request(site, min(n, 300))
        for name, (latencies, statuses, wall) in timed.items():
            bad = [s for s in statuses if not 200 <= s < 300]
            if bad:
                results["failures"].append(f"{name}: {len(bad)} of {n} answered {sorted(set(bad))}")
            results["rows"].append({
                "what": name,
                "path": sets[name][0].path,
                "requests": len(latencies),
                "errors": len(bad),
                "median_ms": median(latencies) * 1e3,
                "p99_ms": percentile(latencies, 99) * 1e3,
                "requests_per_second": len(latencies) / wall,
                "cpu_ms_per_request": cpu.get(name),
            })
    base = results["rows"][0]
    for row in results["rows"][1:]:
        row["median_ratio"] = row["median_ms"] / base["median_ms"]
        row["p99_ratio"] = row["p99_ms"] / base["p99_ms"]
        within = row["median_ratio"] <= TARGET_RATIO and row["p99_ratio"] <= TARGET_RATIO
        row["met"] = within and not row["errors"]
    for row in results["rows"]:
        line = {
            "figure": f"{row['what']}: POST {row['path']}, {CLIENTS} clients × {n}",
            "value": f"median {row['median_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms,"
                     f" {row['requests_per_second']:.0f}/s",
        }
        if row.get("cpu_ms_per_request") is not None:
            line["value"] += f"; {row['cpu_ms_per_request']:.2f} ms CPU in-process"
        if "met" in row:
            line["value"] += f" = {row['median_ratio']:.1f}x / {row['p99_ratio']:.1f}x trivial"
            line["target"] = f"<= {TARGET_RATIO:g}x trivial"
            line["met"] = row["met"]
        results["summary"].append(line)
    results["ok"] = not results["failures"]
    return results


if __name__ == "__main__":
    main(run, run_id(__file__))
