"""The hand-written JavaScript of the round form stays small (issue 22): tiles.js and draft.js
together at most 600 lines. What htmx, the server or CSS can do is theirs (docs/WEB.md says
which); the offline outbox lives in outbox.js, a module of its own. A change that needs more
script here should first move something out, or say in its issue why the budget must grow."""
from __future__ import annotations

from pathlib import Path

from django.conf import settings

BUDGET = 600
SCRIPTS = ("tiles.js", "draft.js")


def test_the_round_forms_own_scripts_stay_inside_their_budget():
    folder = Path(settings.BASE_DIR) / "static" / "calculator"
    lines = {name: len((folder / name).read_text(encoding="utf-8").splitlines()) for name in SCRIPTS}
    assert all(lines.values()), lines  # both found and read
    assert sum(lines.values()) <= BUDGET, lines
