"""Many tables on two app servers, one PostgreSQL, one Redis (issue 23): one command, loopback only.

    .venv/bin/python -m bench.cluster [--quick] [--tables N] [--seconds S] [--json FILE]

Starts, in a temp folder, a throwaway PostgreSQL 15 (initdb; as root the server runs as the
postgres user, as bin/test does), a throwaway Redis, two app servers as docs/DEPLOY.md runs them
(gunicorn's asgi worker over zhuoji_site/asgi.py, 2 workers each) on 127.0.0.2 and 127.0.0.3,
and the background worker (`manage.py db_worker`, with ZHUOJI_TASKS=db) when the project has it.
Then drives N simulated tables (100; 4 phones each) from threads of this process, half of them
on each server:

- every phone polls its evening's draft every 2 s, as static/calculator/draft.js does (`draft_base`,
  `idempotency_key`, `draft_client`), and opens the evening page when the round it polled is recorded;
- phone 0 enters a round every `round_every` s: opens the round form (a GET that opens the
  draft), saves into the draft three times (the live preview's POST, as htmx sends it), records
  the round with the draft's idempotency key, then opens the evening; after the first of every four
  rounds it also opens the report PDF.

Half-way, the server on 127.0.0.2 is killed with SIGKILL (its whole process group: master and
workers, as when a machine dies). Its phones fail over to the other server: a request that got
no answer is sent again there, a recording with the same idempotency key, and a recording whose
answer was lost is settled by asking the draft poll whether its key became a round. Sixteen
clients per server also trickle a request body a byte at a time for the whole run.

Then a quiet phase: nobody enters, the phones keep polling; the database queries of those polls
(the probe header of bench/cluster_settings.py) must be 0. At the end the database is asked for
every evening's rounds: a round the client saw recorded and the database lacks is lost; two
rounds with one key, or a round no client sent, are duplicated. Both must be 0.

Prints requests/s, p50/p95 and server CPU per request kind, queries per unchanged poll, lost and
duplicated rounds, PostgreSQL commits and row writes per second, Redis memory per table; the
capacity model of docs/CAPACITY.md is these figures multiplied out.
"""
from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections import defaultdict
from pathlib import Path

from .common import ROOT, machine, percentile

sys.path.insert(0, str(ROOT))

PG_BIN = Path("/usr/lib/postgresql/15/bin")
SERVERS = ("127.0.0.2", "127.0.0.3")
WORKERS_PER_SERVER = 2
POLL_S = 2.0  # the round form's draft poll (static/calculator/draft.js)
EVENING_POLL_S = 5.0  # the evening page's (templates/calculator/partials/_evening_live.html)
TRICKLERS = 16  # per server, the count
PAGE_BOUND_S = 1.0  # the issue's: another phone's page within 1 s while they trickle
EXAMPLES = ("E1", "E2", "E3", "E4", "E5")  # 4 seats, 贵阳 rules: the evenings' own
PYTHON = sys.executable


def say(text: str) -> None:
    print(f"bench.cluster: {text}", file=sys.stderr, flush=True)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def wait_for_port(host: str, port: int, seconds: float, process: subprocess.Popen | None = None,
                  log: Path | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            break
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
    raise RuntimeError(f"nothing answered on {host}:{port}\n{tail}")


# ---------------------------------------------------------------- the services


class Services(contextlib.ExitStack):
    """PostgreSQL, Redis, the app servers and the worker, each stopped when the bench ends."""

    def __init__(self, folder: Path):
        super().__init__()
        self.folder = folder
        self.env: dict[str, str] = {}
        self.servers: dict[str, tuple[int, subprocess.Popen]] = {}
        self.worker: subprocess.Popen | None = None
        self.pg_port = self.redis_port = 0

    def postgres(self) -> str:
        data = self.folder / "pg"
        as_pg: list[str] = []
        if os.geteuid() == 0:  # the server refuses to run as root
            as_pg = ["runuser", "-u", "postgres", "--"]
            data.mkdir(mode=0o700)
            shutil.chown(data, "postgres", "postgres")
            shutil.chown(self.folder, "postgres", "postgres")
        self.pg_port = free_port()
        run = lambda *args: subprocess.run([*as_pg, *args], cwd="/", check=True, capture_output=True)  # noqa: E731
        run(str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync")
        run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(data / "log"), "-w", "-t", "60", "-o",
            f"-p {self.pg_port} -k {data} -c listen_addresses=127.0.0.1 -c max_connections=400", "start")
        self.callback(lambda: subprocess.run([*as_pg, str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate",
                                              "-w", "stop"], cwd="/", capture_output=True, check=False))
        run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres", "app")
        return f"postgres://postgres@127.0.0.1:{self.pg_port}/app"

    def redis(self) -> str:
        self.redis_port = free_port()
        log = self.folder / "redis.log"
        process = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(self.redis_port),
                                    "--save", "", "--appendonly", "no", "--dir", str(self.folder)],
                                   stdout=open(log, "wb"), stderr=subprocess.STDOUT)
        self.callback(_stop, process)
        wait_for_port("127.0.0.1", self.redis_port, 30, process, log)
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True)
        if check and done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return done

    def app_server(self, host: str) -> int:
        """gunicorn as docs/DEPLOY.md runs it, in a process group of its own (for the kill)."""
        with socket.socket() as probe:  # 127.0.0.2 and .3 are loopback on Linux; say so if not here
            probe.bind((host, 0))
        port = free_port(host)
        log = self.folder / f"app-{host}.log"
        process = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "zhuoji_site.asgi:application", "--worker-class", "asgi",
             "--asgi-lifespan", "off", "--asgi-loop", "asyncio", "--workers", str(WORKERS_PER_SERVER),
             "--worker-connections", "1000", "--keep-alive", "5", "--timeout", "30", "--graceful-timeout", "5",
             "--bind", f"{host}:{port}", "--error-logfile", str(log), "--log-level", "warning",
             "--no-control-socket"],  # two masters at once: not one ~/.gunicorn/gunicorn.ctl for both
            cwd=ROOT, env=self.env, stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
        self.callback(_stop_group, process)
        wait_for_port(host, port, 120, process, log)
        self.servers[host] = (port, process)
        return port

    def kill(self, host: str) -> None:
        _port, process = self.servers[host]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def has_worker(self) -> bool:
        """Whether the project has issue 23's background worker (django-tasks' database backend,
        `manage.py db_worker`, switched on by ZHUOJI_TASKS=db); if so, the switch stays on, before
        the migrations (its queue is a table). Without it, heavy pages render inline."""
        env = {**self.env, "ZHUOJI_TASKS": "db"}
        probe = subprocess.run([PYTHON, "manage.py", "help", "db_worker"], cwd=ROOT, env=env, capture_output=True)
        if probe.returncode:
            return False
        self.env = env
        return True

    def start_worker(self) -> None:
        log = self.folder / "worker.log"
        self.worker = subprocess.Popen([PYTHON, "manage.py", "db_worker"], cwd=ROOT, env=self.env,
                                       stdout=open(log, "wb"), stderr=subprocess.STDOUT, start_new_session=True)
        self.callback(_stop_group, self.worker)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _stop_group(process: subprocess.Popen) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children that are still running (/proc)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for one in pids:
        with contextlib.suppress(OSError, IndexError):
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


SETUP = """
import json, sys
from decimal import Decimal
from calculator import services
tokens = [services.evening_create(names=["东哥", "南姐", "西西", "北北"], stake=Decimal("1"), preset="guiyang",
                                  title=f"bench {n}").token for n in range(int(sys.argv[1]))]
print(json.dumps(tokens))
"""

AUDIT = """
import json, sys
from calculator.models import Evening, Round
tokens = json.loads(sys.stdin.read())
out = {}
for token in tokens:
    evening = Evening.objects.get(token=token)
    out[token] = [str(k) if k else None for k in Round.objects.filter(evening=evening).values_list("idempotency_key", flat=True)]
print(json.dumps(out))
"""

STATS = """
import json
from django.db import connection
with connection.cursor() as c:
    c.execute("select xact_commit, tup_inserted, tup_updated, tup_deleted from pg_stat_database where datname = 'app'")
    row = list(c.fetchone())
    # the next transaction id, without taking one: its growth counts the transactions that wrote
    c.execute("select pg_snapshot_xmax(pg_current_snapshot())::text::bigint")
    print(json.dumps(row + [c.fetchone()[0]]))
"""


def django_script(env: dict, script: str, *args: str, stdin: str = "") -> str:
    done = subprocess.run([PYTHON, "-c", "import django; django.setup()\n" + script, *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    return done.stdout.strip().splitlines()[-1]


def redis_info(port: int) -> dict:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"INFO memory\r\nDBSIZE\r\n")
        data = b""
        while not re.search(rb"\r\n:\d+\r\n$", data):
            data += sock.recv(65536)
    used = int(re.search(rb"used_memory:(\d+)", data).group(1))
    keys = int(re.search(rb"\r\n:(\d+)\r\n$", data).group(1))
    return {"used_memory": used, "keys": keys}


def redis_by_kind(port: int) -> dict[str, dict]:
    """Keys and bytes (MEMORY USAGE) per kind of key: the part of the name before its first
    colon or digit after the cache's prefix (zhuoji:1:zhuoji-poll:… → zhuoji-poll)."""
    import redis

    client = redis.Redis(host="127.0.0.1", port=port)
    kinds: dict[str, dict] = defaultdict(lambda: {"keys": 0, "bytes": 0})
    for key in client.scan_iter(count=1000):
        name = key.decode(errors="replace").split(":", 2)[-1]
        kind = re.split(r"[:\d]", name, maxsplit=1)[0] or name
        kinds[kind]["keys"] += 1
        kinds[kind]["bytes"] += client.memory_usage(key) or 0
    client.close()
    return dict(kinds)


# ---------------------------------------------------------------- the phones


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.cpu_us: dict[str, list[int]] = defaultdict(list)
        self.queries: dict[str, list[int]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.failovers = 0
        self.quiet_poll_queries: list[int] = []

    def add(self, kind: str, seconds: float, headers) -> None:
        with self.lock:
            self.latency[kind].append(seconds)
            if headers.get("X-Bench-CPU-Us"):
                self.cpu_us[kind].append(int(headers["X-Bench-CPU-Us"]))
                self.queries[kind].append(int(headers["X-Bench-Queries"]))

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] += 1


class NoAnswer(Exception):
    """The server did not answer (refused, reset, timed out, or a 5xx from a dying server)."""

    def __init__(self, text: str, dead: bool):
        super().__init__(text)
        self.dead = dead  # refused or reset: the server is gone, not slow


class Phone:
    """One phone: its cookies, a kept-alive connection, and the server it talks to."""

    def __init__(self, cluster: Cluster, home: int):
        self.cluster = cluster
        self.server = home
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None
        self.client = uuid.uuid4().hex[:16]

    def _connection(self) -> http.client.HTTPConnection:
        if self.conn is None:
            host = SERVERS[self.server]
            self.conn = http.client.HTTPConnection(host, self.cluster.ports[host], timeout=30)
        return self.conn

    def _once(self, method: str, path: str, body: bytes | None, headers: dict) -> tuple[int, dict, bytes]:
        host = SERVERS[self.server]
        sent = {"Host": f"{host}:{self.cluster.ports[host]}", **headers}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        reused = self.conn is not None
        try:
            conn = self._connection()
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.close()
            if reused and not isinstance(error, TimeoutError):  # a kept-alive connection the server closed
                return self._once(method, path, body, headers)
            raise NoAnswer(str(error), dead=not isinstance(error, TimeoutError)) from error
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.headers.get("Connection", "").lower() == "close":
            self.close()
        if response.status in (502, 503, 504):
            raise NoAnswer(f"status {response.status}", dead=True)
        return response.status, response.headers, data

    def request(self, kind: str, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                failover: bool = True) -> tuple[int, dict, bytes]:
        """Send it; when the server is gone (refused, reset, 502–504), send it again to the other
        one, as nginx's proxy_next_upstream does (a recording too: its key makes it safe). A server
        that is only slow keeps the phone: it raises, and the phone asks again later."""
        for attempt in range(2 if failover else 1):
            started = time.perf_counter()
            try:
                status, got, data = self._once(method, path, body, headers or {})
            except NoAnswer as error:
                self.cluster.stats.error(kind)
                if attempt == 0 and failover and error.dead:
                    self.server = 1 - self.server
                    with self.cluster.stats.lock:
                        self.cluster.stats.failovers += 1
                    continue
                raise
            named = f"{kind} 204" if kind.endswith("poll") and status == 204 else kind  # nothing changed
            self.cluster.stats.add(named, time.perf_counter() - started, got)
            return status, got, data
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def form_body(fields: list[tuple[str, str]]) -> bytes:
    return urllib.parse.urlencode(fields).encode()


def record_fields(name: str) -> list[tuple[str, str]]:
    from tests.round_form_data import load_example, record_to_post_data  # no Django needed

    data = record_to_post_data(load_example(name))
    fields = []
    for key, value in data.items():
        if key.endswith("-name") or key in ("players", "preset", "stake"):
            continue  # fixed by the evening
        for one in value if isinstance(value, list) else [value]:
            fields.append((key, one))
    return fields


class Table:
    def __init__(self, cluster: Cluster, index: int, token: str):
        self.cluster = cluster
        self.token = token
        home = index % 2
        self.phones = [Phone(cluster, home) for _ in range(4)]
        self.recorder = Phone(cluster, home)  # phone 0's form, on a connection of its own
        self.draft_open = threading.Event()  # the phones are on the round form
        self.rng = random.Random(index)
        self.recorded: list[str] = []  # keys the client saw become rounds
        self.sent: list[str] = []  # every key it posted a recording with
        self.unsettled: list[str] = []  # a recording neither server answered, nor the poll settled
        self.refused = 0
        self.state_lock = threading.Lock()

    # -- the pollers (all four phones)

    def poll_loop(self, seat: int, stop: threading.Event, quiet: threading.Event) -> None:
        """While a round is being entered the phone is on the round form, polling the draft every
        2 s (draft.js); otherwise on the evening page, polling it every 5 s (htmx)."""
        phone = self.phones[seat]
        since, key, version = 0, "", None
        stop.wait(self.rng.random() * POLL_S)  # the phones do not poll in step
        while not stop.is_set():
            started = time.monotonic()
            every = POLL_S
            try:
                if self.draft_open.is_set():
                    query = urllib.parse.urlencode({"draft_base": since, "draft_client": phone.client,
                                                    "idempotency_key": key})
                    status, headers, body = phone.request("draft_poll", "GET", f"/e/{self.token}/rounds/draft/?{query}")
                    if status == 200:
                        answer = json.loads(body)
                        if "version" in answer:
                            since, key = answer["version"], answer["key"]
                        else:  # recorded (or thrown away): the page goes to the evening
                            since, key, version = 0, "", None
                elif version is None:
                    status, headers, body = phone.request("evening", "GET", f"/e/{self.token}/")
                    found = re.search(rb"\?since=([\d.]+)", body)
                    version = found.group(1).decode() if found else "0"
                else:
                    every = EVENING_POLL_S
                    status, headers, body = phone.request("evening_poll", "GET", f"/e/{self.token}/?since={version}",
                                                          headers={"HX-Request": "true"})
                    if status == 200:
                        found = re.search(rb"\?since=([\d.]+)", body)
                        version = found.group(1).decode() if found else version
                if status == 204 and quiet.is_set() and headers.get("X-Bench-Queries") is not None:
                    with self.cluster.stats.lock:
                        self.cluster.stats.quiet_poll_queries.append(int(headers["X-Bench-Queries"]))
            except NoAnswer:
                pass
            stop.wait(max(0.0, every - (time.monotonic() - started)))

    # -- the recorder (phone 0)

    def enter_loop(self, stop: threading.Event) -> None:
        phone = self.recorder
        every = self.cluster.round_every
        stop.wait(self.rng.random() * every)
        rounds = 0
        while not stop.is_set():
            started = time.monotonic()
            with contextlib.suppress(NoAnswer):
                self.enter_one(phone, rounds, stop)
                rounds += 1
            stop.wait(max(1.0, every - (time.monotonic() - started)))

    def enter_one(self, phone: Phone, n: int, stop: threading.Event) -> None:
        status, _headers, page = phone.request("round_form", "GET", f"/e/{self.token}/rounds/new/")
        self.draft_open.set()
        hidden = dict(re.findall(rb'name="(csrfmiddlewaretoken|idempotency_key|draft_base)" value="([^"]*)"', page))
        key = hidden[b"idempotency_key"].decode()
        base = hidden[b"draft_base"].decode()
        csrf = hidden[b"csrfmiddlewaretoken"].decode()
        fields = record_fields(EXAMPLES[(self.rng.randrange(len(EXAMPLES)))])
        common = [("csrfmiddlewaretoken", csrf), ("idempotency_key", key), ("draft_base", base)]
        post = {"Content-Type": "application/x-www-form-urlencoded"}
        # three saves into the draft as the live preview sends them, a third of the fields each
        pause = min(3.0, self.cluster.round_every / 8)
        for part in range(3):
            if stop.wait(pause):
                return
            shown = fields[: len(fields) * (part + 1) // 3]
            changed = ",".join(sorted({k for k, _v in fields[len(fields) * part // 3: len(fields) * (part + 1) // 3]}))
            body = form_body([*common, ("draft_client", phone.client), ("draft_changed", changed), *shown])
            phone.request("draft_save", "POST", f"/e/{self.token}/rounds/preview/", body,
                          {**post, "HX-Request": "true"})
        self.sent.append(key)
        body = form_body([*common, *fields])
        try:
            status, headers, _page = phone.request("record", "POST", f"/e/{self.token}/rounds/new/", body, post)
        except NoAnswer:
            status, headers = 0, {}
        self.draft_open.clear()
        if status == 302 and "/rounds/" in headers.get("Location", ""):
            self.recorded.append(key)
        elif not self.settle(phone, key):
            if status == 200:
                self.refused += 1  # the form refused the record (a rule of the evening): not a loss
            else:
                self.unsettled.append(key)
            return
        phone.request("evening", "GET", f"/e/{self.token}/")
        if n % 4 == 0:  # the first round of every four, so that each table opens it at least once
            phone.request("report", "GET", f"/e/{self.token}/report.pdf")

    def settle(self, phone: Phone, key: str, tries: int = 4) -> bool:
        """A recording without its 302 (the answer was lost, or the form showed it recorded
        already): the draft poll says whether the key became a round, asked until it answers."""
        query = urllib.parse.urlencode({"since": 0, "client": phone.client, "key": key})
        for attempt in range(tries):
            try:
                status, _headers, body = phone.request("settle", "GET", f"/e/{self.token}/rounds/draft/?{query}")
            except NoAnswer:
                time.sleep(2 ** attempt)
                continue
            if status == 200 and "recorded" in json.loads(body):
                self.recorded.append(key)
                return True
            return False
        return False

    def settle_late(self) -> None:
        """After the run, when the servers have caught up: what the unanswered recordings became."""
        for key in list(self.unsettled):
            if self.settle(self.recorder, key):
                self.unsettled.remove(key)


class Cluster:
    def __init__(self, ports: dict[str, int], round_every: float):
        self.ports = ports
        self.round_every = round_every
        self.stats = Stats()


# ---------------------------------------------------------------- slow clients


def trickle(host: str, port: int, stop: threading.Event, count: int) -> None:
    """`count` connections sending a body a byte every 0.5 s, reopened if dropped."""
    socks: list[socket.socket | None] = [None] * count
    while not stop.wait(0.5):
        for i, sock in enumerate(socks):
            try:
                if sock is None:
                    sock = socket.create_connection((host, port), timeout=5)
                    sock.sendall(f"POST /round/preview/ HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: "
                                 "application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\na=".encode())
                    socks[i] = sock
                sock.sendall(b"b")
            except OSError:
                if sock is not None:
                    sock.close()
                socks[i] = None
    for sock in socks:
        if sock is not None:
            sock.close()


# ---------------------------------------------------------------- the run


def run(tables: int, seconds: float, round_every: float, quiet_seconds: float, tricklers: int = TRICKLERS) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="zhuoji-cluster-"))
    try:
        with Services(folder) as services:
            say("starting PostgreSQL and Redis")
            database, redis = services.postgres(), services.redis()
            services.env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
            services.env.update({
                "DJANGO_SETTINGS_MODULE": "bench.cluster_settings", "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),  # one key: a phone's cookies hold on either server
                "DJANGO_ALLOWED_HOSTS": ",".join(SERVERS), "DATABASE_URL": database, "REDIS_URL": redis,
                "DJANGO_CONN_MAX_AGE": "0", "BENCH_STATIC_ROOT": str(folder / "static"), "PYTHONPATH": str(ROOT),
                "DJANGO_RATE_ROUNDS": "100000",
            })
            say("migrating, collecting static files, opening the evenings")
            worker = services.has_worker()
            services.manage("migrate", "--noinput", "-v", "0")
            services.manage("collectstatic", "--noinput", "-v", "0")
            if worker:
                services.start_worker()
            tokens = json.loads(django_script(services.env, SETUP, str(tables)))
            ports = {host: services.app_server(host) for host in SERVERS}
            say(f"app servers on {', '.join(f'{h}:{p}' for h, p in ports.items())}; worker: {'yes' if worker else 'no'}")
            cluster = Cluster(ports, round_every)
            warm_up(ports, tokens[0])
            load_before = os.getloadavg()[0]
            client_cpu = time.process_time()
            stop, quiet, stop_trickle = threading.Event(), threading.Event(), threading.Event()
            table_objects = [Table(cluster, i, token) for i, token in enumerate(tokens)]
            threads = [threading.Thread(target=trickle, args=(h, p, stop_trickle, tricklers), daemon=True) for h, p in ports.items()]
            pollers = []
            for table in table_objects:
                for seat in range(4):
                    pollers.append(threading.Thread(target=table.poll_loop, args=(seat, stop, quiet), daemon=True))
            stop_entering = threading.Event()
            enterers = [threading.Thread(target=t.enter_loop, args=(stop_entering,), daemon=True) for t in table_objects]
            pg_before, redis_before = json.loads(django_script(services.env, STATS)), redis_info(services.redis_port)
            cpu_before = {h: cpu_seconds(services.servers[h][1].pid) for h in SERVERS}
            started = time.monotonic()
            for thread in [*threads, *pollers, *enterers]:
                thread.start()
            say(f"{tables} tables × 4 phones for {seconds:.0f} s; the server on {SERVERS[0]} dies at {seconds / 2:.0f} s")
            time.sleep(seconds / 2)
            cpu_killed = cpu_seconds(services.servers[SERVERS[0]][1].pid) - cpu_before[SERVERS[0]]
            services.kill(SERVERS[0])
            killed_at = time.monotonic() - started
            say(f"killed {SERVERS[0]} (SIGKILL, master and workers) at {killed_at:.0f} s")
            time.sleep(max(0.0, seconds - (time.monotonic() - started)))
            stop_entering.set()
            for thread in enterers:
                thread.join(60)
            entering_seconds = time.monotonic() - started
            cpu_survivor = cpu_seconds(services.servers[SERVERS[1]][1].pid) - cpu_before[SERVERS[1]]
            pg_after = json.loads(django_script(services.env, STATS))
            redis_after = redis_info(services.redis_port)
            redis_after["by_kind"] = redis_by_kind(services.redis_port)
            counts = {kind: len(v) for kind, v in cluster.stats.latency.items()}
            load = (load_before, os.getloadavg()[0])
            client_cpu = time.process_time() - client_cpu
            say(f"quiet: {quiet_seconds:.0f} s of polls only")
            time.sleep(POLL_S + 0.5)  # each phone's first poll after the last change reads the database
            quiet.set()
            time.sleep(quiet_seconds)
            stop.set()
            stop_trickle.set()
            for thread in [*pollers, *threads]:
                thread.join(30)
            for table in table_objects:
                table.settle_late()
            audit = json.loads(django_script(services.env, AUDIT, stdin=json.dumps(tokens)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    result = report(cluster, table_objects, audit, tables, entering_seconds, killed_at, counts,
                    cpu_killed + cpu_survivor, pg_before, pg_after, redis_before, redis_after, worker)
    result["machine"]["load_average_1min_before_after"] = [round(x, 1) for x in load]
    result["load_generator_cpu_cores_busy"] = round(client_cpu / entering_seconds, 2)
    return result


def warm_up(ports: dict[str, int], token: str) -> None:
    """Each worker's first requests import and compile templates (seconds on a busy machine):
    ask every page kind a few times on each server before the clock starts."""
    for host, port in ports.items():
        for path in ("/round/", f"/e/{token}/", f"/e/{token}/rounds/draft/?since=0&key=&client=warm"):
            for _ in range(2 * WORKERS_PER_SERVER):
                conn = http.client.HTTPConnection(host, port, timeout=60)
                try:
                    conn.request("GET", path, headers={"Host": f"{host}:{port}"})
                    conn.getresponse().read()
                finally:
                    conn.close()


def report(cluster, tables_run, audit, tables, seconds, killed_at, counts, server_cpu, pg_before, pg_after,
           redis_before, redis_after, worker) -> dict:
    stats = cluster.stats
    lost = duplicated = recorded = unsettled = refused = 0
    for table in tables_run:
        stored = audit[table.token]
        recorded += len(table.recorded)
        unsettled += sum(1 for key in table.unsettled if key not in stored)
        refused += table.refused
        lost += sum(1 for key in table.recorded if key not in stored)
        duplicated += len(stored) - len(set(stored))  # two rounds from one key
        duplicated += sum(1 for key in set(stored) if key not in table.sent)  # a round no phone sent
        duplicated += max(0, len(table.recorded) - len(set(table.recorded)))
    kinds = {}
    total = sum(counts.values())
    for kind in sorted(stats.latency):
        values = stats.latency[kind]
        cpu = stats.cpu_us.get(kind) or [0]
        queries = stats.queries.get(kind) or [0]
        kinds[kind] = {
            "count": counts.get(kind, len(values)), "per_s": round(counts.get(kind, 0) / seconds, 1),
            "p50_ms": round(percentile(values, 50) * 1000, 1), "p95_ms": round(percentile(values, 95) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1),
            "cpu_ms_mean": round(sum(cpu) / len(cpu) / 1000, 2), "queries_mean": round(sum(queries) / len(queries), 2),
            "no_answer": stats.errors.get(kind, 0),
        }
    quiet = stats.quiet_poll_queries
    elapsed_pg = seconds
    commits = (pg_after[0] - pg_before[0]) / elapsed_pg
    writes = (pg_after[4] - pg_before[4]) / elapsed_pg
    rows = sum(pg_after[i] - pg_before[i] for i in (1, 2, 3)) / elapsed_pg
    pages = [v for k in ("round_form", "evening") for v in stats.latency.get(k, [])]
    under = sum(1 for v in pages if v <= PAGE_BOUND_S)
    # A recording no server answered and that the database does not hold was not recorded, and
    # the phone knows it (its page says so; the table enters it again): not a loss.
    # No round recorded proves nothing about the kill (a machine too busy to record any).
    ok = recorded > 0 and lost == 0 and duplicated == 0 and quiet and max(quiet) == 0
    return {
        "id": "bench.cluster", "ok": bool(ok), "machine": machine(),
        "shape": {"tables": tables, "phones": tables * 4, "servers": list(SERVERS),
                  "workers_per_server": WORKERS_PER_SERVER, "worker_class": "gunicorn asgi",
                  "background_worker": worker, "round_every_s": cluster.round_every, "seconds": round(seconds),
                  "killed": f"{SERVERS[0]} at {killed_at:.0f} s", "tricklers_per_server": TRICKLERS},
        "requests_per_s": round(total / seconds, 1),
        "kinds": kinds,
        "server_cpu_s_per_request": round(server_cpu / max(1, total), 4),
        # what the threads' CPU (the probe) leaves out: HTTP parsing, the event loop, thread start
        "server_overhead_ms_per_request": round(
            (server_cpu - sum(v["cpu_ms_mean"] * v["count"] for v in kinds.values()) / 1000) / max(1, total) * 1000, 2),
        "server_cpu_cores_busy": round(server_cpu / seconds, 2),
        "unchanged_polls_in_quiet_phase": len(quiet),
        "queries_per_unchanged_poll": (sum(quiet) / len(quiet)) if quiet else None,
        "queries_per_unchanged_poll_max": max(quiet) if quiet else None,
        "rounds": {"recorded": recorded, "lost": lost, "duplicated": duplicated, "unanswered_and_not_stored": unsettled,
                   "refused_by_form": refused, "stored": sum(len(v) for v in audit.values())},
        "failovers": stats.failovers,
        "pages_within_1s": f"{under} of {len(pages)}",
        "postgres": {"transactions_per_s": round(commits, 1), "writing_transactions_per_s": round(writes, 1),
                     "rows_written_per_s": round(rows, 1)},
        "redis": {"used_memory_bytes": redis_after["used_memory"], "keys": redis_after["keys"],
                  "bytes_per_table": round((redis_after["used_memory"] - redis_before["used_memory"]) / tables),
                  "by_kind": redis_after["by_kind"]},
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about a minute instead of about four")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, help="how long the tables enter rounds (180; 50 with --quick)")
    parser.add_argument("--round-every", type=float, default=30.0, help="seconds between a table's rounds (30)")
    parser.add_argument("--tricklers", type=int, default=TRICKLERS, help=f"slow clients per server ({TRICKLERS})")
    parser.add_argument("--json", metavar="FILE", help="also write the result here")
    args = parser.parse_args()
    seconds = args.seconds or (50.0 if args.quick else 180.0)
    result = run(args.tables, seconds, args.round_every, quiet_seconds=6.0 if args.quick else 10.0,
                 tricklers=args.tricklers)
    result["command"] = ".venv/bin/python -m bench.cluster" + (" --quick" if args.quick else "")
    text = json.dumps(result, ensure_ascii=False, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
