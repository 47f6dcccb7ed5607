"""Reads of the evening ledger: totals, rounds, chart and settle-up, ready to show (the history
of changes is in `history`).

Totals are always sums over the stored rounds (R41); nothing here writes. Money is points ×
the evening's stake, computed exactly with Decimal and written by scoring's `decimal_text`.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any
from unicodedata import east_asian_width

from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _

from .charts import Series, colour, running_totals_svg
from .models import Change, Evening, PaidTransfer, Round
from .presentation import format_money, present, round_summary, sign_class, signed
from .rules_text import rules_headline, rules_in_words
from .scoring import Item, Settlement, analyse, parse_record, ruleset_from_dict
from .scoring.settle import decimal_text
from .settle_up import minimum_transfers

# -- lookups -----------------------------------------------------------------------------------


def evening_for_editing(*, token: str) -> Evening:
    """The evening at its edit address; raises Evening.DoesNotExist."""
    return Evening.objects.prefetch_related("players").get(token=token)


def evening_for_reading(*, read_token: str) -> Evening:
    """The evening at its read-only address; raises Evening.DoesNotExist."""
    return Evening.objects.prefetch_related("players").get(read_token=read_token)


def evening_stake_text(*, evening: Evening) -> str:
    """The stake exact and plain, as records, exports and pages write it: 0.5, not the column's
    0.5000; 40, not 4E+1."""
    return decimal_text(Decimal(evening.stake))


def evening_stake(*, evening: Evening) -> Decimal:
    """The stake for the round form, without the column's trailing zeros."""
    return Decimal(evening_stake_text(evening=evening))


def evening_names(*, evening: Evening) -> list[str]:
    return [p.name for p in evening.players.all()]


def evening_rounds_queryset(*, evening: Evening) -> QuerySet[Round]:
    return Round.objects.filter(evening=evening).order_by("number")


def round_get(*, evening: Evening, number: int) -> Round:
    """One round of the evening by its number; raises Round.DoesNotExist."""
    return Round.objects.select_related("evening").get(evening=evening, number=number)


def evening_version(*, evening: Evening) -> int:
    """Grows with every change to the evening's rounds: the id of its latest history entry (0
    before the first). The polling pages send it back, and hear "nothing new" while it holds."""
    return Change.objects.filter(evening=evening).aggregate(n=Max("id"))["n"] or 0


def round_was_deleted(*, evening: Evening, number: int) -> bool:
    """Whether the evening had a round with this number and it was deleted (numbers are never
    reused, so such a number stays empty)."""
    return (Change.objects.filter(evening=evening, round_number=number, kind=Change.DELETED).exists()
            and not Round.objects.filter(evening=evening, number=number).exists())


# -- totals ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerTotal:
    seat: int
    name: str
    points: int
    money: str  # exact, plain: -107.5
    colour: str

    @property
    def points_text(self) -> str:
        return signed(self.points)

    @property
    def money_text(self) -> str:
        return signed(self.money)

    @property
    def sign(self) -> str:
        return sign_class(self.points)


def _money(points: int, stake: Decimal) -> str:
    return format_money(points * Decimal(stake))


def _sum_nets(nets: list[list[int]], players: int) -> list[int]:
    totals = [0] * players
    for net in nets:
        for seat, points in enumerate(net):
            totals[seat] += points
    return totals


def _nets(evening: Evening) -> list[list[int]]:
    return list(evening_rounds_queryset(evening=evening).values_list("net", flat=True))


def evening_total_points(*, evening: Evening) -> list[int]:
    """Each player's total in points: the sum of the stored rounds' nets (R41)."""
    return _sum_nets(_nets(evening), len(evening_names(evening=evening)))


def _player_totals(evening: Evening, names: list[str], nets: list[list[int]]) -> list[PlayerTotal]:
    return [
        PlayerTotal(seat, names[seat], points, _money(points, evening.stake), colour(seat))
        for seat, points in enumerate(_sum_nets(nets, len(names)))
    ]


def evening_totals(*, evening: Evening) -> list[PlayerTotal]:
    return _player_totals(evening, evening_names(evening=evening), _nets(evening))


def _running(names: list[str], nets: list[list[int]]) -> list[Series]:
    running = [0] * len(names)
    values = [[0] for _ in names]
    for net in nets:
        for seat, points in enumerate(net):
            running[seat] += points
            values[seat].append(running[seat])
    return [Series(name, values[seat]) for seat, name in enumerate(names)]


def _chart(series: list[Series]) -> str:
    return running_totals_svg(series, title=_("每人累计走势"), x_label=_("局"), empty_text=_("还没有记局"))


def next_round_number(*, evening: Evening) -> int:
    """The number the next round will get: one past the highest the evening ever used.

    A deleted round keeps its number in the history, so a number is never reused: a
    correction or delete form left open on a round that is gone then finds nothing, instead of
    landing on a new round that took the same number and version. `services.round_record`
    calls this under the evening's lock.
    """
    highest = [
        Round.objects.filter(evening=evening).aggregate(n=Max("number"))["n"] or 0,
        Change.objects.filter(evening=evening).aggregate(n=Max("round_number"))["n"] or 0,
    ]
    return max(highest) + 1


def _next_dealer(evening: Evening, last: Round | None) -> int:
    return last.next_dealer if last else evening.first_dealer


def next_dealer(*, evening: Evening) -> int:
    """The suggested dealer of the next round: the last round's R34/R35 result, else the first."""
    return _next_dealer(evening, evening_rounds_queryset(evening=evening).last())


# -- rounds ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatNet:
    name: str
    points: int
    colour: str

    @property
    def text(self) -> str:
        return signed(self.points)

    @property
    def sign(self) -> str:
        return sign_class(self.points)


@dataclass(frozen=True)
class RoundRow:
    number: int
    summary: str
    dealer: str
    nets: list[SeatNet]
    version: int
    updated_at: datetime
    corrected: bool


def _seat_nets(net: list[int], names: list[str]) -> list[SeatNet]:
    return [SeatNet(names[s], points, colour(s)) for s, points in enumerate(net)]


def round_row(round_: Round, names: list[str]) -> RoundRow:
    return RoundRow(
        number=round_.number,
        summary=round_summary(round_, names),
        dealer=names[round_.dealer],
        nets=_seat_nets(round_.net, names),
        version=round_.version,
        updated_at=round_.updated_at,
        corrected=round_.version > 1,
    )


def stored_settlement(round_: Round) -> Settlement:
    """The round's stored settlement as a `Settlement`, for `presentation.present`.

    The items and the next dealer are the stored ones, never re-scored (R41); only each seat's
    standing (won / ready, pattern, waits) is analysed again from the record, under the rules
    stored with the round.
    """
    rules = ruleset_from_dict(round_.rules)
    data = {**round_.record, "preset": rules.preset,
            "options": {k: v for k, v in round_.rules.items() if k != "preset"}}
    record = parse_record(data)
    stored = round_.settlement
    items = tuple(Item(**item) for item in stored["items"])
    burned = frozenset(h["seat"] for h in stored["hands"] if h.get("burned"))
    return Settlement(record, analyse(record), items, stored["next_dealer"], burned)


# How many em of the report's item text surely fit on one line of a column: half the A4 text
# width less the gap (48 % of 182 mm) at 8 pt is 31 em (templates/calculator/pdf/evening_report.html).
ITEM_COLUMN_EMS = 29.5


def _ems(text: str) -> float:
    """A generous guess at how wide `text` sets in the report's font, in em: Chinese characters
    and full-width forms 1, a space 0.3, anything else 0.62 (WenQuanYi's digits are 0.55)."""
    return sum(1.0 if east_asian_width(c) in "WF" else 0.3 if c == " " else 0.62 for c in text)


@dataclass(frozen=True)
class ReportRound:
    row: RoundRow
    view: Any  # presentation.SettlementView

    @property
    def item_lines(self) -> list[str]:
        """Each item as one line of plain text: "豆 · 南姐 付 东哥 2 番：闷豆 9筒 R16"."""
        return [f"{group.title} · {line.text} {line.rule}"
                for group in self.view.groups for line in group.lines]

    @property
    def nets_text(self) -> str:
        """Each player's net for the round: "东哥 +39　南姐 −13　西西 −13　北北 −13", a no-break
        space inside each pair."""
        return "\u3000".join(f"{net.name}\u00a0{net.text}" for net in self.row.nets)

    @property
    def item_halves(self) -> tuple[list[str], list[str]]:
        """The item lines in reading order, split for two columns (the left one as long as the
        right or one line longer)."""
        lines = self.item_lines
        half = (len(lines) + 1) // 2
        return lines[:half], lines[half:]

    @property
    def item_columns(self) -> tuple[str, str]:
        """The two columns as text, a line per item. The report prints each as one block of
        text: a box per line, or CSS columns, cost WeasyPrint most of its time on a long
        evening."""
        left, right = self.item_halves
        return "\n".join(left), "\n".join(right)

    @property
    def items_fit(self) -> bool:
        """Whether every item line surely fits on one line of its column. When one may not (long
        names; English), the report sets each item as a paragraph with a hanging indent, so that
        a line that wraps cannot be read as the start of another item."""
        return all(_ems(line) <= ITEM_COLUMN_EMS for line in self.item_lines)


def evening_report_rounds(*, evening: Evening) -> list[ReportRound]:
    """Every round in order with its items, for the evening report."""
    names = evening_names(evening=evening)
    return [ReportRound(round_row(r, names), present(stored_settlement(r)))
            for r in evening_rounds_queryset(evening=evening)]


# -- the evening page --------------------------------------------------------------------------


@dataclass(frozen=True)
class EveningBoard:
    """What the evening page and the read-only page show, read once."""

    evening: Evening
    names: list[str]
    totals: list[PlayerTotal]
    rounds: list[RoundRow]
    chart_svg: str
    next_dealer: str
    next_number: int
    stake: str
    rules_headline: str
    rules_words: list[tuple[str, str]]


def evening_board(*, evening: Evening) -> EveningBoard:
    """Everything the evening page shows, from one read of the rounds (it is polled every 5 s)."""
    names = evening_names(evening=evening)
    rounds = list(evening_rounds_queryset(evening=evening))
    nets = [r.net for r in rounds]
    rules = ruleset_from_dict(evening.rules)
    return EveningBoard(
        evening=evening,
        names=names,
        totals=_player_totals(evening, names, nets),
        rounds=[round_row(r, names) for r in reversed(rounds)],
        chart_svg=_chart(_running(names, nets)),
        next_dealer=names[_next_dealer(evening, rounds[-1] if rounds else None)],
        next_number=next_round_number(evening=evening),
        stake=evening_stake_text(evening=evening),
        rules_headline=rules_headline(rules),
        rules_words=rules_in_words(rules),
    )


# -- corrections -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NetChange:
    name: str
    before: int
    after: int
    total_before: int
    total_after: int
    money_before: str
    money_after: str

    @property
    def texts(self) -> dict[str, str]:
        return {"before": signed(self.before), "after": signed(self.after),
                "total_before": signed(self.total_before), "total_after": signed(self.total_after),
                "money_before": signed(self.money_before), "money_after": signed(self.money_after)}

    @property
    def after_sign(self) -> str:
        return sign_class(self.after)


def round_correction_preview(*, round_: Round, after_net: list[int]) -> list[NetChange]:
    """Each player's net in this round and evening total, before and after a correction (R42)."""
    evening = round_.evening
    names = evening_names(evening=evening)
    totals = evening_total_points(evening=evening)
    rows = []
    for seat, name in enumerate(names):
        before, after = round_.net[seat], after_net[seat]
        total_after = totals[seat] - before + after
        rows.append(NetChange(name, before, after, totals[seat], total_after,
                              _money(totals[seat], evening.stake), _money(total_after, evening.stake)))
    return rows


# -- settle-up ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TransferRow:
    payer: int
    payee: int
    payer_name: str
    payee_name: str
    points: int
    money: str
    paid: bool


@dataclass(frozen=True)
class SettleUp:
    totals: list[PlayerTotal]
    stake: str
    transfers: list[TransferRow]  # the payments made (paid), then the plan for what is still owed
    all_paid: bool
    rounds: int

    @property
    def to_pay(self) -> list[TransferRow]:
        return [t for t in self.transfers if not t.paid]


def evening_payment_count(*, evening: Evening) -> int:
    """How many transfers have been marked 已付 (payments made at the table)."""
    return PaidTransfer.objects.filter(evening=evening).count()


def evening_still_owed(*, evening: Evening) -> list[int]:
    """Each player's points still to settle: the total, less what they have already paid (a
    payer's debt shrinks) or been paid (a payee's credit does)."""
    owed = evening_total_points(evening=evening)
    for payer, payee, points in PaidTransfer.objects.filter(evening=evening).values_list("payer", "payee", "points"):
        owed[payer] += points
        owed[payee] -= points
    return owed


def evening_settle_up(*, evening: Evening) -> SettleUp:
    """The payments already made (已付), then the fewest transfers that settle what is still owed
    (R43): a payment stays a payment whatever rounds are recorded or corrected after it."""
    totals = evening_totals(evening=evening)
    names = [t.name for t in totals]

    def row(payer: int, payee: int, points: int, paid: bool) -> TransferRow:
        return TransferRow(payer, payee, names[payer], names[payee], points, _money(points, evening.stake), paid)

    paid = [row(p.payer, p.payee, p.points, True)
            for p in PaidTransfer.objects.filter(evening=evening).order_by("paid_at", "id")]
    plan = [row(t.payer, t.payee, t.points, False) for t in minimum_transfers(evening_still_owed(evening=evening))]
    return SettleUp(totals, evening_stake_text(evening=evening), paid + plan, bool(paid) and not plan,
                    Round.objects.filter(evening=evening).count())