"""The scoring package is pure Python: it loads, and settles, without Django (STYLE.md)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "calculator" / "scoring"


def test_scoring_loads_without_importing_django():
    code = ("import sys; import calculator.scoring; "
            "assert not any(m.startswith('django') for m in sys.modules), "
            "sorted(m for m in sys.modules if m.startswith('django'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_scoring_settles_a_round_without_django():
    code = ("import sys, json; from calculator.scoring import settle_record; "
            "s = settle_record(json.load(open('tests/data/examples/E1.json'))); "
            "assert s.net == [15, -2, -7, -6], s.net; "
            "assert not any(m.startswith('django') for m in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_no_scoring_module_imports_django():
    importing = re.compile(r"^\s*(?:import\s+django|from\s+django[\s.])", re.MULTILINE)
    modules = sorted(SCORING.rglob("*.py"))
    assert modules, SCORING
    offenders = [str(p.relative_to(ROOT)) for p in modules if importing.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
