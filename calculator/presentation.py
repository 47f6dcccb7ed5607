"""How a settlement reads to the table: sentences, groups, the matrix and the totals.

Shared by the result page, the PDF receipt and the evening report so that each says the same
thing in the same words. No arithmetic happens in templates; it happens here or in scoring.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .scoring import GROUP_ORDER, PATTERN_HANZI, PRESET_HANZI, Item, Problem, Settlement

GROUP_TITLES = {
    "hu": gettext_lazy("胡"),
    "bao": gettext_lazy("报听"),
    "dou": gettext_lazy("豆"),
    "ji": gettext_lazy("鸡"),
    "fa": gettext_lazy("罚"),
}
STATUS_TITLES = {
    "won": gettext_lazy("胡了"),
    "ready": gettext_lazy("有叫"),
    "not_ready": gettext_lazy("没叫"),
}
REASON_TITLES = {
    "hu.discard": gettext_lazy("点胡"),
    "hu.self_draw": gettext_lazy("自摸"),
    "hu.hot_shot": gettext_lazy("热炮"),
    "hu.robbed": gettext_lazy("抢杠"),
    "bao.kill": gettext_lazy("杀报"),
    "dou.men": gettext_lazy("闷豆"),
    "dou.zhuanwan": gettext_lazy("转弯豆"),
    "dou.dian": gettext_lazy("点豆"),
    "ji.yaoji": gettext_lazy("幺鸡"),
    "ji.turned": gettext_lazy("翻牌鸡"),
    "ji.chong_feng": gettext_lazy("冲锋鸡"),
    "ji.ze_ren": gettext_lazy("责任鸡"),
    "ji.bao": gettext_lazy("包鸡"),
    "cha_jiao": gettext_lazy("查叫"),
    "penalty.pass": gettext_lazy("过水包牌"),
    "penalty.xiang_gong": gettext_lazy("相公"),
}


def format_money(amount: Decimal) -> str:
    """Money without trailing zeros: 16.0 → 16, 6.50 → 6.5, with a sign for losses."""
    text = f"{amount.normalize():f}"
    return "0" if text in ("-0", "0") else text


def problem_message(problem: Problem) -> str:
    """A scoring problem in the reader's language (the templates are marked for translation)."""
    return _(problem.template).format(field=problem.field, seat=problem.seat, **problem.params)


@dataclass(frozen=True)
class Line:
    """One item as a sentence: "南 付 东 2 番：闷豆 9筒 (R16)"."""

    payer: str
    payee: str
    points: int
    title: str
    detail: str
    rule: str
    text: str


@dataclass(frozen=True)
class Group:
    key: str
    title: str
    lines: list[Line]
    total: int


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    status: str
    pattern: str
    value: int
    waits: str
    net: int
    money: str
    is_dealer: bool
    burned: bool


@dataclass(frozen=True)
class SettlementView:
    groups: list[Group]
    seats: list[SeatRow]
    matrix: list[tuple[str, list[int]]]  # (payer name, what it pays each seat)
    names: list[str]
    next_dealer: str
    preset: str
    stake: str


def line_for(item: Item, names: list[str]) -> Line:
    title = str(REASON_TITLES.get(item.reason, item.reason))
    detail = item.detail if item.detail and item.detail != title else ""
    text = _("{payer} 付 {payee} {points} 番：{what}").format(
        payer=names[item.payer], payee=names[item.payee], points=item.points, what=detail or title
    )
    return Line(names[item.payer], names[item.payee], item.points, title, detail, item.rule, text)


def present(settlement: Settlement) -> SettlementView:
    record = settlement.record
    names = [seat.name for seat in record.seats]
    groups = []
    for key in GROUP_ORDER:
        items = [i for i in settlement.items if i.group == key]
        if items:
            lines = [line_for(i, names) for i in items]
            groups.append(Group(key, str(GROUP_TITLES[key]), lines, sum(i.points for i in items)))
    seats = [
        SeatRow(
            seat=hand.seat,
            name=names[hand.seat],
            status=str(STATUS_TITLES[hand.status]),
            pattern=PATTERN_HANZI.get(hand.pattern or "", ""),
            value=hand.value,
            waits=" ".join(w.tile.hanzi for w in hand.waits),
            net=settlement.net[hand.seat],
            money=format_money(settlement.money[hand.seat]),
            is_dealer=hand.seat == record.dealer,
            burned=hand.seat in settlement.burned,
        )
        for hand in settlement.hands
    ]
    return SettlementView(
        groups=groups,
        seats=seats,
        matrix=[(names[p], row) for p, row in enumerate(settlement.matrix)],
        names=names,
        next_dealer=names[settlement.next_dealer],
        preset=PRESET_HANZI[record.rules.preset],
        stake=format_money(record.stake),
    )
