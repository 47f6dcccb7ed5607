"""Polls that cost no database while nothing changed (issue 23, calculator/polls.py): the second
"nothing new?" of a phone is answered from the cache, in no query; any write to the evening —
a draft saved, a round recorded or deleted, a 确认 — makes the next poll go to the database and
bring the change. On PostgreSQL the cache is Redis (bin/test), as with several servers."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from calculator import selectors, services
from calculator.models import Evening
from tests.factories import make_evening, record_rounds
from tests.web.test_drafts import HTMX, open_round, typed, url
from tests.web.test_evening_views import polled_version

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _answers_from_the_cache(settings):
    """One test process: its cache is shared by everything that writes and polls."""
    settings.POLL_ANSWERS_FROM_CACHE = True


def test_with_a_cache_only_this_process_sees_polls_go_to_the_database(client, settings):
    """Several gunicorn workers with the per-process cache: a write in one would not move what
    another answers from, so every poll asks the database."""
    settings.POLL_ANSWERS_FROM_CACHE = False
    evening = make_evening()
    poll = evening_poll(client, evening)
    assert poll().status_code == 204
    with CaptureQueriesContext(connection) as queries:
        assert poll().status_code == 204
    assert len(queries) > 0


def evening_poll(client: Client, evening: Evening):
    address = reverse("calculator:evening_detail", args=[evening.token])
    since = polled_version(client.get(address).content.decode(), address)
    return lambda: client.get(address, {"since": since}, **HTMX)


def test_an_unchanged_evening_poll_is_answered_in_no_query(client, django_assert_num_queries):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    poll = evening_poll(client, evening)
    assert poll().status_code == 204  # the first is worked out from the database
    with django_assert_num_queries(0):
        quiet = poll()
    assert quiet.status_code == 204 and "private" in quiet["Cache-Control"]


@pytest.mark.parametrize("write", ["round", "delete", "confirm", "draft"])
def test_any_write_to_the_evening_makes_the_next_poll_bring_it(client, write):
    evening = make_evening()
    (first,) = record_rounds(evening, ["E1"])
    poll = evening_poll(client, evening)
    assert poll().status_code == 204 and poll().status_code == 204
    if write == "round":
        record_rounds(evening, ["E2"])
    elif write == "delete":
        services.round_delete(round=first)
    elif write == "confirm":
        services.round_confirm(round=first, seat=2, verdict="disputed", note="翻牌不对")
    else:
        form = open_round(Client(), evening)
        Client().post(url("evening_round_preview", evening), typed("E1", form, changed="turned", turned="6s"), **HTMX)
    assert poll().status_code == 200


def test_an_unchanged_draft_poll_is_answered_in_no_query_until_another_phone_types(client, django_assert_num_queries):
    evening = make_evening()
    mine = open_round(client, evening)
    client.post(url("evening_round_preview", evening), typed("E1", mine), **HTMX)
    poll = {"draft_base": selectors.draft_version(evening=evening), "draft_client": mine["draft_client"],
            "idempotency_key": mine["idempotency_key"]}
    assert client.get(url("evening_round_draft", evening), poll).status_code == 204
    with django_assert_num_queries(0):
        assert client.get(url("evening_round_draft", evening), poll).status_code == 204
    theirs = open_round(Client(), evening)
    Client().post(url("evening_round_preview", evening),
                  typed("E1", {**theirs, "draft_base": str(poll["draft_base"])}, changed="turned", turned="6s"), **HTMX)
    assert client.get(url("evening_round_draft", evening), poll).json()["fields"] == {"turned": ["6s"]}


def test_the_read_only_poll_is_cached_too_and_a_wrong_address_never_is(client, django_assert_num_queries):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    address = reverse("calculator:evening_follow", args=[evening.read_token])
    since = polled_version(client.get(address).content.decode(), address)
    assert client.get(address, {"since": since}, **HTMX).status_code == 204
    with django_assert_num_queries(0):
        assert client.get(address, {"since": since}, **HTMX).status_code == 204
    wrong = reverse("calculator:evening_follow", args=["x" * 32])
    assert client.get(wrong, {"since": since}, **HTMX).status_code == 404
    assert client.get(wrong, {"since": since}, **HTMX).status_code == 404


def test_a_page_load_with_the_same_query_is_never_a_cached_204(client):
    evening = make_evening()
    address = reverse("calculator:evening_detail", args=[evening.token])
    since = polled_version(client.get(address).content.decode(), address)
    assert client.get(address, {"since": since}, **HTMX).status_code == 204
    assert client.get(address, {"since": since}).status_code == 200  # not htmx: the whole page


def test_a_named_phone_polling_is_kept_present_without_moving_the_cached_answer(client, django_assert_num_queries):
    """Issue 19: the poll keeps the phone's seat present (代按 waits for a phone that left), at
    most one write every few seconds, which moves neither the draft's version nor what the other
    phones' polls are answered from."""
    from datetime import timedelta
    from unittest import mock

    from django.core.cache import cache
    from django.utils import timezone

    cache.clear()
    evening = make_evening()
    client.post(url("evening_me", evening), {"seat": "1"})
    mine = open_round(client, evening)
    poll = {"draft_base": 0, "draft_client": mine["draft_client"], "idempotency_key": mine["idempotency_key"], "me": "1"}
    assert client.get(url("evening_round_draft", evening), poll).status_code == 204
    with django_assert_num_queries(0):
        assert client.get(url("evening_round_draft", evening), poll).status_code == 204
    later = timezone.now() + timedelta(seconds=25)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert client.get(url("evening_round_draft", evening), poll).status_code == 204  # seen: written
        with django_assert_num_queries(0):  # the answer itself still came from the cache
            assert client.get(url("evening_round_draft", evening), poll).status_code == 204
    draft = selectors.evening_draft(evening=evening)
    assert draft.version == 0 and draft.has_phone(1, now=later + timedelta(seconds=29))
