"""Reads of one stored round: its row in the evening's list, and its settlement read back (R41)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from ..models import Round, RoundConfirmation
from ..presentation import round_summary, sign_class, signed
from ..presentation.chart import colour_class
from ..scoring import Item, RuleSet, Settlement, TableFacts, analyse, parse_record, ruleset_from_dict, settle


@dataclass(frozen=True)
class SeatNet:
    name: str
    points: int
    seat: int

    @property
    def colour_class(self) -> str:
        return colour_class(self.seat)

    @property
    def text(self) -> str:
        return signed(self.points)

    @property
    def sign(self) -> str:
        return sign_class(self.points)


@dataclass(frozen=True)
class SeatWord:
    """A seat's 确认 or 有异议 on a round, or that it has said nothing yet (`verdict` "")."""

    seat: int
    name: str
    verdict: str  # "confirmed", "disputed" or ""
    note: str = ""
    proxy: bool = False  # 代按: another phone pressed it, the seat having no phone of its own
    by: str = ""  # that phone's 我是… name ("" if it did not say)
    stale: bool = False  # it said a word, on the round as it was before a change since: asked again
    was: str = ""  # that earlier word's verdict (its `note` stays: an objection's why is not lost)

    @property
    def confirmed(self) -> bool:
        return self.verdict == RoundConfirmation.CONFIRMED

    @property
    def disputed(self) -> bool:
        return self.verdict == RoundConfirmation.DISPUTED

    @property
    def was_disputed(self) -> bool:
        """An objection given on the round before it changed (asked again, its why kept)."""
        return self.stale and self.was == RoundConfirmation.DISPUTED


@dataclass(frozen=True)
class RoundRow:
    number: int
    summary: str
    dealer: str
    nets: list[SeatNet]
    version: int
    updated_at: datetime
    corrected: bool
    words: tuple[SeatWord, ...] = ()  # per seat, in seat order

    @property
    def confirmed(self) -> int:
        return sum(word.confirmed for word in self.words)

    @property
    def disputes(self) -> list[SeatWord]:
        return [word for word in self.words if word.disputed]


def _seat_nets(net: list[int], names: list[str]) -> list[SeatNet]:
    return [SeatNet(names[s], points, s) for s, points in enumerate(net)]


def round_row(round_: Round, names: list[str]) -> RoundRow:
    return RoundRow(
        number=round_.number,
        summary=round_summary(round_, names),
        dealer=names[round_.dealer],
        nets=_seat_nets(round_.net, names),
        version=round_.version,
        updated_at=round_.updated_at,
        corrected=round_.version > 1,
        words=seat_words(round_, names),
    )


def seat_words(round_: Round, names: list[str]) -> tuple[SeatWord, ...]:
    """Each seat's 确认 / 有异议 on the round (prefetch `confirmations` when listing rounds)."""
    given = {c.seat: c for c in round_.confirmations.all()}
    return tuple(SeatWord(seat, name, given[seat].verdict, given[seat].note, bool(given[seat].by), given[seat].by)
                 if seat in given else SeatWord(seat, name, "")
                 for seat, name in enumerate(names))


def stored_settlement(round_: Round) -> Settlement:
    """The round's stored settlement as a `Settlement`, for `presentation.present`.

    The items and the next dealer are the stored ones, never re-scored (R41); only each seat's
    standing (won / ready, pattern, waits) is analysed again from the record, under the rules
    stored with the round.
    """
    rules = ruleset_from_dict(round_.rules)
    data = {**round_.record, "preset": rules.preset,
            "options": {k: v for k, v in round_.rules.items() if k != "preset"}}
    record = parse_record(data)
    stored = round_.settlement
    items = tuple(Item.from_dict(item) for item in stored["items"])
    burned = frozenset(h["seat"] for h in stored["hands"] if h.get("burned"))
    hands = analyse(record)
    void = settle(record, hands).void  # what paid nothing is words, not stored: said as scoring says it now
    return Settlement(record, hands, items, stored["next_dealer"], burned, void)


def table_facts(*, evening, rules: RuleSet, before: int | None = None, played: Round | None = None) -> TableFacts:
    """连庄 and 星期鸡 as the evening knows them for its next round (`before`: for round `before`,
    from the rounds ahead of it; `played`: a stored round, played on the day it was recorded).
    The rounds are read only when the evening plays 连庄."""
    dealers = []
    if rules.dealer_streak_bonus:
        rounds = Round.objects.filter(evening=evening).order_by("-number")
        if before is not None:
            rounds = rounds.filter(number__lt=before)
        dealers = list(rounds.values_list("dealer", flat=True)[:1000])
    run = next((n for n, dealer in enumerate(dealers) if dealer != dealers[0]), len(dealers))
    return TableFacts(last_dealer=dealers[0] if dealers else None, run=run,
                      weekday=timezone.localdate(played.created_at if played else None).isoweekday())
