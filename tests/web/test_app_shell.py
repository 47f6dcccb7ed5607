"""The installable app (issue 20, point 3): a manifest a phone can install from, a service worker
at the root whose version follows the files it keeps, an offline page, and a policy that allows
the worker from this site only."""
from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from PIL import Image

from calculator.views import app_shell
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_start_and_icons_a_phone_can_install(client):
    response = client.get(reverse("manifest"))
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "捉鸡算账" and manifest["display"] == "standalone"
    assert manifest["start_url"] == reverse("calculator:home") and manifest["scope"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        with Image.open(finders.find(name)) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"] and image.format == "PNG"
        sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_the_manifest_speaks_the_pages_language():
    english = Client(HTTP_COOKIE="django_language=en").get(reverse("manifest"))
    assert json.loads(english.content)["lang"] == "en"


def test_every_page_links_the_manifest_and_the_worker(client):
    page = client.get(reverse("calculator:home")).content.decode()
    assert f'rel="manifest" href="{reverse("manifest")}"' in page
    assert re.search(r'<script src="[^"]*app_shell\.js" data-worker="/sw\.js" defer>', page)


def test_the_worker_is_served_at_the_root_fresh_on_every_visit_and_keeps_the_shell(client):
    response = client.get(reverse("service_worker"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"  # a deploy reaches every phone on its next visit
    body = response.content.decode()
    shell = json.loads(re.search(r"const SHELL_FILES = (\[.*?\]);", body).group(1))
    assert reverse("offline") in shell
    for url in shell:
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), url
    assert "&quot;" not in body and "&#x27;" not in body  # JavaScript, not HTML-escaped text


def test_a_changed_file_gives_the_worker_a_new_version(tmp_path, monkeypatch):
    before = app_shell._version()
    real = finders.find
    changed = tmp_path / "app.css"
    changed.write_bytes(open(real("calculator/app.css"), "rb").read() + b"\n.new{}")
    monkeypatch.setattr(finders, "find", lambda name, *a, **k: str(changed) if name == "calculator/app.css" else real(name))
    assert app_shell._version() != before


def test_the_offline_page_says_so_in_both_languages(client):
    assert "没有网络" in client.get(reverse("offline")).content.decode()
    english = Client(HTTP_COOKIE="django_language=en").get(reverse("offline")).content.decode()
    assert "No network" in english


def test_the_policy_allows_a_worker_and_a_manifest_from_this_site_only(client):
    policy = client.get(reverse("calculator:home"))["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


def test_the_worker_keeps_a_round_form_only_under_its_own_evening_address_and_marked(client):
    """The worker keeps 记一局 per address (its pattern matches that page and no other of the
    evening: not the draft's poll, its previews, a correction, the read-only pages) and only a
    copy carrying the mark it writes its time into, which the form has once and no other page
    has: a correction, or a form that lost the mark, is never served from a copy."""
    body = client.get(reverse("service_worker")).content.decode()
    round_form = re.compile(re.search(r"const ROUND_FORM = /(.*?)/;", body).group(1))
    assert "const MARK = 'data-kept-copy=\"\"';" in body and "if (!html.includes(MARK)) return null;" in body
    evening = make_evening()
    record_rounds(evening, ["E1"])
    own = reverse("calculator:evening_round_new", args=[evening.token])
    assert round_form.search(own)
    names = ("evening_round_preview", "evening_round_draft", "evening_round_draft_confirm", "evening_round_draft_discard")
    others = [reverse(f"calculator:{name}", args=[evening.token]) for name in names]
    others += [reverse(f"calculator:{name}", args=[evening.token, 1])
               for name in ("evening_round", "evening_round_edit", "evening_round_correction_draft")]
    others += [reverse("calculator:evening_follow_round", args=[evening.read_token, 1]),
               own.replace(evening.token, evening.read_token).replace("/e/", "/v/"), own + "x/", "/x" + own]
    for address in others:
        assert not round_form.search(address), address
    assert client.get(own).content.decode().count('data-kept-copy=""') == 1
    for page in (reverse("calculator:evening_round_edit", args=[evening.token, 1]),
                 reverse("calculator:evening_detail", args=[evening.token]), reverse("calculator:round_new")):
        response = client.get(page)
        assert response.status_code == 200 and "data-kept-copy" not in response.content.decode(), page
