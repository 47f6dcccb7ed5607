"""A network that can go away: a loopback TCP relay between the phones and the test server.

`set_offline()` in Playwright does not reach a service worker's own requests, and a real outage
is the server (or the Wi-Fi) not answering at all. While the relay is down every connection to
it, open or new, is cut, so the page, its scripts and its service worker all see what a phone in
a basement sees.
"""
from __future__ import annotations

import socket
import threading
from urllib.parse import urlsplit


class Relay:
    def __init__(self, upstream_url: str):
        parts = urlsplit(upstream_url)
        self.upstream = ("127.0.0.1" if parts.hostname == "localhost" else parts.hostname, parts.port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.online = True
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def go_offline(self) -> None:
        with self._lock:
            self.online = False
            for sock in self._open:
                _close(sock)
            self._open.clear()

    def go_online(self) -> None:
        self.online = True

    def close(self) -> None:
        self.go_offline()
        _close(self.listener)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.online:
                _close(client)
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=30)
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._open |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                _close(sock)
            with self._lock:
                self._open -= {source, sink}


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
