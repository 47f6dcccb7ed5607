"""胡: paying for the win (R11–R14) and for declarations (R30–R31)."""
from __future__ import annotations

from .items import Phrase, Table
from .record import Meld, RoundRecord
from .rules import RuleSet


SELF_DRAW = {"plus_one": lambda v: v + 1, "double": lambda v: 2 * v,
             "plain": lambda v: v, "double_plus_one": lambda v: 2 * v + 1}  # the last two: R45


def self_draw_points(rules: RuleSet, value: int) -> int:
    """S(V), what each other seat pays for a 自摸 (R12, R45)."""
    return SELF_DRAW[rules.self_draw](value)


def self_draw_rule(rules: RuleSet) -> str:
    return "R12" if rules.self_draw in ("plus_one", "double") else "R45"


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


def _describe(table: Table, seat: int) -> tuple[Phrase, ...]:
    """The winning hand: its pattern and value, and the 报听 bonus on top (清大对 15 + 报听 10)."""
    hand = table.hands[seat]
    words: tuple[Phrase, ...] = ((hand.reading.pattern, hand.reading.value),)
    if hand.declared_bonus:
        words += (("declared", hand.declared_bonus),)
    return words


def _self_draw(table: Table, winner: int) -> None:
    rules, record = table.rules, table.record
    value, rule, extra = table.hands[winner].value, self_draw_rule(rules), ()
    if record.outcome.first_draw:  # 天胡 / 地胡 (R62)
        kind = "tian_hu" if winner == record.dealer else "di_hu"
        fixed = getattr(rules, kind)
        if fixed:  # the whole payment, whatever the pattern
            table.each_other_pays(winner, fixed, "hu.self_draw", "R62", (kind, fixed))
            return
        if rules.tian_di_bonus:
            value, rule = value + rules.tian_di_bonus, "R62"
            extra = ((f"{kind}_bonus", rules.tian_di_bonus),)
    points = self_draw_points(rules, value)
    words = (*_describe(table, winner), *extra, ("self_draw",))
    if record.outcome.after_kong and rules.kong_bloom_bonus:
        points += rules.kong_bloom_bonus
        words += (("kong_bloom", rules.kong_bloom_bonus),)
    table.each_other_pays(winner, points, "hu.self_draw", rule, *words)


def _robbed(table: Table, winner: int, robbed: int) -> None:
    rules, value = table.rules, table.hands[winner].value
    others = table.record.players - 1
    rule = "R14"
    if rules.robbed_kong == "pay_all":
        points = others * self_draw_points(rules, value)
        how = ("robbed_pay_all", others)
    elif rules.robbed_kong == "qing_yi_se":
        points = max(value, rules.patterns["qing_yi_se"])
        how = ("robbed_qing_yi_se",)
    else:  # R46: the amounts other tables charge the robbed seat
        rule = "R46"
        points = {"pay_all_plain": others * value, "four_v": 4 * value, "v_plus_one": value + 1}[rules.robbed_kong]
        how = (f"robbed_{rules.robbed_kong}", others) if rules.robbed_kong == "pay_all_plain" else (
            f"robbed_{rules.robbed_kong}",)
    table.pay(robbed, winner, points, "hu.robbed", rule, *_describe(table, winner), how)


def _hot_shot(table: Table, winner: int, discarder: int) -> None:
    rules, record = table.rules, table.record
    value, rule = table.hands[winner].value, "R13"
    bonus = {"one": 1, "none": 0}.get(rules.hot_shot_bonus)
    if rules.hot_shot_bonus == "double":  # R47: the discarder pays 2V
        bonus, rule = value, "R47"
    elif bonus is None:  # kong_total
        bonus = kong_total(record, hot_kong_meld(record))
    table.pay(discarder, winner, value + bonus, "hu.hot_shot", rule,
              *_describe(table, winner), ("hot_shot", bonus, str(record.outcome.hot_kong)))


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
            table.pay(outcome.from_seat, winner, table.hands[winner].value, "hu.discard", "R11",
                      *_describe(table, winner))


def settle_dealer(table: Table) -> None:
    """庄家加番 / 连庄 (R59): every payment for the win that the dealer receives or makes moves
    `dealer_bonus` more, plus `dealer_streak_bonus` per round the dealer has dealt in a row. The
    dealer robbing a kong is paid it (N−1) times: the robbed seat pays for every other seat (R14).
    Under `dealer_bonus_win_only` (R66) a dealer paying for another's win pays nothing more."""
    rules, record = table.rules, table.record
    extra = rules.dealer_bonus + rules.dealer_streak_bonus * record.dealer_streak
    if not extra:
        return
    others = record.players - 1
    for item in [i for i in table.items if i.reason.startswith("hu.")]:
        if item.reason == "hu.robbed" and item.payee == record.dealer:
            table.pay(item.payer, item.payee, others * extra, "hu.dealer", "R59",
                      ("dealer", others * extra), ("robbed_pay_all", others))
        elif item.payee == record.dealer:
            table.pay(item.payer, item.payee, extra, "hu.dealer", "R59", ("dealer", extra))
        elif item.payer == record.dealer and not rules.dealer_bonus_win_only:  # R66: the win only
            table.pay(item.payer, item.payee, extra, "hu.dealer", "R59", ("dealer", extra))


def settle_declarations(table: Table) -> None:
    """杀报 (R31): a declarer fed the win, or another seat self-drew past it."""
    record, rules = table.record, table.rules
    outcome = record.outcome
    if outcome.is_self_draw:
        winner = outcome.winners[0].seat
        for seat in record.others(winner):
            declared = record.seats[seat].declared
            if declared and rules.declare_kill_by_kind:  # R56: each declarer pays its own bonus
                bonus = rules.declare[declared]
                table.pay(seat, winner, bonus, "bao.kill", "R56", ("bao_kill", bonus), ("self_draw",))
            elif declared:
                table.pay(seat, winner, rules.declare_kill_self_draw, "bao.kill", "R31",
                          ("bao_kill",), ("self_draw",))
        return
    declared = record.seats[outcome.from_seat].declared
    if declared:
        bonus = rules.declare[declared]
        for winner in outcome.winner_seats:
            table.pay(outcome.from_seat, winner, bonus, "bao.kill", "R31", ("bao_kill", bonus))
