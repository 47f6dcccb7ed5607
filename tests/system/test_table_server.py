"""The table-side server (issue 14): `bin/run --table` (zhuoji_site/table.py) serves the phones on
this machine's network under gunicorn, DEBUG off, plain HTTP, the LAN address allowed. Started
here on a non-loopback address of this machine when it has one (else 127.0.0.1) with a throwaway
data folder and database, asked for pages as a phone on the Wi-Fi would, and stopped.
"""
from __future__ import annotations

import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from zhuoji_site import table

BASE_DIR = Path(settings.BASE_DIR)


def free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("table")
    lan = next((a for a in table.lan_addresses() if ":" not in a), None)
    host = lan or "127.0.0.1"
    port = free_port(host)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(ZHUOJI_DATA_DIR=str(root / "var"), DATABASE_URL=f"sqlite:///{root / 'db.sqlite3'}")
    log = root / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "zhuoji_site.table", str(port), "--bind", host],
                                   cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        deadline = time.monotonic() + 180  # migrate and collectstatic first, on a busy machine
        while True:
            try:
                socket.create_connection((host, port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the table server did not start:\n" + log.read_text(errors="replace"))
                time.sleep(0.2)
        yield {"host": host, "port": port, "root": root, "log": log, "lan": lan}
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def fetch(server, method: str, path: str, *, host: str | None = None, body: str | None = None, headers=None,
          timeout: float = 30):
    """A request as a phone on the Wi-Fi sends it: to the LAN address, with that Host."""
    conn = http.client.HTTPConnection(server["host"], server["port"], timeout=timeout)
    try:
        conn.request(method, path, body=body,
                     headers={"Host": host or f"{server['host']}:{server['port']}", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def test_it_prints_the_lan_address_and_a_qr_code(server):
    printed = server["log"].read_text(errors="replace")
    assert f"http://{server['host']}:{server['port']}/" in printed
    assert "█" in printed and "▀" in printed  # the QR code, in half blocks


def test_a_phone_on_the_lan_opens_an_evening_over_plain_http(server):
    status, headers, body = fetch(server, "GET", "/evening/new/")
    assert status == 200 and "Strict-Transport-Security" not in headers
    assert "Secure" not in headers["Set-Cookie"]  # plain HTTP: a secure-only cookie would never come back
    cookie = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    origin = f"http://{server['host']}:{server['port']}"
    form = (f"csrfmiddlewaretoken={token}&player_0=A&player_1=B&player_2=C&player_3=D&stake=1"
            "&preset=guiyang&first_dealer=0&title=")
    status, headers, _body = fetch(server, "POST", "/evening/new/", body=form, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={cookie}",
        "Origin": origin, "Referer": origin + "/evening/new/"})
    assert status == 302 and re.fullmatch(r"/e/[\w-]{32}/", headers["Location"])
    status, _headers, page = fetch(server, "GET", headers["Location"])
    assert status == 200 and "A" in page.decode()


def test_debug_is_off_and_other_hosts_are_refused(server):
    status, _headers, body = fetch(server, "GET", "/no-such-page/")
    assert status == 404 and "找不到这一页".encode() in body and b"Traceback" not in body
    assert fetch(server, "GET", "/", host="evil.example")[0] == 400


def test_the_secret_key_is_made_once_and_kept_private(server):
    key = server["root"] / "var" / "secret_key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_text().strip()) >= 50


def test_the_logs_never_hold_an_evenings_address(server):
    """gunicorn's access log (the request line and the Referer) and Django's own warnings
    ("Not Found: /e/…") alike."""
    token = secrets.token_urlsafe(24)
    status, _headers, _body = fetch(server, "GET", f"/e/{token}/history/",
                                    headers={"Referer": f"http://{server['host']}/v/{token}/"})
    assert status == 404
    time.sleep(0.5)  # the access log is written after the answer
    log = server["log"].read_text(errors="replace")
    assert "/e/…/history/" in log and "/v/…/" in log
    assert token not in log


def test_four_phones_trickling_a_body_leave_the_others_served(server):
    """Issue 14's probe: four clients each sending a request body a byte at a time held every
    worker of the old sync server, and the other phones' requests timed out after 15–20 s. The
    table server's threads (2 workers × 4) leave room for them while the four trickle. (With 2 × 1
    the first page below waited 21 s here: the 10 s is a hang detector, not a speed target.)"""
    tricklers = []
    try:
        for _ in range(4):
            sock = socket.create_connection((server["host"], server["port"]), timeout=30)
            sock.sendall(f"POST /round/preview/ HTTP/1.1\r\nHost: {server['host']}:{server['port']}\r\n"
                         "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n"
                         "a=".encode())
            tricklers.append(sock)
        time.sleep(1)  # each is now inside a worker thread, waiting for the rest of its body
        for sock in tricklers:
            sock.sendall(b"b")
        for _ in range(3):
            status, _headers, body = fetch(server, "GET", "/round/", timeout=10)
            assert status == 200 and b"</html>" in body
    finally:
        for sock in tricklers:
            sock.close()
