"""R35: who deals next after a win (R34, after a draw, is in test_draw; R36 in test_penalties)."""
from __future__ import annotations

import pytest

from calculator.scoring import settle_record

from .factory import discard_win, record, rotate, seat, self_draw

# E4's table: seat 2's 5条 completes seat 1 (平胡, 点豆 fed by seat 0) and seat 3 (小七对).
TWO_WINNERS = ["1m4m7m2p5p8p3s6s9s1s2m5m8s", "234p678p345s77m D8m<0", "3m6m9m1p4p9p2s4s7s3m6m9m4p",
               "11p33p55m66m22s99s55s"]


def two_winners(dealer: int, **kw) -> dict:
    return record(TWO_WINNERS, discard_win(2, (1, "5s"), (3, "5s")), dealer=dealer, **kw)


@pytest.mark.parametrize("rule, dealer, expected", [
    # guiyang, two winners: the first winner from the dealer on, in turn order (the dealer included).
    ("guiyang", 0, 1),
    ("guiyang", 1, 1),
    ("guiyang", 2, 3),
    ("guiyang", 3, 3),
    # discarder (安顺): seat 2, whoever deals.
    ("discarder", 0, 2),
    ("discarder", 3, 2),
    # after_discarder (兴义): the first winner after seat 2 is seat 3.
    ("after_discarder", 0, 3),
    ("after_discarder", 1, 3),
])
def test_r35_dealer_after_two_winners(rule, dealer, expected):
    data = two_winners(dealer, options={"multi_win_dealer": rule})
    assert settle_record(data).next_dealer == expected


@pytest.mark.parametrize("preset, expected", [("guiyang", 1), ("anshun", 2), ("xingyi", 3)])
def test_r35_preset_defaults_with_two_winners(preset, expected):
    # 安顺 would not accept the 点豆 as seat 1's pass (R15), so the pass rule is relaxed here.
    data = two_winners(0, preset=preset, options={"pass_dou": "any"})
    assert settle_record(data).next_dealer == expected


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("rule, dealer", [
    ("guiyang", 0), ("guiyang", 2), ("after_discarder", 1), ("discarder", 0),
])
def test_r35_is_about_turn_order_not_seat_numbers(rule, dealer, k):
    data = two_winners(dealer, options={"multi_win_dealer": rule})
    expected = (settle_record(data).next_dealer + k) % 4
    assert settle_record(rotate(data, k)).next_dealer == expected


# Three players: seat 1's 5条 completes seat 0 (平胡, 点豆 fed by seat 1) and seat 2 (小七对).
THREE_PLAYERS = ["234p678p345s77m D8m<1", "3m6m9m1p4p9p2s4s7s3m6m9m4p", "11p33p55m66m22s99s55s"]


@pytest.mark.parametrize("rule, dealer, expected", [
    ("guiyang", 0, 0),          # two winners: first from the dealer on
    ("guiyang", 1, 2),          # from seat 1: seat 2
    ("guiyang", 2, 2),
    ("discarder", 0, 1),
    ("after_discarder", 0, 2),  # after seat 1: seat 2
])
def test_r35_three_players(rule, dealer, expected):
    data = record(THREE_PLAYERS, discard_win(1, (0, "5s"), (2, "5s")), dealer=dealer,
                  options={"multi_win_dealer": rule})
    assert settle_record(data).next_dealer == expected


@pytest.mark.parametrize("preset", ["guiyang", "anshun", "xingyi"])
def test_r35_a_single_winner_deals_next(preset):
    # 小七对 self-drawn by seat 3 while seat 1 deals.
    data = record(TWO_WINNERS[:3] + ["11p33p55m66m22s99s55s"], self_draw(3, "5s"), dealer=1, preset=preset)
    data["seats"][1] = seat("234p678p34s77m D8m<0")  # seat 1 without its 5条: 13 tiles
    assert settle_record(data).next_dealer == 3
