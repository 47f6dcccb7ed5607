"""Placeholder until the pages it measures land (issue 6)."""
from __future__ import annotations

from .common import main, run_id


def run(quick: bool) -> dict:
    return {"part": "web", "ok": True, "missing": ["not built yet"], "summary": []}


if __name__ == "__main__":
    main(run, run_id(__file__))
