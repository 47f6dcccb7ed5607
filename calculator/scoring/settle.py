"""结算: a round record in, an itemised settlement out (R9, R10, R40)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from .analysis import SeatAnalysis, analyse, analyse_possible
from .chickens import chicken_kinds, settle_chickens, turned_chickens
from .dealer import next_dealer
from .dou import settle_dou
from .draw import settle_cha_jiao
from .items import Item, Phrase, Table
from .penalties import settle_cap, settle_gen_zhuang, settle_passed_win, settle_xiang_gong
from .problems import RecordInvalid
from .record import RoundRecord, parse_record
from .rules import RuleSet
from .tiles import Tile
from .validate import validate
from .win import burned_seats, hot_kong_meld, settle_dealer, settle_declarations, settle_hu


def decimal_text(amount: Decimal) -> str:
    """Exact and plain: 16.0 → "16", -6.50 → "-6.5", 40 → "40" (never "4E+1")."""
    text = f"{amount.normalize():f}"
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Settlement:
    record: RoundRecord
    hands: tuple[SeatAnalysis, ...]
    items: tuple[Item, ...]
    next_dealer: int
    burned: frozenset[int]
    void: tuple[Phrase, ...] = ()  # what paid nothing and why (`Table.not_counted`); never in the items

    @property
    def chickens(self) -> tuple[Tile, ...]:
        """The kinds the turned tile made 翻牌鸡 (R19, R48), in tile order: 幺鸡 among them is 金鸡 (R21)."""
        return tuple(sorted(turned_chickens(self.record)))

    @property
    def chicken_kinds(self) -> tuple[tuple[Tile, str, bool], ...]:
        """Every kind of tile that was a chicken this round: (tile, kind, gold), see `chicken_kinds`."""
        return chicken_kinds(self.record)

    @cached_property
    def matrix(self) -> list[list[int]]:
        """M[payer][payee], the sum of the items."""
        n = self.record.players
        matrix = [[0] * n for _ in range(n)]
        for item in self.items:
            matrix[item.payer][item.payee] += item.points
        return matrix

    @cached_property
    def net(self) -> list[int]:
        """Points received minus points paid, per seat; always sums to zero."""
        net = [0] * self.record.players
        for item in self.items:
            net[item.payer] -= item.points
            net[item.payee] += item.points
        return net

    @property
    def money(self) -> list[Decimal]:
        return [points * self.record.stake for points in self.net]

    def to_dict(self) -> dict[str, Any]:
        """The JSON of RULES §6."""
        hands = []
        for hand in self.hands:
            data = hand.to_dict()
            data["burned"] = hand.seat in self.burned
            hands.append(data)
        return {
            "net": self.net,
            "matrix": self.matrix,
            "items": [item.to_dict() for item in self.items],
            "money": [decimal_text(m) for m in self.money],
            "stake": decimal_text(self.record.stake),
            "hands": hands,
            "next_dealer": self.next_dealer,
        }


def _settle_win(table: Table) -> None:
    """The order of R10: hand, declarations, 豆, 鸡, then penalties."""
    settle_hu(table)
    settle_dealer(table)
    settle_declarations(table)
    settle_dou(table)
    settle_chickens(table)


def settle(record: RoundRecord, hands: tuple[SeatAnalysis, ...] | None = None) -> Settlement:
    """Settle a record that `check` has passed."""
    hands = hands if hands is not None else analyse(record)
    table = Table(record, hands)
    outcome = record.outcome
    if outcome.is_draw:
        settle_cha_jiao(table)
    elif any(w.passed_before for w in outcome.winners):
        settle_passed_win(table)  # the whole settlement: nobody's 豆 or 鸡 counts, nobody is burned
    else:
        table.burned = burned_seats(record)
        kong = hot_kong_meld(record)
        if kong is not None and record.rules.hot_shot_burn == "kong":
            table.dead_kong = (outcome.from_seat, kong)
        _settle_win(table)
    settle_xiang_gong(table)
    settle_gen_zhuang(table)
    settle_cap(table)
    return Settlement(record, hands, tuple(table.items), next_dealer(record, hands), table.burned,
                      tuple(table.void))


def check(data: Any) -> tuple[RoundRecord, tuple[SeatAnalysis, ...]]:
    """Parse and validate a record; raises `RecordInvalid` with every problem found. Tiles are
    counted before any hand is analysed, and a hand no table could deal is not."""
    record = parse_record(data)
    hands = analyse_possible(record)
    problems = validate(record, hands)
    if problems:
        raise RecordInvalid(problems)
    return record, hands  # every seat was analysed: an unanalysed one is a problem above


def settle_record(data: Any) -> Settlement:
    """A round record (JSON-shaped data) in, its settlement out; raises `RecordInvalid`."""
    record, hands = check(data)
    return settle(record, hands)


def settle_under(data: Any, rules: RuleSet) -> Settlement:
    """The same round record scored under other rules (换个规矩看看), every option spelled out
    so that nothing falls back to a preset's defaults; raises `RecordInvalid` when the round
    does not stand under them (a 点豆 is no pass in 安顺, say)."""
    options = {k: v for k, v in rules.to_dict().items() if k != "preset"}
    return settle_record({**data, "preset": rules.preset, "options": options})
