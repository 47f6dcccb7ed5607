"""Entering a round on a 390×844 phone: tap the tiles, pick from the selects, read the result."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from calculator.scoring import parse_tiles
from tests.conftest import PHONE
from tests.round_form_data import EXAMPLE_NAMES, expected, load_example

E1_NET = ["+15", "−2", "−7", "−6"]  # as the page writes net [15, −2, −7, −6]


def tap_tiles(page, box, notation: str) -> None:
    """Open the tile keyboard on `box`, tap each tile of `notation`, close it."""
    box.tap()
    keyboard = page.locator("[data-tile-keyboard]")
    expect(keyboard).to_be_visible()
    for tile in parse_tiles(notation):
        keyboard.locator(f'[data-key="{tile}"]').tap()
    keyboard.locator("[data-kb-done]").tap()
    expect(keyboard).to_be_hidden()


def seat_card(page, seat: int):
    return page.locator(f'[data-seat-card="{seat}"]')


def enter_record_by_tapping(page, record: dict) -> None:
    """Enter a round record through the UI the way a player would: taps and selects only."""
    if record.get("preset", "guiyang") != "guiyang":
        page.select_option("#id_preset", record["preset"])
    if str(record.get("stake", "1")) != "1":
        page.locator("#id_stake").fill(str(record["stake"]))
    outcome = record["outcome"]
    ending = {"draw": "荒庄"}.get(outcome["type"]) or ("自摸" if outcome.get("from") is None else "点炮")
    page.locator(".result-switch label", has_text=ending).tap()
    page.select_option("#id_dealer", str(record["dealer"]))
    for winner in outcome.get("winners", []):
        page.locator(f'.winner-switch label[data-seat-label="{winner["seat"]}"]').tap()
    if outcome["type"] == "win":
        page.select_option("#id_win_tile", outcome["winners"][0]["tile"])
        if outcome.get("from") is not None:
            page.select_option("#id_from_seat", str(outcome["from"]))
        if outcome.get("after_kong"):
            page.locator("label[for=id_after_kong]").tap()
        if outcome.get("hot_kong") or outcome.get("robbed"):
            page.locator("details.special-cases summary").tap()
            if outcome.get("hot_kong"):
                page.select_option("#id_hot_kong", outcome["hot_kong"])
            if outcome.get("robbed"):
                page.locator("label[for=id_robbed]").tap()
    for index, seat in enumerate(record["seats"]):
        card = seat_card(page, index)
        for row, meld in enumerate(seat.get("melds", [])):
            if row == 0:
                card.locator("details.melds summary").tap()
            kind = meld["kind"] if meld["type"] == "kong" else meld["type"]
            card.locator(f"#id_seat{index}-melds-{row}-kind").select_option(kind)
            card.locator(f"#id_seat{index}-melds-{row}-tile").select_option(meld["tile"])
            if meld.get("from") is not None:
                card.locator(f"#id_seat{index}-melds-{row}-from_seat").select_option(str(meld["from"]))
        tap_tiles(page, card.locator(".seat-preview [data-tile-box]"), seat["concealed"])
        if seat.get("discards"):
            tap_tiles(page, card.locator(".discards-field [data-tile-box]"), seat["discards"])
        if seat.get("declared"):
            card.locator(f"#id_seat{index}-declared").select_option(seat["declared"])
    if record.get("turned"):
        page.select_option("#id_turned", record["turned"])
    first = record.get("first_yaoji")
    if first:
        page.select_option("#id_first_yaoji_seat", str(first["seat"]))
        if first.get("claimed_by") is not None:
            page.select_option("#id_first_yaoji_claimed_by", str(first["claimed_by"]))


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


@pytest.mark.browser
def test_enter_e1_by_tapping_tiles_and_see_the_nets(live_server, page, screenshot):
    page.goto(live_server.url + reverse("calculator:round_new"))

    enter_record_by_tapping(page, load_example("E1"))

    # The live preview (htmx) already knows the hands and the nets before anything is submitted.
    expect(page.locator('[data-count-for="id_seat0-concealed"]')).to_have_text("14/14")
    expect(seat_card(page, 0).locator(".standing")).to_have_text("胡了")
    expect(seat_card(page, 1).locator(".standing")).to_have_text("有叫")
    expect(page.locator(".net-bar [data-net]")).to_have_text(E1_NET)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    screenshot(page, "entry", full_page=False)
    screenshot(page, "entry-full")

    page.locator(".submit-btn").tap()

    expect(page.locator(".result-hero .net-points")).to_have_text(E1_NET)
    expect(page.locator(".result-group .line-text").first).to_have_text("西 付 东 1 番：平胡 1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "result", full_page=False)
    screenshot(page, "result-full")


@pytest.mark.browser
def test_keyboard_count_follows_taps_and_chip_taps_remove(live_server, page, screenshot):
    page.goto(live_server.url + reverse("calculator:round_new"))
    box = seat_card(page, 0).locator(".seat-preview [data-tile-box]")
    box.tap()
    for tile in ("5p", "1m", "1s"):
        page.locator(f'[data-tile-keyboard] [data-key="{tile}"]').tap()

    expect(page.locator("[data-kb-count]")).to_have_text("3/13")
    expect(page.locator("#id_seat0-concealed")).to_have_value("1m5p1s")  # sorted notation
    screenshot(page, "keyboard", full_page=False)
    box.locator('.tile[data-tile="5p"]').tap()
    expect(page.locator("#id_seat0-concealed")).to_have_value("1m1s")
    expect(page.locator('[data-count-for="id_seat0-concealed"]')).to_have_text("2/13")


@pytest.mark.browser
def test_broken_round_shows_the_problem_next_to_the_seat_and_saves_nothing(live_server, page, screenshot):
    record = load_example("E1")
    record["seats"][1]["concealed"] = "123m456p678p22s5s"  # 南 is one tile short
    page.goto(live_server.url + reverse("calculator:round_new"))

    enter_record_by_tapping(page, record)
    south = seat_card(page, 1)
    expect(south.locator(".tile-count")).to_have_text("12/13")
    expect(south.locator(".problem")).to_contain_text("南 有 12 张牌，应该是 13 张")  # live, before submitting
    page.locator(".submit-btn").tap()

    expect(page).to_have_url(live_server.url + reverse("calculator:round_new"))
    expect(page.locator(".result-hero")).to_have_count(0)
    expect(south.locator(".problem")).to_contain_text("南 有 12 张牌，应该是 13 张")
    expect(seat_card(page, 0).locator(".problem")).to_have_count(0)
    south.scroll_into_view_if_needed()
    screenshot(page, "problem", full_page=False)


@pytest.mark.browser
def test_the_form_works_without_javascript(live_server, browser):
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("calculator:round_new") + "?players=3")
        record = load_example("E8")
        page.locator('.result-switch label', has_text="自摸").click()
        page.fill("#id_stake", record["stake"])
        page.select_option("#id_dealer", "2")
        page.locator('.winner-switch label[data-seat-label="2"]').click()
        page.select_option("#id_win_tile", "7s")
        page.check("#id_after_kong")
        for index, seat in enumerate(record["seats"]):
            page.fill(f"#id_seat{index}-concealed", seat["concealed"])
        page.locator("details.melds summary").nth(2).click()
        page.select_option("#id_seat2-melds-0-kind", "men")
        page.select_option("#id_seat2-melds-0-tile", "4s")
        page.select_option("#id_turned", "8m")
        page.locator(".submit-btn").click()

        expect(page.locator(".result-hero .net-points")).to_have_text(["−13", "−19", "+32"])
        expect(page.locator(".result-hero .net-money")).to_have_text(["−6.5 元", "−9.5 元", "+16 元"])
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("name", [n for n in EXAMPLE_NAMES if n != "E1"])
def test_every_worked_example_can_be_scored_on_the_phone(live_server, page, name):
    record = load_example(name)
    page.goto(live_server.url + reverse("calculator:round_new") + f"?players={len(record['seats'])}")

    enter_record_by_tapping(page, record)
    nets = [signed(n) for n in expected(name)["net"]]
    expect(page.locator(".net-bar [data-net]")).to_have_text(nets)
    page.locator(".submit-btn").tap()

    expect(page.locator(".result-hero .net-points")).to_have_text(nets)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
