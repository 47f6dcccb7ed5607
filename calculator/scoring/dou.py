"""豆: kongs pay their owner (R16–R18), only when the round has a winner; 豆 倒赔 (R52)."""
from __future__ import annotations

from .items import Table
from .record import Meld


def _counts(table: Table, seat: int, kong: Meld) -> bool:
    """憨包豆 pays nothing (R17); nor does the 热炮 kong under `hot_shot_burn: kong`."""
    return not kong.late and table.dead_kong != (seat, kong)


def settle_dou(table: Table) -> None:
    rules, record = table.rules, table.record
    for seat, data in enumerate(record.seats):
        if not table.collects(seat, rules.dou_collectors):
            paid_back = rules.dou_reverse and rules.dou_collectors == "ready" and seat not in table.burned
            for kong in () if paid_back else data.kongs:  # 豆倒赔 pays those back (R52)
                table.not_counted("dou", seat, table.why_not_collecting(seat), kong.kind, str(kong.tile))
            continue
        for kong in data.kongs:
            if not _counts(table, seat, kong):
                table.not_counted("dou", seat, "late" if kong.late else "hot_kong", kong.kind, str(kong.tile))
                continue
            value = rules.dou_value(kong.kind)
            words = (kong.kind, str(kong.tile))
            reason, rule = f"dou.{kong.kind}", "R16"
            if kong.kind == "dian" and rules.dian_payer == "konger":  # R57: the other way round
                feeder = kong.from_seat
                if table.collects(feeder, "all"):  # but a burned feeder or 相公 collects nothing
                    table.pay(seat, feeder, value, reason, "R57", words)
                else:
                    table.not_counted("dou", feeder, table.why_not_collecting(feeder), kong.kind, str(kong.tile))
            elif kong.kind == "dian":
                table.pay(kong.from_seat, seat, value, reason, rule, words)
            else:
                table.each_other_pays(seat, value, reason, rule, words)
    if rules.dou_reverse and rules.dou_collectors == "ready":
        _dao_pei(table)


def _dao_pei(table: Table) -> None:
    """豆 倒赔 (R52): a kong owned by a seat that is not ready is paid back to the ready seats
    (a 点豆 to its feeder, if that seat is ready). A burned seat's kongs count for nothing, and a
    burned seat collects nothing back either."""
    rules, record = table.rules, table.record
    ready = [h.seat for h in table.hands if h.ready and h.seat not in table.burned]  # 烧光 collects no 豆
    for seat, data in enumerate(record.seats):
        if table.hands[seat].ready or seat in table.burned:
            continue
        for kong in data.kongs:
            if not _counts(table, seat, kong):
                continue
            value = rules.dou_value(kong.kind)
            words = (("dao_pei",), (kong.kind, str(kong.tile)))
            payees = [kong.from_seat] if kong.kind == "dian" else record.others(seat)
            for payee in payees:
                if payee in ready:
                    table.pay(seat, payee, value, "dou.reverse", "R52", *words)
