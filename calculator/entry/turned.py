"""改翻牌 carries the chickens along (issue 19): when a correction changes the turned tile, the
tiles in a seat's 打出的鸡 that were 翻牌鸡 under the old tile and are no chickens under the new
one leave the box, and the page says so in a line per seat. Nothing is refused: the table fixes
the one thing that was wrong, and the chickens follow it."""
from __future__ import annotations

import dataclasses
import re

from django.http import QueryDict
from django.utils.translation import gettext

from ..presentation import tile_name
from ..scoring import parse_tile, parse_tiles
from ..scoring.chickens import chicken_kinds
from ..scoring.record import RoundRecord
from ..scoring.tiles import TileSyntaxError, format_tiles
from .forms import clean_notation

_TILE = re.compile(r"^[1-9][mps]$")
_DISCARDS = re.compile(r"^seat(?P<seat>[0-3])-discards$")


def carry_chickens(data: QueryDict, before: RoundRecord, names: list[str]) -> tuple[QueryDict, list[str]]:
    """`data` (a correction's POST) with the chickens the new 翻牌 no longer makes taken out of
    every seat's 打出的鸡, and a line per seat saying what left; `data` itself when the turned
    tile did not change (or is not a tile yet)."""
    turned = (data.get("turned") or "").strip()
    if not _TILE.match(turned) or before.turned is None or parse_tile(turned) == before.turned:
        return data, []
    old = {tile for tile, _kind, _gold in chicken_kinds(before)}
    new = {tile for tile, _kind, _gold in chicken_kinds(dataclasses.replace(before, turned=parse_tile(turned)))}
    gone = old - new
    if not gone:
        return data, []
    fixed, lines = data.copy(), []
    for name in data:
        match = _DISCARDS.match(name)
        if not match:
            continue
        try:
            tiles = parse_tiles(clean_notation(data.get(name) or ""))
        except TileSyntaxError:
            continue  # the form says what is wrong with it
        kept = [tile for tile in tiles if tile not in gone]
        if len(kept) == len(tiles):
            continue
        fixed[name] = format_tiles(kept)
        seat = int(match["seat"])
        left = "、".join(tile_name(tile) for tile in tiles if tile in gone)
        lines.append(gettext("{name} 打出的鸡里的 {tiles} 翻牌改了以后不是鸡了，拿掉了。").format(
            name=names[seat] if seat < len(names) else "?", tiles=left))
    return fixed, lines
