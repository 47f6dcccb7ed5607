"""The table-side server: `bin/run --table [[HOST:]PORT]` serves the app to the phones on this
machine's network (a laptop at the table, the phones around it on the same Wi-Fi).

Production settings (DEBUG off) under gunicorn, over plain HTTP: a home network has no
certificate, so no HTTPS redirect, no HSTS and no secure-only cookies. The secret key is made
once and kept in the data folder (var/, git-ignored; ZHUOJI_DATA_DIR moves it), with the
collected static files and the shared cache; the database is the same embedded SQLite as
`bin/run`'s (DATABASE_URL still moves it). The machine's LAN addresses are the allowed hosts.
It prints the address and a QR code for the phones to scan, then becomes gunicorn.
"""
from __future__ import annotations

import argparse
import io
import ipaddress
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

import qrcode

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_PORT = 8000
WORKERS = 2
# gunicorn's asgi worker (zhuoji_site/asgi.py): its event loop reads every request whole before
# Django sees it, so a phone sending its body slowly (or a script doing it on purpose) holds no
# thread; under the threaded worker (2 × 4 threads) eight such clients stalled every other phone.
# A worker's connections at once: far above one table's phones.
CONNECTIONS = 200
# How long a request's body may pause between two pieces before the connection is dropped, and
# the graceful stop: above SQLite's lock wait (settings: 20 s), far below a phone's patience.
TIMEOUT = 45


def data_dir() -> Path:
    return Path(os.environ.get("ZHUOJI_DATA_DIR") or BASE_DIR / "var")


def secret_key(folder: Path) -> str:
    """The key made at the first start and kept (readable by this user only): sessions and
    forms survive a restart."""
    path = folder / "secret_key"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def usable_addresses(found: list[str]) -> list[str]:
    """Of the addresses found, those other devices can reach, once each, IPv4 first."""
    usable = [a for a in dict.fromkeys(found) if _usable(a)]
    return sorted(usable, key=lambda a: ":" in a)


def lan_addresses(environ=os.environ) -> list[str]:
    """This machine's addresses that other devices can reach, IPv4 first: the one of the default
    route (found without sending a packet), then whatever else `hostname -I` lists.

    ZHUOJI_LAN_ADDRESSES (comma-separated) says them instead, when the discovery picks the wrong
    network (a VPN, a second Wi-Fi card); it is taken as given, loopback included."""
    given = environ.get("ZHUOJI_LAN_ADDRESSES", "").strip()
    if given:
        return [a.strip() for a in given.split(",") if a.strip()]
    found = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent, the route is looked up
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        found += subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5,
                                check=False).stdout.split()
    except (OSError, subprocess.SubprocessError):
        pass
    return usable_addresses(found)


def host_names(addresses: list[str]) -> list[str]:
    """ALLOWED_HOSTS: the LAN addresses (IPv6 bracketed), this machine's names, and loopback."""
    name = socket.gethostname()
    hosts = [f"[{a}]" if ":" in a else a for a in addresses]
    return [*hosts, name, f"{name}.local", "localhost", "127.0.0.1", "[::1]"]


def environment(addresses: list[str]) -> dict[str, str]:
    folder = data_dir()
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "zhuoji_site.settings",
        "DJANGO_SECRET_KEY": secret_key(folder),
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": ",".join(host_names(addresses)),
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_HSTS_SECONDS": "0",
        "DJANGO_STATIC_ROOT": str(folder / "static"),
        "DJANGO_CACHE_DIR": str(folder / "cache"),
        # Django runs each ASGI request in a thread of its own, so a connection kept for the next
        # request of the same thread would never be used again: open and close one per request
        # (SQLite's is a file open).
        "DJANGO_CONN_MAX_AGE": "0",
    })
    return env


def qr_text(url: str) -> str:
    """The address as a QR code of half-block characters, light on a dark terminal."""
    code = qrcode.QRCode(border=2)
    code.add_data(url)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def gunicorn_command(bind: str, port: int) -> list[str]:
    return [
        sys.executable, "-m", "gunicorn", "zhuoji_site.asgi:application",
        "--bind", f"{bind}:{port}", "--workers", str(WORKERS), "--worker-class", "asgi",
        "--worker-connections", str(CONNECTIONS), "--asgi-lifespan", "off", "--asgi-loop", "asyncio",
        "--timeout", str(TIMEOUT), "--graceful-timeout", "10",
        "--access-logfile", "-", "--logger-class", "zhuoji_site.logs.GunicornLogger",
    ]


def address(text: str) -> tuple[str | None, int]:
    """`PORT` or `HOST:PORT`, as `bin/run` takes it (no host: every address of this machine)."""
    host, _colon, port = text.rpartition(":")
    if not (port.isdigit() and 0 < int(port) < 65536):
        raise argparse.ArgumentTypeError(f"not a port or HOST:PORT: {text!r}")
    return host.strip("[]") or None, int(port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="bin/run --table", description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("address", nargs="?", type=address, default=(None, DEFAULT_PORT), metavar="[HOST:]PORT",
                        help=f"where to listen (default: port {DEFAULT_PORT} on every address of this machine)")
    parser.add_argument("--bind", help="the address to listen on (the same as HOST: in HOST:PORT)")
    args = parser.parse_args(argv)
    host, port = args.address
    bind = host or args.bind or "0.0.0.0"
    addresses = lan_addresses()
    env = environment(addresses)
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *command, "-v", "0"], cwd=BASE_DIR, env=env, check=True)
    if bind not in ("0.0.0.0", "::") and not os.environ.get("ZHUOJI_LAN_ADDRESSES"):
        addresses = [bind]  # one address: only that one reaches the app (unless told what phones see)
    shown = [a for a in addresses if ":" not in a] or ["127.0.0.1"]
    url = f"http://{shown[0]}:{port}/"
    print(f"\n捉鸡算账 at the table: {url}")
    for other in shown[1:]:
        print(f"  also http://{other}:{port}/")
    if not addresses or all(a.startswith("127.") for a in shown):
        print("  (only this machine can open it)")
    else:
        print("Phones on the same Wi-Fi: scan this, or type the address.\n")
        print(qr_text(url), flush=True)
    os.chdir(BASE_DIR)
    os.execve(sys.executable, gunicorn_command(bind, port), env)


if __name__ == "__main__":
    main()
