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


@dataclass(frozen=True)
class EarlierWords:
    """The seats' 确认 / 有异议 on an earlier version of a round, replaced by a correction: who
    said what about which version, and what the correction changed."""

    version: int
    corrected_at: datetime
    corrected_by: str
    changes: list[str]  # "翻牌：6筒 → 9筒"
    words: list[Any]  # SeatWords of that version, in seat order; only the seats that said something


def round_earlier_words(*, evening: Evening, number: int) -> list[EarlierWords]:
    """What the seats said about each version of round `number` a correction replaced, newest
    first (corrections from before issue 19 kept no words: they are left out)."""
    from .rounds import SeatWord

    names = evening_names(evening=evening)
    earlier = []
    for change in Change.objects.filter(evening=evening, round_number=number, kind=Change.CORRECTED).order_by("-at", "-id"):
        said = (change.before or {}).get("confirmations")
        if not said:
            continue
        words = [SeatWord(w["seat"], names[w["seat"]] if w["seat"] < len(names) else "?", w["verdict"],
                          w.get("note", ""), bool(w.get("by")), w.get("by", "")) for w in said]
        earlier.append(EarlierWords(version=change.before.get("version", 1), corrected_at=change.at,
                                    corrected_by=change.by, words=words,
                                    changes=record_changes(change.before["record"], change.after["record"], names)))
    return earlier


@dataclass(frozen=True)
class AskAgain:
    """第3局改过了：翻牌：6筒 → 9筒，请再确认 — a corrected round whose payments changed and which
    not every seat has confirmed since."""

    number: int
    changes: list[str]
    waiting: list[str]  # the seats that have not said anything on this version


def rounds_to_confirm_again(*, evening: Evening, number: int | None = None, limit: int = 3) -> list[AskAgain]:
    """The latest corrections (at most `limit`, or round `number`'s) that changed what someone
    pays, on rounds still at that version and not yet confirmed by every seat: the table is asked
    again on every phone (the evening page, the round's page). A fixed number of queries."""
    from ..models import Round

    names = evening_names(evening=evening)
    changes = Change.objects.filter(evening=evening, kind=Change.CORRECTED)
    if number is not None:
        changes = changes.filter(round_number=number)
    latest: dict[int, Change] = {}
    for change in changes.order_by("-at", "-id")[: limit * 4]:
        latest.setdefault(change.round_number, change)
    rounds = {r.number: r for r in Round.objects.filter(evening=evening, number__in=list(latest))
              .prefetch_related("confirmations")}
    asks = []
    for round_number, change in sorted(latest.items(), key=lambda item: item[1].at, reverse=True):
        round_ = rounds.get(round_number)
        if round_ is None or round_.version != (change.after or {}).get("version"):
            continue  # deleted, or corrected again since by a change further down the list
        if change.before["net"] == change.after["net"]:
            continue  # nobody pays differently: nothing new to agree to
        given = {c.seat for c in round_.confirmations.all()}
        if len(given) >= len(names):
            continue
        asks.append(AskAgain(number=round_number,
                             changes=record_changes(change.before["record"], change.after["record"], names),
                             waiting=[name for seat, name in enumerate(names) if seat not in given]))
    return asks[:limit]
