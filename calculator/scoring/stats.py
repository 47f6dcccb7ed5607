"""What a season counts of one round (固定桌, issue 24), read from the round as stored.

`round_stats` takes a stored round record (RULES §3) and its stored settlement (§6) and returns
small per-seat counts: who won, 自摸, 点炮, 叫 at 荒庄, 豆 of each kind that paid, 冲锋鸡, 责任鸡
paid, 热炮, 抢杠, and the payment matrix. It re-scores nothing: the settlement's items already say
what was paid and why, so what a round counts is exactly what it paid. The ledger stores the result
with the round (`Round.stats`), so a season of thousands of rounds sums short lists instead of
unpacking every item.
"""
from __future__ import annotations

import json
from typing import Any

STATS_VERSION = 1
DOU_KINDS = ("men", "zhuanwan", "dian")  # 闷豆, 转弯豆, 点豆 (R16)
# Per-seat counts, each a list with one number per seat.
COUNTS = ("hu", "zimo", "pao", "jiao", "chong_feng", "ze_ren", "ze_ren_points",
          "hot_won", "hot_fed", "rob_won", "rob_lost", *(f"dou_{k}" for k in DOU_KINDS))


def round_stats(record: dict[str, Any], settlement: dict[str, Any]) -> dict[str, Any]:
    """The counts a season adds up for one stored round. Plain JSON: lists of ints per seat.

    - hu / zimo: the seat won / won on its own draw; pao (点炮): the seat's discard, or its kong
      robbed (抢杠), was won on (once per round, however many won on it);
    - draw: the round was 荒庄; jiao: at a 荒庄, the seat was ready (有叫);
    - dou_*: the seat's kongs of each kind that paid it something (one per kong, not per payer);
    - chong_feng: the seat collected 冲锋鸡; ze_ren / ze_ren_points: it paid 责任鸡, and how much;
    - hot_won / hot_fed: it won on a 热炮 / its kong's discard was the 热炮;
      rob_won / rob_lost: it robbed a kong (抢杠) / its kong was robbed;
    - won: each seat's net if it won the round, else null (the biggest hand is the largest);
      pattern: the winner's pattern key (清大对 …), else null;
    - matrix: M[payer][payee] as the settlement has it (the head-to-head sums these).
    """
    net = list(settlement["net"])
    players = len(net)
    counts = {name: [0] * players for name in COUNTS}
    outcome = record.get("outcome") or {}
    draw = outcome.get("type") == "draw"
    hands = settlement.get("hands") or []
    winners = [] if draw else [w["seat"] for w in outcome.get("winners") or []]
    from_seat = None if draw else outcome.get("from")
    for seat in winners:
        counts["hu"][seat] = 1
        if from_seat is None:
            counts["zimo"][seat] = 1
        elif outcome.get("hot_kong"):
            counts["hot_won"][seat] = 1
        elif outcome.get("robbed"):
            counts["rob_won"][seat] = 1
    if winners and from_seat is not None:
        counts["pao"][from_seat] = 1
        if outcome.get("hot_kong"):
            counts["hot_fed"][from_seat] = 1
        if outcome.get("robbed"):
            counts["rob_lost"][from_seat] = 1
    if draw:
        for hand in hands:
            if hand.get("status") in ("ready", "won"):
                counts["jiao"][hand["seat"]] = 1
    kongs: set[tuple[int, str, str]] = set()
    for item in settlement.get("items") or []:
        group, _, kind = item["reason"].partition(".")
        if group == "dou" and kind in DOU_KINDS:
            what = json.dumps(item.get("words") or item.get("detail", ""), ensure_ascii=False)
            kongs.add((item["payee"], kind, what))
        elif item["reason"] == "ji.chong_feng":
            counts["chong_feng"][item["payee"]] = 1
        elif item["reason"] == "ji.ze_ren":
            counts["ze_ren"][item["payer"]] = 1
            counts["ze_ren_points"][item["payer"]] += item["points"]
    for payee, kind, _what in kongs:
        counts[f"dou_{kind}"][payee] += 1
    patterns = {hand["seat"]: hand.get("pattern") for hand in hands}
    return {
        "v": STATS_VERSION,
        **counts,
        "draw": int(draw),
        "won": [net[seat] if seat in winners else None for seat in range(players)],
        "pattern": [patterns.get(seat) if seat in winners else None for seat in range(players)],
        "matrix": [list(row) for row in settlement["matrix"]],
    }
