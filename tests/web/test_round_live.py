"""A stored round's page follows the table (issue 19, seen by the new-player review): every seat's
确认 / 有异议 reaches a phone sitting on the page within its 5 s poll; a correction or a deletion
reloads the page instead of leaving the old breakdown (and an old 确认 button) on it."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from calculator import services
from tests.factories import example_record, make_evening, record_rounds

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def since_of(page: str, address: str) -> str:
    match = re.search(rf'hx-get="{re.escape(address)}\?since=([\d.]+)"', page)
    assert match, "the round's words do not poll the round's own address"
    return match.group(1)


@pytest.fixture
def round_():
    evening = make_evening()
    (first,) = record_rounds(evening, ["E1"])
    return first


@pytest.mark.parametrize("read_only", [False, True])
def test_a_word_from_another_phone_comes_in_the_poll(client, round_, read_only):
    evening = round_.evening
    address = (reverse("calculator:evening_follow_round", args=[evening.read_token, 1]) if read_only
               else reverse("calculator:evening_round", args=[evening.token, 1]))
    since = since_of(client.get(address).content.decode(), address)
    assert client.get(address, {"since": since}, **HTMX).status_code == 204
    services.round_confirm(round=round_, seat=2, verdict="disputed", note="翻牌不对")
    answer = client.get(address, {"since": since}, **HTMX)
    part = answer.content.decode()
    assert answer.status_code == 200 and 'id="round-words-live"' in part and "翻牌不对" in part
    assert "<html" not in part  # only the words, swapped in place
    assert client.get(address, {"since": since_of(part, address)}, **HTMX).status_code == 204


def test_a_correction_or_a_deletion_reloads_the_page(client, round_):
    evening = round_.evening
    address = reverse("calculator:evening_round", args=[evening.token, 1])
    since = since_of(client.get(address).content.decode(), address)
    record = example_record("E1")
    record["turned"] = "6m"
    services.round_correct(round=round_, record=record, expected_version=round_.version)
    assert client.get(address, {"since": since}, **HTMX)["HX-Refresh"] == "true"
    round_.refresh_from_db()
    since = since_of(client.get(address).content.decode(), address)
    services.round_delete(round=round_)
    assert client.get(address, {"since": since}, **HTMX)["HX-Refresh"] == "true"


def test_two_rounds_of_one_evening_are_two_questions(client, settings):
    """Answers from the cache are per page: round 2's 204 is not round 1's."""
    settings.POLL_ANSWERS_FROM_CACHE = True
    evening = make_evening()
    first, second = record_rounds(evening, ["E1", "E2"])
    one, two = (reverse("calculator:evening_round", args=[evening.token, n]) for n in (1, 2))
    since_one = since_of(client.get(one).content.decode(), one)
    since_two = since_of(client.get(two).content.decode(), two)
    assert since_one == since_two  # both at version 1 with no words: the same query string
    services.round_confirm(round=first, seat=0, verdict="confirmed")
    assert client.get(two, {"since": since_two}, **HTMX).status_code == 204  # remembered at this generation
    assert client.get(one, {"since": since_one}, **HTMX).status_code == 200


def test_a_phone_presses_for_a_seat_without_one_on_a_stored_round_and_every_page_says_so(client, round_):
    """After a correction asks every seat again, a seat whose phone has left can still answer:
    another phone presses for it on purpose (its own seat is what the form sends otherwise)."""
    evening = round_.evening
    client.post(reverse("calculator:evening_me", args=[evening.token]), {"seat": "0"})  # 老王's phone
    address = reverse("calculator:evening_round", args=[evening.token, 1])
    page = client.get(address).content.decode()
    assert re.search(r'<option value="0" selected>', page)  # untouched, the phone answers for itself
    client.post(reverse("calculator:evening_round_confirm", args=[evening.token, 1]),
                {"seat": "3", "verdict": "confirmed", "version": "1"})
    word = round_.confirmations.get(seat=3)
    assert word.by == "老王" and word.verdict == "confirmed"
    follow = client.get(reverse("calculator:evening_follow_round", args=[evening.read_token, 1])).content.decode()
    assert "张哥 的确认由 老王 代按" in follow
