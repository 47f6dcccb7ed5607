"""R19–R25: 鸡 (chickens) under each preset.

Every table here is a 点胡 of 大对子 (V = 5) paid by one discarder, so the chickens are the only
other items; each row's arithmetic is in its comment. "worth" is a seat's chicken worth (R24).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator.scoring import settle_record

from .factory import discard_win, item_set, record, seat, settle

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"

# ---------------------------------------------------------------------------------- R19 翻牌鸡

# Seat 0 wins 大对子 on seat 2's 7条 holding 1筒 ×3, 3筒 ×2, 8筒 ×3; seat 1 (ready, 平胡) holds 9筒 ×2.
# Seats 2 and 3 hold no 筒 1, 2, 3, 7, 8, 9 and no 条 1 (and are not ready anyway).
TURNED = ["111p555m888p33p777s", "99p234s456s678m67s", "1234578m456p249s", "1234678m56p2689s"]


@pytest.mark.parametrize("preset, options, turned, net", [
    # next: 9筒 → 1筒 (9 wraps to 1): seat 0 worth 3. seat 0: 5 + 3×3 = 14; 1, 3: −3; 2: −5 − 3
    ("guiyang", {}, "9p", [14, -3, -8, -3]),
    ("xingyi", {}, "9p", [14, -3, -8, -3]),
    # next: 7筒 → 8筒: seat 0 worth 3.
    ("guiyang", {}, "7p", [14, -3, -8, -3]),
    # next: 8筒 → 9筒: seat 1 worth 2. seat 0: 5 − 2; seat 1: +6; seat 2: −5 − 2; seat 3: −2
    ("guiyang", {}, "8p", [3, 6, -7, -2]),
    # swing: 9筒 → 8筒 and 1筒 (wrapping up): seat 0 worth 6. seat 0: 5 + 18; others −6, seat 2 −11
    ("anshun", {}, "9p", [23, -6, -11, -6]),
    # swing: 1筒 → 9筒 (wrapping down) and 2筒: seat 1 worth 2.
    ("anshun", {}, "1p", [3, 6, -7, -2]),
    # swing: 2筒 → 1筒 and 3筒: seat 0 worth 3 + 2 = 5. seat 0: 5 + 15; seat 2: −5 − 5
    ("anshun", {}, "2p", [20, -5, -10, -5]),
    # swing: 8筒 → 7筒 and 9筒: seat 1 worth 2.
    ("anshun", {}, "8p", [3, 6, -7, -2]),
    ("guiyang", {"turned_chicken": "swing"}, "9p", [23, -6, -11, -6]),
    ("xingyi", {"turned_chicken": "swing"}, "2p", [20, -5, -10, -5]),
    # none: no 翻牌鸡 at all.
    ("guiyang", {"turned_chicken": "none"}, "9p", [5, 0, -5, 0]),
    # No tile turned: no 翻牌鸡.
    ("guiyang", {}, None, [5, 0, -5, 0]),
    ("anshun", {}, None, [5, 0, -5, 0]),
    ("xingyi", {}, None, [5, 0, -5, 0]),
])
def test_r19_turned_chicken(preset, options, turned, net):
    s = settle(TURNED, discard_win(2, (0, "7s")), preset=preset, options=options, turned=turned)
    assert s.net == net
    assert {i.rule for i in s.items if i.reason.startswith("ji.")} <= {"R19"}


def test_r19_turned_chicken_items_name_each_kind():
    # 安顺 swing of 2筒: seat 0 gets 3 (1筒) and 2 (3筒) from each other seat, as two items each.
    s = settle(TURNED, discard_win(2, (0, "7s")), preset="anshun", turned="2p")
    assert item_set(s, "ji.turned") == sorted(
        [(p, 0, 3, "ji.turned", "R19") for p in (1, 2, 3)]
        + [(p, 0, 2, "ji.turned", "R19") for p in (1, 2, 3)]
    )


# ---------------------------------------------------------------------------------- R20 discards

# Seat 1 (ready) discarded a 幺鸡 and a 7筒, and holds no chicken; seat 3 (not ready) discarded the
# round's first 幺鸡. Turned 6筒: next → 7筒; swing → 5筒 and 7筒.
DISCARDS = [
    "222m555m888p33p777s",
    seat("234s456s99s234m67m", discards="1s7p"),
    "346789m4p345789s",
    seat("345679m4p245689s", discards="1s"),
]


@pytest.mark.parametrize("preset, options, net", [
    # all (满堂鸡): seat 1 worth 1 (幺鸡) + 1 (7筒) = 2. seat 0: 5 − 2; seat 1: +6; seat 2: −7; seat 3: −2
    ("guiyang", {}, [3, 6, -7, -2]),
    # yaoji: only the discarded 幺鸡 counts: worth 1. seat 0: 5 − 1; seat 1: +3; seat 2: −6; seat 3: −1
    ("xingyi", {}, [4, 3, -6, -1]),
    # none: discards count for nothing.
    ("anshun", {}, [5, 0, -5, 0]),
    ("guiyang", {"chicken_discards": "yaoji"}, [4, 3, -6, -1]),
    ("guiyang", {"chicken_discards": "none"}, [5, 0, -5, 0]),
    ("anshun", {"chicken_discards": "all"}, [3, 6, -7, -2]),  # swing includes 7筒
])
def test_r20_chicken_discards(preset, options, net):
    s = settle(DISCARDS, discard_win(2, (0, "7s")), preset=preset, options=options, turned="6p",
               first_yaoji=(3, None))
    assert s.net == net


# ---------------------------------------------------------------------------------- R21 幺鸡, 金鸡

# Seat 0 wins holding two 幺鸡 concealed; seat 1 (ready) discarded a later 幺鸡; seat 3 (not ready)
# discarded the first one. Nobody holds a 3条 or 8条.
YAOJI_HELD = [
    "555m888p777s333p11s",
    seat("456s234m678m456p9p", discards="1s"),
    "234678m12679p29s",
    seat("12689m1245p4789s", discards="1s"),
]


@pytest.mark.parametrize("preset, turned, net", [
    # 贵阳: seat 0 worth 2, seat 1 worth 1 (discarded, 满堂鸡).
    # seat 0: 5 + 6 − 1 = 10; seat 1: 3 − 2 = 1; seat 2: −5 − 2 − 1 = −8; seat 3: −2 − 1 = −3
    ("guiyang", None, [10, 1, -8, -3]),
    # 金鸡 (turned 9条 → 幺鸡): every 幺鸡 ×2, discarded ones too: seat 0 worth 4, seat 1 worth 2.
    # seat 0: 5 + 12 − 2 = 15; seat 1: 6 − 4 = 2; seat 2: −5 − 4 − 2 = −11; seat 3: −4 − 2 = −6
    ("guiyang", "9s", [15, 2, -11, -6]),
    # 兴义: a concealed 幺鸡 counts 2: seat 0 worth 4; seat 1's discarded one 1.
    # seat 0: 5 + 12 − 1 = 16; seat 1: 3 − 4 = −1; seat 2: −5 − 4 − 1 = −10; seat 3: −4 − 1 = −5
    ("xingyi", None, [16, -1, -10, -5]),
    # 兴义 金鸡 doubles held 幺鸡 only: seat 0 worth 2 × 2 × 2 = 8; seat 1's discarded one stays 1.
    # seat 0: 5 + 24 − 1 = 28; seat 1: 3 − 8 = −5; seat 2: −5 − 8 − 1 = −14; seat 3: −8 − 1 = −9
    ("xingyi", "9s", [28, -5, -14, -9]),
    # 安顺: discards do not count: seat 0 worth 2. seat 0: 5 + 6; seat 2: −5 − 2
    ("anshun", None, [11, -2, -7, -2]),
    # 安顺 swing, turned 2条 → 幺鸡 and 3条: 金鸡, seat 0 worth 4. seat 0: 5 + 12; seat 2: −5 − 4
    ("anshun", "2s", [17, -4, -9, -4]),
    # 安顺 swing, turned 9条 → 8条 and 幺鸡 (9 wraps to 1): 金鸡 too.
    ("anshun", "9s", [17, -4, -9, -4]),
])
def test_r21_yaoji_and_gold(preset, turned, net):
    s = settle(YAOJI_HELD, discard_win(2, (0, "5m")), preset=preset, turned=turned, first_yaoji=(3, None))
    assert s.net == net


# Seat 0 won with a pong of the first 幺鸡 (claimed from seat 3); seat 1 (ready, waits 9筒) holds
# one 幺鸡 in 123条.
YAOJI_MELDED = ["555m888p777s33p P1s<3", "123s234m678m456p9p", "2368m134579p589s", "279m234579p2468s"]


@pytest.mark.parametrize("preset, turned, net, ze_ren", [
    # 贵阳: seat 0 worth 3, seat 1 worth 1; 责任鸡: seat 3 pays seat 0 1 more.
    # seat 0: 5 + 9 − 1 + 1 = 14; seat 1: 3 − 3 = 0; seat 2: −5 − 3 − 1 = −9; seat 3: −3 − 1 − 1 = −5
    ("guiyang", None, [14, 0, -9, -5], 1),
    # 贵阳 金鸡: seat 0 worth 6, seat 1 worth 2; 责任金鸡 1 × 2.
    # seat 0: 5 + 18 − 2 + 2 = 23; seat 1: 6 − 6 = 0; seat 2: −5 − 6 − 2 = −13; seat 3: −6 − 2 − 2 = −10
    ("guiyang", "9s", [23, 0, -13, -10], 2),
    # 兴义: melded 1 per tile (碰 3), concealed 2: seat 0 worth 3, seat 1 worth 2; no 责任鸡.
    # seat 0: 5 + 9 − 2 = 12; seat 1: 6 − 3 = 3; seat 2: −5 − 3 − 2 = −10; seat 3: −3 − 2 = −5
    ("xingyi", None, [12, 3, -10, -5], 0),
    # 兴义 金鸡: held ones doubled: seat 0 worth 6, seat 1 worth 4.
    # seat 0: 5 + 18 − 4 = 19; seat 1: 12 − 6 = 6; seat 2: −5 − 6 − 4 = −15; seat 3: −6 − 4 = −10
    ("xingyi", "9s", [19, 6, -15, -10], 0),
    # 安顺: seat 0 worth 3, seat 1 worth 1; no 责任鸡.
    # seat 0: 5 + 9 − 1 = 13; seat 1: 3 − 3 = 0; seat 2: −5 − 3 − 1 = −9; seat 3: −3 − 1 = −4
    ("anshun", None, [13, 0, -9, -4], 0),
    # 安顺 turned 2条 → 幺鸡 (金鸡) and 3条: seat 0 worth 6; seat 1 worth 2 (金幺鸡) + 1 (3条) = 3.
    # seat 0: 5 + 18 − 3 = 20; seat 1: 9 − 6 = 3; seat 2: −5 − 6 − 3 = −14; seat 3: −6 − 3 = −9
    ("anshun", "2s", [20, 3, -14, -9], 0),
])
def test_r21_r23_melded_yaoji_and_ze_ren(preset, turned, net, ze_ren):
    s = settle(YAOJI_MELDED, discard_win(2, (0, "5m")), preset=preset, turned=turned, first_yaoji=(3, 0))
    assert s.net == net
    assert item_set(s, "ji.ze_ren") == ([(3, 0, ze_ren, "ji.ze_ren", "R23")] if ze_ren else [])
    assert not item_set(s, "ji.chong_feng")


# ---------------------------------------------------------------------------------- R22 冲锋鸡

# Seat 3 (ready) discarded the round's first 幺鸡 and nobody claimed it; nobody holds a 幺鸡 or 3条.
CHONG_FENG = ["222m555m888p33p777s", "13456789m15689p", "3679m1234p25679s",
              seat("456s234m678m456p9p", discards="1s")]


@pytest.mark.parametrize("preset, turned, worth, reason", [
    ("guiyang", None, 2, "ji.chong_feng"),   # chong_feng 2
    ("guiyang", "9s", 4, "ji.chong_feng"),   # 冲锋金鸡 4
    ("anshun", None, 2, "ji.chong_feng"),    # counts although 安顺 discards count for nothing
    ("anshun", "2s", 3, "ji.chong_feng"),    # 安顺 冲锋金鸡 3
    ("xingyi", None, 1, "ji.yaoji"),         # no 冲锋鸡: an ordinary discarded 幺鸡, 1
    ("xingyi", "9s", 1, "ji.yaoji"),         # and 兴义 金鸡 does not double discarded ones
])
def test_r22_chong_feng(preset, turned, worth, reason):
    s = settle(CHONG_FENG, discard_win(2, (0, "7s")), preset=preset, turned=turned, first_yaoji=(3, None))
    # seat 3 collects its worth from each: seat 0: 5 − w; seat 1: −w; seat 2: −5 − w; seat 3: 3w
    assert s.net == [5 - worth, -worth, -5 - worth, 3 * worth]
    assert item_set(s, reason) == [(p, 3, worth, reason, "R22" if reason == "ji.chong_feng" else "R21")
                                   for p in (0, 1, 2)]


def test_r22_chong_feng_replaces_only_the_first_yaojis_worth():
    # 贵阳: seat 3 discarded two 幺鸡: the first is a 冲锋鸡 (2), the second an ordinary one (1).
    data = record(CHONG_FENG, discard_win(2, (0, "7s")), first_yaoji=(3, None))
    data["seats"][3]["discards"] = "1s1s"
    assert settle_record(data).net == [5 - 3, -3, -5 - 3, 9]


def test_r22_no_chong_feng_for_a_seat_that_does_not_collect():
    # E1-like: the discarder of the first 幺鸡 is not ready, so its 冲锋鸡 counts for nothing.
    seats = [*CHONG_FENG[:3], seat("24689m279p45689s", discards="1s")]
    s = settle(seats, discard_win(2, (0, "7s")), first_yaoji=(3, None))
    assert s.hands[3].status == "not_ready"
    assert s.net == [5, 0, -5, 0]


# ---------------------------------------------------------------------------------- R23 责任鸡

# Seat 1 ponged seat 3's first 幺鸡 but is not ready.
ZE_REN_NOT_READY = ["222m555m888p33p777s", "2368m349p589s P1s<3", "13679m12479p269s", "1679m145689p459s"]


def test_r23_no_ze_ren_when_the_claimer_does_not_collect():
    s = settle(ZE_REN_NOT_READY, discard_win(2, (0, "7s")), first_yaoji=(3, 1))
    assert s.hands[1].status == "not_ready"
    assert s.net == [5, 0, -5, 0]


def test_r23_ze_ren_when_the_claimer_collects_under_collectors_all():
    # chicken_collectors all: seat 1 collects its 3 幺鸡 from each other seat, and seat 3 pays 1 more.
    # Seats 2 and 3 hold no chicken (no tile turned, no 幺鸡). seat 0: 5 − 3; seat 1: 9 + 1;
    # seat 2: −5 − 3; seat 3: −3 − 1
    s = settle(ZE_REN_NOT_READY, discard_win(2, (0, "7s")), first_yaoji=(3, 1),
               options={"chicken_collectors": "all"})
    assert s.net == [2, 10, -8, -4]
    assert item_set(s, "ji.ze_ren") == [(3, 1, 1, "ji.ze_ren", "R23")]


# ---------------------------------------------------------------------------------- R24 collectors

# Seat 0 wins on seat 3's 5万 holding two 幺鸡; seat 1 (ready) holds one; seat 2 (not ready) holds one.
COLLECTORS = ["555m888p777s333p11s", "123s234m678m456p9p", "1s2468m3579p2579s", "13479m125p24589s"]


@pytest.mark.parametrize("preset, collectors, net", [
    # ready: seat 0 worth 2, seat 1 worth 1; seat 2's 幺鸡 counts for nothing.
    # seat 0: 5 + 6 − 1 = 10; seat 1: 3 − 2 = 1; seat 2: −2 − 1 = −3; seat 3: −5 − 2 − 1 = −8
    ("guiyang", "ready", [10, 1, -3, -8]),
    ("anshun", "ready", [10, 1, -3, -8]),
    # all: seat 2 collects its 1 as well. seat 0: 10 − 1; seat 1: 1 − 1; seat 2: −3 + 3; seat 3: −8 − 1
    ("guiyang", "all", [9, 0, 0, -9]),
    # ready_or_pay (包鸡): seat 2 pays its own worth 1 to each collector (seats 0 and 1).
    # seat 0: 10 + 1; seat 1: 1 + 1; seat 2: −3 − 2; seat 3: −8
    ("guiyang", "ready_or_pay", [11, 2, -5, -8]),
    # 兴义: concealed 幺鸡 are 2 each: worths 4, 2 and 2.
    # ready: seat 0: 5 + 12 − 2 = 15; seat 1: 6 − 4 = 2; seat 2: −4 − 2 = −6; seat 3: −5 − 4 − 2 = −11
    ("xingyi", "ready", [15, 2, -6, -11]),
    # all: seat 0: 15 − 2; seat 1: 2 − 2; seat 2: −6 + 6; seat 3: −11 − 2
    ("xingyi", "all", [13, 0, 0, -13]),
    # ready_or_pay: seat 2 pays 2 to seat 0 and 2 to seat 1.
    ("xingyi", "ready_or_pay", [17, 4, -10, -11]),
])
def test_r24_chicken_collectors(preset, collectors, net):
    s = settle(COLLECTORS, discard_win(3, (0, "5m")), preset=preset,
               options={"chicken_collectors": collectors})
    assert s.net == net
    bao = item_set(s, "ji.bao")
    if collectors == "ready_or_pay":
        worth = 2 if preset == "xingyi" else 1
        assert bao == [(2, 0, worth, "ji.bao", "R24"), (2, 1, worth, "ji.bao", "R24")]
    else:
        assert bao == []


@pytest.mark.parametrize("collectors, net", [
    # three players: two payers. seat 0: 5 + 2×2 − 1 = 8; seat 1: 2×1 − 2 = 0; seat 2: −5 − 2 − 1 = −8
    ("ready", [8, 0, -8]),
    # 包鸡: seat 2 also pays its worth 1 to seats 0 and 1.
    ("ready_or_pay", [9, 1, -10]),
])
def test_r24_three_players(collectors, net):
    s = settle(COLLECTORS[:3], discard_win(2, (0, "5m")), options={"chicken_collectors": collectors})
    assert s.net == net


# Seat 2 (not ready, one 幺鸡) makes a 闷豆 of 9万 and its next discard, 5万, gives seat 0 大对子.
HOT_NOT_READY = ["555m888p777s333p11s", "123s234m678m456p9p", "1s246m357p258s M9m", "234m124789p4689s"]


@pytest.mark.parametrize("preset, net", [
    # 贵阳 (burn kong): seat 2 is not burned, so under 包鸡 it pays its worth 1 to seats 0 and 1.
    # hu 5 + 1 = 6. seat 0: 6 + 6 − 1 + 1 = 12; seat 1: 3 − 2 + 1 = 2; seat 2: −6 − 2 − 1 − 2 = −11;
    # seat 3: −2 − 1 = −3
    ("guiyang", [12, 2, -11, -3]),
    # 安顺 (burn all): hu 5 + 2×3 = 11; a burned seat does not pay back its own chickens.
    # seat 0: 11 + 6 − 1 = 16; seat 1: 3 − 2 = 1; seat 2: −11 − 2 − 1 = −14; seat 3: −3
    ("anshun", [16, 1, -14, -3]),
])
def test_r24_a_burned_seat_neither_collects_nor_pays_back(preset, net):
    s = settle(HOT_NOT_READY, discard_win(2, (0, "5m"), hot_kong="9m"), preset=preset,
               options={"chicken_collectors": "ready_or_pay"})
    assert s.net == net


def test_r22_a_gold_chong_feng_counts_even_where_the_plain_one_is_off():
    # E2 with chong_feng 0 but chong_feng_gold still 4: turned 9条 makes 幺鸡 gold, so seat 2's
    # unclaimed first 幺鸡 is a 冲锋金鸡 worth 4 and E2's nets stand.
    data = json.loads((EXAMPLES / "E2.json").read_text())
    data["options"] = {"chong_feng": 0}
    assert settle_record(data).net == [-29, 59, -1, -29]


# ---------------------------------------------------------------------------------- R44 乌骨鸡

@pytest.mark.parametrize("preset, options, turned, net", [
    # TURNED: seat 0 holds 8筒 ×3 and 1筒 ×3, seat 1 holds 9筒 ×2.
    # Off in every preset: a turned 7筒 makes 8筒 a plain 翻牌鸡, worth 3 (as in R19).
    ("guiyang", {}, "7p", [14, -3, -8, -3]),
    # 乌骨鸡 1, nothing turned: seat 0 worth 3 × 1 = 3. seat 0: 5 + 3×3 = 14; seat 2: −5 − 3
    ("guiyang", {"wu_gu_ji": 1}, None, [14, -3, -8, -3]),
    # turned 7筒 → 8筒 is gold: 3 × 1 × 2 = 6, and not a 翻牌鸡 as well. seat 0: 5 + 18; seat 2: −5 − 6
    ("guiyang", {"wu_gu_ji": 1}, "7p", [23, -6, -11, -6]),
    # 乌骨鸡 2, turned 9筒 → 1筒: seat 0 worth 3 (1筒) + 3 × 2 (8筒) = 9. seat 0: 5 + 27; seat 2: −5 − 9
    ("guiyang", {"wu_gu_ji": 2}, "9p", [32, -9, -14, -9]),
    # turned 8筒 → 9筒: seat 1 worth 2; seat 0 worth 3 (not gold).
    # seat 0: 5 + 9 − 2 = 12; seat 1: 6 − 3 = 3; seat 2: −5 − 3 − 2 = −10; seat 3: −3 − 2 = −5
    ("guiyang", {"wu_gu_ji": 1}, "8p", [12, 3, -10, -5]),
    # 安顺 swing, turned 9筒 → 8筒 (gold) and 1筒: seat 0 worth 3 × 2 + 3 = 9.
    ("anshun", {"wu_gu_ji": 1}, "9p", [32, -9, -14, -9]),
])
def test_r44_wu_gu_ji_held(preset, options, turned, net):
    s = settle(TURNED, discard_win(2, (0, "7s")), preset=preset, options=options, turned=turned)
    assert s.net == net


# DISCARDS with seat 1 (ready) discarding a 幺鸡 and an 8筒; seat 0 holds 8筒 ×3; seat 3 (not ready)
# discarded the first 幺鸡.
WU_DISCARDS = [DISCARDS[0], seat("234s456s99s234m67m", discards="1s8p"), *DISCARDS[2:]]


@pytest.mark.parametrize("preset, turned, net", [
    # 贵阳 满堂鸡, turned 6筒 → 7筒: seat 0 worth 3; seat 1 worth 1 (幺鸡) + 1 (8筒) = 2.
    # seat 0: 5 + 9 − 2 = 12; seat 1: 6 − 3 = 3; seat 2: −5 − 3 − 2 = −10; seat 3: −3 − 2 = −5
    ("guiyang", "6p", [12, 3, -10, -5]),
    # turned 7筒 → 金: seat 0 worth 3 × 2 = 6; seat 1 worth 1 + 2 (discarded, gold_discards) = 3.
    # seat 0: 5 + 18 − 3 = 20; seat 1: 9 − 6 = 3; seat 2: −5 − 6 − 3 = −14; seat 3: −6 − 3 = −9
    ("guiyang", "7p", [20, 3, -14, -9]),
    # 兴义 counts only discarded 幺鸡: seat 1 worth 1; seat 0 worth 3 (8筒 has no concealed weighting).
    # seat 0: 5 + 9 − 1 = 13; seat 1: 3 − 3 = 0; seat 2: −5 − 3 − 1 = −9; seat 3: −3 − 1 = −4
    ("xingyi", "6p", [13, 0, -9, -4]),
    # 安顺 counts no discards: seat 0 worth 3. seat 0: 5 + 9; seat 2: −5 − 3
    ("anshun", "6p", [14, -3, -8, -3]),
])
def test_r44_wu_gu_ji_discarded_where_the_preset_counts_discards(preset, turned, net):
    s = settle(WU_DISCARDS, discard_win(2, (0, "7s")), preset=preset, options={"wu_gu_ji": 1}, turned=turned,
               first_yaoji=(3, None))
    assert s.net == net


def test_r44_wu_gu_ji_items_say_how_many_tiles_and_whether_gold():
    s = settle(WU_DISCARDS, discard_win(2, (0, "7s")), options={"wu_gu_ji": 1}, turned="7p",
               first_yaoji=(3, None))
    wu = [(i.payer, i.payee, i.points, i.words) for i in s.items if i.reason == "ji.wu_gu_ji"]
    assert wu == [(1, 0, 6, (("wu_gu_ji_gold", 3),)), (2, 0, 6, (("wu_gu_ji_gold", 3),)),
                  (3, 0, 6, (("wu_gu_ji_gold", 3),)), (0, 1, 2, (("wu_gu_ji_gold", 1),)),
                  (2, 1, 2, (("wu_gu_ji_gold", 1),)), (3, 1, 2, (("wu_gu_ji_gold", 1),))]
    assert {i.rule for i in s.items if i.reason == "ji.wu_gu_ji"} == {"R44"}
