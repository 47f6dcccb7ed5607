"""Reads of the ledger: totals are sums of the stored rounds, and what the pages show."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator import selectors, services
from calculator.models import Round
from calculator.presentation import signed
from tests.factories import GUIYANG_FOUR, NAMES, example_record, expected_net, make_evening, record_rounds

pytestmark = pytest.mark.django_db


def column_sums(nets):
    return [sum(column) for column in zip(*nets)]


def expected_totals(examples: list[str], players: int = 4) -> list[int]:
    """The totals RULES §8 gives for rounds played as these worked examples (expected.json)."""
    return column_sums([expected_net(e) for e in examples]) if examples else [0] * players


def test_totals_follow_the_worked_examples_through_thirty_rounds_a_correction_and_a_delete():
    evening = make_evening(stake="0.5")
    played = [GUIYANG_FOUR[i % 5] for i in range(30)]
    rounds = record_rounds(evening, played)
    services.round_correct(round=rounds[1], record=example_record("E5"), expected_version=1)
    played[1] = "E5"
    services.round_delete(round=rounds[7])
    del played[7]
    totals = selectors.evening_totals(evening=evening)
    assert [t.points for t in totals] == expected_totals(played)
    assert Round.objects.filter(evening=evening).count() == 29


def test_totals_show_money_at_the_stake():
    evening = make_evening(stake="0.5")
    record_rounds(evening, ["E1"])
    totals = selectors.evening_totals(evening=evening)
    assert [(t.name, t.points, t.money) for t in totals] == [
        ("老王", 15, "7.5"), ("小李", -2, "-1"), ("阿珍", -7, "-3.5"), ("张哥", -6, "-3"),
    ]


def test_an_evening_without_rounds_totals_zero():
    totals = selectors.evening_totals(evening=make_evening())
    assert [t.points for t in totals] == [0, 0, 0, 0]


def chart_legend_totals(svg: str) -> list[str]:
    return re.findall(r'<tspan font-weight="bold">([^<]*)</tspan>', svg)


def test_the_board_chart_runs_from_zero_through_every_round_to_the_totals():
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    svg = selectors.evening_board(evening=evening).chart_svg
    lines = re.findall(r'<polyline points="([^"]*)"', svg)
    assert len(lines) == 4 and all(len(points.split()) == 3 for points in lines)  # 0, round 1, round 2
    sums = column_sums([expected_net("E1"), expected_net("E2")])
    assert chart_legend_totals(svg) == [signed(total) for total in sums]


def test_the_next_dealer_is_the_last_rounds_result_or_the_first_dealer():
    evening = make_evening(first_dealer=2)
    assert selectors.next_dealer(evening=evening) == 2
    record_rounds(evening, ["E2"])  # seat 1 self-draws (R35)
    assert selectors.next_dealer(evening=evening) == 1
    record_rounds(evening, ["E4"])  # 一炮双响, dealer 2: the first winner from the dealer on is 3
    assert selectors.next_dealer(evening=evening) == 3


def test_the_board_suggests_the_same_next_dealer():
    evening = make_evening(first_dealer=2)
    assert selectors.evening_board(evening=evening).next_dealer == NAMES[2]
    record_rounds(evening, ["E2", "E4"])
    board = selectors.evening_board(evening=evening)
    assert board.next_dealer == NAMES[selectors.next_dealer(evening=evening)] == NAMES[3]  # E4: R35


@pytest.mark.parametrize(("stake", "text"),
                         [("0.5", "0.5"), ("40", "40"), ("1.25", "1.25"), ("1000000", "1000000")])
def test_the_stake_reads_exact_and_plain_everywhere(stake, text):
    evening = make_evening(stake=stake)
    evening.refresh_from_db()  # the column gives it back with four decimals
    assert selectors.evening_stake_text(evening=evening) == text
    assert selectors.evening_board(evening=evening).stake == text
    assert services.evening_export(evening=evening)["stake"] == text
    (round_,) = record_rounds(evening, ["E1"])
    assert round_.record["stake"] == text


@pytest.mark.parametrize(
    ("example", "summary"),
    [
        ("E1", "第1局 老王 胡 平胡（阿珍 点炮） · 老王 +15"),
        ("E2", "第1局 小李 自摸 清大对 · 小李 +59"),
        ("E3", "第1局 老王 胡 大对子（张哥 热炮） · 老王 +14"),
        ("E4", "第1局 小李 平胡、张哥 小七对（阿珍 一炮多响） · 张哥 +10"),
        ("E5", "第1局 荒庄 查叫 · 老王 +20"),
    ],
)
def test_each_round_reads_as_one_line(example, summary):
    evening = make_evening()
    record_rounds(evening, [example])
    assert selectors.evening_board(evening=evening).rounds[0].summary == summary


def test_the_board_lists_rounds_newest_first():
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3"])
    assert [r.number for r in selectors.evening_board(evening=evening).rounds] == [3, 2, 1]


def test_the_stored_settlement_reads_like_the_scored_one():
    from calculator.presentation import present
    from calculator.scoring import settle_record

    evening = make_evening()
    (round_,) = record_rounds(evening, ["E3"])
    stored = present(selectors.stored_settlement(round_))
    fresh = settle_record({**example_record("E3"), "seats": [
        {**s, "name": n} for s, n in zip(example_record("E3")["seats"], NAMES)]})
    assert stored == present(fresh)


def test_the_correction_preview_shows_each_players_round_and_total_before_and_after():
    evening = make_evening()
    first, second = record_rounds(evening, ["E1", "E2"])
    rows = selectors.round_correction_preview(round_=second, after_net=expected_net("E5"))
    assert [(r.before, r.after) for r in rows] == list(zip(expected_net("E2"), expected_net("E5")))
    assert rows[0].total_before == 15 - 29 and rows[0].total_after == 15 + 20


def test_settle_up_zeroes_every_player_with_the_fewest_transfers():
    evening = make_evening(stake="2")
    record_rounds(evening, ["E1", "E2", "E3"])
    plan = selectors.evening_settle_up(evening=evening)
    left = [t.points for t in plan.totals]
    for t in plan.transfers:
        left[t.payer] += t.points
        left[t.payee] -= t.points
    assert left == [0, 0, 0, 0]
    # E1 + E2 + E3 leave 老王 0, 小李 +60, 阿珍 −14, 张哥 −46. R43: 4 players minus the most
    # disjoint groups summing to zero (老王 alone, then the other three together) = 2 transfers.
    assert [t.points for t in plan.totals] == expected_totals(["E1", "E2", "E3"]) == [0, 60, -14, -46]
    assert [(t.payer_name, t.payee_name, t.points, t.money) for t in plan.transfers] == [
        ("阿珍", "小李", 14, "28"), ("张哥", "小李", 46, "92"),
    ]


def test_the_board_states_the_evenings_own_rules():
    evening = make_evening(options={"jian_dou_san": True, "self_draw": "double"})
    board = selectors.evening_board(evening=evening)
    words = dict(board.rules_words)
    assert words["见豆三"] == "每个豆都算 3 番"  # changed: shown although not a main line
    assert words["自摸"] == "每家付 牌型×2"
    assert "杠上开花" not in words  # the preset's, and not a main line
    assert board.rules_headline == "贵阳 · 自定 2 项"


def test_the_chart_is_an_svg_with_every_player():
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    svg = selectors.evening_board(evening=evening).chart_svg
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    for name in NAMES:
        assert name in svg
    assert svg.count("<polyline") == 4


def test_the_chart_escapes_player_names():
    evening = make_evening(names=["<b>老王</b>", "小李", "阿珍", "张哥"])
    record_rounds(evening, ["E1"])
    svg = selectors.evening_board(evening=evening).chart_svg
    assert "<b>" not in svg and "&lt;b&gt;" in svg


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.sampled_from(GUIYANG_FOUR)),
        st.tuples(st.just("correct"), st.sampled_from(GUIYANG_FOUR), st.integers(0, 40)),
        st.tuples(st.just("delete"), st.integers(0, 40)),
    ),
    max_size=14,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(OPERATIONS)
def test_totals_always_equal_the_worked_examples_still_in_the_evening(operations):
    evening = make_evening()
    played: list[str] = []  # the example each round stands for, in round order
    for op in operations:
        rounds = list(Round.objects.filter(evening=evening).order_by("number"))
        if op[0] == "record":
            services.round_record(evening=evening, record=example_record(op[1]))
            played.append(op[1])
        elif rounds and op[0] == "correct":
            target = rounds[op[2] % len(rounds)]
            services.round_correct(round=target, record=example_record(op[1]), expected_version=target.version)
            played[op[2] % len(rounds)] = op[1]
        elif rounds and op[0] == "delete":
            services.round_delete(round=rounds[op[1] % len(rounds)])
            del played[op[1] % len(rounds)]
    totals = [t.points for t in selectors.evening_totals(evening=evening)]
    assert totals == expected_totals(played)
    chart = selectors.evening_board(evening=evening).chart_svg
    assert chart_legend_totals(chart) == [signed(t) for t in totals]
    plan = selectors.evening_settle_up(evening=evening)
    left = list(totals)
    for t in plan.transfers:
        left[t.payer] += t.points
        left[t.payee] -= t.points
    assert left == [0, 0, 0, 0]
    numbers = list(Round.objects.filter(evening=evening).values_list("number", flat=True))
    assert len(numbers) == len(set(numbers))
