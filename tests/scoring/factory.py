"""A tiny factory for round records (RULES §3) written in short notation.

A seat is one string: its concealed tiles, then its melds as tokens::

    seat("234m567m345s11s M9p")          # 闷豆 of 9筒
    seat("222m55p P1s<2 D7s<3")          # 碰 of 幺鸡 from seat 2, 点豆 of 7条 fed by seat 3
    seat("123m456p99s Z5m Z6m~")         # 转弯豆 of 5万, and a late 转弯豆 (憨包豆) of 6万

Meld tokens: `P` 碰, `M` 闷豆, `Z` 转弯豆, `D` 点豆, then the tile, then optionally `<S` (the seat
it came from) and `~` (late: 憨包豆, R17). Everything else about a seat is a keyword.

Outcomes: `draw()`, `self_draw(seat, tile)`, `discard_win(frm, (seat, tile), ...)`.
"""
from __future__ import annotations

import copy

import re
from typing import Any

from calculator.scoring import settle_record

MELD_TOKEN = re.compile(r"^([PMZD])(\d[mps])(?:<(\d))?(~)?$")
KONG_KIND = {"M": "men", "Z": "zhuanwan", "D": "dian"}


def meld(token: str) -> dict[str, Any]:
    match = MELD_TOKEN.match(token)
    if not match:
        raise ValueError(f"not a meld token: {token!r}")
    letter, tile, frm, late = match.groups()
    data: dict[str, Any] = {"type": "pong", "tile": tile} if letter == "P" else {
        "type": "kong", "kind": KONG_KIND[letter], "tile": tile}
    if frm is not None:
        data["from"] = int(frm)
    if late:
        data["late"] = True
    return data


def seat(spec: str, *, discards: str = "", declared: str | None = None, xiang_gong: bool = False,
         name: str | None = None) -> dict[str, Any]:
    concealed, *tokens = spec.split()
    data: dict[str, Any] = {"concealed": concealed, "melds": [meld(t) for t in tokens],
                            "discards": discards, "declared": declared, "xiang_gong": xiang_gong}
    if name:
        data["name"] = name
    return data


def draw() -> dict[str, Any]:
    return {"type": "draw"}


def self_draw(winner: int, tile: str, *, after_kong: bool = False) -> dict[str, Any]:
    return {"type": "win", "from": None, "winners": [{"seat": winner, "tile": tile}],
            "after_kong": after_kong}


def discard_win(frm: int, *winners: tuple[int, str], hot_kong: str | None = None, robbed: bool = False,
                passed_before: bool = False) -> dict[str, Any]:
    listed = [{"seat": s, "tile": t} for s, t in winners]
    if passed_before:
        listed[0]["passed_before"] = True
    return {"type": "win", "from": frm, "winners": listed, "hot_kong": hot_kong, "robbed": robbed}


def record(seats: list, outcome: dict[str, Any], *, preset: str = "guiyang", options: dict | None = None,
           dealer: int = 0, turned: str | None = None, first_yaoji: tuple[int, int | None] | None = None,
           stake: str = "1") -> dict[str, Any]:
    """A record; seats may be given as `seat()` dicts or as bare spec strings."""
    return {
        "preset": preset,
        "options": options or {},
        "stake": stake,
        "dealer": dealer,
        # A copy of each seat: a test that changes its record must not change a shared fixture.
        "seats": [seat(s) if isinstance(s, str) else copy.deepcopy(s) for s in seats],
        "turned": turned,
        "first_yaoji": (None if first_yaoji is None
                        else {"seat": first_yaoji[0], "claimed_by": first_yaoji[1]}),
        "outcome": outcome,
    }


def settle(*args: Any, **kwargs: Any):
    """`record(...)` settled; the record must be legal."""
    return settle_record(record(*args, **kwargs))


def item_set(settlement, reason: str | None = None) -> list[tuple[int, int, int, str, str]]:
    """The items as sorted (payer, payee, points, reason, rule) tuples, optionally one reason only."""
    return sorted(
        (i.payer, i.payee, i.points, i.reason, i.rule)
        for i in settlement.items if reason is None or i.reason == reason
    )


def rotate(data: dict[str, Any], k: int) -> dict[str, Any]:
    """The same round with every seat number i renumbered (i + k) mod N (R3: turn order kept)."""
    n = len(data["seats"])

    def move(s: int | None) -> int | None:
        return None if s is None else (s + k) % n

    seats: list[Any] = [None] * n
    for i, old in enumerate(data["seats"]):
        new = dict(old)
        new["melds"] = [{**m, "from": move(m["from"])} if "from" in m else dict(m)
                        for m in old.get("melds", [])]
        seats[(i + k) % n] = new
    out = {**data, "seats": seats, "dealer": move(data.get("dealer", 0))}
    for field in ("first_yaoji", "first_wu_gu_ji"):  # the first 8筒: R70
        first = data.get(field)
        if first is not None:
            out[field] = {"seat": move(first["seat"]), "claimed_by": move(first.get("claimed_by"))}
    outcome = dict(data["outcome"])
    if outcome.get("type") == "win":
        outcome["from"] = move(outcome.get("from"))
        outcome["winners"] = [{**w, "seat": move(w["seat"])} for w in outcome["winners"]]
    out["outcome"] = outcome
    return out
