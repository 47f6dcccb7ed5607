"""Part 6, imports against the other tables (issue 14): while anonymous clients import the
biggest evening the import accepts, over and over, how long does another table's round post take?

    .venv/bin/python -m bench.imports [--quick] [--json FILE]

The app runs as in production on a temp SQLite database under gunicorn on 127.0.0.1, as
`bin/run --table` ran it before issue 23 (gthread workers; now the asgi worker), twice on the one database: the importers use one
server and the other table the other, so that what is measured is the database (SQLite's one
write lock), not two threads of one Python process taking turns. One evening ("the other table") has a few rounds;
a file of as many scored rounds (each with its history) as fit in the import's 8 MB cap (at
most its round cap) is made without the database. Then, one after the other: round posts to the other table alone
(the baseline), and round posts from the start to the end of two clients importing that file once each. An import checks the
whole file before it opens its short write transaction, so the other table's posts should wait
for a write lock of well under a second, never for the import's checking.
"""
from __future__ import annotations

import http.client
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

IMPORTS_PER_CLIENT = 1
TARGET_DELAY = 1.0  # seconds a round post may be held up by an import (issue 14)

EXPORT = """
import json, sys, uuid, django
django.setup()
from django.utils import timezone
from calculator.presentation import settlement_json
from calculator.scoring import RecordInvalid, rules_for, settle_record
from calculator.services.exchange import EXPORT_FORMAT, MAX_ROUNDS
from bench.records import records
cap, path = min(int(sys.argv[1]), MAX_ROUNDS), sys.argv[2]
names, rules = ["东哥", "南姐", "西西", "北北"], rules_for("guiyang", {})[0].to_dict()
now = timezone.now().isoformat()
data = {"format": EXPORT_FORMAT, "title": "bench", "created_at": now, "stake": "1", "rules": rules,
        "first_dealer": 0, "players": names, "rounds": [], "history": [], "paid": []}
size, limit = 1000, 8 * 1024 * 1024 - 64 * 1024  # the import's file cap, less the multipart's share
pool, _ = records(cap * 3, 20240605, players=4)
for record in pool:
    if len(data["rounds"]) == cap:
        break
    record = {**record, "preset": "guiyang", "options": {k: v for k, v in rules.items() if k != "preset"},
              "stake": "1", "seats": [{**s, "name": n} for s, n in zip(record["seats"], names)]}
    try:
        s = settle_record(record)
    except RecordInvalid:
        continue
    snap = {"number": len(data["rounds"]) + 1, "record": s.record.to_dict(),
            "settlement": settlement_json(s, words=True), "rules": rules, "net": list(s.net),
            "dealer": s.record.dealer, "next_dealer": s.next_dealer, "version": 1}
    change = {"round_number": snap["number"], "kind": "created", "at": now, "by": "", "before": None,
              "after": snap}
    grow = 2 * len(json.dumps(snap, ensure_ascii=False).encode()) + 200
    if size + grow > limit:
        break
    size += grow
    data["rounds"].append({**snap, "idempotency_key": str(uuid.uuid4()), "created_at": now, "updated_at": now})
    data["history"].append(change)
text = json.dumps(data, ensure_ascii=False)
while len(text.encode()) > limit:
    data["rounds"] = data["rounds"][:-20]
    data["history"] = data["history"][:len(data["rounds"])]
    text = json.dumps(data, ensure_ascii=False)
open(path, "w", encoding="utf-8").write(text)
print(json.dumps({"rounds": len(data["rounds"]), "history": len(data["history"]), "bytes": len(text.encode())}))
"""


def _send_slow(port: int, request: Request) -> tuple[int, float]:
    """`_send` with time for an 8 MB import on a busy machine."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=600)
    try:
        conn.request(request.method, request.path, body=request.body, headers=request.headers)
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    except OSError:
        return 0, time.perf_counter() - start
    finally:
        conn.close()


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
        table_server = ["--worker-class", "gthread", "--workers", "2", "--threads", "4"]
        with gunicorn(site, args=table_server) as port, gunicorn(site, args=table_server) as import_port:
            csrf = _csrf(port)
            importing = Request("POST", "/evening/import/", body, {
                "Content-Type": content_type, "Connection": "close", "Cookie": f"csrftoken={csrf}",
                "X-CSRFToken": csrf})
            _posts(port, token, csrf, 3, 0)  # warm-up
            alone = _posts(port, token, csrf, posts)
            imports, during = [], []

            def loop() -> None:
                for _ in range(IMPORTS_PER_CLIENT):
                    imports.append(_send_slow(import_port, importing))

            loops = [threading.Thread(target=loop) for _ in range(2)]
            for thread in loops:
                thread.start()
            # Post until every import is done, so that posts meet each import's write too.
            while any(thread.is_alive() for thread in loops):
                during += _posts(port, token, csrf, 1)
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
