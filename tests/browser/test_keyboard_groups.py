"""顺 and 刻 on the tile keyboard, and the rows of seat buttons that replaced two-tap menus
(庄家, 谁点的炮, 第一张幺鸡, 报听): one tap each, the live preview following. 390×844."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from calculator.scoring import parse_tiles

from .table import choice, radio, tile_groups
from .test_keyboard_menus import KB, key, open_hand
from .test_round_entry import E1_NET, seat_card

HAND = "#id_seat0-concealed"


def enabled_keys(page) -> list[str]:
    return page.locator(f"{KB} [data-key]:not(:disabled)").evaluate_all("ks => ks.map(k => k.dataset.key)")


def group_key(page, kind: str):
    return page.locator(f'{KB} [data-kb-group="{kind}"]')


@pytest.mark.browser
def test_shun_types_a_run_and_ke_a_triple_two_taps_for_three_tiles(live_server, page, screenshot):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_hand(page, 0)

    group_key(page, "run").tap()
    expect(group_key(page, "run")).to_have_attribute("aria-pressed", "true")  # armed, and it shows
    expect(page.locator(f"{KB} [data-kb-hint]")).to_have_text("顺：再点一张牌，打进它和后面两张（如 3万 → 3万4万5万）")
    screenshot(page, "run-armed", full_page=False)
    key(page, "2m")
    expect(page.locator(HAND)).to_have_value("234m")
    expect(group_key(page, "run")).to_have_attribute("aria-pressed", "false")  # one-shot
    expect(page.locator(f"{KB} [data-kb-hint]")).to_be_hidden()
    key(page, "2m")  # a plain key again: one tile
    expect(page.locator(HAND)).to_have_value("2234m")

    group_key(page, "set").tap()
    key(page, "5p")
    expect(page.locator(HAND)).to_have_value("2234m555p")
    expect(page.locator('[data-count-for="id_seat0-concealed"]')).to_have_text("7/13")
    expect(seat_card(page, 0).locator(".seat-preview .tile-chips .tile")).to_have_count(7)

    page.locator(f"{KB} [data-kb-back]").tap()  # ⌫ takes out one tile, the last typed
    expect(page.locator(HAND)).to_have_value("2234m55p")


@pytest.mark.browser
def test_a_run_stops_at_the_end_of_its_suit_and_neither_makes_a_fifth_copy(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_hand(page, 0)

    group_key(page, "run").tap()
    assert enabled_keys(page) == [f"{r}{s}" for s in "mps" for r in range(1, 8)]  # no 8 or 9 starts a run
    group_key(page, "run").tap()  # tapped again: disarmed, every key back
    expect(group_key(page, "run")).to_have_attribute("aria-pressed", "false")
    assert len(enabled_keys(page)) == 27

    group_key(page, "set").tap()
    key(page, "4m")
    key(page, "4m")  # four 4m now: its key is off
    key(page, "6m")
    key(page, "6m")
    expect(page.locator(HAND)).to_have_value("444466m")
    group_key(page, "run").tap()
    off = {f"{r}m" for r in range(1, 10)} - set(enabled_keys(page))
    assert off == {"2m", "3m", "4m", "8m", "9m"}  # each of 234 345 456 would be a fifth 4m
    group_key(page, "set").tap()  # 刻 instead: the run is disarmed
    expect(group_key(page, "run")).to_have_attribute("aria-pressed", "false")
    off = {f"{r}m" for r in range(1, 10)} - set(enabled_keys(page))
    assert off == {"4m", "6m"}  # three more of a tile held twice would be five
    key(page, "7m")
    expect(page.locator(HAND)).to_have_value("444466777m")


@pytest.mark.browser
def test_neither_is_offered_when_the_hand_has_no_room_for_three(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    page.locator('.winner-switch label[data-seat-label="1"]').tap()  # 东 is not the winner: 13 tiles
    open_hand(page, 0)
    for code in parse_tiles("123456789m12p"):
        key(page, code)
    expect(page.locator('[data-count-for="id_seat0-concealed"]')).to_have_text("11/13")
    expect(group_key(page, "run")).to_be_disabled()
    expect(group_key(page, "set")).to_be_disabled()
    page.locator(f"{KB} [data-kb-back]").tap()
    expect(group_key(page, "set")).to_be_enabled()  # 10/13: three more fit


@pytest.mark.browser
def test_shun_and_ke_work_from_a_hardware_keyboard_or_a_screen_reader(live_server, page, axe):
    page.goto(live_server.url + reverse("calculator:round_new"))
    seat_card(page, 0).locator(".seat-preview [data-tile-box]").focus()
    page.keyboard.press("Enter")  # the box opens the keyboard and focus moves into it
    expect(page.locator(KB)).to_be_visible()
    run = page.get_by_role("button", name="顺 ：这张和后面两张")
    run.focus()
    page.keyboard.press("Enter")
    expect(run).to_have_attribute("aria-pressed", "true")
    axe(page, "顺 armed")
    page.locator(f'{KB} [data-key="3s"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator(HAND)).to_have_value("345s")
    page.get_by_role("button", name="刻 ：这张三张").focus()
    page.keyboard.press(" ")
    page.locator(f'{KB} [data-key="9p"]').focus()
    page.keyboard.press(" ")
    expect(page.locator(HAND)).to_have_value("999p345s")


def test_a_hand_splits_into_runs_and_triples_from_its_lowest_tile():
    assert tile_groups("1112345678999p") == [("set", "1p"), ("run", "2p"), ("run", "5p"), (None, "8p"), ("set", "9p")]
    assert tile_groups("234m567m345s11s") == [("run", "2m"), ("run", "5m"), (None, "1s"), (None, "1s"), ("run", "3s")]
    assert tile_groups("89m") == [(None, "8m"), (None, "9m")]


@pytest.mark.browser
def test_one_tap_on_a_seat_button_sets_the_field_and_the_preview_follows(live_server, page, screenshot):
    """E1 entered but for who discarded the winning tile: one tap on 西 under 谁点的炮 settles it."""
    page.goto(live_server.url + reverse("calculator:round_new"))
    seats = ["234m567m345s11s", "123m456p678p22s56s", "1m9m2p8p3p7p4s6s9s9s5p8s3m", "2m5m7m8m1p3p4p6p2s5s7s8s1s"]
    page.locator('.winner-switch label[data-seat-label="0"]').tap()
    for seat, hand in enumerate(seats):
        page.fill(f"#id_seat{seat}-concealed", hand)
    seat_card(page, 1).locator(".discards-field [data-tile-box]").tap()
    key(page, "6m")
    page.locator(f"{KB} [data-kb-done]").tap()
    seat_card(page, 0).locator("details.melds summary").tap()
    page.select_option("#id_seat0-melds-0-kind", "men")
    page.fill("#id_seat0-melds-0-tile", "9p")
    page.select_option("#id_win_tile", "4s")
    page.select_option("#id_turned", "5m")
    choice(page, "first_yaoji_seat", 3).tap()
    expect(page.locator(radio("first_yaoji_seat", 3))).to_be_checked()  # the button did what the menu did
    expect(page.locator("#id_seat3-discards")).to_have_value("")  # the server puts the 幺鸡 there (entry/record.py)
    expect(page.locator(".net-bar [data-net]")).not_to_have_text(E1_NET)

    choice(page, "from_seat", 2).tap()
    expect(page.locator(radio("from_seat", 2))).to_be_checked()
    expect(page.locator(".net-bar [data-net]")).to_have_text(E1_NET)

    choice(page, "dealer", 2).tap()  # the 庄 badge moves at once
    expect(seat_card(page, 2).locator(".dealer-badge")).to_be_visible()
    expect(seat_card(page, 0).locator(".dealer-badge")).to_be_hidden()
    choice(page, "dealer", 0).tap()
    choice(page, "seat0-declared", "soft").tap()  # the winner's 软报: 西, who fed him, pays 10 more
    expect(page.locator(".net-bar [data-net]")).to_have_text(["+25", "−2", "−17", "−6"])
    choice(page, "seat0-declared", "").tap()
    expect(page.locator(".net-bar [data-net]")).to_have_text(E1_NET)

    page.fill("#id_seat2-name", "阿梅")  # a new name shows on the seat buttons at once
    expect(choice(page, "from_seat", 2)).to_have_text("阿梅")
    expect(choice(page, "dealer", 2)).to_have_text("阿梅")
    page.locator(".outcome-card").scroll_into_view_if_needed()
    screenshot(page.locator(".outcome-card"), "outcome")
    screenshot(page.locator(".chicken-fields"), "chickens")
