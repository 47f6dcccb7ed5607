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
    """The counts a season adds up for one stored round, as small plain JSON (a season decodes
    thousands of these, so only what is there is written):

    - n: the number of seats; net: each seat's net, as the round's (so a season decodes one
      value per round);
    - c: count name → one number per seat, only the counts some seat has (COUNTS):
      hu / zimo: the seat won / won on its own draw; pao (点炮): the seat's discard, or its kong
      robbed (抢杠), was won on (once per round, however many won on it); jiao: at a 荒庄, the
      seat was ready (有叫); dou_*: the seat's kongs of each kind that paid it something (one per
      kong, not per payer); chong_feng: it collected 冲锋鸡; ze_ren / ze_ren_points: it paid
      责任鸡, and how much; hot_won / hot_fed: it won on a 热炮 / its kong's discard was the 热炮;
      rob_won / rob_lost: it robbed a kong (抢杠) / its kong was robbed;
    - draw: 1 when the round was 荒庄 (else absent);
    - won: each seat's net if it won the round, else null, and pattern: the winner's pattern key
      (清大对 …), else null (both absent on a 荒庄);
    - m: the payments [payer, payee, points] summed per pair (the settlement's matrix, without
      its zeros): the head-to-head adds these.
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
    stats: dict[str, Any] = {"v": STATS_VERSION, "n": players, "net": net,
                             "c": {name: values for name, values in counts.items() if any(values)}}
    if draw:
        stats["draw"] = 1
    if winners:
        patterns = {hand["seat"]: hand.get("pattern") for hand in hands}
        stats["won"] = [net[seat] if seat in winners else None for seat in range(players)]
        stats["pattern"] = [patterns.get(seat) if seat in winners else None for seat in range(players)]
    stats["m"] = [[payer, payee, points] for payer, row in enumerate(settlement["matrix"])
                  for payee, points in enumerate(row) if points]
    return stats


def evening_summary(rounds: list[tuple[int, int, dict[str, Any]]], players: int) -> dict[str, Any]:
    """An evening's rounds added up by seat, from each round's `round_stats`: what a season adds
    per evening, so that a season of a hundred evenings reads a hundred of these.

    `rounds`: (number, dealer, round_stats) in number order. The result: rounds, draws; net and
    each count (c) per seat; m, the payments [payer, payee, points] per pair; big, per seat, the
    biggest round won [points, pattern, number] (the first of equals) or null; run, per seat, the
    most rounds dealt in a row [length, first number] or null."""
    net = [0] * players
    counts: dict[str, list[int]] = {}
    flow: dict[tuple[int, int], int] = {}
    big: list[list | None] = [None] * players
    run: list[list | None] = [None] * players
    draws = 0
    dealing = [-1, 0, 0]  # seat, rounds in a row, first number

    def end_run() -> None:
        seat, length, first = dealing
        if length and (run[seat] is None or length > run[seat][0]):
            run[seat] = [length, first]

    for number, dealer, stats in rounds:
        for seat, points in enumerate(stats["net"]):
            net[seat] += points
        draws += 1 if stats.get("draw") else 0
        for name, values in stats.get("c", {}).items():
            total = counts.setdefault(name, [0] * players)
            for seat, value in enumerate(values):
                total[seat] += value
        for payer, payee, points in stats.get("m", ()):
            flow[payer, payee] = flow.get((payer, payee), 0) + points
        if dealing[0] == dealer:
            dealing[1] += 1
        else:
            end_run()
            dealing = [dealer, 1, number]
        for seat, points in enumerate(stats.get("won") or ()):
            if points is not None and (big[seat] is None or points > big[seat][0]):
                big[seat] = [points, stats["pattern"][seat], number]
    end_run()
    return {"v": STATS_VERSION, "n": players, "rounds": len(rounds), "draws": draws, "net": net, "c": counts,
            "m": [[payer, payee, points] for (payer, payee), points in sorted(flow.items())],
            "big": big, "run": run}
