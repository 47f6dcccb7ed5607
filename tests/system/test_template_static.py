"""Every `{% static %}` in every template names a file that exists (issue 18): in production the
manifest storage raises on a missing one, and the page that names it becomes a 500 — the error
page itself once did."""
from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders

STATIC_TAG = re.compile(r"""\{%\s*static\s+(['"])(?P<name>[^'"]+)\1""")


def templates() -> list[Path]:
    folders = [Path(folder) for engine in settings.TEMPLATES for folder in engine.get("DIRS", [])]
    folders.append(Path(settings.BASE_DIR) / "calculator" / "templates")
    return sorted(path for folder in folders if folder.is_dir() for path in folder.rglob("*.html"))


def test_the_walk_finds_the_templates_and_their_static_tags():
    found = {path.name for path in templates()}
    assert {"base.html", "error_page.html"} <= found
    assert sum(len(STATIC_TAG.findall(path.read_text())) for path in templates()) >= 10


def test_every_static_file_a_template_names_exists():
    missing = [f"{path.relative_to(settings.BASE_DIR)}: {match['name']}"
               for path in templates() for match in STATIC_TAG.finditer(path.read_text())
               if not finders.find(match["name"])]
    assert missing == []
