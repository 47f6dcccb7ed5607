"""A stored round's page follows the table, in Chromium at 390×844 (issue 19; the new-player
review found it still): a 确认 / 有异议 pressed on one phone shows on another phone sitting on the
same round's page without a reload, and a correction saved elsewhere reloads that page so it never
shows the old breakdown."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculator import services
from calculator.models import Round
from tests.conftest import PHONE
from tests.factories import example_record, make_evening
from tests.timing import scaled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_MS = scaled(20_000)  # the round's words poll every 5 s: a bound, not a target


def test_another_phones_word_and_a_correction_reach_a_phone_on_the_rounds_page(live_server, browser):
    evening = make_evening()
    round_ = services.round_record(evening=evening, record=example_record("E1"))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/e/{evening.token}/rounds/1/")
        page.evaluate("window.__notReloaded = true")
        services.round_confirm(round=round_, seat=3, verdict="disputed", note="北的鸡算错了")
        words = page.locator("#round-words-live")
        expect(words).to_contain_text("北的鸡算错了", timeout=LIVE_MS)
        assert page.evaluate("window.__notReloaded === true")  # swapped in place

        record = example_record("E1")
        record["turned"] = "6m"
        services.round_correct(round=Round.objects.get(pk=round_.pk), record=record, expected_version=1)
        expect(page.locator(".ev-facts")).to_contain_text("第 2 版", timeout=LIVE_MS)  # the page reloaded
        expect(page.locator("#round-words-live")).to_contain_text("请再确认")
    finally:
        context.close()
