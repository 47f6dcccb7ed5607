"""The table-side server (issue 14): `bin/run --table` (zhuoji_site/table.py) serves the phones on
this machine's network under gunicorn, DEBUG off, plain HTTP, the LAN address allowed.

Tests talk to loopback only (tests/loopback.py): the server is told that its "LAN address" is
192.168.1.23 (ZHUOJI_LAN_ADDRESSES, as a user would when the discovery picks the wrong network),
binds 127.0.0.2, and every request goes to 127.0.0.2 with the Host header a phone on the Wi-Fi
would send (192.168.1.23:port). The discovery itself is a pure function, tested without traffic.
Started with a throwaway data folder and database, asked for pages, and stopped.
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


def test_four_phones_trickling_a_body_leave_the_others_served(server):
    """Issue 14's probe: four clients each sending a request body a byte at a time held every
    worker of the old sync server, and the other phones' requests timed out after 15–20 s. The
    table server's threads (2 workers × 4) leave room for them while the four trickle. (With 2 × 1
    the first page below waited 21 s here: the 10 s is a hang detector, not a speed target.)"""
    tricklers = []
    try:
        for _ in range(4):
            sock = socket.create_connection((server["host"], server["port"]), timeout=30)
            sock.sendall(f"POST /round/preview/ HTTP/1.1\r\nHost: {server['lan']}:{server['port']}\r\n"
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
