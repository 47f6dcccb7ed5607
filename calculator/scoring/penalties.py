"""罚: 包牌 for a passed-over win (R36), 相公 for a wrong tile count (R37), 开局跟 (R63); 封顶 (R53) last."""
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


def settle_gen_zhuang(table: Table) -> None:
    """开局跟 (R63): the dealer's first discard was followed by every other seat's first discard, so
    the dealer pays each of them `gen_zhuang`, whatever became of the round."""
    record, points = table.record, table.rules.gen_zhuang
    if record.kai_ju_gen and points:
        for seat in record.others(record.dealer):
            table.pay(record.dealer, seat, points, "penalty.gen_zhuang", "R63", ("gen_zhuang", points))


def settle_cap(table: Table) -> None:
    """封顶 (R53): no seat pays another more than `cap` in a round, all items taken together;
    the excess comes back as one item, so the settlement stays itemised and zero-sum."""
    cap, players = table.rules.cap, table.record.players
    if not cap:
        return
    owed = [[0] * players for _ in range(players)]
    for item in table.items:
        owed[item.payer][item.payee] += item.points
        owed[item.payee][item.payer] -= item.points
    for payer in range(players):
        for payee in range(players):
            if owed[payer][payee] > cap:
                excess = owed[payer][payee] - cap
                table.pay(payee, payer, excess, "cap", "R53", ("cap", cap))
