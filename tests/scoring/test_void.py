"""What did not count, and why (`Settlement.void`), and which tiles the 翻牌 made chickens
(`Settlement.chickens`). Words only: the items and nets are the ones the other tests check."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator.scoring import parse_tile, settle_record

from .factory import discard_win, settle
from .test_dou import DA_DUI, KONGS, NOT_READY_KONG
from .test_win import HOT

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def test_a_seat_that_is_not_ready_has_its_chong_feng_ji_void():
    # E1: seat 3's 冲锋鸡 counts for nothing because seat 3 is not ready (RULES §9).
    s = settle_record(example("E1"))
    assert ("chong_feng", 3, "not_ready") in s.void
    assert not any(i.reason == "ji.chong_feng" for i in s.items)
    pays = settle_record({**example("E1"), "options": {**example("E1")["options"], "chong_feng_pays": True}})
    assert ("chong_feng", 3, "not_ready") not in pays.void  # R65: it pays it out instead


def test_a_late_kong_is_void_as_a_hanbao_dou():
    seats = [DA_DUI, "678p9s M3m~ Z4p D2s<3", *KONGS[2:]]
    s = settle(seats, discard_win(2, (0, "7s")))
    assert s.void == (("dou", 1, "late", "men", "3m"),)


def test_a_kong_of_a_seat_that_is_not_ready_is_void_unless_paid_back():
    s = settle(NOT_READY_KONG, discard_win(2, (0, "7s")))
    assert ("dou", 3, "not_ready", "men", "1p") in s.void
    paid_back = settle(NOT_READY_KONG, discard_win(2, (0, "7s")), options={"dou_reverse": True})
    assert not any(v[0] == "dou" for v in paid_back.void)  # 豆倒赔 pays it back: it counted
    every_seat = settle(NOT_READY_KONG, discard_win(2, (0, "7s")), options={"dou_collectors": "all"})
    assert every_seat.void == ()


@pytest.mark.parametrize("preset, void", [
    ("guiyang", ("dou", 3, "hot_kong", "men", "4s")),  # `hot_shot_burn: kong`: the kong alone
    ("anshun", ("dou", 3, "hot_shot", "men", "4s")),  # `all`: the seat is burned (烧光)
])
def test_the_dou_burned_by_a_hot_shot_is_void(preset, void):
    s = settle(HOT, discard_win(3, (0, "7s"), hot_kong="4s"), preset=preset)
    assert void in s.void
    if preset == "anshun":  # a burned seat's chickens do not count for it either
        assert ("ji", 3, "hot_shot", 2) in s.void


def test_chui_feng_blows_every_chicken_away_and_says_so():
    s = settle(HOT, discard_win(3, (0, "7s")), turned="5p", options={"chui_feng": True})
    assert s.void[-1] == ("chui_feng", None, "chui_feng", "5p")
    assert not any(i.reason.startswith("ji.") for i in s.items)


def test_saying_what_was_void_changes_no_item(monkeypatch):
    """The void list is told, never paid: the same rounds settle to the same items without it."""
    from calculator.scoring.items import Table

    rounds = [example(path.stem) for path in sorted(EXAMPLES.glob("E*.json"))]
    told = [settle_record(data) for data in rounds]
    assert any(s.void for s in told)
    monkeypatch.setattr(Table, "not_counted", lambda *args: None)
    for data, s in zip(rounds, told):
        silent = settle_record(data)
        assert silent.void == () and silent.items == s.items and silent.net == s.net


@pytest.mark.parametrize("preset, options, turned, chickens", [
    ("guiyang", {}, "3m", ["4m"]),  # next (R19)
    ("anshun", {}, "3m", ["2m", "4m"]),  # swing
    ("guiyang", {}, "9s", ["1s"]),  # 9 wraps to 1: 幺鸡 is 金鸡 (R21)
    ("guiyang", {"turned_chicken": "self"}, "3m", ["3m"]),  # 本鸡 (R48)
    ("guiyang", {"turned_chicken": "self_next"}, "3m", ["3m", "4m"]),
    ("guiyang", {"turned_chicken": "none"}, "3m", []),
])
def test_the_turned_tile_names_its_chickens(preset, options, turned, chickens):
    s = settle(HOT, discard_win(3, (0, "7s")), preset=preset, options=options, turned=turned)
    assert s.chickens == tuple(parse_tile(t) for t in chickens)
