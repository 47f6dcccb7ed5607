"""Corrections together (issue 19, point 2), in Chromium at 390×844: 翻牌记错了 is fixed in at most
five taps on one phone (the chickens it no longer makes leave 打出的鸡 with a line saying so),
every phone's evening page then asks the table to confirm again, and the dispute given on the
old version stays readable on the round's page; a correction sent back with a problem opens at it.
And 改这局 together: four phones, one opens it, another sees that round 1 is being corrected,
joins and sees the change live with every seat's net before → after, one tap saves it, and all
four phones are asked to confirm again, in at most five taps on the phone that fixed it."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculator import services
from calculator.models import Round, RoundDraft
from tests.browser.table import Phone, open_phone
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


def phone_of(browser, base_url: str, token: str, seat: int, path: str) -> Phone:
    """A phone that said who it is (我是…), then opened `path` of the evening."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base_url}/e/{token}/")
    page.select_option("#me-seat", str(seat))
    page.get_by_role("button", name="记住").click()
    expect(page.locator("#me-seat")).to_have_value(str(seat))
    if path:
        page.goto(f"{base_url}/e/{token}/{path}")
    return Phone(context, page)


def test_four_phones_correct_a_round_together_and_all_are_asked_again(live_server, browser, screenshot):
    evening = make_evening()
    round_ = services.round_record(evening=evening, record=example_record("E1"))  # turned 5万
    services.round_confirm(round=round_, seat=0, verdict="confirmed", phone_seat=0)
    services.round_confirm(round=round_, seat=2, verdict="disputed", note="翻牌不对", phone_seat=2)
    base, token = live_server.url, evening.token
    fixer = phone_of(browser, base, token, 2, "rounds/1/")  # 阿珍 fixes it
    joiner = phone_of(browser, base, token, 1, "rounds/1/")  # 小李 joins from the round's page
    evening_page = phone_of(browser, base, token, 0, "")  # 老王 stays on the evening page
    round_page = phone_of(browser, base, token, 3, "rounds/1/")  # 张哥 stays on the round's page
    phones = [fixer, joiner, evening_page, round_page]
    try:
        page = fixer.page
        fixer.tap(page.get_by_role("link", name="改这局"))
        expect(page.locator("[data-draft][data-correction]")).to_be_visible()
        # the others see that round 1 is being corrected, and by whom, without a reload
        for other in (joiner, evening_page):
            expect(other.page.locator("[data-correcting='1']")).to_contain_text("第1局正在改（阿珍）", timeout=LIVE_MS)
        joiner.page.locator("[data-correcting='1'] a").click()
        expect(joiner.page.locator("[data-draft][data-correction]")).to_be_visible()
        joiner.page.evaluate("window.__sameLoad = true")

        fixer.select(page.locator("#id_turned"), "8m")
        # the joining phone gets the new 翻牌 from the poll, and every seat's net before → after
        expect(joiner.page.locator("#id_turned")).to_have_value("8m", timeout=LIVE_MS)
        expect(joiner.page.locator(".net-bar [data-net-before]")).to_have_count(4, timeout=LIVE_MS)
        expect(page.locator(".net-bar [data-net-before]")).to_have_count(4, timeout=LIVE_MS)
        expect(joiner.page.locator(".net-bar [data-net-before]").first).to_contain_text("→")
        assert joiner.page.evaluate("window.__sameLoad === true")
        screenshot(joiner.page, "joined-correction")

        fixer.tap(page.get_by_role("button", name="保存修改"))
        expect(page.locator(".alert-success")).to_contain_text("第1局改好了")
        assert fixer.taps <= 5, fixer.taps
        assert not RoundDraft.objects.filter(evening=evening).exists()  # ended for every phone
        words = "第1局改过了：翻牌：5万 → 8万；小李 打出的鸡：6万 → 无，请再确认"
        expect(page.locator("[data-ask-again='1']")).to_contain_text(words)
        # the joining phone is told, the other pages ask again without anyone reloading them
        expect(joiner.page.locator("#draft-bar")).to_contain_text("第1局改好了，每家再确认一次", timeout=LIVE_MS)
        # where the thumb is too: the sticky bar links to the round instead of offering 保存修改
        expect(joiner.page.locator(".submit-bar .draft-done")).to_contain_text("第1局改好了")
        expect(joiner.page.get_by_role("button", name="保存修改")).to_be_hidden()
        screenshot(joiner.page, "correction-saved-elsewhere", full_page=False)
        joiner.page.locator("#draft-bar a").click()
        for other in (joiner, evening_page, round_page):
            expect(other.page.locator("[data-ask-again='1']")).to_contain_text(words, timeout=LIVE_MS)
            expect(other.page.locator("[data-correcting]")).to_have_count(0, timeout=LIVE_MS)
        expect(round_page.page.locator(".earlier-words")).to_contain_text("有异议：翻牌不对")
        screenshot(round_page.page, "asked-again-everywhere")
    finally:
        for phone in phones:
            phone.close()
    stored = Round.objects.get()
    assert stored.record["turned"] == "8m" and stored.version == 2
    assert not stored.record["seats"][1].get("discards")
    assert stored.confirmations.count() == 0
