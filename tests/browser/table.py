"""Phones at one table, for the browser tests and the benches (bench/entry.py, bench/tap_count.py):
open a phone, say who it is, tap a hand in, set the outcome. Every helper counts the taps it
makes (a button of a row such as 庄家 is one; a select is two: open it, pick), so the benchmark
can say how many taps the busiest phone needed. It also keeps a thumb's model time (issue 19:
0.8 s a tile key, 1.2 s any other tap, 2.5 s a menu, 0.8 s per 600 px scrolled) and counts the
scrolls: before each tap a control out of sight (under the sticky header, the keyboard or the
sticky bar, or off the screen) is scrolled to, as a thumb would; what the page scrolls by itself
(the keyboard bringing its box up) is free."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from playwright.sync_api import Browser, BrowserContext, Error, Page, expect

from calculator.scoring import parse_tiles
from tests.conftest import PHONE  # one phone for every browser test and the bench
from tests.timing import scaled



KEY_SECONDS, TAP_SECONDS, MENU_SECONDS, SCROLL_SECONDS_PER_600PX = 0.8, 1.2, 2.5, 0.8

# How far a control is from sight: 0 when its middle shows between the sticky header and whatever
# covers the bottom of the screen (the open keyboard, the sticky bar), else how far to scroll to
# bring it to the middle of that band.
_OUT_OF_SIGHT = """el => {
  if (el.closest("[data-tile-keyboard], .submit-bar, .app-nav")) return 0;
  const r = el.getBoundingClientRect();
  const nav = document.querySelector(".app-nav");
  let top = nav ? nav.getBoundingClientRect().bottom : 0, bottom = innerHeight;
  for (const cover of document.querySelectorAll("[data-tile-keyboard], .submit-bar")) {
    const b = cover.getBoundingClientRect();
    if (cover.hidden || getComputedStyle(cover).visibility === "hidden" || !b.height) continue;
    if (b.top < bottom && b.bottom >= innerHeight - 1) bottom = b.top;
  }
  const mid = (r.top + r.bottom) / 2;
  return mid >= top + 4 && mid <= bottom - 4 ? 0 : Math.round(mid - (top + bottom) / 2);
}"""


@dataclass
class Phone:
    context: BrowserContext
    page: Page
    taps: int = 0
    log: list[str] = field(default_factory=list)
    seconds: float = 0.0  # the model time of what this phone did (KEY_SECONDS …)
    scrolls: int = 0
    scrolled: int = 0  # px

    def reach(self, locator) -> None:
        """Scroll to a control out of sight, as a thumb would: counted, with its distance."""
        distance = locator.evaluate(_OUT_OF_SIGHT)
        if not distance:
            return
        before = self.page.evaluate("scrollY")
        self.page.evaluate("d => scrollBy({top: d, behavior: 'instant'})", distance)
        moved = abs(self.page.evaluate("scrollY") - before)
        if moved:
            self.scrolls += 1
            self.scrolled += moved
            self.seconds += SCROLL_SECONDS_PER_600PX * moved / 600
            self.log.append(f"scroll {moved}px")

    def tap(self, locator, seconds: float = TAP_SECONDS) -> None:
        self.reach(locator)
        locator.tap()
        self.taps += 1
        self.seconds += seconds
        self.log.append(f"tap {seconds:.1f}s {locator}")

    def key(self, locator) -> None:
        """A tile key of the keyboard."""
        self.tap(locator, KEY_SECONDS)

    def choose(self, name: str, value) -> None:
        """One button of a row of choices (庄家, 谁点的炮, 第一张幺鸡, 报听): a tap, unless it is on."""
        if not self.page.locator(radio(name, value)).is_checked():
            self.tap(choice(self.page, name, value))

    def select(self, locator, value: str) -> None:
        self.reach(locator)
        locator.select_option(value)
        self.log.append(f"menu {locator} {value}")
        self.taps += 2  # open the menu, pick
        self.seconds += MENU_SECONDS

    def type(self, locator, text: str) -> None:
        self.reach(locator)
        locator.fill(text)
        self.taps += 1 + len(text)  # into the field, then a key a character
        self.seconds += TAP_SECONDS + KEY_SECONDS * len(text)

    def close(self) -> None:
        """Leave the page first: its 2-second poll stops before the context goes (a request still
        being served while a test's database is flushed makes SQLite say "table is locked")."""
        try:
            self.page.goto("about:blank")
            self.page.wait_for_timeout(100)
        except Error:  # a page that asks before it is left (a correction) stays: close it anyway
            pass
        finally:
            self.context.close()


def open_phone(browser: Browser, base_url: str, token: str, seat: int | None) -> Phone:
    """A phone at the table: a context of its own; it says which player it is (我是…), then opens 记一局."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    phone = Phone(context, page)
    page.goto(f"{base_url}/e/{token}/")
    if seat is not None:
        page.select_option("#me-seat", str(seat))
        page.get_by_role("button", name="记住").click()
    page.locator("a.ev-record").click()
    # Its scripts have run (the click returns once the page starts loading): a loaded machine can
    # show the form while draft.js is still on its way, and a change made then never reached the draft.
    page.wait_for_load_state("load")
    expect(page.locator("form[data-round-form]")).to_be_visible()
    return phone


def radio(name: str, value) -> str:
    return f'input[type="radio"][name="{name}"][value="{value}"]'


def choice(page: Page, name: str, value):
    """The button (a radio's label) that chooses `value` for the field `name`."""
    return page.locator(f"{radio(name, value)} + label")


def tile_groups(notation: str) -> list[tuple[str | None, str]]:
    """A hand as a player would type it with 顺 and 刻: ("run", "2m") for 234m, ("set", "5p") for
    555p, (None, "9s") for a single tile. Greedy from the lowest tile: three of it are a 刻, else
    it and the next two of its suit a 顺, else it goes in alone (on E1–E8 this finds as many
    groups as the best split does)."""
    left = Counter(map(str, parse_tiles(notation)))
    groups: list[tuple[str | None, str]] = []
    while left:
        tile = min(left, key=lambda t: ("mps".index(t[1]), t[0]))
        run = [tile, f"{int(tile[0]) + 1}{tile[1]}", f"{int(tile[0]) + 2}{tile[1]}"]
        if left[tile] >= 3:
            kind, used = "set", [tile] * 3
        elif tile[0] <= "7" and all(left[t] for t in run[1:]):
            kind, used = "run", run
        else:
            kind, used = None, [tile]
        left -= Counter(used)
        groups.append((kind, tile))
    return groups


def seat_card(page: Page, seat: int):
    return page.locator(f'[data-seat-card="{seat}"]')


def chips(page: Page, seat: int):
    return seat_card(page, seat).locator(".seat-preview .tile-chips .tile")


def tap_hand(phone: Phone, seat: int, notation: str, *, box: str = ".seat-preview [data-tile-box]",
             ending: dict | None = None) -> None:
    """Tap a hand in on the tile keyboard (opening it unless it is open already), then 完成. Tiles
    the box already shows are not typed again, as a player would not (the first 幺鸡's discarder
    has it in his 打出的鸡 as soon as the menu names him)."""
    page = phone.page
    keyboard = page.locator("[data-tile-keyboard]")
    target = seat_card(page, seat).locator(box)
    shown = Counter(target.locator(".tile-chips .tile").evaluate_all("chips => chips.map(c => c.dataset.tile)"))
    to_type = []
    for tile in map(str, parse_tiles(notation)):
        if shown[tile]:
            shown[tile] -= 1
        else:
            to_type.append(tile)
    if not to_type:
        return
    if not (keyboard.is_visible() and "is-active" in (target.get_attribute("class") or "")):
        phone.tap(target)
    expect(keyboard).to_be_visible()
    for tile in to_type:
        phone.key(keyboard.locator(f'[data-key="{tile}"]'))
    if ending and keyboard.locator("[data-kb-winner]").is_visible():
        answer_winner(phone, ending)  # the round-ending phone answers the keyboard's 谁胡了 and goes on
        return
    if keyboard.is_visible():  # a full hand has already moved the keyboard on (issue 12), or closed it
        phone.tap(keyboard.locator("[data-kb-done]"))
    expect(keyboard).to_be_hidden()


def answer_winner(phone: Phone, record: dict) -> None:
    """谁胡了, asked by the keyboard when this phone's own hand is complete at 13 and nobody is said
    to have won: the (first) winner's name, then 胡的哪张 and 翻牌 as the keyboard goes on to them."""
    keyboard = phone.page.locator("[data-tile-keyboard]")
    winners = record["outcome"].get("winners") or []
    phone.tap(keyboard.locator(f'[data-kb-winner] [data-shortcut="winner-{winners[0]["seat"]}"]'))
    if keyboard.locator("[data-kb-label]").text_content() == phone.page.locator("#id_win_tile-label").text_content():
        pick_tile(phone, "win_tile", winners[0]["tile"])
        if record.get("turned"):
            pick_tile(phone, "turned", record["turned"])


def enter_seat(phone: Phone, record: dict, seat: int, *, ending: bool = False) -> None:
    """One seat's part of a round record: melds (the keyboard's meld keys: 碰 / 豆, the tile, whose
    discard), hand, chicken discards, 报听. `ending`: this phone also ends the round, and answers
    the keyboard's 谁胡了 when its hand is complete."""
    page = phone.page
    data = record["seats"][seat]
    card = seat_card(page, seat)
    keyboard = page.locator("[data-tile-keyboard]")
    for row, meld in enumerate(data.get("melds", [])):
        box = card.locator(".seat-preview [data-tile-box]")
        if row == 0 and not (keyboard.is_visible() and "is-active" in (box.get_attribute("class") or "")):
            phone.tap(box)
        kind = meld["kind"] if meld["type"] == "kong" else meld["type"]
        phone.tap(keyboard.locator(f'[data-kb-meld="{kind}"]'))
        phone.key(keyboard.locator(f'[data-key="{meld["tile"]}"]'))
        if meld.get("from") is not None:
            phone.tap(keyboard.locator(f'[data-kb-from-seat="{meld["from"]}"]'))
        expect(card.locator(f"#id_seat{seat}-melds-{row}-kind")).to_have_value(kind)
    if data.get("concealed"):
        tap_hand(phone, seat, data["concealed"], ending=record if ending and record["outcome"]["type"] == "win" else None)
    if data.get("discards"):
        tap_hand(phone, seat, data["discards"], box=".discards-field [data-tile-box]")
    if data.get("declared"):
        phone.choose(f"seat{seat}-declared", data["declared"])
    if data.get("xiang_gong"):
        phone.tap(card.locator(f"label[for=id_seat{seat}-xiang_gong]"))


def enter_outcome(phone: Phone, record: dict) -> None:
    """The round-level fields: dealer, how it ended, who won on what, 翻牌, the first 幺鸡."""
    enter_ending(phone, record)
    enter_chickens(phone, record)


def enter_ending(phone: Phone, record: dict) -> None:
    """Dealer, how the round ended, who won on which tile, from whom, and the special cases: 热炮
    and 抢杠 with the one-tap answers the page offers from the melds (entry/shortcuts.py)."""
    page = phone.page
    phone.choose("dealer", record["dealer"])
    outcome = record["outcome"]
    ending = {"draw": "荒庄"}.get(outcome["type"]) or ("自摸" if outcome.get("from") is None else "点炮")
    if ending != "点炮":  # 点炮 is where the form starts
        phone.tap(page.locator(".result-switch label", has_text=ending))
    for winner in outcome.get("winners", []):
        if not page.locator(f'.winner-switch input[value="{winner["seat"]}"]').is_checked():
            phone.tap(page.locator(f'.winner-switch label[data-seat-label="{winner["seat"]}"]'))
    if outcome["type"] == "win":
        pick_tile(phone, "win_tile", outcome["winners"][0]["tile"])  # a winner chosen opens the keyboard on it
        if record.get("turned"):  # the keyboard goes on to 翻牌 (issue 19)
            pick_tile(phone, "turned", record["turned"])
        if outcome.get("robbed"):  # 抢杠: one button names the robbed seat and sets 谁点的炮 with it
            phone.tap(shortcut(page, f"robbed-{outcome['from']}"))
        if outcome.get("from") is not None:
            phone.choose("from_seat", outcome["from"])
        if outcome.get("hot_kong"):  # the discarder's kongs, once his phone has entered them
            phone.tap(shortcut(page, f"hot_kong-{outcome['hot_kong']}"))
        if outcome.get("after_kong"):
            phone.tap(page.locator("label[for=id_after_kong]"))
        if any(w.get("passed_before") for w in outcome["winners"]):
            phone.tap(page.locator("details.special-cases summary"))
            phone.tap(page.locator("label[for=id_passed_before]"))


def shortcut(page: Page, name: str):
    """One of the server's one-tap answers (热炮 `hot_kong-5p`, 抢杠 `robbed-2`, `yaoji-2-0`), once the
    poll has brought the melds it is read from (another phone may enter them)."""
    button = page.locator(f'[data-shortcut="{name}"]')
    expect(button).to_be_visible(timeout=scaled(30_000))
    return button


def enter_chickens(phone: Phone, record: dict) -> None:
    """The chicken facts of the round: 翻牌 and who discarded the first 幺鸡 (and who took it: the
    page's one-tap answer from the 幺鸡 碰 that says so)."""
    page = phone.page
    if record.get("turned") and page.locator("#id_turned").input_value() != record["turned"]:
        pick_tile(phone, "turned", record["turned"])
    first = record.get("first_yaoji")
    if not first:
        return
    claimer = first.get("claimed_by")
    said = claimer is not None and any(meld["tile"] == "1s" and meld.get("from") == first["seat"]
                                       for meld in record["seats"][claimer].get("melds", []))
    if said:  # (its 碰 on the table, the page asks in one tap)
        phone.tap(shortcut(page, f"yaoji-{first['seat']}-{claimer}"))
        return
    phone.choose("first_yaoji_seat", first["seat"])
    if claimer is not None:
        phone.choose("first_yaoji_claimed_by", claimer)


def saved(phone: Phone) -> None:
    """Wait until the page holds nothing the server does not (draft.js counts what is unsaved)."""
    expect(phone.page.locator("[data-draft]")).to_have_attribute("data-draft-pending", "0", timeout=scaled(20_000))


def pick_tile(phone: Phone, name: str, code: str) -> None:
    """胡的那张 or 翻牌: its box opens the tile keyboard, one key chooses it (issue 19)."""
    page = phone.page
    if page.locator(f"#id_{name}").input_value() == code:
        return  # chosen already (the keyboard went on to it from 谁胡了)
    keyboard = page.locator("[data-tile-keyboard]")
    box = page.locator(f'[data-tile-pick="{name}"] [data-tile-box]')
    if not (keyboard.is_visible() and "is-active" in (box.get_attribute("class") or "")):
        phone.tap(box)
    phone.key(keyboard.locator(f'[data-key="{code}"]'))
    expect(page.locator(f"#id_{name}")).to_have_value(code)
