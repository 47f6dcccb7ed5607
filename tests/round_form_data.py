"""Turn a round record (RULES §3) into the POST data the round-entry form sends.

Shared by the form, view and browser tests and by the evening ledger's tests:

    data = record_to_post_data(load_example("E1"))            # the standalone /round/ page
    data = record_to_post_data(record, prefix="round")        # a RoundEntry(prefix="round")

Name, preset, options and stake fields are always included; a RoundEntry whose evening fixed
them simply ignores them.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"
EXAMPLE_NAMES = [f"E{n}" for n in range(1, 9)]
MAX_MELDS = 4


def load_example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def expected(name: str) -> dict:
    return json.loads((EXAMPLES / "expected.json").read_text(encoding="utf-8"))[name]


def _blank(value: Any) -> str:
    return "" if value is None else str(value)


def _result(outcome: dict) -> str:
    if outcome.get("type") == "draw":
        return "draw"
    return "self_draw" if outcome.get("from") is None else "discard"


def record_to_post_data(record: dict, prefix: str | None = None) -> dict[str, Any]:
    """The form data for `record`; multi-valued fields (winners) are lists, as the test client takes."""

    def key(name: str) -> str:
        return f"{prefix}-{name}" if prefix else name

    outcome = record.get("outcome") or {"type": "draw"}
    winners = outcome.get("winners") or []
    first = record.get("first_yaoji") or {}
    first_wu = record.get("first_wu_gu_ji") or {}
    data: dict[str, Any] = {
        "players": str(len(record["seats"])),
        key("preset"): record.get("preset", "guiyang"),
        key("stake"): str(record.get("stake", "1")),
        key("dealer"): str(record.get("dealer", 0)),
        key("turned"): _blank(record.get("turned")),
        key("first_yaoji_seat"): _blank(first.get("seat")),
        key("first_yaoji_claimed_by"): _blank(first.get("claimed_by")),
        key("first_wu_gu_ji_seat"): _blank(first_wu.get("seat")),
        key("first_wu_gu_ji_claimed_by"): _blank(first_wu.get("claimed_by")),
        key("result"): _result(outcome),
        key("winners"): [str(w["seat"]) for w in winners],
        key("win_tile"): winners[0]["tile"] if winners else "",
        key("from_seat"): _blank(outcome.get("from")),
        key("hot_kong"): _blank(outcome.get("hot_kong")),
    }
    if (record.get("options") or {}).get("jian_dou_san"):
        data[key("jian_dou_san")] = "on"
    for flag in ("robbed", "after_kong", "first_draw"):
        if outcome.get(flag):
            data[key(flag)] = "on"
    if record.get("kai_ju_gen"):
        data[key("kai_ju_gen")] = "on"
    if any(w.get("passed_before") for w in winners):
        data[key("passed_before")] = "on"
    for index, seat in enumerate(record["seats"]):
        seat_key = key(f"seat{index}")
        data[f"{seat_key}-name"] = seat.get("name", "")
        data[f"{seat_key}-concealed"] = seat.get("concealed", "")
        data[f"{seat_key}-discards"] = seat.get("discards", "")
        data[f"{seat_key}-declared"] = seat.get("declared") or ""
        if seat.get("xiang_gong"):
            data[f"{seat_key}-xiang_gong"] = "on"
        if seat.get("mei_jiao"):
            data[f"{seat_key}-mei_jiao"] = "on"
        melds = seat.get("melds") or []
        meld_key = f"{seat_key}-melds"
        data.update({
            f"{meld_key}-TOTAL_FORMS": str(MAX_MELDS),
            f"{meld_key}-INITIAL_FORMS": "0",
            f"{meld_key}-MIN_NUM_FORMS": "0",
            f"{meld_key}-MAX_NUM_FORMS": str(MAX_MELDS),
        })
        for row in range(MAX_MELDS):
            meld = melds[row] if row < len(melds) else {}
            kind = meld.get("kind") if meld.get("type") == "kong" else meld.get("type")
            data[f"{meld_key}-{row}-kind"] = kind or ""
            data[f"{meld_key}-{row}-tile"] = meld.get("tile", "")
            data[f"{meld_key}-{row}-from_seat"] = _blank(meld.get("from"))
            if meld.get("late"):
                data[f"{meld_key}-{row}-late"] = "on"
    return data
