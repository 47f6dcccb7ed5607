"""录入中: which of the round form's fields a server-side draft holds, and how one reads in words.

A draft (`models.RoundDraft`) keeps the evening's round form as posted: field name → list of
values. Only the fields an evening's form draws are kept (not the names, rules and stake the
evening fixes, nor the CSRF token), each value cut to what the form accepts, so a hand-made
POST can store nothing else. `field_words` says a field and its value as the table reads them,
for "小李 也改了翻牌：6条".
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms.formsets import INITIAL_FORM_COUNT, MAX_NUM_FORM_COUNT, MIN_NUM_FORM_COUNT, TOTAL_FORM_COUNT
from django.http import QueryDict
from django.utils.translation import gettext

from ..presentation import tile_name
from ..scoring import TileSyntaxError, parse_tile, parse_tiles
from .entry import RoundEntry
from .forms import MAX_MELDS, MAX_NOTATION, MeldForm, RoundForm, SeatForm, clean_notation

_ROUND = "|".join(name for name in RoundForm.base_fields
                  if name not in RoundForm.fixed_fields(fixed_rules=True, fixed_stake=True))
_SEAT = "|".join(name for name in SeatForm.base_fields if name != "name")
_MELD = "|".join(MeldForm.base_fields)
FORMSET_COUNTS = (TOTAL_FORM_COUNT, INITIAL_FORM_COUNT, MIN_NUM_FORM_COUNT, MAX_NUM_FORM_COUNT)  # a meld formset's own
_MANAGEMENT = "|".join(FORMSET_COUNTS)
DRAFT_FIELD = re.compile(
    rf"^(?:(?P<round>{_ROUND})|seat(?P<seat>[0-3])-(?:(?P<own>{_SEAT})"
    rf"|melds-(?:(?P<management>{_MANAGEMENT})|(?P<row>[0-{MAX_MELDS - 1}])-(?P<meld>{_MELD}))))$"
)
MAX_VALUES = 4  # winners: at most three, as seats go


def draft_fields(data, names: list[str] | None = None) -> dict[str, list[str]]:
    """The draft fields of a POST (a QueryDict) as name → values; `names`: only these fields,
    absent ones (an unticked box) as an empty list."""
    keys = [k for k in (data.keys() if names is None else names) if DRAFT_FIELD.match(k)]
    # PostgreSQL's JSON holds no NUL (SQLite's does): no keyboard types one, so the draft keeps the
    # value without it, and the form still answers the POST itself with its 400.
    return {key: [str(v).replace("\x00", "")[:MAX_NOTATION] for v in data.getlist(key)[:MAX_VALUES]]
            for key in keys}


def is_switch(name: str) -> bool:
    """A draft field that is a checkbox: a whole form posts it only while ticked."""
    match = DRAFT_FIELD.match(name)
    if not match:
        return False
    form, field = ((RoundForm, match["round"]) if match["round"] else (SeatForm, match["own"]) if match["own"]
                   else (MeldForm, match["meld"]))
    return isinstance(form.base_fields.get(field or ""), forms.BooleanField)


def field_words(name: str, values: list[str], names: list[str]) -> tuple[str, str]:
    """(what the field is, its value) in the table's words: ("翻牌", "6条"), ("小李的手牌", "…")."""
    match = DRAFT_FIELD.match(name)
    if not match:
        return name, " ".join(values)
    seat = int(match["seat"]) if match["seat"] is not None else None
    who = names[seat] if seat is not None and seat < len(names) else ""
    if match["round"]:
        field = RoundForm.base_fields[name]
        label = str(field.label)
    elif match["own"]:
        field = SeatForm.base_fields[match["own"]]
        label = gettext("{name}的{field}").format(name=who, field=field.label)
    else:
        field = MeldForm.base_fields[match["meld"]] if match["meld"] else None
        label = gettext("{name}的碰杠").format(name=who)
    return label, _value_words(name, field, values, names)


def _value_words(name: str, field, values: list[str], names: list[str]) -> str:
    if isinstance(field, forms.BooleanField):
        return gettext("是") if values else gettext("不是")
    if not values or values == [""]:
        return gettext("空")
    if name.endswith(("concealed", "discards")):
        return clean_notation(values[0])
    if field is not None and (name in RoundForm.seat_fields or name.endswith("from_seat")):
        return "、".join(names[int(v)] if v.isdigit() and int(v) < len(names) else v for v in values)
    if name.endswith(("tile", "turned", "hot_kong")) or name == "win_tile":
        return "、".join(tile_name(parse_tile(v)) if re.fullmatch(r"[1-9][mps]", v) else v for v in values)
    choices = dict(getattr(field, "choices", ()) or ())
    return "、".join(str(choices.get(v, v)) for v in values)


def added_discards(name: str, old: list[str], new: list[str]) -> list[str]:
    """The tiles a write adds to a seat's 打出的鸡 ("1s6m" → "1s6m6m": ["6m"]); [] for any other
    field, or a value that is not notation."""
    if not name.endswith("-discards"):
        return []
    try:
        before, after = (Counter(map(str, parse_tiles(clean_notation(v[0] if v else "")))) for v in (old, new))
    except TileSyntaxError:
        return []
    return sorted((after - before).elements())


def draft_data(data: dict[str, Any]) -> QueryDict:
    """A draft's stored fields as the QueryDict a RoundEntry binds."""
    query = QueryDict(mutable=True)
    for key, values in data.items():
        query.setlist(key, list(values))
    return query


@dataclass(frozen=True)
class SeatProgress:
    """Where one seat's hand stands in a draft: "小李 ✓ 13/13 有叫", "阿梅 还差 4 张"."""

    seat: int
    name: str
    done: bool  # its tile count is right
    count: str  # 13/13
    standing: str  # 有叫, 还差 4 张, 待输入


def draft_progress(data: dict[str, Any], *, names: list[str], rules, stake) -> list[SeatProgress]:
    """Each seat's standing in a draft's data, read as the live preview reads the form."""
    entry = RoundEntry(draft_data(data), names=names, rules=rules, stake=stake, live=True)
    return [SeatProgress(seat=p.seat, name=p.name, done=p.count_ok, count=p.count_text, standing=str(p.standing.text))
            for p in entry.seat_previews]
