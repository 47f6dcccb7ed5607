"""The tile keyboard does the menus (issue 12): melds, whose discard, 憨包, the winning tile, the
next seat, the first 幺鸡 once, the 热炮 kong; and a tap below the open keyboard acts. 390×844."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from .table import choice
from .test_round_entry import seat_card

KB = "[data-tile-keyboard]"


def open_hand(page, seat: int):
    seat_card(page, seat).locator(".seat-preview [data-tile-box]").tap()
    expect(page.locator(KB)).to_be_visible()


def key(page, code: str):
    page.locator(f'{KB} [data-key="{code}"]').tap()


def meld(page, kind: str, tile: str):
    """A meld key (碰 / 闷豆 / 转弯豆 / 点豆), then its tile."""
    page.locator(f'{KB} [data-kb-meld="{kind}"]').tap()
    key(page, tile)


@pytest.mark.browser
def test_a_pong_is_three_taps_on_the_keyboard_and_fills_the_menus(live_server, page, screenshot):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_hand(page, 0)

    meld(page, "pong", "5p")
    expect(page.locator(f"{KB} [data-kb-from]")).to_be_visible()
    expect(page.locator(f"{KB} [data-kb-from-seat]:visible")).to_have_text(["南", "西", "北"])  # not his own
    expect(page.locator(f"{KB} [data-kb-late-wrap]")).to_be_hidden()  # 憨包 is a kong's
    screenshot(page, "whose-discard", full_page=False)
    page.locator(f'{KB} [data-kb-from-seat="2"]').tap()

    expect(page.locator("#id_seat0-melds-0-kind")).to_have_value("pong")
    expect(page.locator("#id_seat0-melds-0-tile")).to_have_value("5筒")
    expect(page.locator("#id_seat0-melds-0-from_seat")).to_have_value("2")
    expect(page.locator('[data-count-for="id_seat0-concealed"]')).to_have_text("3/13")
    expect(page.locator("#id_seat0-concealed")).to_have_value("")  # the meld's tiles are not in the hand
    rows = seat_card(page, 0).locator("[data-meld-row]")  # the filled row and one empty one show
    assert [rows.nth(i).is_visible() for i in range(4)] == [True, True, False, False]


@pytest.mark.browser
def test_backspace_right_after_a_meld_takes_the_meld_back_not_a_hand_tile(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_hand(page, 0)
    for code in ("2m", "3m", "4m"):
        key(page, code)
    meld(page, "pong", "6p")
    page.locator(f'{KB} [data-kb-from-seat="2"]').tap()

    page.locator(f"{KB} [data-kb-back]").tap()

    expect(page.locator("#id_seat0-melds-0-kind")).to_have_value("")
    expect(page.locator("#id_seat0-melds-0-tile")).to_have_value("")
    expect(page.locator("#id_seat0-melds-0-from_seat")).to_have_value("")
    expect(page.locator("#id_seat0-concealed")).to_have_value("234m")  # the hand is as it was
    page.locator(f"{KB} [data-kb-back]").tap()  # then tiles again, the last first
    expect(page.locator("#id_seat0-concealed")).to_have_value("23m")


@pytest.mark.browser
def test_a_late_concealed_kong_with_the_hanbao_toggle(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_hand(page, 1)

    meld(page, "men", "9m")
    expect(page.locator(f"{KB} [data-kb-from-label]")).to_be_hidden()  # a 闷豆 was nobody's discard
    expect(page.locator(f"{KB} [data-kb-from-seat]:visible")).to_have_count(0)
    page.locator(f"{KB} [data-kb-late-wrap]").tap()

    expect(page.locator("#id_seat1-melds-0-kind")).to_have_value("men")
    expect(page.locator("#id_seat1-melds-0-late")).to_be_checked()
    key(page, "1m")  # back to typing the hand
    expect(page.locator(f"{KB} [data-kb-from]")).to_be_hidden()
    expect(page.locator("#id_seat1-concealed")).to_have_value("1m")


@pytest.mark.browser
def test_an_added_kong_shows_whose_discard_was_tapped_while_it_waits_for_hanbao(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_hand(page, 0)

    meld(page, "zhuanwan", "6p")
    page.locator(f'{KB} [data-kb-from-seat="3"]').tap()

    expect(page.locator("#id_seat0-melds-0-from_seat")).to_have_value("3")
    expect(page.locator(f'{KB} [data-kb-from-seat="3"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator(f'{KB} [data-kb-from-seat="1"]')).to_have_attribute("aria-pressed", "false")
    expect(page.locator(f"{KB} [data-kb-late-wrap]")).to_be_visible()  # still open: 憨包 is a choice


@pytest.mark.browser
def test_a_full_hand_moves_the_keyboard_on_and_a_winners_chip_is_the_winning_tile(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    page.locator('.winner-switch label[data-seat-label="0"]').tap()
    seat_card(page, 2).locator(".mei-jiao-switch label").tap()  # 西 没叫: skipped
    open_hand(page, 0)
    for code in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4s", "4s"]:
        key(page, code)

    expect(page.locator(f"{KB} [data-kb-label]")).to_contain_text("南")
    seat_card(page, 0).locator('.seat-preview .tile[data-tile="3p"]').tap()
    expect(page.locator("#id_win_tile")).to_have_value("3p")
    expect(seat_card(page, 0).locator(".tile.is-win-tile")).to_have_attribute("data-tile", "3p")
    expect(page.locator("#id_seat0-concealed")).to_have_value("123456789m123p44s")  # nothing taken out

    open_hand(page, 1)
    for code in ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "5p", "5p", "6p", "7p"]:
        key(page, code)
    expect(page.locator(f"{KB} [data-kb-label]")).to_contain_text("北")  # past 西, who is 没叫


@pytest.mark.browser
def test_hot_kong_offers_the_discarders_kongs(live_server, page):
    # (An unclaimed first 幺鸡 goes into its discarder's 打出的鸡 on the server: tests/entry/test_forms.py.)
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_hand(page, 2)
    meld(page, "dian", "6p")
    page.locator(f'{KB} [data-kb-from-seat="1"]').tap()
    page.locator(f"{KB} [data-kb-done]").tap()
    choice(page, "from_seat", 2).tap()
    # 热炮: the server offers the discarder's own kongs as buttons (entry/shortcuts.py), no menu
    shortcuts = page.locator("[data-shortcut^=hot_kong]")
    expect(shortcuts).to_have_count(2)
    assert shortcuts.evaluate_all("els => els.map(e => e.dataset.shortcut)") == ["hot_kong-", "hot_kong-6p"]
    shortcuts.nth(1).tap()
    expect(page.locator("#id_hot_kong")).to_have_value("6p")


@pytest.mark.browser
def test_the_first_tap_below_the_open_keyboard_acts_and_the_page_stays(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_hand(page, 0)
    key(page, "1m")
    before = page.evaluate("window.scrollY")

    seat_card(page, 0).locator('label[for="id_seat0-xiang_gong"]').tap()

    expect(page.locator("#id_seat0-xiang_gong")).to_be_checked()
    expect(page.locator(KB)).to_be_hidden()
    assert page.evaluate("window.scrollY") == before
