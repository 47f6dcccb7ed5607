"""The table agrees, live (issue 19, point 1): four phones, each its own browser context at
390×844. A 确认 or 有异议 tapped on one phone shows on the other three without a reload, within
the poll that brings tiles; every phone's net bar shows the result as soon as the round adds up,
not only the phone that typed the last tile; a phone may press for a seat without a phone of its
own (and every phone says so), never over a seat whose own phone is at the round."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from calculator import selectors, services
from calculator.models import Round
from calculator.presentation import signed
from tests.browser.table import open_phone, tap_hand
from tests.factories import example_record, expected_net, make_evening
from tests.round_form_data import record_to_post_data
from tests.timing import scaled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYNC_MS = scaled(20_000)  # a bound on the wait for another phone's change, not a target


def draft_of(example: str, *, leave_out: str = "") -> dict[str, list[str]]:
    """A worked example as the round's draft holds it, with one field still empty."""
    data = record_to_post_data(example_record(example))
    values = {k: (v if isinstance(v, list) else [v]) for k, v in data.items()
              if not k.endswith("-name") and k not in ("players", "preset", "stake")}
    if leave_out:
        values[leave_out] = [""]
    return values


def mark_page(phone) -> None:
    """A flag on the page's window: still there later means the page was not reloaded."""
    phone.page.evaluate("window.__sameLoad = true")


def not_reloaded(phone) -> bool:
    return phone.page.evaluate("window.__sameLoad === true")


def test_a_word_on_one_phone_shows_on_the_other_three_and_every_net_bar_fills_in(live_server, browser, screenshot):
    evening = make_evening()
    record = example_record("E1")
    # everything typed but 张哥's hand: the round does not add up yet
    services.draft_save(evening=evening, values=draft_of("E1", leave_out="seat3-concealed"), changed=None,
                        base=0, client="setup")
    table = [open_phone(browser, live_server.url, evening.token, seat) for seat in range(4)]
    try:
        for phone in table:
            mark_page(phone)
            expect(phone.page.locator(".net-bar [data-net]")).to_have_count(0)
        tap_hand(table[3], 3, record["seats"][3]["concealed"])
        net = [signed(v) for v in expected_net("E1")]
        for phone in table:  # the three phones that typed nothing get the result with the poll
            expect(phone.page.locator(".net-bar [data-net]")).to_have_text(net, timeout=SYNC_MS)
            expect(phone.page.locator("#draft-confirm")).to_be_visible()
        # 小李 confirms; 阿珍 disputes, saying why: every phone shows both, none reloads
        table[1].tap(table[1].page.locator('#draft-confirm button[value="confirmed"]'))
        table[2].page.locator('#draft-confirm [name="confirm_note"]').fill("翻牌不对")
        table[2].tap(table[2].page.locator('#draft-confirm button[value="disputed"]'))
        for phone in table:
            expect(phone.page.locator('[data-seat-word="1"]')).to_have_class(re.compile("is-confirmed"),
                                                                             timeout=SYNC_MS)
            expect(phone.page.locator('[data-seat-word="2"]')).to_contain_text("有异议：翻牌不对", timeout=SYNC_MS)
            assert not_reloaded(phone)
        expect(table[2].page.locator('#draft-confirm [name="confirm_note"]')).to_have_value("")  # said: ready for the next
        screenshot(table[0].page, "words-on-another-phone")
        # every seat had its own phone when the last one opened: it is offered nobody to press for
        expect(table[3].page.locator("#proxy-seat")).to_have_count(0)
        table[0].tap(table[0].page.locator('#draft-confirm button[value="confirmed"]'))
        table[3].tap(table[3].page.locator('#draft-confirm button[value="confirmed"]'))
        expect(table[1].page.locator("#draft-confirm .is-confirmed")).to_have_count(3, timeout=SYNC_MS)
        table[1].page.get_by_role("button", name="记下这一局").click()
        expect(table[1].page.locator(".alert-success")).to_contain_text("第1局记好了")
    finally:
        for phone in table:
            phone.close()
    words = sorted(Round.objects.get().confirmations.values_list("seat", "verdict", "note", "by"))
    assert words == [(0, "confirmed", "", ""), (1, "confirmed", "", ""), (2, "disputed", "翻牌不对", ""),
                     (3, "confirmed", "", "")]


def test_a_phone_presses_for_a_seat_without_a_phone_and_is_refused_over_one_with_a_phone(live_server, browser,
                                                                                       screenshot):
    evening = make_evening()
    services.draft_save(evening=evening, values=draft_of("E1"), changed=None, base=0, client="setup")
    wang = open_phone(browser, live_server.url, evening.token, 0)
    li = open_phone(browser, live_server.url, evening.token, 1)  # 阿珍 and 张哥 have no phone here
    try:
        mark_page(wang)
        page = wang.page
        expect(page.locator(".net-bar [data-net]")).to_have_count(4)
        page.locator("details.confirm-proxy summary").click()
        # 小李's phone came after 老王's page was drawn: the menu still names him, the server knows better
        expect(page.locator("#proxy-seat option")).to_have_text(["（不替别人，按我自己的）", "小李", "阿珍", "张哥"])
        page.select_option("#proxy-seat", "1")
        wang.tap(page.locator('#draft-confirm button[value="confirmed"]'))
        expect(page.locator("[data-confirm-error]")).to_contain_text("小李 有自己的手机在录这一局")
        for _poll in range(2):  # and it stays while the page polls on (the refused POST saved the draft)
            with page.expect_response(lambda r: "/rounds/draft/?" in r.url):
                pass
        expect(page.locator("[data-confirm-error]")).to_contain_text("小李 有自己的手机在录这一局", timeout=1)
        expect(page.locator("#proxy-seat")).to_have_value("1")  # refused: the choice stays, to put right
        page.select_option("#proxy-seat", "3")
        wang.tap(page.locator('#draft-confirm button[value="confirmed"]'))
        expect(page.locator('[data-seat-word="3"]')).to_contain_text("张哥 的确认由 老王 代按")
        expect(page.locator("[data-confirm-error]")).to_have_count(0)
        expect(page.locator("#proxy-seat")).to_have_value("")  # the next tap is 老王's own again
        expect(page.locator("#proxy-seat option")).to_have_text(["（不替别人，按我自己的）", "阿珍", "张哥"])  # as the server knows it now
        expect(li.page.locator('[data-seat-word="3"]')).to_contain_text("张哥 的确认由 老王 代按", timeout=SYNC_MS)
        expect(li.page.locator('[data-seat-word="0"]')).not_to_have_class(re.compile("is-confirmed"))
        expect(li.page.locator('[data-seat-word="1"]')).not_to_have_class(re.compile("is-confirmed"))
        screenshot(li.page, "pressed-for-another-seat")
        expect(li.page.locator("#proxy-seat option")).to_have_text(["（不替别人，按我自己的）", "阿珍", "张哥"])
        assert not_reloaded(wang)
    finally:
        wang.close()
        li.close()


def test_a_word_from_a_page_that_missed_another_phones_change_is_refused_in_place(live_server, browser, screenshot):
    """老王's page has not yet heard that 小李 made 阿珍 the dealer when he taps 有异议 with a why:
    the card says it was not taken and what changed, the page stays as it was (no reload, his why
    still typed), and the poll then brings the change; tapping again gives the word."""
    evening = make_evening()
    services.draft_save(evening=evening, values=draft_of("E1"), changed=None, base=0, client="setup")
    wang = open_phone(browser, live_server.url, evening.token, 0)
    li = open_phone(browser, live_server.url, evening.token, 1)
    try:
        mark_page(wang)
        page = wang.page
        expect(page.locator(".net-bar [data-net]")).to_have_count(4)
        page.route("**/rounds/draft/?*", lambda route: route.fulfill(status=204))  # hears nothing for now
        li.choose("dealer", 2)
        expect(li.page.locator("[data-draft]")).to_have_attribute("data-draft-pending", "0", timeout=SYNC_MS)
        page.locator('#draft-confirm [name="confirm_note"]').fill("翻牌不对")
        wang.tap(page.locator('#draft-confirm button[value="disputed"]'))
        expect(page.locator("[data-confirm-error]")).to_contain_text("别的手机刚改了这一局，你按的没有记下")
        expect(page.locator("[data-confirm-error]")).to_contain_text("小李 改了庄家：阿珍")
        expect(page.locator("form[data-round-form]")).to_be_visible()
        expect(page.locator('#draft-confirm [name="confirm_note"]')).to_have_value("翻牌不对")
        assert not_reloaded(wang)
        screenshot(page, "word-refused-missed-change")
        page.unroute("**/rounds/draft/?*")
        expect(page.locator('input[name="dealer"][value="2"]')).to_be_checked(timeout=SYNC_MS)
        wang.tap(page.locator('#draft-confirm button[value="disputed"]'))
        expect(li.page.locator('[data-seat-word="0"]')).to_contain_text("有异议：翻牌不对", timeout=SYNC_MS)
    finally:
        wang.close()
        li.close()


def test_the_phone_that_begins_the_next_draft_after_a_throw_away_goes_on_from_what_it_has_seen(live_server, browser):
    """The round is thrown away on another phone; 老王's next change begins a new draft (a key of
    its own, put into his form). 小李's change reaches his page, and his page then holds that
    version: his own next change is no clash with it, and his polls are answered "nothing new"."""
    evening = make_evening()
    services.draft_save(evening=evening, values=draft_of("E1"), changed=None, base=0, client="setup")
    wang = open_phone(browser, live_server.url, evening.token, 0)
    try:
        page = wang.page
        old_key = page.locator('input[name="idempotency_key"]').input_value()
        services.draft_discard(evening=evening)  # 扔掉 on another phone
        page.select_option("#id_turned", "6m")
        expect(page.locator('input[name="idempotency_key"]')).not_to_have_value(old_key, timeout=SYNC_MS)
        services.draft_save(evening=evening, values={"dealer": ["2"]}, changed={"dealer"}, base=1, client="other",
                            by="小李", key=selectors.evening_draft(evening=evening).idempotency_key)
        expect(page.locator('input[name="dealer"][value="2"]')).to_be_checked(timeout=SYNC_MS)
        version = str(selectors.evening_draft(evening=evening).version)
        expect(page.locator('input[name="draft_base"]')).to_have_value(version, timeout=SYNC_MS)
        with page.expect_response(lambda r: "/rounds/draft/?" in r.url) as polled:
            pass
        assert polled.value.status == 204
        wang.choose("dealer", 3)
        expect(page.locator("[data-draft]")).to_have_attribute("data-draft-pending", "0", timeout=SYNC_MS)
        assert selectors.evening_draft(evening=evening).data["dealer"] == ["3"]
        expect(page.locator("[data-draft-log]")).not_to_contain_text("也改了")
    finally:
        wang.close()


def test_a_phone_typing_after_its_round_was_recorded_and_deleted_never_blocks_the_evening(live_server, browser):
    """Issue 19, point 3: A and B open 记一局, A records, A deletes that round, B (its page still
    open, its tab asleep meanwhile) types, then C records three rounds: three rounds are stored."""
    from calculator import selectors

    evening = make_evening()
    services.draft_save(evening=evening, values=draft_of("E1"), changed=None, base=0, client="setup")
    a = open_phone(browser, live_server.url, evening.token, 0)
    b = open_phone(browser, live_server.url, evening.token, 1)
    try:
        old_key = b.page.locator('input[name="idempotency_key"]').input_value()
        # B's tab goes to sleep: hidden pages do not poll
        b.page.evaluate("""() => { window.__asleep = true;
            Object.defineProperty(document, 'visibilityState', {get: () => window.__asleep ? 'hidden' : 'visible'}); }""")
        a.page.get_by_role("button", name="记下这一局").click()
        expect(a.page.locator(".alert-success")).to_contain_text("第1局记好了")
        a.page.get_by_role("link", name="删这局").click()
        a.page.get_by_role("button", name="确认删除").click()
        expect(a.page.locator(".alert-success")).to_contain_text("第1局删掉了")
        b.page.evaluate("window.__asleep = false")
        b.page.select_option("#id_turned", "6m")  # B types on the old page
        expect(b.page.locator("[data-draft-log]")).to_contain_text("第1局记下以后又被删了", timeout=SYNC_MS)
        expect(b.page.locator('input[name="idempotency_key"]')).not_to_have_value(old_key)
        draft = selectors.evening_draft(evening=evening)
        assert draft is not None and str(draft.idempotency_key) != old_key and draft.data["turned"] == ["6m"]
    finally:
        a.close()
        b.close()
    for example in ("E1", "E2", "E3"):  # C: 记一局, 记下这一局
        key = services.draft_open(evening=evening).idempotency_key
        services.round_record(evening=evening, record=example_record(example), idempotency_key=key, by="C")
    assert Round.objects.filter(evening=evening).count() == 3
