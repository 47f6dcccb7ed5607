"""Rate limits (issue 14): one client address may open only so many evenings and import only so
many files in a while; then it is told to wait (429, Retry-After) and nothing is done."""
from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from calculator import services
from calculator.models import Evening
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db

NEW = {"player_0": "老王", "player_1": "小李", "player_2": "阿珍", "player_3": "张哥",
       "stake": "1", "preset": "guiyang", "first_dealer": "0", "title": ""}


@pytest.fixture
def export_bytes():
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    return json.dumps(services.evening_export(evening=evening)).encode()


def post_new(address: str = "127.0.0.1", **headers):
    return Client(REMOTE_ADDR=address, **headers).post(reverse("calculator:evening_new"), NEW)


def post_import(content: bytes, address: str = "127.0.0.1"):
    file = SimpleUploadedFile("evening.json", content, content_type="application/json")
    return Client(REMOTE_ADDR=address).post(reverse("calculator:evening_import"), {"file": file})


def test_new_evenings_past_the_limit_are_a_429_and_open_nothing(settings):
    settings.RATE_LIMITS = {"evening_new": (2, 3600)}
    assert [post_new().status_code for _ in range(2)] == [302, 302]
    response = post_new()
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "稍后再试" in response.content.decode()
    assert Evening.objects.count() == 2
    assert Client(REMOTE_ADDR="127.0.0.1").get(reverse("calculator:evening_new")).status_code == 200
    assert post_new("192.168.1.23").status_code == 302  # another phone at the table is not held up


def test_imports_past_the_limit_are_a_429_and_import_nothing(settings, export_bytes):
    settings.RATE_LIMITS = {"evening_import": (1, 3600)}
    before = Evening.objects.count()
    assert post_import(export_bytes).status_code == 302
    assert post_import(export_bytes).status_code == 429
    assert post_import(b"not even json").status_code == 429  # refused files count too: they cost work
    assert Evening.objects.count() == before + 1
    assert post_import(export_bytes, "10.0.0.9").status_code == 302


def test_behind_a_proxy_the_address_the_proxy_saw_is_counted(settings):
    """The proxy appends the peer it saw; what the client wrote before that is its own word."""
    settings.RATE_LIMITS = {"evening_new": (1, 3600)}
    settings.BEHIND_PROXY = True
    assert post_new(HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.5").status_code == 302
    assert post_new(HTTP_X_FORWARDED_FOR="2.2.2.2, 203.0.113.5").status_code == 429
    assert post_new(HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 302


def test_the_english_page_says_to_wait_too(settings):
    settings.RATE_LIMITS = {"evening_new": (0, 60)}
    response = Client(REMOTE_ADDR="127.0.0.1", HTTP_COOKIE="django_language=en").post(
        reverse("calculator:evening_new"), NEW)
    assert response.status_code == 429 and "again" in response.content.decode()
