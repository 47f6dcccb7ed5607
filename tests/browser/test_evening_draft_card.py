"""The evening page's ＋记一局 / 接着录 (issue 19): when another phone starts the round, the button a
finger may be on stays the same element (only its words change), so a tap on it is never lost;
and the page brought back by Back (the browser's page cache) shows the round being entered at once."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.table import open_phone, tap_hand
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.factories import make_evening
from tests.timing import scaled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_record_button_stays_under_the_finger_when_it_becomes_resume(live_server, browser):
    evening = make_evening()
    context = browser.new_context(**PHONE)
    page = context.new_page()
    other = None
    try:
        page.goto(f"{live_server.url}/e/{evening.token}/")
        button = page.locator("a.ev-record")
        expect(button).to_contain_text("记一局")
        button.evaluate("a => { a.dataset.seen = 'before' }")  # this very element
        other = open_phone(browser, live_server.url, evening.token, seat=1)
        tap_hand(other, 1, "123m")
        expect(page.locator("#evening-draft")).to_be_visible(timeout=scaled(20_000))  # the 5 s poll
        expect(button).to_contain_text("接着录")
        expect(button).to_have_attribute("data-seen", "before")  # the same element, new words
        button.tap()
        expect(page.locator("form[data-round-form]")).to_be_visible()
    finally:
        if other:
            other.close()
        context.close()


def test_back_to_the_evening_shows_the_round_being_entered_at_once(live_server, browser):
    # Playwright turns the page cache off by default; a phone's browser has it on
    cached = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                                         ignore_default_args=["--disable-back-forward-cache"])
    context = cached.new_context(**PHONE)
    page = context.new_page()
    evening = make_evening()
    try:
        page.add_init_script("addEventListener('pageshow', e => { window.restored = e.persisted })")
        page.goto(f"{live_server.url}/e/{evening.token}/")
        expect(page.locator("a.ev-record")).to_contain_text("记一局")
        page.locator("a.ev-record").click()
        expect(page.locator("form[data-round-form]")).to_be_visible()
        expect(page.locator("[data-tile-keyboard]")).to_be_hidden()
        page.locator('[data-seat-card="0"] .seat-preview [data-tile-box]').tap()
        page.locator('[data-tile-keyboard] [data-key="5m"]').tap()
        expect(page.locator("[data-draft]")).to_have_attribute("data-draft-pending", "0", timeout=scaled(20_000))
        page.go_back(wait_until="commit")  # from the page cache there is no load event
        expect(page.locator("#evening-draft")).to_be_visible(timeout=scaled(3_000))  # not the 5 s poll
        if not page.evaluate("window.restored"):
            pytest.skip("this Chromium loaded the page afresh (no page cache): nothing to restore")
    finally:
        context.close()
        cached.close()
