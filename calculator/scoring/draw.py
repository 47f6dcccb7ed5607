"""荒庄 查叫 (R33): with no winner, seats that are not ready pay the ready ones their 叫 value."""
from __future__ import annotations

from .items import Table


def settle_cha_jiao(table: Table) -> None:
    record = table.record
    ready = [h.seat for h in table.hands if h.ready]
    if not ready or len(ready) == record.players:
        return
    for seat in range(record.players):
        if seat in ready or record.seats[seat].xiang_gong:
            continue  # a 相公 pays by R37 instead
        for payee in ready:
            table.pay(seat, payee, table.hands[payee].value, "cha_jiao", "R33", ("cha_jiao",))
