"""Writes of payments: 已付 marks a transfer of the settle-up (R43) as paid, 撤回 takes one back."""
from __future__ import annotations

from django.db import transaction

from .. import selectors
from ..models import Evening, PaidTransfer
from ..scoring.settle_up import minimum_transfers
from .evenings import lock_evening


class TransferNotInPlan(Exception):
    """A paid mark for a transfer that the current settle-up does not contain."""


def _current_plan(evening: Evening) -> set[tuple[int, int, int]]:
    return {(t.payer, t.payee, t.points) for t in minimum_transfers(selectors.evening_still_owed(evening=evening))}


@transaction.atomic
def transfer_mark_paid(*, evening: Evening, payer: int, payee: int, points: int) -> PaidTransfer:
    """已付: one transfer of the current settle-up (R43) has been paid, and is recorded as a payment.

    From then on settle-up works on what is still owed, so the payment counts however the
    totals move later. A second tap on the same transfer (a double tap, an old page) finds it
    no longer owed and changes nothing."""
    evening = lock_evening(evening)
    if (payer, payee, points) not in _current_plan(evening):
        earlier = evening.paid_transfers.filter(payer=payer, payee=payee, points=points).last()
        if earlier is None:
            raise TransferNotInPlan()
        return earlier
    return PaidTransfer.objects.create(evening=evening, payer=payer, payee=payee, points=points)


@transaction.atomic
def transfer_mark_unpaid(*, evening: Evening, payment: int) -> bool:
    """撤回: take back one payment (tapped by mistake), named by its id. Whether it was there:
    a second 撤回 of the same payment (a double tap, a resend) finds it gone and changes
    nothing, where "the latest of that payer, payee and amount" would take back the next one."""
    evening = lock_evening(evening)
    deleted, _ = evening.paid_transfers.filter(pk=payment).delete()
    return bool(deleted)
