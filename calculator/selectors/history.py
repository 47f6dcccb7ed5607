"""Reads of the change history (R42): every round recorded, corrected or deleted, newest first.

Kept apart from `selectors` (the ledger's other reads) because it reads the Change rows, not the
rounds: what each change did, who made it, and each player's net before and after.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.paginator import Page, Paginator
from django.utils.translation import gettext_lazy

from ..models import Change, Evening
from ..presentation import outcome_text, signed
from ..presentation.changes import record_changes
from .evenings import evening_names

KIND_TITLES = {
    Change.CREATED: gettext_lazy("记了"),
    Change.CORRECTED: gettext_lazy("改了"),
    Change.DELETED: gettext_lazy("删了"),
}


@dataclass(frozen=True)
class HistoryNet:
    name: str
    before: int | None
    after: int | None

    @property
    def changed(self) -> bool:
        return self.before is not None and self.after is not None and self.before != self.after

    @property
    def before_text(self) -> str:
        return "" if self.before is None else signed(self.before)

    @property
    def after_text(self) -> str:
        return "" if self.after is None else signed(self.after)


@dataclass(frozen=True)
class HistoryRow:
    kind: str
    title: str
    round_number: int
    at: datetime
    by: str
    before: str  # the round's one-line summary before the change ("" when it did not exist)
    after: str
    nets: list[HistoryNet]
    details: list[str]  # what a correction changed, field by field ("翻牌：5条 → 6条")


def _snapshot_summary(snapshot: dict[str, Any] | None, names: list[str]) -> str:
    if not snapshot:
        return ""
    return outcome_text(snapshot["record"], snapshot["settlement"], names)


HISTORY_PER_PAGE = 30


def evening_history_page(*, evening: Evening, page: int | str | None = 1) -> tuple[list[HistoryRow], Page]:
    """One page (1 = the newest) of the evening's changes, newest first: the history page's cost
    does not grow with the evening."""
    names = evening_names(evening=evening)
    changes = Change.objects.filter(evening=evening).order_by("-at", "-id")
    shown = Paginator(changes, HISTORY_PER_PAGE, allow_empty_first_page=True).get_page(page)
    return [_row(change, names) for change in shown], shown


def evening_history(*, evening: Evening) -> list[HistoryRow]:
    """Every change to the evening's rounds, newest first (R42)."""
    names = evening_names(evening=evening)
    return [_row(change, names) for change in Change.objects.filter(evening=evening).order_by("-at", "-id")]


def _row(change: Change, names: list[str]) -> HistoryRow:
    before = change.before["net"] if change.before else [None] * len(names)
    after = change.after["net"] if change.after else [None] * len(names)
    return HistoryRow(
        kind=change.kind,
        title=str(KIND_TITLES[change.kind]),
        round_number=change.round_number,
        at=change.at,
        by=change.by,
        before=_snapshot_summary(change.before, names),
        after=_snapshot_summary(change.after, names),
        nets=[HistoryNet(*row) for row in zip(names, before, after)],
        details=(record_changes(change.before["record"], change.after["record"], names)
                 if change.before and change.after else []),
    )
