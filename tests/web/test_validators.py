"""A page reopened unchanged is a 304 (issue 23): the evening page, the read-only page and the
round form send an ETag made from the evening's state and from what the page shows of this phone
(its CSRF cookie, whose phone it is, the language). Any change to the evening, or another phone
sending the same ETag, gets the whole page."""
from __future__ import annotations

import pytest
from django.contrib import messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import Client
from django.urls import reverse

from calculator import selectors, services
from calculator.views.access import page_etag
from tests.factories import make_evening, record_rounds
from tests.web.test_drafts import HTMX, open_round, typed

pytestmark = pytest.mark.django_db


def page(name: str, evening) -> str:
    token = evening.read_token if name == "evening_follow" else evening.token
    return reverse(f"calculator:{name}", args=[token])


def opened(client: Client, address: str) -> str:
    """Open the page twice (the first visit gets this phone its CSRF cookie) and give its ETag."""
    client.get(address)
    response = client.get(address)
    assert response.status_code == 200 and response["ETag"]
    return response["ETag"]


def reopen(client: Client, address: str, etag: str):
    return client.get(address, HTTP_IF_NONE_MATCH=etag)


PAGES = ["evening_detail", "evening_follow", "evening_round_new"]


@pytest.mark.parametrize("name", PAGES)
def test_a_page_reopened_unchanged_is_a_304_that_stays_private(client, name):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    address = page(name, evening)
    etag = opened(client, address)
    again = reopen(client, address, etag)
    assert again.status_code == 304 and again.content == b""
    assert "private" in again["Cache-Control"] and "Cookie" in again["Vary"]


@pytest.mark.parametrize("name", PAGES)
def test_a_new_round_gets_the_whole_page(client, name):
    evening = make_evening()
    address = page(name, evening)
    etag = opened(client, address)
    record_rounds(evening, ["E1"])
    again = reopen(client, address, etag)
    assert again.status_code == 200 and again["ETag"] != etag


@pytest.mark.parametrize("name", PAGES)
def test_another_phone_never_gets_this_phones_copy(client, name):
    """The page carries a CSRF token made from this phone's cookie: the same ETag from another
    phone (another cookie) is answered with that phone's own page."""
    evening = make_evening()
    address = page(name, evening)
    etag = opened(client, address)
    other = Client()
    other.get(address)  # its own CSRF cookie
    assert reopen(other, address, etag).status_code == 200


def test_a_seats_word_or_what_another_phone_typed_reaches_a_reopened_round_form(client):
    evening = make_evening()
    address = page("evening_round_new", evening)
    etag = opened(client, address)
    other = Client()
    other.post(reverse("calculator:evening_round_preview", args=[evening.token]),
               typed("E1", open_round(other, evening), changed="seat0-concealed"), **HTMX)
    again = reopen(client, address, etag)
    hand = selectors.evening_draft(evening=evening).data["seat0-concealed"][0]
    assert again.status_code == 200 and f'value="{hand}"' in again.content.decode()


def test_saying_whose_phone_it_is_or_switching_language_gets_the_whole_page(client):
    evening = make_evening()
    address = page("evening_detail", evening)
    etag = opened(client, address)
    client.post(reverse("calculator:evening_me", args=[evening.token]), {"seat": "1"})
    again = reopen(client, address, etag)
    assert again.status_code == 200 and "记住了" in again.content.decode()  # with what 记住 remembered
    assert "ETag" not in again  # a page showing a message is never one to answer 304 for
    etag = opened(client, address)
    assert reopen(client, address, etag).status_code == 304
    client.cookies["django_language"] = "en"
    assert reopen(client, address, etag).status_code == 200


def test_a_payment_moves_the_read_only_page(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    address = page("evening_follow", evening)
    etag = opened(client, address)
    t = selectors.evening_settle_up(evening=evening).to_pay[0]
    services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)
    assert reopen(client, address, etag).status_code == 200


def test_the_live_polls_send_no_validator(client):
    evening = make_evening()
    response = client.get(page("evening_follow", evening), **HTMX)
    assert response.status_code == 200 and not response.has_header("ETag")


def test_a_message_waiting_to_be_shown_is_never_hidden_by_a_304(rf):
    """A page drawn now shows the message (已记好…, a warning); a 304 would leave the phone's
    older copy without it: no validator while one waits."""
    request = rf.get("/")
    request.session, request.htmx = {}, False
    request._messages = FallbackStorage(request)
    assert page_etag(request, ("state",)) is not None
    messages.warning(request, "这张表记过第1局")
    assert page_etag(request, ("state",)) is None
