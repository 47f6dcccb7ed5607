"""Pages the other browser tests do not reach, checked by axe-core (tests/browser/axe.py) in
Chinese and English, and the tile keyboard driven from a hardware keyboard alone.

Every ``screenshot()`` in the browser tests also runs axe over that state of the page.
"""
from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.factories import make_evening, record_rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def english(page: Page) -> None:
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_public_pages_pass_axe(live_server, page: Page, axe, language):
    page.goto(live_server.url + "/")
    if language == "en":
        english(page)
    for path in ("/", "/rules/", "/rules/?preset=anshun", "/rules/?preset=xingyi", "/evening/new/",
                 "/evening/import/", "/no-such-page/"):
        page.goto(live_server.url + path)
        axe(page, f"{path} ({language})")
        if path != "/no-such-page/":
            description = page.locator('meta[name="description"]')
            expect(description).to_have_count(1)
            assert len(description.get_attribute("content")) > 10


def test_an_evenings_own_pages_pass_axe(live_server, page: Page, axe):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3"])
    for name, args in (("evening_share", [evening.token]), ("evening_history", [evening.token]),
                       ("evening_rules", [evening.token]), ("evening_round_delete", [evening.token, 2]),
                       ("evening_follow_round", [evening.read_token, 1]),
                       ("evening_follow_rules", [evening.read_token])):
        page.goto(live_server.url + reverse(f"calculator:{name}", args=args))
        axe(page, name)


def test_a_hand_can_be_entered_from_a_keyboard_alone(live_server, page: Page, axe):
    page.goto(live_server.url + reverse("calculator:round_new"))
    box = page.locator('[data-tile-box][data-for="id_seat0-concealed"]')
    box.focus()
    page.keyboard.press("Enter")
    keyboard = page.locator("[data-tile-keyboard]")
    expect(keyboard).to_be_visible()
    expect(keyboard.locator('[data-key="1m"]')).to_be_focused()  # focus moved into the keyboard
    axe(page, "tile keyboard open")
    page.keyboard.press("Enter")                # 1万
    page.keyboard.press("Tab")
    page.keyboard.press("Space")                # 2万
    expect(keyboard.locator("[data-kb-count]")).to_have_text("2/13")
    box.focus()                                 # back on the box while its keyboard is open
    page.keyboard.press("Enter")
    expect(keyboard.locator('[data-key="1m"]')).to_be_focused()  # into the keyboard again
    page.keyboard.press("Escape")
    expect(keyboard).to_be_hidden()
    expect(box).to_be_focused()                 # and back to the box it came from
    expect(page.locator("#id_seat0-concealed")).to_have_value("12m")
    expect(box).to_have_accessible_name(re.compile(r"^东 的手牌\s*1\s*万\s*2\s*万$"))
