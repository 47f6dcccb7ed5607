"""The suite talks to this machine only: every connection a test's own code opens goes to the
loopback range (127.0.0.0/8, ::1) or to a Unix socket. Anything else is refused before a packet
is sent, with an error that names the address (tests/conftest.py turns the guard on for the
whole session; tests/system/test_loopback_guard.py proves it refuses).

Processes the tests start (Chromium, gunicorn, PostgreSQL) are outside Python's reach: they are
pointed at loopback addresses by the tests that start them.
"""
from __future__ import annotations

import ipaddress
import socket

_original_connect = socket.socket.connect
_original_connect_ex = socket.socket.connect_ex


class NonLoopbackConnection(RuntimeError):
    """Not an OSError on purpose: code that retries on network errors must not swallow it."""


def is_loopback(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback


def _check(sock: socket.socket, address) -> None:
    if sock.family not in (socket.AF_INET, socket.AF_INET6):
        return  # a Unix socket, a netlink socket: not the network
    host = address[0]
    if is_loopback(host):
        return
    try:  # a name: every address it resolves to must be loopback
        resolved = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except (OSError, UnicodeError):
        resolved = set()
    if resolved and all(is_loopback(ip) for ip in resolved):
        return
    raise NonLoopbackConnection(f"a test tried to connect to {host!r} (port {address[1]}): "
                                "tests and benchmarks talk to 127.0.0.0/8 only")


def _guarded_connect(self, address):
    _check(self, address)
    return _original_connect(self, address)


def _guarded_connect_ex(self, address):
    _check(self, address)
    return _original_connect_ex(self, address)


def install() -> None:
    socket.socket.connect = _guarded_connect
    socket.socket.connect_ex = _guarded_connect_ex


def uninstall() -> None:
    socket.socket.connect = _original_connect
    socket.socket.connect_ex = _original_connect_ex
