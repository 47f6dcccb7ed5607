"""Rate limits (issues 14, 23): a phone may open only so many evenings and import only so many
files in a while, an address ten phones' worth, an evening record so many rounds; past any of
them the client is told to wait (429, Retry-After) and nothing is done."""
from __future__ import annotations

import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from calculator import services
from calculator.middleware import DEVICE_COOKIE
from calculator.models import Evening, Round
from tests.factories import example_record, make_evening, record_rounds
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db

NEW = {"player_0": "老王", "player_1": "小李", "player_2": "阿珍", "player_3": "张哥",
       "stake": "1", "preset": "guiyang", "first_dealer": "0", "title": ""}


@pytest.fixture
def export_bytes():
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    return json.dumps(services.evening_export(evening=evening)).encode()


def post_new(address: str = "127.0.0.1", client: Client | None = None, **headers):
    return (client or Client(REMOTE_ADDR=address, **headers)).post(reverse("calculator:evening_new"), NEW)


def phone(address: str = "127.0.0.1") -> Client:
    """A browser that has opened a page, so it holds its device cookie."""
    client = Client(REMOTE_ADDR=address)
    response = client.get(reverse("calculator:evening_new"))
    assert response.cookies[DEVICE_COOKIE].value and response.cookies[DEVICE_COOKIE]["httponly"]
    return client


def post_import(content: bytes, address: str = "127.0.0.1"):
    file = SimpleUploadedFile("evening.json", content, content_type="application/json")
    return Client(REMOTE_ADDR=address).post(reverse("calculator:evening_import"), {"file": file})


def test_new_evenings_past_the_limit_are_a_429_and_open_nothing(settings):
    settings.RATE_LIMITS = {"evening_new": {"device": (2, 3600)}}
    assert [post_new().status_code for _ in range(2)] == [302, 302]
    response = post_new()
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "稍后再试" in response.content.decode()
    assert Evening.objects.count() == 2
    assert Client(REMOTE_ADDR="127.0.0.1").get(reverse("calculator:evening_new")).status_code == 200
    assert post_new("192.168.1.23").status_code == 302  # another phone at the table is not held up


def test_imports_past_the_limit_are_a_429_and_import_nothing(settings, export_bytes):
    settings.RATE_LIMITS = {"evening_import": {"device": (1, 3600)}}
    before = Evening.objects.count()
    assert post_import(export_bytes).status_code == 302
    assert post_import(export_bytes).status_code == 429
    assert post_import(b"not even json").status_code == 429  # refused files count too: they cost work
    assert Evening.objects.count() == before + 1
    assert post_import(export_bytes, "10.0.0.9").status_code == 302


def test_behind_a_proxy_the_address_the_proxy_saw_is_counted(settings):
    """The proxy appends the peer it saw; what the client wrote before that is its own word."""
    settings.RATE_LIMITS = {"evening_new": {"address": (1, 3600)}}
    settings.BEHIND_PROXY = True
    assert post_new(HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.5").status_code == 302
    assert post_new(HTTP_X_FORWARDED_FOR="2.2.2.2, 203.0.113.5").status_code == 429
    assert post_new(HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 302


def test_the_english_page_says_to_wait_too(settings):
    settings.RATE_LIMITS = {"evening_new": {"device": (0, 60)}}
    response = Client(REMOTE_ADDR="127.0.0.1", HTTP_COOKIE="django_language=en").post(
        reverse("calculator:evening_new"), NEW)
    assert response.status_code == 429 and "again" in response.content.decode()


def test_a_club_behind_one_address_is_counted_phone_by_phone(settings):
    """Ten phones behind one NAT address each have their own budget; the address has a ceiling
    of its own, so a script minting cookies is stopped too."""
    settings.RATE_LIMITS = {"evening_new": {"device": (2, 3600), "address": (7, 3600)}}
    phones = [phone("203.0.113.5") for _ in range(4)]
    answers = [post_new(client=p).status_code for p in phones for _ in range(2)]
    assert answers[:7] == [302] * 7 and answers[7] == 429  # the address's 8th evening waits
    assert Evening.objects.count() == 7
    assert post_new(client=phone("198.51.100.7")).status_code == 302  # another club is not held up


def test_a_phone_over_its_budget_waits_while_the_others_at_its_address_go_on(settings):
    settings.RATE_LIMITS = {"evening_new": {"device": (1, 3600), "address": (10, 3600)}}
    first, second = phone("203.0.113.5"), phone("203.0.113.5")
    assert post_new(client=first).status_code == 302
    assert post_new(client=first).status_code == 429
    assert post_new(client=second).status_code == 302


def test_a_client_without_the_cookie_is_counted_by_its_address_on_one_phones_budget(settings):
    settings.RATE_LIMITS = {"evening_new": {"device": (1, 3600), "address": (10, 3600)}}
    assert post_new("203.0.113.5").status_code == 302
    assert post_new("203.0.113.5").status_code == 429  # a new cookie-less client: the same count


def test_an_evening_records_so_many_rounds_an_hour_whoever_sends_them(settings):
    settings.RATE_LIMITS = {"round_record": {"evening": (2, 3600)}}
    evening, other = make_evening(), make_evening()
    data = record_to_post_data(example_record("E1"))

    def record(evening, address):
        url = reverse("calculator:evening_round_new", args=[evening.token])
        return Client(REMOTE_ADDR=address).post(url, {**data, "idempotency_key": str(uuid.uuid4())})

    assert [record(evening, f"10.0.0.{n}").status_code for n in (1, 2)] == [302, 302]
    refused = record(evening, "10.0.0.3")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert evening.rounds.count() == 2
    assert record(other, "10.0.0.3").status_code == 302  # another evening's table goes on
    assert Round.objects.count() == 3
