"""How many taps one recorder needs for each worked example (E1–E8), through the real /round/ page.

    .venv/bin/python -m bench.tap_count [--quick] [--json FILE] [--flow today|keyboard]

Two ways of entering, each counted tap by tap (a tap on a button, tile, chip or switch is 1; a
menu is 2: open it, pick; typing the stake is 1 tap per character):
- `today`: as the page asked before issue 12: every seat's 13–14 tiles on the keyboard (open the
  box, the tiles, 完成), every meld through its three menus, the winning tile and the rest through
  the menus, each seat's chicken discards on the keyboard.
- `keyboard`: as the page asks now: who won first; a seat that is not ready (where the rules allow
  it) is one 没叫 tap and nothing else; melds on the keyboard (kind, tile, whose discard, 憨包);
  a hand typed with 顺 and 刻 where it holds runs and triples (`tests.browser.table.tile_groups`:
  a greedy split from the lowest tile, a triple first, then a run, else the single tile; 顺 or
  刻 and the tile are 2 taps for 3 tiles); the keyboard moves on by itself when a hand is full;
  the winning tile is a tap on the winner's chip; 庄家, 谁点的炮, 第一张幺鸡 and 报听 are one tap on
  a row of buttons; the first 幺鸡's discarder needs no 打出的鸡 entry of his own for it.
Every entry must reach the example's expected nets in the live bar and on the result page, or the
run fails. Run `today` against the tree before issue 12 for the "before" figure (see
docs/BENCHMARKS.md); the script itself only needs the page's ids.
"""
from __future__ import annotations

import sys
import time

from .common import machine, main
from .site import HOST, gunicorn, prepared_site

FLOW = "keyboard"


class Recorder:
    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap(self, selector_or_locator) -> None:
        target = self.page.locator(selector_or_locator) if isinstance(selector_or_locator, str) else selector_or_locator
        target.tap()
        self.taps += 1

    def menu(self, selector: str, value: str) -> None:
        if self.page.locator(selector).input_value() == value:
            return
        self.page.select_option(selector, value)
        self.taps += 2

    def choose(self, name: str, value) -> None:
        """A button of a row of choices (a radio's label): one tap, none when it is on already."""
        from tests.browser.table import choice, radio

        if not self.page.locator(radio(name, value)).is_checked():
            self.tap(choice(self.page, name, value))

    def type(self, selector: str, text: str) -> None:
        self.page.fill(selector, text)
        self.taps += len(text)


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def _keyboard_open(page) -> bool:
    return page.locator("[data-tile-keyboard]").is_visible()


def _active_for(page, input_id: str) -> bool:
    return _keyboard_open(page) and "is-active" in (
        page.locator(f'[data-tile-box][data-for="{input_id}"]').get_attribute("class") or "")


def _tiles(rec: Recorder, input_id: str, notation: str, *, close: bool = True, groups: bool = False) -> None:
    """Type `notation` into a box on the keyboard; `groups`: with 顺 and 刻 where they fit."""
    from calculator.scoring import parse_tiles
    from tests.browser.table import tile_groups

    page = rec.page
    if not _active_for(page, input_id):
        rec.tap(f'[data-tile-box][data-for="{input_id}"]')
    for kind, tile in tile_groups(notation) if groups else [(None, str(t)) for t in parse_tiles(notation)]:
        if kind:
            rec.tap(f'[data-tile-keyboard] [data-kb-group="{kind}"]')
        rec.tap(f'[data-tile-keyboard] [data-key="{tile}"]')
    if close and _active_for(page, input_id):
        rec.tap("[data-tile-keyboard] [data-kb-done]")


def _settings(rec: Recorder, record: dict, *, buttons: bool) -> None:
    if record.get("preset", "guiyang") != "guiyang":
        rec.menu("#id_preset", record["preset"])
    if (record.get("options") or {}).get("jian_dou_san"):
        rec.tap("label[for=id_jian_dou_san]")
    if str(record.get("stake", "1")) != "1":
        rec.type("#id_stake", str(record["stake"]))
    if buttons:
        rec.choose("dealer", record["dealer"])
    else:
        rec.menu("#id_dealer", str(record["dealer"]))


def _ending(rec: Recorder, record: dict) -> None:
    outcome = record["outcome"]
    ending = {"draw": "荒庄"}.get(outcome["type"]) or ("自摸" if outcome.get("from") is None else "点炮")
    if ending != "点炮":  # 点炮 is the form's default
        rec.tap(rec.page.locator(".result-switch label", has_text=ending))
    for winner in outcome.get("winners", []):
        rec.tap(f'.winner-switch label[data-seat-label="{winner["seat"]}"]')


def _outcome_rest(rec: Recorder, record: dict, *, win_tile_by_chip: bool) -> None:
    outcome = record["outcome"]
    if outcome["type"] != "win":
        return
    tile = outcome["winners"][0]["tile"]
    if win_tile_by_chip:
        winner = outcome["winners"][0]["seat"]
        rec.tap(rec.page.locator(f'[data-seat-card="{winner}"] .seat-preview .tile[data-tile="{tile}"]').first)
    else:
        rec.menu("#id_win_tile", tile)
    if outcome.get("from") is not None:
        if win_tile_by_chip:  # the page of issue 12: a row of seat buttons
            rec.choose("from_seat", outcome["from"])
        else:
            rec.menu("#id_from_seat", str(outcome["from"]))
    if outcome.get("after_kong"):
        rec.tap("label[for=id_after_kong]")
    if outcome.get("hot_kong") or outcome.get("robbed") or any(w.get("passed_before") for w in outcome["winners"]):
        rec.tap("details.special-cases summary")
        if outcome.get("hot_kong"):
            rec.menu("#id_hot_kong", outcome["hot_kong"])
        if outcome.get("robbed"):
            rec.tap("label[for=id_robbed]")
        if any(w.get("passed_before") for w in outcome["winners"]):
            rec.tap("label[for=id_passed_before]")


def _chickens(rec: Recorder, record: dict, *, buttons: bool) -> None:
    if record.get("turned"):
        rec.menu("#id_turned", record["turned"])
    first = record.get("first_yaoji")
    if first:
        if buttons:
            rec.choose("first_yaoji_seat", first["seat"])
        else:
            rec.menu("#id_first_yaoji_seat", str(first["seat"]))
        if first.get("claimed_by") is not None:
            if buttons:
                rec.choose("first_yaoji_claimed_by", first["claimed_by"])
            else:
                rec.menu("#id_first_yaoji_claimed_by", str(first["claimed_by"]))


def _melds_by_menu(rec: Recorder, index: int, seat: dict) -> None:
    for row, meld in enumerate(seat.get("melds", [])):
        if row == 0:
            rec.tap(f'[data-seat-card="{index}"] details.melds summary')
        kind = meld["kind"] if meld["type"] == "kong" else meld["type"]
        rec.menu(f"#id_seat{index}-melds-{row}-kind", kind)
        rec.menu(f"#id_seat{index}-melds-{row}-tile", meld["tile"])
        if meld.get("from") is not None:
            rec.menu(f"#id_seat{index}-melds-{row}-from_seat", str(meld["from"]))
        if meld.get("late"):
            rec.tap(f'[data-seat-card="{index}"] label:has(#id_seat{index}-melds-{row}-late)')


def enter_today(rec: Recorder, record: dict) -> None:
    _settings(rec, record, buttons=False)
    _ending(rec, record)
    _outcome_rest(rec, record, win_tile_by_chip=False)
    for index, seat in enumerate(record["seats"]):
        _melds_by_menu(rec, index, seat)
        _tiles(rec, f"id_seat{index}-concealed", seat["concealed"])
        if seat.get("discards"):
            _tiles(rec, f"id_seat{index}-discards", seat["discards"])
        if seat.get("declared"):
            rec.menu(f"#id_seat{index}-declared", seat["declared"])
        if seat.get("xiang_gong"):
            rec.tap(f'label[for="id_seat{index}-xiang_gong"]')
    _chickens(rec, record, buttons=False)


def enter_keyboard(rec: Recorder, record: dict, hidden: set[int]) -> None:
    page = rec.page
    _settings(rec, record, buttons=True)
    _ending(rec, record)
    first = record.get("first_yaoji") or {}
    for index, seat in enumerate(record["seats"]):
        hand = f"id_seat{index}-concealed"
        if index in hidden and not seat.get("melds"):
            rec.tap(f'[data-seat-card="{index}"] .mei-jiao-switch label')
            continue
        if not _active_for(page, hand):
            if _keyboard_open(page):
                rec.tap("[data-tile-keyboard] [data-kb-done]")  # on another box: close it first
            rec.tap(f'[data-tile-box][data-for="{hand}"]')
        for meld in seat.get("melds", []):
            kind = meld["kind"] if meld["type"] == "kong" else meld["type"]
            rec.tap(f'[data-tile-keyboard] [data-kb-meld="{kind}"]')
            rec.tap(f'[data-tile-keyboard] [data-key="{meld["tile"]}"]')
            if meld.get("late"):
                rec.tap("[data-tile-keyboard] [data-kb-late-wrap]")
            if meld.get("from") is not None:
                rec.tap(f'[data-tile-keyboard] [data-kb-from-seat="{meld["from"]}"]')
        if index in hidden:  # its melds still count (a robbed pong, a 点豆 it fed); its hand does not
            rec.tap(f'[data-seat-card="{index}"] .mei-jiao-switch label')
            continue
        _tiles(rec, hand, seat["concealed"], close=False, groups=True)
    if _keyboard_open(page):
        rec.tap("[data-tile-keyboard] [data-kb-done]")
    for index, seat in enumerate(record["seats"]):
        discards = seat.get("discards") or ""
        if index in hidden:
            continue  # a seat that is not ready collects no chicken: its discards pay nobody
        if first.get("seat") == index and first.get("claimed_by") is None:
            discards = discards.replace("1s", "", 1)  # the first 幺鸡 menu puts it there
        if discards.strip():
            _tiles(rec, f"id_seat{index}-discards", discards)
        if seat.get("declared"):
            rec.choose(f"seat{index}-declared", seat["declared"])
        if seat.get("xiang_gong"):
            rec.tap(f'label[for="id_seat{index}-xiang_gong"]')
    _outcome_rest(rec, record, win_tile_by_chip=True)
    _chickens(rec, record, buttons=True)


def _hidden_seats(record: dict) -> set[int]:
    """Seats a recorder may call 没叫 in one tap: not ready, not declared, where the rules allow."""
    from calculator.scoring import settle_record

    settlement = settle_record(record)
    if not settlement.record.rules.allows_mei_jiao:
        return set()
    return {h.seat for h in settlement.hands
            if h.status == "not_ready" and not record["seats"][h.seat].get("declared")
            and not record["seats"][h.seat].get("xiang_gong")}


def run_flow(flow: str, quick: bool) -> dict:
    from playwright.sync_api import expect, sync_playwright

    from tests.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
    from tests.round_form_data import EXAMPLE_NAMES, expected, load_example

    names = EXAMPLE_NAMES[:2] if quick else EXAMPLE_NAMES
    counts: dict[str, int] = {}
    with prepared_site() as site, gunicorn(site) as port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for name in names:
            record = load_example(name)
            context = browser.new_context(**PHONE)
            page = context.new_page()
            page.goto(f"http://{HOST}:{port}/round/?players={len(record['seats'])}")
            rec = Recorder(page)
            if flow == "today":
                enter_today(rec, record)
            else:
                enter_keyboard(rec, record, _hidden_seats(record))
            nets = [_signed(n) for n in expected(name)["net"]]
            expect(page.locator(".net-bar [data-net]")).to_have_text(nets, timeout=15000)
            rec.tap(".submit-btn")
            expect(page.locator(".result-hero .net-points")).to_have_text(nets)
            counts[name] = rec.taps
            context.close()
        browser.close()
    return counts


def run(quick: bool) -> dict:
    started = time.perf_counter()
    counts = run_flow(FLOW, quick)
    return {"part": "tap_count", "flow": FLOW, "machine": machine(), "taps": counts,
            "total": sum(counts.values()), "seconds": round(time.perf_counter() - started, 1), "ok": True}


if __name__ == "__main__":
    if "--flow" in sys.argv:
        at = sys.argv.index("--flow")
        FLOW = sys.argv[at + 1]
        del sys.argv[at:at + 2]
    main(run, "bench.tap_count")
