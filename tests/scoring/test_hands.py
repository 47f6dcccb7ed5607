"""R5–R8: complete hands, patterns (牌型) and their points, waits and the 叫 value."""
from __future__ import annotations

import random
from itertools import product

import pytest

from calculator.scoring import PRESETS, Hand, best_reading, is_complete, parse_tiles, waits_of
from calculator.scoring import hands as hands_module
from calculator.scoring.hands import patterns_of


def hand(text: str, *melds: str) -> Hand:
    """`hand("45p789m123s99s", "K6p")`: K is a kong, P a pong."""
    return Hand.of(parse_tiles(text), [(parse_tiles(m[1:])[0], 4 if m[0] == "K" else 3) for m in melds])


def waits(text: str, *melds: str) -> list[str]:
    return [str(w.tile) for w in waits_of(hand(text, *melds), PRESETS["guiyang"].patterns)]


@pytest.mark.parametrize("text, melds, pattern, points", [
    ("123m456p789p234s55s", (), "ping_hu", 1),
    ("222m555p888s333s99m", (), "da_dui_zi", 5),
    ("555p888s99m", ("K2m", "P3s"), "da_dui_zi", 5),       # kongs and pongs are triplets
    ("11m33m55p77p99s22s44s", (), "xiao_qi_dui", 10),
    ("123m456m789m234m55m", (), "qing_yi_se", 10),
    ("222m444m666m888m99m", (), "qing_da_dui", 15),
    ("11p33p55p66p77p88p99p", (), "qing_qi_dui", 20),
    ("1111m33p55p77p99s22s", (), "long_qi_dui", 20),        # a four of a kind counts as two pairs
    ("1111s3333s55s77s99s", (), "qing_long_qi_dui", 30),
    # The single best reading: 111222333m is three triplets or three sequences → 大对子, not 平胡.
    ("111222333m444p55s", (), "da_dui_zi", 5),
    # 7 pairs of one suit that also reads as 清一色 (123 123 456 456 77) → 清七对 20.
    ("11223344556677p", (), "qing_qi_dui", 20),
])
def test_r7_patterns_and_points(text, melds, pattern, points):
    reading = best_reading(hand(text, *melds), PRESETS["guiyang"].patterns)
    assert (reading.pattern, reading.value) == (pattern, points)


@pytest.mark.parametrize("preset, points", [("guiyang", 30), ("anshun", 30), ("xingyi", 40)])
def test_r7_qing_long_qi_dui_is_worth_40_in_xingyi(preset, points):
    assert best_reading(hand("1111s3333s55s77s99s"), PRESETS[preset].patterns).value == points


@pytest.mark.parametrize("text, melds", [
    ("123m456p789p234s5s6s", ()),        # no pair
    ("11m33p55p77p", ("P9s", "P2s")),    # pairs with melds are not seven pairs
    ("123m456p789p234s55s9s", ()),       # 15 tiles
    ("1111m234p567p789s", ()),           # 13 tiles
])
def test_r6_incomplete_hands(text, melds):
    assert not is_complete(hand(text, *melds))


def test_r8_waits_and_value():
    # 2345m + 567p 567s 789s: waits 2万 and 5万 (the 2345 shape), 平胡.
    assert waits("2345m567p567s789s") == ["2m", "5m"]
    # The 九莲 shape of E5 waits on every 筒, all 清一色.
    assert waits("1112345678999p") == [f"{r}p" for r in range(1, 10)]


def test_r8_a_wait_on_a_kind_the_seat_holds_four_of_does_not_count():
    # 45筒 with a 闷豆 of 6筒: 3筒 and 6筒 would complete it, but all four 6筒 are the seat's own.
    assert waits("45p789m123s99s", "K6p") == ["3p"]
    # With only a pong of 6筒 the wait on 6筒 counts.
    assert waits("45p789m123s99s", "P6p") == ["3p", "6p"]
    # Concealed four: 1111万 + three sets waits only on a fifth 1万: not ready at all.
    assert waits("1111m234p567p789s") == []
    # Seven pairs with 1111万: the single 6条 is still a wait (龙七对).
    assert waits("1111m22p33p44s55s6s") == ["6s"]


def test_r8_the_jiao_value_is_the_best_pattern_over_the_waits():
    # 11m 22m 33m 44p 55p 66p 7s: 7条 → 小七对 (10); no other wait.
    h = hand("112233m445566p7s")
    found = waits_of(h, PRESETS["guiyang"].patterns)
    assert [(str(w.tile), w.pattern, w.value) for w in found] == [("7s", "xiao_qi_dui", 10)]
    # 112233m 445566p 77s + 7s reads as 7 pairs or as 123 123 456 456 77 — the wait on 7s scored 10.
    h = hand("112233m445566p77s")
    assert is_complete(h)


def test_r7_equal_house_points_never_turn_a_da_dui_zi_into_a_ping_hu():
    # 111222333m reads as triplets or as sequences; with both worth 1 the hand is still read as
    # the higher pattern of R7's list, so it needs no pass (R15).
    points = {**PRESETS["guiyang"].patterns, "da_dui_zi": 1}
    assert best_reading(hand("111222333m444p55s"), points).pattern == "da_dui_zi"


@pytest.mark.slow
def test_r6_the_table_of_complete_suits_is_every_suit_the_readings_can_split():
    # is_complete looks suits up in a table instead of reading them: the table must hold exactly
    # the suits of up to 14 tiles (four of a kind at most) that split into sets and at most one
    # pair, all 405,350 shapes checked against the recursive reading.
    shapes = [s for s in product(range(5), repeat=9) if sum(s) <= 14]
    try:
        readable = {s for s in shapes if hands_module._suit_readings(s)}
    finally:
        hands_module._suit_readings.cache_clear()  # 400,000 entries no other test needs
    assert len(shapes) == 405_350
    assert hands_module._complete_suits() == readable


def test_r6_is_complete_agrees_with_the_patterns_on_random_hands():
    # The table path against the suit readings that patterns_of uses, on dealt hands, hands put
    # together from complete suits, seven pairs, and each of those with one tile moved.
    rng = random.Random(6)
    by_size: dict[int, list[tuple[int, ...]]] = {}
    for suit in sorted(hands_module._complete_suits()):
        by_size.setdefault(sum(suit), []).append(suit)
    checked = complete = 0
    while checked < 30_000:
        melds = rng.choice((0, 0, 0, 1, 2))
        size = 14 - 3 * melds
        kind = rng.random()
        if kind < 0.3:
            counts = [0] * 27
            for k in rng.sample([k for k in range(27) for _ in range(4)], size):
                counts[k] += 1
        elif kind < 0.8:
            a, b = rng.choice(list(by_size)), rng.choice(list(by_size))
            if size - a - b not in by_size:
                continue
            counts = [c for n in rng.sample((a, b, size - a - b), 3) for c in rng.choice(by_size[n])]
        else:
            counts = [0] * 27
            for k in rng.sample([k for k in range(27) for _ in range(2)], size // 2):
                counts[k] += 2
        if rng.random() < 0.5:
            counts[rng.choice([k for k in range(27) if counts[k]])] -= 1
            counts[rng.randrange(27)] += 1
        h = Hand(tuple(counts), tuple(rng.sample(range(27), melds)), (3,) * melds)
        assert is_complete(h) == bool(patterns_of(h)), h
        checked += 1
        complete += is_complete(h)
    assert 5_000 < complete < 25_000  # both answers well exercised (about 7,000 complete)


@pytest.mark.parametrize("counts, complete", [
    ({0: 5, 1: 3, 2: 3, 3: 3}, True),          # 11111m as a triplet and a pair: read, not looked up
    ({0: 6, 9: 2, 10: 2, 11: 2, 12: 2}, True),  # a six as three pairs
    ({0: 7, 9: 3, 10: 4}, False),
])
def test_r6_more_than_four_of_a_kind_is_answered_as_the_readings_always_did(counts, complete):
    # No real hand (validation rejects it), but is_complete still gives the readings' answer.
    h = Hand(tuple(counts.get(k, 0) for k in range(27)))
    assert is_complete(h) == bool(patterns_of(h)) == complete
