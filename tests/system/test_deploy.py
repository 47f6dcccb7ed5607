"""Deploy (issue 5): production settings come from the environment and pass `check --deploy`;
the app runs under gunicorn with WhiteNoise serving the collected static files, as README.md
("Deploy") says. Settings are read at import, so every case runs in a fresh subprocess.
"""
from __future__ import annotations

import http.client
import json
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

BASE_DIR = Path(settings.BASE_DIR)


def clean_env(**variables: str) -> dict[str, str]:
    """This process's environment without any Django setting or DATABASE_URL, plus `variables`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return {**env, **variables}


def production(**variables: str) -> dict[str, str]:
    """A production environment: a long random secret key and a host; `variables` on top."""
    defaults = {"DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": "example.com"}
    return clean_env(**{**defaults, **variables})


def run(args: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=BASE_DIR, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def settings_in(env: dict[str, str], *names: str) -> dict:
    """The named settings as the app computes them under `env`."""
    code = ("import json, django; from django.conf import settings; django.setup(); "
            f"print(json.dumps({{n: getattr(settings, n) for n in {list(names)!r}}}, default=str))")
    done = run(["-c", code], {**env, "DJANGO_SETTINGS_MODULE": "zhuoji_site.settings"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# -- settings ----------------------------------------------------------------------------------


def test_production_settings_pass_the_deploy_check_with_no_warning():
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production(DJANGO_DEBUG="0"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout + done.stderr


def test_a_weak_secret_key_does_fail_the_deploy_check():
    """The check above has teeth: it does fail where it should."""
    env = production(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="short")
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert done.returncode != 0 and "security.W009" in done.stdout + done.stderr


@pytest.mark.parametrize("debug", ["0", "false", "no", "off"])
def test_djangos_debug_off_spelled_any_way(debug):
    assert settings_in(production(DJANGO_DEBUG=debug), "DEBUG") == {"DEBUG": False}


def test_a_secret_key_from_the_environment_means_production_with_debug_off():
    found = settings_in(production(), "DEBUG", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
                        "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "ALLOWED_HOSTS", "STORAGES")
    assert found["DEBUG"] is False
    assert found["SESSION_COOKIE_SECURE"] and found["CSRF_COOKIE_SECURE"] and found["SECURE_SSL_REDIRECT"]
    assert found["SECURE_HSTS_SECONDS"] >= 31536000
    assert found["ALLOWED_HOSTS"] == ["example.com"]
    assert "whitenoise" in found["STORAGES"]["staticfiles"]["BACKEND"]


def test_in_production_the_language_cookie_is_secure_only_too():
    """Like the session and CSRF cookies; the table server (plain HTTP on a LAN) turns all three off."""
    assert settings_in(production(), "LANGUAGE_COOKIE_SECURE") == {"LANGUAGE_COOKIE_SECURE": True}
    env = production(DJANGO_SECURE_COOKIES="0")
    assert settings_in(env, "LANGUAGE_COOKIE_SECURE") == {"LANGUAGE_COOKIE_SECURE": False}


def test_a_fresh_checkout_runs_in_development_with_no_environment():
    found = settings_in(clean_env(), "DEBUG", "DATABASES", "SECURE_SSL_REDIRECT")
    assert found["DEBUG"] is True and found["SECURE_SSL_REDIRECT"] is False
    assert found["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"


def test_database_url_moves_the_app_to_postgresql():
    env = production(DATABASE_URL="postgres://zhuoji:pw@db.example.com:5432/zhuoji")
    database = settings_in(env, "DATABASES")["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["NAME"], database["USER"]) == ("db.example.com", "zhuoji", "zhuoji")


def test_debug_off_without_a_secret_key_fails_loudly():
    done = run(["manage.py", "check"], clean_env(DJANGO_DEBUG="0"))
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "DJANGO_SECRET_KEY" in done.stderr


# -- gunicorn and WhiteNoise, as the README runs them ---------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """migrate, collectstatic, then gunicorn on 127.0.0.1 with DEBUG off behind a "proxy"
    (X-Forwarded-Proto), on a throwaway SQLite database and STATIC_ROOT. Stopped afterwards."""
    root = tmp_path_factory.mktemp("deploy")
    port = free_port()
    env = clean_env(
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_STATIC_ROOT=str(root / "static"), DJANGO_BEHIND_PROXY="1",
        DATABASE_URL=f"sqlite:///{root / 'db.sqlite3'}", DJANGO_CONN_MAX_AGE="0",
    )
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        done = run(["manage.py", *command, "-v", "0"], env)
        assert done.returncode == 0, done.stderr
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "zhuoji_site.asgi:application", "-k", "asgi", "--asgi-lifespan", "off",
         "-b", f"127.0.0.1:{port}", "-w", "2"],
        cwd=BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not start:\n" + server.stdout.read().decode()) from None
                time.sleep(0.1)
        yield {"port": port, "static_root": root / "static"}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def fetch(deployed, method: str, path: str, *, https: bool = True, body: str | None = None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", deployed["port"], timeout=30)
    try:
        sent = {"X-Forwarded-Proto": "https"} if https else {}
        conn.request(method, path, body=body, headers={**sent, **(headers or {})})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def test_gunicorn_serves_pages_with_hsts_and_redirects_plain_http_to_https(deployed):
    status, headers, body = fetch(deployed, "GET", "/")
    assert status == 200 and "捉鸡".encode() in body
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    status, headers, _body = fetch(deployed, "GET", "/", https=False)
    assert status == 301 and headers["Location"].startswith("https://")


def test_whitenoise_serves_the_collected_static_files_with_hashed_names(deployed):
    manifest = json.loads((deployed["static_root"] / "staticfiles.json").read_text())["paths"]
    hashed = manifest["calculator/pdf.css"]
    _status, _headers, home = fetch(deployed, "GET", "/")
    assert re.search(rb"/static/[\w/]+\.[0-9a-f]{12}\.(css|js)", home)  # pages link the hashed names
    status, headers, _body = fetch(deployed, "GET", f"/static/{hashed}", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    assert "immutable" in headers["Cache-Control"] and headers.get("Content-Encoding") == "gzip"
    status, _headers, _body = fetch(deployed, "GET", "/static/calculator/no-such-file.css")
    assert status == 404


def test_an_evening_opens_and_prints_under_gunicorn(deployed):
    """CSRF with secure cookies behind the proxy, a database write, and a PDF whose stylesheet
    the fetcher finds among the collected, hashed static files."""
    status, headers, body = fetch(deployed, "GET", "/evening/new/")
    set_cookies = headers.get_all("Set-Cookie")
    assert status == 200 and set_cookies and all("Secure" in c for c in set_cookies)
    cookie = re.search(r"csrftoken=([^;]+)", " ".join(set_cookies)).group(1)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    form = (f"csrfmiddlewaretoken={token}&player_0=A&player_1=B&player_2=C&player_3=D&stake=1"
            "&preset=guiyang&first_dealer=0&title=")
    origin = f"https://127.0.0.1:{deployed['port']}"
    status, headers, _body = fetch(deployed, "POST", "/evening/new/", body=form, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={cookie}",
        "Origin": origin, "Referer": origin + "/evening/new/"})
    assert status == 302 and re.fullmatch(r"/e/[\w-]{32}/", headers["Location"])
    evening = headers["Location"]
    status, _headers, page = fetch(deployed, "GET", evening)
    assert status == 200 and f'href="{evening}report.pdf"'.encode() in page
    status, headers, pdf = fetch(deployed, "GET", evening + "report.pdf")
    assert status == 200 and pdf.startswith(b"%PDF-")
