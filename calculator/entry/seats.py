"""One seat of the round-entry form: its forms, the slots where its problems show, and its
preview while the round is typed in (also the htmx preview): the tiles as chips, the tile count
and where the hand stands (胡了 / 有叫 / 没叫, pattern, waits).

The preview reads the seat's forms as they are, valid or not: the page answers every keystroke,
and a half-typed hand still has a count and a standing.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from .forms import MELD_CHOICES, TILE_CHOICES, SeatForm, clean_notation, one_tile
from ..presentation import Standing, TileChip, hand_standing, tile_chips, tile_name
from ..scoring import SEAT_NAMES, RuleSet, Tile, TileSyntaxError, parse_tile, parse_tiles


@dataclass
class Slot:
    """A place on the page where problems show, and the messages for it."""

    dom_id: str
    messages: list[str] = field(default_factory=list)


@dataclass
class SeatEntry:
    """One seat's forms and where its problems go. Templates iterate `entry.seat_cards`.

"""

    index: int
    name: str
    prefix: str  # of the seat's field names, e.g. "seat0"
    form: SeatForm
    melds: Any  # MeldFormSet
    hand_slot: Slot  # shown inside the seat's preview, under its tiles
    meld_slot: Slot
    extra_slot: Slot
    preview: SeatPreview | None = None

    @property
    def slots(self) -> tuple[Slot, Slot, Slot]:
        return self.hand_slot, self.meld_slot, self.extra_slot

    @property
    def wind(self) -> str:
        return SEAT_NAMES[self.index]

    def value(self, name: str) -> Any:
        """What the seat's field `name` holds: bound data, else its initial value."""
        return self.form[name].value()

    def meld_values(self) -> list[tuple[Any, Any]]:
        """Each meld row's (kind, tile) as they are, valid or not."""
        return [(form["kind"].value(), one_tile(form["tile"].value())) for form in self.melds.forms]

    @property
    def meld_summary(self) -> str:
        """The melds as entered, e.g. "闷豆 9筒 · 碰 1条", for the collapsed meld list."""
        labels = dict(MELD_CHOICES)
        tiles = {code: name for _suit, group in TILE_CHOICES for code, name in group}
        parts = [f"{labels[kind]} {tiles[tile]}" for kind, tile in self.meld_values()
                 if kind in labels and kind and tile in tiles]
        return " · ".join(parts)

    @property
    def has_melds(self) -> bool:
        return bool(self.meld_summary)


@dataclass
class SeatPreview:
    """What the page says about one seat while it is entered (also the htmx preview)."""

    seat: int
    name: str
    dom_id: str
    input_id: str  # the concealed-tiles input the tile keyboard writes to
    problems_id: str
    chips: list[TileChip]
    discard_chips: list[TileChip]
    tiles: int | None  # None while the notation does not parse
    expected: int
    standing: Standing
    problems: list[str]  # the hand's own problems, shown under it
    has_problems: bool  # anywhere on this seat's card
    mei_jiao: bool = False  # 没叫（没亮牌）: no concealed tiles to count
    win_tile: str = ""  # a winner's 胡的那张 ("4s"), said under his hand: a tap on a chip sets it (issue 19)

    @property
    def count_text(self) -> str:
        if self.mei_jiao:
            return "—"
        return f"{'?' if self.tiles is None else self.tiles}/{self.expected}"

    @property
    def count_ok(self) -> bool:
        return self.mei_jiao or self.tiles == self.expected


def seat_preview(seat: SeatEntry, *, dom_id: str, rules: RuleSet, is_winner: bool,
                 live: bool, lenient: bool | None = None, win_tile: str = "", undecided: bool = False) -> SeatPreview:
    """The preview of `seat` as its forms stand.

    `lenient` (default: `live`): the page is still being typed in, so a hand not finished yet
    is no error: a seat with no tiles yet is "待输入", and a hand that is merely short shows its
    count ("9/14", 还差 5 张) without the red problem, which the submit still reports. `live`:
    the htmx preview, whose chips are left to the page, which draws them as the tiles are typed."""
    lenient = live if lenient is None else lenient
    mei_jiao = bool(seat.value("mei_jiao"))
    concealed = [] if mei_jiao else _tiles_or_none(clean_notation(seat.value("concealed") or ""))
    discards = _tiles_or_none(clean_notation(seat.value("discards") or "")) or []
    melds = _meld_tiles(seat)
    problems = list(seat.hand_slot.messages)
    declared = seat.value("declared") or None
    standing = hand_standing(concealed or [], melds, winner=is_winner, rules=rules,
                             declared=declared if declared in ("hard", "soft") else None,
                             xiang_gong=bool(seat.value("xiang_gong")), mei_jiao=mei_jiao)
    if lenient and (standing.status == "empty" or (standing.status == "short" and concealed is not None)):
        problems = []  # not entered yet, or still being tapped in: no red ink while the table is typed in
    if concealed is None:
        standing = Standing("syntax", gettext("写法不对"))
    tiles = None if concealed is None else len(concealed) + 3 * len(melds)
    # 14 tiles while nobody is said to have won yet (`undecided`): a winner's hand, most likely, not
    # one tile too many: counted as 14/14 and asked, until 谁胡了 is answered.
    maybe_won = lenient and undecided and not is_winner and tiles == 14 and standing.status == "long"
    if maybe_won:
        standing, problems = Standing("maybe_won", gettext("14 张：胡了吗？选一下谁胡了")), []
    if live:  # five of a tile in one seat is wrong however far the typing is: said on its card at once
        problems += _over_four(concealed or [], melds, discards)
    return SeatPreview(
        seat=seat.index, name=seat.name, dom_id=dom_id,
        input_id=f"id_{seat.prefix}-concealed", problems_id=seat.hand_slot.dom_id,
        chips=[] if live else tile_chips(concealed or []),  # live, the page draws them itself (tiles.js)
        discard_chips=[] if live else tile_chips(discards), tiles=tiles,
        expected=14 if is_winner or maybe_won else 13, standing=standing, problems=problems,
        has_problems=bool(problems or seat.meld_slot.messages or seat.extra_slot.messages),
        mei_jiao=mei_jiao, win_tile=win_tile if is_winner else "",
    )


def _over_four(concealed: list[Tile], melds: list[tuple[Tile, int]], discards: list[Tile]) -> list[str]:
    """"1万 有 5 张…" for each tile this one seat holds, melds and discards more than four of (the
    whole round's count is checked with the round: a tile can be short of five in each seat)."""
    counts = Counter(concealed) + Counter(discards)
    for tile, size in melds:
        counts[tile] += size
    return [gettext("{tile} 有 {count} 张：一副牌每种只有四张。").format(tile=tile_name(tile), count=n)
            for tile, n in sorted(counts.items()) if n > 4]


def _tiles_or_none(text: str) -> list[Tile] | None:
    try:
        return parse_tiles(text)
    except TileSyntaxError:
        return None


def _meld_tiles(seat: SeatEntry) -> list[tuple[Tile, int]]:
    """The melds entered so far, each as (tile, 3 for 碰 or 4 for a 豆), valid or not."""
    melds = []
    for kind, tile in seat.meld_values():
        if kind in ("pong", "men", "zhuanwan", "dian") and tile:
            try:
                melds.append((parse_tile(tile), 3 if kind == "pong" else 4))
            except TileSyntaxError:
                continue
    return melds
