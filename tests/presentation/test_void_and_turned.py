"""The result says what did not count and why, and which tiles the 翻牌 made chickens."""
from __future__ import annotations

import json
from pathlib import Path

from django.utils import translation

from calculator.presentation import present
from calculator.scoring import settle_record

from tests.scoring.factory import discard_win, settle
from tests.scoring.test_dou import DA_DUI, KONGS
from tests.scoring.test_win import HOT

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def test_e1_says_the_not_ready_seats_chong_feng_ji_did_not_count_and_names_the_chicken():
    record = example("E1")
    view = present(settle_record(record))
    north = record["seats"][3]["name"]
    assert f"{north} 的冲锋鸡不算：没叫" in view.void
    assert view.turned == "翻牌 5万 → 鸡：6万"


def test_in_english_too():
    with translation.override("en"):
        view = present(settle_record(example("E1")))
    north = example("E1")["seats"][3]["name"]
    assert any(line.startswith(north) and "does not count" in line and "not ready" in line for line in view.void)
    assert view.turned.startswith("Turned 5-character") and "6-character" in view.turned


def test_a_turned_9_tiao_makes_golden_chickens_and_none_makes_none():
    gold = present(settle(HOT, discard_win(3, (0, "7s")), turned="9s"))
    assert gold.turned == "翻牌 9条 → 鸡：1条（金鸡）"
    swing = present(settle(HOT, discard_win(3, (0, "7s")), turned="3m", preset="anshun"))
    assert swing.turned == "翻牌 3万 → 鸡：2万、4万"
    none = present(settle(HOT, discard_win(3, (0, "7s")), turned="3m", options={"turned_chicken": "none"}))
    assert none.turned == "翻牌 3万：这局不翻鸡"
    assert present(settle(HOT, discard_win(3, (0, "7s")))).turned == ""  # nothing turned, nothing said


def test_burned_and_late_dou_say_why():
    burned = present(settle(HOT, discard_win(3, (0, "7s"), hot_kong="4s"), preset="anshun"))
    assert "北 的闷豆 4条不算：热炮，烧光" in burned.void
    late = present(settle([DA_DUI, "678p9s M3m~ Z4p D2s<3", *KONGS[2:]], discard_win(2, (0, "7s"))))
    assert late.void == ("南 的闷豆 3万不算：憨包豆",)


def test_every_seats_hand_is_shown_as_entered():
    record = example("E1")
    hands = present(settle_record(record)).hands
    assert [h.name for h in hands] == [seat["name"] for seat in record["seats"]]
    assert [c.code for c in hands[0].concealed] == ["2m", "3m", "4m", "5m", "6m", "7m", "1s", "1s", "3s", "4s", "5s"]
    assert [(word, [c.code for c in chips]) for word, chips in hands[0].melds] == [("闷豆", ["9p"] * 4)]
    assert [c.code for c in hands[1].discards] == ["6m"]
