"""R30–R31: 报听 — the declared bonus is part of V, and 杀报 makes a declarer pay.

No tile is turned and nobody holds a 幺鸡 unless a row says so.
"""
from __future__ import annotations

import pytest

from calculator.scoring import settle_record

from .factory import discard_win, item_set, record, self_draw

FILL_A = "147m258p369s2m5m8m9p"
FILL_B = "369m147p258s4m7m3p6p"
READY_1 = "234s456s99s345p67m"       # ready for 5万/8万, 平胡 1
DA_DUI = "222m555m888p33p777s"       # 大对子 5
PING_MEN = "123m456p789p88m M7s"     # 平胡 1 with a 闷豆 of 7条


def declared(data: dict, **seats: str) -> dict:
    """Mark seats declared: declared(data, s0="hard")."""
    for key, kind in seats.items():
        data["seats"][int(key[1:])]["declared"] = kind
    return data


@pytest.mark.parametrize("preset, kind, v", [
    ("guiyang", "hard", 5 + 20),
    ("guiyang", "soft", 5 + 10),
    ("anshun", "hard", 5 + 10),
    ("anshun", "soft", 5 + 10),
    ("xingyi", "hard", 5 + 10),
    ("xingyi", "soft", 5 + 10),
])
def test_r30_a_declarer_who_wins_adds_its_bonus_to_v(preset, kind, v):
    data = record([DA_DUI, READY_1, FILL_A, FILL_B], discard_win(2, (0, "7s")), preset=preset)
    s = settle_record(declared(data, s0=kind))
    assert item_set(s) == [(2, 0, v, "hu.discard", "R11")]
    assert s.hands[0].value == v


@pytest.mark.parametrize("preset, kind, each", [
    ("guiyang", "hard", (1 + 20) + 1 + 2),    # S(V) = V + 1, plus the 闷豆 2
    ("guiyang", "soft", (1 + 10) + 1 + 2),
    ("anshun", "soft", 2 * (1 + 10) + 2),     # (10 + V) × 2, as R30 says
    ("xingyi", "hard", (1 + 10) + 1 + 2),
])
def test_r30_self_draw_of_a_declarer(preset, kind, each):
    s = settle_record(declared(record([PING_MEN, READY_1, FILL_A, FILL_B], self_draw(0, "8m"), preset=preset),
                               s0=kind))
    assert s.net == [3 * each, -each, -each, -each]


@pytest.mark.parametrize("preset, options, kill", [
    ("guiyang", {}, 0),     # declare_kill_self_draw 0
    ("anshun", {}, 10),
    ("xingyi", {}, 10),
    ("guiyang", {"declare_kill_self_draw": 5}, 5),
])
def test_r31_a_declarer_pays_more_when_another_seat_self_draws(preset, options, kill):
    # Seat 0 self-draws 平胡 with a 闷豆: each pays S(1) = 2 plus 2 for the 闷豆 (4), in every preset.
    # Seat 1 declared (soft): it pays `kill` more.
    data = record([PING_MEN, READY_1, FILL_A, FILL_B], self_draw(0, "8m"), preset=preset, options=options)
    s = settle_record(declared(data, s1="soft"))
    assert s.net == [12 + kill, -4 - kill, -4, -4]
    assert item_set(s, "bao.kill") == ([(1, 0, kill, "bao.kill", "R31")] if kill else [])


def test_r31_the_winner_itself_pays_no_kill_on_its_own_self_draw():
    # 安顺: seat 0 declared and self-draws: V = 11, each pays 22 + 2 (闷豆); seat 1 declared too and
    # pays 10 more. seat 0: 3 × 24 + 10 = 82; seat 1: −34; seats 2, 3: −24
    data = record([PING_MEN, READY_1, FILL_A, FILL_B], self_draw(0, "8m"), preset="anshun")
    s = settle_record(declared(data, s0="soft", s1="hard"))
    assert s.net == [82, -34, -24, -24]
    assert item_set(s, "bao.kill") == [(1, 0, 10, "bao.kill", "R31")]


@pytest.mark.parametrize("preset, kind, kill", [
    ("guiyang", "hard", 20), ("guiyang", "soft", 10), ("anshun", "hard", 10), ("xingyi", "soft", 10),
])
def test_r31_a_declarers_discard_pays_its_bonus_on_top_of_v(preset, kind, kill):
    # Seat 2 (ready, declared) discards 7条 into seat 0's 大对子: V = 5, plus the declarer's bonus.
    data = record([DA_DUI, FILL_A, READY_1, FILL_B], discard_win(2, (0, "7s")), preset=preset)
    s = settle_record(declared(data, s2=kind))
    assert item_set(s) == [(2, 0, 5, "hu.discard", "R11"), (2, 0, kill, "bao.kill", "R31")]
    assert s.net == [5 + kill, 0, -5 - kill, 0]


# Seat 0 robs seat 2's added kong of 5条 with a 平胡; seat 2 (ready for 6筒/9筒) holds two 幺鸡 and
# a 闷豆 of 9条, and declared (soft).
ROBBED = ["234m678m345p99m456s", "256m2345689p367s", "11s789m78p P5s<3 M9s", "1279m15789p2348s"]


@pytest.mark.parametrize("preset, net", [
    # 贵阳: 3 × S(1) = 6 plus 杀报 10; seat 2 is not burned: it collects 闷豆 2 and 鸡 2 from each.
    # seat 0: 6 + 10 − 4 = 12; seats 1, 3: −4; seat 2: −16 + 12 = −4
    ("guiyang", [12, -4, -4, -4]),
    # 安顺: 3 × 2 = 6, plus 10; burned.
    ("anshun", [16, 0, -16, 0]),
    # 兴义: max(1, 10) = 10, plus 10; burned.
    ("xingyi", [20, 0, -20, 0]),
])
def test_r31_a_declarers_robbed_kong_pays_its_bonus(preset, net):
    data = record(ROBBED, discard_win(2, (0, "5s"), robbed=True), preset=preset)
    s = settle_record(declared(data, s2="soft"))
    assert s.net == net
    assert item_set(s, "bao.kill") == [(2, 0, 10, "bao.kill", "R31")]


def test_r31_each_winner_of_a_declarers_discard_is_paid_the_bonus():
    # 贵阳 一炮双响 on seat 2's 7条; seat 2 declared hard (20). Seat 0 大对子 5, seat 3 小七对 10.
    seats = ["222m555m888p33p777s", "123468m24569p23s", "234s456s99s345p67m", "33m66m99m44p66p99s77s"]
    data = declared(record(seats, discard_win(2, (0, "7s"), (3, "7s"))), s2="hard")
    s = settle_record(data)
    # seat 0: 5 + 20; seat 3: 10 + 20; seat 2: −55
    assert s.net == [25, 0, -55, 30]
    assert item_set(s, "bao.kill") == [(2, 0, 20, "bao.kill", "R31"), (2, 3, 20, "bao.kill", "R31")]
