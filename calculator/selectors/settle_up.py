"""Reads for settling up (散场结账, R43): what is still owed after the payments made, and the plan."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max

from ..models import Evening, PaidTransfer, Round
from ..scoring.settle_up import minimum_transfers
from .drafts import evening_words_version
from .evenings import (
    PlayerTotal,
    _money,
    evening_stake_text,
    evening_total_points,
    evening_totals,
    evening_version,
)


@dataclass(frozen=True)
class TransferRow:
    payer: int
    payee: int
    payer_name: str
    payee_name: str
    points: int
    money: str
    paid: bool
    payment: int | None = None  # a payment's id: what 撤回 names, so it undoes this one only


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


def evening_report_version(*, evening: Evening) -> str:
    """Names a state of everything the evening report prints: the evening, its rounds' version,
    the seats' 确认 / 有异议 and its payments (an undo lowers the count even where the latest id stays)."""
    paid = PaidTransfer.objects.filter(evening=evening).aggregate(n=Count("id"), last=Max("id"))
    return (f"{evening.pk}-{evening.token[:12]}-{evening_version(evening=evening)}-{paid['n']}-{paid['last']}"
            f"-{evening_words_version(evening=evening)}")


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

    def row(payer: int, payee: int, points: int, paid: bool, payment: int | None = None) -> TransferRow:
        return TransferRow(payer, payee, names[payer], names[payee], points, _money(points, evening.stake), paid,
                           payment)

    paid = [row(p.payer, p.payee, p.points, True, p.pk)
            for p in PaidTransfer.objects.filter(evening=evening).order_by("paid_at", "id")]
    plan = [row(t.payer, t.payee, t.points, False) for t in minimum_transfers(evening_still_owed(evening=evening))]
    return SettleUp(totals, evening_stake_text(evening=evening), paid + plan, bool(paid) and not plan,
                    Round.objects.filter(evening=evening).count())
