"""How a settlement reads to the table: sentences, groups, the matrix and the totals.

Shared by the result page, the PDF receipt and the evening report so that each says the same
thing in the same words. No arithmetic happens in templates; it happens here or in scoring.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.urls import reverse
from django.utils.http import urlencode
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from ..scoring.analysis import with_bonus
from ..scoring import (
    GROUP_ORDER, PATTERN_HANZI, Hand, Item, Problem, RuleSet, Settlement, Tile, best_reading,
    waits_of,
)
from ..scoring.settle import decimal_text
from ..scoring.tiles import SUIT_HANZI
from .words import (
    ALL_PATTERN_TITLES, DECLARED_CHOICES, GROUP_TITLES, MEI_JIAO_TITLE, PRESET_TITLES, REASON_TITLES, STATUS_TITLES, TILE_NAMES,
    MELD_WORDS, chinese_page, tile_text, turned_text, void_fields, void_text, words_text,
)

DECLARED_TITLES = dict(DECLARED_CHOICES)

# The words of a stored round's item `detail`, from before items carried words (R41), e.g.
# "清大对 15，自摸" or "闷豆 9筒"; and of a problem's tile or meld. Only `detail_text` reads them.
DETAIL_TERMS = {
    "报听": pgettext_lazy("settlement item", "报听"),
    "自摸": pgettext_lazy("settlement item", "自摸"),
    "杠上开花": pgettext_lazy("settlement item", "杠上开花"),
    "抢杠按清一色": pgettext_lazy("settlement item", "抢杠按清一色"),
    "热炮": pgettext_lazy("settlement item", "热炮"),
    "杀报": pgettext_lazy("settlement item", "杀报"),
    "碰": pgettext_lazy("settlement item", "碰"),
    "闷豆": pgettext_lazy("settlement item", "闷豆"),
    "转弯豆": pgettext_lazy("settlement item", "转弯豆"),
    "点豆": pgettext_lazy("settlement item", "点豆"),
    "憨包豆": pgettext_lazy("settlement item", "憨包豆"),
    "幺鸡": pgettext_lazy("settlement item", "幺鸡"),
    "金鸡": pgettext_lazy("settlement item", "金鸡"),
    "翻牌鸡": pgettext_lazy("settlement item", "翻牌鸡"),
    "冲锋鸡": pgettext_lazy("settlement item", "冲锋鸡"),
    "冲锋金鸡": pgettext_lazy("settlement item", "冲锋金鸡"),
    "责任鸡": pgettext_lazy("settlement item", "责任鸡"),
    "责任金鸡": pgettext_lazy("settlement item", "责任金鸡"),
    "包鸡": pgettext_lazy("settlement item", "包鸡"),
    "查叫": pgettext_lazy("settlement item", "查叫"),
    "过水包牌": pgettext_lazy("settlement item", "过水包牌"),
    "相公": pgettext_lazy("settlement item", "相公"),
    **{hanzi: ALL_PATTERN_TITLES[key] for key, hanzi in PATTERN_HANZI.items()},
}
_DETAIL_WORDS = re.compile(
    r"抢杠包(?P<players>\d+)家|(?P<rank>[1-9])(?P<suit>[万筒条])|"
    + "|".join(re.escape(term) for term in sorted(DETAIL_TERMS, key=len, reverse=True))
)
_SUIT_OF_HANZI = {"万": "m", "筒": "p", "条": "s"}


def pattern_title(key: str | None) -> str:
    """平胡, 清一色 … in the reader's language ("" for no pattern)."""
    return str(ALL_PATTERN_TITLES[key]) if key else ""


def preset_title(key: str) -> str:
    return str(PRESET_TITLES[key])


def tile_name(tile: Tile) -> str:
    """9筒 in Chinese, 9-dot in English."""
    return tile_text(str(tile))


def detail_text(detail: str) -> str:
    """A stored item's detail sentence, or a problem's tile/meld, in the reader's language.

    Items scored today carry `words` (see `words.words_text`); this reads the sentences that
    rounds stored before then keep (R41), written in a closed vocabulary of rule terms and
    tiles: in Chinese shown as written, in any other language word by word."""
    if not detail or chinese_page():
        return detail

    def word(match: re.Match) -> str:
        if match["players"]:
            return pgettext("settlement item", "抢杠包{0}家").format(match["players"])
        if match["rank"]:
            return str(TILE_NAMES[_SUIT_OF_HANZI[match["suit"]]]).format(rank=match["rank"])
        return str(DETAIL_TERMS[match[0]])

    text = _DETAIL_WORDS.sub(word, detail).replace("，", ", ")
    return text[:1].upper() + text[1:]


def format_money(amount: Decimal) -> str:
    """Money as stored and as a transfer reads: 16.0 → 16, -6.50 → -6.5 (no sign for a win)."""
    return decimal_text(amount)


def signed(value: int | Decimal | str) -> str:
    """Points or money with a sign, as the table says them: +15, −2, +0.5, −6.5, 0.

    The minus is a true minus sign (U+2212), so that it lines up with the plus and never reads
    as a hyphen. Every signed number on the pages, the chart and the PDFs comes from here.
    """
    text = decimal_text(Decimal(value))
    if text.startswith("-"):
        return "\u2212" + text[1:]
    return text if text == "0" else f"+{text}"


def sign_class(value: int | Decimal | str) -> str:
    """plus, minus or zero: the CSS class that colours a signed number, on the pages and in
    the PDFs alike."""
    amount = Decimal(value)
    return "plus" if amount > 0 else "minus" if amount < 0 else "zero"


def problem_message(problem: Problem) -> str:
    """A scoring problem in the reader's language (the templates are marked for translation)."""
    params = {key: detail_text(value) if key in ("tile", "meld") and isinstance(value, str) else value
              for key, value in problem.params.items()}
    return _(problem.template).format(field=problem.field, seat=problem.seat, **params)


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
    bonus: int = 0  # the declared bonus inside `value` (R30)
    declared: str = ""  # 硬报 / 软报

    @property
    def value_text(self) -> str:
        """The 叫 or hand value by its parts: "平胡 1 + 软报 10 = 11 番", or "平胡 1 番"."""
        if self.bonus:
            return _("{pattern} {base} + {declared} {bonus} = {value} 番").format(
                pattern=self.pattern, base=self.value - self.bonus, declared=self.declared,
                bonus=self.bonus, value=self.value)
        return _("{pattern} {value} 番").format(pattern=self.pattern, value=self.value)

    @property
    def net_text(self) -> str:
        return signed(self.net)

    @property
    def money_text(self) -> str:
        return signed(self.money)

    @property
    def sign(self) -> str:
        return sign_class(self.net)


@dataclass(frozen=True)
class SeatHand:
    """A seat's hand as entered: its concealed tiles, its melds (碰 / 闷豆 … with their tiles) and
    its discards that count, as chips; `shown` is False for a 没叫 seat that did not show it."""

    name: str
    concealed: list
    melds: list  # (word, chips)
    discards: list
    shown: bool = True


def seat_hands(settlement: Settlement, names: list[str]) -> tuple[SeatHand, ...]:
    return tuple(
        SeatHand(names[seat], tile_chips(data.concealed),
                 [(str(MELD_WORDS[meld.code]), tile_chips([meld.tile] * meld.size)) for meld in data.melds],
                 tile_chips(data.discards), shown=not data.mei_jiao)
        for seat, data in enumerate(settlement.record.seats))


@dataclass(frozen=True)
class SettlementView:
    groups: list[Group]
    seats: list[SeatRow]
    matrix: list[tuple[str, list[int]]]  # (payer name, what it pays each seat)
    names: list[str]
    next_dealer: str
    preset: str
    stake: str
    rules_url: str  # the rules page stating the rules this round was scored under
    turned: str = ""  # 翻牌 5万 → 鸡：6万; empty when no tile was turned
    hands: tuple[SeatHand, ...] = ()  # every seat's hand as it was entered
    void: tuple[str, ...] = ()  # what did not count, and why: 张哥 的冲锋鸡不算：没叫


def rules_url(rules: RuleSet) -> str:
    """/rules/?preset=anshun, plus the options that differ from the preset as compact JSON, so
    that a round's rule links state its own rules (views.pages.asked_rules reads them back)."""
    params = {"preset": rules.preset}
    if options := rules.options():
        params["options"] = json.dumps(options, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{reverse('calculator:rules')}?{urlencode(params)}"


def item_text(item: Item) -> str:
    """What an item was paid for, in the reader's language: from its words, or for a round
    stored before items carried words, from its stored sentence."""
    return words_text(item.words) if item.words else detail_text(item.detail)


def settlement_json(settlement: Settlement, *, words: bool = False) -> dict[str, Any]:
    """The JSON of RULES §6 as the API and `manage.py settle` print it: each item with its
    `detail`, the Chinese sentence of its words; what paid nothing (`void`, each with its `text`)
    and which tiles were chickens (`chickens`). With `words=True` the items keep their words as
    well: what a round stores (R41), so that it reads in any language and keeps its text."""
    data = settlement.to_dict()
    items = []
    with translation.override("zh-hans"):
        for item, shown in zip(settlement.items, data["items"], strict=True):
            kept = shown.pop("words")
            shown["detail"] = item_text(item)
            if words:
                shown["words"] = kept
            items.append(shown)
        names = [seat.name for seat in settlement.record.seats]
        data["void"] = [{**void_fields(phrase), "text": void_text(phrase, names)} for phrase in settlement.void]
    data["items"] = items
    data["chickens"] = [{"tile": str(tile), "kind": kind, "gold": gold}
                        for tile, kind, gold in settlement.chicken_kinds]
    return data


def line_for(item: Item, names: list[str]) -> Line:
    title = str(REASON_TITLES.get(item.reason, item.reason))
    detail = item_text(item)
    detail = detail if detail != title else ""
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
            status=str(MEI_JIAO_TITLE if record.seats[hand.seat].mei_jiao else STATUS_TITLES[hand.status]),
            pattern=pattern_title(hand.pattern),
            value=hand.value,
            bonus=hand.declared_bonus if hand.pattern else 0,
            declared=str(DECLARED_TITLES.get(record.seats[hand.seat].declared or "", "")),
            waits=" ".join(tile_name(w.tile) for w in hand.waits),
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
        preset=preset_title(record.rules.preset),
        stake=format_money(record.stake),
        rules_url=rules_url(record.rules),
        turned=turned_text(str(record.turned), [str(t) for t in settlement.chickens]) if record.turned else "",
        void=tuple(void_text(phrase, names) for phrase in settlement.void),
        hands=seat_hands(settlement, names),
    )


# -- A round in one line: the evening page, its history and the receipt -----------------------


def _pattern(settlement: Mapping[str, Any], seat: int) -> str:
    return pattern_title(settlement["hands"][seat].get("pattern"))


def outcome_text(record: Mapping[str, Any], settlement: Mapping[str, Any], names: list[str]) -> str:
    """What happened, in the table's words: 东 自摸 清一色 / 南 胡 平胡（西 点炮）/ 荒庄 查叫.

    Takes the record and settlement as stored (their JSON), so that a round's history, its row
    on the evening page, the correction preview and the receipt all say it the same way."""
    outcome = record["outcome"]
    if outcome["type"] == "draw":
        if any(i["reason"] == "cha_jiao" for i in settlement["items"]):
            return _("荒庄 查叫")
        return _("荒庄")
    winners = outcome["winners"]
    source = outcome.get("from")
    if source is None:
        seat = winners[0]["seat"]
        text = _("{name} 自摸 {pattern}").format(name=names[seat], pattern=_pattern(settlement, seat))
        text += " " + _("杠上开花") if outcome.get("after_kong") else ""
        return text + (" " + _("天胡/地胡") if outcome.get("first_draw") else "")
    if len(winners) == 1:
        seat = winners[0]["seat"]
        hands = _("{name} 胡 {pattern}").format(name=names[seat], pattern=_pattern(settlement, seat))
    else:
        # Translators: "、" separates the winners of one discard; "{name} {pattern}" is one of them.
        hands = _("、").join(
            _("{name} {pattern}").format(name=names[w["seat"]], pattern=_pattern(settlement, w["seat"]))
            for w in winners
        )
    if outcome.get("robbed"):
        how = _("{name} 被抢杠")
    elif len(winners) > 1:
        how = _("{name} 一炮多响")
    elif outcome.get("hot_kong"):
        how = _("{name} 热炮")
    else:
        how = _("{name} 点炮")
    text = _("{hands}（{how}）").format(hands=hands, how=how.format(name=names[source]))
    if any(w.get("passed_before") for w in winners):
        text += " " + _("过水包牌")
    return text


def round_summary(round_: Any, names: list[str]) -> str:
    """One line for a stored round (models.Round): 第3局 东 自摸 清一色 · 东 +33 (its biggest winner)."""
    net = round_.net
    top = max(range(len(net)), key=lambda s: (net[s], -s))
    lead = f" · {names[top]} {signed(net[top])}" if net[top] else ""
    return _("第{number}局 {what}").format(
        number=round_.number, what=outcome_text(round_.record, round_.settlement, names)
    ) + lead


# -- Entry helpers: how a half-entered seat reads while the phone is still in the hand ---------

@dataclass(frozen=True)
class TileChip:
    """One tile as the page draws it: a big rank over a small, coloured suit."""

    code: str  # notation, e.g. "5m"
    rank: int
    suit: str  # m, p or s

    @property
    def suit_hanzi(self) -> str:
        return SUIT_HANZI[self.suit]

    @property
    def hanzi(self) -> str:
        return f"{self.rank}{self.suit_hanzi}"

    @property
    def is_yaoji(self) -> bool:
        return self.code == "1s"


def tile_chips(tiles: Iterable[Tile]) -> list[TileChip]:
    """Sorted chips for a list of tiles."""
    return [TileChip(str(t), t.rank, t.suit) for t in sorted(tiles)]


ALL_TILE_CHIPS = tile_chips(Tile(i) for i in range(27))


@dataclass(frozen=True)
class Standing:
    """Where a seat's hand stands as entered: the badge, its pattern and its waits.

    `status` is one of: empty, short, long (wrong tile count), won, not_winning (a winner whose
    14 tiles are not complete), ready, not_ready, xiang_gong.
    """

    status: str
    text: str
    pattern: str = ""
    value: int = 0
    waits: tuple[TileChip, ...] = ()


def hand_standing(
    concealed: Sequence[Tile],
    melds: Sequence[tuple[Tile, int]],
    *,
    winner: bool,
    rules: RuleSet,
    declared: str | None = None,
    xiang_gong: bool = False,
    mei_jiao: bool = False,
) -> Standing:
    """A seat's 胡/有叫/没叫 as the engine will see it (R5–R8), for the live entry preview."""
    hand = Hand.of(concealed, melds)
    expected = 14 if winner else 13
    if xiang_gong:
        return Standing("xiang_gong", _("相公"))
    if mei_jiao:
        return Standing("not_ready", str(MEI_JIAO_TITLE))
    if not concealed and not melds:
        return Standing("empty", _("待输入"))
    if hand.size < expected:
        return Standing("short", _("还差 {n} 张").format(n=expected - hand.size))
    if hand.size > expected:
        return Standing("long", _("多了 {n} 张").format(n=hand.size - expected))
    bonus = rules.declare[declared] if declared else 0
    if winner:
        reading = best_reading(hand, rules.hand_patterns)
        if reading is None:
            return Standing("not_winning", _("没胡成"))
        return Standing("won", _("胡了"), pattern_title(reading.pattern), with_bonus(rules, reading.value, bonus))
    waits = waits_of(hand, rules.hand_patterns)
    if not waits:
        return Standing("not_ready", _("没叫"))
    best = max(waits, key=lambda w: w.value)
    return Standing("ready", _("有叫"), pattern_title(best.pattern), with_bonus(rules, best.value, bonus),
                    tuple(tile_chips(w.tile for w in waits)))
