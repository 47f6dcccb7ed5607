"""Invariants over random legal rounds (random_rounds.py) and random hands, with hypothesis.

The hand checks compare the engine with the deliberately naive recursive checker of reference.py,
written from R6–R8 alone (no code shared with calculator/scoring/hands.py); reference.py also
settles every random round a second way, straight from RULES §4.
"""
from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator.scoring import (
    PRESETS, Hand, RecordInvalid, best_reading, is_complete, rules_for, settle_record, waits_of,
)
from calculator.scoring import parse_tiles as engine_parse

from .factory import rotate
from .random_rounds import COMPANIONS, KINDS, OPTION_VALUES, Wall, _complete_hand, random_record, rounds
from .reference import (
    best_value, counts_of, kind_index, naive_patterns, naive_waits, pattern_values, reference_settle,
)

# Modest by default so the suite stays fast; ZHUOJI_EXAMPLES=5000 for a deeper hunt.
SETTINGS = settings(max_examples=int(os.environ.get("ZHUOJI_EXAMPLES", "200")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# House patterns (R60, R61) the hand checks also read hands against: off, VARIANTS.md's numbers, 大吊车.
HOUSE_PATTERNS = ({}, {"dan_diao": 10, "qing_dan_diao": 20, "duo_long": 10}, {"dan_diao": 17})

RULE_OF = {  # the rules an item of each reason may cite: its own, or a house-rule variant's (R45 on)
    "hu.discard": {"R11"}, "hu.self_draw": {"R12", "R45", "R62"}, "hu.hot_shot": {"R13", "R47"},
    "hu.robbed": {"R14", "R46"}, "hu.dealer": {"R59"}, "bao.kill": {"R31", "R56"}, "dou.men": {"R16"},
    "dou.zhuanwan": {"R16"}, "dou.dian": {"R16", "R57"}, "dou.reverse": {"R52"}, "ji.turned": {"R19", "R48"}, "ji.yaoji": {"R21", "R50", "R69"},
    "ji.chong_feng": {"R22", "R50", "R51", "R65", "R70"}, "ji.ze_ren": {"R23", "R54", "R67", "R70"}, "ji.bao": {"R24", "R49"},
    "cha_jiao": {"R33"}, "penalty.pass": {"R36"}, "penalty.xiang_gong": {"R37"}, "penalty.gen_zhuang": {"R63"}, "cap": {"R53"},
    "ji.wu_gu_ji": {"R44", "R68", "R69"}, "ji.xing_qi": {"R64"},
}
# A variant's rule is cited only when the round's rules play that variant.
VARIANT_ON = {
    "R44": lambda r: r.wu_gu_ji > 0,
    "R45": lambda r: r.self_draw in ("plain", "double_plus_one"),
    "R46": lambda r: r.robbed_kong in ("pay_all_plain", "four_v", "v_plus_one"),
    "R47": lambda r: r.hot_shot_bonus == "double",
    "R48": lambda r: r.turned_chicken in ("self", "self_next"),
    "R49": lambda r: r.bao_ji == "shown",
    "R50": lambda r: r.chicken_flow in ("to_ready", "to_ready_chong_feng_all"),
    "R51": lambda r: r.chong_feng_on_top,
    "R52": lambda r: r.dou_reverse,
    "R53": lambda r: r.cap > 0,
    "R54": lambda r: not r.ze_ren_gold,
    "R56": lambda r: r.declare_kill_by_kind,
    "R57": lambda r: r.dian_payer == "konger",
    "R59": lambda r: r.dealer_bonus > 0 or r.dealer_streak_bonus > 0,
    "R63": lambda r: r.gen_zhuang > 0,
    "R64": lambda r: r.xing_qi_ji,
    "R65": lambda r: r.chong_feng_claimed or r.chong_feng_pays,
    "R62": lambda r: r.tian_hu > 0 or r.di_hu > 0 or r.tian_di_bonus > 0,
    "R67": lambda r: r.ze_ren_every,
    "R68": lambda r: r.wu_gu_ji_to_ready and r.wu_gu_ji > 0 and r.chicken_flow != "all",
    "R69": lambda r: r.discard_pool and r.chicken_flow != "all",
    "R70": lambda r: r.chong_feng_wu_gu_ji and r.wu_gu_ji > 0,
}

# ---------------------------------------------------------------------------------- the naive checker

def test_the_naive_checker_itself():
    assert naive_patterns(counts_of("123m456p789p234s55s"), []) == {"ping_hu"}
    assert naive_patterns(counts_of("1111s3333s55s77s99s"), []) == {"qing_long_qi_dui", "qing_shuang_long_qi_dui"}
    assert naive_patterns(counts_of("11223344556677p"), []) == {"qing_qi_dui", "qing_yi_se"}
    assert naive_waits(counts_of("1112345678999p"), [], PRESETS["guiyang"].patterns) == {
        f"{r}p": 10 for r in range(1, 10)}
    kong = [(kind_index("6p"), 4)]
    assert naive_waits(counts_of("45p789m123s99s"), kong, PRESETS["guiyang"].patterns) == {"3p": 1}


# ---------------------------------------------------------------------------------- random hands

@st.composite
def thirteen(draw):
    """A 13-tile hand: often a complete hand minus a tile, else random tiles; with some melds."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    wall = Wall()
    if rng.random() < 0.6:
        while True:
            snapshot = wall.snapshot()
            try:
                concealed, melds = _complete_hand(rng, wall, 0, 4, tile=None)
                break
            except Exception:
                wall.restore(snapshot)
        concealed.pop(rng.randrange(len(concealed)))
    else:
        melds = []
        for _ in range(rng.choice((0, 0, 1, 2))):
            kind = wall.random_kind(rng, 3)
            size = 4 if wall.left[kind] == 4 and rng.random() < 0.5 else 3
            wall.take(kind, size)
            melds.append({"type": "kong" if size == 4 else "pong", "tile": kind})
        concealed = []
        suit = rng.choice("mps") if rng.random() < 0.3 else None  # one-suit hands wait on many kinds
        while len(concealed) + 3 * len(melds) < 13:
            kind = wall.random_kind(rng, suit=suit) if suit else wall.random_kind(rng)
            wall.take(kind)
            concealed.append(kind)
    return "".join(concealed), [(m["tile"], 4 if m["type"] == "kong" else 3) for m in melds]


def engine_hand(text: str, melds: list[tuple[str, int]]) -> Hand:
    return Hand.of(engine_parse(text), [(engine_parse(t)[0], n) for t, n in melds])


@SETTINGS
@given(thirteen(), st.sampled_from(sorted(PRESETS)), st.sampled_from(HOUSE_PATTERNS))
def test_waits_agree_with_a_brute_force_check(hand, preset, house):
    text, melds = hand
    rules = rules_for(preset, house)[0]
    expected = naive_waits(counts_of(text), [(kind_index(t), n) for t, n in melds], pattern_values(rules))
    got = {str(w.tile): w.value for w in waits_of(engine_hand(text, melds), rules.hand_patterns)}
    assert got == expected


@SETTINGS
@given(thirteen(), st.integers(0, 26))
def test_completeness_agrees_with_a_brute_force_check(hand, extra):
    text, melds = hand
    text += KINDS[extra]
    counts = counts_of(text)
    found = naive_patterns(counts, [kind_index(t) for t, _ in melds])
    h = engine_hand(text, melds)
    assert is_complete(h) == bool(found)
    rules = rules_for("xingyi", HOUSE_PATTERNS[extra % len(HOUSE_PATTERNS)])[0]
    reading = best_reading(h, rules.hand_patterns)
    if found:
        assert reading.value == best_value(found, pattern_values(rules))
        assert reading.pattern in found
    else:
        assert reading is None


# ---------------------------------------------------------------------------------- random rounds

@SETTINGS
@given(rounds())
def test_every_generated_round_is_legal_and_settles(data):
    try:
        settle_record(data)
    except RecordInvalid as invalid:  # pragma: no cover - a failure names the problems
        raise AssertionError(invalid.to_dict()) from invalid


@SETTINGS
@given(rounds())
def test_zero_sum_of_items_net_and_matrix(data):
    s = settle_record(data)
    n = len(data["seats"])
    assert sum(s.net) == 0
    matrix = s.matrix
    assert len(matrix) == n and all(len(row) == n for row in matrix)
    assert all(matrix[i][i] == 0 for i in range(n))
    for seat in range(n):
        assert sum(matrix[p][seat] for p in range(n)) - sum(matrix[seat]) == s.net[seat]
    assert sum(map(sum, matrix)) == sum(i.points for i in s.items)


@SETTINGS
@given(rounds())
def test_items_are_positive_transfers_between_seats_citing_their_rule(data):
    s = settle_record(data)
    n = len(data["seats"])
    for item in s.items:
        assert isinstance(item.points, int) and item.points > 0
        assert item.payer != item.payee
        assert 0 <= item.payer < n and 0 <= item.payee < n
        assert item.rule in RULE_OF[item.reason]
        assert VARIANT_ON.get(item.rule, lambda r: True)(s.record.rules), item


@SETTINGS
@given(rounds(), st.integers(1, 3))
def test_renumbering_the_seats_renumbers_the_result(data, k):
    s = settle_record(data)
    n = len(data["seats"])
    moved = settle_record(rotate(data, k))
    assert [moved.net[(i + k) % n] for i in range(n)] == s.net
    assert moved.next_dealer == (s.next_dealer + k) % n
    assert [moved.hands[(i + k) % n].status for i in range(n)] == [h.status for h in s.hands]


@SETTINGS
@given(rounds())
def test_money_is_net_times_stake_exactly(data):
    s = settle_record(data)
    stake = Decimal(data["stake"])
    assert s.money == [net * stake for net in s.net]
    printed = s.to_dict()["money"]
    assert [Decimal(m) for m in printed] == [net * stake for net in s.net]
    assert all("E" not in m for m in printed)


@SETTINGS
@given(rounds())
def test_the_canonical_record_settles_the_same(data):
    s = settle_record(data)
    again = settle_record(json.loads(json.dumps(s.record.to_dict())))
    assert again.net == s.net and again.next_dealer == s.next_dealer
    json.dumps(s.to_dict(), ensure_ascii=False)


@SETTINGS
@given(rounds())
def test_seat_standing_agrees_with_the_naive_checker(data):
    s = settle_record(data)
    rules = s.record.rules
    winners = {w["seat"] for w in data["outcome"].get("winners", [])}
    for seat, raw in enumerate(data["seats"]):
        melds = [(kind_index(m["tile"]), 4 if m["type"] == "kong" else 3) for m in raw["melds"]]
        bonus = rules.declare[raw["declared"]] if raw.get("declared") else 0

        def with_bonus(pattern: int) -> int:  # R58: 报听 as a floor
            return max(pattern, bonus) if rules.declare_floor else pattern + bonus

        counts = counts_of(raw["concealed"])
        hand = s.hands[seat]
        if seat in winners:
            found = naive_patterns(counts, [k for k, _ in melds])
            assert hand.status == "won" and hand.value == with_bonus(best_value(found, pattern_values(rules)))
        elif raw.get("xiang_gong"):
            assert hand.status == "not_ready"  # R37
        else:
            waits = naive_waits(counts, melds, pattern_values(rules))
            assert hand.ready == bool(waits)
            assert hand.value == (with_bonus(max(waits.values())) if waits else 0)


@SETTINGS
@given(rounds())
def test_who_may_collect_what(data):
    """R18, R24, R33, R36, R37 as invariants: draws pay only 查叫; a passed win only its penalty;
    burned seats and 相公 collect no 豆 or 鸡; a single winner deals next. 开局跟 (R63) and 相公 pay in
    any outcome."""
    s = settle_record(data)
    outcome, n = data["outcome"], len(data["seats"])
    reasons = {i.reason for i in s.items}
    xiang_gong = {i for i, raw in enumerate(data["seats"]) if raw.get("xiang_gong")}
    if outcome["type"] == "draw":
        assert reasons <= {"cha_jiao", "penalty.xiang_gong", "penalty.gen_zhuang", "cap"}
        return
    winners = [w["seat"] for w in outcome["winners"]]
    if any(w.get("passed_before") for w in outcome["winners"]):
        assert reasons <= {"penalty.pass", "penalty.xiang_gong", "penalty.gen_zhuang", "cap"}
        assert s.next_dealer == data["dealer"]
        return
    for item in s.items:
        if item.reason.startswith(("dou.", "ji.")):
            assert item.payee not in s.burned and item.payee not in xiang_gong
    for winner in winners:
        assert any(i.payee == winner and i.reason.startswith("hu.") for i in s.items)
    if len(winners) == 1:
        assert s.next_dealer == winners[0]
    assert 0 <= s.next_dealer < n


@SETTINGS
@given(rounds())
def test_an_independent_reading_of_the_rules_settles_the_same(data):
    s = settle_record(data)
    net, next_dealer = reference_settle(data, s.record.rules)
    assert (s.net, s.next_dealer) == (net, next_dealer)


@SETTINGS
@given(rounds(), st.randoms(use_true_random=False))
def test_mei_jiao_never_changes_a_settlement(data, rng):
    """没叫（没亮牌）: where the rules allow it, hiding a not-ready seat's concealed tiles changes
    no item, no standing and not who deals next; where they do not, the record is refused."""
    full = settle_record(data)
    not_ready = [h.seat for h in full.hands if h.status == "not_ready"]
    if not not_ready:
        return
    hidden = copy.deepcopy(data)
    for seat in rng.sample(not_ready, rng.randint(1, len(not_ready))):
        hidden["seats"][seat].update(concealed="", mei_jiao=True)
    if not full.record.rules.allows_mei_jiao:
        with pytest.raises(RecordInvalid) as caught:
            settle_record(hidden)
        assert {p.code for p in caught.value.problems} == {"bad_mei_jiao"}
        return
    shown = settle_record(hidden)
    assert shown.items == full.items
    assert shown.next_dealer == full.next_dealer
    assert [h.status for h in shown.hands] == [h.status for h in full.hands]


# ---------------------------------------------------------------------------------- every option drawn

def test_the_random_rounds_draw_every_option_of_the_rule_set():
    """A new option the generator never draws would go untested by every invariant above."""
    from calculator.scoring import RuleSet

    from .random_rounds import OPTION_VALUES, random_record

    options = {f.name for f in dataclasses.fields(RuleSet)} - {"preset"}
    assert options - set(OPTION_VALUES) == set(), "add the new option to random_rounds.OPTION_VALUES"
    rng = random.Random(2026)
    drawn: dict[str, set[str]] = {name: set() for name in OPTION_VALUES}
    for _ in range(1500):
        for name, value in random_record(rng)["options"].items():
            drawn[name].add(json.dumps(value, sort_keys=True))
    for name, values in OPTION_VALUES.items():
        assert drawn[name] == {json.dumps(v, sort_keys=True) for v in values}, name


# ------------------------------------------------------------------------- every option, played
RECORDS_PER_OPTION = 120
# Options only rare rounds show (a 热炮 or 抢杠 round, a one-suit 单钓, a 天胡, a claimed 金鸡 幺鸡):
# more rounds, so each is still seen to pay.
RARE_OPTION_RECORDS = {name: 1500 for name in (
    "hot_shot_burn", "robbed_kong_burn", "qing_dan_diao", "tian_hu", "ze_ren_every", "ze_ren_gold")}


def _played(data: dict, option: str, value) -> dict:
    played = copy.deepcopy(data)
    played["options"] = {**COMPANIONS.get(option, {}), **played["options"], option: value}
    return played


@pytest.mark.slow
@pytest.mark.parametrize("option", sorted(OPTION_VALUES))
def test_every_option_played_changes_some_settlement_and_reads_as_the_independent_reading(option):
    """Each option forced on random rounds (with the options it needs): the engine and the
    reference scorer settle alike, and at least one round pays or deals differently than with the
    option as its preset has it. An option whose arithmetic was left out (or the reference not
    taught it) fails here even where the mixed draw of the tests above rarely plays it."""
    rng = random.Random(option)
    changed = settled = 0
    for turn in range(RARE_OPTION_RECORDS.get(option, RECORDS_PER_OPTION)):
        data = random_record(rng)
        preset_value = getattr(PRESETS[data["preset"]], option)
        values = [v for v in OPTION_VALUES[option] if v != preset_value and v != {}]
        if not values:
            continue
        played = _played(data, option, values[turn % len(values)])
        try:
            s = settle_record(played)
        except RecordInvalid:
            continue  # this round is not legal under the option (a 没叫 it no longer allows, …)
        settled += 1
        assert (s.net, s.next_dealer) == reference_settle(played, s.record.rules), played
        try:
            base = settle_record(_played(data, option, preset_value))
        except RecordInvalid:  # the preset's value refuses what the option allows (通行证)
            changed += 1
            continue
        changed += (s.items, s.next_dealer) != (base.items, base.next_dealer)
    assert settled >= RECORDS_PER_OPTION // 2, f"{option}: too few random rounds are legal with it"
    assert changed, f"{option}: played on {settled} random rounds, it changed no settlement"
