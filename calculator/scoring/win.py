"""胡: paying for the win (R11–R14) and for declarations (R30–R31)."""
from __future__ import annotations

from .hands import PATTERN_HANZI
from .items import Table
from .record import Meld, RoundRecord
from .rules import RuleSet


def self_draw_points(rules: RuleSet, value: int) -> int:
    """S(V), what each other seat pays for a 自摸 (R12)."""
    return value + 1 if rules.self_draw == "plus_one" else 2 * value


def hot_kong_meld(record: RoundRecord) -> Meld | None:
    outcome = record.outcome
    if outcome.hot_kong is None or outcome.from_seat is None:
        return None
    return next(m for m in record.seats[outcome.from_seat].kongs if m.tile == outcome.hot_kong)


def kong_total(record: RoundRecord, kong: Meld) -> int:
    """A kong's full value (R13 `kong_total`): per payer × (N−1), or a 点豆's single payment."""
    if kong.late:
        return 0
    value = record.rules.dou_value(kong.kind)
    return value if kong.kind == "dian" else value * (record.players - 1)


def burned_seats(record: RoundRecord) -> frozenset[int]:
    """烧光 (R13, R14): the discarder of a 热炮 or the robbed seat, where the rules burn them."""
    outcome, rules = record.outcome, record.rules
    if outcome.hot_kong is not None and rules.hot_shot_burn == "all":
        return frozenset({outcome.from_seat})
    if outcome.robbed and rules.robbed_kong_burn == "all":
        return frozenset({outcome.from_seat})
    return frozenset()


def _describe(table: Table, seat: int) -> str:
    hand = table.hands[seat]
    text = f"{PATTERN_HANZI[hand.reading.pattern]} {hand.reading.value}"
    if hand.declared_bonus:
        text += f" + 报听 {hand.declared_bonus}"
    return text


def _self_draw(table: Table, winner: int) -> None:
    rules = table.rules
    points = self_draw_points(rules, table.hands[winner].value)
    detail = f"{_describe(table, winner)}，自摸"
    if table.record.outcome.after_kong and rules.kong_bloom_bonus:
        points += rules.kong_bloom_bonus
        detail += f"，杠上开花 +{rules.kong_bloom_bonus}"
    table.each_other_pays(winner, points, "hu.self_draw", "R12", detail)


def _robbed(table: Table, winner: int, robbed: int) -> None:
    rules, value = table.rules, table.hands[winner].value
    if rules.robbed_kong == "pay_all":
        points = (table.record.players - 1) * self_draw_points(rules, value)
        detail = f"{_describe(table, winner)}，抢杠包{table.record.players - 1}家"
    else:
        points = max(value, rules.patterns["qing_yi_se"])
        detail = f"{_describe(table, winner)}，抢杠按清一色"
    table.pay(robbed, winner, points, "hu.robbed", "R14", detail)


def _hot_shot(table: Table, winner: int, discarder: int) -> None:
    rules, record = table.rules, table.record
    bonus = {"one": 1, "none": 0}.get(rules.hot_shot_bonus)
    if bonus is None:  # kong_total
        bonus = kong_total(record, hot_kong_meld(record))
    detail = f"{_describe(table, winner)}，热炮 +{bonus} ({record.outcome.hot_kong.hanzi})"
    table.pay(discarder, winner, table.hands[winner].value + bonus, "hu.hot_shot", "R13", detail)


def settle_hu(table: Table) -> None:
    outcome = table.record.outcome
    for winner in outcome.winner_seats:
        if outcome.is_self_draw:
            _self_draw(table, winner)
        elif outcome.robbed:
            _robbed(table, winner, outcome.from_seat)
        elif outcome.hot_kong is not None:
            _hot_shot(table, winner, outcome.from_seat)
        else:
            table.pay(outcome.from_seat, winner, table.hands[winner].value, "hu.discard", "R11", _describe(table, winner))


def settle_declarations(table: Table) -> None:
    """杀报 (R31): a declarer fed the win, or another seat self-drew past it."""
    record, rules = table.record, table.rules
    outcome = record.outcome
    if outcome.is_self_draw:
        winner = outcome.winners[0].seat
        for seat in record.others(winner):
            if record.seats[seat].declared:
                table.pay(seat, winner, rules.declare_kill_self_draw, "bao.kill", "R31", "杀报，自摸")
        return
    declared = record.seats[outcome.from_seat].declared
    if declared:
        bonus = rules.declare[declared]
        for winner in outcome.winner_seats:
            table.pay(outcome.from_seat, winner, bonus, "bao.kill", "R31", f"杀报 {bonus}")
