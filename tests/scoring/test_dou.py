"""R16–R18: 豆 (kongs) pay their owner, only when the round has a winner.

No tile is turned and nobody holds a 幺鸡, so the win and the 豆 are the only items.
"""
from __future__ import annotations

import pytest

from .factory import discard_win, draw, item_set, settle

DA_DUI = "222m555m888p33p777s"  # 大对子 5, wins on seat 2's 7条
# Seat 1 is ready (waits 9条) with one 豆 of each kind: 闷豆 3万, 转弯豆 4筒, 点豆 2条 fed by seat 3.
KONGS = [DA_DUI, "678p9s M3m Z4p D2s<3", "68m12357p346789s", "146789m579p3469s"]


@pytest.mark.parametrize("preset, options, men, zhuanwan, dian", [
    ("guiyang", {}, 2, 3, 1),
    ("anshun", {}, 2, 1, 1),
    ("xingyi", {}, 2, 3, 1),
    ("guiyang", {"jian_dou_san": True}, 3, 3, 3),   # 见豆三: every 豆 is worth 3
    ("anshun", {"jian_dou_san": True}, 3, 3, 3),
    ("xingyi", {"jian_dou_san": True}, 3, 3, 3),
    ("guiyang", {"dou_values": {"zhuanwan": 5}}, 2, 5, 1),  # one value overridden, the rest kept
])
def test_r16_dou_values(preset, options, men, zhuanwan, dian):
    s = settle(KONGS, discard_win(2, (0, "7s")), preset=preset, options=options)
    assert item_set(s, "dou.men") == [(p, 1, men, "dou.men", "R16") for p in (0, 2, 3)]
    assert item_set(s, "dou.zhuanwan") == [(p, 1, zhuanwan, "dou.zhuanwan", "R16") for p in (0, 2, 3)]
    assert item_set(s, "dou.dian") == [(3, 1, dian, "dou.dian", "R16")]  # the feeder alone pays
    # seat 0: +5 (hu) − men − zhuanwan; seat 1: 3 men + 3 zhuanwan + dian;
    # seat 2: −5 − men − zhuanwan; seat 3: −men − zhuanwan − dian
    assert s.net == [5 - men - zhuanwan, 3 * (men + zhuanwan) + dian,
                     -5 - men - zhuanwan, -men - zhuanwan - dian]


def test_r16_worked_numbers_guiyang_and_anshun():
    # The same table written out: 贵阳 seat 1 gets 3×2 + 3×3 + 1 = 16; 安顺 3×2 + 3×1 + 1 = 10.
    assert settle(KONGS, discard_win(2, (0, "7s"))).net == [0, 16, -10, -6]
    assert settle(KONGS, discard_win(2, (0, "7s")), preset="anshun").net == [2, 10, -8, -4]


@pytest.mark.parametrize("preset", ["guiyang", "anshun", "xingyi"])
def test_r17_a_late_kong_pays_nothing(preset):
    # The 闷豆 of 3万 is a 憨包豆: only the 转弯豆 and the 点豆 pay.
    seats = [DA_DUI, "678p9s M3m~ Z4p D2s<3", *KONGS[2:]]
    s = settle(seats, discard_win(2, (0, "7s")), preset=preset)
    zhuanwan = 1 if preset == "anshun" else 3
    assert not item_set(s, "dou.men")
    assert s.net == [5 - zhuanwan, 3 * zhuanwan + 1, -5 - zhuanwan, -zhuanwan - 1]


# Seat 3 is not ready and owns a 闷豆 of 1筒; seat 1 is ready with no 豆.
NOT_READY_KONG = [DA_DUI, "234s456s99s345p67m", "147m258p369s2m5m8m9p", "3479m4679p24s M1p"]


@pytest.mark.parametrize("preset", ["guiyang", "anshun", "xingyi"])
def test_r18_dou_collectors_ready_ignores_a_seat_that_is_not_ready(preset):
    s = settle(NOT_READY_KONG, discard_win(2, (0, "7s")), preset=preset)
    assert s.hands[3].status == "not_ready"
    assert s.net == [5, 0, -5, 0]


@pytest.mark.parametrize("preset", ["guiyang", "anshun", "xingyi"])
def test_r18_dou_collectors_all_lets_every_seat_collect(preset):
    # Seat 3 collects its 闷豆 2 from each: seat 0: 5 − 2; seat 1: −2; seat 2: −5 − 2; seat 3: +6
    s = settle(NOT_READY_KONG, discard_win(2, (0, "7s")), preset=preset, options={"dou_collectors": "all"})
    assert s.net == [3, -2, -7, 6]


@pytest.mark.parametrize("preset", ["guiyang", "anshun", "xingyi"])
def test_r18_no_dou_on_a_draw(preset):
    # 荒庄: seat 1 (ready, with three 豆) collects only its 查叫 of 1 from each seat that is not ready.
    seats = ["222m555m888p33p77s", *KONGS[1:]]
    s = settle(seats, draw(), preset=preset)
    assert [h.status for h in s.hands] == ["ready", "ready", "not_ready", "not_ready"]
    assert {i.reason for i in s.items} == {"cha_jiao"}
    # 叫 values: seat 0 大对子 5, seat 1 平胡 1; seats 2 and 3 each pay 5 + 1.
    assert s.net == [10, 2, -6, -6]
