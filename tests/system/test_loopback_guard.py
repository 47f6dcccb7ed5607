"""The suite's own connections stay on this machine (tests/loopback.py, on for every test)."""
from __future__ import annotations

import socket

import pytest

from tests.loopback import NonLoopbackConnection, is_loopback


@pytest.mark.parametrize("address", ["192.168.1.23", "10.0.0.1", "8.8.8.8", "172.17.0.1"])
def test_a_connection_outside_loopback_is_refused_before_anything_is_sent(address):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(NonLoopbackConnection):
        sock.connect((address, 80))


def test_connect_ex_and_create_connection_are_guarded_too():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock, pytest.raises(NonLoopbackConnection):
        sock.connect_ex(("192.0.2.1", 9))  # even a UDP "connect" that sends nothing
    with pytest.raises(NonLoopbackConnection):
        socket.create_connection(("203.0.113.9", 443), timeout=1)


def test_loopback_is_allowed():
    with socket.socket() as server:
        server.bind(("127.0.0.3", 0))
        server.listen()
        socket.create_connection(server.getsockname(), timeout=5).close()


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("127.255.0.9", True), ("::1", True), ("::ffff:127.0.0.1", True),
    ("128.0.0.1", False), ("::ffff:10.0.0.1", False), ("localhost.example", False),
])
def test_what_counts_as_loopback(host, loopback):
    assert is_loopback(host) is loopback
