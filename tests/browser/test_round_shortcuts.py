"""The round-ending phone's one-tap answers (issue 19, point 4): a winner chosen opens the keyboard
on 胡的哪张; 热炮, 抢杠 and the first 幺鸡's claim are buttons the server offers from the melds on
the table (entry/shortcuts.py), each setting the form's own fields, no fold and no menu."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

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
