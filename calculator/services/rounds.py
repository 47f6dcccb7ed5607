"""Writes of rounds: record (记一局), correct (改一局, R42) and delete, each under the evening's lock.

A round is scored by scoring under the evening's rules (R41) before anything is stored; every
change leaves its before and after in the history (Change).
"""
from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import selectors
from ..models import MAX_BY, Change, Evening, EveningStats, Round, RoundConfirmation, RoundDraft, RoundStats
from ..presentation import settlement_json
from ..scoring import RecordInvalid, Settlement, ruleset_from_dict, settle_record
from ..scoring.problems import gettext_noop as _noop
from ..scoring.problems import problem
from ..scoring.stats import evening_summary, round_stats
from .drafts import DraftEnded, Seen, check_seen
from .evenings import lock_evening


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


class IdempotencyKeyDeleted(Exception):
    """The form's key recorded a round that has since been deleted: a resend (a phone that lost
    its answer, the back button) must not bring it back. `number` is the deleted round's."""

    def __init__(self, number: int):
        super().__init__(f"this form recorded round {number}, which was deleted")
        self.number = number


def _evening_record(evening: Evening, record: Mapping[str, Any], rules: Mapping[str, Any], *,
                    before: int | None = None, played: Round | None = None) -> dict[str, Any]:
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
    data.pop("dealer_streak", None)
    data.pop("weekday", None)
    # 连庄 (R59) and 星期鸡 (R64): the evening knows them, the form does not (its preview reads the same)
    ruleset = ruleset_from_dict(rules)
    data.update(selectors.table_facts(evening=evening, rules=ruleset, before=before, played=played)
                .fields(data.get("dealer"), ruleset))
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


def snapshot(round_: Round) -> dict[str, Any]:
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
        # So that a resent submit finds its round even after it was deleted (round_record).
        "idempotency_key": str(round_.idempotency_key) if round_.idempotency_key else None,
    }


def _keep_stats(round_: Round) -> None:
    """What a 固定桌's season counts of the round, kept with it (a deleted round's go with it),
    and the evening's sum of them rewritten."""
    RoundStats.objects.update_or_create(round=round_, defaults={
        "evening_id": round_.evening_id, "number": round_.number, "dealer": round_.dealer,
        "data": round_stats(round_.record, round_.settlement)})
    keep_evening_stats(round_.evening)


def keep_evening_stats(evening: Evening) -> None:
    """The evening's rounds' season counts added up by seat, as a season reads them (one short
    read of the evening's counts and one write, under the evening's lock like every round write)."""
    rows = list(RoundStats.objects.filter(evening=evening).order_by("number").values_list("number", "dealer", "data"))
    EveningStats.objects.update_or_create(evening=evening, defaults={
        "data": evening_summary(rows, players=evening.players.count())})


def _apply(round_: Round, settlement: Settlement, rules: Mapping[str, Any]) -> None:
    round_.record = _stored_record(settlement)
    round_.settlement = settlement_json(settlement, words=True)
    round_.rules = dict(rules)
    round_.net = list(settlement.net)
    round_.dealer = settlement.record.dealer
    round_.next_dealer = settlement.next_dealer


@transaction.atomic
def round_record(
    *,
    evening: Evening,
    record: Mapping[str, Any],
    idempotency_key: uuid.UUID | None = None,
    by: str = "",
    seen: Seen | None = None,
) -> Round:
    """记一局: score a round under the evening's rules and store it as round max + 1.

    Raises `RecordInvalid` (nothing stored) when the record breaks a rule. A second call with
    an idempotency key already used in this evening stores nothing: it returns that round when
    the record is the same, and raises `IdempotencyKeyReused` when it is not. The draft that
    holds the key (录入中, every phone's form carries it) is consumed: it became this round.
    `seen`: the recording phone's form, when it came from the shared draft: if another phone
    changed the draft since that phone looked, `DraftOvertaken` and nothing is stored.
    """
    evening = lock_evening(evening)
    settlement = settle_record(_evening_record(evening, record, evening.rules))
    if idempotency_key is not None:
        existing = evening.rounds.filter(idempotency_key=idempotency_key).first()
        if existing is not None:
            # the same form again (a lost answer, the outbox): scored in the existing round's own
            # place, or 连庄 would count that round in its own streak
            again = settle_record(_evening_record(evening, record, existing.rules, before=existing.number,
                                                  played=existing))
            if not _same_round(again, existing):
                raise IdempotencyKeyReused(existing)
            return existing
        deleted = evening.changes.filter(kind=Change.DELETED, before__idempotency_key=str(idempotency_key)).first()
        if deleted is not None:
            raise IdempotencyKeyDeleted(deleted.round_number)
        check_seen(RoundDraft.objects.filter(evening=evening, idempotency_key=idempotency_key).first(), seen)
    number = selectors.next_round_number(evening=evening)
    now = timezone.now()
    round_ = Round(evening=evening, number=number, idempotency_key=idempotency_key,
                   created_at=now, updated_at=now)
    _apply(round_, settlement, evening.rules)
    round_.save()
    _keep_stats(round_)
    Change.objects.create(evening=evening, round_number=number, kind=Change.CREATED, at=now,
                          by=by[:MAX_BY], before=None, after=snapshot(round_))
    if idempotency_key is not None:
        _consume_draft(evening, idempotency_key, round_, record_digest(settlement.record.to_dict()))
    return round_


def record_digest(record: Mapping[str, Any]) -> str:
    """What a seat confirms: the round's facts (hands, melds, outcome, chickens, dealer) as
    scored, without what the evening fixes (names, stake, rules), as a short fingerprint."""
    facts = {k: v for k, v in record.items() if k not in ("preset", "options", "stake", "seats")}
    facts["seats"] = [{k: v for k, v in seat.items() if k != "name"} for seat in record.get("seats") or []]
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()[:32]


def _consume_draft(evening: Evening, key: uuid.UUID, round_: Round, digest: str) -> None:
    """The draft the round was entered in is used up; the seats' words on it go with the round
    when they were given on exactly this round."""
    draft = RoundDraft.objects.filter(evening=evening, idempotency_key=key).first()
    if draft is None:
        return
    RoundConfirmation.objects.bulk_create(
        RoundConfirmation(round=round_, seat=int(seat), verdict=word["verdict"], note=word.get("note", ""),
                          by=word.get("by", "") if word.get("proxy") else "", own=not word.get("proxy", True))
        for seat, word in draft.confirmations.items()
        if word.get("digest") == digest and int(seat) < len(round_.net))
    draft.delete()


def seat_words_snapshot(round_: Round) -> list[dict[str, Any]]:
    """The seats' 确认 / 有异议 on a round as the history keeps them with the version they were
    given on (a correction's `before`): who said what about which version stays readable."""
    return [{"seat": c.seat, "verdict": c.verdict, "note": c.note, "at": c.at.isoformat(), "by": c.by}
            for c in round_.confirmations.order_by("seat")]


def _locked_round(round_: Round, expected_version: int | None) -> tuple[Evening, Round]:
    evening = lock_evening(round_.evening)
    current = Round.objects.filter(pk=round_.pk).select_for_update().first()
    if current is None or (expected_version is not None and current.version != expected_version):
        raise RoundVersionConflict(current)
    return evening, current


@transaction.atomic
def round_correct(*, round: Round, record: Mapping[str, Any], expected_version: int, by: str = "",  # noqa: A002
                  seen: Seen | None = None) -> Round:
    """改一局 (R42): re-score this round only, under the rules it was first scored with.

    Raises `RoundVersionConflict` when the round is no longer at `expected_version` (someone
    else corrected or deleted it first) and `RecordInvalid` when the new record breaks a rule;
    `DraftOvertaken` when `seen` (the saving phone's form) missed a change another phone made
    to 改这局 since that phone looked, `DraftEnded` when the 改这局 it was drawn from was thrown away.
    An unchanged record changes nothing (the version stays) and leaves no history; a changed one
    moves the seats' 确认 / 有异议 into the history (the correction's `before`, with the version
    they were given on), so the table is asked again and what each seat said stays readable.
    Either ends 改这局 on every phone.
    """
    evening, current = _locked_round(round, expected_version)
    draft = RoundDraft.objects.filter(evening=evening, correcting=current.number).first()
    if seen is not None and seen.key is not None and (draft is None or draft.idempotency_key != seen.key):
        raise DraftEnded  # thrown away on another phone, perhaps opened again since (saved: the version moved, above)
    check_seen(draft, seen)
    settlement = settle_record(_evening_record(evening, record, current.rules, before=current.number,
                                               played=current))
    RoundDraft.objects.filter(evening=evening, correcting=current.number).delete()
    if _same_round(settlement, current):
        return current
    before = {**snapshot(current), "confirmations": seat_words_snapshot(current)}
    _apply(current, settlement, current.rules)
    current.confirmations.all().delete()  # what the seats confirmed is not what the round says now
    current.version += 1
    current.updated_at = timezone.now()
    current.save()
    _keep_stats(current)
    Change.objects.create(evening=evening, round_number=current.number, kind=Change.CORRECTED,
                          at=current.updated_at, by=by[:MAX_BY], before=before, after=snapshot(current))
    return current


@transaction.atomic
def round_delete(*, round: Round, expected_version: int | None = None, by: str = "") -> None:  # noqa: A002
    """删一局: remove a round; its whole content stays in the history (R42)."""
    evening, current = _locked_round(round, expected_version)
    before = {**snapshot(current), "confirmations": seat_words_snapshot(current)}
    RoundDraft.objects.filter(evening=evening, correcting=current.number).delete()  # a draft never outlives its round
    current.delete()
    keep_evening_stats(evening)
    Change.objects.create(evening=evening, round_number=before["number"], kind=Change.DELETED,
                          by=by[:MAX_BY], before=before, after=None)
