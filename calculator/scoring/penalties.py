"""罚: 包牌 for a passed-over win (R36) and 相公 for a wrong tile count (R37)."""
from __future__ import annotations

from .items import Table

XIANG_GONG_POINTS = 2


def settle_passed_win(table: Table) -> None:
    """过水: the winner who let a winning discard pass pays each other seat its V instead."""
    winner = table.record.outcome.winners[0].seat
    value = table.hands[winner].value
    for seat in table.record.others(winner):
        table.pay(winner, seat, value, "penalty.pass", "R36", ("pass", value))


def settle_xiang_gong(table: Table) -> None:
    record = table.record
    for seat, data in enumerate(record.seats):
        if not data.xiang_gong:
            continue
        for other in record.others(seat):
            hand = table.hands[other]
            points = hand.value if hand.ready else XIANG_GONG_POINTS
            table.pay(seat, other, points, "penalty.xiang_gong", "R37", ("xiang_gong", points))
