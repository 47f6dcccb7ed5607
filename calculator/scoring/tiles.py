"""牌: the 108 tiles and the short notation (R1, R2).

A tile kind is an index 0…26: 万 (m) 0–8, 筒 (p) 9–17, 条 (s) 18–26. Hands are analysed as
count vectors over these 27 kinds, which keeps hand analysis small and fast; `Tile` gives the
index a readable face for everything else.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SUITS = "mps"
SUIT_HANZI = {"m": "万", "p": "筒", "s": "条"}
KINDS = 27


class TileSyntaxError(ValueError):
    """The text is not tile notation; `text` is the offending fragment."""

    def __init__(self, text: str):
        super().__init__(f"not tile notation: {text!r}")
        self.text = text


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One tile kind: a suit letter (m 万, p 筒, s 条) and a rank 1–9."""

    index: int

    # The generated hash and == build tuples on every call; tiles are hashed and compared
    # constantly (Counter, set membership, `== YAOJI`) while a round is scored.
    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self.index == other.index if isinstance(other, Tile) else NotImplemented

    @classmethod
    def of(cls, rank: int, suit: str) -> Tile:
        return ALL_KINDS[SUITS.index(suit) * 9 + rank - 1]

    @property
    def suit(self) -> str:
        return SUITS[self.index // 9]

    @property
    def rank(self) -> int:
        return self.index % 9 + 1

    @property
    def hanzi(self) -> str:
        """The spoken name, e.g. 9筒."""
        return f"{self.rank}{SUIT_HANZI[self.suit]}"

    def shifted(self, step: int) -> Tile:
        """The kind `step` ranks away in the same suit, wrapping 9 → 1 and 1 → 9 (R19)."""
        base = self.index - self.index % 9
        return ALL_KINDS[base + (self.index % 9 + step) % 9]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


# One shared instance per kind: parsing and lookups hand these out instead of building new ones.
ALL_KINDS = tuple(Tile(i) for i in range(KINDS))
_RANKS = {str(rank): rank - 1 for rank in range(1, 10)}
_SUIT_TILES = {suit: ALL_KINDS[9 * i:9 * i + 9] for i, suit in enumerate(SUITS)}

YAOJI = Tile.of(1, "s")  # 幺鸡, the fixed chicken (R21)
WU_GU_JI = Tile.of(8, "p")  # 乌骨鸡 (R44): 8筒, a fixed chicken where `wu_gu_ji` gives it a worth


def parse_tiles(text: str) -> list[Tile]:
    """Read notation such as ``123m55p`` or ``1m 2m`` (R2). Raises `TileSyntaxError`."""
    tiles: list[Tile] = []
    ranks: list[int] = []
    for char in text:
        if char.isspace():
            continue
        if char in _RANKS:
            ranks.append(_RANKS[char])
        elif char in _SUIT_TILES and ranks:
            tiles.extend(map(_SUIT_TILES[char].__getitem__, ranks))
            ranks = []
        else:
            raise TileSyntaxError(char)
    if ranks:
        raise TileSyntaxError("".join(str(rank + 1) for rank in ranks))
    return tiles


def parse_tile(text: str) -> Tile:
    """Read exactly one tile, e.g. ``4s``."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileSyntaxError(text)
    return tiles[0]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Sorted compact notation: [1m, 2m, 5p, 5p] → ``12m55p``."""
    out: list[str] = []
    by_suit: dict[str, list[int]] = {suit: [] for suit in SUITS}
    for tile in sorted(tiles):
        by_suit[tile.suit].append(tile.rank)
    for suit in SUITS:
        if by_suit[suit]:
            out.append("".join(map(str, by_suit[suit])) + suit)
    return "".join(out)
