"""Where each seat stands at the end of a round: won, ready (有叫) or not, and for how much."""
from __future__ import annotations

from dataclasses import dataclass

from .hands import Reading, Wait, best_reading, waits_of
from .record import RoundRecord

WON, READY, NOT_READY = "won", "ready", "not_ready"


@dataclass(frozen=True, slots=True)
class SeatAnalysis:
    """`value` is V for a winner (R11) and the 叫 value for a ready seat (R8), bonus included."""

    seat: int
    status: str
    tiles: int
    reading: Reading | None
    waits: tuple[Wait, ...]
    value: int
    declared_bonus: int

    @property
    def ready(self) -> bool:
        """Winners count as ready (R8)."""
        return self.status in (WON, READY)

    @property
    def pattern(self) -> str | None:
        if self.reading:
            return self.reading.pattern
        if self.waits:
            return max(self.waits, key=lambda w: w.value).pattern
        return None

    def to_dict(self) -> dict:
        return {
            "seat": self.seat,
            "status": self.status,
            "tiles": self.tiles,
            "pattern": self.pattern,
            "value": self.value,
            "waits": [str(w.tile) for w in self.waits],
        }


def with_bonus(rules, pattern_value: int, bonus: int) -> int:
    """V (R11) or a 叫 value (R8): the pattern plus the 报听 bonus, or under `declare_floor` (R58)
    whichever is more."""
    return max(pattern_value, bonus) if rules.declare_floor else pattern_value + bonus


def analyse_seat(record: RoundRecord, seat: int) -> SeatAnalysis:
    data = record.seats[seat]
    rules = record.rules
    hand = data.hand()
    bonus = rules.declare[data.declared] if data.declared else 0
    if seat in record.outcome.winner_seats:
        reading = best_reading(hand, rules.hand_patterns)
        value = with_bonus(rules, reading.value, bonus) if reading else 0
        return SeatAnalysis(seat, WON, hand.size, reading, (), value, bonus)
    # 相公 (R37) is never ready, whatever its tiles say; a 没叫 seat showed none.
    waits = () if data.xiang_gong or data.mei_jiao else tuple(waits_of(hand, rules.hand_patterns))
    if waits:
        return SeatAnalysis(seat, READY, hand.size, None, waits, with_bonus(rules, max(w.value for w in waits), bonus),
                            bonus)
    return SeatAnalysis(seat, NOT_READY, hand.size, None, (), 0, bonus)


def analyse(record: RoundRecord) -> tuple[SeatAnalysis, ...]:
    return tuple(analyse_seat(record, seat) for seat in range(record.players))


def expected_tiles(record: RoundRecord, seat: int) -> int | None:
    """How many tiles the seat must hold, a kong counted as three (R5): 14 for a winner, else
    13; None where its count is not checked (R37: a 相公; a 没叫 seat showed no concealed tiles)."""
    data = record.seats[seat]
    if data.xiang_gong or data.mei_jiao:
        return None
    return 14 if seat in record.outcome.winner_seats else 13


def can_hold(record: RoundRecord, seat: int) -> bool:
    """Whether the seat's own tiles could be in a hand: the right number, none more than four
    times. Only such hands are analysed: thirteen of one tile would cost seconds and a cache of
    hundreds of megabytes, for a record that is refused anyway."""
    hand = record.seats[seat].hand()
    expected = expected_tiles(record, seat)
    held = max((hand.held(kind) for kind in range(len(hand.concealed))), default=0)
    return (expected is None or hand.size == expected) and held <= 4


def analyse_possible(record: RoundRecord) -> tuple[SeatAnalysis | None, ...]:
    """`analyse`, but None for a seat whose tiles no hand could hold (`can_hold`): validation
    reports those from the record alone."""
    return tuple(analyse_seat(record, seat) if can_hold(record, seat) else None for seat in range(record.players))
