"""Writes to the evening ledger (RULES §7). Every write is one function inside one transaction.

Functions are named `<entity>_<action>` and take keyword-only arguments. The evening row is
locked (`select_for_update`) before any round changes, so phones writing to the same evening at
once are served one after the other: round numbers stay max + 1, an idempotency key is seen by
the second submit, and a correction sees the version the last one left.
"""
from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone

from . import history, jsonsafe, selectors
from .models import Change, Evening, PaidTransfer, Player, Round
from .presentation import present
from .scoring import RecordInvalid, Settlement, rules_for, ruleset_from_dict, settle_record
from .scoring.problems import gettext_noop as _noop
from .scoring.problems import problem
from .scoring.record import MAX_NAME, MAX_STAKE
from .settle_up import minimum_transfers

EXPORT_FORMAT = "zhuoji.evening/1"
MAX_TITLE = 60  # Evening.title
MAX_BY = 40  # Change.by
MAX_COUNT = 2**31 - 1  # the positive integer columns (round numbers, versions, points)


class RoundVersionConflict(Exception):
    """The round changed (or was deleted) since the correction form was opened.

    `current` is the round as it is now, or None when it is gone.
    """

    def __init__(self, current: Round | None):
        super().__init__("the round was changed by someone else")
        self.current = current


class IdempotencyKeyReused(Exception):
    """The form's key already recorded a round, and this submit holds a different round.

    A resubmit of the same form is answered with the round it recorded; a form that was changed
    after it was saved (back button, edit, submit) must not be taken for one, or the new round
    would be dropped without a word. `existing` is the round the key recorded.
    """

    def __init__(self, existing: Round):
        super().__init__(f"this form already recorded round {existing.number}")
        self.existing = existing


class TransferNotInPlan(Exception):
    """A paid mark for a transfer that the current settle-up does not contain."""


# -- the evening -------------------------------------------------------------------------------


def _clean_names(names: list[str]) -> list[str]:
    cleaned = [" ".join(str(n).split()) for n in names]
    if not 3 <= len(cleaned) <= 4:
        raise ValidationError("an evening has 3 or 4 players", code="players")
    if any(not n or len(n) > MAX_NAME or "\x00" in n for n in cleaned):  # PostgreSQL text holds no NUL
        raise ValidationError("every player needs a name of at most %(max)s characters",
                              code="name", params={"max": MAX_NAME})
    if len(set(cleaned)) != len(cleaned):
        raise ValidationError("two players have the same name", code="name_twice")
    return cleaned


def _clean_title(title: str) -> str:
    title = str(title).strip()[:MAX_TITLE]
    if "\x00" in title:
        raise ValidationError("the title holds a NUL character", code="title")
    return title


def _clean_stake(stake: Decimal | str) -> Decimal:
    try:
        value = Decimal(str(stake))
    except InvalidOperation:
        raise ValidationError("the stake is not a number", code="stake") from None
    if not value.is_finite() or value <= 0 or value > MAX_STAKE or value.as_tuple().exponent < -4:
        raise ValidationError("the stake must be a positive number with at most 4 decimals", code="stake")
    return value


@transaction.atomic
def evening_create(
    *,
    names: list[str],
    stake: Decimal,
    preset: str = "guiyang",
    options: Mapping[str, Any] | None = None,
    first_dealer: int = 0,
    title: str = "",
) -> Evening:
    """开一晚: seat the players, fix the stake and the rules for the whole evening (R41)."""
    names = _clean_names(names)
    stake = _clean_stake(stake)
    rules, problems = rules_for(preset, options or {})
    if rules is None:
        raise ValidationError("; ".join(p.message for p in problems), code="rules")
    if not 0 <= first_dealer < len(names):
        raise ValidationError("the first dealer must be one of the seats", code="dealer")
    evening = Evening.objects.create(
        title=_clean_title(title), stake=stake, rules=rules.to_dict(), first_dealer=first_dealer
    )
    Player.objects.bulk_create(Player(evening=evening, seat=s, name=n) for s, n in enumerate(names))
    return evening


# -- rounds ------------------------------------------------------------------------------------


def _evening_record(evening: Evening, record: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
    """The record as the evening fixes it: its players' names, its stake, its rules (R41).

    `rules` go in as options in full, so the record is scored under exactly those rules whatever
    its preset's defaults are now. (What is stored is `_stored_record`, which lists fewer.)
    """
    if not isinstance(record, Mapping):
        raise RecordInvalid([problem("bad_record", _noop("牌局记录必须是一个 JSON 对象。"))])
    names = [p.name for p in evening.players.all()]
    seats = record.get("seats")
    if not isinstance(seats, list) or len(seats) != len(names):
        raise RecordInvalid([problem("bad_seat", _noop("这一晚是 {players} 个人打的。"),
                                     field="seats", players=len(names))])
    data = dict(record)
    data["preset"] = rules["preset"]
    data["options"] = {k: v for k, v in rules.items() if k != "preset"}
    data["stake"] = selectors.evening_stake_text(evening=evening)
    data["seats"] = [{**(s if isinstance(s, Mapping) else {}), "name": n} for s, n in zip(seats, names)]
    return data


def _stored_record(settlement: Settlement) -> dict[str, Any]:
    """The canonical record as stored: what was scored, with only the options that differ from
    its preset's defaults as they are today. It is not enough to re-score the round later:
    Round.rules keeps the rules in full, and a stored round is read back with those (R41)."""
    return settlement.record.to_dict()


def _inputs(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("preset", "options")}


def _same_round(settlement: Settlement, round_: Round) -> bool:
    """Whether a freshly scored record is what the round already holds: the same inputs under
    the same rules, compared in full. Stored records cannot be compared as they are: their
    `options` list only what differed from the preset's defaults of their day, so a change to
    a preset's defaults would make an untouched round look changed."""
    return (_inputs(_stored_record(settlement)) == _inputs(round_.record)
            and settlement.record.rules.to_dict() == ruleset_from_dict(round_.rules).to_dict())


def _snapshot(round_: Round) -> dict[str, Any]:
    """Everything a round holds, as the history keeps it (R42)."""
    return {
        "number": round_.number,
        "record": round_.record,
        "settlement": round_.settlement,
        "rules": round_.rules,
        "net": round_.net,
        "dealer": round_.dealer,
        "next_dealer": round_.next_dealer,
        "version": round_.version,
    }


def _apply(round_: Round, settlement: Settlement, rules: Mapping[str, Any]) -> None:
    round_.record = _stored_record(settlement)
    round_.settlement = settlement.to_dict()
    round_.rules = dict(rules)
    round_.net = list(settlement.net)
    round_.dealer = settlement.record.dealer
    round_.next_dealer = settlement.next_dealer


def _lock(evening: Evening) -> Evening:
    return Evening.objects.select_for_update().get(pk=evening.pk)


@transaction.atomic
def round_record(
    *,
    evening: Evening,
    record: Mapping[str, Any],
    idempotency_key: uuid.UUID | None = None,
    by: str = "",
) -> Round:
    """记一局: score a round under the evening's rules and store it as round max + 1.

    Raises `RecordInvalid` (nothing stored) when the record breaks a rule. A second call with
    an idempotency key already used in this evening stores nothing: it returns that round when
    the record is the same, and raises `IdempotencyKeyReused` when it is not.
    """
    evening = _lock(evening)
    settlement = settle_record(_evening_record(evening, record, evening.rules))
    if idempotency_key is not None:
        existing = evening.rounds.filter(idempotency_key=idempotency_key).first()
        if existing is not None:
            if not _same_round(settlement, existing):
                raise IdempotencyKeyReused(existing)
            return existing
    number = selectors.next_round_number(evening=evening)
    now = timezone.now()
    round_ = Round(evening=evening, number=number, idempotency_key=idempotency_key,
                   created_at=now, updated_at=now)
    _apply(round_, settlement, evening.rules)
    round_.save()
    Change.objects.create(evening=evening, round_number=number, kind=Change.CREATED, at=now,
                          by=by[:MAX_BY], before=None, after=_snapshot(round_))
    return round_


def _locked_round(round_: Round, expected_version: int | None) -> tuple[Evening, Round]:
    evening = _lock(round_.evening)
    current = Round.objects.filter(pk=round_.pk).select_for_update().first()
    if current is None or (expected_version is not None and current.version != expected_version):
        raise RoundVersionConflict(current)
    return evening, current


@transaction.atomic
def round_correct(*, round: Round, record: Mapping[str, Any], expected_version: int, by: str = "") -> Round:  # noqa: A002
    """改一局 (R42): re-score this round only, under the rules it was first scored with.

    Raises `RoundVersionConflict` when the round is no longer at `expected_version` (someone
    else corrected or deleted it first) and `RecordInvalid` when the new record breaks a rule.
    An unchanged record changes nothing and leaves no history.
    """
    evening, current = _locked_round(round, expected_version)
    settlement = settle_record(_evening_record(evening, record, current.rules))
    if _same_round(settlement, current):
        return current
    before = _snapshot(current)
    _apply(current, settlement, current.rules)
    current.version += 1
    current.updated_at = timezone.now()
    current.save()
    Change.objects.create(evening=evening, round_number=current.number, kind=Change.CORRECTED,
                          at=current.updated_at, by=by[:MAX_BY], before=before, after=_snapshot(current))
    return current


@transaction.atomic
def round_delete(*, round: Round, expected_version: int | None = None, by: str = "") -> None:  # noqa: A002
    """删一局: remove a round; its whole content stays in the history (R42)."""
    evening, current = _locked_round(round, expected_version)
    before = _snapshot(current)
    current.delete()
    Change.objects.create(evening=evening, round_number=before["number"], kind=Change.DELETED,
                          by=by[:MAX_BY], before=before, after=None)


# -- settle-up ---------------------------------------------------------------------------------


def _current_plan(evening: Evening) -> set[tuple[int, int, int]]:
    return {(t.payer, t.payee, t.points) for t in minimum_transfers(selectors.evening_still_owed(evening=evening))}


@transaction.atomic
def transfer_mark_paid(*, evening: Evening, payer: int, payee: int, points: int) -> PaidTransfer:
    """已付: one transfer of the current settle-up (R43) has been paid, and is recorded as a payment.

    From then on settle-up works on what is still owed, so the payment counts however the
    totals move later. A second tap on the same transfer (a double tap, an old page) finds it
    no longer owed and changes nothing."""
    evening = _lock(evening)
    if (payer, payee, points) not in _current_plan(evening):
        earlier = evening.paid_transfers.filter(payer=payer, payee=payee, points=points).last()
        if earlier is None:
            raise TransferNotInPlan()
        return earlier
    return PaidTransfer.objects.create(evening=evening, payer=payer, payee=payee, points=points)


@transaction.atomic
def transfer_mark_unpaid(*, evening: Evening, payer: int, payee: int, points: int) -> None:
    """Take back a payment (tapped by mistake): the latest of that payer, payee and amount."""
    evening = _lock(evening)
    latest = evening.paid_transfers.filter(payer=payer, payee=payee, points=points).order_by("paid_at", "id").last()
    if latest is not None:
        latest.delete()


# -- export and import -------------------------------------------------------------------------


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
                **_snapshot(r),
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
    for snapshot in (data["before"], data["after"]):
        if snapshot is not None and not isinstance(snapshot, Mapping):
            raise ValidationError("a round as it was is an object", code="history")


def _check_readable(evening: Evening) -> None:
    """Read the imported evening back the way its pages and PDFs do: an export whose parts are
    well-formed JSON but do not fit together fails here, inside the import's transaction,
    rather than on every later visit."""
    selectors.evening_board(evening=evening)
    history.evening_history(evening=evening)
    selectors.evening_settle_up(evening=evening)
    selectors.evening_report_rounds(evening=evening)
    for round_ in selectors.evening_rounds_queryset(evening=evening).select_related("evening"):
        present(selectors.stored_settlement(round_))


@transaction.atomic
def evening_import(*, data: Mapping[str, Any]) -> Evening:
    """An evening from `evening_export` data, under new addresses. Raises ValidationError."""
    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        raise ValidationError("not a Zhuoji evening export", code="format")
    try:
        _check_storable(data)
        names = _clean_names(list(data["players"]))
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
            title=_clean_title(data.get("title", "")),
            created_at=_moment(data["created_at"]),
            stake=_clean_stake(data["stake"]),
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
