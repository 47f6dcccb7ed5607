"""改了什么: what a correction changed in a round record (R42), field by field, in the table's words.

The history and a correction's confirm page show the round's one-line summary before and after.
When only the turned tile, a seat's chicken discards, its 报听 or a switch (相公, 开局跟 …)
changed, the two summaries read the same and the nets alone say that something did; these lines
say what.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from .words import DECLARED_CHOICES, MELD_CHOICES
# The record switches (相公, 没叫, 开局跟 …) are the round form's fields: a correction says one by
# the label the form gives it, so a new switch reads in the history without a line here.
from ..entry.forms import RoundForm, SeatForm
from .settlement import chinese_page, tile_name
from ..scoring import parse_tile, parse_tiles
from ..scoring.tiles import SUIT_HANZI


def record_changes(before: Mapping[str, Any], after: Mapping[str, Any], names: list[str]) -> list[str]:
    """One line per field that differs, e.g. "翻牌：5条 → 6条", "南 打出的鸡：无 → 1条"; the
    outcome is left to the summaries, which say who won, how and from whom."""
    lines: list[str] = []

    def compare(what: str, old: str, new: str) -> None:
        if old != new:
            lines.append(_("{what}：{before} → {after}").format(what=what, before=old or _("无"), after=new or _("无")))

    compare(_("庄家"), _name(names, before.get("dealer")), _name(names, after.get("dealer")))
    compare(_("翻牌"), _tile(before.get("turned")), _tile(after.get("turned")))
    compare(_("第一张幺鸡"), _first_yaoji(before, names), _first_yaoji(after, names))
    compare(_("第一张 8筒"), _first_yaoji(before, names, "first_wu_gu_ji"), _first_yaoji(after, names, "first_wu_gu_ji"))
    for switch in RoundForm.record_switches:
        compare(_label(RoundForm, switch), _yes(before.get(switch)), _yes(after.get(switch)))
    for seat, (old, new) in enumerate(zip(before.get("seats") or [], after.get("seats") or [])):
        name = _name(names, seat)
        compare(_("{name} 的手牌").format(name=name), _tiles(old.get("concealed")), _tiles(new.get("concealed")))
        compare(_("{name} 的碰杠").format(name=name), _melds(old, names), _melds(new, names))
        compare(_("{name} 打出的鸡").format(name=name), _tiles(old.get("discards")), _tiles(new.get("discards")))
        compare(_("{name} 报听").format(name=name), _declared(old), _declared(new))
        for switch in SeatForm.record_switches:
            compare(_("{name} {what}").format(name=name, what=_label(SeatForm, switch)),
                    _yes(old.get(switch)), _yes(new.get(switch)))
    return lines


def _label(form_class, switch: str) -> str:
    """A record switch said as its form field is labelled (相公, 没叫（没亮牌）, 开局跟)."""
    return str(form_class.base_fields[switch].label)


def _yes(value: Any) -> str:
    """A switch read as the table says it: 是 or 否 (a switch absent from a record is off)."""
    return _("是") if value else _("否")


def _name(names: list[str], seat: int | None) -> str:
    return "" if seat is None else names[seat]  # a stored record's seats are the evening's


def _tile(code: str | None) -> str:
    return tile_name(parse_tile(code)) if code else ""


def _tiles(notation: str | None) -> str:
    """123万 45筒 in Chinese (the table's way of saying a hand), the notation itself in English."""
    if not notation:
        return ""
    if not chinese_page():
        return notation
    tiles = sorted(parse_tiles(notation))
    return " ".join("".join(str(t.rank) for t in tiles if t.suit == suit) + SUIT_HANZI[suit]
                    for suit in "mps" if any(t.suit == suit for t in tiles))


def _melds(seat: Mapping[str, Any], names: list[str]) -> str:
    labels = dict(MELD_CHOICES)
    parts = []
    for meld in seat.get("melds") or []:
        kind = "pong" if meld.get("type") == "pong" else meld.get("kind")
        text = f"{labels.get(kind, kind)} {_tile(meld.get('tile'))}"
        if meld.get("from") is not None:
            text += _("（{name}）").format(name=_name(names, meld["from"]))
        parts.append(text)
    return _("、").join(parts)


def _declared(seat: Mapping[str, Any]) -> str:
    return str(dict(DECLARED_CHOICES)[seat["declared"]]) if seat.get("declared") else ""


def _first_yaoji(record: Mapping[str, Any], names: list[str], field: str = "first_yaoji") -> str:
    first = record.get(field)
    if not first:
        return ""
    if first.get("claimed_by") is None:
        return _("{name} 打出，没人碰杠").format(name=_name(names, first.get("seat")))
    return _("{name} 打出，{claimer} 碰杠").format(name=_name(names, first.get("seat")),
                                               claimer=_name(names, first["claimed_by"]))
