"""The table-side server (issue 14): `bin/run --table` (zhuoji_site/table.py) serves the phones on
this machine's network under gunicorn, DEBUG off, plain HTTP, the LAN address allowed.

Tests talk to loopback only (tests/loopback.py): the server is told that its "LAN address" is
192.168.1.23 (ZHUOJI_LAN_ADDRESSES, as a user would when the discovery picks the wrong network),
binds 127.0.0.2, and every request goes to 127.0.0.2 with the Host header a phone on the Wi-Fi
would send (192.168.1.23:port). The discovery itself is a pure function, tested without traffic.
Started with a throwaway data folder and database, asked for pages, and stopped.
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.timing import scaled_s, wait_until
from zhuoji_site import table

BASE_DIR = Path(settings.BASE_DIR)
LAN = "192.168.1.23"  # what the phones see; never connected to
BIND = "127.0.0.2"    # where the server really listens: loopback


def free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("table")
    port = free_port(BIND)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(ZHUOJI_DATA_DIR=str(root / "var"), DATABASE_URL=f"sqlite:///{root / 'db.sqlite3'}",
               ZHUOJI_LAN_ADDRESSES=LAN)
    log = root / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "zhuoji_site.table", str(port), "--bind", BIND],
                                   cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)

    def listening() -> bool:
        if process.poll() is not None:
            raise RuntimeError("the table server stopped:\n" + log.read_text(errors="replace"))
        try:
            socket.create_connection((BIND, port), timeout=1).close()
            return True
        except OSError:
            return False

    try:
        wait_until(listening, 180, "the table server (it migrates and collects static files first)", step=0.2)
        yield {"host": BIND, "lan": LAN, "port": port, "root": root, "log": log}
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=scaled_s(20))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def fetch(server, method: str, path: str, *, host: str | None = None, body: str | None = None, headers=None,
          timeout: float = 30):
    """A request as a phone on the Wi-Fi sends it (Host: the LAN address), sent over loopback."""
    conn = http.client.HTTPConnection(server["host"], server["port"], timeout=scaled_s(timeout))
    try:
        conn.request(method, path, body=body,
                     headers={"Host": host or f"{server['lan']}:{server['port']}", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def test_it_prints_the_lan_address_and_a_qr_code(server):
    printed = server["log"].read_text(errors="replace")
    assert f"http://{server['lan']}:{server['port']}/" in printed
    assert "█" in printed and "▀" in printed  # the QR code, in half blocks


def test_a_phone_on_the_lan_opens_an_evening_over_plain_http(server):
    status, headers, body = fetch(server, "GET", "/evening/new/")
    assert status == 200 and "Strict-Transport-Security" not in headers
    set_cookies = " ".join(headers.get_all("Set-Cookie"))
    assert "Secure" not in set_cookies  # plain HTTP: a secure-only cookie would never come back
    cookie = re.search(r"csrftoken=([^;]+)", set_cookies).group(1)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    origin = f"http://{server['lan']}:{server['port']}"
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
                                    headers={"Referer": f"http://{server['lan']}/v/{token}/"})
    assert status == 404
    # The access log is written after the answer.
    log = wait_until(lambda: (text := server["log"].read_text(errors="replace")) and "/v/…/" in text and text,
                     10, "the access log line")
    assert "/e/…/history/" in log and "/v/…/" in log
    assert token not in log


def test_sixteen_clients_trickling_a_body_leave_the_other_phones_served(server):
    """Issue 23: clients sending a request body a byte at a time held a thread each of the threaded
    server (2 workers × 4 threads): with 8 of them, 0 of 8 page loads were answered within 5 s.
    Under the asgi worker the event loop reads the bodies and holds no thread for them: with 16
    still trickling (a byte every 0.2 s each), another phone's round form comes within 1 s (the
    issue's bound, stretched by tests/timing.py's factor on a loaded machine; bench/cluster.py
    measures the unstretched second with 16 tricklers per server)."""
    tricklers = []
    stop = threading.Event()

    def drip():
        while not stop.wait(0.2):
            for sock in tricklers:
                try:
                    sock.sendall(b"b")
                except OSError:
                    pass

    dripper = threading.Thread(target=drip, daemon=True)
    try:
        for _ in range(16):
            sock = socket.create_connection((server["host"], server["port"]), timeout=30)
            sock.sendall(f"POST /round/preview/ HTTP/1.1\r\nHost: {server['lan']}:{server['port']}\r\n"
                         "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n"
                         "a=".encode())
            tricklers.append(sock)
        dripper.start()
        time.sleep(1)  # every trickler is now past its headers, in the middle of its body
        for _ in range(5):
            started = time.monotonic()
            status, _headers, body = fetch(server, "GET", "/round/", timeout=10)
            took = time.monotonic() - started
            assert status == 200 and b"</html>" in body
            assert took < scaled_s(1), f"a page took {took:.2f} s with 16 clients trickling"
        for sock in tricklers:  # still connected: nothing timed them out to make room
            sock.sendall(b"b")
    finally:
        stop.set()
        for sock in tricklers:
            sock.close()


def test_a_body_over_the_cap_is_refused_before_it_is_read(server):
    """The ASGI handler spools a whole body before any middleware runs: zhuoji_site/asgi.py refuses
    one whose Content-Length is over the cap at once, without waiting for its bytes."""
    sock = socket.create_connection((server["host"], server["port"]), timeout=scaled_s(10))
    try:
        sock.sendall(f"POST /round/preview/ HTTP/1.1\r\nHost: {server['lan']}:{server['port']}\r\n"
                     f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {11 * 1024 * 1024}\r\n\r\n"
                     "a=".encode())
        assert sock.recv(4096).startswith(b"HTTP/1.1 413")
    finally:
        sock.close()


@pytest.mark.parametrize("found, usable", [
    (["192.168.1.23", "192.168.1.23", "fe80::1", "10.0.0.5", "2001:db8::7"],
     ["192.168.1.23", "10.0.0.5", "2001:db8::7"]),        # once each, IPv4 first, no link-local
    (["127.0.0.1", "::1", "0.0.0.0", "224.0.0.1"], []),    # loopback, unspecified, multicast
    (["not-an-address", "172.17.0.1"], ["172.17.0.1"]),
])
def test_the_lan_addresses_announced_are_those_other_devices_can_reach(found, usable):
    assert table.usable_addresses(found) == usable


def test_the_lan_addresses_can_be_said_instead_of_found():
    assert table.lan_addresses({"ZHUOJI_LAN_ADDRESSES": "192.168.1.23, 10.0.0.5"}) == ["192.168.1.23", "10.0.0.5"]


def test_a_body_of_unannounced_length_is_cut_at_the_cap():
    """A chunked body names no length: zhuoji_site/asgi.py counts it as it comes and answers 413
    once it passes the cap, without the app reading the rest."""
    from zhuoji_site.asgi import capped

    async def app(scope, receive, send):
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"read it all"})

    pieces = iter([{"type": "http.request", "body": b"x" * 6, "more_body": True}] * 5)
    sent = []

    async def receive():
        return next(pieces)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "headers": [(b"transfer-encoding", b"chunked")]}
    # In a thread of its own: after a browser test, Playwright's sync API keeps an event loop
    # running in this one, where asyncio.run refuses to start another.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, capped(app, limit=10)(scope, receive, send)).result()
    assert sent[0]["status"] == 413 and next(pieces, None) is not None  # the rest was never read


def test_a_request_the_phone_gave_up_on_is_logged_as_499_not_as_a_server_error():
    """A preview made stale by a newer tap is dropped by the phone; Django then answers nothing,
    which gunicorn logged as a 500 (seen five times in a new player's evening, with no error
    behind them): zhuoji_site/asgi.py says 499, as nginx does for a client that closed first."""
    from zhuoji_site.asgi import capped

    async def aborted(scope, receive, send):
        await receive()  # Django sees the disconnect and returns without a response

    async def answered(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    def run(app) -> list[int]:
        sent = []

        async def receive():
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message.get("status"))

        with ThreadPoolExecutor(1) as pool:  # see the test above: not in Playwright's loop
            pool.submit(asyncio.run, capped(app, limit=10)({"type": "http", "headers": []}, receive, send)).result()
        return [status for status in sent if status is not None]

    assert run(aborted) == [499]
    assert run(answered) == [200]


def test_it_takes_host_and_port_as_bin_run_does_and_names_only_the_address_it_listens_on(monkeypatch, capsys):
    """`bin/run --table 127.0.0.1:8766` (the form `bin/run` takes) listens there, and a server on
    loopback does not print a Wi-Fi address and a QR code that no phone could reach."""
    started = {}
    monkeypatch.delenv("ZHUOJI_LAN_ADDRESSES", raising=False)
    monkeypatch.setattr(table, "lan_addresses", lambda: ["192.168.1.23"])
    monkeypatch.setattr(table.subprocess, "run", lambda *a, **k: None)  # no migrate, no collectstatic
    monkeypatch.setattr(table, "data_dir", lambda: Path(settings.BASE_DIR) / "var")
    monkeypatch.setattr(table, "secret_key", lambda folder: "x" * 50)
    monkeypatch.setattr(table.os, "chdir", lambda path: None)
    monkeypatch.setattr(table.os, "execve", lambda path, argv, env: started.update(argv=argv))
    table.main(["127.0.0.1:8766"])
    printed = capsys.readouterr().out
    assert started["argv"][started["argv"].index("--bind") + 1] == "127.0.0.1:8766"
    assert "http://127.0.0.1:8766/" in printed and "192.168.1.23" not in printed
    assert "only this machine" in printed
    table.main(["8767"])
    printed = capsys.readouterr().out
    assert started["argv"][started["argv"].index("--bind") + 1] == "0.0.0.0:8767"
    assert "http://192.168.1.23:8767/" in printed and "scan this" in printed
    with pytest.raises(SystemExit):
        table.main(["not-a-port"])
