"""R45–R65: the house-rule variants of ../shared/VARIANTS.md, each an option that no preset plays.

Each table quotes the numbers VARIANTS.md gives; each row's arithmetic is in its comment. The
fixtures are those of test_win and test_chickens, whose default settlements are tested there.
"""
from __future__ import annotations

import pytest

from calculator.scoring import PRESETS, RecordInvalid, settle_record

from .factory import discard_win, draw, item_set, record, seat, self_draw, settle
from .test_chickens import CHONG_FENG, COLLECTORS, TURNED, YAOJI_MELDED, ZE_REN_NOT_READY
from .test_win import DA_DUI, FILL_A, FILL_B, PING_BARE, READY_1, ROBBED

VARIANT_OPTIONS = {
    "self_draw": ("plain", "double_plus_one"), "robbed_kong": ("pay_all_plain", "four_v", "v_plus_one"),
    "hot_shot_bonus": ("double",), "turned_chicken": ("self", "self_next"), "bao_ji": ("shown",),
    "chicken_flow": ("to_ready", "to_ready_chong_feng_all"), "chong_feng_on_top": (True,), "dou_reverse": (True,), "cap": (30,),
    "ze_ren_gold": (False,), "chui_feng": (True,), "declare_kill_by_kind": (True,), "dian_payer": ("konger",),
    "declare_floor": (True,), "dealer_bonus": (1,), "dealer_streak_bonus": (1,),
    "dan_diao": (10, 17), "qing_dan_diao": (20,), "duo_long": (10,), "tian_hu": (33,), "di_hu": (23,),
    "tian_di_bonus": (10,), "gen_zhuang": (4,),
    "xing_qi_ji": (True,), "chong_feng_claimed": (True,), "chong_feng_pays": (True,),
    "dealer_bonus_win_only": (True,), "ze_ren_every": (True,), "wu_gu_ji_to_ready": (True,), "discard_pool": (True,),
    "chong_feng_wu_gu_ji": (True,),
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("option", sorted(VARIANT_OPTIONS))
def test_no_preset_plays_a_variant(preset, option):
    assert getattr(PRESETS[preset], option) not in VARIANT_OPTIONS[option]


# ---------------------------------------------------------------------------------- R45 自摸 without a bonus

@pytest.mark.parametrize("self_draw_rule, players, net", [
    # "each other seat pays V (no +1)": 平胡 V = 1 self-drawn, 1 from each.
    ("plain", 4, [3, -1, -1, -1]),
    ("plain", 3, [2, -1, -1]),
    # "seen also: 2V+1": 2 × 1 + 1 = 3 from each.
    ("double_plus_one", 4, [9, -3, -3, -3]),
    ("double_plus_one", 3, [6, -3, -3]),
])
def test_r45_self_draw_without_a_bonus(self_draw_rule, players, net):
    seats = [PING_BARE, READY_1, FILL_A, FILL_B][:players]
    s = settle(seats, self_draw(0, "8m"), options={"self_draw": self_draw_rule})
    assert s.net == net
    assert {i.rule for i in s.items} == {"R45"}


# ---------------------------------------------------------------------------------- R46 抢杠 amounts

@pytest.mark.parametrize("robbed_kong, points", [
    ("pay_all", 3 * 2),        # R14 as 贵阳 plays it: (N−1) × (V+1) = 3 × 2
    ("pay_all_plain", 3 * 1),  # "the robbed seat pays (N−1)·V (no self-draw bonus)"
    ("four_v", 4 * 1),         # "or 4V"
    ("v_plus_one", 1 + 1),     # "or V+1"
])
def test_r46_robbed_kong_amounts(robbed_kong, points):
    # Seat 0 wins 平胡 (V = 1) on the 5条 seat 2 adds to its pong.
    s = settle(ROBBED, discard_win(2, (0, "5s"), robbed=True), options={"robbed_kong": robbed_kong})
    rule = "R14" if robbed_kong == "pay_all" else "R46"
    assert item_set(s, "hu.robbed") == [(2, 0, points, "hu.robbed", rule)]


# ---------------------------------------------------------------------------------- R47 热炮 doubled

# Seat 0's 大对子 (V = 5) on seat 3's 7条, discarded right after its 闷豆 of 4条.
HOT = [DA_DUI, FILL_A, FILL_B, "11s678m123p56s M4s"]


@pytest.mark.parametrize("bonus, points, rule", [
    ("one", 5 + 1, "R13"),     # 贵阳: V + 1
    ("double", 2 * 5, "R47"),  # "the discarder pays 2V"
])
def test_r47_hot_shot_doubled(bonus, points, rule):
    s = settle(HOT, discard_win(3, (0, "7s"), hot_kong="4s"), options={"hot_shot_bonus": bonus})
    assert item_set(s, "hu.hot_shot") == [(3, 0, points, "hu.hot_shot", rule)]
    assert not item_set(s, "dou.men")  # 贵阳 keeps the hot kong void (`hot_shot_burn: kong`)


# ---------------------------------------------------------------------------------- R48 本鸡

@pytest.mark.parametrize("turned_chicken, turned, net", [
    # "the turned tile itself is a chicken": turned 8筒 → 8筒; seat 0 holds three: worth 3.
    # seat 0: 5 + 3×3 = 14; seats 1, 3: −3; seat 2: −5 − 3
    ("self", "8p", [14, -3, -8, -3]),
    # "besides 下一张": 8筒 and 9筒; seat 0 worth 3, seat 1 (ready) worth 2.
    # seat 0: 5 + 9 − 2 = 12; seat 1: 6 − 3 = 3; seat 2: −5 − 3 − 2 = −10; seat 3: −3 − 2 = −5
    ("self_next", "8p", [12, 3, -10, -5]),
    # 本鸡 of 9筒 alone: seat 1 worth 2. seat 0: 5 − 2; seat 1: 6; seat 2: −5 − 2; seat 3: −2
    ("self", "9p", [3, 6, -7, -2]),
])
def test_r48_ben_ji(turned_chicken, turned, net):
    s = settle(TURNED, discard_win(2, (0, "7s")), options={"turned_chicken": turned_chicken}, turned=turned)
    assert s.net == net
    cited = {(i.words[0][1], i.rule) for i in s.items if i.reason == "ji.turned"}
    assert cited <= {(turned, "R48"), ("9p", "R19")}
    assert (turned, "R48") in cited


def test_r48_ben_ji_of_a_turned_yaoji_is_gold():
    # "金鸡 if it is 1条": turned 1条 itself makes 幺鸡 gold, so seat 3's unclaimed first 幺鸡 is a
    # 冲锋金鸡 worth 4 (R22). seat 0: 5 − 4; seat 1: −4; seat 2: −5 − 4; seat 3: 3 × 4
    s = settle(CHONG_FENG, discard_win(2, (0, "7s")), options={"turned_chicken": "self"}, turned="1s",
               first_yaoji=(3, None))
    assert s.net == [1, -4, -9, 12]
    assert item_set(s, "ji.chong_feng")[0][2:] == (4, "ji.chong_feng", "R22")


# ---------------------------------------------------------------------------------- R49 包鸡 on shown chickens

# COLLECTORS with seat 2's 幺鸡 discarded instead of held (seat 2 still not ready).
SHOWN = [*COLLECTORS[:2], seat("12468m3579p2579s", discards="1s"), COLLECTORS[3]]


@pytest.mark.parametrize("preset, seats, bao_ji, net, billed", [
    # 兴义, seat 2 holds its 幺鸡 (concealed: 2). 包鸡 of its whole worth: it pays 2 to seats 0 and 1.
    ("xingyi", COLLECTORS, "all", [17, 4, -10, -11], 2),
    # "never for concealed ones": on shown chickens only it pays nothing. seat 0: 17 − 2; seat 1: 4 − 2;
    # seat 2: −10 + 4
    ("xingyi", COLLECTORS, "shown", [15, 2, -6, -11], 0),
    # 贵阳, seat 2 discarded its 幺鸡 (满堂鸡: 1): "discarded 幺鸡" are billed either way.
    # seat 0: 5 + 2×3 − 1 + 1 = 11; seat 1: 3 − 2 + 1 = 2; seat 2: −2 − 1 − 2 = −5; seat 3: −5 − 2 − 1 = −8
    ("guiyang", SHOWN, "all", [11, 2, -5, -8], 1),
    ("guiyang", SHOWN, "shown", [11, 2, -5, -8], 1),
])
def test_r49_bao_ji_on_shown_chickens_only(preset, seats, bao_ji, net, billed):
    s = settle(seats, discard_win(3, (0, "5m")), preset=preset,
               options={"chicken_collectors": "ready_or_pay", "bao_ji": bao_ji})
    assert s.hands[2].status == "not_ready"
    assert s.net == net
    rule = "R49" if bao_ji == "shown" else "R24"
    assert item_set(s, "ji.bao") == ([(2, 0, billed, "ji.bao", rule), (2, 1, billed, "ji.bao", rule)]
                                     if billed else [])


# ---------------------------------------------------------------------------------- R50 chickens flow to ready seats

@pytest.mark.parametrize("seats, net", [
    # Ready: seat 0 (worth 2), seat 1 (worth 1). "ready seats do not pay each other's chickens;
    # each ready seat collects its worth from each not-ready seat":
    # seat 0: 5 + 2×2 = 9; seat 1: 1×2 = 2; seat 2: −2 − 1 = −3; seat 3: −5 − 2 − 1 = −8
    (COLLECTORS, [9, 2, -3, -8]),
    # "a not-ready seat's discarded 幺鸡 count for every ready seat": seat 2 discarded one, it pays
    # 1 more to seat 0 and to seat 1. seat 0: 10; seat 1: 3; seat 2: −3 − 2 = −5; seat 3: −8
    (SHOWN, [10, 3, -5, -8]),
    # Three players: seat 2 alone is not ready. seat 0: 5 + 2; seat 1: 1; seat 2: −5 − 2 − 1
    (COLLECTORS[:3], [7, 1, -8]),
])
def test_r50_chickens_flow_only_from_not_ready_to_ready(seats, net):
    outcome = discard_win(3 if len(seats) == 4 else 2, (0, "5m"))
    s = settle(seats, outcome, options={"chicken_flow": "to_ready"})
    assert s.net == net
    ready = {h.seat for h in s.hands if h.ready}
    assert all(i.payer not in ready for i in s.items if i.reason.startswith("ji."))


def test_r50_when_every_seat_is_ready_no_chicken_moves():
    # Three players, all ready: seat 0 wins, seat 1 waits, and seat 2 (READY_1) waits too.
    seats = COLLECTORS[:2] + ["234s456s99s345p67m"]
    s = settle(seats, discard_win(2, (0, "5m")), options={"chicken_flow": "to_ready"})
    assert all(h.ready for h in s.hands)
    assert s.net == [5, 0, -5]  # the 大对子 alone


# Who pays a ready holder's 冲锋鸡 under R50 (issue 21, decision 3): seat 3 (ready) discarded the
# unclaimed first 幺鸡; seat 0 wins 大对子 (V = 5) on seat 2's 7条; seats 1 and 2 are not ready.
@pytest.mark.parametrize("flow, turned, net, ready_pays", [
    # to_ready: only the not-ready seats 1 and 2 pay seat 3 its 冲锋鸡 2 (the winner, ready, does not):
    # seat 0: 5; seat 1: −2; seat 2: −5 − 2; seat 3: 2 × 2.
    ("to_ready", None, [5, -2, -7, 4], False),
    # to_ready_chong_feng_all (the table R50 comes from): every other seat pays it, the winner too:
    # seat 0: 5 − 2; seat 1: −2; seat 2: −7; seat 3: 3 × 2.
    ("to_ready_chong_feng_all", None, [3, -2, -7, 6], True),
    # 金鸡 (turned 9条): the 冲锋金鸡 4. to_ready: seat 3: 2 × 4; the other: 3 × 4, seat 0: 5 − 4.
    ("to_ready", "9s", [5, -4, -9, 8], False),
    ("to_ready_chong_feng_all", "9s", [1, -4, -9, 12], True),
])
def test_r50_who_pays_a_ready_holders_chong_feng(flow, turned, net, ready_pays):
    s = settle(CHONG_FENG, discard_win(2, (0, "7s")), turned=turned, first_yaoji=(3, None),
               options={"chicken_flow": flow})
    assert s.net == net
    paid_by_winner = [i for i in s.items if i.reason == "ji.chong_feng" and i.payer == 0]
    assert [(i.payee, i.rule) for i in paid_by_winner] == ([(3, "R50")] if ready_pays else [])


def test_r50_chong_feng_all_moves_nothing_else_between_ready_seats():
    # COLLECTORS has no 冲锋鸡: both values of R50 settle it alike ([9, 2, −3, −8], see above).
    for flow in ("to_ready", "to_ready_chong_feng_all"):
        assert settle(COLLECTORS, discard_win(3, (0, "5m")), options={"chicken_flow": flow}).net == [9, 2, -3, -8]


# ---------------------------------------------------------------------------------- R51 冲锋鸡 on top

@pytest.mark.parametrize("turned, worth", [
    # "adds 2 (金 4) on top of the tile's own worth": the discarded 幺鸡 1 + 冲锋鸡 2 = 3
    (None, 1 + 2),
    # 金鸡 (turned 9条): the discarded 幺鸡 doubled, 2, + 冲锋金鸡 4 = 6
    ("9s", 2 + 4),
])
def test_r51_chong_feng_on_top(turned, worth):
    s = settle(CHONG_FENG, discard_win(2, (0, "7s")), turned=turned, first_yaoji=(3, None),
               options={"chong_feng_on_top": True})
    # seat 3 collects its worth from each: seat 0: 5 − w; seat 1: −w; seat 2: −5 − w; seat 3: 3w
    assert s.net == [5 - worth, -worth, -5 - worth, 3 * worth]
    assert {i.rule for i in s.items if i.reason == "ji.chong_feng"} == {"R51"}


# ---------------------------------------------------------------------------------- R52 豆 倒赔

@pytest.mark.parametrize("kong, net", [
    # Seat 3 (not ready) has a 闷豆: "it pays each ready seat the 豆 value": 2 to seats 0 and 1.
    # Otherwise COLLECTORS' [10, 1, −3, −8]: seat 0: 10 + 2; seat 1: 1 + 2; seat 3: −8 − 4
    ("M8s", [12, 3, -3, -12]),
    # "a 点豆: to its feeder, if ready": fed by seat 1 (ready), 1 to seat 1 only.
    ("D8s<1", [10, 2, -3, -9]),
    # fed by seat 2, which is not ready: nothing.
    ("D8s<2", [10, 1, -3, -8]),
])
def test_r52_dou_paid_back(kong, net):
    seats = [*COLLECTORS[:3], f"13479m125p24s {kong}"]
    s = settle(seats, discard_win(3, (0, "5m")), options={"dou_reverse": True})
    assert s.hands[3].status == "not_ready"
    assert s.net == net
    assert {i.rule for i in s.items if i.reason == "dou.reverse"} <= {"R52"}


def test_r52_needs_the_kong_to_count():
    # Under `dou_collectors: all` a not-ready seat collects its own 豆, so nothing is paid back.
    seats = [*COLLECTORS[:3], "13479m125p24s M8s"]
    s = settle(seats, discard_win(3, (0, "5m")), options={"dou_reverse": True, "dou_collectors": "all"})
    assert not item_set(s, "dou.reverse")
    assert len(item_set(s, "dou.men")) == 3


# ---------------------------------------------------------------------------------- R53 封顶

def test_r53_cap():
    # YAOJI_MELDED under 贵阳 with 金鸡: seat 2 pays seat 0 its 大对子 5 + chickens 6 = 11; seat 3
    # pays 6 + 责任金鸡 2 = 8; seat 1 pays 6 and collects 2 (net 4). Capped at 8, seat 0 gives seat 2
    # back 11 − 8 = 3: seat 0: 23 − 3 = 20; seat 2: −13 + 3 = −10.
    s = settle(YAOJI_MELDED, discard_win(2, (0, "5m")), turned="9s", first_yaoji=(3, 0), options={"cap": 8})
    assert s.net == [20, 0, -10, -10]
    assert item_set(s, "cap") == [(0, 2, 3, "cap", "R53")]
    # "e.g. 30": nothing here reaches it.
    s = settle(YAOJI_MELDED, discard_win(2, (0, "5m")), turned="9s", first_yaoji=(3, 0), options={"cap": 30})
    assert s.net == [23, 0, -13, -10] and not item_set(s, "cap")


# ---------------------------------------------------------------------------------- R54 责任鸡 not doubled

def test_r54_ze_ren_not_doubled_on_gold():
    # "no peer doubles 责任鸡 on 金鸡": 1 instead of R23's 1 × 2. seat 0: 23 − 1; seat 3: −10 + 1
    s = settle(YAOJI_MELDED, discard_win(2, (0, "5m")), turned="9s", first_yaoji=(3, 0),
               options={"ze_ren_gold": False})
    assert s.net == [22, 0, -13, -9]
    assert item_set(s, "ji.ze_ren") == [(3, 0, 1, "ji.ze_ren", "R54")]


# ---------------------------------------------------------------------------------- R55 吹风鸡

def test_r55_a_turned_5_dots_blows_every_chicken_away():
    # COLLECTORS' 幺鸡 and YAOJI_MELDED's 责任鸡 all count for nothing: the 大对子 5 alone.
    s = settle(COLLECTORS, discard_win(3, (0, "5m")), turned="5p", options={"chui_feng": True})
    assert s.net == [5, 0, 0, -5]
    s = settle(YAOJI_MELDED, discard_win(2, (0, "5m")), turned="5p", first_yaoji=(3, 0),
               options={"chui_feng": True})
    assert s.net == [5, 0, -5, 0]
    # Another turned tile: chickens as usual.
    assert settle(COLLECTORS, discard_win(3, (0, "5m")), turned="5s", options={"chui_feng": True}).net != [5, 0, 0, -5]


# ---------------------------------------------------------------------------------- R56 杀报 by kind

@pytest.mark.parametrize("declared, bonus", [("hard", 20), ("soft", 10)])  # "20 硬报 / 10 软报"
def test_r56_each_declarer_pays_its_own_bonus_on_a_self_draw(declared, bonus):
    data = record([PING_BARE, READY_1, FILL_A, FILL_B], self_draw(0, "8m"),
                  options={"declare_kill_by_kind": True})
    data["seats"][1]["declared"] = declared
    s = settle_record(data)
    # 平胡 V = 1 self-drawn: 2 from each; seat 1 pays its own bonus on top (贵阳's fixed number is 0).
    assert s.net == [6 + bonus, -2 - bonus, -2, -2]
    assert item_set(s, "bao.kill") == [(1, 0, bonus, "bao.kill", "R56")]


# ---------------------------------------------------------------------------------- R57 点豆 paid by the konger

@pytest.mark.parametrize("dian_payer, net", [
    # 平胡 on seat 2's 8万 with a 点豆 of 7条 fed by seat 2 (test_win): seat 2 pays 1 + 1.
    ("feeder", [1 + 1, 0, -2, 0]),
    # "the reverse direction": seat 0 pays its feeder the 点豆 1. seat 0: 1 − 1; seat 2: −1 + 1
    ("konger", [0, 0, 0, 0]),
])
def test_r57_dian_dou_paid_by_the_konger(dian_payer, net):
    s = settle(["123m456p789p88m D7s<2", READY_1, FILL_A, FILL_B], discard_win(2, (0, "8m")),
               options={"dian_payer": dian_payer})
    assert s.net == net
    if dian_payer == "konger":
        assert item_set(s, "dou.dian") == [(0, 2, 1, "dou.dian", "R57")]


def test_r57_a_feeder_that_collects_nothing_is_paid_nothing():
    # The same round with seat 2, the feeder, a 相公 (R37): it collects nothing, so no 点豆 moves.
    data = record(["123m456p789p88m D7s<2", READY_1, FILL_A, FILL_B], discard_win(2, (0, "8m")),
                  options={"dian_payer": "konger"})
    data["seats"][2]["xiang_gong"] = True
    s = settle_record(data)
    assert item_set(s, "dou.dian") == []
    assert ("dou", 2, "xiang_gong", "dian", "7s") in s.void


# ---------------------------------------------------------------------------------- R58 报听 as a floor

@pytest.mark.parametrize("floor, value", [
    (False, 1 + 17),     # R11: pattern + bonus
    (True, max(1, 17)),  # "max(pattern, bonus) instead of pattern + bonus (values seen: 17 dealer …)"
])
def test_r58_declaration_as_a_floor(floor, value):
    data = record(["123m456p789p88m M7s", READY_1, FILL_A, FILL_B], discard_win(2, (0, "8m")),
                  options={"declare_floor": floor, "declare": {"hard": 17}})
    data["seats"][0]["declared"] = "hard"
    s = settle_record(data)
    assert s.hands[0].value == value
    assert item_set(s, "hu.discard") == [(2, 0, value, "hu.discard", "R11")]


# ---------------------------------------------------------------------------------- R59 庄家加番 / 连庄

@pytest.mark.parametrize("dealer, options, streak, net", [
    # "a dealer's win … moves 1 more per payer": the dealer self-draws 平胡, each pays 2 + 1.
    (0, {"dealer_bonus": 1}, 0, [9, -3, -3, -3]),
    # "… or loss": seat 0 self-draws while seat 1 deals; only the dealer pays 2 + 1.
    (1, {"dealer_bonus": 1}, 0, [7, -3, -2, -2]),
    # "+1 per consecutive dealership (the streak comes from the evening)": the dealer's third round
    # in a row (streak 2): each pays 2 + 1 + 2.
    (0, {"dealer_bonus": 1, "dealer_streak_bonus": 1}, 2, [15, -5, -5, -5]),
    # Off (every preset): the streak changes nothing.
    (0, {}, 2, [6, -2, -2, -2]),
])
def test_r59_dealer_bonus_and_streak(dealer, options, streak, net):
    data = record([PING_BARE, READY_1, FILL_A, FILL_B], self_draw(0, "8m"), dealer=dealer, options=options)
    data["dealer_streak"] = streak
    s = settle_record(data)
    assert s.net == net
    assert {i.rule for i in s.items if i.reason == "hu.dealer"} <= {"R59"}


def test_r59_three_players():
    # Seat 0 self-draws 平胡 while seat 2 deals: seat 1 pays 2, the dealer 2 + 1.
    data = record([PING_BARE, READY_1, FILL_A], self_draw(0, "8m"), dealer=2, options={"dealer_bonus": 1})
    assert settle_record(data).net == [5, -2, -3]


# The dealer robbing a kong (issue 21, decision 2): R14 has the robbed seat pay what a self-draw would
# cost all the others, so it pays the bonus as each of them would, (N − 1) × bonus.
@pytest.mark.parametrize("dealer, robbed_kong, hu, extra", [
    # Seat 0 (平胡 V = 1) robs seat 2's 5条; ROBBED's pay_all is 3 × (1 + 1) = 6.
    (0, "pay_all", 6, 3 * 1),          # the dealer wins: 3 × 1 (a dealer's 自摸 moves 1 more per payer)
    (0, "qing_yi_se", 10, 3 * 1),      # 兴义's single payment, max(1, 清一色 10): still 3 × 1
    (0, "v_plus_one", 2, 3 * 1),       # R46 V + 1: 3 × 1
    (2, "pay_all", 6, 1),              # the robbed seat deals: it pays as the dealer would, once
    (1, "pay_all", 6, 0),              # a third seat deals: neither wins nor pays, nothing moves
])
def test_r59_the_dealer_robbing_a_kong_is_paid_the_bonus_for_every_other_seat(dealer, robbed_kong, hu, extra):
    s = settle(ROBBED, discard_win(2, (0, "5s"), robbed=True), dealer=dealer,
               options={"dealer_bonus": 1, "robbed_kong": robbed_kong})
    assert item_set(s, "hu.robbed")[0][:3] == (2, 0, hu)
    assert item_set(s, "hu.dealer") == ([(2, 0, extra, "hu.dealer", "R59")] if extra else [])


def test_r59_the_dealer_robbing_a_kong_at_three_seats_with_a_streak():
    # Three seats, the dealer (seat 0) robs seat 2's 5条 in its third round in a row (streak 2):
    # extra = 1 + 1 × 2 = 3 per payer, and seat 2 pays for both others: 2 × 3 = 6 besides the
    # 2 × (1 + 1) = 4 of R14. Without the options [0, −4, 4]: seat 0: 0 + 6; seat 2: 4 − 6.
    data = record([ROBBED[0], ROBBED[1], "11s789m78p P5s<1 M9s"], discard_win(2, (0, "5s"), robbed=True),
                  options={"dealer_bonus": 1, "dealer_streak_bonus": 1})
    data["dealer_streak"] = 2
    s = settle_record(data)
    assert item_set(s, "hu.dealer") == [(2, 0, 6, "hu.dealer", "R59")]
    assert s.net == [6, -4, -2]


# ---------------------------------------------------------------------------------- R60 单钓 / 大吊车

# Four melds, the concealed 5筒 waited on its pair: seat 2 feeds the second 5筒. Mixed suits (大对子 5),
# and one suit (清大对 15).
DAN_DIAO = "55p P2m<1 P9m<2 P8s<3 P7s<1"
QING_DAN_DIAO = "55m P1m<1 P2m<2 P3m<3 P9m<1"


@pytest.mark.parametrize("hand, tile, options, pattern, value", [
    (DAN_DIAO, "5p", {}, "da_dui_zi", 5),                                   # off (every preset): 大对子 5
    (DAN_DIAO, "5p", {"dan_diao": 10}, "dan_diao", 10),                     # "单钓 10"
    (DAN_DIAO, "5p", {"dan_diao": 17}, "dan_diao", 17),                     # "(or 大吊车 17)"
    (QING_DAN_DIAO, "5m", {}, "qing_da_dui", 15),                           # off: 清大对 15
    (QING_DAN_DIAO, "5m", {"dan_diao": 10, "qing_dan_diao": 20}, "qing_dan_diao", 20),  # "one-suit 清单钓 20"
    (QING_DAN_DIAO, "5m", {"dan_diao": 10}, "qing_da_dui", 15),             # no 清单钓 value: max(15, 10)
    (QING_DAN_DIAO, "5m", {"dan_diao": 17}, "dan_diao", 17),                # max(清大对 15, 大吊车 17)
])
def test_r60_dan_diao(hand, tile, options, pattern, value):
    s = settle([hand, READY_1, FILL_A, FILL_B], discard_win(2, (0, tile)), options=options)
    # R11: the discarder alone pays V, named by the pattern it was read as.
    assert [(i.payer, i.payee, i.points, i.words[0]) for i in s.items] == [(2, 0, value, (pattern, value))]


def test_r60_dan_diao_self_drawn_at_three_seats():
    # 清单钓 20 self-drawn at three seats: each other pays 20 + 1 (R12).
    s = settle(["55m P1m<1 P2m<2 P3m<1 P9m<2", READY_1, FILL_A], self_draw(0, "5m"), options={"qing_dan_diao": 20})
    assert s.net == [2 * 21, -21, -21]


def test_r60_the_wait_is_worth_dan_diao_on_a_draw():
    # 荒庄 (R33): the lone 5万 waits on its pair, a 叫 value of 清单钓 20; each seat not ready pays 20.
    s = settle(["5m P1m<1 P2m<2 P3m<3 P9m<1", SPREAD, SPREAD, SPREAD], draw(), options={"qing_dan_diao": 20})
    assert (s.hands[0].status, s.hands[0].value) == ("ready", 20)
    assert s.net == [3 * 20, -20, -20, -20]


# ---------------------------------------------------------------------------------- R61 多龙七对

SPREAD = "4m6m8m3p4p6p8p9p3s4s6s8s9s"  # not ready, no chicken: a payer


@pytest.mark.parametrize("preset, hand, tile, pattern, value", [
    ("guiyang", "1111m2222p33m55s77s", "7s", "shuang_long_qi_dui", 30),          # "双龙 30" = 20 + 10
    ("guiyang", "1111m2222p5555s77s", "7s", "san_long_qi_dui", 40),              # "三龙 40" = 20 + 2 × 10
    ("guiyang", "1111m2222m33m55m77m", "7m", "qing_shuang_long_qi_dui", 40),     # "one suit 30/40/50": 30 + 10
    ("guiyang", "1111m2222m5555m77m", "7m", "qing_san_long_qi_dui", 50),         # 30 + 2 × 10
    ("xingyi", "1111m2222m5555m77m", "7m", "qing_san_long_qi_dui", 60),          # 兴义's 清龙七对 40 + 2 × 10
    ("guiyang", "1111m22p33m55s77s11p", "7s", "long_qi_dui", 20),                # one four: 龙七对 as before
])
def test_r61_duo_long_qi_dui(preset, hand, tile, pattern, value):
    s = settle([hand, SPREAD, SPREAD, SPREAD], self_draw(0, tile), preset=preset, options={"duo_long": 10})
    # R12 自摸 (plus_one in both presets): each other seat pays V + 1.
    assert s.net == [3 * (value + 1), -(value + 1), -(value + 1), -(value + 1)]
    assert s.items[0].words[0] == (pattern, value)


def test_r61_off_in_every_preset_and_at_three_seats():
    # Off: 双龙 is a 龙七对, 20 + 1 from each.
    assert settle(["1111m2222p33m55s77s", SPREAD, SPREAD], self_draw(0, "7s")).net == [42, -21, -21]
    # On at three seats: 30 + 1 from each.
    assert settle(["1111m2222p33m55s77s", SPREAD, SPREAD], self_draw(0, "7s"),
                  options={"duo_long": 10}).net == [62, -31, -31]


# ---------------------------------------------------------------------------------- R62 天胡 / 地胡

def first_draw(players: int, dealer: int, options: dict, *, outcome=None) -> dict:
    # Seat 0 self-draws 平胡 (V = 1) on the 8万, recorded as its first 14 / first draw.
    data = record([PING_BARE, READY_1, FILL_A, FILL_B][:players], outcome or self_draw(0, "8m"),
                  dealer=dealer, options=options)
    data["outcome"]["first_draw"] = True
    return data


@pytest.mark.parametrize("players, dealer, options, each, rule", [
    (4, 0, {"tian_hu": 33, "di_hu": 23}, 33, "R62"),  # "the dealer wins on its first 14": 33 from each
    (4, 1, {"tian_hu": 33, "di_hu": 23}, 23, "R62"),  # "a non-dealer on its first draw": 23 from each
    (3, 0, {"tian_hu": 33, "di_hu": 23}, 33, "R62"),  # three seats: two payers
    (4, 0, {"tian_di_bonus": 10}, 1 + 10 + 1, "R62"),  # "or +10": V = 1 + 10, self-drawn V + 1
    (4, 1, {"tian_hu": 33, "tian_di_bonus": 10}, 1 + 10 + 1, "R62"),  # no 地胡 value: the +10
    (4, 0, {}, 1 + 1, "R12"),  # off (every preset): a plain 自摸
])
def test_r62_tian_hu_di_hu(players, dealer, options, each, rule):
    s = settle_record(first_draw(players, dealer, options))
    assert s.net == [(players - 1) * each] + [-each] * (players - 1)
    assert {i.rule for i in s.items} == {rule}


def test_r62_is_a_self_draw_only():
    data = first_draw(4, 0, {"tian_hu": 33}, outcome=discard_win(2, (0, "8m")))
    with pytest.raises(RecordInvalid) as raised:
        settle_record(data)
    assert "bad_outcome" in [p.code for p in raised.value.problems]


def test_r62_a_record_without_it_reads_as_before():
    data = record([PING_BARE, READY_1, FILL_A, FILL_B], self_draw(0, "8m"), options={"tian_hu": 33})
    s = settle_record(data)
    assert s.net == [6, -2, -2, -2] and "first_draw" not in s.record.outcome.to_dict()


# ---------------------------------------------------------------------------------- R63 开局跟

@pytest.mark.parametrize("players, dealer, outcome, options, net", [
    # "the dealer pays each 4": seat 1 deals, nobody wins (no seat ready is paid for, R33).
    (4, 1, draw(), {"gen_zhuang": 4}, [4, -12, 4, 4]),
    (3, 1, draw(), {"gen_zhuang": 4}, [4, -8, 4]),
    # Beside a win: seat 0 wins 平胡 (its 闷豆 the pass) on seat 2's 8万, paid 1 (R11) and 2 from each
    # for the 闷豆 (R16); as dealer it pays the others 4 each: [1 + 6 − 12, 4 − 2, 4 − 1 − 2, 4 − 2].
    (4, 0, discard_win(2, (0, "8m")), {"gen_zhuang": 4}, [1 + 6 - 12, 4 - 2, 4 - 1 - 2, 4 - 2]),
    (4, 1, draw(), {}, [0, 0, 0, 0]),  # off (every preset)
])
def test_r63_kai_ju_gen(players, dealer, outcome, options, net):
    first = "123m456p789p88m M7s" if outcome["type"] == "win" else FILL_B
    seats = [first, FILL_A, FILL_B, FILL_A][:players]
    data = record(seats, outcome, dealer=dealer, options=options)
    data["kai_ju_gen"] = True
    s = settle_record(data)
    assert s.net[:players] == net[:players]
    assert {i.rule for i in s.items if i.reason == "penalty.gen_zhuang"} <= {"R63"}


# ---------------------------------------------------------------------------------- R64 星期鸡

@pytest.mark.parametrize("weekday, options, worth", [
    # A Wednesday (3), "1 a tile": the winner (seat 0, 平胡 on seat 2's 8万, its 闷豆 the pass) holds a
    # 3万: worth 1; ready seat 1 holds a 3条 and a 3筒: worth 2. Each collects from each other seat.
    (3, {"xing_qi_ji": True}, {0: 1, 1: 2}),
    (3, {}, {}),                        # off (every preset): no 星期鸡
    (None, {"xing_qi_ji": True}, {}),   # no weekday recorded: none either
])
def test_r64_xing_qi_ji(weekday, options, worth):
    data = record(["123m456p789p88m M7s", READY_1, FILL_A, FILL_B], discard_win(2, (0, "8m")), options=options)
    if weekday:
        data["weekday"] = weekday
    s = settle_record(data)
    collected = {}
    for i in s.items:
        if i.reason == "ji.xing_qi":
            collected[i.payee] = collected.get(i.payee, 0) + i.points
    # Not-ready seats 2 and 3 hold a 3 too (FILL_A 3p… FILL_B 3m, 3p) but do not collect (R24).
    assert collected == {seat: 3 * w for seat, w in worth.items()}
    assert {i.rule for i in s.items if i.reason == "ji.xing_qi"} <= {"R64"}


def test_r64_melds_count_three_and_four_and_a_mondays_yaoji_stays_a_yaoji():
    # Friday (5): the winner's pong of 5万 is 3, its 闷豆 of 5条 4: "碰 3, 杠 4" (3 players).
    seats = ["123m678p88m P5m<1 M5s", "234s789s11s345p67m", FILL_A]
    data = record(seats, self_draw(0, "8m"), options={"xing_qi_ji": True})
    data["weekday"] = 5
    s = settle_record(data)
    assert [i.words for i in s.items if i.reason == "ji.xing_qi" and (i.payer, i.payee) == (1, 0)] == [
        (("xing_qi", "5m", 3),), (("xing_qi", "5s", 4),)]
    # Monday (1): 1万 are 星期鸡, seat 1's two 1条 stay 幺鸡 (R21) and are not counted again.
    data["weekday"] = 1
    items = settle_record(data).items
    assert [i.words for i in items if i.reason == "ji.yaoji" and i.payee == 1] == [(("yaoji", 2),)] * 2
    assert not [i for i in items if i.words[0][:2] == ("xing_qi", "1s")]


# ---------------------------------------------------------------------------------- R65 冲锋鸡 sub-variants

@pytest.mark.parametrize("turned, net", [
    # "some tables move it to a ready claimer": seat 0 (the winner, ready) ponged seat 3's first 幺鸡.
    # test_chickens' 贵阳 row [14, 0, −9, −5] plus the 冲锋鸡 2 from each of the three others to seat 0.
    (None, [14 + 3 * 2, 0 - 2, -9 - 2, -5 - 2]),
    # 金鸡 (turned 9条): [23, 0, −13, −10] plus the 冲锋金鸡 4 from each.
    ("9s", [23 + 3 * 4, 0 - 4, -13 - 4, -10 - 4]),
])
def test_r65_chong_feng_moved_to_a_ready_claimer(turned, net):
    s = settle(YAOJI_MELDED, discard_win(2, (0, "5m")), turned=turned, first_yaoji=(3, 0),
               options={"chong_feng_claimed": True})
    assert s.net == net
    assert {i.rule for i in s.items if i.reason == "ji.chong_feng"} == {"R65"}
    assert item_set(s, "ji.ze_ren")  # 责任鸡 (R23) is paid as before


# Seat 3 is not ready and discarded the round's first 幺鸡, unclaimed; seat 0 wins 大对子 on seat 2's 7条.
NOT_READY_HOLDER = [*CHONG_FENG[:3], seat("13479m125p24589s", discards="1s")]


@pytest.mark.parametrize("players, turned, each", [
    (4, None, 2),   # "a not-ready holder pays each ready seat 2"
    (4, "9s", 4),   # 金鸡: the 冲锋金鸡 worth, 4
    (3, None, 2),   # three seats (seat 2 holds it there)
])
def test_r65_a_not_ready_holder_pays_each_ready_seat(players, turned, each):
    seats = NOT_READY_HOLDER if players == 4 else [*CHONG_FENG[:2], seat("3679m1234p25679s", discards="1s")]
    holder = players - 1
    outcome = discard_win(1, (0, "7s"))
    s = settle(seats, outcome, turned=turned, first_yaoji=(holder, None), options={"chong_feng_pays": True})
    ready = [h.seat for h in s.hands if h.ready]
    assert holder not in ready
    assert sorted((i.payer, i.payee, i.points, i.rule) for i in s.items if i.reason == "ji.chong_feng") == [
        (holder, r, each, "R65") for r in ready]
    off = settle(seats, outcome, turned=turned, first_yaoji=(holder, None))
    assert not item_set(off, "ji.chong_feng")  # off (every preset): a not-ready seat's 冲锋鸡 is nothing


# R65 "moved to a ready claimer" (issue 21): seat 1 ponged seat 3's first 幺鸡 (its own three 幺鸡 are
# worth 3) but is not ready; seat 0 wins 大对子 (V = 5) on seat 2's 7条. Seat 3 is ready (waits 9筒)
# in the first fixture, not ready in the second.
CLAIMED_NOT_READY = [*ZE_REN_NOT_READY[:3], "456s345m678m456p9p"]


@pytest.mark.parametrize("seats, options, net", [
    # Without 包鸡 a claimer that is not ready pays no 冲锋鸡: it stays its ready discarder's, which
    # collects 2 from each other seat, whether chong_feng_pays is on or not:
    # seat 0: 5 − 2; seat 1: −2; seat 2: −5 − 2; seat 3: 3 × 2.
    (CLAIMED_NOT_READY, {"chong_feng_claimed": True}, [3, -2, -7, 6]),
    (CLAIMED_NOT_READY, {"chong_feng_claimed": True, "chong_feng_pays": True}, [3, -2, -7, 6]),
    # 包鸡 (R24): the not-ready claimer pays its own out, 3 幺鸡 + 冲锋鸡 2 = 5 to each ready seat
    # (0 and 3): seat 0: 5 + 5; seat 1: −10; seat 2: −5; seat 3: +5. chong_feng_pays adds nothing.
    (CLAIMED_NOT_READY, {"chong_feng_claimed": True, "chicken_collectors": "ready_or_pay"}, [10, -10, -5, 5]),
    (CLAIMED_NOT_READY, {"chong_feng_claimed": True, "chong_feng_pays": True,
                         "chicken_collectors": "ready_or_pay"}, [10, -10, -5, 5]),
    # Both claimer and discarder not ready: the 冲锋鸡 stays seat 3's and is collected by nobody
    # ([5, 0, −5, 0] as without R65); with chong_feng_pays seat 3, a not-ready holder, pays the one
    # ready seat 2: seat 0: 5 + 2; seat 3: −2.
    (ZE_REN_NOT_READY, {"chong_feng_claimed": True}, [5, 0, -5, 0]),
    (ZE_REN_NOT_READY, {"chong_feng_claimed": True, "chong_feng_pays": True}, [7, 0, -5, -2]),
])
def test_r65_a_claimer_that_is_not_ready_leaves_the_chong_feng_with_its_discarder(seats, options, net):
    s = settle(seats, discard_win(2, (0, "7s")), first_yaoji=(3, 1), options=options)
    assert [h.ready for h in s.hands][1] is False
    assert s.net == net
    # The 冲锋鸡 is seat 3's in every row: collected by it, or paid out by it, never seat 1's.
    assert all(3 in (i.payer, i.payee) for i in s.items if i.reason == "ji.chong_feng")
    assert {i.rule for i in s.items if i.reason == "ji.chong_feng"} <= {"R65"}


# The record of issue 21 (a public engine's table rules): seat 0, ready, discarded the first 幺鸡; seat 1,
# not ready, ponged it; the dealer, seat 2, self-draws 平胡 on 1万. Turned 2万: 3万 are the 翻牌鸡.
ISSUE_21_RECORD = {
    "preset": "guiyang",
    "options": {"patterns": {"xiao_qi_dui": 7, "long_qi_dui": 10, "qing_qi_dui": 17, "qing_long_qi_dui": 20},
                "jian_dou_san": True, "wu_gu_ji": 1, "dou_reverse": True, "chicken_flow": "to_ready",
                "chong_feng_on_top": True, "chong_feng_claimed": True, "chong_feng_pays": True,
                "ze_ren_gold": False, "dan_diao": 17, "robbed_kong": "four_v", "hot_shot_bonus": "double"},
    "dealer": 2,
    "seats": [
        {"concealed": "2m 3m 4m 4s 4s 1p 2p 3p 5p 6p 7p 7p 8p", "melds": [], "discards": "7s 9m 7m 4m"},
        {"concealed": "3s 4s 4p 5p 7p 8p 9p",
         "melds": [{"type": "kong", "kind": "dian", "tile": "8m", "from": 2}, {"type": "pong", "tile": "1s", "from": 0}],
         "discards": "3m 5p 5m 7m 8s 9s"},
        {"concealed": "1m 2m 3m 5m 5m 1p 2p 3p 9p 9p 9p", "melds": [{"type": "pong", "tile": "9m", "from": 3}],
         "discards": "6p 5s 9s 6p 8s 1p"},
        {"concealed": "1m 2m 3m 6m 6m 7m 4p 5p 7p 8p", "melds": [{"type": "pong", "tile": "2s", "from": 0}],
         "discards": "2p 6s 6s 8s 9s 2p"},
    ],
    "turned": "2m",
    "first_yaoji": {"seat": 0, "claimed_by": 1},
    "outcome": {"type": "win", "from": None, "winners": [{"seat": 2, "tile": "1m"}], "after_kong": False},
}


@pytest.mark.parametrize("pays", [False, True])
def test_r65_issue_21_record_the_chong_feng_stays_with_its_ready_discarder(pays):
    data = {**ISSUE_21_RECORD, "options": {**ISSUE_21_RECORD["options"], "chong_feng_pays": pays}}
    s = settle_record(data)
    assert [h.status for h in s.hands] == ["ready", "not_ready", "won", "not_ready"]
    # 自摸 平胡 (R12): 1 + 1 = 2 from each of seats 0, 1, 3.            seat 2: +6
    # 豆 倒赔 (R52): not-ready seat 1's 点豆 of 8万, fed by ready seat 2, 见豆三 3.   1 → 2: 3
    # chicken_flow to_ready (R50): ready seats 0 and 2 collect from not-ready seats 1 and 3 only.
    #   seat 0: 3万 (翻牌鸡) 1 + 8筒 (乌骨鸡 1) 1 + the 冲锋鸡 2 (it stays seat 0's: seat 1 is not
    #   ready and there is no 包鸡) = 4 from each of seats 1 and 3;    seat 0: +8
    #   seat 2: 3万 1 from each of seats 1 and 3;                        seat 2: +2
    # 责任鸡: none (seat 1 collects nothing); nobody pays a 冲锋鸡 out (the holder, seat 0, is ready).
    # seat 0: −2 + 8 = 6; seat 1: −2 − 3 − 4 − 1 = −10; seat 2: 6 + 3 + 2 = 11; seat 3: −2 − 4 − 1 = −7.
    # (Before the fix: [2, −8, 11, −5], and [4, −12, 13, −5] with chong_feng_pays: seat 1 paid 2 + 2.)
    assert s.net == [6, -10, 11, -7]
    assert item_set(s, "ji.chong_feng") == [(1, 0, 2, "ji.chong_feng", "R65"), (3, 0, 2, "ji.chong_feng", "R65")]


# ---------------------------------------------------------------------------------- R66 庄家加番 on the dealer's win only

@pytest.mark.parametrize("dealer, win_only, net", [
    # "庄家加番 on the dealer's win only (one engine)": the dealer self-draws 平胡: 2 + 1 from each, as R59.
    (0, True, [9, -3, -3, -3]),
    # seat 0 self-draws while seat 1 deals: under R59 the dealer pays 2 + 1 ([7, −3, −2, −2]);
    # on the win only it pays 2 like the others.
    (1, False, [7, -3, -2, -2]),
    (1, True, [6, -2, -2, -2]),
])
def test_r66_dealer_bonus_on_the_dealers_win_only(dealer, win_only, net):
    data = record([PING_BARE, READY_1, FILL_A, FILL_B], self_draw(0, "8m"), dealer=dealer,
                  options={"dealer_bonus": 1, "dealer_bonus_win_only": win_only})
    assert settle_record(data).net == net


def test_r66_a_dealer_feeding_a_win_pays_no_bonus_but_its_streak_still_counts_on_its_own_win():
    # Seat 3 deals (streak 2) and feeds seat 0's 大对子 (V = 5): no 加番 on the loss, 5 alone.
    data = record(CHONG_FENG[:3] + [FILL_B], discard_win(3, (0, "7s")), dealer=3,
                  options={"dealer_bonus": 1, "dealer_streak_bonus": 1, "dealer_bonus_win_only": True})
    data["dealer_streak"] = 2
    s = settle_record(data)
    assert item_set(s, "hu.dealer") == []
    assert item_set(s, "hu.discard") == [(3, 0, 5, "hu.discard", "R11")]


# ---------------------------------------------------------------------------------- R67 责任鸡 on every claimed 幺鸡

@pytest.mark.parametrize("turned, options, net, ze_ren", [
    # Seat 0 ponged a 幺鸡 from seat 3 that was not recorded as the first: no 责任鸡 (R23) in 贵阳:
    # test_chickens' [14, 0, −9, −5] less the 1 seat 3 paid. seat 0: 14 − 1; seat 3: −5 + 1.
    (None, {}, [13, 0, -9, -4], None),
    # "责任鸡 on every claimed 幺鸡, not only the first": seat 3 pays seat 0 its 1 again.
    (None, {"ze_ren_every": True}, [14, 0, -9, -5], 1),
    # 金鸡 (turned 9条): R23's 1 × 2 = 2. [23, 0, −13, −10] with it, [21, 0, −13, −8] without.
    ("9s", {}, [21, 0, -13, -8], None),
    ("9s", {"ze_ren_every": True}, [23, 0, -13, -10], 2),
    # R54 (no doubling on 金鸡): 1. seat 0: 21 + 1; seat 3: −8 − 1.
    ("9s", {"ze_ren_every": True, "ze_ren_gold": False}, [22, 0, -13, -9], 1),
])
def test_r67_ze_ren_on_every_claimed_yaoji(turned, options, net, ze_ren):
    s = settle(YAOJI_MELDED, discard_win(2, (0, "5m")), turned=turned, options=options)
    assert s.net == net
    assert item_set(s, "ji.ze_ren") == ([(3, 0, ze_ren, "ji.ze_ren", "R67")] if ze_ren else [])


def test_r67_the_first_claimed_yaoji_is_paid_once():
    # Recorded as the first 幺鸡 (R23), the same pong pays its 责任鸡 once, citing R23.
    s = settle(YAOJI_MELDED, discard_win(2, (0, "5m")), first_yaoji=(3, 0), options={"ze_ren_every": True})
    assert item_set(s, "ji.ze_ren") == [(3, 0, 1, "ji.ze_ren", "R23")]
    assert s.net == [14, 0, -9, -5]


# ---------------------------------------------------------------------------------- R68, R69: discards under R50

# SHOWN (R50's second row: seat 2, not ready, discarded a 幺鸡) with seat 3, not ready, discarding an 8筒.
# Under R50 with 乌骨鸡 1: seat 0 (won) is worth 2 幺鸡 + 888筒 3 = 5, seat 1 (ready) 1; seat 3 feeds
# the 大对子 (5). seat 0: 5 + 5 + 5 + 1 (seat 2's 幺鸡) = 16; seat 1: 1 + 1 + 1 = 3;
# seat 2: −5 − 1 − 1 − 1 = −8; seat 3: −5 − 5 − 1 = −11 — its 8筒 counts for nothing.
WU_OUT = [*SHOWN[:3], seat("13479m125p24589s", discards="8p")]
TO_READY_WU = {"chicken_flow": "to_ready", "wu_gu_ji": 1}


@pytest.mark.parametrize("options, net", [
    (TO_READY_WU, [16, 3, -8, -11]),
    # R68 "a not-ready seat's discarded 8筒 counting for ready seats like its discarded 幺鸡":
    # seat 3 pays 1 to each of seats 0 and 1. seat 0: 16 + 1; seat 1: 3 + 1; seat 3: −11 − 2
    ({**TO_READY_WU, "wu_gu_ji_to_ready": True}, [17, 4, -8, -13]),
    # 金乌骨鸡 (turned 7筒 makes 8筒 a 翻牌鸡): seat 0's 888筒 are 3 × 1 × 2 = 6 (worth 8), seat 3's
    # discarded 8筒 2 (gold_discards). seat 0: 5 + 8 + 8 + 1 + 2 = 24; seat 1: 1 + 1 + 1 + 2 = 5;
    # seat 2: −8 − 1 − 1 − 1 = −11; seat 3: −5 − 8 − 1 − 2 − 2 = −18.
    ({**TO_READY_WU, "wu_gu_ji_to_ready": True, "_turned": "7p"}, [24, 5, -11, -18]),
    # Without R50 (chicken_flow all) R68 changes nothing: seat 3 collects nothing, its 8筒 is void.
    ({"wu_gu_ji": 1, "wu_gu_ji_to_ready": True}, None),
])
def test_r68_a_not_ready_seats_discarded_wu_gu_ji_under_r50(options, net):
    options = dict(options)
    turned = options.pop("_turned", None)
    s = settle(WU_OUT, discard_win(3, (0, "5m")), turned=turned, options=options)
    if net is None:
        off = {k: v for k, v in options.items() if k != "wu_gu_ji_to_ready"}
        assert s.net == settle(WU_OUT, discard_win(3, (0, "5m")), options=off).net
        assert not [i for i in s.items if i.rule == "R68"]
        return
    assert s.net == net
    r68 = [(i.payer, i.payee, i.points) for i in s.items if i.rule == "R68"]
    assert r68 == ([(3, 0, 2 if turned else 1), (3, 1, 2 if turned else 1)]
                   if options.get("wu_gu_ji_to_ready") else [])


@pytest.mark.parametrize("options, net", [
    # R50 alone (SHOWN's row): seat 2 pays 1 per collector for its own 幺鸡, seat 3 nothing.
    ({"chicken_flow": "to_ready"}, [10, 3, -5, -8]),
    # R69 "not-ready seats paying for each other's discarded 幺鸡 pooled, not each for its own":
    # the pool is seat 2's one 幺鸡: seat 3 pays 1 to each of seats 0 and 1 as well.
    # seat 0: 10 + 1; seat 1: 3 + 1; seat 3: −8 − 2
    ({"chicken_flow": "to_ready", "discard_pool": True}, [11, 4, -5, -10]),
    # With R68 the pool holds seat 2's 幺鸡 and seat 3's 8筒: each pays 2 to each ready seat.
    # From R68's row [17, 4, −8, −13]: seat 2 pays 1 more to each (its share of the 8筒), seat 3 1
    # more to each (its share of the 幺鸡): seat 0: 17 + 2; seat 1: 4 + 2; seat 2: −10; seat 3: −15.
    ({**TO_READY_WU, "wu_gu_ji_to_ready": True, "discard_pool": True}, [19, 6, -10, -15]),
    # Without R50, R69 changes nothing (no discard is paid for as R50's).
    ({"discard_pool": True}, [10, 1, -3, -8]),
])
def test_r69_discards_paid_pooled(options, net):
    s = settle(WU_OUT, discard_win(3, (0, "5m")), options=options)
    assert s.net == net
    pooled = [i for i in s.items if i.rule == "R69"]
    assert all(i.words[-1] == ("discard_pool",) for i in pooled)
    assert bool(pooled) == (options.get("discard_pool", False) and "chicken_flow" in options)


# ---------------------------------------------------------------------------------- R70 冲锋乌骨鸡

# 乌骨鸡 worth 2 a tile (VARIANTS.md's second set: 乌骨鸡 2, 冲锋乌骨鸡 4 (金 8), 责任乌骨鸡 2). Seat 0
# wins 大对子 (V = 5) on seat 2's 7条 holding 888筒 (3 × 2 = 6; 金乌骨鸡 under a turned 7筒: 12); seats
# 1 and 2 are not ready; seat 3 (ready, waits 9筒) discarded the round's first 8筒.
NOT_READY_1 = "13456789m15679p"
WU_FIRST = [CHONG_FENG[0], NOT_READY_1, CHONG_FENG[2], seat("456s234m678m456p9p", discards="8p")]
# The same, but seat 0 ponged that 8筒 from seat 3 (still 大对子; seat 3 discarded nothing).
WU_CLAIMED = ["222m555m33p777s P8p<3", NOT_READY_1, CHONG_FENG[2], "456s234m678m456p9p"]


@pytest.mark.parametrize("seats, first, turned, options, net, items", [
    # Off: seat 3's discarded 8筒 is worth 2 (R44, 满堂鸡), collected from each other seat.
    # seat 0: 5 + 3 × 6 − 2 = 21; seat 1: −6 − 2; seat 2: −5 − 6 − 2; seat 3: −6 + 3 × 2 = 0.
    (WU_FIRST, (3, None), None, {}, [21, -8, -13, 0], []),
    # "the first discarded 8筒 is a 冲锋鸡 under 乌骨鸡": 冲锋乌骨鸡 chong_feng 2 × 2 = 4 instead of its 2.
    # seat 0: 5 + 18 − 4 = 19; seat 1: −6 − 4; seat 2: −5 − 6 − 4; seat 3: −6 + 3 × 4 = 6.
    (WU_FIRST, (3, None), None, {"chong_feng_wu_gu_ji": True}, [19, -10, -15, 6],
     [(p, 3, 4, "ji.chong_feng", "R70") for p in (0, 1, 2)]),
    # 金 (turned 7筒): 冲锋金鸡 4 × 2 = 8 ("金 8"). seat 0: 5 + 3 × 12 − 8 = 33; seat 3: −12 + 3 × 8 = 12.
    (WU_FIRST, (3, None), "7p", {"chong_feng_wu_gu_ji": True}, [33, -20, -25, 12],
     [(p, 3, 8, "ji.chong_feng", "R70") for p in (0, 1, 2)]),
    # R51 on top: the 8筒 keeps its 2 and the 4 comes on top, 6 from each. seat 0: 23 − 6; seat 3: −6 + 18.
    (WU_FIRST, (3, None), None, {"chong_feng_wu_gu_ji": True, "chong_feng_on_top": True}, [17, -12, -17, 12],
     [(p, 3, 4, "ji.chong_feng", "R70") for p in (0, 1, 2)]),
    # Claimed: "责任乌骨鸡 2": seat 3 pays seat 0 ze_ren 1 × 2 more. Off: seat 0: 5 + 3 × 6 = 23, seat 3 −6.
    (WU_CLAIMED, (3, 0), None, {}, [23, -6, -11, -6], []),
    (WU_CLAIMED, (3, 0), None, {"chong_feng_wu_gu_ji": True}, [25, -6, -11, -8], [(3, 0, 2, "ji.ze_ren", "R70")]),
    # 金乌骨鸡: doubled as R23 doubles 责任鸡 on 金鸡, 4. Off: 5 + 3 × 12 = 41; with it 45, seat 3 −12 − 4.
    (WU_CLAIMED, (3, 0), "7p", {"chong_feng_wu_gu_ji": True}, [45, -12, -17, -16], [(3, 0, 4, "ji.ze_ren", "R70")]),
])
def test_r70_chong_feng_wu_gu_ji(seats, first, turned, options, net, items):
    data = record(seats, discard_win(2, (0, "7s")), turned=turned, options={"wu_gu_ji": 2, **options})
    data["first_wu_gu_ji"] = {"seat": first[0], "claimed_by": first[1]}
    s = settle_record(data)
    assert s.net == net
    assert [i for i in item_set(s) if i[4] == "R70"] == items


def test_r70_needs_wu_gu_ji_and_a_recorded_first_8_dot():
    # Without 乌骨鸡 the switch moves nothing; without the record's first 8筒 neither.
    data = record(WU_FIRST, discard_win(2, (0, "7s")), options={"chong_feng_wu_gu_ji": True})
    data["first_wu_gu_ji"] = {"seat": 3, "claimed_by": None}
    assert settle_record(data).net == [5, 0, -5, 0]
    data = record(WU_FIRST, discard_win(2, (0, "7s")), options={"wu_gu_ji": 2, "chong_feng_wu_gu_ji": True})
    assert settle_record(data).net == [21, -8, -13, 0]


@pytest.mark.parametrize("first, seat_", [
    ((1, None), 1),  # unclaimed, but seat 1 discarded no 8筒
    ((3, 2), 2),     # claimed by seat 2, which holds no 8筒 meld from seat 3
])
def test_r70_a_first_8_dot_must_be_where_the_record_says(first, seat_):
    data = record(WU_FIRST, discard_win(2, (0, "7s")), options={"wu_gu_ji": 2, "chong_feng_wu_gu_ji": True})
    data["first_wu_gu_ji"] = {"seat": first[0], "claimed_by": first[1]}
    with pytest.raises(RecordInvalid) as caught:
        settle_record(data)
    assert [(p.code, p.seat, p.field) for p in caught.value.problems] == [("bad_first_wu_gu_ji", seat_, "first_wu_gu_ji")]
