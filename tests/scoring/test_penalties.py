"""R36 包牌 (过水) and R37 相公."""
from __future__ import annotations

import pytest

from calculator.scoring import RecordInvalid, settle_record

from .factory import discard_win, draw, item_set, record, seat, self_draw

PRESETS = ("guiyang", "anshun", "xingyi")
FILL_A = "147m258p369s2m5m8m9p"
FILL_B = "369m147p258s4m7m3p6p"
FILL_C = "258m369p47s9s1m4p7p8s"
READY_1 = "234s456s99s345p67m"       # ready for 5万/8万, 平胡 1
DA_DUI = "222m555m888p33p777s"       # 大对子 5
PING_MEN = "123m456p789p88m M7s"     # 平胡 1 with a 闷豆 of 7条

# ---------------------------------------------------------------------------------- R36 过水

# Seat 0 "wins" 大对子 on seat 2's 5万 with a 闷豆 of 7条 and a pong of the first 幺鸡 (from seat 3),
# 幺鸡 being gold (turned 9条); seat 1 is ready with a 幺鸡. None of that is paid: only the penalty.
PASSED = ["555m888p33p M7s P1s<3", "123s234m678m456p9p", "2368m134579p589s", "279m234579p2468s"]


@pytest.mark.parametrize("preset", PRESETS)
def test_r36_a_passed_winner_pays_each_other_seat_its_v_and_nothing_else(preset):
    data = record(PASSED, discard_win(2, (0, "5m"), passed_before=True), preset=preset, dealer=2,
                  turned="9s", first_yaoji=(3, 0))
    s = settle_record(data)
    assert item_set(s) == [(0, p, 5, "penalty.pass", "R36") for p in (1, 2, 3)]
    assert s.net == [-15, 5, 5, 5]
    assert s.next_dealer == 2  # the dealer stays


def test_r36_v_includes_the_declared_bonus():
    # 贵阳 硬报: V = 5 + 20 = 25 to each other seat.
    data = record(PASSED, discard_win(2, (0, "5m"), passed_before=True), dealer=1, first_yaoji=(3, 0))
    data["seats"][0]["declared"] = "hard"
    s = settle_record(data)
    assert s.net == [-75, 25, 25, 25]
    assert s.next_dealer == 1


def test_r36_three_players():
    data = record(PASSED[:3], discard_win(2, (0, "5m"), passed_before=True), first_yaoji=None)
    data["seats"][0]["melds"][1]["from"] = 1  # the 幺鸡 pong, now from seat 1
    assert settle_record(data).net == [-10, 5, 5]


def test_r36_only_with_a_single_winner():
    seats = ["222m555m888p33p777s", "123468m24569p23s", "189m357p2349s M1p", "33m66m99m44p66p99s77s"]
    data = record(seats, discard_win(2, (0, "7s"), (3, "7s"), passed_before=True))
    with pytest.raises(RecordInvalid) as caught:
        settle_record(data)
    assert [p.code for p in caught.value.problems] == ["bad_outcome"]


def test_r36_does_not_apply_to_a_self_draw():
    # R36 bars a passed-over seat from winning on a discard only; its own draw is always allowed, so
    # a self-draw recorded as 过水 contradicts itself and is rejected rather than penalised.
    data = record(PASSED, self_draw(0, "5m"), first_yaoji=(3, 0))
    data["outcome"]["winners"][0]["passed_before"] = True
    with pytest.raises(RecordInvalid) as caught:
        settle_record(data)
    assert [(p.code, p.seat) for p in caught.value.problems] == [("bad_outcome", 0)]


# ---------------------------------------------------------------------------------- R37 相公

# Seat 3 is 相公 with 12 tiles.
XIANG_GONG = seat("369m147p258s4m7m3p", xiang_gong=True)


@pytest.mark.parametrize("preset", PRESETS)
def test_r37_xiang_gong_pays_v_jiao_or_2(preset):
    # 大对子 on seat 2's 7条. 相公 pays the winner its V 5, ready seat 1 its 叫 1, seat 2 (not ready) 2.
    # seat 0: 5 + 5 = 10; seat 1: 1; seat 2: −5 + 2 = −3; seat 3: −8
    s = settle_record(record([DA_DUI, READY_1, FILL_A, XIANG_GONG], discard_win(2, (0, "7s")), preset=preset))
    assert item_set(s, "penalty.xiang_gong") == [(3, 0, 5, "penalty.xiang_gong", "R37"),
                                                 (3, 1, 1, "penalty.xiang_gong", "R37"),
                                                 (3, 2, 2, "penalty.xiang_gong", "R37")]
    assert s.net == [10, 1, -3, -8]


def test_r37_xiang_gong_pays_the_winners_v_not_its_self_draw_price():
    # 贵阳 self-draw 平胡 with a 闷豆: every seat, the 相公 too, pays 2 + 2. The 相公 also pays V = 1,
    # 叫 1 and 2. seat 0: 12 + 1 = 13; seat 1: −4 + 1 = −3; seat 2: −4 + 2 = −2; seat 3: −4 − 4 = −8
    s = settle_record(record([PING_MEN, READY_1, FILL_A, XIANG_GONG], self_draw(0, "8m")))
    assert s.net == [13, -3, -2, -8]


@pytest.mark.parametrize("preset", PRESETS)
def test_r37_on_a_draw_it_replaces_the_xiang_gongs_cha_jiao(preset):
    # Seat 0 ready (大对子 5), seat 1 ready (1), seat 2 not ready, seat 3 相公.
    # 查叫: seat 2 pays 5 + 1. 相公 (not 查叫): 5, 1, and 2 to seat 2.
    # seat 0: 10; seat 1: 2; seat 2: −6 + 2 = −4; seat 3: −8
    s = settle_record(record(["222m555m888p33p77s", READY_1, FILL_A, XIANG_GONG], draw(), preset=preset))
    assert s.net == [10, 2, -4, -8]
    assert not any(i.payer == 3 and i.reason == "cha_jiao" for i in s.items)


def test_r37_the_jiao_value_includes_a_declared_bonus():
    # 贵阳, seat 1 declared soft: 叫 1 + 10 = 11. 查叫: seat 2 pays 5 + 11; 相公 pays 5, 11, 2.
    # seat 0: 10; seat 1: 22; seat 2: −16 + 2 = −14; seat 3: −18
    data = record(["222m555m888p33p77s", READY_1, FILL_A, XIANG_GONG], draw())
    data["seats"][1]["declared"] = "soft"
    assert settle_record(data).net == [10, 22, -14, -18]


def test_r37_a_xiang_gong_is_never_ready():
    # Its 13 tiles would be ready for 5万/8万, but a 相公 is not ready: nobody else is either, so
    # 查叫 pays nothing and the 相公 pays 2 to each.
    s = settle_record(record([FILL_A, FILL_B, FILL_C, seat(READY_1, xiang_gong=True)], draw()))
    assert s.hands[3].status == "not_ready" and not s.hands[3].waits
    assert s.net == [2, 2, 2, -6]


@pytest.mark.parametrize("options, net", [
    # The 相公 holds two 幺鸡 and a 闷豆 but collects nothing, even when everyone collects.
    ({}, [10, 1, -3, -8]),
    ({"chicken_collectors": "all", "dou_collectors": "all"}, [10, 1, -3, -8]),
    # 包鸡 applies to it like any seat that is not ready: it pays its worth 2 to seats 0 and 1.
    ({"chicken_collectors": "ready_or_pay"}, [12, 3, -3, -12]),
])
def test_r37_xiang_gong_cannot_collect(options, net):
    seats = [DA_DUI, READY_1, FILL_A, seat("11s369m146p8s M7p", xiang_gong=True)]
    s = settle_record(record(seats, discard_win(2, (0, "7s")), options=options))
    assert s.net == net


def test_r37_xiang_gong_cannot_win():
    data = record([DA_DUI, READY_1, FILL_A, FILL_B], discard_win(2, (0, "7s")))
    data["seats"][0]["xiang_gong"] = True
    with pytest.raises(RecordInvalid) as caught:
        settle_record(data)
    assert [(p.code, p.seat) for p in caught.value.problems] == [("bad_outcome", 0)]


def test_r36_a_passed_win_burns_nobody_even_on_a_hot_kong():
    # 安顺 burns a 热炮 discarder (R13), but a 过水 win is the whole settlement (R36): seat 0 pays
    # each other seat its 大对子 5 and nobody is burned.
    data = {
        "preset": "anshun", "dealer": 0, "turned": "4m", "first_yaoji": None,
        "seats": [{"concealed": "111m222m333s99s777p"}, {"concealed": "234m456m789m55s68p"},
                  {"concealed": "1m9m2p8p3p4s6s7s2s8s3m5m1s"},
                  {"concealed": "456s789s123p1s", "melds": [{"type": "kong", "kind": "men", "tile": "5p"}]}],
        "outcome": {"type": "win", "from": 3, "hot_kong": "5p",
                    "winners": [{"seat": 0, "tile": "7p", "passed_before": True}]},
    }
    result = settle_record(data).to_dict()
    assert result["net"] == [-15, 5, 5, 5]
    assert [hand["burned"] for hand in result["hands"]] == [False, False, False, False]
