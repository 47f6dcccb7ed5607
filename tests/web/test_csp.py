"""Content-Security-Policy (issue 14): every page says where its scripts and styles may come
from: this site only, no inline script or style, no framing. tests/browser/test_csp.py checks the pages work under it."""
from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


def test_every_page_sends_a_policy_without_inline_scripts():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    for url in ["/", "/round/", "/rules/", "/evening/new/", reverse("calculator:evening_detail", args=[evening.token]),
                reverse("calculator:evening_follow", args=[evening.read_token]), "/no-such-page/"]:
        policy = Client().get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe" not in re.search(r"script-src[^;]*", policy).group(0)
        assert "style-src 'self'" in policy and "unsafe" not in re.search(r"style-src[^;]*", policy).group(0)
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


def test_no_template_has_an_inline_script_or_handler():
    from pathlib import Path

    from django.conf import settings

    for path in (Path(settings.BASE_DIR) / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"""\son[a-z]+=["']""", text), path
        assert "hx-on" not in text, path


def test_no_page_template_has_an_inline_style():
    """The PDFs' templates may (WeasyPrint is no browser under the policy); the pages may not."""
    from pathlib import Path

    from django.conf import settings

    for path in (Path(settings.BASE_DIR) / "templates").rglob("*.html"):
        if "pdf" not in path.parts:
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"""\sstyle=["']|<style""", text), path


def test_the_seat_colour_classes_hold_the_charts_palette():
    from pathlib import Path

    from django.conf import settings

    from calculator.presentation.chart import COLOURS, colour_class

    css = (Path(settings.BASE_DIR) / "static" / "calculator" / "evening.css").read_text(encoding="utf-8")
    for seat, colour in enumerate(COLOURS):
        assert re.search(rf"\.{colour_class(seat)}\s*{{\s*background:\s*{colour};", css, re.I), colour
