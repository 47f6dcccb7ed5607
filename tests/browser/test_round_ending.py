"""The phone that ends the round (issue 19, point 4): how it ended, 翻牌 and the first 幺鸡 sit in
one card right under that phone's own seat, so its thumb reaches them without scrolling, and
胡的那张 and 翻牌 are one key of the tile keyboard, not a 28-item menu. Without the script the
menus still work."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.table import enter_chickens, enter_ending, enter_seat, open_phone, seat_card
from tests.conftest import PHONE
from tests.factories import example_record, make_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_round_ending_phone_reaches_the_outcome_from_its_own_card_without_scrolling(live_server, browser, screenshot):
    evening = make_evening()
    record = example_record("E1")
    phone = open_phone(browser, live_server.url, evening.token, seat=2)  # E1's least busy seat
    page = phone.page
    try:
        # the form opens on this phone's seat, its name in sight under the sticky header
        name = seat_card(page, 2).locator(".seat-head")
        expect(page.locator("[data-tile-keyboard]")).to_be_visible()
        header = page.locator(".app-nav").bounding_box()
        head = name.bounding_box()
        assert head["y"] >= header["y"] + header["height"] - 1, (head, header)
        assert head["y"] + head["height"] <= PHONE["viewport"]["height"]
        # its own card, then how the round ended with 翻牌 and the first 幺鸡 in the same card
        cards = page.locator("form[data-round-form] > section.card").evaluate_all(
            "cards => cards.map(c => c.dataset.seatCard ?? c.className)")
        mine = cards.index("2")
        assert "outcome-card" in cards[mine + 1], cards
        outcome = page.locator(".outcome-card")
        expect(outcome.locator('[data-tile-pick="turned"]')).to_have_count(1)
        expect(outcome.locator('[data-choice-field="first_yaoji_seat"]')).to_have_count(1)

        enter_seat(phone, record, 2)
        screenshot(page, "own-hand", full_page=False)
        before = (phone.taps, phone.seconds, phone.scrolls)
        enter_ending(phone, record)
        enter_chickens(phone, record)
        screenshot(page, "ended", full_page=False)
        assert phone.scrolls - before[2] <= 1, phone.log  # at most one short scroll, from the hand down
        # 点炮 to 东 with 4条 from 西: 东, which opens the keyboard on 胡的哪张: its 4条 key, the keyboard
        # goes on to 翻牌: its 5万 key; 西; first 幺鸡 北: five taps, no menu anywhere
        assert phone.taps - before[0] == 5, phone.log
        assert phone.seconds - before[1] <= 10, phone.seconds - before[1]
        expect(page.locator("#id_turned")).to_have_value("5m")
        expect(page.locator('[data-tile-pick="turned"] .tile-chips .tile')).to_have_attribute("data-tile", "5m")
        expect(page.locator('[data-tile-pick="win_tile"] .tile-chips .tile')).to_have_attribute("data-tile", "4s")
        expect(page.locator("[data-tile-keyboard]")).to_be_hidden()  # one key, and it is done
    finally:
        phone.close()


def test_after_the_winning_tile_the_keyboard_goes_on_to_the_turned_tile_while_it_is_empty(live_server, browser):
    evening = make_evening()
    phone = open_phone(browser, live_server.url, evening.token, seat=None)
    page, keyboard = phone.page, phone.page.locator("[data-tile-keyboard]")
    try:
        page.locator('.winner-switch label[data-seat-label="0"]').tap()
        page.locator('[data-tile-pick="win_tile"] [data-tile-box]').tap()
        expect(keyboard.locator("[data-kb-label]")).to_have_text("胡的哪张")
        keyboard.locator('[data-key="4s"]').tap()
        expect(keyboard.locator("[data-kb-label]")).to_have_text("翻牌")
        keyboard.locator('[data-key="5m"]').tap()
        expect(keyboard).to_be_hidden()
        expect(page.locator("#id_win_tile")).to_have_value("4s")
        expect(page.locator("#id_turned")).to_have_value("5m")
        # 翻牌 set already: another winning tile closes the keyboard
        page.locator('[data-tile-pick="win_tile"] [data-tile-box]').tap()
        keyboard.locator('[data-key="6s"]').tap()
        expect(keyboard).to_be_hidden()
        expect(page.locator("#id_turned")).to_have_value("5m")
    finally:
        phone.close()


def test_a_chosen_tile_comes_out_again_and_another_phone_sees_it_in_the_box(live_server, browser):
    evening = make_evening()
    first = open_phone(browser, live_server.url, evening.token, seat=0)
    second = open_phone(browser, live_server.url, evening.token, seat=1)
    try:
        box = first.page.locator('[data-tile-pick="turned"] [data-tile-box]')
        first.tap(box)
        first.key(first.page.locator('[data-tile-keyboard] [data-key="9p"]'))
        expect(second.page.locator('[data-tile-pick="turned"] .tile-chips .tile')).to_have_attribute(
            "data-tile", "9p", timeout=20_000)
        # on the box again, the chip taken out: no 翻牌
        first.tap(box)
        first.tap(box.locator(".tile"))
        expect(first.page.locator("#id_turned")).to_have_value("")
        expect(box.locator(".tile")).to_have_count(0)
    finally:
        first.close()
        second.close()


def test_without_javascript_the_tile_menus_work(live_server, browser):
    evening = make_evening()
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/e/{evening.token}/")
        page.locator("a.ev-record").click()
        expect(page.locator('[data-tile-pick="turned"] [data-tile-box]')).to_be_hidden()
        turned = page.locator("#id_turned")
        expect(turned).to_be_visible()
        box = turned.bounding_box()
        assert box["width"] > 100, box  # the plain menu, full size
        turned.select_option("6s")
        expect(page.locator("#id_win_tile")).to_be_visible()
        # who deals and who won show on the seats' headers as the buttons are tapped (CSS, no script)
        page.locator('label[for="id_dealer_2"]').click()
        expect(seat_card(page, 2).locator(".dealer-badge")).to_be_visible()
        expect(seat_card(page, 0).locator(".dealer-badge")).to_be_hidden()
        page.locator('label[for="id_winners_1"]').click()
        won = "rgb(253, 241, 216)"
        expect(seat_card(page, 1).locator(".seat-head")).to_have_css("background-color", won)
        expect(seat_card(page, 0).locator(".seat-head")).not_to_have_css("background-color", won)
        page.locator('label[for="id_result_2"]').click()  # 荒庄: nobody won
        expect(page.locator("#id_result_2")).to_have_value("draw")
        expect(seat_card(page, 1).locator(".seat-head")).not_to_have_css("background-color", won)
    finally:
        context.close()


def test_the_winners_chip_tap_opens_his_keyboard_and_says_it_is_the_winning_tile(live_server, browser, screenshot):
    evening = make_evening()
    record = example_record("E1")
    phone = open_phone(browser, live_server.url, evening.token, seat=0)  # 老王 won on 4条
    page = phone.page
    try:
        enter_seat(phone, record, 0)
        page.locator('.winner-switch label[data-seat-label="0"]').tap()
        keyboard = page.locator("[data-tile-keyboard]")
        expect(keyboard.locator("[data-kb-label]")).to_have_text("胡的哪张")  # a key, or his chip:
        seat_card(page, 0).locator('.seat-preview .tile-chips .tile[data-tile="4s"]').first.tap()
        # one tap: 胡的那张 is set, the hand says so in words, and the keyboard is open on it to fix a tile
        expect(page.locator("#id_win_tile")).to_have_value("4s")
        said = seat_card(page, 0).locator("[data-win-said]")
        expect(said).to_contain_text("胡的是")
        expect(said.locator(".tile")).to_have_attribute("data-tile", "4s")
        expect(keyboard).to_be_visible()
        expect(keyboard.locator("[data-kb-label]")).to_contain_text("老王")
        hand = page.locator("#id_seat0-concealed").input_value()
        screenshot(page, "winner-chip", full_page=False)
        # the keyboard open, the same chip again comes out of the hand, as any chip does
        seat_card(page, 0).locator('.seat-preview .tile-chips .tile[data-tile="4s"]').first.tap()
        expect(page.locator("#id_seat0-concealed")).not_to_have_value(hand)
    finally:
        phone.close()
