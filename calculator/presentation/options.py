"""The rule options of RULES §9 in words: one row per RuleSet option.

`OPTIONS` says, for each option, what the table calls it (`title`), how each of its values reads
(`words`: a dict for options of a few values, else a function of the value), the section of the
rules it belongs to, whether the evening's summary always shows it (`main`) and whether the
stateless round form offers it (`round_form`). Everything that shows or asks for an option draws
on this table: the evening form and the round form build their fields from it
(`forms.option_fields`), the rules page, the evening's summary and report print `option_lines`,
the receipt prints `changed_lines`.

A house rule (R44 on) is a RuleSet field and a row here: its row also carries its rule as the
rules page states it (`rule`), and the phrases and reason titles of the items it pays (`phrases`,
`reasons`), which join `words.PHRASES` and `words.REASON_TITLES` when this module loads.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext_lazy

from ..scoring import PRESETS, RuleSet
from .words import PATTERN_TITLES, PHRASES, PRESET_TITLES, REASON_TITLES, Phrase

SECTIONS = {  # the parts of the rules an option belongs to, in the order the forms show them
    "hu": gettext_lazy("胡"),
    "dou": gettext_lazy("豆"),
    "ji": gettext_lazy("鸡"),
    "bao": gettext_lazy("报听"),
    "dealer": gettext_lazy("坐庄"),
    "house": gettext_lazy("家规：各地桌上的变体"),  # R44 on: off in every preset
}
YES_NO = {True: gettext_lazy("是"), False: gettext_lazy("不是")}


def points(n: int) -> str:
    return ngettext("{n} 番", "{n} 番", n).format(n=n)


def _points_or(none: Promise) -> Callable[[int], str]:
    """n 番, or the given words when the option is 0 (off)."""
    return lambda n: points(n) if n else str(none)


@dataclass(frozen=True)
class Rule:
    """A house rule's entry on the rules page: its number (R44 on) and its text, marked with
    `gettext_noop` (the page translates it). `{v_<option>}` in the text says whether the rules
    in force play it (（本规则用这一条。）); `title` defaults to the option's."""

    number: str
    text: str
    title: Promise | None = None


@dataclass(frozen=True)
class Option:
    name: str
    title: Promise
    words: Mapping[Any, Promise] | Callable[[Any], str]
    section: str
    main: bool = False  # the evening's summary shows it even when it is the preset's
    round_form: bool = False  # the stateless round form offers it (an evening fixes its rules)
    keys: Mapping[str, Promise] = field(default_factory=dict)  # a map option's keys, by name
    help: Promise | None = None  # what the table should know before choosing it, under the form's field
    rule: Rule | None = None  # a house rule's text on the rules page (the others are in rules_text.RULES)
    phrases: Mapping[str, Phrase] = field(default_factory=dict)  # the words of the items it pays
    reasons: Mapping[str, Promise] = field(default_factory=dict)  # its reason codes' titles

    def text(self, value: Any) -> str:
        """The value in words, in the active language."""
        if self.keys:
            # Translators: "、" separates the entries; "{pattern} {points}" is one of them (平胡 1 番).
            return _("、").join(_("{pattern} {points}").format(pattern=self.keys[k], points=points(v))
                               for k, v in value.items())
        if callable(self.words):
            return self.words(value)
        return str(self.words[value])


OPTIONS: list[Option] = [
    Option("patterns", gettext_lazy("牌型番数"), {}, "hu", keys=PATTERN_TITLES),
    Option("self_draw", gettext_lazy("自摸"), {
        "plus_one": gettext_lazy("每家付 牌型+1"), "double": gettext_lazy("每家付 牌型×2"),
        "plain": gettext_lazy("每家付 牌型，不加 1"), "double_plus_one": gettext_lazy("每家付 牌型×2+1")},
        "hu", main=True),
    Option("kong_bloom_bonus", gettext_lazy("杠上开花"), _points_or(gettext_lazy("0 番（不另加）")), "hu"),
    Option("hot_shot_bonus", gettext_lazy("热炮"), {
        "one": gettext_lazy("多付 1"), "kong_total": gettext_lazy("多付那个杠的全部"),
        "none": gettext_lazy("不多付"), "double": gettext_lazy("翻倍，付 2V")}, "hu", main=True),
    Option("hot_shot_burn", gettext_lazy("热炮烧什么"), {
        "kong": gettext_lazy("那个杠不收豆钱"), "all": gettext_lazy("点炮的人的豆和鸡全部作废（烧光）")}, "hu"),
    Option("robbed_kong", gettext_lazy("抢杠"), {
        "pay_all": gettext_lazy("被抢的一家包三家"), "qing_yi_se": gettext_lazy("被抢的付清一色"),
        "pay_all_plain": gettext_lazy("被抢的一家包三家，不加 1"), "four_v": gettext_lazy("被抢的付 4V"),
        "v_plus_one": gettext_lazy("被抢的付 V+1")}, "hu", main=True),
    Option("robbed_kong_burn", gettext_lazy("抢杠烧什么"), {
        "none": gettext_lazy("被抢的一家照常收豆收鸡"), "all": gettext_lazy("被抢的一家豆和鸡全部作废（烧光）")}, "hu"),
    Option("pass_dou", gettext_lazy("通行证"), {
        "any": gettext_lazy("平胡点炮要有豆"), "men_or_zhuanwan": gettext_lazy("平胡点炮要有闷豆或转弯豆"),
        "off": gettext_lazy("不要通行证")}, "hu", main=True),
    Option("dou_values", gettext_lazy("豆"), {}, "dou", main=True,
           keys={kind: REASON_TITLES[f"dou.{kind}"] for kind in ("men", "zhuanwan", "dian")}),
    Option("jian_dou_san", gettext_lazy("见豆三"), {
        True: gettext_lazy("每个豆都算 3 番"), False: gettext_lazy("豆按各自的番数")}, "dou", round_form=True),
    Option("dou_collectors", gettext_lazy("谁收豆"), {
        "ready": gettext_lazy("只有胡了的和有叫的人收豆"), "all": gettext_lazy("每一家都收豆")}, "dou"),
    Option("turned_chicken", gettext_lazy("翻牌鸡"), {
        "next": gettext_lazy("翻牌的下一张是鸡"), "swing": gettext_lazy("摇摆鸡：上下各一张"),
        "none": gettext_lazy("不要翻牌鸡"), "self": gettext_lazy("本鸡：翻出的那张"),
        "self_next": gettext_lazy("本鸡和下一张")}, "ji", main=True),
    Option("chicken_discards", gettext_lazy("打出的鸡"), {
        "all": gettext_lazy("满堂鸡：打出去的鸡也算"), "yaoji": gettext_lazy("只算打出去的幺鸡"),
        "none": gettext_lazy("打出去的不算")}, "ji", main=True),
    Option("yaoji_concealed", gettext_lazy("手里的幺鸡"), lambda n: _("每张算 {n}").format(n=n), "ji"),
    Option("gold", gettext_lazy("金鸡"), lambda n: _("×{gold}").format(gold=n), "ji", main=True),
    Option("gold_discards", gettext_lazy("打出的金鸡"), {
        True: gettext_lazy("打出去的幺鸡也翻倍。"), False: gettext_lazy("只有拿着的幺鸡翻倍，打出去的不翻。")}, "ji"),
    Option("chong_feng", gettext_lazy("冲锋鸡"), _points_or(gettext_lazy("没有冲锋鸡")), "ji", main=True),
    Option("chong_feng_gold", gettext_lazy("冲锋金鸡"), points, "ji"),
    Option("ze_ren", gettext_lazy("责任鸡"), _points_or(gettext_lazy("没有责任鸡")), "ji", main=True),
    Option("chicken_collectors", gettext_lazy("谁收鸡"), {
        "ready": gettext_lazy("有叫的才收鸡"), "all": gettext_lazy("不管有没有叫都收鸡"),
        "ready_or_pay": gettext_lazy("包鸡：没叫的反赔自己的鸡")}, "ji", main=True),
    Option("declare", gettext_lazy("报听"), {}, "bao", main=True,
           keys={"hard": gettext_lazy("硬报"), "soft": gettext_lazy("软报")}),
    Option("declare_kill_self_draw", gettext_lazy("杀报（自摸）"),
           _points_or(gettext_lazy("别人自摸时报听的人不另付。")), "bao"),
    Option("multi_win_dealer", gettext_lazy("一炮多响坐庄"), {
        "guiyang": gettext_lazy("三家胡就是点炮的人坐庄；两家胡是从庄家起按顺序第一个胡的人坐庄"),
        "discarder": gettext_lazy("点炮的人坐庄"),
        "after_discarder": gettext_lazy("点炮的人之后按顺序第一个胡的人坐庄")}, "dealer"),
    Option("draw_dealer", gettext_lazy("荒庄后的庄"), {
        "stay": gettext_lazy("庄家连庄"), "anshun": gettext_lazy("安顺算法"), "xingyi": gettext_lazy("兴义算法")},
        "dealer", main=True),
    # 家规 (R44–R70, VARIANTS.md and issue 21): off in every preset. A row's `rule` is its text on the
    # rules page, its `phrases` and `reasons` the words of what it pays.
    Option("bao_ji", gettext_lazy("包鸡"), {
        "all": gettext_lazy("包鸡包全部的鸡"), "shown": gettext_lazy("包鸡只包亮出来的鸡")}, "house",
        help=gettext_lazy("只包亮出来的：碰杠的和打出去的幺鸡（乌骨鸡也是）和冲锋鸡；手里的鸡不包，"
                          "翻牌鸡不管是不是碰杠了都不包。"),
        rule=Rule("R49", gettext_noop(
            "包鸡（R24）时，没叫的一家只按它亮在桌上的鸡付给每个收鸡的人：碰杠的和打出去的幺鸡、"
            "它的冲锋鸡；手里藏着的鸡和翻牌鸡不算——碰杠的翻牌鸡也不算。{v_bao_ji}"),
            title=gettext_lazy("包鸡只包亮出来的"))),
    Option("chicken_flow", gettext_lazy("鸡怎么流"), {
        "all": gettext_lazy("收鸡的向其余每家收"), "to_ready": gettext_lazy("鸡只从没叫的流向有叫的"),
        "to_ready_chong_feng_all": gettext_lazy("鸡只从没叫的流向有叫的，冲锋鸡其余每家都付")}, "house"),
    Option("chong_feng_on_top", gettext_lazy("冲锋鸡另加"), YES_NO, "house", rule=Rule("R51", gettext_noop(
        "冲锋鸡不代替那张幺鸡平常的算法，而是在它上面另加冲锋鸡的番数（金鸡时用金鸡的番数）。"
        "{v_chong_feng_on_top}"))),
    Option("dou_reverse", gettext_lazy("豆倒赔"), YES_NO, "house", rule=Rule("R52", gettext_noop(
        "有人胡的局，没叫的一家的豆反过来赔：闷豆、转弯豆付给每个有叫的人豆的番数，点豆付给打出那张的人"
        "（它有叫才付）。憨包豆、被作废的杠不赔，被烧的一家不赔也不收。只在“有叫的才收豆”时用。"
        "{v_dou_reverse}")),
        reasons={"dou.reverse": gettext_lazy("豆倒赔")},
        phrases={"dao_pei": Phrase(pgettext_lazy("settlement item", "豆倒赔"))}),  # before the kong it pays back
    Option("cap", gettext_lazy("封顶"), _points_or(gettext_lazy("不封顶")), "house",
           reasons={"cap": gettext_lazy("封顶")},
           phrases={"cap": Phrase(pgettext_lazy("settlement item", "封顶"), "{term} {0}")}),  # R53: the cap
    Option("ze_ren_gold", gettext_lazy("金鸡时责任鸡翻倍"), YES_NO, "house", rule=Rule("R54", gettext_noop(
        "金鸡时责任鸡（R23）不翻倍，照平常的番数付。{v_ze_ren_gold}"), title=gettext_lazy("责任鸡不翻倍"))),
    Option("chui_feng", gettext_lazy("吹风鸡"), YES_NO, "house", rule=Rule("R55", gettext_noop(
        "翻出来的是 5筒：这一局所有的鸡和责任鸡都不算（包鸡也不算）。{v_chui_feng}"))),
    Option("declare_kill_by_kind", gettext_lazy("杀报按报的种类"), YES_NO, "house", rule=Rule("R56", gettext_noop(
        "别人自摸时，每个报了听的人付给自摸的人它自己的报听番数（硬报的付硬报的，软报的付软报的），"
        "代替 R31 的固定番数。{v_declare_kill_by_kind}"))),
    Option("dian_payer", gettext_lazy("点豆谁付"), {
        "feeder": gettext_lazy("点豆由打出的人付"), "konger": gettext_lazy("点豆由杠的人付")}, "house",
        rule=Rule("R57", gettext_noop(
            "点豆反过来算：杠的人付给打出那张的人点豆的番数（“百科口径”）。谁算这个杠照 R18。{v_dian_payer}"),
            title=gettext_lazy("点豆由杠的人付"))),
    Option("declare_floor", gettext_lazy("报听保底"), YES_NO, "house", rule=Rule("R58", gettext_noop(
        "报了听的牌，V 和叫的番数按牌型番数和报听番数中较大的算，而不是两个相加。{v_declare_floor}"))),
    Option("dealer_bonus", gettext_lazy("庄家加番"), points, "house",
           reasons={"hu.dealer": gettext_lazy("庄家加番")},
           phrases={"dealer": Phrase(pgettext_lazy("settlement item", "庄家加番"), "{term} {0}")}),  # R59: the extra
    Option("dealer_streak_bonus", gettext_lazy("连庄每庄加番"), points, "house"),
    Option("wu_gu_ji", gettext_lazy("乌骨鸡"), lambda n: _("8筒 每张算 {n}").format(n=n) if n else _("不算乌骨鸡"),
           "house", round_form=True, reasons={"ji.wu_gu_ji": gettext_lazy("乌骨鸡")}, phrases={
               "wu_gu_ji": Phrase(pgettext_lazy("settlement item", "乌骨鸡"), "{term} ×{0}"),
               "wu_gu_ji_gold": Phrase(pgettext_lazy("settlement item", "金乌骨鸡"), "{term} ×{0}")}),
    Option("dan_diao", gettext_lazy("单钓"), _points_or(gettext_lazy("不算单钓，按大对子")), "house"),
    Option("qing_dan_diao", gettext_lazy("清单钓"), _points_or(gettext_lazy("不算清单钓，按清大对")), "house"),
    Option("duo_long", gettext_lazy("多龙七对"),
           lambda n: _("每多一个四张一样加 {points}").format(points=points(n)) if n else _("不算多龙，按龙七对"),
           "house"),
    Option("tian_hu", gettext_lazy("天胡"), _points_or(gettext_lazy("不算天胡")), "house",
           help=gettext_lazy("这是其余每家付的全部，不再加自摸的 1、报听或杠上开花：习惯“33 + 自摸”的桌填 34。"),
           phrases={"tian_hu": Phrase(pgettext_lazy("settlement item", "天胡"), "{term} {0}")}),  # R62: the fixed value
    Option("di_hu", gettext_lazy("地胡"), _points_or(gettext_lazy("不算地胡")), "house",
           help=gettext_lazy("这是其余每家付的全部，不再加自摸的 1、报听或杠上开花：习惯“23 + 自摸”的桌填 24。"),
           phrases={"di_hu": Phrase(pgettext_lazy("settlement item", "地胡"), "{term} {0}")}),
    Option("tian_di_bonus", gettext_lazy("天胡地胡加番"), _points_or(gettext_lazy("不加")), "house", phrases={  # on V
        "tian_hu_bonus": Phrase(pgettext_lazy("settlement item", "天胡"), "+ {term} {0}", attached=True),
        "di_hu_bonus": Phrase(pgettext_lazy("settlement item", "地胡"), "+ {term} {0}", attached=True)}),
    Option("gen_zhuang", gettext_lazy("开局跟"), _points_or(gettext_lazy("不算开局跟")), "house",
           reasons={"penalty.gen_zhuang": gettext_lazy("开局跟")},
           phrases={"gen_zhuang": Phrase(pgettext_lazy("settlement item", "开局跟"), "{term} {0}")}),  # R63: per seat
    Option("xing_qi_ji", gettext_lazy("星期鸡"), YES_NO, "house", round_form=True, rule=Rule("R64", gettext_noop(
        "这一局是星期几，三门里那个点数的牌都是鸡（星期日算 7），跟翻牌鸡一样算：每张 1，碰 3，杠 4，"
        "有叫的才收（照 R24）。星期一的 1条 还是幺鸡。一晚上打的局按各自打的那天算，记在每一局里；"
        "单独算一局就按今天。{v_xing_qi_ji}")),
        reasons={"ji.xing_qi": gettext_lazy("星期鸡")},
        phrases={"xing_qi": Phrase(pgettext_lazy("settlement item", "星期鸡"), "{term} {0} ×{1}")}),  # tile, count
    Option("chong_feng_claimed", gettext_lazy("冲锋鸡归碰杠的人"), YES_NO, "house"),
    Option("chong_feng_pays", gettext_lazy("没叫的冲锋鸡反赔"), YES_NO, "house"),
    Option("dealer_bonus_win_only", gettext_lazy("庄家加番只算庄家胡"), YES_NO, "house",
           help=gettext_lazy("庄家付别人的胡牌钱时不多付。"), rule=Rule("R66", gettext_noop(
               "庄家加番、连庄（R59）只在庄家胡的时候算：庄家付别人的胡牌钱不多付。{v_dealer_bonus_win_only}"))),
    Option("ze_ren_every", gettext_lazy("碰杠哪张幺鸡都算责任鸡"), YES_NO, "house",
           help=gettext_lazy("不只第一张：碰杠了别人打的幺鸡，打的人都付责任鸡。"), rule=Rule("R67", gettext_noop(
               "不只第一张幺鸡：一家碰或杠了别人打出的幺鸡（记下了是谁打的），打出的人都付它责任鸡，"
               "番数和谁收照 R23（金鸡照 R23、R54）。第一张只算一次。{v_ze_ren_every}"))),
    Option("wu_gu_ji_to_ready", gettext_lazy("没叫打出的乌骨鸡也付"), YES_NO, "house",
           help=gettext_lazy("鸡只从没叫的流向有叫的、又算乌骨鸡时：没叫的人打出去的 8筒 跟幺鸡一样按张付。"),
           rule=Rule("R68", gettext_noop(
               "鸡只从没叫的流向有叫的（R50）、又算乌骨鸡（R44）时：没叫的人打出去的 8筒 跟它打出去的幺鸡一样，"
               "按张付给每个有叫的人（金乌骨鸡照 R44 算）。包鸡时已经算在包鸡里。{v_wu_gu_ji_to_ready}"))),
    Option("discard_pool", gettext_lazy("没叫的合付打出的幺鸡"), YES_NO, "house",
           help=gettext_lazy("鸡只从没叫的流向有叫的时：没叫的人打出去的幺鸡合在一起，每个没叫的都按总数付。"),
           rule=Rule("R69", gettext_noop(
               "鸡只从没叫的流向有叫的（R50）时，没叫的人打出去的幺鸡（R68 时连 8筒）不是各付各的，而是合在一起："
               "每个没叫的人都按所有没叫的人打出去的总数，付给每个有叫的人。被烧的不算在内。包鸡时不用这一条。"
               "{v_discard_pool}")),
           phrases={"discard_pool": Phrase(pgettext_lazy("settlement item", "没叫的合付"))}),  # follows the pooled chickens
    Option("chong_feng_wu_gu_ji", gettext_lazy("冲锋乌骨鸡"), YES_NO, "house",
           help=gettext_lazy("算乌骨鸡时，第一张打出的 8筒 也是冲锋鸡（没人碰杠）或责任鸡（被碰杠），"
                             "番数按幺鸡的乘乌骨鸡的番数。记录里要记下第一张 8筒 谁打的。"),
           rule=Rule("R70", gettext_noop(
               "算乌骨鸡（R44）时，这一局第一张打出去的 8筒（记录里记下谁打的）跟第一张幺鸡一样："
               "没人碰杠就是打出的人的冲锋乌骨鸡，算冲锋鸡的番数乘乌骨鸡的番数（金乌骨鸡时用冲锋金鸡的番数），"
               "代替它平常的算法（冲锋鸡另加时另加）；被碰杠了，打出的人付碰杠的人责任乌骨鸡：责任鸡的番数乘乌骨鸡的番数"
               "（金乌骨鸡时照 R23、R54 翻倍）。谁收照 R24、R50。冲锋鸡归碰杠的人、没叫的冲锋鸡反赔（R65）"
               "不用在它上面。{v_chong_feng_wu_gu_ji}")),
           phrases={
               "chong_feng_wu_gu_ji": Phrase(pgettext_lazy("settlement item", "冲锋乌骨鸡")),
               "chong_feng_wu_gu_ji_gold": Phrase(pgettext_lazy("settlement item", "冲锋金乌骨鸡")),
               "ze_ren_wu_gu_ji": Phrase(pgettext_lazy("settlement item", "责任乌骨鸡")),
               "ze_ren_wu_gu_ji_gold": Phrase(pgettext_lazy("settlement item", "责任金乌骨鸡"))}),
]
OPTION = {option.name: option for option in OPTIONS}


def _add_house_words() -> None:
    """The house rules' phrases and reason titles join the one vocabulary (words.py), which every
    item's words are read from; a code given twice is a mistake, not an override."""
    for option in OPTIONS:
        for table, rows in ((PHRASES, option.phrases), (REASON_TITLES, option.reasons)):
            if clash := table.keys() & rows.keys():
                raise ValueError(f"{option.name}: {sorted(clash)} already have words")
            table.update(rows)


_add_house_words()


def option_lines(rules: RuleSet, *, summary: bool = False) -> list[tuple[str, str]]:
    """The options as (name, words) lines a player checks at a glance. The evening's `summary`
    (R41) keeps the main lines and whatever differs from the preset; the rules page shows all."""
    changed = rules.options()
    return [(str(option.title), option.text(getattr(rules, option.name))) for option in OPTIONS
            if not summary or option.main or option.name in changed]


def changed_lines(rules: RuleSet) -> list[tuple[str, str]]:
    """Only what differs from the preset, in words: the receipt's 改过的选项."""
    changed = rules.options()
    return [(str(option.title), option.text(getattr(rules, option.name))) for option in OPTIONS
            if option.name in changed]


def changed_in_words(rules: RuleSet) -> str:
    """What differs from the preset as one line: 自摸：每家付 牌型×2；见豆三：每个豆都算 3 番."""
    # Translators: "；" separates the changed options, "{name}：{words}" is one of them.
    return _("；").join(_("{name}：{words}").format(name=name, words=words) for name, words in changed_lines(rules))


def places_with(name: str, value: Any) -> list[str]:
    """The presets whose rules give `name` this value (in the reader's language)."""
    return [str(PRESET_TITLES[key]) for key, rules in PRESETS.items() if getattr(rules, name) == value]
