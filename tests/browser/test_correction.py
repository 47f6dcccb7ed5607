"""Corrections together (issue 19, point 2), in Chromium at 390×844: 翻牌记错了 is fixed in at most
five taps on one phone (the chickens it no longer makes leave 打出的鸡 with a line saying so),
every phone's evening page then asks the table to confirm again, and the dispute given on the
old version stays readable on the round's page; a correction sent back with a problem opens at it."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculator import services
from calculator.models import Round
from tests.browser.table import open_phone
from tests.conftest import PHONE
from tests.factories import example_record, make_evening
from tests.timing import scaled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_MS = scaled(20_000)  # the evening page polls every 5 s: a bound, not a target


def test_a_turned_tile_fixed_in_five_taps_asks_every_seat_again_and_keeps_the_dispute(live_server, browser,
                                                                                    screenshot):
    evening = make_evening()
    round_ = services.round_record(evening=evening, record=example_record("E1"))  # turned 5万: 小李's 6万 a chicken
    services.round_confirm(round=round_, seat=0, verdict="confirmed", phone_seat=0)
    services.round_confirm(round=round_, seat=2, verdict="disputed", note="翻牌不对", phone_seat=2)
    fixer = open_phone(browser, live_server.url, evening.token, 2)
    other = browser.new_context(**PHONE)
    watcher = other.new_page()
    try:
        watcher.goto(f"{live_server.url}/e/{evening.token}/")
        page = fixer.page
        page.goto(f"{live_server.url}/e/{evening.token}/rounds/1/")
        fixer.tap(page.get_by_role("link", name="改这局"))
        fixer.select(page.locator("#id_turned"), "8m")
        fixer.tap(page.get_by_role("button", name="看看改了什么").last)
        expect(page.locator("[data-carried-chickens]")).to_contain_text("小李 打出的鸡里的 6万 翻牌改了以后不是鸡了")
        screenshot(page, "turned-corrected")
        fixer.tap(page.get_by_role("button", name="确认修改"))
        expect(page.locator(".alert-success")).to_contain_text("第1局改好了")
        assert fixer.taps <= 5, fixer.taps
        # another phone, on the evening page all along, is asked without a reload
        asked = watcher.locator("[data-ask-again='1']")
        expect(asked).to_contain_text("第1局改过了：翻牌：5万 → 8万；小李 打出的鸡：6万 → 无，请再确认", timeout=LIVE_MS)
        watcher.locator("[data-ask-again='1'] a").click()
        expect(watcher.locator(".earlier-words")).to_contain_text("有异议：翻牌不对")
        screenshot(watcher, "asked-again")
    finally:
        other.close()
        fixer.close()
    assert Round.objects.get().record["turned"] == "8m"
    assert not Round.objects.get().record["seats"][1].get("discards")


def test_a_correction_sent_back_with_a_problem_opens_at_it(live_server, browser):
    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"))
    phone = open_phone(browser, live_server.url, evening.token, None)
    page = phone.page
    try:
        page.goto(f"{live_server.url}/e/{evening.token}/rounds/1/edit/")
        page.locator("#id_seat3-concealed").evaluate("(el) => { el.value = '19m'; }")  # a hand far down the page
        page.evaluate("window.onbeforeunload = null")
        page.locator("form[data-round-form]").evaluate("(form) => form.submit()")
        problems = page.locator(".net-bar a.net-problems")
        expect(problems).to_be_visible()
        first = page.locator("#" + problems.get_attribute("href").lstrip("#"))
        expect(first).to_be_in_viewport()
        assert page.evaluate("window.scrollY") > 300  # not the top of the form
    finally:
        phone.close()
