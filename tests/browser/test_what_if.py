"""换个规矩看看 at phone size in headless Chromium: an evening re-totalled under 兴义 in one tap,
and the rounds under 安顺 from the same page, with nothing stored changing.

Screenshots go to test-artifacts/screenshots/ (see tests/conftest.py) for a human to look at.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from calculator.models import Round
from tests.factories import make_evening, record_rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_evening_re_totalled_under_another_preset_in_one_tap(live_server, page: Page, screenshot):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3"])
    stored = list(Round.objects.values_list("net", "version"))
    page.goto(f"{live_server.url}/e/{evening.token}/")

    page.get_by_role("button", name="按兴义算").click()

    # Stored (贵阳) totals [0, +60, −14, −46]; the same three rounds under 兴义: [+7, +61, −24, −44].
    expect(page.get_by_role("heading", level=2).first).to_have_text(
        "今晚按兴义算：老王 +7 而不是 0、小李 +61 而不是 +60、阿珍 −24 而不是 −14、张哥 −44 而不是 −46")
    expect(page.locator('.what-if-table tr[data-seat="1"] [data-after]')).to_contain_text("+61")
    screenshot()
    # Another tap from the same page: the evening under 安顺.
    page.get_by_role("button", name="按安顺算").click()
    expect(page.locator("#what-if h2")).to_contain_text("今晚按安顺算")
    assert list(Round.objects.values_list("net", "version")) == stored
