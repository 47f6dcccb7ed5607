"""Lighthouse (mobile, its default) over the main pages, with Debian's Chromium.

    .venv/bin/python -m bench.lighthouse [--quick] [--json FILE]

Serves the app as in production under gunicorn on 127.0.0.1 (bench/site.py) with an evening of
100 rounds (--quick: 20), then runs npm's `lighthouse` (bench/lighthouse/package.json, installed
there with `npm ci` on first use) once per page: home, the round form, the evening page, its
settle-up and history, the read-only follow page and the rules. Targets (issue 15): 100 for
accessibility and best practices, at least 95 for performance. Takes about 20 s a page here.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import ROOT, main, run_id
from .site import HOST, evening_tokens, gunicorn, prepared_site

FOLDER = ROOT / "bench" / "lighthouse"
LIGHTHOUSE = FOLDER / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100}


def _install() -> None:
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=FOLDER, check=True)


def _pages(evening: dict) -> dict[str, str]:
    token, read = evening["token"], evening["read_token"]
    return {
        "home": "/", "round form": "/round/", "evening": f"/e/{token}/",
        "settle": f"/e/{token}/settle/", "history": f"/e/{token}/history/",
        "follow": f"/v/{read}/", "rules": "/rules/",
    }


def _audit(url: str, out: Path) -> dict:
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    done = subprocess.run([str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
                           f"--only-categories={','.join(CATEGORIES)}", "--max-wait-for-load=60000",
                           "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode or not out.exists():
        return {"error": (done.stderr or done.stdout)[-1500:], **{c: 0 for c in CATEGORIES}}
    report = json.loads(out.read_text())
    out.unlink()
    scores = {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}
    failing = sorted(
        audit_id for audit_id, audit in report["audits"].items()
        if audit.get("score") is not None and audit["score"] < 1
        and audit.get("scoreDisplayMode") in ("binary", "numeric")
        and any(ref["id"] == audit_id and ref.get("weight", 0) > 0
                for cat in CATEGORIES[1:] for ref in report["categories"][cat]["auditRefs"])
    )
    metrics = report["audits"]
    return {
        **scores,
        "lcp_ms": round(metrics["largest-contentful-paint"]["numericValue"]),
        "tbt_ms": round(metrics["total-blocking-time"]["numericValue"]),
        "cls": round(metrics["cumulative-layout-shift"]["numericValue"], 3),
        "bytes": round(metrics["total-byte-weight"]["numericValue"]),
        "failing_a11y_bp": failing,
    }


def run(quick: bool) -> dict:
    _install()
    rounds = 20 if quick else 100
    results = {}
    with prepared_site(seed_rounds=rounds) as site, gunicorn(site) as port, \
            tempfile.TemporaryDirectory() as tmp:
        only = os.environ.get("BENCH_PAGES", "")  # e.g. BENCH_PAGES=evening,follow
        for name, path in _pages(evening_tokens(site)).items():
            if only and name not in only.split(","):
                continue
            results[name] = _audit(f"http://{HOST}:{port}{path}", Path(tmp) / "report.json")
            print(name, results[name], file=sys.stderr)
    ok = all(r[c] >= t for r in results.values() for c, t in TARGETS.items())
    version = subprocess.run([str(LIGHTHOUSE), "--version"], capture_output=True, text=True, check=False).stdout.strip()
    return {"id": run_id(__file__), "lighthouse": version, "form_factor": "mobile (Lighthouse default)",
            "evening_rounds": rounds, "targets": TARGETS, "pages": results, "ok": ok}


if __name__ == "__main__":
    main(run, "bench.lighthouse")
