"""Part 6, imports against the other tables (issue 14): while anonymous clients import the
biggest evening the import accepts, over and over, how long does another table's round post take?

    .venv/bin/python -m bench.imports [--quick] [--json FILE]

The app runs as in production on a temp SQLite database under gunicorn on 127.0.0.1, as
`bin/run --table` runs it (gthread workers). One evening ("the other table") has a few rounds;
a second is seeded with as many rounds as fit in the import's 8 MB file cap (at most the import's
round cap) and exported. Then, one after the other: round posts to the other table alone
(the baseline), and round posts while two clients import that file in a loop. An import checks the
whole file before it opens its short write transaction, so the other table's posts should wait
for a write lock of well under a second, never for the import's checking.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid

from .common import ROOT, main, median, run_id
from .records import examples
from .site import HOST, gunicorn, prepared_site
from .web import Request, _csrf, _form_body, _send

TARGET_DELAY = 1.0  # seconds a round post may be held up by an import (issue 14)

EXPORT = """
import json, sys, django
django.setup()
from calculator import services
from calculator.services.exchange import MAX_ROUNDS
from bench.seed import seed
from calculator.models import Evening
cap, path = int(sys.argv[1]), sys.argv[2]
tokens = seed(min(cap, MAX_ROUNDS))
data = services.evening_export(evening=Evening.objects.get(token=tokens["token"]))
text = json.dumps(data, ensure_ascii=False)
while len(text.encode()) > 8 * 1024 * 1024 - 4096:  # fit the import's file cap
    data["rounds"].pop(); data["history"] = [c for c in data["history"]
                                             if c["round_number"] <= data["rounds"][-1]["number"]]
    text = json.dumps(data, ensure_ascii=False)
open(path, "w", encoding="utf-8").write(text)
print(json.dumps({"rounds": len(data["rounds"]), "history": len(data["history"]), "bytes": len(text.encode())}))
"""


def _multipart(content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"e.json\"\r\n"
            f"Content-Type: application/json\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def _round_post(port: int, token: str, csrf: str) -> Request:
    from tests.round_form_data import record_to_post_data

    data = {**record_to_post_data(examples()[0]), "idempotency_key": str(uuid.uuid4())}
    return Request("POST", f"/e/{token}/rounds/new/", _form_body(data), {
        "Content-Type": "application/x-www-form-urlencoded", "Connection": "close",
        "Cookie": f"csrftoken={csrf}", "X-CSRFToken": csrf})


def _posts(port: int, token: str, csrf: str, n: int, pause: float = 0.2) -> list[tuple[int, float]]:
    out = []
    for _ in range(n):
        out.append(_send(port, _round_post(port, token, csrf)))
        time.sleep(pause)
    return out


def run(quick: bool) -> dict:
    posts = 15 if quick else 40
    with prepared_site(seed_rounds=5) as site:
        site.env.update({"DJANGO_RATE_IMPORTS": "100000", "DJANGO_CACHE_DIR": str(site.folder / "cache")})
        path = site.folder / "big.json"
        done = subprocess.run([sys.executable, "-c", EXPORT, str(300 if quick else 2000), str(path)], cwd=ROOT,
                              env=site.env, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])
        export = json.loads(done.stdout.strip().splitlines()[-1])
        token = json.loads(site.env["BENCH_EVENING"])["token"]
        body, content_type = _multipart(path.read_bytes())
        with gunicorn(site, args=["--worker-class", "gthread", "--workers", "2", "--threads", "4"]) as port:
            csrf = _csrf(port)
            importing = Request("POST", "/evening/import/", body, {
                "Content-Type": content_type, "Connection": "close", "Cookie": f"csrftoken={csrf}",
                "X-CSRFToken": csrf})
            _posts(port, token, csrf, 3, 0)  # warm-up
            alone = _posts(port, token, csrf, posts)
            stop, imports = threading.Event(), []

            def loop() -> None:
                while not stop.is_set():
                    imports.append(_send(port, importing))

            loops = [threading.Thread(target=loop) for _ in range(2)]
            for thread in loops:
                thread.start()
            time.sleep(1.0)
            during = _posts(port, token, csrf, posts)
            stop.set()
            for thread in loops:
                thread.join()
    base = median([s for _, s in alone])
    worst = max(s for _, s in during)
    failures = [f"round post answered {code}" for code, _ in alone + during if code != 302]
    failures += [f"import answered {code}" for code, _ in imports if code != 302]
    return {
        "id": run_id(__file__), "ok": not failures, "failures": failures[:10],
        "export": export,
        "imports": {"count": len(imports), "median_s": median([s for _, s in imports])},
        "round_post_alone": {"count": len(alone), "median_s": base, "max_s": max(s for _, s in alone)},
        "round_post_during_imports": {"count": len(during), "median_s": median([s for _, s in during]),
                                      "max_s": worst},
        "worst_delay_s": worst - base, "target_s": TARGET_DELAY, "met": worst - base <= TARGET_DELAY,
        "host": HOST,
    }


if __name__ == "__main__":
    main(run, "bench.imports")
