"""胡牌与叫: complete hands, patterns (牌型), waits and the 叫 value (R5–R8).

Hands are count vectors over the 27 kinds (see `tiles`). Each suit is decomposed on its own
and the result cached, since the same suit shapes recur endlessly; a hand is complete when the
suits' readings combine into exactly one pair. `is_complete` needs no decomposition at all: it
looks each suit up in a fixed table of the shapes that can be part of a complete hand. The speed
of all this is measured against the `mahjong` package by bench/hands.py (docs/BENCHMARKS.md).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .tiles import ALL_KINDS, KINDS, Tile

# Each cache holds at most this many suit shapes (a few MB): a suit holds at most 4 of a rank in
# a record that validation lets through, and the shapes met at real tables are far fewer.
CACHE_SIZE = 1 << 16

# R7's order, lowest first: breaks ties when house points make two readings equal, so that a hand
# that is also a 大对子 is never scored as a 平胡 (which would need a pass, R15).
PATTERN_RANK = {key: rank for rank, key in enumerate((
    "ping_hu", "da_dui_zi", "xiao_qi_dui", "qing_yi_se", "qing_da_dui", "qing_qi_dui", "long_qi_dui",
    "qing_long_qi_dui",
    # House-rule patterns (R60, R61): scored only where the rules give them a value (`hand_patterns`);
    # on a tie they win, as the house rule is what the table chose to play.
    "dan_diao", "qing_dan_diao", "shuang_long_qi_dui", "qing_shuang_long_qi_dui", "san_long_qi_dui",
    "qing_san_long_qi_dui",
))}
PATTERN_HANZI = {
    "ping_hu": "平胡",
    "da_dui_zi": "大对子",
    "xiao_qi_dui": "小七对",
    "qing_yi_se": "清一色",
    "qing_da_dui": "清大对",
    "qing_qi_dui": "清七对",
    "long_qi_dui": "龙七对",
    "qing_long_qi_dui": "清龙七对",
    "dan_diao": "单钓",  # R60
    "qing_dan_diao": "清单钓",
    "shuang_long_qi_dui": "双龙七对",  # R61
    "qing_shuang_long_qi_dui": "清双龙七对",
    "san_long_qi_dui": "三龙七对",
    "qing_san_long_qi_dui": "清三龙七对",
}


@lru_cache(maxsize=CACHE_SIZE)
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
    if first + 2 < len(counts) and counts[first + 1] and counts[first + 2]:
        for i in (first, first + 1, first + 2):
            rest[i] -= 1
        found |= {(pairs, True) for pairs, _ in _suit_readings(tuple(rest))}
        for i in (first, first + 1, first + 2):
            rest[i] += 1
    if counts[first] >= 2:
        rest[first] -= 2
        found |= {(pairs + 1, seq) for pairs, seq in _suit_readings(tuple(rest)) if pairs == 0}
    return frozenset(found)


# Readings as a 4-bit mask, so that combining parts is a table look-up: bit 2 * pairs + has_sequence
# is set when the part splits into sets and `pairs` pairs (0 or 1), with or without a sequence.
NO_PAIR, ONE_PAIR = 0b0011, 0b1100


def _mask(readings: Iterable[tuple[int, bool]]) -> int:
    mask = 0
    for pairs, seq in readings:
        mask |= 1 << (2 * pairs + seq)
    return mask


def _bits(mask: int) -> list[tuple[int, bool]]:
    return [(bit // 2, bool(bit % 2)) for bit in range(4) if mask >> bit & 1]


# _JOIN[16 * a + b]: the readings of two parts together, at most one pair in all.
_JOIN = tuple(
    _mask({(p1 + p2, s1 or s2) for p1, s1 in _bits(a) for p2, s2 in _bits(b) if p1 + p2 <= 1})
    for a in range(16) for b in range(16)
)


@lru_cache(maxsize=CACHE_SIZE)
def _block(block: bytes | tuple[int, ...]) -> tuple[int, int]:
    """(readings mask, kinds held an odd number of times) of a run of ranks with no gap."""
    return _mask(_suit_readings(tuple(block))), sum(c % 2 for c in block)


@lru_cache(maxsize=CACHE_SIZE)
def _suit_shape(counts: tuple[int, ...]) -> tuple[int, int]:
    """(readings mask, odd kinds) of one suit. Whole-hand questions need only three of these
    cached look-ups and two table look-ups, which is what makes them fast (bench/hands.py).

    A set never spans an empty rank, so a suit reads as the runs between its gaps; the runs
    recur far more often than whole suits, which keeps a first sight of a suit cheap too."""
    try:
        blocks = bytes(counts).split(b"\0")
    except ValueError:  # a count over 255: hostile input, which validation rejects anyway
        blocks = [counts]
    mask, odd = 1, 0  # the empty suit: no pair, no sequence
    for block in blocks:
        if block:
            block_mask, block_odd = _block(block)
            mask = _JOIN[16 * mask + block_mask]
            odd += block_odd
    return mask, odd


@lru_cache(maxsize=CACHE_SIZE)
def _suit_waits(counts: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The ranks (0–8) whose tile would leave this suit readable, each with the readings mask."""
    out = []
    for rank in range(9):
        if counts[rank] < 4 and any(counts[max(0, rank - 2):rank + 3]):
            mask = _suit_shape(counts[:rank] + (counts[rank] + 1,) + counts[rank + 1:])[0]
            if mask:
                out.append((rank, mask))
    return tuple(out)


def _suits(counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return counts[0:9], counts[9:18], counts[18:27]


def _standard_readings(counts: tuple[int, ...]) -> set[bool]:
    """For sets + exactly one pair: the has-a-sequence flags of all readings (empty if none)."""
    m, p, s = (_suit_shape(suit)[0] for suit in _suits(counts))
    return {seq for _, seq in _bits(_JOIN[16 * _JOIN[16 * m + p] + s] & ONE_PAIR)}


def _standard_pattern(has_sequence: bool, one_suit: bool) -> str:
    if has_sequence:
        return "qing_yi_se" if one_suit else "ping_hu"
    return "qing_da_dui" if one_suit else "da_dui_zi"


def _seven_pairs_pattern(dragon: bool, one_suit: bool) -> str:
    if dragon:
        return "qing_long_qi_dui" if one_suit else "long_qi_dui"
    return "qing_qi_dui" if one_suit else "xiao_qi_dui"


MULTI_DRAGON = {2: "shuang_long_qi_dui", 3: "san_long_qi_dui"}  # 多龙七对 (R61), by fours of a kind


def _house_patterns(melds: int, dragons: int, one_suit: bool, seven_pairs: bool) -> set[str]:
    """The house-rule patterns (R60, R61) a complete hand can also be read as: 单钓 when all four
    sets are melds (the concealed pair was the wait), 双龙/三龙七对 for seven pairs with two or three
    fours of a kind. Whether they score is the rules' business (`RuleSet.hand_patterns`)."""
    found = set()
    if melds == 4:
        found.add("dan_diao")
        if one_suit:
            found.add("qing_dan_diao")
    if seven_pairs and dragons in MULTI_DRAGON:
        found.add(("qing_" if one_suit else "") + MULTI_DRAGON[dragons])
    return found


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


def patterns_of(hand: Hand) -> set[str]:
    """Every pattern a 14-tile hand can be read as (R6, R7); empty when it is not complete."""
    if hand.size != 14:
        return set()
    one_suit = hand.one_suit()
    found = {_standard_pattern(seq, one_suit) for seq in _standard_readings(hand.concealed)}
    seven_pairs = not hand.meld_kinds and all(c % 2 == 0 for c in hand.concealed)
    if seven_pairs:
        found.add(_seven_pairs_pattern(4 in hand.concealed, one_suit))
    if found:
        found |= _house_patterns(len(hand.meld_kinds), hand.concealed.count(4), one_suit, seven_pairs)
    return found


# The suit shapes (counts 0–4) that are up to four sets, or up to four sets and one pair: 21,743 of
# them, the whole closed set, so `is_complete` looks suits up here and never decomposes one, and a
# suit seen for the first time costs what a familiar one does. Not a cache: it holds the same
# whatever hands have been seen. Built on first use (about 13 ms and 3.3 MiB, bench/hands.py) rather
# than at import, since the app itself asks only `best_reading` and `waits_of`.
_COMPLETE_SUITS: frozenset[tuple[int, ...]] = frozenset()


def _complete_suits() -> frozenset[tuple[int, ...]]:
    global _COMPLETE_SUITS

    def one_more_set(shape: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
        for r in range(9):  # a triplet or a sequence from rank r, wherever no count goes over four
            if shape[r] <= 1:
                yield shape[:r] + (shape[r] + 3,) + shape[r + 1:]
            if r < 7 and 4 not in shape[r:r + 3]:
                yield shape[:r] + (shape[r] + 1, shape[r + 1] + 1, shape[r + 2] + 1) + shape[r + 3:]

    level = {(0,) * 9}
    sets_only = set(level)
    for _ in range(4):
        level = {new for shape in level for new in one_more_set(shape)}
        sets_only |= level
    with_pair = {
        shape[:r] + (shape[r] + 2,) + shape[r + 1:] for shape in sets_only for r in range(9) if shape[r] <= 2
    }
    # Two threads may both build it on their first call: each gets the same table.
    _COMPLETE_SUITS = frozenset(sets_only | with_pair)
    return _COMPLETE_SUITS


_PAIR_COUNTS, _REAL_COUNTS = frozenset((0, 2, 4)), frozenset(range(5))


def is_complete(hand: Hand) -> bool:
    """Whether a 14-tile hand is 胡 in some pattern: `patterns_of` without naming them."""
    if hand.size != 14:
        return False
    counts = hand.concealed
    table = _COMPLETE_SUITS or _complete_suits()
    # Each suit is sets (a multiple of three tiles) or sets and a pair (two more), and the
    # concealed tiles number 14 less three a meld, so exactly one suit holds the pair.
    if counts[0:9] in table and counts[9:18] in table and counts[18:27] in table:
        return True
    if not hand.meld_kinds and _PAIR_COUNTS.issuperset(counts):
        return True  # seven pairs, a four of a kind counting as two (R6)
    # The table stops at four of a kind, which is all a real hand holds; a hand with more (which
    # validation rejects) gets the answer the suit readings always gave it.
    return not _REAL_COUNTS.issuperset(counts) and bool(patterns_of(hand))


@dataclass(frozen=True, slots=True)
class Reading:
    """The best pattern (牌型) of a complete hand and its points."""

    pattern: str
    value: int


def best_reading(hand: Hand, patterns: Mapping[str, int]) -> Reading | None:
    """The single best pattern a complete hand can be read as; patterns never add up (R7).
    Only the patterns `patterns` gives a value count (a house rule's, R60/R61, only where played)."""
    found = [key for key in patterns_of(hand) if key in patterns]
    if not found:
        return None
    best = max(found, key=lambda key: (patterns[key], PATTERN_RANK[key]))
    return Reading(best, patterns[best])


@dataclass(frozen=True, slots=True)
class Wait:
    tile: Tile
    pattern: str
    value: int


def waits_of(hand: Hand, patterns: Mapping[str, int]) -> list[Wait]:
    """有叫/听牌 (R8): the kinds that complete a 13-tile hand, best pattern each.

    A wait on a kind the seat already holds four of (concealed and melds) does not count.
    The new tile lands in one suit, so the other two must already be readable as they are: each
    suit's waits come from a per-suit table, and most hands are turned away after three look-ups.
    """
    if hand.size != 13:
        return []
    counts = hand.concealed
    suits = _suits(counts)
    shapes = [_suit_shape(suit) for suit in suits]
    masks = [mask for mask, _ in shapes]
    found: dict[int, set[str]] = {}
    held_suits = {i for i, suit in enumerate(suits) if any(suit)} | {k // 9 for k in hand.meld_kinds}
    for i, (j, k) in enumerate(((1, 2), (0, 2), (0, 1))):
        rest = _JOIN[16 * masks[j] + masks[k]]
        if not rest:
            continue
        one_suit = held_suits <= {i}
        for rank, mask in _suit_waits(suits[i]):
            for _, seq in _bits(_JOIN[16 * rest + mask] & ONE_PAIR):
                found.setdefault(9 * i + rank, set()).add(_standard_pattern(seq, one_suit))
    if not hand.meld_kinds and sum(odd for _, odd in shapes) == 1:
        kind = next(k for k, c in enumerate(counts) if c % 2)
        dragons = counts.count(4) + (counts[kind] == 3)
        one_suit = len(held_suits) == 1
        found.setdefault(kind, set()).update(
            {_seven_pairs_pattern(dragons > 0, one_suit), *_house_patterns(0, dragons, one_suit, True)})
    if len(hand.meld_kinds) == 4:  # 单钓 (R60): the one concealed tile waits on its pair
        for kind in found:
            found[kind] |= _house_patterns(4, 0, len(held_suits) == 1, False)
    waits: list[Wait] = []
    for kind in sorted(found):
        if hand.held(kind) >= 4:
            continue
        best = max((key for key in found[kind] if key in patterns), key=lambda key: (patterns[key], PATTERN_RANK[key]))
        waits.append(Wait(ALL_KINDS[kind], best, patterns[best]))
    return waits
