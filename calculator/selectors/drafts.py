"""Reads of the round being entered (录入中): the evening's draft, and what changed in it since a
phone last looked (the phones' 2-second poll)."""
from __future__ import annotations

from django.db.models import Count, Max
from django.utils import timezone

from ..models import Evening, Round, RoundConfirmation, RoundDraft


def evening_draft(*, evening: Evening) -> RoundDraft | None:
    """The evening's draft of its next round, if one is open."""
    return RoundDraft.objects.filter(evening=evening, correcting=None).first()


def correction_draft(*, evening: Evening, number: int) -> RoundDraft | None:
    """改这局 on round `number`, if a phone has it open."""
    return RoundDraft.objects.filter(evening=evening, correcting=number).first()


def corrections_open(*, evening: Evening) -> list[tuple[int, list[str]]]:
    """The rounds being corrected, with the names of the phones at each: [(3, ["阿珍"])], for
    "第3局正在改（阿珍）· 一起改". A correction counts once something was changed in it (until it
    is saved or thrown away), or while a phone that opened it is still there: a glance at
    改这局 that was left does not stay on every phone's evening page."""
    drafts = RoundDraft.objects.filter(evening=evening, correcting__isnull=False).order_by("correcting")
    now = timezone.now()
    out = []
    for draft in drafts.only("correcting", "phones", "version"):
        here = [phone.get("by", "") for seat, phone in draft.phones.items()
                if phone.get("by") and draft.has_phone(int(seat), now=now)]
        if draft.version or here:
            out.append((draft.correcting, here))
    return out


def corrections_version(*, evening: Evening) -> str:
    """Names which rounds are being corrected and how far ("3:5"), for the evening's poll."""
    rows = (RoundDraft.objects.filter(evening=evening, correcting__isnull=False)
            .order_by("correcting").values_list("correcting", "version"))
    return "-".join(f"{number}:{version}" for number, version in rows)


def draft_version(*, evening: Evening) -> int:
    """The open draft's version, 0 when there is none (the evening page's poll sends it back)."""
    return RoundDraft.objects.filter(evening=evening, correcting=None).values_list("version", flat=True).first() or 0


def draft_mark(*, evening: Evening) -> str:
    """The open draft as the evening's pages depend on it: its key and version ("" when there is
    none). Versions start again in every draft, so a new one at the same version is told apart
    (its 扔掉 button carries its key)."""
    row = RoundDraft.objects.filter(evening=evening, correcting=None).values_list("idempotency_key", "version").first()
    return f"{row[0].hex[:12]}-{row[1]}" if row else ""


def draft_changes(draft: RoundDraft, *, since: int, client: str) -> dict[str, tuple[list[str], str]]:
    """The fields other pages wrote after version `since`: name → (values, who wrote them)."""
    return {name: (list(draft.data.get(name, [])), meta.get("by", ""))
            for name, meta in draft.fields.items()
            if meta.get("v", 0) > since and meta.get("client") != client}


def evening_words_version(*, evening: Evening) -> str:
    """Names the state of the seats' 确认 / 有异议 on the evening's rounds (digits and a dot): a new
    word, a changed one (its time moves) or words cleared by a correction change it."""
    words = RoundConfirmation.objects.filter(round__evening=evening).aggregate(n=Count("id"), last=Max("at"))
    last = int(words["last"].timestamp() * 1_000_000) if words["last"] else 0
    return f"{words['n']}.{last}"


def round_live_version(round_: Round) -> str:
    """What a stored round's page shows, as the page's poll sends it back: the round's version
    (a correction) and its seats' words (count and latest time), "3.2.1733150000000000"."""
    words = round_.confirmations.aggregate(n=Count("id"), last=Max("at"))
    last = int(words["last"].timestamp() * 1_000_000) if words["last"] else 0
    correcting = RoundDraft.objects.filter(evening_id=round_.evening_id, correcting=round_.number).exists()
    return f"{round_.version}.{words['n']}.{last}.{int(correcting)}"
