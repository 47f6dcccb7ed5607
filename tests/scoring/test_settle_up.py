"""散场结账 (R43): the fewest transfers, computed exactly, checked against brute force."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.scoring.settle_up import Transfer, minimum_transfers, zero_sum_groups


def apply(nets: list[int], transfers: list[Transfer]) -> list[int]:
    left = list(nets)
    for t in transfers:
        left[t.payer] += t.points
        left[t.payee] -= t.points
    return left


def partitions(items: list[int]):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first, *part[i]]] + part[i + 1:]
        yield [[first], *part]


def brute_force_minimum(nets: list[int]) -> int:
    best = max(len(p) for p in partitions(list(range(len(nets))))
               if all(sum(nets[i] for i in group) == 0 for group in p))
    return len(nets) - best


@pytest.mark.parametrize(
    ("nets", "count"),
    [
        ([0, 0, 0, 0], 0),
        ([5, -5, 0, 0], 1),
        ([15, -2, -7, -6], 3),  # E1: one winner, three payers
        ([5, -5, 3, -3], 2),  # two pairs beat a chain of three
        ([10, -4, -6], 2),
        ([4, 4, -3, -5], 3),
        ([7, -7, 7, -7, 1, -1, 2, -2], 4),
    ],
)
def test_table_of_known_minimums(nets, count):
    transfers = minimum_transfers(nets)
    # R43: n minus the largest number of disjoint zero-sum groups
    assert len(transfers) == count == len(nets) - len(zero_sum_groups(list(nets)))
    assert apply(nets, transfers) == [0] * len(nets)


def test_pairs_are_found_even_when_greedy_would_chain_them():
    # Greedy largest-to-largest pays 6→1 (6), then 5's debt is split: 3 transfers instead of 2.
    nets = [6, -5, 5, -6]
    assert minimum_transfers(nets) == [Transfer(1, 2, 5), Transfer(3, 0, 6)]


def test_every_transfer_is_positive_and_between_two_players():
    for t in minimum_transfers([9, -1, -3, -5]):
        assert t.points > 0 and t.payer != t.payee


def test_zero_sum_groups_partition_the_players():
    groups = zero_sum_groups([5, -5, 3, -3, 0])
    assert sorted(p for g in groups for p in g) == [0, 1, 2, 3, 4]
    assert len(groups) == 3


def test_nets_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(ValueError):
        minimum_transfers([1, 0, 0])


def test_more_than_eight_players_are_refused():
    with pytest.raises(ValueError):
        minimum_transfers([0] * 9)


@st.composite
def zero_sum_nets(draw, min_size=2, max_size=6):
    head = draw(st.lists(st.integers(-60, 60), min_size=min_size - 1, max_size=max_size - 1))
    return [*head, -sum(head)]


@settings(max_examples=300, deadline=None)
@given(zero_sum_nets())
def test_the_plan_is_minimal_and_settles_everyone(nets):
    transfers = minimum_transfers(nets)
    assert apply(nets, transfers) == [0] * len(nets)
    assert len(transfers) == brute_force_minimum(nets)


@settings(max_examples=100, deadline=None)
@given(zero_sum_nets(min_size=8, max_size=8))
def test_eight_players_are_settled(nets):
    assert apply(nets, minimum_transfers(nets)) == [0] * 8


@given(zero_sum_nets())
def test_the_plan_is_the_same_every_time(nets):
    assert minimum_transfers(nets) == minimum_transfers(list(nets))
