"""Reads of an evening: look-ups by address, totals, the next round, the evening page's board
and a correction's effect on the totals.

Totals are always sums over the stored rounds (R41); nothing here writes. Money is points ×
the evening's stake, computed exactly with Decimal and written by scoring's `decimal_text`.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.core.paginator import Page, Paginator
from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _

from ..models import Change, Evening, Round
from ..presentation import format_money, sign_class, signed
from ..presentation.chart import Series, colour, colour_class, running_totals_svg
from ..presentation.rules_text import rules_headline, rules_in_words
from ..scoring import ruleset_from_dict
from ..scoring.settle import decimal_text
from .rounds import RoundRow, round_row
from .season import evening_awards

# -- look-ups ----------------------------------------------------------------------------------


def evening_for_editing(*, token: str) -> Evening:
    """The evening at its edit address; raises Evening.DoesNotExist."""
    return Evening.objects.select_related("table").prefetch_related("players").get(token=token)


def evening_for_reading(*, read_token: str) -> Evening:
    """The evening at its read-only address; raises Evening.DoesNotExist."""
    return Evening.objects.select_related("table").prefetch_related("players").get(read_token=read_token)


def evening_by_any_address(*, address: str) -> Evening | None:
    """The evening at either of its addresses, or None: what 照搬规矩 copies from."""
    if not address or len(address) > 64:
        return None
    return (Evening.objects.prefetch_related("players").filter(token=address).first()
            or Evening.objects.prefetch_related("players").filter(read_token=address).first())


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
    return Round.objects.filter(evening=evening).order_by("number").prefetch_related("confirmations")


def round_get(*, evening: Evening, number: int) -> Round:
    """One round of the evening by its number; raises Round.DoesNotExist."""
    return Round.objects.select_related("evening").get(evening=evening, number=number)


def round_exists(*, evening: Evening, number: int) -> bool:
    return Round.objects.filter(evening=evening, number=number).exists()


def round_recorded_as(*, evening: Evening, key: str) -> Round | None:
    """The round a draft with this idempotency key became, if it was recorded."""
    return evening.rounds.filter(idempotency_key=key).first() if key else None


def evening_version(*, evening: Evening) -> int:
    """Grows with every change to the evening's rounds: the id of its latest history entry (0
    before the first). The polling pages send it back, and hear "nothing new" while it holds."""
    return Change.objects.filter(evening=evening).aggregate(n=Max("id"))["n"] or 0


def round_was_deleted(*, evening: Evening, number: int) -> bool:
    """Whether the evening had a round with this number and it was deleted (numbers are never
    reused, so such a number stays empty)."""
    return (Change.objects.filter(evening=evening, round_number=number, kind=Change.DELETED).exists()
            and not round_exists(evening=evening, number=number))


# -- totals ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerTotal:
    seat: int
    name: str
    points: int
    money: str  # exact, plain: -107.5
    colour: str  # for the report PDF, which is not a page under the CSP

    @property
    def colour_class(self) -> str:
        return colour_class(self.seat)

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


# -- the evening page --------------------------------------------------------------------------


# The evening page lists this many rounds, the latest first; older ones are a page away. What it
# shows of every round (totals, the chart) comes from the rounds' nets alone, so a 500-round
# evening's page costs about what a 20-round one does.
ROUNDS_PER_PAGE = 20


@dataclass(frozen=True)
class EveningBoard:
    """What the evening page and the read-only page show, read once."""

    evening: Evening
    names: list[str]
    totals: list[PlayerTotal]
    rounds: list[RoundRow]  # one page of them, the latest first
    round_count: int
    page: Page
    chart_svg: str
    next_dealer: str
    next_number: int
    stake: str
    rules_headline: str
    rules_words: list[tuple[str, str]]
    awards: list = ()  # season.Award: 冲锋鸡王, 点炮王 … of the evening so far


def evening_board(*, evening: Evening, page: int | str | None = 1) -> EveningBoard:
    """Everything the evening page shows (it is polled every 5 s): the totals and chart from every
    round's net only, and one page (`page`, 1 = the latest) of rounds read whole."""
    names = evening_names(evening=evening)
    slim = list(evening_rounds_queryset(evening=evening).values_list("net", "next_dealer"))
    nets = [net for net, _ in slim]
    latest_first = Round.objects.filter(evening=evening).order_by("-number")
    shown = Paginator(latest_first, ROUNDS_PER_PAGE, allow_empty_first_page=True).get_page(page)
    rules = ruleset_from_dict(evening.rules)
    return EveningBoard(
        evening=evening,
        names=names,
        totals=_player_totals(evening, names, nets),
        rounds=[round_row(r, names) for r in shown],
        round_count=len(nets),
        page=shown,
        chart_svg=_chart(_running(names, nets)),
        next_dealer=names[slim[-1][1] if slim else evening.first_dealer],
        next_number=next_round_number(evening=evening),
        stake=evening_stake_text(evening=evening),
        rules_headline=(f"{evening.rules_name} · " if evening.rules_name else "") + rules_headline(rules),
        rules_words=rules_in_words(rules),
        awards=evening_awards(evening=evening),
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
