"""记录 ↔ 表单: how the round-entry forms and the round record (RULES §3) map onto each other.

One way, a stored record pre-fills the forms (to correct a round): `round_initial`,
`seat_initial`, `melds_initial`. The other way, the cleaned forms build the record that scoring
checks: `seat_draft` per seat, then `round_record`. Plain functions of plain values: the forms
and where problems show are `entry.entry.RoundEntry`'s business.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from ..forms import option_value
from .forms import MAX_MELDS, ROUND_OPTIONS, TILE_CODES, RoundForm, SeatForm, clean_notation
from ..scoring import PRESETS, SEAT_NAMES, YAOJI, RuleSet, TableFacts, TileSyntaxError, format_tiles, parse_tiles
from ..scoring.tiles import WU_GU_JI

# RULES §3's own switch, written off as well as on; the project's additions (没叫, 开局跟, and any
# new record switch) only when on, so records from before them read, and digest, as they did.
WRITTEN_WHEN_OFF = frozenset({"xiang_gong"})

# -- record → form initial ---------------------------------------------------------------------


def round_initial(record: dict, dealer: int | None) -> dict:
    """The round form's initial values: `dealer` (else the record's, else east) and the rest of
    `record`, if any."""
    data: dict[str, Any] = {"dealer": dealer if dealer is not None else record.get("dealer", 0)}
    if not record:
        return data
    outcome = record.get("outcome") or {}
    winners = outcome.get("winners") or []
    first = record.get("first_yaoji") or {}
    first_wu = record.get("first_wu_gu_ji") or {}
    data.update({
        "preset": record.get("preset", "guiyang"),
        "stake": record.get("stake", "1"),
        "turned": record.get("turned") or "",
        "first_yaoji_seat": first.get("seat"),
        "first_yaoji_claimed_by": first.get("claimed_by"),
        "first_wu_gu_ji_seat": first_wu.get("seat"),
        "first_wu_gu_ji_claimed_by": first_wu.get("claimed_by"),
        "result": ("draw" if outcome.get("type") == "draw"
                   else "self_draw" if outcome.get("from") is None else "discard"),
        "winners": [w.get("seat") for w in winners],
        "win_tile": winners[0].get("tile", "") if winners else "",
        "from_seat": outcome.get("from"),
        "hot_kong": outcome.get("hot_kong") or "",
        "robbed": bool(outcome.get("robbed")),
        "after_kong": bool(outcome.get("after_kong")),
        "first_draw": bool(outcome.get("first_draw")),
        "passed_before": any(w.get("passed_before") for w in winners),
        **_switches_initial(RoundForm, record),
    })
    options, preset = record.get("options") or {}, PRESETS.get(data["preset"], PRESETS["guiyang"])
    for option in ROUND_OPTIONS:  # a switch starts as the preset has it; a number blank (the preset's)
        shown = getattr(preset, option.name)
        data[option.name] = options.get(option.name, shown if isinstance(shown, bool) else None)
    return data


def seat_initial(seat: dict, index: int, record: dict) -> dict:
    return {
        "name": seat.get("name", SEAT_NAMES[index]),
        "concealed": seat.get("concealed", ""),
        "discards": _typed_discards(seat.get("discards", ""), index, record),
        "declared": seat.get("declared") or "",
        **_switches_initial(SeatForm, seat),
    }


def _typed_discards(discards: str, index: int, record: dict) -> str:
    """A seat's 打出的鸡 as the form shows them: the first 幺鸡 (or 8筒) nobody claimed went there
    from the 第一张幺鸡 row (`_first_discarded`), so it stays in that row only, and a correction
    that moves the row moves the tile with it, rather than leaving a 幺鸡 the old seat never
    discarded. A second copy was typed by hand: then every copy stays where it was typed."""
    try:
        tiles = parse_tiles(discards)
    except TileSyntaxError:
        return discards
    firsts = [tile for key, tile in (("first_yaoji", YAOJI), ("first_wu_gu_ji", WU_GU_JI))
              if (record.get(key) or {}).get("seat") == index and (record.get(key) or {}).get("claimed_by") is None
              and tiles.count(tile) == 1]
    for tile in firsts:
        tiles.remove(tile)
    return format_tiles(tiles) if firsts else discards


def _switches_initial(form_class, record: dict) -> dict[str, bool]:
    return {name: bool(record.get(name)) for name in form_class.record_switches}


def _switches_record(form_class, data: dict) -> dict[str, bool]:
    """The form's record switches as the record writes them (see WRITTEN_WHEN_OFF), in the form's order."""
    return {name: bool(data.get(name)) for name in form_class.record_switches
            if data.get(name) or name in WRITTEN_WHEN_OFF}


def melds_initial(seat: dict) -> list[dict]:
    """One meld row's initial values per meld of the seat (the forms say 碰 or which 豆)."""
    return [
        {"kind": m.get("kind") if m.get("type") == "kong" else m.get("type"), "tile": m.get("tile"),
         "from_seat": m.get("from"), "late": bool(m.get("late"))}
        for m in (seat.get("melds") or [])[:MAX_MELDS]
    ]


# -- cleaned forms → record --------------------------------------------------------------------


@dataclass
class SeatDraft:
    """One seat of the record as the forms give it, before scoring has looked at it."""

    record: dict
    meld_rows: list[int] = field(default_factory=list)  # the form row of each meld in `record`
    problems: list[str] = field(default_factory=list)  # half-filled meld rows, the form's own


def seat_draft(name: str, data: dict, melds: Iterable[tuple[int, dict]]) -> SeatDraft:
    """A seat from its form's cleaned data and its meld rows' as (row, cleaned data), in row
    order; rows left blank may be left out."""
    draft = SeatDraft(record={})
    items = []
    for row, meld in melds:
        kind, tile = meld.get("kind"), meld.get("tile")
        if not kind and not tile:
            continue
        if tile and tile not in TILE_CODES:
            draft.problems.append(gettext("第 {n} 个副露：{what}").format(n=row + 1, what=gettext("“{typed}”不是一张牌，写一张，如 5p 或 5筒。").format(typed=tile)))
            continue
        if not kind or not tile:
            draft.problems.append(gettext("第 {n} 个副露：{what}").format(
                n=row + 1, what=gettext("选一下是哪张牌。") if kind else gettext("选一下是碰还是哪种豆。")))
            continue
        item: dict[str, Any] = {"type": "pong", "tile": tile} if kind == "pong" else {
            "type": "kong", "tile": tile, "kind": kind}
        if meld.get("from_seat") is not None and kind != "men":
            item["from"] = meld["from_seat"]
        if meld.get("late") and kind in ("men", "zhuanwan"):
            item["late"] = True
        items.append(item)
        draft.meld_rows.append(row)
    draft.record = {
        "name": name,
        # 没叫（没亮牌）: whatever was typed in the hand stays on the form but is not part of the round.
        "concealed": "" if data.get("mei_jiao") else clean_notation(data["concealed"]),
        "melds": items,
        "discards": clean_notation(data["discards"]),
        "declared": data["declared"] or None,
        **_switches_record(SeatForm, data),
    }
    return draft


def round_record(data: dict, seats: list[dict], *, rules: RuleSet | None, stake: Decimal | None,
                 facts: TableFacts | None = None) -> dict:
    """The RULES §3 record from the round form's cleaned data and the seats' records. `rules`
    and `stake`, when given, are the table's (an evening's) and win over the form's; `facts`,
    what the table knows of the round (连庄, 星期鸡), with them."""
    if rules is None:
        preset = data["preset"]
        options = {option.name: value for option in ROUND_OPTIONS
                   if (value := option_value(option, data)) is not None
                   and value != getattr(PRESETS[preset], option.name)}
    else:
        preset, options = rules.preset, rules.options()
    plays_xing_qi = rules.xing_qi_ji if rules is not None else options.get("xing_qi_ji", PRESETS[preset].xing_qi_ji)
    outcome = _outcome_record(data)
    _robbed_kong_as_pong(seats, outcome)
    for first, tile in (("first_yaoji", YAOJI), ("first_wu_gu_ji", WU_GU_JI)):  # R22, R70
        _first_discarded(seats, tile, data.get(f"{first}_seat"), data.get(f"{first}_claimed_by"))
    return {
        "preset": preset,
        "options": options,
        "stake": str(stake if stake is not None else data["stake"].strip()),
        "dealer": data["dealer"],
        "seats": seats,
        "turned": data["turned"] or None,
        "first_yaoji": ({"seat": data["first_yaoji_seat"], "claimed_by": data["first_yaoji_claimed_by"]}
                        if data["first_yaoji_seat"] is not None else None),
        "outcome": outcome,
        **_switches_record(RoundForm, data),  # 开局跟 (R63), …
        # 冲锋乌骨鸡 (R70): written only when entered, so other records read as before
        **({"first_wu_gu_ji": {"seat": data["first_wu_gu_ji_seat"], "claimed_by": data["first_wu_gu_ji_claimed_by"]}}
           if data.get("first_wu_gu_ji_seat") is not None else {}),
        # 星期鸡 (R64): the form knows only today; an evening, the day each round was played.
        **(facts.fields(data["dealer"], rules) if facts is not None and rules is not None
           else {"weekday": timezone.localdate().isoweekday()} if plays_xing_qi else {}),
    }


def _outcome_record(data: dict) -> dict:
    if data["result"] == "draw":
        return {"type": "draw"}
    discard = data["result"] == "discard"
    winners = []
    for seat in sorted(set(data["winners"])):
        winner: dict[str, Any] = {"seat": seat, "tile": data["win_tile"] or None}
        if discard and data["passed_before"]:
            winner["passed_before"] = True
        winners.append(winner)
    return {
        "type": "win",
        "from": data["from_seat"] if discard else None,
        "winners": winners,
        "after_kong": not discard and data["after_kong"],
        "hot_kong": (data["hot_kong"] or None) if discard else None,
        "robbed": discard and data["robbed"],
        **({"first_draw": True} if not discard and data["first_draw"] else {}),  # R62
    }


def _robbed_kong_as_pong(seats: list[dict], outcome: dict) -> None:
    """抢杠 (R14) entered the way the player says it: "he was adding a kong and I robbed it". A
    robbed seat (`from`) entered with the 转弯豆 of the winning tile is recorded with the pong it
    was before, as RULES §3 wants (the robbed tile is the winner's); a 碰 entered as such stays.
    RULE-DECISIONS 42."""
    source = outcome.get("from")
    if not outcome.get("robbed") or source is None or not 0 <= source < len(seats):
        return
    robbed = {w["tile"] for w in outcome["winners"] if w["tile"]}
    melds = seats[source]["melds"]
    pongs = {m["tile"] for m in melds if m["type"] == "pong"}
    for row, meld in enumerate(melds):
        if meld.get("kind") == "zhuanwan" and meld["tile"] in robbed and meld["tile"] not in pongs:
            melds[row] = {"type": "pong", "tile": meld["tile"], **({"from": meld["from"]} if "from" in meld else {})}
            pongs.add(meld["tile"])


def _first_discarded(seats: list[dict], tile, seat: int | None, claimed_by: int | None) -> None:
    """The first 幺鸡 (or, for 冲锋乌骨鸡, the first 8筒) nobody claimed lies in its discarder's
    打出的鸡 (RULES §3 `first_yaoji`, `first_wu_gu_ji`): the 第一张幺鸡 row already says so, so the
    table need not type it there again (typed, it is not doubled)."""
    if seat is None or claimed_by is not None or not 0 <= seat < len(seats):
        return
    try:
        discards = parse_tiles(seats[seat]["discards"])
    except TileSyntaxError:
        return  # not notation: that is the discards' own problem, said there
    if tile not in discards:
        seats[seat]["discards"] = format_tiles([*discards, tile])
