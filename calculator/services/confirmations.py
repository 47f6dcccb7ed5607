"""确认 / 有异议: a seat's word on a round, under the evening's lock like every round write.

A seat can give it while the round is still a draft (录入中): the word is kept with a digest of
the round as that phone saw it scored, and goes with the round when it is recorded only if the
round recorded is that round (`rounds.round_record`). On a stored round it is kept until a
correction changes the round (`rounds.round_correct` clears them). Saving never waits for these.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from ..models import MAX_BY, MAX_NOTE, Evening, Round, RoundConfirmation, RoundDraft
from .evenings import lock_evening
from .rounds import RoundVersionConflict, record_digest

VERDICTS = (RoundConfirmation.CONFIRMED, RoundConfirmation.DISPUTED)


def _clean(evening: Evening, seat: int, verdict: str, note: str) -> str:
    if not 0 <= seat < evening.players.count():
        raise ValidationError("no such seat", code="seat")
    if verdict not in VERDICTS:
        raise ValidationError("a verdict is 确认 or 有异议", code="verdict")
    return " ".join(str(note).replace("\x00", "").split())[:MAX_NOTE]


class SeatHasItsOwnPhone(ValidationError):
    """Another phone tried to confirm for a seat whose own phone is at this round: that seat
    speaks for itself. `seat` is the seat asked for."""

    def __init__(self, seat: int):
        super().__init__("that seat has its own phone", code="own_phone")
        self.seat = seat


@transaction.atomic
def draft_confirm(*, evening: Evening, seat: int, verdict: str, note: str = "", settled: dict,
                  by: str = "", phone_seat: int | None = None) -> RoundDraft | None:
    """确认 or 有异议 for one seat on the draft, as `settled` (the scored record that phone saw,
    `Settlement.record.to_dict()`). None when there is no draft (it became a round meanwhile).

    `phone_seat` is whose phone pressed it (这部手机是…, None if it did not say). A phone speaks
    for its own seat; for another seat only when that seat has no phone at this round (代按: the
    word keeps `by`, and every phone shows who pressed it), else `SeatHasItsOwnPhone`. Every
    word moves the draft's version, so the other phones' poll brings it."""
    evening = lock_evening(evening)
    note = _clean(evening, seat, verdict, note)
    draft = RoundDraft.objects.filter(evening=evening, correcting=None).first()
    if draft is None:
        return None
    proxy = phone_seat != seat
    if proxy and draft.has_phone(seat):
        raise SeatHasItsOwnPhone(seat)
    draft.confirmations[str(seat)] = {"verdict": verdict, "note": note, "digest": record_digest(settled),
                                      "by": by[:MAX_BY] if proxy else "", "proxy": proxy}
    draft.version += 1
    draft.updated_at = timezone.now()
    draft.save(update_fields=["confirmations", "version", "updated_at"])
    return draft


@transaction.atomic
def round_confirm(*, round: Round, seat: int, verdict: str, note: str = "",
                  expected_version: int | None = None, by: str = "",
                  phone_seat: int | None = None) -> RoundConfirmation:
    """确认 or 有异议 (with a short note) for one seat; a second word from a seat replaces its first.
    A word pressed on another seat's behalf (`phone_seat` is not `seat`) keeps who pressed it.

    Raises `RoundVersionConflict` when the round changed (or went) since the page was drawn:
    the seat would be confirming something it has not seen; `SeatHasItsOwnPhone` when a phone
    that said whose it is presses for a seat whose word came from that seat's own phone (`own`):
    代按 is for those without a phone, never over what a player said."""
    evening = lock_evening(round.evening)
    current = Round.objects.filter(pk=round.pk).first()
    if current is None or (expected_version is not None and current.version != expected_version):
        raise RoundVersionConflict(current)
    note = _clean(evening, seat, verdict, note)
    if phone_seat is not None and phone_seat != seat and current.confirmations.filter(seat=seat, own=True).exists():
        raise SeatHasItsOwnPhone(seat)
    confirmation, _ = RoundConfirmation.objects.update_or_create(
        round=current, seat=seat, defaults={"verdict": verdict, "note": note, "at": timezone.now(),
                                            "by": by[:MAX_BY] if phone_seat != seat else "",
                                            "own": phone_seat == seat})
    return confirmation
