"""Reads of the round being entered (录入中): the evening's draft, and what changed in it since a
phone last looked (the phones' 2-second poll)."""
from __future__ import annotations

from ..models import Evening, RoundDraft


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
