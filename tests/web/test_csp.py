"""Content-Security-Policy (issue 14): every page says where its scripts may come from: this
site only, no inline script, no framing. tests/browser/test_csp.py checks the pages work under it."""
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
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


def test_no_template_has_an_inline_script_or_handler():
    from pathlib import Path

    from django.conf import settings

    for path in (Path(settings.BASE_DIR) / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"""\son[a-z]+=["']""", text), path
        assert "hx-on" not in text, path
