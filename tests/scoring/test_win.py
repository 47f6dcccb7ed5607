"""R11–R15: paying for the win under each preset, and the 通行证 (pass) rule.

Unless a row says otherwise the rounds turn no tile (`turned: null`) and nobody holds a 幺鸡, so
the win and the 豆 are the only items; every expected number is worked out in the comment.
"""
from __future__ import annotations

import pytest

from calculator.scoring import RecordInvalid, settle_record

from .factory import discard_win, item_set, record, self_draw, settle

PRESETS = ("guiyang", "anshun", "xingyi")

# Not ready, no 幺鸡: fillers for seats whose only part is to pay.
FILL_A = "147m258p369s2m5m8m9p"
FILL_B = "369m147p258s4m7m3p6p"
# Ready for 5万/8万, 平胡: 叫 value 1.
READY_1 = "234s456s99s345p67m"
# 大对子 (5), all concealed.
DA_DUI = "222m555m888p33p777s"
# 平胡 with a 闷豆 of 7条 (its pass, R15), and the same 平胡 with no 豆 at all.
PING_MEN = "123m456p789p88m M7s"
PING_BARE = "123m456p789p88m345s"


def nets(data: dict) -> list[int]:
    return settle_record(data).net


# ---------------------------------------------------------------------------------- R11 点胡

@pytest.mark.parametrize("preset", PRESETS)
def test_r11_the_discarder_alone_pays_the_pattern_value(preset):
    # 大对子 on seat 2's 7条: V = 5 in every preset; 2 → 0 5, nothing else (no 豆, no 鸡).
    s = settle([DA_DUI, READY_1, FILL_A, FILL_B], discard_win(2, (0, "7s")), preset=preset)
    assert item_set(s) == [(2, 0, 5, "hu.discard", "R11")]
    assert s.net == [5, 0, -5, 0]
    assert s.next_dealer == 0


# 一炮三响 on seat 2's 5筒: seat 0 平胡 (1, 闷豆 7万), seat 1 平胡 (1, 闷豆 6万), seat 3 小七对 (10).
THREE_WINNERS = ["123m789p345p99s M7m", "234s678s345p55m M6m", "234m1279p234678s", "11p22p33p55p44m88m99s"]


@pytest.mark.parametrize("preset, next_dealer", [
    ("guiyang", 2),  # R35 guiyang: three winners → the discarder
    ("anshun", 2),   # discarder
    ("xingyi", 3),   # after_discarder: the first winner after seat 2 is seat 3
])
def test_r11_several_winners_are_each_paid_and_each_collects_its_own_dou(preset, next_dealer):
    s = settle(THREE_WINNERS, discard_win(2, (0, "5p"), (1, "5p"), (3, "5p")), preset=preset)
    assert item_set(s, "hu.discard") == [(2, 0, 1, "hu.discard", "R11"), (2, 1, 1, "hu.discard", "R11"),
                                         (2, 3, 10, "hu.discard", "R11")]
    # 豆: seat 0's 闷豆 2 from each of 1, 2, 3; seat 1's 闷豆 2 from each of 0, 2, 3.
    # seat 0: +1 +6 −2 = 5; seat 1: +1 +6 −2 = 5; seat 2: −12 −2 −2 = −16; seat 3: +10 −2 −2 = 6
    assert s.net == [5, 5, -16, 6]
    assert s.next_dealer == next_dealer


# ---------------------------------------------------------------------------------- R12 自摸

@pytest.mark.parametrize("preset, after_kong, each", [
    # 平胡 V = 1 with a 闷豆 (2 each). plus_one: S = 2; double: S = 2 × 1 = 2.
    ("guiyang", False, 2 + 2),
    ("guiyang", True, 2 + 1 + 2),   # 杠上开花 +1 (贵阳): a 平胡 杠上胡 is 3, as in 004
    ("anshun", False, 2 + 2),
    ("anshun", True, 2 + 0 + 2),    # 安顺 kong_bloom_bonus 0
    ("xingyi", False, 2 + 2),
    ("xingyi", True, 2 + 1 + 2),
])
def test_r12_self_draw_ping_hu_and_kong_bloom(preset, after_kong, each):
    s = settle([PING_MEN, READY_1, FILL_A, FILL_B], self_draw(0, "8m", after_kong=after_kong), preset=preset)
    assert s.net == [3 * each, -each, -each, -each]
    hu = item_set(s, "hu.self_draw")
    assert hu == [(payer, 0, each - 2, "hu.self_draw", "R12") for payer in (1, 2, 3)]


@pytest.mark.parametrize("preset, each", [
    ("guiyang", 5 + 1),  # plus_one: V + 1
    ("anshun", 2 * 5),   # double: 2V (大对子 and up doubled)
    ("xingyi", 5 + 1),
])
def test_r12_self_draw_da_dui_zi_plus_one_or_double(preset, each):
    s = settle([DA_DUI, READY_1, FILL_A, FILL_B], self_draw(0, "3p"), preset=preset)
    assert s.net == [3 * each, -each, -each, -each]


@pytest.mark.parametrize("preset, each", [("guiyang", 6), ("anshun", 10), ("xingyi", 6)])
def test_r12_three_players_have_two_payers(preset, each):
    s = settle([DA_DUI, READY_1, FILL_A], self_draw(0, "3p"), preset=preset)
    assert s.net == [2 * each, -each, -each]


def test_r12_options_override_the_preset():
    # 贵阳 with self_draw: double and kong_bloom_bonus 2: S(1) = 2, +2 bloom, +2 闷豆 = 6 each.
    s = settle([PING_MEN, READY_1, FILL_A, FILL_B], self_draw(0, "8m", after_kong=True),
               options={"self_draw": "double", "kong_bloom_bonus": 2})
    assert s.net == [18, -6, -6, -6]


# ---------------------------------------------------------------------------------- R13 热炮

# Seat 3 makes a 闷豆 of 4条 and its next discard, 7条, gives seat 0 大对子 (5). Seat 3 is ready
# (waits 7条 only: it holds all four 4条) and holds two 幺鸡; seat 0 holds two 幺鸡 too.
HOT = ["222m555m888p11s777s", FILL_A, FILL_B, "11s678m123p5s6s M4s"]


@pytest.mark.parametrize("preset, net, hu", [
    # 贵阳: 5 + 1. Burn `kong`: the 闷豆 pays nothing, but seat 3 still collects its chickens.
    # 鸡 (1 per 幺鸡): seat 0 worth 2 from each of 1, 2, 3; seat 3 worth 2 from each of 0, 1, 2.
    # seat 0: 6 + 6 − 2 = 10; seats 1, 2: −2 −2; seat 3: −6 − 2 + 6 = −2
    ("guiyang", [10, -4, -4, -2], 6),
    # 安顺: 5 + the 闷豆's full value 2 × 3 = 11. Burn `all`: seat 3 collects nothing, still pays
    # seat 0's chickens (2). seat 0: 11 + 6 = 17; seats 1, 2: −2; seat 3: −11 − 2 = −13
    ("anshun", [17, -2, -2, -13], 11),
    # 兴义: 5, no bonus. Burn `all`. Seat 0's concealed 幺鸡 are worth 2 each: 4.
    # seat 0: 5 + 12 = 17; seats 1, 2: −4; seat 3: −5 − 4 = −9
    ("xingyi", [17, -4, -4, -9], 5),
])
def test_r13_hot_shot_bonus_and_burn(preset, net, hu):
    s = settle(HOT, discard_win(3, (0, "7s"), hot_kong="4s"), preset=preset)
    assert s.net == net
    assert item_set(s, "hu.hot_shot") == [(3, 0, hu, "hu.hot_shot", "R13")]
    assert not any(i.reason.startswith("dou.") for i in s.items)  # the hot kong never pays
    assert s.burned == (frozenset() if preset == "guiyang" else frozenset({3}))
    # A burned seat still pays everyone else's chickens.
    assert any(i.payer == 3 and i.payee == 0 and i.reason == "ji.yaoji" for i in s.items)


@pytest.mark.parametrize("kong, bonus", [
    ("M4s", 2 * 3),   # 安顺 闷豆 2 per payer × 3 payers
    ("Z4s", 1 * 3),   # 安顺 转弯豆 1 × 3
    ("D4s<1", 1),     # a 点豆's single payment
    ("M4s~", 0),      # a 憨包豆 pays nothing, so its full value is 0
])
def test_r13_kong_total_is_the_hot_kongs_full_value(kong, bonus):
    seats = HOT[:3] + [f"11s678m123p5s6s {kong}"]
    s = settle(seats, discard_win(3, (0, "7s"), hot_kong="4s"), preset="anshun")
    # seat 3 burned; seat 0 collects its 2 幺鸡 from each other seat.
    assert s.net == [5 + bonus + 6, -2, -2, -(5 + bonus) - 2]


def test_r13_kong_total_with_three_players():
    # 安顺, three players: the 闷豆's full value is 2 × 2 = 4, so seat 2 pays 5 + 4 = 9.
    # seat 0 collects its 2 幺鸡 from seats 1 and 2: seat 0: 9 + 4 = 13; seat 1: −2; seat 2: −9 − 2
    s = settle([HOT[0], FILL_A, HOT[3]], discard_win(2, (0, "7s"), hot_kong="4s"), preset="anshun")
    assert s.net == [13, -2, -11]


def test_r13_kong_total_with_burn_kong_in_guiyang():
    # 贵阳 with hot_shot_bonus kong_total: 5 + 2 × 3 = 11; burn `kong` only, so seat 3 (ready)
    # still collects its chickens. seat 0: 11 + 6 − 2 = 15; seats 1, 2: −4; seat 3: −11 − 2 + 6 = −7
    s = settle(HOT, discard_win(3, (0, "7s"), hot_kong="4s"), options={"hot_shot_bonus": "kong_total"})
    assert s.net == [15, -4, -4, -7]


def test_r13_burn_kong_leaves_the_discarders_other_kongs_paying():
    # Seat 3 (ready: waits 7条) has a 闷豆 of 4条 (the hot one) and a 闷豆 of 9万.
    seats = ["222m555m888p11s777s", "1678m35679p2359s", "1234m123469p238s", "11s678m5s6s M4s M9m"]
    s = settle(seats, discard_win(3, (0, "7s"), hot_kong="4s"))
    assert item_set(s, "dou.men") == [(p, 3, 2, "dou.men", "R16") for p in (0, 1, 2)]
    # hu 6; 鸡 as in the main table; seat 3 also gets 2 × 3 for 闷豆 9万.
    # seat 0: 6 + 6 − 2 − 2 = 8; seats 1, 2: −2 − 2 − 2 = −6; seat 3: −6 − 2 + 6 + 6 = 4
    assert s.net == [8, -6, -6, 4]


def test_r13_every_winner_of_a_hot_shot_is_paid_v_plus_the_bonus():
    # 贵阳 一炮双响 on seat 2's 7条 right after its 闷豆 of 1筒: 大对子 5 + 1 and 小七对 10 + 1.
    seats = ["222m555m888p33p777s", "123468m24569p23s", "189m357p2349s M1p", "33m66m99m44p66p99s77s"]
    s = settle(seats, discard_win(2, (0, "7s"), (3, "7s"), hot_kong="1p"))
    assert item_set(s) == [(2, 0, 6, "hu.hot_shot", "R13"), (2, 3, 11, "hu.hot_shot", "R13")]


# ---------------------------------------------------------------------------------- R14 抢杠

# Seat 0 robs seat 2's added kong of 5条 with a 平胡 (V = 1, no pass needed). Seat 2 (recorded
# with the pong it had) is ready for 6筒/9筒, holds two 幺鸡 and a 闷豆 of 9条.
ROBBED = ["234m678m345p99m456s", "256m2345689p367s", "11s789m78p P5s<3 M9s", "1279m15789p2348s"]


@pytest.mark.parametrize("preset, hu, net", [
    # 贵阳 pay_all: (N−1) × S(1) = 3 × 2 = 6; not burned, so seat 2 collects 闷豆 2 and 鸡 2 from each.
    # seat 0: 6 − 2 − 2 = 2; seats 1, 3: −4; seat 2: −6 + 12 = 6
    ("guiyang", 6, [2, -4, 6, -4]),
    # 安顺 pay_all with double: 3 × (2 × 1) = 6; burned: nothing else.
    ("anshun", 6, [6, 0, -6, 0]),
    # 兴义 qing_yi_se: max(1, 10) = 10; burned.
    ("xingyi", 10, [10, 0, -10, 0]),
])
def test_r14_robbed_kong(preset, hu, net):
    s = settle(ROBBED, discard_win(2, (0, "5s"), robbed=True), preset=preset)
    assert item_set(s, "hu.robbed") == [(2, 0, hu, "hu.robbed", "R14")]
    assert s.net == net
    assert s.burned == (frozenset() if preset == "guiyang" else frozenset({2}))


def test_r14_qing_yi_se_pays_v_when_v_is_more():
    # 兴义: seat 0 declared (软报 10), so V = 1 + 10 = 11 > 10: seat 2 pays 11 once.
    data = record(ROBBED, discard_win(2, (0, "5s"), robbed=True), preset="xingyi")
    data["seats"][0]["declared"] = "soft"
    assert nets(data) == [11, 0, -11, 0]


@pytest.mark.parametrize("preset, net", [
    # three players, pay_all: 2 × S(1) = 4. 贵阳: seat 2 not burned, collects 闷豆 2 and 鸡 2 from each
    # of 2 others: seat 0: 4 − 4 = 0; seat 1: −4; seat 2: −4 + 8 = 4
    ("guiyang", [0, -4, 4]),
    ("anshun", [4, 0, -4]),  # 2 × (2 × 1), burned
])
def test_r14_pay_all_with_three_players(preset, net):
    seats = [*ROBBED[:2], "11s789m78p P5s<1 M9s"]
    assert nets(record(seats, discard_win(2, (0, "5s"), robbed=True), preset=preset)) == net


def test_r14_options_can_burn_the_robbed_seat_in_guiyang():
    s = settle(ROBBED, discard_win(2, (0, "5s"), robbed=True), options={"robbed_kong_burn": "all"})
    assert s.net == [6, 0, -6, 0]


# ---------------------------------------------------------------------------------- R15 通行证

def codes(data: dict) -> list[tuple[str, int | None]]:
    with pytest.raises(RecordInvalid) as caught:
        settle_record(data)
    return [(p.code, p.seat) for p in caught.value.problems]


@pytest.mark.parametrize("preset", PRESETS)
def test_r15_ping_hu_without_a_dou_may_not_win_on_a_discard(preset):
    data = record([PING_BARE, READY_1, FILL_A, FILL_B], discard_win(2, (0, "8m")), preset=preset)
    assert codes(data) == [("needs_dou", 0)]


@pytest.mark.parametrize("preset, kong, net", [
    # 平胡 on seat 2's 8万: 2 → 0 1, plus the 豆 (seat 0 wins, so it collects).
    ("guiyang", "M7s", [1 + 6, -2, -1 - 2, -2]),   # 闷豆 2 each
    ("anshun", "M7s", [1 + 6, -2, -1 - 2, -2]),
    ("xingyi", "M7s", [1 + 6, -2, -1 - 2, -2]),
    ("guiyang", "Z7s", [1 + 9, -3, -1 - 3, -3]),   # 转弯豆 3 each
    ("anshun", "Z7s", [1 + 3, -1, -1 - 1, -1]),    # 安顺 转弯豆 1 each
    ("guiyang", "D7s<2", [1 + 1, 0, -2, 0]),       # 点豆 fed by seat 2: it pays 1
    ("xingyi", "D7s<1", [1 + 1, -1, -1, 0]),       # 点豆 fed by seat 1
    ("guiyang", "M7s~", [1, 0, -1, 0]),            # 憨包豆: still a pass, pays nothing (R17)
    ("anshun", "M7s~", [1, 0, -1, 0]),             # 安顺 too: it is a (late) 闷豆
    ("anshun", "Z7s~", [1, 0, -1, 0]),
])
def test_r15_a_dou_is_the_pass(preset, kong, net):
    assert nets(record([f"123m456p789p88m {kong}", READY_1, FILL_A, FILL_B],
                       discard_win(2, (0, "8m")), preset=preset)) == net


def test_r15_anshun_does_not_accept_a_dian_dou_as_the_pass():
    seats = ["123m456p789p88m D7s<2", READY_1, FILL_A, FILL_B]
    data = record(seats, discard_win(2, (0, "8m")), preset="anshun")
    assert codes(data) == [("needs_dou", 0)]
    data["options"] = {"pass_dou": "any"}
    assert nets(data) == [2, 0, -2, 0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r15_pass_dou_off(preset):
    data = record([PING_BARE, READY_1, FILL_A, FILL_B], discard_win(2, (0, "8m")), preset=preset,
                  options={"pass_dou": "off"})
    assert nets(data) == [1, 0, -1, 0]


@pytest.mark.parametrize("preset, each", [("guiyang", 2), ("anshun", 2), ("xingyi", 2)])
def test_r15_self_draw_needs_no_pass(preset, each):
    # S(1) = 2 under plus_one and under double.
    s = settle([PING_BARE, READY_1, FILL_A, FILL_B], self_draw(0, "8m"), preset=preset)
    assert s.net == [3 * each, -each, -each, -each]


@pytest.mark.parametrize("preset, declared, net", [
    # Seat 2 declared, so its discard needs no pass; 杀报 (R31): it pays its bonus on top of V = 1.
    ("guiyang", "soft", [1 + 10, 0, -11, 0]),
    ("guiyang", "hard", [1 + 20, 0, -21, 0]),
    ("anshun", "hard", [1 + 10, 0, -11, 0]),
    ("xingyi", "soft", [1 + 10, 0, -11, 0]),
])
def test_r15_a_declarers_discard_needs_no_pass(preset, declared, net):
    # seat 2 is the ready hand here (a declarer must be ready, R32); seat 1 is a filler.
    data = record([PING_BARE, FILL_A, READY_1, FILL_B], discard_win(2, (0, "8m")), preset=preset)
    data["seats"][2]["declared"] = declared
    s = settle_record(data)
    assert s.net == net
    assert item_set(s, "bao.kill") == [(2, 0, net[0] - 1, "bao.kill", "R31")]


@pytest.mark.parametrize(("preset", "declared"), [
    ("guiyang", "hard"), ("anshun", "soft"), ("xingyi", "hard"),
])
def test_r15_a_declared_ping_hu_still_needs_a_pass(preset, declared):
    # R15: a declaration is not a pattern, so a declared 平胡 on an ordinary discard needs a 豆
    # like any 平胡 (RULE-DECISIONS #2 let it through until the rules said otherwise).
    data = record([PING_BARE, READY_1, FILL_A, FILL_B], discard_win(2, (0, "8m")), preset=preset)
    data["seats"][0]["declared"] = declared
    assert codes(data) == [("needs_dou", 0)]


@pytest.mark.parametrize(("preset", "declared", "value"), [
    ("guiyang", "hard", 1 + 20),
    ("anshun", "soft", 1 + 10),
    ("xingyi", "hard", 1 + 10),
])
def test_r15_a_declared_ping_hu_with_a_pass_wins_on_a_discard(preset, declared, value):
    # The same hand with a 闷豆 of 7条: V = 平胡 1 + the declarer's bonus, paid by the discarder.
    data = record(["123m456p789p88m M7s", READY_1, FILL_A, FILL_B], discard_win(2, (0, "8m")), preset=preset)
    data["seats"][0]["declared"] = declared
    s = settle_record(data)
    assert item_set(s, "hu.discard") == [(2, 0, value, "hu.discard", "R11")]


@pytest.mark.parametrize("preset", PRESETS)
def test_r15_a_declared_ping_hu_may_self_draw_without_a_pass(preset):
    data = record([PING_BARE, READY_1, FILL_A, FILL_B], self_draw(0, "8m"), preset=preset)
    data["seats"][0]["declared"] = "soft"
    assert settle_record(data).hands[0].pattern == "ping_hu"


@pytest.mark.parametrize("preset", PRESETS)
def test_r15_hot_shot_needs_no_pass(preset):
    # 平胡 without a 豆 on seat 3's 5条 right after its 闷豆 of 9万.
    seats = ["123m456p789p88m345s", "145m134678p3569s", "2346m1236p24689s", "11s678m123p56s M9m"]
    s = settle(seats, discard_win(3, (0, "5s"), hot_kong="9m"), preset=preset)
    assert [i.reason for i in s.items if i.payee == 0 and i.payer == 3][0] == "hu.hot_shot"


@pytest.mark.parametrize("preset", PRESETS)
def test_r15_robbing_a_kong_needs_no_pass(preset):
    # ROBBED's winner is a 平胡 with no 豆.
    assert settle(ROBBED, discard_win(2, (0, "5s"), robbed=True), preset=preset).hands[0].pattern == "ping_hu"


@pytest.mark.parametrize("preset", PRESETS)
def test_r15_patterns_above_ping_hu_need_no_pass(preset):
    data = record([DA_DUI, READY_1, FILL_A, FILL_B], discard_win(2, (0, "7s")), preset=preset)
    assert nets(data) == [5, 0, -5, 0]
