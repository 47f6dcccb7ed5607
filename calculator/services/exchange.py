"""An evening as a file: export to JSON data, and import it back under new addresses."""
from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone

from .. import jsonsafe, selectors
from ..models import MAX_BY, Change, Evening, PaidTransfer, Player, Round
from ..presentation import present
from ..scoring import ruleset_from_dict
from .evenings import clean_names, clean_stake, clean_title
from .rounds import snapshot

EXPORT_FORMAT = "zhuoji.evening/1"
MAX_COUNT = 2**31 - 1  # the positive integer columns (round numbers, versions, points)


def _when(value: datetime) -> str:
    return value.isoformat()


def _moment(text: Any) -> datetime:
    """A time from an export, which `_when` writes with its UTC offset. One without an offset
    could be any of a day's worth of moments, so it is refused (ValueError) rather than guessed."""
    value = datetime.fromisoformat(text)
    if timezone.is_naive(value):
        raise ValueError(f"a time without its UTC offset: {text!r:.40}")
    return value


def evening_export(*, evening: Evening) -> dict[str, Any]:
    """The whole evening as JSON-ready data: players, rules, rounds, history and paid marks.

    The two addresses are not part of it: an imported copy gets addresses of its own.
    """
    return {
        "format": EXPORT_FORMAT,
        "title": evening.title,
        "created_at": _when(evening.created_at),
        "stake": selectors.evening_stake_text(evening=evening),
        "rules": evening.rules,
        "first_dealer": evening.first_dealer,
        "players": [p.name for p in evening.players.order_by("seat")],
        "rounds": [
            {
                **snapshot(r),
                "idempotency_key": str(r.idempotency_key) if r.idempotency_key else None,
                "created_at": _when(r.created_at),
                "updated_at": _when(r.updated_at),
            }
            for r in evening.rounds.order_by("number")
        ],
        "history": [
            {"round_number": c.round_number, "kind": c.kind, "at": _when(c.at), "by": c.by,
             "before": c.before, "after": c.after}
            for c in evening.changes.order_by("at", "id")
        ],
        "paid": [
            {"payer": p.payer, "payee": p.payee, "points": p.points, "paid_at": _when(p.paid_at)}
            for p in evening.paid_transfers.order_by("paid_at", "id")
        ],
    }


def _check_storable(data: Any) -> None:
    """Refuse what no column can hold before the database is asked (see `jsonsafe`)."""
    try:
        jsonsafe.check_storable(data)
    except jsonsafe.Unstorable as refused:
        raise ValidationError("cannot be stored: %(reason)s", code="damaged",
                              params={"reason": refused.reason}) from None


def _count(value: Any, *, low: int = 1) -> int:
    """An integer for a positive integer column (no bool, no float, no overflow)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_COUNT:
        raise ValueError(f"not a count: {value!r:.40}")
    return value


def _check_round(data: Mapping[str, Any], players: int) -> None:
    net, items = data["net"], data["settlement"]["items"]
    if not all(0 <= _count(data[k], low=0) < players for k in ("dealer", "next_dealer")):
        raise ValidationError("round %(n)s: seats out of range", params={"n": data["number"]})
    _count(data["number"]), _count(data["version"])
    if not (isinstance(net, list) and len(net) == players and all(isinstance(v, int) for v in net)):
        raise ValidationError("round %(n)s: a net per player", params={"n": data["number"]})
    derived = [0] * players
    for item in items:
        if not all(0 <= _count(item[k], low=0) < players for k in ("payer", "payee")):
            raise ValidationError("round %(n)s: an item between unknown seats", params={"n": data["number"]})
        derived[item["payer"]] -= _count(item["points"], low=0)
        derived[item["payee"]] += item["points"]
    if derived != net or data["settlement"]["net"] != net:
        raise ValidationError("round %(n)s: the net is not the sum of its items", params={"n": data["number"]})
    ruleset_from_dict(data["rules"])


def _check_change(data: Mapping[str, Any]) -> None:
    if data["kind"] not in dict(Change.KINDS):
        raise ValidationError("unknown kind of change", code="history")
    _count(data["round_number"])
    if not isinstance(data["by"], str) or len(data["by"]) > MAX_BY:
        raise ValidationError("who changed a round is a name", code="history")
    for kept in (data["before"], data["after"]):
        if kept is not None and not isinstance(kept, Mapping):
            raise ValidationError("a round as it was is an object", code="history")


def _check_readable(evening: Evening) -> None:
    """Read the imported evening back the way its pages and PDFs do: an export whose parts are
    well-formed JSON but do not fit together fails here, inside the import's transaction,
    rather than on every later visit."""
    selectors.evening_board(evening=evening)
    selectors.evening_history(evening=evening)
    selectors.evening_settle_up(evening=evening)
    for round_ in selectors.evening_rounds_queryset(evening=evening).select_related("evening"):
        present(selectors.stored_settlement(round_))


@transaction.atomic
def evening_import(*, data: Mapping[str, Any]) -> Evening:
    """An evening from `evening_export` data, under new addresses. Raises ValidationError."""
    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        raise ValidationError("not a Zhuoji evening export", code="format")
    try:
        _check_storable(data)
        names = clean_names(list(data["players"]))
        if names != list(data["players"]):
            raise ValidationError("player names must be stored trimmed", code="name")
        if ruleset_from_dict(data["rules"]).to_dict() != data["rules"]:
            raise ValidationError("the rules are not complete", code="rules")
        if not 0 <= int(data["first_dealer"]) < len(names):
            raise ValidationError("the first dealer is not one of the seats", code="dealer")
        for change in data["history"]:
            _check_change(change)
        for mark in data["paid"]:
            _count(mark["points"])
            if not all(_count(mark[k], low=0) < len(names) for k in ("payer", "payee")):
                raise ValidationError("a paid mark between unknown seats", code="paid")
        evening = Evening.objects.create(
            title=clean_title(data.get("title", "")),
            created_at=_moment(data["created_at"]),
            stake=clean_stake(data["stake"]),
            rules=data["rules"],
            first_dealer=int(data["first_dealer"]),
        )
        Player.objects.bulk_create(Player(evening=evening, seat=s, name=n) for s, n in enumerate(names))
        for r in data["rounds"]:
            _check_round(r, len(names))
            Round.objects.create(
                evening=evening, number=r["number"], record=r["record"], settlement=r["settlement"],
                rules=r["rules"], net=r["net"], dealer=r["dealer"], next_dealer=r["next_dealer"],
                version=r["version"],
                idempotency_key=uuid.UUID(r["idempotency_key"]) if r["idempotency_key"] else None,
                created_at=_moment(r["created_at"]),
                updated_at=_moment(r["updated_at"]),
            )
        Change.objects.bulk_create(
            Change(evening=evening, round_number=c["round_number"], kind=c["kind"],
                   at=_moment(c["at"]), by=c["by"], before=c["before"], after=c["after"])
            for c in data["history"]
        )
        PaidTransfer.objects.bulk_create(
            PaidTransfer(evening=evening, payer=p["payer"], payee=p["payee"], points=p["points"],
                         paid_at=_moment(p["paid_at"]))
            for p in data["paid"]
        )
        _check_readable(evening)
    # A damaged export can break any assumption of the code that reads it back; the database
    # refuses what slipped through (DatabaseError), and the transaction takes everything back.
    except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, DatabaseError) as error:
        raise ValidationError("the export is incomplete or damaged: %(error)s",
                              code="damaged", params={"error": error}) from error
    return evening
