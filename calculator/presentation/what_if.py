"""换个规矩看看: one round, or a whole evening, side by side under two sets of rules.

Nothing here is stored or changes what is (R41): the round as scored is set beside the same
record scored again under other rules (`scoring.settle_under`). Per player: both nets and the
difference; per item: the lines only one side has. A round that does not stand under the other
rules (安顺 takes no 点豆 as a pass, say) says why instead.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from ..scoring import RecordInvalid, RuleSet, Settlement, settle_under
from .options import option_lines
from .rules_text import rules_headline
from .settlement import Line, format_money, line_for, problem_message, sign_class, signed


@dataclass(frozen=True)
class SeatSide:
    """One player under both rules: `after` is None when the round does not stand under them."""

    name: str
    before: int
    after: int | None
    money_before: str = ""
    money_after: str = ""

    @property
    def change(self) -> int | None:
        return None if self.after is None else self.after - self.before

    @property
    def texts(self) -> dict[str, str]:
        after = "" if self.after is None else signed(self.after)
        change = "" if self.change is None else signed(self.change)
        return {"before": signed(self.before), "after": after, "change": change,
                "money_before": signed(self.money_before) if self.money_before else "",
                "money_after": signed(self.money_after) if self.money_after else ""}

    @property
    def signs(self) -> dict[str, str]:
        return {"before": sign_class(self.before), "after": sign_class(self.after or 0),
                "change": sign_class(self.change or 0)}


@dataclass(frozen=True)
class RulesSides:
    """The two rule sets by name, and the overview lines that differ: (what, before, after)."""

    before: str
    after: str
    differences: list[tuple[str, str, str]]


@dataclass(frozen=True)
class RoundSides:
    rules: RulesSides
    seats: list[SeatSide]
    removed: list[Line]  # lines of the round as scored that the other rules drop or change
    added: list[Line]  # lines the other rules bring instead
    problems: list[str]  # why the round does not stand under the other rules ([] when it does)
    next_dealer_before: str
    next_dealer_after: str

    @property
    def stands(self) -> bool:
        return not self.problems

    @property
    def same(self) -> bool:
        return self.stands and not self.removed and not self.added


def rules_sides(before: RuleSet, after: RuleSet) -> RulesSides:
    old, new = option_lines(before), option_lines(after)
    differences = [(what, was, now) for (what, was), (_what, now) in zip(old, new) if was != now]
    return RulesSides(rules_headline(before), rules_headline(after), differences)


def _line_changes(before: Settlement, after: Settlement, names: list[str]) -> tuple[list[Line], list[Line]]:
    """The lines one side has and the other has not, counted like a multiset, in item order."""
    old = [line_for(item, names) for item in before.items]
    new = [line_for(item, names) for item in after.items]
    only_old = Counter(old) - Counter(new)
    only_new = Counter(new) - Counter(old)

    def keep(lines: list[Line], wanted: Counter) -> list[Line]:
        kept = []
        for line in lines:
            if wanted[line] > 0:
                wanted[line] -= 1
                kept.append(line)
        return kept

    return keep(old, only_old), keep(new, only_new)


def round_sides(before: Settlement, record: Mapping[str, Any], rules: RuleSet) -> RoundSides:
    """The round as scored (`before`) beside `record` scored under `rules`."""
    names = [seat.name for seat in before.record.seats]
    stake = before.record.stake
    try:
        after = settle_under(record, rules)
    except RecordInvalid as invalid:
        after, problems = None, [problem_message(p) for p in invalid.problems]
    else:
        problems = []
    seats = [
        SeatSide(name, before.net[seat], after.net[seat] if after else None,
                 format_money(before.net[seat] * stake), format_money(after.net[seat] * stake) if after else "")
        for seat, name in enumerate(names)
    ]
    removed, added = _line_changes(before, after, names) if after else ([], [])
    return RoundSides(
        rules=rules_sides(before.record.rules, rules),
        seats=seats,
        removed=removed,
        added=added,
        problems=problems,
        next_dealer_before=names[before.next_dealer],
        next_dealer_after=names[after.next_dealer] if after else "",
    )


# -- the whole evening -------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundOutcome:
    """One stored round under the other rules: its net there, or why it does not stand."""

    number: int
    before: list[int]
    after: list[int] | None
    problems: list[str]


@dataclass(frozen=True)
class EveningSides:
    rules: RulesSides
    seats: list[SeatSide]
    rounds: int
    changed: list[int]  # numbers of the rounds whose nets differ
    not_standing: list[tuple[int, str]]  # (number, why) of rounds the other rules reject; counted as 0
    headline: str  # 今晚按兴义算：老王 +12 而不是 +31，…

    @property
    def same(self) -> bool:
        return not self.changed and not self.not_standing


def round_outcome(number: int, before: Sequence[int], record: Mapping[str, Any], rules: RuleSet) -> RoundOutcome:
    try:
        after = settle_under(record, rules)
    except RecordInvalid as invalid:
        return RoundOutcome(number, list(before), None, [problem_message(p) for p in invalid.problems])
    return RoundOutcome(number, list(before), after.net, [])


def evening_sides(names: list[str], stake: Decimal, rounds: Sequence[RoundOutcome],
                  before: RuleSet, after: RuleSet) -> EveningSides:
    """The evening's totals as stored beside the same rounds scored under `after`. A round the
    other rules reject counts 0 there (that win would not have been allowed) and is listed."""
    n = len(names)
    totals_before, totals_after = [0] * n, [0] * n
    for outcome in rounds:
        for seat in range(n):
            totals_before[seat] += outcome.before[seat]
            totals_after[seat] += outcome.after[seat] if outcome.after is not None else 0
    seats = [SeatSide(name, totals_before[seat], totals_after[seat], format_money(totals_before[seat] * stake),
                      format_money(totals_after[seat] * stake)) for seat, name in enumerate(names)]
    sides = rules_sides(before, after)
    moved = [s for s in seats if s.change]
    if moved:
        headline = _("今晚按{rules}算：{players}").format(rules=sides.after, players=_("、").join(
            _("{name} {after} 而不是 {before}").format(name=s.name, after=s.texts["after"], before=s.texts["before"])
            for s in moved))
    else:
        headline = _("今晚按{rules}算，每个人的总分都一样。").format(rules=sides.after)
    return EveningSides(
        rules=sides,
        seats=seats,
        rounds=len(rounds),
        changed=[o.number for o in rounds if o.after is not None and o.after != o.before],
        not_standing=[(o.number, " ".join(o.problems)) for o in rounds if o.after is None],
        headline=headline,
    )
