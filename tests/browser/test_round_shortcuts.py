"""The round-ending phone's one-tap answers (issue 19, point 4): a winner chosen opens the keyboard
on 胡的哪张; 热炮, 抢杠 and the first 幺鸡's claim are buttons the server offers from the melds on
the table (entry/shortcuts.py), each setting the form's own fields, no fold and no menu."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculator.scoring import parse_tiles
from tests.browser.table import enter_seat, open_phone, shortcut
from tests.factories import example_record, make_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_hot_kong_and_the_first_yaoji_in_one_tap_each(live_server, browser, screenshot):
    record = example_record("E3")  # 北 点炮 right after his 闷豆 of 5筒; 东 碰 西's first 幺鸡
    phone = open_phone(browser, live_server.url, make_evening().token, seat=None)
    page, keyboard = phone.page, phone.page.locator("[data-tile-keyboard]")
    try:
        enter_seat(phone, record, 3)
        enter_seat(phone, record, 0)
        page.locator('.winner-switch label[data-seat-label="0"]').tap()
        expect(keyboard.locator("[data-kb-label]")).to_have_text("胡的哪张")  # no box to tap
        keyboard.locator('[data-key="7p"]').tap()
        keyboard.locator('[data-key="3m"]').tap()
        expect(keyboard).to_be_hidden()
        expect(page.locator('[data-shortcut^="hot_kong"]')).to_have_count(0)  # nobody said who discarded yet
        page.locator('input[name="from_seat"][value="3"] + label').tap()
        shortcut(page, "hot_kong-5p").tap()
        expect(page.locator("#id_hot_kong")).to_have_value("5p")
        expect(shortcut(page, "hot_kong-5p")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("details.special-cases")).not_to_have_attribute("open", "")  # the fold stays shut
        shortcut(page, "yaoji-2-0").tap()
        expect(page.locator('input[name="first_yaoji_seat"][value="2"]')).to_be_checked()
        expect(page.locator('input[name="first_yaoji_claimed_by"][value="0"]')).to_be_checked()
        expect(page.locator('[data-shortcut^="yaoji"]')).to_have_count(0)  # answered: the server stops asking
        screenshot(page, "hot-kong", full_page=False)
        shortcut(page, "hot_kong-").tap()  # 不是热炮 takes it back
        expect(page.locator("#id_hot_kong")).to_have_value("")
    finally:
        phone.close()


def test_robbed_kong_sets_the_robbed_seat_and_the_switch_in_one_tap(live_server, browser, screenshot):
    record = example_record("E7")  # 东 wins on the 6筒 西 was adding to his 碰
    phone = open_phone(browser, live_server.url, make_evening(preset="xingyi").token, seat=None)
    page, keyboard = phone.page, phone.page.locator("[data-tile-keyboard]")
    try:
        enter_seat(phone, record, 2)
        page.locator('.winner-switch label[data-seat-label="0"]').tap()
        keyboard.locator('[data-key="6p"]').tap()
        keyboard.locator('[data-key="4p"]').tap()
        shortcut(page, "robbed-2").tap()
        expect(page.locator('input[name="from_seat"][value="2"]')).to_be_checked()
        expect(page.locator("#id_robbed")).to_be_checked()
        expect(page.locator("#id_seat0-melds-0-from_seat")).to_have_value("")  # no other field touched
        expect(shortcut(page, "robbed-2")).to_have_attribute("aria-pressed", "true")
        screenshot(page, "robbed", full_page=False)
        shortcut(page, "robbed-2").tap()  # again: not a 抢杠 after all
        expect(page.locator("#id_robbed")).not_to_be_checked()
    finally:
        phone.close()


def test_two_winners_then_their_tile_without_closing_the_keyboard(live_server, browser):
    phone = open_phone(browser, live_server.url, make_evening().token, seat=None)
    page, keyboard = phone.page, phone.page.locator("[data-tile-keyboard]")
    try:
        page.locator('.winner-switch label[data-seat-label="1"]').tap()
        expect(keyboard.locator("[data-kb-label]")).to_have_text("胡的哪张")
        page.locator('.winner-switch label[data-seat-label="3"]').tap()  # 一炮多响: in sight above the keyboard
        expect(keyboard).to_be_visible()
        keyboard.locator('[data-key="5s"]').tap()
        expect(page.locator("#id_win_tile")).to_have_value("5s")
        expect(page.locator('.winner-switch input[value="1"]')).to_be_checked()
        expect(page.locator('.winner-switch input[value="3"]')).to_be_checked()
    finally:
        phone.close()


@pytest.mark.parametrize("language", ["zh", "en"])  # the English meld keys take two rows
def test_a_complete_own_hand_asks_who_won_in_the_keyboard_without_moving_a_key(live_server, browser, screenshot, language):
    record = example_record("E6")  # 西 (seat 2) has 13 tiles and did not win; 东 won
    phone = open_phone(browser, live_server.url, make_evening(preset="anshun").token, seat=2)
    page, keyboard = phone.page, phone.page.locator("[data-tile-keyboard]")
    asked = keyboard.locator("[data-kb-winner]")
    try:
        if language == "en":
            page.get_by_role("button", name="English").click()
            expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(keyboard).to_be_visible()  # the form opens on this phone's own hand
        tiles = [str(t) for t in parse_tiles(record["seats"][2]["concealed"])]
        for code in tiles[:-1]:
            keyboard.locator(f'[data-key="{code}"]').tap()
        expect(asked).to_be_hidden()
        last = keyboard.locator(f'[data-key="{tiles[-1]}"]')
        where = last.bounding_box()
        last.tap()
        expect(asked).to_be_visible()
        expect(keyboard.locator("[data-kb-melds]")).to_be_hidden()  # in the meld keys' place
        assert last.bounding_box() == where  # a 14th tile (the winner's own) is where it was
        screenshot(page, "who-won", full_page=False)
        asked.locator('[data-shortcut="winner-0"]').tap()
        expect(page.locator('.winner-switch input[value="0"]')).to_be_checked()
        expect(keyboard.locator("[data-kb-label]")).to_have_text("胡的哪张" if language == "zh" else "Winning tile")
        keyboard.locator('[data-key="6p"]').tap()  # and on to the winning tile
        expect(page.locator("#id_win_tile")).to_have_value("6p")
    finally:
        phone.close()


def test_saying_ones_own_seat_won_keeps_the_keyboard_on_the_hand(live_server, browser):
    phone = open_phone(browser, live_server.url, make_evening().token, seat=1)
    page, keyboard = phone.page, phone.page.locator("[data-tile-keyboard]")
    try:
        expect(keyboard).to_be_visible()
        for code in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5s"]:
            keyboard.locator(f'[data-key="{code}"]').tap()
        keyboard.locator('[data-kb-winner] [data-shortcut="winner-1"]').tap()
        expect(page.locator('.winner-switch input[value="1"]')).to_be_checked()
        expect(keyboard.locator("[data-kb-winner]")).to_be_hidden()
        expect(keyboard.locator("[data-kb-count]")).to_have_text("13/14")  # still his hand: the 14th tile
        keyboard.locator('[data-key="5s"]').tap()
        expect(page.locator("#id_seat1-concealed")).to_have_value("123456789m123p55s")
    finally:
        phone.close()


def test_a_mei_jiao_seat_enters_its_melds_with_the_meld_keys(live_server, browser, screenshot):
    """没叫 hides the hand, not the melds: its box opens the keyboard for 碰 / 豆 alone (issue 19)."""
    phone = open_phone(browser, live_server.url, make_evening().token, seat=None)
    page, keyboard = phone.page, phone.page.locator("[data-tile-keyboard]")
    card = page.locator('[data-seat-card="2"]')
    try:
        card.locator(".mei-jiao-switch label").tap()
        box = card.locator(".seat-preview [data-tile-box]")
        box.tap()
        expect(keyboard).to_be_visible()
        expect(keyboard.locator('[data-key="5p"]')).to_be_disabled()  # no hand tiles: a tile only after a meld key
        keyboard.locator('[data-kb-meld="pong"]').tap()
        expect(keyboard.locator('[data-key="5p"]')).to_be_enabled()
        keyboard.locator('[data-key="5p"]').tap()
        keyboard.locator('[data-kb-from-seat="0"]').tap()
        expect(page.locator("#id_seat2-melds-0-kind")).to_have_value("pong")
        expect(page.locator("#id_seat2-melds-0-tile")).to_have_value("5筒")
        expect(page.locator("#id_seat2-melds-0-from_seat")).to_have_value("0")
        expect(page.locator("#id_seat2-concealed")).to_have_value("")
        expect(keyboard.locator('[data-key="5p"]')).to_be_disabled()  # the meld made, the keys rest again
        screenshot(page, "mei-jiao-melds", full_page=False)
    finally:
        phone.close()
