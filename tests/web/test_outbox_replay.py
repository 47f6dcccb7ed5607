"""The outbox's replay (issue 20), at the HTTP level: whatever a phone's outbox (static/calculator/
outbox.js) sends again after a lost answer, a dropped connection or a reload, in whatever order and
however often, the round is recorded once, as entered, and what a seat said goes with it.

A phone's outbox holds the draft saves the live preview posts (what it typed, coalesced per
field), a 确认, then 记下这一局, all under the round's idempotency key. A disconnect loses a request
or its answer; the server may have done it or not, so the phone sends it again. Here a random
schedule (reordered, duplicated: requests the server got before the phone knew) is followed by
the outbox's own replay in order until each is acknowledged. Runs on PostgreSQL in bin/test's
second run as well."""
from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator import selectors
from calculator.models import Change, Round
from tests.factories import expected_net, make_evening
from tests.web.test_drafts import HTMX, open_round, say_who, typed, url

pytestmark = pytest.mark.django_db

SEAT0 = [f"seat0-{n}" for n in ("concealed", "discards", "declared")]
OTHERS = [f"seat{s}-{n}" for s in (1, 2, 3) for n in ("concealed", "discards", "declared")]
ROUND = ["dealer", "result", "winners", "win_tile", "from_seat", "turned", "first_yaoji_seat"]
SAVES, CONFIRM, RECORD = (0, 1, 2), 3, 4


def outbox_of(evening) -> list:
    """The requests a phone at seat 0 queued while offline, as the page sends them."""
    phone = say_who(Client(), evening, 0)
    form = open_round(phone, evening)
    requests = [(url("evening_round_preview", evening), typed("E1", form, changed=",".join(names)), HTMX)
                for names in (SEAT0, OTHERS, ROUND)]
    requests.append((url("evening_round_draft_confirm", evening), typed("E1", form, verdict="confirmed"), HTMX))
    requests.append((url("evening_round_new", evening), typed("E1", form), {}))
    return phone, requests


def send(phone: Client, request) -> object:
    path, data, headers = request
    return phone.post(path, data, **headers)


@pytest.mark.slow  # 100 outboxes of 5 requests and their replays: about 40 s of CPU
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(before=st.lists(st.integers(min_value=0, max_value=RECORD), max_size=12),
       lost=st.lists(st.booleans(), min_size=5, max_size=20))
def test_any_replay_of_an_outbox_records_the_round_once(before, lost):
    evening = make_evening()
    phone, outbox = outbox_of(evening)
    for index in before:  # reached the server, but the phone never heard (the line went down)
        send(phone, outbox[index])
    answers = []
    drops = iter(lost)
    for request in outbox:  # the outbox when the network is back: in order, each until acknowledged
        while next(drops, False):  # the connection drops again: the request is sent again
            send(phone, request)
        answers.append(send(phone, request))

    rounds = Round.objects.filter(evening=evening)
    assert rounds.count() == 1 and Change.objects.filter(evening=evening, kind=Change.CREATED).count() == 1
    round_ = rounds.get()
    assert list(round_.net) == expected_net("E1") and round_.number == 1
    assert selectors.evening_draft(evening=evening) is None
    assert answers[RECORD].status_code == 302 and answers[RECORD]["Location"] == url("evening_round", evening, 1)
    words = list(round_.confirmations.values_list("seat", "verdict"))
    if RECORD not in before or (CONFIRM in before and before.index(CONFIRM) < before.index(RECORD)):
        assert words == [(0, "confirmed")]  # the 确认 reached the draft first: it went with the round
    else:
        assert words == []  # it came after: the round was recorded, the 确认 is asked on its page


def test_a_replay_after_the_round_was_corrected_records_nothing_and_says_which_round(client):
    """Another phone corrected the round while this one was offline: its 记下这一局, sent again,
    is not a second round, and the form says the round is already recorded."""
    evening = make_evening()
    phone, outbox = outbox_of(evening)
    send(phone, outbox[RECORD])
    path, data, headers = outbox[RECORD]
    changed = {**data, "turned": "9s"}
    response = phone.post(path, changed)
    assert Round.objects.filter(evening=evening).count() == 1
    assert response.status_code == 400 and "已经记成第1局了" in response.content.decode()


def test_the_outbox_script_comes_before_draft_js_and_the_worker_keeps_it(client):
    """outbox.js puts what this phone typed back into the form before draft.js reads it."""
    evening = make_evening()
    page = client.get(url("evening_round_new", evening)).content.decode()
    assert page.index("calculator/outbox.js") < page.index("calculator/draft.js")
    assert "data-outbox-words" in page and "data-outbox-count" in page
    assert "/static/calculator/outbox.js" in client.get("/sw.js").content.decode()
