"""Part 5, page weight: bytes transferred on a first load (empty cache) of the evening page and
the round form, everything they pull in included, and no request to another host.

    .venv/bin/python -m bench.weight [--quick] [--json FILE]

The app runs as in production under gunicorn on 127.0.0.1 (bench/site.py): DEBUG off, static
files collected and compressed by WhiteNoise, an evening of 40 rounds stored. Each page is
fetched as a browser would on a first visit, with `Accept-Encoding: br, gzip`; then every
stylesheet, script, icon, image and preload it names (`<link href>`, `<script src>`,
`<img src>`) and every `url(...)`/`@import` inside those stylesheets, once each. A byte counts
as transferred if it is in a response body as served, plus the response's status line and
headers. A URL on any other host is not fetched but fails the run.

The pages: the evening page (`/e/<token>/`), the standalone round form (`/round/`) and the
evening's round form (`/e/<token>/rounds/new/`). --quick changes nothing here.
"""
from __future__ import annotations

import gzip
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from .common import main, run_id
from .site import HOST, evening_tokens, get, gunicorn, prepared_site

TARGET_BYTES = 150_000
ROUNDS = 40
ACCEPT = {"Accept-Encoding": "br, gzip", "Accept": "*/*", "Accept-Language": "zh-CN,zh;q=0.9"}
LINK_RELS = {"stylesheet", "icon", "shortcut", "apple-touch-icon", "preload", "modulepreload", "manifest"}
CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)|@import\s+(['"])([^'"]+)\3""")


class _Assets(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("href") and LINK_RELS & set((a.get("rel") or "").lower().split()):
            self.urls.append(("link", a["href"]))
        elif tag == "script" and a.get("src"):
            self.urls.append(("script", a["src"]))
        elif tag in ("img", "source", "input") and a.get("src"):
            self.urls.append((tag, a["src"]))


def _wire_bytes(status: int, headers: dict, body: bytes) -> int:
    head = len(f"HTTP/1.1 {status} OK\r\n") + sum(len(k) + len(v) + 4 for k, v in headers.items()) + 2
    return head + len(body)


def _decoded(headers: dict, body: bytes) -> bytes:
    encoding = headers.get("content-encoding", "")
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "br":
        import brotli

        return brotli.decompress(body)
    return body


def weigh(port: int, path: str) -> dict:
    origin = f"http://{HOST}:{port}"
    status, headers, body = get(port, path, ACCEPT)
    if status != 200:
        raise RuntimeError(f"GET {path} answered {status}")
    html = _decoded(headers, body).decode("utf-8", errors="replace")
    files = [{"url": path, "type": headers.get("content-type", ""),
              "encoding": headers.get("content-encoding", ""),
              "bytes": _wire_bytes(status, headers, body), "body": len(body)}]
    parser = _Assets()
    parser.feed(html)
    queue = [urljoin(origin + path, url) for _, url in parser.urls]
    seen: set[str] = set()
    foreign: list[str] = []
    while queue:
        url = queue.pop(0)
        if url in seen or url.startswith("data:"):
            continue
        seen.add(url)
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != origin:
            foreign.append(url)
            continue
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        status, headers, body = get(port, target, ACCEPT)
        files.append({"url": target, "status": status, "type": headers.get("content-type", ""),
                      "encoding": headers.get("content-encoding", ""),
                      "bytes": _wire_bytes(status, headers, body), "body": len(body)})
        if "text/css" in headers.get("content-type", "") and status == 200:
            css = _decoded(headers, body).decode("utf-8", errors="replace")
            for match in CSS_URL.finditer(css):
                queue.append(urljoin(url, match.group(2) or match.group(4)))
    html_bytes = len(html.encode())
    return {
        "page": path,
        "files": files,
        "total_bytes": sum(f["bytes"] for f in files),
        "requests": len(files),
        "html_bytes_as_served": files[0]["body"],
        "html_bytes_uncompressed": html_bytes,
        "html_bytes_if_gzipped": len(gzip.compress(html.encode(), 6)),
        "foreign": foreign,
        "failed": [f["url"] for f in files if f.get("status", 200) != 200],
    }


def run(quick: bool) -> dict:
    results: dict = {"part": "weight", "rows": [], "failures": [], "summary": []}
    with prepared_site(seed_rounds=ROUNDS) as site, gunicorn(site) as port:
        token = evening_tokens(site)["token"]
        for name, path in (
            (f"evening page ({ROUNDS} rounds)", f"/e/{token}/"),
            ("round form", "/round/"),
            ("evening round form", f"/e/{token}/rounds/new/"),
        ):
            row = weigh(port, path)
            row["what"] = name
            row["met"] = row["total_bytes"] < TARGET_BYTES and not row["foreign"]
            results["rows"].append(row)
            shown = path.replace(token, "<token>")
            for url in row["foreign"]:
                results["failures"].append(f"{shown} asks another host: {url}")
            for url in row["failed"]:
                results["failures"].append(f"{shown}: {url} did not answer 200")
            encoding = row["files"][0]["encoding"] or "uncompressed"
            results["summary"].append({
                "figure": f"{name}: GET {shown} + {row['requests'] - 1} files",
                "value": f"{row['total_bytes'] / 1000:.1f} kB"
                         f" (HTML {row['html_bytes_as_served'] / 1000:.1f} kB"
                         f" {encoding}; {row['html_bytes_if_gzipped'] / 1000:.1f} kB if gzipped);"
                         f" {len(row['foreign'])} third-party",
                "target": f"< {TARGET_BYTES / 1000:g} kB, none third-party",
                "met": row["met"],
            })
    results["ok"] = not results["failures"]
    return results


if __name__ == "__main__":
    main(run, run_id(__file__))
