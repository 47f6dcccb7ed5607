"""豆: kongs pay their owner (R16–R18), only when the round has a winner."""
from __future__ import annotations

from .items import Table


def settle_dou(table: Table) -> None:
    rules, record = table.rules, table.record
    for seat, data in enumerate(record.seats):
        if not table.collects(seat, rules.dou_collectors):
            continue
        for kong in data.kongs:
            if kong.late or table.dead_kong == (seat, kong):
                continue  # 憨包豆 pays nothing (R17); nor does the 热炮 kong under `hot_shot_burn: kong`
            value = rules.dou_value(kong.kind)
            words = (kong.kind, str(kong.tile))
            reason, rule = f"dou.{kong.kind}", "R16"
            if kong.kind == "dian":
                table.pay(kong.from_seat, seat, value, reason, rule, words)
            else:
                table.each_other_pays(seat, value, reason, rule, words)
