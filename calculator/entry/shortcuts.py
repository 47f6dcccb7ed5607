"""One-tap answers the round form can offer from what the table has already entered (issue 19,
point 4; issue 22: the 热炮 choice moved from tiles.js to the server).

The round-ending phone asks the special cases last: 热炮 (the discarder had just made a kong),
抢杠 (the winning tile was the one a seat was adding to its 碰) and who took the first 幺鸡.
Each is usually written on the table already, in a seat's melds: the discarder's kongs, a 碰 of
the winning tile, a 幺鸡 碰 and whose discard it was. The page shows those as buttons that set
the form's own fields (`_entry_shortcuts.html`, tiles.js `setFields`), so the fields stay the
record and the path without JavaScript, and a shortcut is only ever a question the player
answers with one tap, never a value the server fills in behind the table's back.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.utils.translation import gettext

from ..scoring import parse_tile
from .forms import TILE_CODES, one_tile

KONGS = ("men", "zhuanwan", "dian")


@dataclass(frozen=True)
class Meld:
    kind: str
    tile: str
    from_seat: int | None


@dataclass(frozen=True)
class Button:
    """One answer: its name for tests (`data-shortcut`), the fields it sets as JSON (full field
    names, prefix and all), whether it is what the form says now, its words or tile."""

    name: str
    fields: str
    pressed: bool
    words: str = ""
    tile: str = ""


@dataclass
class Shortcuts:
    """What the outcome card offers as one tap: `hot_kong`, 不是热炮 and the discarder's kongs
    (热炮); `robbed`, one button per seat whose 碰 / 转弯豆 of the winning tile could have been
    robbed (抢杠, with 谁点的炮 set to it); `yaoji`, the one 幺鸡 taken by a 碰 or 杠 while the
    first 幺鸡's rows are not yet answered."""

    hot_kong: list[Button] = field(default_factory=list)
    robbed: list[Button] = field(default_factory=list)
    yaoji: Button | None = None


def _seat(value) -> int | None:
    """A seat number as a field holds it, or None: a hand-made post may send anything there (a
    5,000-digit "seat" is more than int() takes)."""
    text = str(value if value is not None else "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) == 1 else None


def _melds(seat) -> list[Meld]:
    """A seat's filled meld rows as the page holds them (bound or initial), whatever else is wrong."""
    out = []
    for form in seat.melds.forms:
        kind, tile = str(form["kind"].value() or ""), one_tile(form["tile"].value())
        if kind and tile in TILE_CODES:
            out.append(Meld(kind, tile, _seat(form["from_seat"].value())))
    return out


def shortcuts(entry) -> Shortcuts:
    """The shortcuts of a `RoundEntry`, from its fields' current values."""
    value, names = entry._value, entry.names

    def sets(**fields) -> str:
        return json.dumps({entry._key(name): v for name, v in fields.items()})

    melds = [_melds(seat) for seat in entry.seats]
    found = Shortcuts()
    if value("result") == "discard":
        source = _seat(value("from_seat"))
        kongs = [m.tile for m in melds[source] if m.kind in KONGS] if source is not None and source < len(melds) else []
        if kongs:
            hot = str(value("hot_kong") or "")
            found.hot_kong = [Button("hot_kong-", sets(hot_kong=""), not hot, gettext("不是热炮")), *(
                Button(f"hot_kong-{tile}", sets(hot_kong=tile), hot == tile, tile=tile) for tile in kongs)]
        win_tile = str(value("win_tile") or "")
        winners = {_seat(w) for w in (value("winners") or [])}
        if win_tile in TILE_CODES:
            words = gettext("抢杠：{name}补杠的 {tile} 被胡了")
            robbed = bool(value("robbed"))
            for i, own in enumerate(melds):
                if i in winners or not any(m.tile == win_tile and m.kind in ("pong", "zhuanwan") for m in own):
                    continue
                on = robbed and source == i
                found.robbed.append(Button(f"robbed-{i}", sets(robbed=False) if on else sets(from_seat=str(i), robbed=True),
                                           on, words.format(name=names[i], tile=parse_tile(win_tile).hanzi)))
    if _seat(value("first_yaoji_claimed_by")) is None:
        said = _seat(value("first_yaoji_seat"))
        claims = [(m.from_seat, i) for i, own in enumerate(melds) for m in own
                  if m.tile == "1s" and m.kind != "men" and m.from_seat is not None
                  and m.from_seat != i and said in (None, m.from_seat)]
        if len(claims) == 1:
            discarder, claimer = claims[0]
            found.yaoji = Button(f"yaoji-{discarder}-{claimer}",
                                 sets(first_yaoji_seat=str(discarder), first_yaoji_claimed_by=str(claimer)), False,
                                 gettext("{discarder}打的，{claimer}碰（杠）了").format(
                                     discarder=names[discarder], claimer=names[claimer]))
    return found


def winner_buttons(entry) -> list[Button]:
    """谁胡了 in the tile keyboard, asked when a phone's own hand is complete at 13 while nobody is
    said to have won: the seat's name sets `winners` as the outcome card's button does."""
    return [Button(f"winner-{i}", json.dumps({entry._key("winners"): str(i)}), False, name)
            for i, name in enumerate(entry.names)]
