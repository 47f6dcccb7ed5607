"""RULES §8: every worked example reproduced exactly (net, next dealer, money, E1's items)."""
from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from calculator.scoring import settle_record

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
EXPECTED = json.loads((EXAMPLES / "expected.json").read_text(encoding="utf-8"))


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def test_every_example_file_has_an_expectation():
    names = sorted(p.stem for p in EXAMPLES.glob("E*.json"))
    assert names == sorted(EXPECTED) == [f"E{i}" for i in range(1, 9)]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_net_and_next_dealer(name):
    settlement = settle_record(example(name))
    assert settlement.net == EXPECTED[name]["net"]
    assert settlement.next_dealer == EXPECTED[name]["next_dealer"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_is_zero_sum_in_items_net_and_matrix(name):
    settlement = settle_record(example(name))
    assert sum(settlement.net) == 0
    matrix = settlement.matrix
    n = len(matrix)
    assert sum(map(sum, matrix)) == sum(i.points for i in settlement.items)
    for seat in range(n):
        received = sum(matrix[payer][seat] for payer in range(n))
        assert received - sum(matrix[seat]) == settlement.net[seat]


@pytest.mark.parametrize("name, money", [
    ("E5", ["40", "4", "-22", "-22"]),  # [20, 2, -11, -11] × stake 2
    ("E8", ["-6.5", "-9.5", "16"]),     # [-13, -19, 32] × stake 0.5, as §8 prints it
])
def test_example_money_at_its_stake(name, money):
    settlement = settle_record(example(name))
    assert settlement.money == [Decimal(m) for m in money]
    assert settlement.to_dict()["money"] == money


def test_e1_items_are_those_listed_in_rules_section_8():
    """§8 E1 lists the items per payer; chickens of one seat are one line there, so lines are
    compared per (payer, payee, group) with the engine's per-kind chicken lines added up."""
    settlement = settle_record(example("E1"))
    lines: Counter[tuple[int, int, str]] = Counter()
    for item in settlement.items:
        lines[(item.payer, item.payee, item.group)] += item.points
    expected = Counter({
        (2, 0, "hu"): 1,                                     # 2→0 1 (R11)
        (1, 0, "dou"): 2, (2, 0, "dou"): 2, (3, 0, "dou"): 2,  # 1, 2, 3 → 0 2 each (闷豆)
        (1, 0, "ji"): 3, (2, 0, "ji"): 3, (3, 0, "ji"): 3,     # 1, 2, 3 → 0 3 each (幺鸡 ×2 + 6万)
        (0, 1, "ji"): 1, (2, 1, "ji"): 1, (3, 1, "ji"): 1,     # 0, 2, 3 → 1 1 each (discarded 6万)
    })
    assert lines == expected
    assert {(i.reason, i.rule) for i in settlement.items} == {
        ("hu.discard", "R11"), ("dou.men", "R16"), ("ji.yaoji", "R21"), ("ji.turned", "R19"),
    }


def test_e1_seat_3s_chong_feng_counts_for_nothing_as_it_is_not_ready():
    settlement = settle_record(example("E1"))
    assert not any(i.reason == "ji.chong_feng" for i in settlement.items)
    assert [h.status for h in settlement.hands] == ["won", "ready", "not_ready", "not_ready"]
    assert {str(w.tile) for w in settlement.hands[1].waits} == {"4s", "7s"}


def test_e2_wait_on_a_kind_held_four_times_does_not_count():
    settlement = settle_record(example("E2"))
    # Seat 2 holds 234m678m99m45p + 转弯豆 6筒: 3筒 and 6筒 would complete it, but it holds all four 6筒.
    assert [str(w.tile) for w in settlement.hands[2].waits] == ["3p"]


def test_e5_values_of_the_ready_seats():
    settlement = settle_record(example("E5"))
    assert [h.value for h in settlement.hands] == [10, 1, 0, 0]
    assert {str(w.tile) for w in settlement.hands[0].waits} == {f"{r}p" for r in range(1, 10)}
    assert [str(w.tile) for w in settlement.hands[1].waits] == ["8s"]  # 5条 is void: it holds that 闷豆
