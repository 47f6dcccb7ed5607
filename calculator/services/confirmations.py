"""确认 / 有异议: a seat's word on a stored round, under the evening's lock like every round write.

Saving a round never waits for these. A correction that changes the round clears them
(`rounds.round_correct`): what a seat confirmed is no longer what the round says.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from ..models import MAX_NOTE, Round, RoundConfirmation
from .evenings import lock_evening
from .rounds import RoundVersionConflict


@transaction.atomic
def round_confirm(*, round: Round, seat: int, verdict: str, note: str = "",  # noqa: A002
                  expected_version: int | None = None) -> RoundConfirmation:
    """确认 or 有异议 (with a short note) for one seat; a second word from a seat replaces its first.

    Raises `RoundVersionConflict` when the round changed (or went) since the page was drawn:
    the seat would be confirming something it has not seen."""
    evening = lock_evening(round.evening)
    current = Round.objects.filter(pk=round.pk).first()
    if current is None or (expected_version is not None and current.version != expected_version):
        raise RoundVersionConflict(current)
    if not 0 <= seat < evening.players.count():
        raise ValidationError("no such seat", code="seat")
    if verdict not in (RoundConfirmation.CONFIRMED, RoundConfirmation.DISPUTED):
        raise ValidationError("a verdict is 确认 or 有异议", code="verdict")
    note = " ".join(str(note).replace("\x00", "").split())[:MAX_NOTE]
    confirmation, _ = RoundConfirmation.objects.update_or_create(
        round=current, seat=seat, defaults={"verdict": verdict, "note": note, "at": timezone.now()})
    return confirmation
