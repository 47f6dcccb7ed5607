"""The deploy of docs/DEPLOY.md, checked where this machine can (issue 23): the nginx site passes
`nginx -t`, the systemd units pass `systemd-analyze verify`, and nginx as configured there, in
front of an app server as its unit starts it, keeps another phone's page under 1 s while sixteen
clients trickle a body a byte at a time, and serves the static files itself.

Everything on loopback: the site's addresses, ports, certificate and folders are swapped for
throwaway ones (a self-signed certificate made here); the rest of the file is tested as written.
Skipped where nginx (Debian's `nginx`, which bin/setup installs for the tests; bin/run does not use it) or
systemd-analyze is missing.
"""
from __future__ import annotations

import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.timing import scaled_s, wait_until

BASE_DIR = Path(settings.BASE_DIR)
DEPLOY = BASE_DIR / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
HOST = "127.0.0.2"

needs_nginx = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install nginx)")


def free_port(host: str = HOST) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=zhuoji.example.com", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def nginx_conf(folder: Path, *, upstream: str, http_port: int, https_port: int, static_root: Path) -> Path:
    """deploy/nginx/zhuoji.conf with this machine's stand-ins, inside a minimal nginx.conf."""
    cert, key = certificate(folder)
    site = (DEPLOY / "nginx" / "zhuoji.conf").read_text()
    site = re.sub(r"^(\s*)server 10\.0\.0\.11:8000 (.*);$", rf"\1server {upstream} \2;", site, flags=re.M)
    site = re.sub(r"^\s*server 10\.0\.0\.12:8000 .*\n", "", site, flags=re.M)
    site = site.replace("listen 80;", f"listen {HOST}:{http_port};").replace("listen [::]:80;\n", "")
    site = site.replace("listen 443 ssl http2;", f"listen {HOST}:{https_port} ssl http2;")
    site = site.replace("listen [::]:443 ssl http2;\n", "")
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", site)
    site = site.replace("/srv/zhuoji/staticfiles/", f"{static_root}/")
    assert "10.0.0." not in site and "/etc/letsencrypt" not in site and "/srv/" not in site
    (folder / "site.conf").write_text(site)
    temp = "\n".join(f"    {name}_temp_path {folder / name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = folder / "nginx.conf"
    user = "user root root;\n" if os.geteuid() == 0 else ""  # else workers run as nobody: no reading tmp
    conf.write_text(f"""daemon off;
{user}pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} warn;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
{temp}
    include {folder / 'site.conf'};
}}
""")
    return conf


@needs_nginx
def test_the_nginx_site_passes_nginx_t(tmp_path):
    (tmp_path / "static").mkdir()
    conf = nginx_conf(tmp_path, upstream="127.0.0.2:8000", http_port=free_port(), https_port=free_port(),
                      static_root=tmp_path / "static")
    done = subprocess.run([NGINX, "-t", "-c", str(conf), "-p", str(tmp_path), "-e", str(tmp_path / "error.log")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr and "test is successful" in done.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_systemd_units_pass_systemd_analyze_verify(tmp_path):
    """With /srv/zhuoji pointed at this checkout (whose .venv has the binaries the units run)."""
    for unit in (DEPLOY / "systemd").iterdir():
        text = unit.read_text().replace("/srv/zhuoji", str(BASE_DIR))
        (tmp_path / unit.name).write_text(text.replace("/etc/zhuoji/env", str(DEPLOY / "env.example")))
    units = sorted(str(p) for p in tmp_path.iterdir())
    assert len(units) == 4
    done = subprocess.run(["systemd-analyze", "verify", *units], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def app_command() -> list[str]:
    """The ExecStart of deploy/systemd/zhuoji-app.service, as its arguments."""
    unit = (DEPLOY / "systemd" / "zhuoji-app.service").read_text()
    line = re.search(r"^ExecStart=(.*)$", unit.replace("\\\n", " "), flags=re.M).group(1)
    return line.split()


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """An app server as its unit starts it (on loopback, 2 workers), nginx in front as the site says."""
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    root = tmp_path_factory.mktemp("front")
    app_port, http_port, https_port = free_port(), free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
    env.update(DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_ALLOWED_HOSTS="zhuoji.example.com",
               DJANGO_STATIC_ROOT=str(root / "static"), DJANGO_BEHIND_PROXY="1", DJANGO_CONN_MAX_AGE="0",
               DATABASE_URL=f"sqlite:///{root / 'db.sqlite3'}")
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *command, "-v", "0"], cwd=BASE_DIR, env=env, check=True)
    command = app_command()
    assert Path(command[0]).name == "gunicorn"
    command = [sys.executable, "-m", "gunicorn", *command[1:]]
    command[command.index("--bind") + 1] = f"{HOST}:{app_port}"
    command[command.index("--workers") + 1] = "2"
    processes = []
    with open(root / "app.log", "wb") as log:
        processes.append(subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
                                          start_new_session=True))
    conf = nginx_conf(root, upstream=f"{HOST}:{app_port}", http_port=http_port, https_port=https_port,
                      static_root=root / "static")
    with open(root / "nginx.log", "wb") as log:
        processes.append(subprocess.Popen([NGINX, "-c", str(conf), "-p", str(root), "-e", str(root / "error.log")],
                                          stdout=log, stderr=subprocess.STDOUT, start_new_session=True))

    def up(port: int) -> bool:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError((root / "app.log").read_text(errors="replace") +
                                   (root / "error.log").read_text(errors="replace"))
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return True
        except OSError:
            return False

    try:
        wait_until(lambda: up(app_port) and up(https_port), 60, "the app server and nginx", step=0.2)
        yield {"https": https_port, "http": http_port, "root": root}
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=scaled_s(10))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def fetch(front, path: str, headers=None, timeout: float = 30):
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the throwaway certificate
    conn = http.client.HTTPSConnection(HOST, front["https"], timeout=scaled_s(timeout), context=context)
    try:
        conn.request("GET", path, headers={"Host": "zhuoji.example.com", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


@needs_nginx
def test_nginx_passes_pages_to_the_app_server_and_serves_static_files_itself(front):
    status, headers, body = fetch(front, "/")
    assert status == 200 and "捉鸡".encode() in body and "max-age=31536000" in headers["Strict-Transport-Security"]
    hashed = re.search(rb'/static/([\w/]+\.[0-9a-f]{12}\.css)', body).group(1).decode()
    status, headers, _css = fetch(front, f"/static/{hashed}")
    assert status == 200 and "immutable" in headers["Cache-Control"]
    assert headers["Server"].startswith("nginx")
    conn = http.client.HTTPConnection(HOST, front["http"], timeout=scaled_s(10))
    conn.request("GET", "/e/x/", headers={"Host": "zhuoji.example.com"})
    response = conn.getresponse()
    assert response.status == 301 and response.headers["Location"] == "https://zhuoji.example.com/e/x/"


@needs_nginx
def test_sixteen_clients_trickling_through_nginx_leave_the_other_phones_served(front):
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    tricklers = []
    stop = threading.Event()

    def drip():
        while not stop.wait(0.2):
            for sock in tricklers:
                try:
                    sock.sendall(b"b")
                except OSError:
                    pass

    try:
        for _ in range(16):
            sock = context.wrap_socket(socket.create_connection((HOST, front["https"]), timeout=30))
            sock.sendall(b"POST /round/preview/ HTTP/1.1\r\nHost: zhuoji.example.com\r\n"
                         b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\na=")
            tricklers.append(sock)
        threading.Thread(target=drip, daemon=True).start()
        time.sleep(1)
        for _ in range(5):
            started = time.monotonic()
            status, _headers, body = fetch(front, "/round/", timeout=10)
            took = time.monotonic() - started
            assert status == 200 and b"</html>" in body
            assert took < scaled_s(1), f"a page took {took:.2f} s with 16 clients trickling"
    finally:
        stop.set()
        for sock in tricklers:
            sock.close()
