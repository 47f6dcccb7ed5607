"""Entering a round on a 390×844 phone: tap the tiles, pick from the selects and the rows of
buttons, read the result."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from calculator.scoring import parse_tiles
from tests.browser.table import choice
from tests.conftest import PHONE
from tests.round_form_data import EXAMPLE_NAMES, expected, load_example
from tests.timing import scaled

E1_NET = ["+15", "−2", "−7", "−6"]  # as the page writes net [15, −2, −7, −6]


def tap_tiles(page, box, notation: str) -> None:
    """Open the tile keyboard on `box`, tap each tile of `notation`, close it.

    The choices tapped before (winner, 热炮's kong…) send a live preview whose answer swaps the
    seat's card in; a tap that lands on the card being replaced opens nothing, and a player would
    tap again: so does this, at most three times."""
    keyboard = page.locator("[data-tile-keyboard]")
    for _attempt in range(3):
        box.tap()
        try:
            expect(keyboard).to_be_visible(timeout=scaled(2_000))
            break
        except AssertionError:
            continue
    expect(keyboard).to_be_visible()
    for tile in parse_tiles(notation):
        keyboard.locator(f'[data-key="{tile}"]').tap()
    if keyboard.is_visible():  # a full hand has already moved the keyboard on, or closed it
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
    choice(page, "dealer", record["dealer"]).tap()
    for winner in outcome.get("winners", []):
        page.locator(f'.winner-switch label[data-seat-label="{winner["seat"]}"]').tap()
    if outcome["type"] == "win":
        page.select_option("#id_win_tile", outcome["winners"][0]["tile"])
        if outcome.get("from") is not None:
            choice(page, "from_seat", outcome["from"]).tap()
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
            card.locator(f"#id_seat{index}-melds-{row}-tile").fill(meld["tile"])
            if meld.get("from") is not None:
                card.locator(f"#id_seat{index}-melds-{row}-from_seat").select_option(str(meld["from"]))
        if seat["concealed"]:  # none for a seat recorded 没叫（没亮牌）
            tap_tiles(page, card.locator(".seat-preview [data-tile-box]"), seat["concealed"])
        if seat.get("discards"):
            tap_tiles(page, card.locator(".discards-field [data-tile-box]"), seat["discards"])
        if seat.get("declared"):
            choice(page, f"seat{index}-declared", seat["declared"]).tap()
    if record.get("turned"):
        page.select_option("#id_turned", record["turned"])
    first = record.get("first_yaoji")
    if first:
        choice(page, "first_yaoji_seat", first["seat"]).tap()
        if first.get("claimed_by") is not None:
            choice(page, "first_yaoji_claimed_by", first["claimed_by"]).tap()


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

    page.get_by_role("button", name="改一改这局").tap()  # back to the form: its bar has the nets at once

    expect(page.locator("#id_seat0-concealed")).to_have_value("234567m11345s")
    expect(page.locator(".net-bar [data-net]")).to_have_text(E1_NET)
    screenshot(page, "edit", full_page=False)


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
    # Live, before submitting: a short hand may still be being tapped in, so its count, not red ink.
    expect(south.locator(".standing")).to_have_text("还差 1 张")
    expect(south.locator(".problem")).to_have_count(0)
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
        choice(page, "dealer", 2).click()
        page.locator('.winner-switch label[data-seat-label="2"]').click()
        page.select_option("#id_win_tile", "7s")
        page.check("#id_after_kong")
        for index, seat in enumerate(record["seats"]):
            page.fill(f"#id_seat{index}-concealed", seat["concealed"])
        page.locator("details.melds summary").nth(2).click()
        page.select_option("#id_seat2-melds-0-kind", "men")
        page.fill("#id_seat2-melds-0-tile", "4条")  # typed as the tile reads
        page.select_option("#id_turned", "8m")
        page.locator(".submit-btn").click()

        expect(page.locator(".result-hero .net-points")).to_have_text(["−13", "−19", "+32"])
        expect(page.locator(".result-hero .net-money")).to_have_text(["−6.5 元", "−9.5 元", "+16 元"])
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("name", ["E3", "E6"])
def test_the_rows_of_seat_buttons_post_without_javascript(live_server, browser, name):
    """庄家, 谁点的炮, 第一张幺鸡 (and who took it) and 报听 are radios: without JavaScript a tap on
    a button still chooses, and the round posts and settles (E3: a 点炮 seat and a claimed first
    幺鸡; E6: two 报听 and an unclaimed first 幺鸡)."""
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        record = load_example(name)
        page.goto(live_server.url + reverse("calculator:round_new"))
        if record["preset"] != "guiyang":
            page.select_option("#id_preset", record["preset"])
        outcome = record["outcome"]
        page.locator(".result-switch label", has_text="点炮" if outcome.get("from") is not None else "自摸").click()
        choice(page, "dealer", record["dealer"]).click()
        page.locator(f'.winner-switch label[data-seat-label="{outcome["winners"][0]["seat"]}"]').click()
        page.select_option("#id_win_tile", outcome["winners"][0]["tile"])
        if outcome.get("from") is not None:
            choice(page, "from_seat", outcome["from"]).click()
        if outcome.get("hot_kong"):
            page.locator("details.special-cases summary").click()
            page.select_option("#id_hot_kong", outcome["hot_kong"])
        for index, seat in enumerate(record["seats"]):
            page.fill(f"#id_seat{index}-concealed", seat["concealed"])
            page.fill(f"#id_seat{index}-discards", seat.get("discards") or "")
            for row, meld in enumerate(seat.get("melds", [])):
                if row == 0:
                    seat_card(page, index).locator("details.melds summary").click()
                page.select_option(f"#id_seat{index}-melds-{row}-kind", meld.get("kind") or meld["type"])
                page.fill(f"#id_seat{index}-melds-{row}-tile", meld["tile"])
                if meld.get("from") is not None:
                    page.select_option(f"#id_seat{index}-melds-{row}-from_seat", str(meld["from"]))
            if seat.get("declared"):
                choice(page, f"seat{index}-declared", seat["declared"]).click()
        page.select_option("#id_turned", record["turned"])
        choice(page, "first_yaoji_seat", record["first_yaoji"]["seat"]).click()
        if record["first_yaoji"]["claimed_by"] is not None:
            choice(page, "first_yaoji_claimed_by", record["first_yaoji"]["claimed_by"]).click()
        page.locator(".submit-btn").click()

        expect(page.locator(".result-hero .net-points")).to_have_text([signed(n) for n in expected(name)["net"]])
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("name", [n for n in EXAMPLE_NAMES if n != "E1"])
def test_every_worked_example_can_be_scored_on_the_phone(live_server, page, axe, name):
    record = load_example(name)
    page.goto(live_server.url + reverse("calculator:round_new") + f"?players={len(record['seats'])}")

    enter_record_by_tapping(page, record)
    nets = [signed(n) for n in expected(name)["net"]]
    expect(page.locator(".net-bar [data-net]")).to_have_text(nets)
    axe(page, f"{name} typed in")
    page.locator(".submit-btn").tap()

    expect(page.locator(".result-hero .net-points")).to_have_text(nets)
    axe(page, f"{name} result")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.browser
def test_a_robbed_kong_entered_as_the_added_kong_shows_no_problem_and_the_preview_says_what_burned(
        live_server, page, axe, screenshot):
    """E7 (兴义, 东 robs 西's 6筒) with 西's meld entered as the 转弯豆 it was becoming: the form has
    nothing to fix, and before saving its preview says 西's 闷豆 pays nothing (烧光 by 抢杠)."""
    record = load_example("E7")
    record["seats"][2]["melds"][0] = {"type": "kong", "kind": "zhuanwan", "tile": "6p", "from": 3}
    nets = [signed(n) for n in expected("E7")["net"]]
    page.goto(live_server.url + reverse("calculator:round_new"))

    enter_record_by_tapping(page, record)

    expect(page.locator(".net-bar [data-net]")).to_have_text(nets)
    expect(page.locator(".problem")).to_have_count(0)
    void = page.locator("#entry-void li")
    expect(void).to_have_text(["西 的闷豆 7筒不算：被抢杠，烧光"])
    void.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "robbed-added-kong-preview", full_page=False)
    page.locator(".submit-btn").tap()

    expect(page.locator(".result-hero .net-points")).to_have_text(nets)
    expect(page.locator(".line-text", has_text="抢杠按清一色")).to_have_count(1)
    axe(page, "E7 robbed as an added kong, result")


def type_names(page, names: list[str]) -> None:
    for seat, name in enumerate(names):
        page.fill(f"#id_seat{seat}-name", name)


@pytest.mark.browser
def test_switching_to_three_players_keeps_the_names_and_hands_typed_in(live_server, page, screenshot):
    page.goto(live_server.url + reverse("calculator:round_new"))
    type_names(page, ["老王", "小李", "阿珍", "张哥"])
    tap_tiles(page, seat_card(page, 0).locator(".seat-preview [data-tile-box]"), "234m567m")
    tap_tiles(page, seat_card(page, 1).locator(".seat-preview [data-tile-box]"), "123m456p")
    tap_tiles(page, seat_card(page, 3).locator(".seat-preview [data-tile-box]"), "99p")
    # Still typing: the half-entered hand shows its count, not a red problem.
    south = seat_card(page, 1)
    expect(south.locator(".standing")).to_have_text("还差 7 张")
    expect(south.locator(".tile-count")).to_have_text("6/13")
    expect(page.locator("[data-seat-card] .problem")).to_have_count(0)
    switch = page.locator(".players-switch button")
    assert all(switch.nth(i).bounding_box()["height"] >= 44 for i in range(2))  # thumb-sized

    switch.filter(has_text="三人").tap()

    expect(page.locator("[data-seat-card]")).to_have_count(3)
    expect(switch.filter(has_text="三人")).to_have_attribute("aria-pressed", "true")
    for seat, (name, hand) in enumerate([("老王", "234567m"), ("小李", "123m456p"), ("阿珍", "")]):
        expect(page.locator(f"#id_seat{seat}-name")).to_have_value(name)
        expect(page.locator(f"#id_seat{seat}-concealed")).to_have_value(hand)
    expect(seat_card(page, 1).locator(".seat-preview .tile")).to_have_count(6)
    expect(seat_card(page, 1).locator(".tile-count")).to_have_text("6/13")
    expect(page.locator("[data-seat-card] .problem")).to_have_count(0)
    expect(page.locator(".winner-switch label")).to_have_text(["老王", "小李", "阿珍"])
    screenshot(page, "three", full_page=False)

    switch.filter(has_text="四人").tap()  # and back: the fourth seat comes back empty

    expect(page.locator("[data-seat-card]")).to_have_count(4)
    expect(page.locator("#id_seat1-concealed")).to_have_value("123m456p")
    expect(page.locator("#id_seat3-concealed")).to_have_value("")
    expect(page.locator("#id_seat3-name")).to_have_value("")


@pytest.mark.browser
def test_switching_players_without_javascript_keeps_what_was_typed(live_server, browser):
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("calculator:round_new"))
        page.locator(".result-switch label", has_text="荒庄").click()
        type_names(page, ["老王", "小李", "阿珍", "张哥"])
        for seat, hand in enumerate(["234m567m345s11s", "123m456p", "1m9m2p8p", "99p"]):
            page.fill(f"#id_seat{seat}-concealed", hand)
        page.fill("#id_stake", "2")

        page.locator(".players-switch button", has_text="三人").click()

        expect(page.locator("[data-seat-card]")).to_have_count(3)
        kept = [("老王", "234m567m345s11s"), ("小李", "123m456p"), ("阿珍", "1m9m2p8p")]
        for seat, (name, hand) in enumerate(kept):
            expect(page.locator(f"#id_seat{seat}-name")).to_have_value(name)
            expect(page.locator(f"#id_seat{seat}-concealed")).to_have_value(hand)
        expect(page.locator("#id_stake")).to_have_value("2")
        expect(page.locator("input[name=players]")).to_have_value("3")
        expect(seat_card(page, 1).locator(".tile-count")).to_have_text("6/13")
        expect(seat_card(page, 1).locator(".problem")).to_have_count(0)

        with page.expect_response(lambda r: r.request.method == "POST") as posted:
            page.locator("#id_seat1-name").press("Enter")  # Enter submits the round, not the 四人 button

        assert posted.value.status == 400  # the submit, which reports the short hand
        expect(seat_card(page, 1).locator(".problem")).to_contain_text("小李 有 6 张牌，应该是 13 张")
        expect(page.locator("[data-seat-card]")).to_have_count(3)
    finally:
        context.close()


@pytest.mark.browser
def test_a_long_name_keeps_the_winner_buttons_one_row_of_at_most_two_lines(live_server, page, screenshot):
    page.goto(live_server.url + reverse("calculator:round_new"))
    page.fill("#id_seat1-name", "阿强哥哥的表弟大明白")

    labels = page.locator(".winner-switch label")
    expect(labels.nth(1)).to_have_text("阿强哥哥的表弟大明白")  # renamed as it is typed
    screenshot(page.locator(".outcome-card"), "outcome")
    boxes = labels.evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())")  # at one moment
    assert max(b["height"] for b in boxes) <= 56  # two lines at most
    assert len({round(b["y"]) for b in boxes}) == 1  # one row


@pytest.mark.browser
def test_the_english_form_fits_a_phone(live_server, page, screenshot):
    """English words are longer than the hanzi: the selects and the rows of buttons still show
    their words whole, labels break between words, and the Chinese form keeps its one-row 报听 ·
    相公 line."""
    page.goto(live_server.url + reverse("calculator:round_new"))
    card = seat_card(page, 0)
    zh_buttons, zh_switch = card.locator(".declared-switch, .seat-extras .form-switch").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())")
    assert abs(zh_buttons["y"] - zh_switch["y"]) < 12  # side by side, as before
    zh_tops = card.locator(".declared-switch label").evaluate_all("els => els.map(e => e.getBoundingClientRect().top)")
    assert len(set(map(round, zh_tops))) == 1  # 没报 硬报 软报 in one row

    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    choice(page, "seat0-declared", "hard").click()
    expect(card.locator('input[name="seat0-declared"][value="hard"]')).to_be_checked()

    # Whether every word fits the label's width: with breaking inside words turned off, a word
    # that does not fit sticks out.
    fits = """e => { e.style.overflowWrap = "normal"; const ok = e.scrollWidth <= e.clientWidth + 1;
                     e.style.overflowWrap = ""; return ok; }"""
    for label in card.locator(".seat-extras .field-label, .discards-line .field-label").all():
        assert label.evaluate(fits), label.inner_text()  # no word broken inside ("Discarde / d")
    # "Hard declaration 硬报", "Nobody", each seat: every button shows its words whole
    for button in page.locator(".choice-switch label").all():
        assert button.evaluate(fits), button.inner_text()
    assert page.locator("#id_preset").bounding_box()["width"] >= 125  # "Guiyang" whole
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    card.locator(".seat-extras").evaluate("e => e.scrollIntoView({block: 'center', behavior: 'instant'})")
    screenshot(page, "seat-card-en", full_page=False)
    screenshot(page.locator(".settings-card"), "settings-en")
    screenshot(page.locator(".chicken-fields"), "chickens-en")


@pytest.mark.browser
def test_a_chip_drawn_on_the_phone_is_the_chip_the_server_draws(live_server, page):
    """tiles.js makes a tile's chip from the page's chip of its look (one per suit and 幺鸡): for
    every one of the 27 kinds it must be exactly the chip `_entry_tile_chip.html` renders."""
    from django.utils import translation

    from calculator.presentation import ALL_TILE_CHIPS
    from calculator.templatetags.tiles import chip_html

    page.goto(live_server.url + reverse("calculator:round_new"))
    page.fill("#id_seat0-concealed", "123456789m123456789p123456789s")
    drawn = seat_card(page, 0).locator(".seat-preview [data-tile-box] .tile-chips .tile")
    expect(drawn).to_have_count(27)
    with translation.override("zh-hans"):
        rendered = [chip_html(chip, "zh-hans") for chip in ALL_TILE_CHIPS]
    as_parsed = page.evaluate("""(chips) => chips.map((html) => {
        const holder = document.createElement("template");
        holder.innerHTML = html;
        return holder.content.firstElementChild.outerHTML;
    })""", rendered)
    assert drawn.evaluate_all("(chips) => chips.map((chip) => chip.outerHTML)") == as_parsed
