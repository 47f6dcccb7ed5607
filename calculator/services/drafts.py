"""Writes of the round being entered (录入中): open it, save what a phone changed, throw it away.

Every write takes the evening's lock, as rounds do, so phones saving into one draft at once are
served one after the other and each save sees the version the last one left. A save writes only
the fields its phone changed (merge per field); a field that another phone changed since this
phone last looked is still written (the phone just typed it), and the save says so, so that the
phone can tell its user "小李 也改了翻牌：6条".

改这局 opens a draft of its own (`correcting`: the stored round's number), shared and merged the
same way; saving the correction (`rounds.round_correct`), throwing it away or deleting the round
ends it for every phone.
"""
from __future__ import annotations

import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from .. import selectors
from ..entry.draft import added_discards, is_switch
from ..models import MAX_BY, Change, Evening, Round, RoundDraft
from .evenings import lock_evening


@dataclass(frozen=True)
class Overlap:
    """A field this phone changed that another phone had changed too, since this one looked."""

    name: str
    by: str  # the other phone's 我是… name, "" if it did not say
    values: list[str]  # what the other phone had put there
    # 打出的鸡 tiles the other phone had just added, added again by this one: most likely the same
    # discard typed on two phones, which would silently count twice (issue 19)
    doubled: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seen:
    """The round as a phone's form held it when it asked to record it (or to save 改这局): its
    draft fields (an unticked box absent: empty), the draft version it had seen, its writer id."""

    values: dict[str, list[str]] | None  # None: what it holds is a record (确认修改); any newer write counts
    base: int
    client: str
    key: uuid.UUID | None = None  # the draft its form was drawn from: `base` is a version of that draft only


class DraftOvertaken(Exception):
    """Another phone changed the round after the asking phone last saw it: storing that phone's
    form would silently undo those changes (the table had seen them). `overlaps`: which fields,
    as the draft holds them now."""

    def __init__(self, overlaps: list[Overlap]):
        super().__init__(", ".join(overlap.name for overlap in overlaps))
        self.overlaps = overlaps


class DraftEnded(Exception):
    """The draft the asking phone's form was drawn from is gone (thrown away on another phone):
    what the table ended is not stored from a page that had not heard yet."""


def check_seen(draft: RoundDraft | None, seen: Seen | None) -> None:
    """Raise `DraftOvertaken` when `draft` holds a field another phone wrote after `seen.base`
    that the phone's form does not hold as it is: what the phone asks to store is not the round
    the table sees. A form drawn from another draft (thrown away, a new one opened since) has
    seen nothing of this one. Called under the evening's lock, by the write that would store it."""
    if draft is None or seen is None:
        return
    newer = selectors.draft_changes(draft, since=seen_base(draft, seen.key, seen.base), client=seen.client)
    overlaps = [Overlap(name=name, by=by, values=values) for name, (values, by) in sorted(newer.items())
                if seen.values is None or values != list(seen.values.get(name, []))]
    if overlaps:
        raise DraftOvertaken(overlaps)


def seen_base(draft: RoundDraft, key: uuid.UUID | None, base: int) -> int:
    """The version of `draft` a page has seen: its `base`, when that is a version of this very
    draft (versions start again in every new draft), else none of it."""
    return base if key is None or key == draft.idempotency_key else 0


SAME_DISCARD_SECONDS = 20  # a tile another phone added to the same 打出的鸡 this recently, added again

@dataclass
class DraftSaved:
    """What a save did: the draft as it now stands, the overlaps, or the round the draft already
    became (then nothing was saved)."""

    draft: RoundDraft | None
    overlaps: list[Overlap] = field(default_factory=list)
    recorded: Round | None = None
    deleted: int | None = None  # the phone's key recorded this round, deleted since: a fresh draft took the write
    ended: bool = False  # a correction's draft that was saved or thrown away meanwhile: nothing was written

    @property
    def missed(self) -> list[Overlap]:
        """Other phones' changes the saved form did not hold (whole-form saves keep them): the
        form is not the round the table sees. A tile named as added twice is not one."""
        return [overlap for overlap in self.overlaps if not overlap.doubled]


def spent_key(evening: Evening, key: uuid.UUID | None) -> int | None:
    """The number of the round `key` recorded, stored or deleted since; None when it recorded none.

    A spent key can never hold a draft again: every submit of that draft would be refused as the
    deleted round's resend (`rounds.IdempotencyKeyDeleted`), and 记一局 would reopen it forever."""
    if key is None:
        return None
    created = (Change.objects.filter(evening=evening, kind=Change.CREATED, after__idempotency_key=str(key))
               .values_list("round_number", flat=True).first())
    if created is not None:
        return created
    return Round.objects.filter(evening=evening, idempotency_key=key).values_list("number", flat=True).first()


def _unspent(evening: Evening, draft: RoundDraft) -> RoundDraft:
    """A draft left under a spent key (by a version before this check) gets a key of its own, and
    the words given on the old round are not carried over to the new one."""
    if draft.pk is not None and spent_key(evening, draft.idempotency_key) is not None:
        draft.idempotency_key = uuid.uuid4()
        draft.confirmations = {}
        draft.version += 1
        draft.save(update_fields=["idempotency_key", "confirmations", "version"])
    return draft


SEEN_REFRESH = timedelta(seconds=10)  # how stale a phone's "last seen" may get before a poll writes it again


def _stale(phone: dict | None, now) -> bool:
    try:
        return now - datetime.fromisoformat(phone["at"]) >= SEEN_REFRESH
    except (TypeError, KeyError, ValueError):
        return True


def _present(draft: RoundDraft, seat: int | None, by: str) -> bool:
    """Note that the phone of `seat` (it said 这部手机是…) is at this round: while it is seen
    (`RoundDraft.has_phone`) no other phone confirms for that seat. True when that changed the
    draft (new, or last seen more than SEEN_REFRESH ago: the draft needs saving)."""
    now = timezone.now()
    if seat is None or not _stale(draft.phones.get(str(seat)), now):
        return False
    draft.phones[str(seat)] = {"by": by[:MAX_BY], "at": now.isoformat()}
    return True


@transaction.atomic
def draft_seen(*, evening: Evening, seat: int, by: str = "", correcting: int | None = None) -> bool:
    """The phone of `seat` polled its draft: it is still at the table. Written at most every
    SEEN_REFRESH per phone, without moving the draft's version or the evening's generation (an
    update sends no signal), so an idle table's polls stay 204s answered from the cache."""
    evening = lock_evening(evening)
    draft = RoundDraft.objects.filter(evening=evening, correcting=correcting).first()
    if draft is None or not _present(draft, seat, by):
        return False
    RoundDraft.objects.filter(pk=draft.pk).update(phones=draft.phones)
    return True


@transaction.atomic
def draft_open(*, evening: Evening, seat: int | None = None, by: str = "",
               correcting: int | None = None) -> RoundDraft:
    """记一局: the evening's draft of its next round, started if there is none. `seat`: whose
    phone opens it, when the phone said so (这部手机是…). `correcting`: 改这局 on that stored
    round instead (its draft starts empty: the page draws the round as stored until a phone
    writes)."""
    evening = lock_evening(evening)
    draft = RoundDraft.objects.filter(evening=evening, correcting=correcting).first()
    if draft is None:
        draft = RoundDraft(evening=evening, correcting=correcting)
        _present(draft, seat, by)
        draft.save()
        return draft
    if correcting is None:
        draft = _unspent(evening, draft)
    if _present(draft, seat, by):
        draft.save(update_fields=["phones"])
    return draft


@transaction.atomic
def draft_save(*, evening: Evening, values: dict[str, list[str]], changed: set[str] | None,
               base: int, client: str, by: str = "", key: uuid.UUID | None = None,
               seat: int | None = None, correcting: int | None = None) -> DraftSaved:
    """Write the fields `changed` into the evening's draft (merge per field).

    `base` is the draft version the phone last saw, `client` the page's id. `changed` None: a
    whole form (a submit that was refused, a phone without JavaScript) writes each field that
    differs, except those another phone wrote after `base`. A draft that holds nothing yet takes
    every field of `values` (the phone's whole form: blank fields, meld-row counts). `key`: the
    idempotency key the phone's form holds; if a round was recorded under it, nothing is saved
    and the round is returned (`recorded`). If that round was deleted since, or the draft was
    thrown away, the phone's entry goes into the evening's draft, or starts a new one (nothing
    typed is lost) under a fresh key (`deleted` says which round it was). `base` counts only
    against the draft whose key the form holds: versions start again in every draft, so a form
    from a draft that ended has seen nothing of the one open now, whose changes stay (named).
    `seat`: whose phone this is, when it said so (see `draft_open`). `correcting`: the draft of
    改这局 on that round; when the one the page holds (`key`) ended meanwhile (saved or thrown
    away, even if opened again since) nothing is written (`ended`): the phone is told, and opens
    改这局 again to change more."""
    evening = lock_evening(evening)
    deleted = None
    if correcting is not None:
        draft = RoundDraft.objects.filter(evening=evening, correcting=correcting).first()
        if draft is None or (key is not None and key != draft.idempotency_key):  # this page's 改这局 ended (opened again since?)
            return DraftSaved(draft=None, ended=True)
        return _merge(draft, values=values, changed=changed, base=base, client=client, by=by, seat=seat)
    if key is not None:
        recorded = Round.objects.filter(evening=evening, idempotency_key=key).first()
        if recorded is not None:
            return DraftSaved(draft=None, recorded=recorded)
        deleted = spent_key(evening, key)
    draft = RoundDraft.objects.filter(evening=evening, correcting=None).first()  # never a correction's
    if draft is None:  # its own key: pages still holding the last one's versions are told apart
        draft = RoundDraft(evening=evening)
    draft = _unspent(evening, draft)
    saved = _merge(draft, values=values, changed=changed, base=seen_base(draft, key, base), client=client, by=by,
                   seat=seat)
    saved.deleted = deleted
    return saved


def _merge(draft: RoundDraft, *, values: dict[str, list[str]], changed: set[str] | None, base: int,
           client: str, by: str, seat: int | None) -> DraftSaved:
    """`draft_save`'s merge per field, into the draft it chose."""
    filling = not draft.data
    if changed is None:  # a whole form: a box the draft has ticked and the form does not post is unticked there
        values = {**{name: [] for name in draft.data if is_switch(name)}, **values}
    names = set(values) if changed is None or filling else changed & set(values)
    overlaps = []
    writes = {}
    for name in sorted(names):
        new = list(values[name])
        old = draft.data.get(name, [])
        if new == old:
            continue
        meta = draft.fields.get(name) or {}
        if meta.get("v", 0) > base and meta.get("client") != client:
            overlaps.append(Overlap(name=name, by=meta.get("by", ""), values=list(old)))
            if changed is None:  # a whole form, not a phone's own change: what others wrote stays
                continue
        elif meta.get("client") != client and time.time() - meta.get("at", 0) < SAME_DISCARD_SECONDS:
            # seen here already, but that fresh: the same tile added again is named, not silently doubled
            again = Counter(added_discards(name, old, new)) & Counter(meta.get("added", []))
            if again:
                overlaps.append(Overlap(name=name, by=meta.get("by", ""), values=list(old),
                                        doubled=tuple(sorted(again.elements()))))
        writes[name] = new
    present = _present(draft, seat, by)
    if present and not writes and draft.pk is not None:
        draft.save(update_fields=["phones"])
    if writes or draft.pk is None:
        draft_before = dict(draft.data)
        draft.version += 1
        for name, new in writes.items():
            draft.data[name] = new
            # The first save fills in the whole form; what this phone did not change there is the
            # form as every phone opens it: version 0, nobody's change, nothing to poll.
            untouched = filling and changed is not None and name not in changed
            over = _replaced(draft.fields.get(name) or {}, client[:40], draft.version)
            draft.fields[name] = {"v": 0 if untouched else draft.version, "client": client[:40],
                                  "by": "" if untouched else by[:MAX_BY], **over}
            added = [] if untouched else added_discards(name, draft_before.get(name, []), new)
            if added:
                draft.fields[name].update(added=added, at=time.time())
        draft.updated_at = timezone.now()
        draft.save()
    return DraftSaved(draft=draft, overlaps=overlaps)


def _replaced(before: dict, client: str, version: int) -> dict:
    """Whose own change a write replaces, and at which version ({"over", "over_v"}), so that
    phone's poll says so, once (no silent flip there); kept through the writer's next writes of
    the field (a hand typed tile by tile saves several times between two polls)."""
    if before.get("v") and before.get("client") != client:
        return {"over": before["client"], "over_v": version}
    return {k: before[k] for k in ("over", "over_v") if k in before}


@transaction.atomic
def draft_discard(*, evening: Evening, correcting: int | None = None, key: uuid.UUID | None = None) -> bool:
    """扔掉: throw the evening's draft away (`correcting`: that round's correction). `key`: the
    draft the asking page showed; another one open now (that round recorded, the next begun) is
    not the page's to throw away. False when nothing was thrown away."""
    evening = lock_evening(evening)
    drafts = RoundDraft.objects.filter(evening=evening, correcting=correcting)
    if key is not None:
        drafts = drafts.filter(idempotency_key=key)
    deleted, _ = drafts.delete()
    return bool(deleted)
