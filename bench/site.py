"""A throwaway production-like site for parts 3–5: DEBUG off, WhiteNoise, a temp SQLite DB.

`prepared_site()` makes a temp folder with a migrated database and collectstatic output and
gives back the environment that points Django at them (bench/bench_settings.py reads it).
`gunicorn(site)` serves that site on 127.0.0.1 only, on a free port, and always stops it.
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .common import ROOT

HOST = "127.0.0.1"  # loopback only: the load never leaves this machine
WORKERS = 2  # one sync worker per core of the 2-core machine


@dataclass
class Site:
    folder: Path
    env: dict[str, str]
    setup_seconds: float

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return done.stdout


def site_env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "bench.bench_settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": f"{HOST},testserver",
        "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        "BENCH_STATIC_ROOT": str(folder / "static"),
        "PYTHONPATH": str(ROOT),
    })
    return env


@contextlib.contextmanager
def prepared_site(seed_rounds: int = 0) -> Iterator[Site]:
    """Migrate a temp database, collect the static files; with `seed_rounds`, seed an evening
    (bench/seed.py) whose tokens are then in `site.env["BENCH_EVENING"]` as JSON."""
    folder = Path(tempfile.mkdtemp(prefix="zhuoji-bench-site-"))
    try:
        start = time.perf_counter()
        site = Site(folder, site_env(folder), 0.0)
        site.manage("migrate", "--noinput", "-v", "0")
        site.manage("collectstatic", "--noinput", "-v", "0")
        if seed_rounds:
            done = subprocess.run([sys.executable, "-m", "bench.seed", str(seed_rounds)], cwd=ROOT,
                                  env=site.env, capture_output=True, text=True, check=False)
            if done.returncode:
                raise RuntimeError(f"seeding the evening failed:\n{done.stderr[-3000:]}")
            site.env["BENCH_EVENING"] = done.stdout.strip().splitlines()[-1]
        site.setup_seconds = time.perf_counter() - start
        yield site
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def get(port: int, path: str, headers: dict[str, str] | None = None,
        timeout: float = 30) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        headers: dict[str, str] = {}
        for name, value in response.getheaders():  # Set-Cookie comes once per cookie: keep them all
            headers[name.lower()] = f"{headers[name.lower()]}\n{value}" if name.lower() in headers else value
        return response.status, headers, response.read()
    finally:
        conn.close()


@contextlib.contextmanager
def gunicorn(site: Site, args: list[str] | None = None) -> Iterator[int]:
    """gunicorn on 127.0.0.1:<free port> with the site's settings; yields the port. `args`
    come last, so they may override the defaults (e.g. the worker class)."""
    port = _free_port()
    log = site.folder / "gunicorn.log"
    command = [
        str(Path(sys.executable).with_name("gunicorn")), "zhuoji_site.wsgi:application",
        "--bind", f"{HOST}:{port}", "--workers", str(WORKERS), "--worker-class", "sync",
        "--timeout", "60", "--graceful-timeout", "5", "--error-logfile", str(log), "--log-level", "warning",
        *(args or []),
    ]
    with open(log, "ab") as out:
        server = subprocess.Popen(command, cwd=ROOT, env=site.env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120  # a busy shared machine starts workers slowly
        while True:
            try:
                if get(port, "/bench/trivial", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)
        yield port
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def evening_tokens(site: Site) -> dict:
    return json.loads(site.env["BENCH_EVENING"])
