"""The whole table enters one round together (issue 11), each phone its own browser context at
390×844: each taps its own hand, one of them the outcome, and each sees the others' tiles; a
reload or Back in the middle restores the entry exactly; a phone offline for a while loses
nothing; two phones changing the same field are told."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from calculator import selectors, services
from calculator.models import Round
from calculator.presentation import signed
from calculator.scoring import parse_tiles
from tests.browser.table import chips, enter_outcome, enter_seat, open_phone, saved, seat_card, tap_hand
from tests.factories import example_record, expected_net, make_evening
from tests.timing import scaled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYNC_MS = scaled(20_000)  # how long to wait for another phone's change (they poll every 2 s): a wait, not a target


def hand_size(record: dict, seat: int) -> int:
    return len(parse_tiles(record["seats"][seat]["concealed"]))


def see_net(phone, example: str) -> None:
    bar = phone.page.locator(".net-bar [data-net]")
    expect(bar).to_have_text([signed(v) for v in expected_net(example)], timeout=SYNC_MS)


@pytest.mark.parametrize("phones", [2, 4])
def test_phones_enter_one_round_together_and_see_each_others_tiles(live_server, browser, screenshot, phones):
    evening = make_evening()
    record = example_record("E1")
    table = [open_phone(browser, live_server.url, evening.token, seat) for seat in range(phones)]
    try:
        # each phone's own seat comes first, its keyboard open while its hand is empty
        for seat, phone in enumerate(table):
            expect(phone.page.locator("form [data-seat-card]").first).to_have_attribute("data-seat-card", str(seat))
            expect(phone.page.locator("[data-tile-keyboard]")).to_be_visible()
        for seat, phone in enumerate(table):
            enter_seat(phone, record, seat)
        for seat in range(phones, 4):  # seats without a phone: the first phone enters them
            enter_seat(table[0], record, seat)
        enter_outcome(table[-1], record)
        screenshot(table[0].page, f"{phones}-phones-first")
        for phone in table:
            for seat in range(4):
                expect(chips(phone.page, seat)).to_have_count(hand_size(record, seat), timeout=SYNC_MS)
            see_net(phone, "E1")
        screenshot(table[1].page, f"{phones}-phones-second")
        expect(seat_card(table[0].page, 1).locator(".tile-count")).to_have_text("13/13")
        # every seat confirms on its own phone; the last one disagrees, saying why
        for seat, phone in enumerate(table):
            confirm = phone.page.locator("#draft-confirm")
            expect(confirm).to_be_visible()
            if seat == phones - 1:
                confirm.locator('[name="confirm_note"]').fill("热炮没算")
                phone.tap(confirm.locator('button[value="disputed"]'))
            else:
                phone.tap(confirm.locator('button[value="confirmed"]'))
            expect(phone.page.locator(f'[data-seat-word="{seat}"]')).to_have_class(
                re.compile("is-disputed" if seat == phones - 1 else "is-confirmed"))
        table[0].page.reload()
        expect(table[0].page.locator("#draft-confirm .is-confirmed")).to_have_count(phones - 1)
        bar = table[0].page.locator(".net-bar [data-net]")
        expect(bar).to_have_text([signed(v) for v in expected_net("E1")], timeout=1)  # drawn with the page
        screenshot(table[0].page, f"{phones}-phones-confirmed")
        table[1].page.get_by_role("button", name="记下这一局").click()
        expect(table[1].page.locator(".alert-success")).to_contain_text("第1局记好了")
        expect(table[0].page.locator("#draft-bar")).to_contain_text("第1局", timeout=SYNC_MS)
        # told, the page offers the round instead of 记下这一局, where the thumb is too
        expect(table[0].page.locator(".submit-bar .draft-done")).to_contain_text("第1局")
        expect(table[0].page.get_by_role("button", name="记下这一局")).to_be_hidden()
        # and takes no more typing, which would go nowhere: no keyboard, the cards take no taps
        expect(table[0].page.locator("[data-tile-keyboard]")).to_be_hidden()
        expect(table[0].page.locator('[data-seat-card="0"]')).to_have_css("pointer-events", "none")
        # a tap already on its way before the page was told: the same round, not a second
        with table[0].page.expect_navigation():
            table[0].page.locator("form[data-round-form]").evaluate("(form) => form.requestSubmit()")
    finally:
        for phone in table:
            phone.close()
    assert list(Round.objects.values_list("net", flat=True)) == [expected_net("E1")]
    assert selectors.evening_draft(evening=evening) is None
    words = sorted(Round.objects.get().confirmations.values_list("seat", "verdict", "note"))
    assert words == [(seat, "confirmed", "") for seat in range(phones - 1)] + [(phones - 1, "disputed", "热炮没算")]


def test_a_reload_and_back_in_the_middle_restore_the_entry_exactly(live_server, browser, screenshot):
    evening = make_evening()
    record = example_record("E1")
    phone = open_phone(browser, live_server.url, evening.token, seat=None)
    page = phone.page
    try:
        enter_seat(phone, record, 0)
        enter_seat(phone, record, 1)
        enter_outcome(phone, record)
        saved(phone)
        page.reload()
        expect(chips(page, 0)).to_have_count(hand_size(record, 0))
        expect(chips(page, 1)).to_have_count(hand_size(record, 1))
        expect(page.locator("#id_turned")).to_have_value(record["turned"])
        expect(page.locator("#id_win_tile")).to_have_value(record["outcome"]["winners"][0]["tile"])
        expect(page.locator("#id_seat0-melds-0-kind")).to_have_value("men")
        page.locator(".ev-back").click()
        expect(page.locator("#evening-draft")).to_contain_text("第1局 录入中 · 2/4 家录好")
        screenshot(page, "evening-page")
        page.go_back()
        expect(chips(page, 0)).to_have_count(hand_size(record, 0))
        expect(chips(page, 1)).to_have_count(hand_size(record, 1))
        expect(page.locator("#id_turned")).to_have_value(record["turned"])
        enter_seat(phone, record, 2)
        enter_seat(phone, record, 3)
        see_net(phone, "E1")
        screenshot(page, "after-back")
    finally:
        phone.close()


def test_a_phone_offline_for_a_while_loses_nothing_and_catches_up(live_server, browser):
    evening = make_evening()
    record = example_record("E1")
    first = open_phone(browser, live_server.url, evening.token, seat=0)
    second = open_phone(browser, live_server.url, evening.token, seat=1)
    try:
        second.context.set_offline(True)
        enter_seat(second, record, 1)   # typed while offline
        enter_seat(first, record, 0)
        # The phone holds what it typed, unsent; the server has none of it.
        expect(second.page.locator("[data-draft]")).not_to_have_attribute("data-draft-pending", "0")
        draft = selectors.evening_draft(evening=evening)
        assert draft is None or not draft.data.get("seat1-concealed", [""])[0]
        expect(chips(first.page, 1)).to_have_count(0)
        second.context.set_offline(False)
        expect(chips(first.page, 1)).to_have_count(hand_size(record, 1), timeout=SYNC_MS)
        expect(chips(second.page, 0)).to_have_count(hand_size(record, 0), timeout=SYNC_MS)
    finally:
        first.close()
        second.close()
    draft = selectors.evening_draft(evening=evening)
    assert sorted(parse_tiles(draft.data["seat1-concealed"][0])) == sorted(parse_tiles(record["seats"][1]["concealed"]))


def test_two_phones_changing_the_same_field_are_told_plainly(live_server, browser, screenshot):
    evening = make_evening()
    first = open_phone(browser, live_server.url, evening.token, seat=0)
    second = open_phone(browser, live_server.url, evening.token, seat=1)
    try:
        for phone in (first, second):
            phone.page.locator("[data-kb-done]").click()
        first.page.select_option("#id_turned", "6s")
        expect(second.page.locator("#id_turned")).to_have_value("6s", timeout=SYNC_MS)
        second.context.set_offline(True)
        second.page.select_option("#id_turned", "7s")
        first.page.select_option("#id_turned", "8s")
        saved(first)  # 8条 is on the server before the other phone is back
        second.context.set_offline(False)
        expect(second.page.locator("[data-draft-log]")).to_contain_text("老王 也改了翻牌：8条", timeout=SYNC_MS)
        expect(second.page.locator("#id_turned")).to_have_value("7s")  # what it typed stays
        expect(first.page.locator("#id_turned")).to_have_value("7s", timeout=SYNC_MS)  # and is sent
        screenshot(second.page, "told")
    finally:
        first.close()
        second.close()


def test_a_phone_opens_the_round_with_its_own_seat_first(live_server, browser, screenshot):
    evening = make_evening()
    phone = open_phone(browser, live_server.url, evening.token, seat=2)
    try:
        page = phone.page
        expect(page.locator("form [data-seat-card]").first).to_have_attribute("data-seat-card", "2")
        expect(page.locator("[data-tile-keyboard]")).to_be_visible()  # open on its own, empty hand
        for tile in parse_tiles("123456789m11122p"):  # 14: surely full before who won is known
            page.locator(f'[data-tile-keyboard] [data-key="{tile}"]').tap()
        # Its own hand full, the keyboard closes, not moving on: the others' hands are theirs to type.
        expect(page.locator("[data-tile-keyboard]")).to_be_hidden()
        assert page.locator("[data-tile-box].is-active").count() == 0
        screenshot(page, "mine")
    finally:
        phone.close()


def test_a_phone_whose_seat_is_mei_jiao_opens_without_the_keyboard(live_server, browser):
    evening = make_evening()
    phone = open_phone(browser, live_server.url, evening.token, seat=3)
    page = phone.page
    try:
        page.locator("[data-tile-keyboard] [data-kb-done]").tap()
        seat_card(page, 3).locator(".mei-jiao-switch label").tap()  # 没叫: no hand to show
        saved(phone)
        page.reload()
        expect(seat_card(page, 3).locator(".mei-jiao-switch input")).to_be_checked()
        page.wait_for_load_state("networkidle")  # the page has asked for the draft and drawn it
        expect(page.locator("[data-tile-keyboard]")).to_be_hidden()  # nothing to type: it stays shut
        expect(page.locator(".submit-btn")).to_be_visible()
    finally:
        phone.close()


def test_back_then_forward_on_a_phone_shows_what_it_typed(live_server, browser):
    """The browser may show its first, empty copy of the form again on Forward (no-cache allows
    it): the page must still fetch what this phone typed before it left."""
    evening = make_evening()
    record = example_record("E1")
    phone = open_phone(browser, live_server.url, evening.token, seat=1)
    page = phone.page
    try:
        enter_seat(phone, record, 1)
        saved(phone)
        page.go_back()
        expect(page.locator("a.ev-record")).to_be_visible()  # the evening page
        page.go_forward()
        expect(chips(page, 1)).to_have_count(hand_size(record, 1), timeout=SYNC_MS)
        expect(page.locator("#id_seat1-discards")).to_have_value(record["seats"][1]["discards"])
    finally:
        phone.close()


def test_a_phone_still_entering_is_told_when_the_entry_is_thrown_away_elsewhere(live_server, browser):
    evening = make_evening()
    phone = open_phone(browser, live_server.url, evening.token, seat=0)
    try:
        tap_hand(phone, 0, "123456789m11p")
        saved(phone)
        assert services.draft_discard(evening=evening)  # 扔掉这局录入, on another phone's evening page
        expect(phone.page.locator("[data-draft-log]")).to_contain_text("这局录入在别的手机上扔掉了", timeout=SYNC_MS)
        expect(phone.page.locator("[data-draft-log] li")).to_have_count(1)  # said once, not every poll
        for _ in range(2):  # two more polls answered: neither says it again
            with phone.page.expect_response(lambda r: "/rounds/draft/?" in r.url, timeout=SYNC_MS):
                pass
        expect(phone.page.locator("[data-draft-log] li")).to_have_count(1)
    finally:
        phone.close()


def test_a_phone_whose_polls_do_not_get_through_stops_on_its_next_change_once_the_round_is_recorded(live_server, browser):
    """The save's own answer says the round was recorded meanwhile (HX-Trigger): the page stops
    there, not only on the poll (blocked here, as on a network that drops the odd request)."""
    evening = make_evening()
    phone = open_phone(browser, live_server.url, evening.token, seat=0)
    page = phone.page
    try:
        tap_hand(phone, 0, "123456789m11p")
        saved(phone)
        # Polls one at a time: once one has failed, none from before the block is still on its way.
        with page.expect_event("requestfailed", lambda r: "/rounds/draft/?" in r.url, timeout=SYNC_MS):
            page.route(re.compile(r"/rounds/draft/\?"), lambda route: route.abort())
        draft = selectors.evening_draft(evening=evening)
        services.round_record(evening=evening, record=example_record("E1"), idempotency_key=draft.idempotency_key)
        tap_hand(phone, 0, "2p")  # its next change: the save answers that the round is recorded
        expect(page.locator("[data-draft]")).to_have_class(re.compile(r"\bis-recorded\b"), timeout=SYNC_MS)
        expect(page.locator("#draft-bar")).to_contain_text("已经记成第1局了")
        assert page.locator("[data-draft-poll]").count() == 0  # no more polling
    finally:
        phone.close()


def test_the_round_page_without_an_evening_keeps_its_entry_in_the_browser(live_server, page, screenshot):
    """/round/ has no evening: a reload or a restarted tab brings back what was typed (localStorage),
    and Back restores it too (再算一局 keeping the table is tests/web/test_drafts.py)."""
    from tests.browser.table import Phone

    record = example_record("E1")
    phone = Phone(page.context, page)
    page.goto(live_server.url + "/round/")
    for seat, name in enumerate(["阿梅", "小李", "老王", "张哥"]):
        page.locator(f"#id_seat{seat}-name").fill(name)
    tap_hand(phone, 0, record["seats"][0]["concealed"])
    tap_hand(phone, 1, record["seats"][1]["concealed"])
    page.select_option("#id_turned", "5m")
    page.wait_for_function("() => (localStorage.getItem('zhuoji-round-entry') || '').includes('5m')")
    page.reload()
    expect(chips(page, 0)).to_have_count(hand_size(record, 0))
    expect(chips(page, 1)).to_have_count(hand_size(record, 1))
    expect(page.locator("#id_seat0-name")).to_have_value("阿梅")
    expect(page.locator("#id_turned")).to_have_value("5m")
    for seat in (0, 1):  # and the server's reading of what came back, not 待输入 until the next change
        expect(page.locator(f'[data-seat-card="{seat}"] .seat-standing')).not_to_contain_text("待输入")
    screenshot(page, "reloaded")
    page.goto(live_server.url + "/")
    page.go_back()
    expect(chips(page, 1)).to_have_count(hand_size(record, 1))


def test_killing_the_page_mid_entry_and_reopening_it_elsewhere_loses_nothing(live_server, browser):
    evening = make_evening()
    record = example_record("E1")
    phone = open_phone(browser, live_server.url, evening.token, seat=0)
    enter_seat(phone, record, 0)
    enter_outcome(phone, record)
    saved(phone)
    phone.close()  # the tab is gone, the browser too
    again = open_phone(browser, live_server.url, evening.token, seat=0)
    try:
        expect(chips(again.page, 0)).to_have_count(hand_size(record, 0))
        expect(again.page.locator("#id_turned")).to_have_value(record["turned"])
        expect(again.page.locator("#id_seat0-melds-0-kind")).to_have_value("men")
    finally:
        again.close()


def test_a_correction_asks_before_the_page_is_left_with_changes_not_submitted(live_server, browser):
    from calculator import services

    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"))
    phone = open_phone(browser, live_server.url, evening.token, seat=None)
    page = phone.page
    try:
        page.goto(f"{live_server.url}/e/{evening.token}/rounds/1/edit/")
        asked = []
        page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
        page.locator(".ev-back").click()  # nothing changed yet: no question
        expect(page).to_have_url(re.compile(r"/rounds/1/$"))
        assert asked == []
        page.go_back()
        phone.select(page.locator("#id_turned"), "6s")
        with page.expect_event("dialog"):
            page.locator(".ev-back").click()
        assert asked == ["beforeunload"]
        expect(page).to_have_url(re.compile(r"/rounds/1/edit/$"))  # dismissed: still here, change kept
        expect(page.locator("#id_turned")).to_have_value("6s")
    finally:
        phone.close()
