"""The outbox (issue 20): a phone that loses the network keeps what it does to the round in the
browser, says so, and sends it when the network is back, however often the page was reloaded;
the round's idempotency key records it once.

The outage is real (tests/browser/outage.py: the phone reaches the server through a relay that
cuts every connection) and without a service worker, as in WeChat's browser on iPhone; Playwright's
clock makes the page believe minutes pass without the suite waiting them."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error, expect

from calculator import selectors
from calculator.models import Round
from calculator.scoring import parse_tiles
from tests.browser.outage import Relay
from tests.browser.table import Phone, chips, enter_outcome, enter_seat, open_phone, saved
from tests.conftest import PHONE
from tests.factories import example_record, expected_net, make_evening
from tests.timing import scaled, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYNC_MS = scaled(20_000)


@pytest.fixture
def relay(live_server):
    relay = Relay(live_server.url)
    yield relay
    relay.close()


def phone_with_clock(browser, base_url: str, token: str, seat: int) -> Phone:
    """open_phone, with Playwright's clock installed first (time flows until it is moved on)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.clock.install()
    page.goto(f"{base_url}/e/{token}/")
    page.select_option("#me-seat", str(seat))
    page.get_by_role("button", name="记住").click()
    page.locator("a.ev-record").click()
    expect(page.locator("form[data-round-form]")).to_be_visible()
    return Phone(context, page)


def reopen(page, url: str) -> None:
    """Open the round form again once the network is back (the error page's own retry may still
    be under way: a goto it interrupts is tried again)."""
    def opened() -> bool:
        try:
            page.goto(url)
        except Error:
            return False
        return True
    wait_until(opened, 30, "the round form opens again")


def test_a_phone_offline_for_five_minutes_records_its_round_once_after_a_reload(
        live_server, relay, browser, screenshot):
    evening = make_evening()
    record = example_record("E1")
    phone = phone_with_clock(browser, relay.url, evening.token, seat=0)
    other = open_phone(browser, live_server.url, evening.token, seat=1)
    page = phone.page
    try:
        page.locator("[data-kb-done]").click()
        relay.go_offline()
        badge = page.locator("[data-network-badge]")
        expect(badge).to_be_visible(timeout=scaled(3_000))  # issue 20: within 3 s
        computed = page.locator("[data-outbox-line]")
        expect(computed).to_contain_text(re.compile(r"上次算的 \d\d:\d\d"))

        enter_seat(phone, record, 0)
        enter_outcome(phone, record)
        expect(badge).to_contain_text(re.compile(r"没有网络.*\d+ 处改动等网络"))
        expect(page.locator("[data-draft-status]")).to_contain_text("没有网络")
        for seat in (1, 2, 3):  # the rest of the table goes on meanwhile
            enter_seat(other, record, seat)
        saved(other)

        page.clock.fast_forward("05:00")
        page.locator(".submit-btn").click()
        expect(computed).to_contain_text("网络回来后自动记下")
        # 东 folds his melds once entered (碰 / 杠 then reads "闷豆 9筒"): unfolded, the page's
        # first screen ended with its 憨包豆 switch half under the sticky bar, which axe-core,
        # checking the page from its top, counts as a target too small.
        page.locator('[data-seat-card="0"] details.melds > summary').click()
        screenshot(page, "offline-record-waits")
        assert Round.objects.count() == 0

        with pytest.raises(Error):  # no network, no service worker: the browser's own error page
            page.reload()
        relay.go_online()
        reopen(page, f"{relay.url}/e/{evening.token}/rounds/new/")
        told = page.locator("[data-outbox-told]")
        expect(told).to_contain_text("这一局已经记成第1局了", timeout=SYNC_MS)
        screenshot(page, "offline-record-sent")
        expect(other.page.locator("#draft-bar")).to_contain_text("已经记成第1局了", timeout=SYNC_MS)
        assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('zhuoji-outbox:')).length") == 0
    finally:
        phone.close()
        other.close()
    rounds = list(Round.objects.all())
    assert len(rounds) == 1
    assert list(rounds[0].net) == expected_net("E1")
    concealed = rounds[0].record["seats"][0]["concealed"]
    assert sorted(map(str, parse_tiles(concealed))) == sorted(map(str, parse_tiles(record["seats"][0]["concealed"])))


def test_two_phones_offline_then_back_merge_and_the_second_is_told_the_clash(live_server, browser, screenshot):
    evening = make_evening()
    record = example_record("E1")
    first = open_phone(browser, live_server.url, evening.token, seat=0)
    second = open_phone(browser, live_server.url, evening.token, seat=1)
    try:
        for phone in (first, second):
            phone.page.locator("[data-kb-done]").click()
            phone.context.set_offline(True)
        for seat, phone in enumerate((first, second)):
            expect(phone.page.locator("[data-network-badge]")).to_be_visible(timeout=scaled(3_000))
            enter_seat(phone, record, seat)
        first.page.select_option("#id_turned", "7s")
        second.page.select_option("#id_turned", "8s")
        for phone in (first, second):
            expect(phone.page.locator("[data-outbox-count]")).to_have_text(re.compile(r"[2-9] 处改动等网络"))
        assert selectors.evening_draft(evening=evening).data == {}  # nothing reached the server

        first.context.set_offline(False)
        saved(first)
        expect(first.page.locator("[data-outbox-told]")).to_contain_text(re.compile(r"网络回来了：[2-9] 处改动发出去了"), timeout=SYNC_MS)
        second.context.set_offline(False)
        expect(second.page.locator("[data-draft-log]")).to_contain_text("老王 也改了翻牌：7条", timeout=SYNC_MS)
        expect(second.page.locator("[data-outbox-told]")).to_contain_text(re.compile(r"[2-9] 处改动发出去了"))
        screenshot(second.page, "back-with-a-clash")
        # and the phone whose 7条 was replaced hears it too, not a silent flip
        expect(first.page.locator("[data-draft-log]")).to_contain_text("小李 改了翻牌：8条", timeout=SYNC_MS)
        for phone in (first, second):  # both hands on both phones; the later 翻牌 stays, as the words said
            for seat in (0, 1):
                expect(chips(phone.page, seat)).to_have_count(len(parse_tiles(record["seats"][seat]["concealed"])),
                                                             timeout=SYNC_MS)
            expect(phone.page.locator("#id_turned")).to_have_value("8s", timeout=SYNC_MS)
            expect(phone.page.locator("[data-network-badge]")).to_be_hidden()
    finally:
        first.close()
        second.close()


def test_a_round_recorded_offline_over_a_change_made_meanwhile_waits_for_the_table(live_server, browser, screenshot):
    """Helper's four-phone pass: 东 lost the network, 南 changed the round, 东 tapped 记下这一局;
    back online, the round was stored from 东's older copy, undoing 南's change without a word.
    The server refuses an old copy (409); the phone says so and shows the round as it now is."""
    evening = make_evening()
    record = example_record("E1")
    dong = open_phone(browser, live_server.url, evening.token, seat=0)
    nan = open_phone(browser, live_server.url, evening.token, seat=1)
    try:
        for seat in range(4):
            enter_seat(nan, record, seat)
        enter_outcome(nan, record)
        saved(nan)
        expect(dong.page.locator("#id_turned")).to_have_value(record["turned"], timeout=SYNC_MS)
        dong.page.locator("[data-kb-done]").click()
        dong.context.set_offline(True)
        expect(dong.page.locator("[data-network-badge]")).to_be_visible(timeout=scaled(3_000))
        # 东 types something of his own meanwhile (the helper's second pass: then it was stored)
        dong.page.evaluate("""() => { const el = document.querySelector("[name='seat0-discards']");
                                      el.value = "6m"; el.dispatchEvent(new Event("input", { bubbles: true })); }""")
        nan.page.select_option("#id_turned", "7s")
        saved(nan)
        dong.page.locator(".submit-btn").click()
        expect(dong.page.locator("[data-outbox-line]")).to_contain_text("网络回来后自动记下")

        dong.context.set_offline(False)
        expect(dong.page.locator("[data-outbox-told]")).to_contain_text("别的手机也改了这一局，没有自动记下", timeout=SYNC_MS)
        # said by the button too (the words at the top are out of sight there)
        expect(dong.page.locator("[data-outbox-line]")).to_contain_text("别的手机也改了这一局")
        expect(dong.page.locator("#id_turned")).to_have_value("7s", timeout=SYNC_MS)  # the round as the table sees it
        expect(dong.page.locator("#id_seat0-discards")).to_have_value("6m")  # and his own change, kept
        screenshot(dong.page, "offline-record-held")
        assert not Round.objects.filter(evening=evening).exists()
        dong.page.locator(".submit-btn").click()  # looked, and recorded
        expect(dong.page).to_have_url(re.compile(r"/rounds/1/$"), timeout=SYNC_MS)
    finally:
        dong.close()
        nan.close()
    stored = Round.objects.get(evening=evening).record
    assert stored["turned"] == "7s" and stored["seats"][0]["discards"] == "6m"


def test_a_confirm_tapped_offline_is_sent_when_the_network_is_back(live_server, browser):
    evening = make_evening()
    record = example_record("E1")
    phone = open_phone(browser, live_server.url, evening.token, seat=2)
    page = phone.page
    try:
        for seat in range(4):
            enter_seat(phone, record, seat)
        enter_outcome(phone, record)
        saved(phone)
        confirm = page.locator("#draft-confirm")
        expect(confirm.locator('button[value="confirmed"]')).to_be_visible(timeout=SYNC_MS)
        phone.context.set_offline(True)
        expect(page.locator("[data-network-badge]")).to_be_visible(timeout=scaled(3_000))
        confirm.locator('button[value="confirmed"]').click()
        expect(page.locator("[data-outbox-count]")).to_have_text("1 处改动等网络")
        waiting = confirm.locator("[data-confirm-waiting]")  # said on the card tapped, not only in the badge
        expect(waiting).to_contain_text("你按的确认或有异议先存在这部手机上")
        assert not selectors.evening_draft(evening=evening).confirmations
        phone.context.set_offline(False)
        expect(page.locator('[data-seat-word="2"]')).to_have_class(re.compile("is-confirmed"), timeout=SYNC_MS)
        expect(waiting).to_be_hidden()
    finally:
        phone.close()
    assert selectors.evening_draft(evening=evening).confirmations["2"]["verdict"] == "confirmed"


def test_a_round_tapped_offline_in_a_closed_tab_is_recorded_from_the_evening_page(live_server, browser):
    evening = make_evening()
    record = example_record("E1")
    phone = open_phone(browser, live_server.url, evening.token, seat=0)
    try:
        for seat in range(4):
            enter_seat(phone, record, seat)
        saved(phone)
        phone.context.set_offline(True)
        expect(phone.page.locator("[data-network-badge]")).to_be_visible(timeout=scaled(3_000))
        enter_outcome(phone, record)
        phone.page.locator(".submit-btn").click()
        expect(phone.page.locator("[data-outbox-line]")).to_contain_text("网络回来后自动记下")
        phone.page.close()  # the tab is closed with the round unsent
        phone.context.set_offline(False)
        phone.page = phone.context.new_page()
        phone.page.goto(f"{live_server.url}/e/{evening.token}/")
        told = phone.page.locator("[data-outbox-told]")
        expect(told).to_contain_text("这一局已经记成第1局了", timeout=SYNC_MS)
        told.get_by_role("link").click()
        expect(phone.page).to_have_url(re.compile(r"/rounds/1/$"))
    finally:
        phone.close()
    assert list(Round.objects.values_list("net", flat=True)) == [expected_net("E1")]


def test_with_a_service_worker_a_reload_offline_keeps_the_form_and_the_offline_page_says_what_waits(relay, browser):
    """With the worker a reload offline gives the form again (its copy, with what this phone had
    and what waits: issue 20); a page never opened gives the offline page, which says how many
    changes wait and opens itself again when the network is back, from where 记一局 sends them."""
    context = browser.new_context(**{**PHONE, "service_workers": "allow"})
    page = context.new_page()
    phone = Phone(context, page)
    evening = make_evening()
    record = example_record("E1")
    try:
        page.goto(f"{relay.url}/e/{evening.token}/rounds/new/")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=scaled(30_000))
        for seat in range(4):
            enter_seat(phone, record, seat)
        saved(phone)
        relay.go_offline()
        expect(page.locator("[data-network-badge]")).to_be_visible(timeout=scaled(3_000))
        enter_outcome(phone, record)
        page.locator(".submit-btn").click()
        expect(page.locator("[data-outbox-line]")).to_contain_text("网络回来后自动记下")
        page.reload()
        expect(page.locator("[data-draft-status]")).to_contain_text("上次联网")  # the worker's copy
        for seat in range(4):  # the hands this phone had before the network went, not the copy's empty form
            expect(chips(page, seat)).to_have_count(len(parse_tiles(record["seats"][seat]["concealed"])))
        expect(page.locator("[data-outbox-line]")).to_contain_text("网络回来后自动记下")
        page.goto(f"{relay.url}/e/{evening.token}/history/")  # never opened on this phone
        expect(page.get_by_role("heading", name="没有网络")).to_be_visible()
        expect(page.locator("[data-outbox-offline]")).to_contain_text(re.compile(r"有 \d+ 处改动等网络"))
        assert Round.objects.count() == 0
        relay.go_online()  # the offline page opens itself again; 记一局 sends what waits
        told = page.locator("[data-outbox-told]")
        expect(told).to_contain_text("打开记一局就会发出去", timeout=SYNC_MS)
        told.get_by_role("link").click()
        expect(page.locator("[data-outbox-told]")).to_contain_text("这一局已经记成第1局了", timeout=SYNC_MS)
    finally:
        phone.close()
    assert list(Round.objects.values_list("net", flat=True)) == [expected_net("E1")]
