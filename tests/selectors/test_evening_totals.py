"""The totals table: one partial (_totals_table.html) on the evening page and on the settle-up."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from calculator import selectors
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


def totals_table(html: str) -> str:
    return re.search(r'<table class="ev-totals">.*?</table>', html, re.S)[0]


def test_the_evening_page_and_the_settle_up_show_the_same_totals_table(client):
    evening = make_evening(stake="0.5")
    record_rounds(evening, ["E1"])

    board = client.get(reverse("calculator:evening_detail", args=[evening.token])).content.decode()
    settle = client.get(reverse("calculator:evening_settle", args=[evening.token])).content.decode()

    assert totals_table(board) == totals_table(settle)
    table = totals_table(settle)
    assert "元（底注 0.5）" in table
    assert re.search(r'class="num pts plus">\+15</td>\s*<td class="num money plus">\+7.5</td>', table)
    assert re.search(r'class="num pts minus">\u22127</td>\s*<td class="num money minus">\u22123.5</td>', table)


def test_the_settle_up_carries_the_stake_as_its_table_shows_it():
    evening = make_evening(stake="2.50")
    assert selectors.evening_settle_up(evening=evening).stake == "2.5"
