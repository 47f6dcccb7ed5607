"""胡牌与叫: complete hands, patterns (牌型), waits and the 叫 value (R5–R8).

Hands are count vectors over the 27 kinds (see `tiles`). Each suit is decomposed on its own
and the result cached, since the same suit shapes recur endlessly; a hand is complete when the
suits' readings combine into exactly one pair.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .tiles import KINDS, Tile

PATTERN_HANZI = {
    "ping_hu": "平胡",
    "da_dui_zi": "大对子",
    "xiao_qi_dui": "小七对",
    "qing_yi_se": "清一色",
    "qing_da_dui": "清大对",
    "qing_qi_dui": "清七对",
    "long_qi_dui": "龙七对",
    "qing_long_qi_dui": "清龙七对",
}


@lru_cache(maxsize=None)
def _suit_readings(counts: tuple[int, ...]) -> frozenset[tuple[int, bool]]:
    """Every way one suit splits into sets and at most one pair, as (pairs, has_sequence)."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return frozenset({(0, False)})
    found: set[tuple[int, bool]] = set()
    rest = list(counts)
    if counts[first] >= 3:
        rest[first] -= 3
        found |= _suit_readings(tuple(rest))
        rest[first] += 3
    if first <= 6 and counts[first + 1] and counts[first + 2]:
        for i in (first, first + 1, first + 2):
            rest[i] -= 1
        found |= {(pairs, True) for pairs, _ in _suit_readings(tuple(rest))}
        for i in (first, first + 1, first + 2):
            rest[i] += 1
    if counts[first] >= 2:
        rest[first] -= 2
        found |= {(pairs + 1, seq) for pairs, seq in _suit_readings(tuple(rest)) if pairs == 0}
    return frozenset(found)


def _standard_readings(counts: Sequence[int]) -> set[bool]:
    """For sets + exactly one pair: the has-a-sequence flags of all readings (empty if none)."""
    combos: set[tuple[int, bool]] = {(0, False)}
    for start in (0, 9, 18):
        suit = _suit_readings(tuple(counts[start:start + 9]))
        if not suit:
            return set()
        combos = {(p1 + p2, s1 or s2) for p1, s1 in combos for p2, s2 in suit if p1 + p2 <= 1}
        if not combos:
            return set()
    return {seq for pairs, seq in combos if pairs == 1}


def _is_seven_pairs(counts: Sequence[int]) -> bool:
    return all(c % 2 == 0 for c in counts)


@dataclass(frozen=True, slots=True)
class Hand:
    """A seat's tiles for analysis: concealed counts and the kinds of its melds (碰/杠)."""

    concealed: tuple[int, ...]
    meld_kinds: tuple[int, ...] = ()
    meld_sizes: tuple[int, ...] = ()

    @classmethod
    def of(cls, concealed: Sequence[Tile], melds: Sequence[tuple[Tile, int]] = ()) -> Hand:
        counts = [0] * KINDS
        for tile in concealed:
            counts[tile.index] += 1
        return cls(tuple(counts), tuple(t.index for t, _ in melds), tuple(n for _, n in melds))

    @property
    def size(self) -> int:
        """Tiles for counting (R5): a kong stands for three."""
        return sum(self.concealed) + 3 * len(self.meld_kinds)

    def held(self, kind: int) -> int:
        """How many of a kind the seat holds, concealed and melded (for the R8 four-held rule)."""
        return self.concealed[kind] + sum(
            size for k, size in zip(self.meld_kinds, self.meld_sizes) if k == kind
        )

    def one_suit(self) -> bool:
        suits = {i // 9 for i, c in enumerate(self.concealed) if c} | {k // 9 for k in self.meld_kinds}
        return len(suits) == 1

    def with_tile(self, kind: int) -> Hand:
        counts = list(self.concealed)
        counts[kind] += 1
        return Hand(tuple(counts), self.meld_kinds, self.meld_sizes)


def patterns_of(hand: Hand) -> set[str]:
    """Every pattern a 14-tile hand can be read as (R6, R7); empty when it is not complete."""
    if hand.size != 14:
        return set()
    one_suit = hand.one_suit()
    found: set[str] = set()
    for has_sequence in _standard_readings(hand.concealed):
        if has_sequence:
            found.add("qing_yi_se" if one_suit else "ping_hu")
        else:
            found.add("qing_da_dui" if one_suit else "da_dui_zi")
    if not hand.meld_kinds and _is_seven_pairs(hand.concealed):
        dragon = any(c == 4 for c in hand.concealed)
        if dragon:
            found.add("qing_long_qi_dui" if one_suit else "long_qi_dui")
        else:
            found.add("qing_qi_dui" if one_suit else "xiao_qi_dui")
    return found


def is_complete(hand: Hand) -> bool:
    return bool(patterns_of(hand))


@dataclass(frozen=True, slots=True)
class Reading:
    """The best pattern (牌型) of a complete hand and its points."""

    pattern: str
    value: int


def best_reading(hand: Hand, patterns: Mapping[str, int]) -> Reading | None:
    """The single best pattern a complete hand can be read as; patterns never add up (R7)."""
    found = patterns_of(hand)
    if not found:
        return None
    best = max(found, key=lambda key: (patterns[key], key))
    return Reading(best, patterns[best])


@dataclass(frozen=True, slots=True)
class Wait:
    tile: Tile
    pattern: str
    value: int


def _candidate_kinds(hand: Hand) -> list[int]:
    """Kinds that could complete the hand: a held kind or one within two ranks of it."""
    near: set[int] = set()
    for kind, count in enumerate(hand.concealed):
        if count:
            base = kind - kind % 9
            near.update(k for k in range(max(base, kind - 2), min(base + 8, kind + 2) + 1))
    return sorted(near)


def waits_of(hand: Hand, patterns: Mapping[str, int]) -> list[Wait]:
    """有叫/听牌 (R8): the kinds that complete a 13-tile hand, best pattern each.

    A wait on a kind the seat already holds four of (concealed and melds) does not count.
    """
    if hand.size != 13:
        return []
    waits: list[Wait] = []
    for kind in _candidate_kinds(hand):
        if hand.held(kind) >= 4:
            continue
        reading = best_reading(hand.with_tile(kind), patterns)
        if reading:
            waits.append(Wait(Tile(kind), reading.pattern, reading.value))
    return waits
