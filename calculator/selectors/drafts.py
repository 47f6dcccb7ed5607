"""Reads of the round being entered (录入中): the evening's draft, and what changed in it since a
phone last looked (the phones' 2-second poll)."""
from __future__ import annotations

from django.db.models import Count, Max

from ..models import Evening, Round, RoundConfirmation, RoundDraft


def evening_draft(*, evening: Evening) -> RoundDraft | None:
    """The evening's draft of its next round, if one is open."""
    return RoundDraft.objects.filter(evening=evening).first()


def draft_version(*, evening: Evening) -> int:
    """The open draft's version, 0 when there is none (the evening page's poll sends it back)."""
    return RoundDraft.objects.filter(evening=evening).values_list("version", flat=True).first() or 0


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
    return f"{round_.version}.{words['n']}.{last}"
