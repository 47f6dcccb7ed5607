"""The evening page's cost does not grow with the evening (issue 15): a 500-round evening's page
is within 1.5× the bytes of a 20-round one and runs the same number of queries; the totals and
the chart still cover every round. (Its time is measured in bench/, not asserted here.)"""
from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from calculator import selectors
from calculator.models import Round
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


def evening_of(rounds: int):
    """An evening of `rounds` stored rounds: four scored ones, copied under later numbers."""
    evening = make_evening()
    scored = record_rounds(evening, ["E1", "E2", "E3", "E4"])
    copies = []
    for number in range(len(scored) + 1, rounds + 1):
        model = scored[number % len(scored)]
        copies.append(Round(evening=evening, number=number, record=model.record, settlement=model.settlement,
                            rules=model.rules, net=model.net, dealer=model.dealer, next_dealer=model.next_dealer))
    Round.objects.bulk_create(copies)
    return evening


def page(client, evening, **params):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("calculator:evening_detail", args=[evening.token]), params)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def test_a_500_round_evening_page_weighs_what_a_20_round_one_does(client):
    short_html, short_queries = page(client, evening_of(20))
    long_evening = evening_of(500)
    long_html, long_queries = page(client, long_evening)

    assert len(long_html.encode()) <= 1.5 * len(short_html.encode())
    assert long_queries == short_queries
    # the totals and the chart still cover all 500
    totals = selectors.evening_total_points(evening=long_evening)
    assert "共 500 局" in long_html
    for points in totals:
        assert f">{points:+d}<".replace("-", "−") in long_html or (points == 0 and ">0<" in long_html)
    assert long_html.count('class="ev-round"') == selectors.ROUNDS_PER_PAGE


def listed(html: str) -> list[int]:
    """The numbers of the rounds the list of rounds links (the awards above it link a round too)."""
    rounds = re.search(r'id="evening-rounds".*?</section>', html, re.S)[0]
    return [int(n) for n in re.findall(r'/rounds/(\d+)/"', rounds)]


def test_older_rounds_are_a_page_away_and_the_last_page_ends_at_round_1(client):
    evening = evening_of(45)
    first, _ = page(client, evening)
    numbers = listed(first)
    assert numbers == list(range(45, 25, -1))
    assert "?page=2#evening-rounds" in first and "第 1 / 3 页" in first

    last, _ = page(client, evening, page=3)
    assert listed(last) == [5, 4, 3, 2, 1]
    assert "?page=2#evening-rounds" in last and "?page=4" not in last
    # the live part polls for the page it shows
    assert re.search(r'hx-get="[^"]*since=[^"]*&amp;page=3"', last)

    follow = client.get(reverse("calculator:evening_follow", args=[evening.read_token]), {"page": 2})
    assert listed(follow.content.decode()) == list(range(25, 5, -1))


def history_numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"第(\d+)局</div>", html)]


def test_the_history_is_paged_newest_first(client):
    from calculator.models import Change
    from calculator.selectors.history import HISTORY_PER_PAGE

    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3", "E4"] * 9)  # 36 changes
    assert Change.objects.filter(evening=evening).count() == 36
    url = reverse("calculator:evening_history", args=[evening.token])
    first = client.get(url).content.decode()
    second = client.get(url, {"page": 2}).content.decode()
    assert history_numbers(first) == list(range(36, 36 - HISTORY_PER_PAGE, -1))
    assert history_numbers(second) == list(range(36 - HISTORY_PER_PAGE, 0, -1))
    assert "?page=2" in first and "?page=1" in second


def test_the_export_is_streamed_and_holds_every_round(client):
    import json

    evening = evening_of(120)
    response = client.get(reverse("calculator:evening_export", args=[evening.token]))
    assert response.streaming
    data = json.loads(b"".join(response.streaming_content))
    assert [r["number"] for r in data["rounds"]] == list(range(1, 121))
