"""The game's words: one vocabulary for every page, form, receipt and report.

Keyed by scoring's codes (reason codes, pattern keys, meld kinds, presets, the phrases of an
item's `words`); each entry is the Chinese term, translated when shown (the msgids stay the
hanzi, so a missing English entry shows the term rather than a code). Forms draw their choice
labels from here too, so a word is written once wherever it appears.

`words_text(item.words)` is what an item was paid for, as one sentence in the reader's language:
清大对 15 + 报听 10，自摸 / One-suit triplets 清大对 15 + declaration 报听 10, self-draw 自摸.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy

from ..scoring import parse_tile

GROUP_TITLES = {
    "hu": gettext_lazy("胡"),
    "cha_jiao": gettext_lazy("查叫"),
    "bao": gettext_lazy("报听"),
    "dou": gettext_lazy("豆"),
    "ji": gettext_lazy("鸡"),
    "fa": gettext_lazy("罚"),
    "cap": gettext_lazy("封顶"),
}
STATUS_TITLES = {
    "won": gettext_lazy("胡了"),
    "ready": gettext_lazy("有叫"),
    "not_ready": gettext_lazy("没叫"),
}
MEI_JIAO_TITLE = gettext_lazy("没叫（没亮牌）")  # a not-ready seat recorded without its concealed tiles
# A house rule's reason titles and phrases are in its row of options.OPTIONS, which adds them here.
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

# Names the scoring engine keeps in hanzi (its data stays Chinese); shown in the reader's language.
PATTERN_TITLES = {
    "ping_hu": gettext_lazy("平胡"),
    "da_dui_zi": gettext_lazy("大对子"),
    "xiao_qi_dui": gettext_lazy("小七对"),
    "qing_yi_se": gettext_lazy("清一色"),
    "qing_da_dui": gettext_lazy("清大对"),
    "qing_qi_dui": gettext_lazy("清七对"),
    "long_qi_dui": gettext_lazy("龙七对"),
    "qing_long_qi_dui": gettext_lazy("清龙七对"),
}
# The house rules' patterns (R60, R61): not options of `patterns` (their values are options of their
# own), but read and shown like the others wherever the rules play them.
HOUSE_PATTERN_TITLES = {
    "dan_diao": gettext_lazy("单钓"),
    "qing_dan_diao": gettext_lazy("清单钓"),
    "shuang_long_qi_dui": gettext_lazy("双龙七对"),
    "qing_shuang_long_qi_dui": gettext_lazy("清双龙七对"),
    "san_long_qi_dui": gettext_lazy("三龙七对"),
    "qing_san_long_qi_dui": gettext_lazy("清三龙七对"),
}
ALL_PATTERN_TITLES = {**PATTERN_TITLES, **HOUSE_PATTERN_TITLES}
PRESET_TITLES = {"guiyang": gettext_lazy("贵阳"), "anshun": gettext_lazy("安顺"), "xingyi": gettext_lazy("兴义")}
TILE_NAMES = {"m": gettext_lazy("{rank}万"), "p": gettext_lazy("{rank}筒"), "s": gettext_lazy("{rank}条")}

SUIT_NAMES = {"m": gettext_lazy("万"), "p": gettext_lazy("筒"), "s": gettext_lazy("条")}
# Choice lists of the round form, in the order its menus offer them.
TILE_CHOICES = [  # 1万 … 9条, or 1-character … 9-bamboo in English
    (SUIT_NAMES[suit], [(f"{rank}{suit}", format_lazy(TILE_NAMES[suit], rank=rank)) for rank in range(1, 10)])
    for suit in ("m", "p", "s")
]
MELD_CHOICES = [("", "—"), ("pong", gettext_lazy("碰")), ("men", gettext_lazy("闷豆")),
                ("zhuanwan", gettext_lazy("转弯豆")), ("dian", gettext_lazy("点豆"))]
RESULT_CHOICES = [("discard", gettext_lazy("点炮")), ("self_draw", gettext_lazy("自摸")), ("draw", gettext_lazy("荒庄"))]
DECLARED_CHOICES = [("", gettext_lazy("没报")), ("hard", gettext_lazy("硬报")), ("soft", gettext_lazy("软报"))]


def chinese_page() -> bool:
    return (get_language() or "zh-hans").startswith("zh")


def tile_text(code: str) -> str:
    """A tile in notation ("9p") in the reader's language: 9筒, 9-dot."""
    tile = parse_tile(code)
    return str(TILE_NAMES[tile.suit]).format(rank=tile.rank)


# -- What an item was paid for: the phrases of scoring's `Item.words` --------------------------

@dataclass(frozen=True)
class Phrase:
    """How one phrase of an item's words reads.

    `layout` places the term and the phrase's arguments ({0}, {1}: numbers as they are, tiles
    by name; a term may place them itself, as 抢杠包{0}家 does). Given no arguments a phrase
    reads as its term alone. `attached` phrases follow the one before after a space, not a comma."""

    term: Promise
    layout: str = "{term}"
    attached: bool = False


PHRASES: dict[str, Phrase] = {
    **{key: Phrase(title, "{term} {0}") for key, title in ALL_PATTERN_TITLES.items()},  # 清大对 15
    "declared": Phrase(pgettext_lazy("settlement item", "报听"), "+ {term} {0}", attached=True),
    "self_draw": Phrase(pgettext_lazy("settlement item", "自摸")),
    "kong_bloom": Phrase(pgettext_lazy("settlement item", "杠上开花"), "{term} +{0}"),
    "robbed_pay_all": Phrase(pgettext_lazy("settlement item", "抢杠包{0}家")),
    "robbed_qing_yi_se": Phrase(pgettext_lazy("settlement item", "抢杠按清一色")),
    "robbed_pay_all_plain": Phrase(pgettext_lazy("settlement item", "抢杠包{0}家，不加 1")),  # R46
    "robbed_four_v": Phrase(pgettext_lazy("settlement item", "抢杠付 4 倍")),
    "robbed_v_plus_one": Phrase(pgettext_lazy("settlement item", "抢杠付 V+1")),
    "hot_shot": Phrase(pgettext_lazy("settlement item", "热炮"), "{term} +{0} ({1})"),  # bonus, kong's tile
    "bao_kill": Phrase(pgettext_lazy("settlement item", "杀报"), "{term} {0}"),  # no bonus: 杀报，自摸
    "pong": Phrase(pgettext_lazy("settlement item", "碰"), "{term} {0}"),
    "men": Phrase(pgettext_lazy("settlement item", "闷豆"), "{term} {0}"),
    "zhuanwan": Phrase(pgettext_lazy("settlement item", "转弯豆"), "{term} {0}"),
    "dian": Phrase(pgettext_lazy("settlement item", "点豆"), "{term} {0}"),
    "late": Phrase(pgettext_lazy("settlement item", "憨包豆"), "{term} {0}"),
    "yaoji": Phrase(pgettext_lazy("settlement item", "幺鸡"), "{term} ×{0}"),
    "gold": Phrase(pgettext_lazy("settlement item", "金鸡"), "{term} ×{0}"),
    "turned": Phrase(pgettext_lazy("settlement item", "翻牌鸡"), "{term} {0} ×{1}"),
    "chong_feng": Phrase(pgettext_lazy("settlement item", "冲锋鸡")),
    "chong_feng_gold": Phrase(pgettext_lazy("settlement item", "冲锋金鸡")),
    "ze_ren": Phrase(pgettext_lazy("settlement item", "责任鸡")),
    "ze_ren_gold": Phrase(pgettext_lazy("settlement item", "责任金鸡")),
    "bao_ji": Phrase(pgettext_lazy("settlement item", "包鸡"), "{term} {0}"),
    "cha_jiao": Phrase(pgettext_lazy("settlement item", "查叫")),
    "pass": Phrase(pgettext_lazy("settlement item", "过水包牌"), "{term} {0}"),
    "xiang_gong": Phrase(pgettext_lazy("settlement item", "相公"), "{term} {0}"),
}


def phrase_text(code: str, args: Sequence[int | str]) -> str:
    phrase = PHRASES[code]
    shown = [tile_text(a) if isinstance(a, str) else str(int(a)) for a in args]
    if not shown:  # a phrase without its numbers is its term alone: 杀报，自摸
        return str(phrase.term)
    return phrase.layout.format(*shown, term=str(phrase.term).format(*shown))


def words_text(words: Iterable[Sequence[int | str]]) -> str:
    """An item's words as one sentence in the reader's language (RULES-term by term)."""
    chinese = chinese_page()
    text = ""
    for code, *args in words:
        part = phrase_text(code, args)
        if text:
            text += " " if PHRASES[code].attached else "，" if chinese else ", "
        text += part
    return text if chinese else text[:1].upper() + text[1:]


# -- What did not count, and why: scoring's `Settlement.void`, (code, seat, why, *args) ---------

VOID_TEXTS = {
    "chong_feng": gettext_lazy("{name} 的冲锋鸡不算：{why}"),
    "ji": gettext_lazy("{name} 的鸡（{points} 番）不算：{why}"),
    "dou": gettext_lazy("{name} 的{kind} {tile}不算：{why}"),
    "chui_feng": gettext_lazy("翻牌 {tile} 是吹风鸡：这局的鸡都不算"),
}
VOID_WHY = {
    "not_ready": pgettext_lazy("void", "没叫"),
    "hot_shot": pgettext_lazy("void", "热炮，烧光"),
    "robbed": pgettext_lazy("void", "被抢杠，烧光"),
    "hot_kong": pgettext_lazy("void", "热炮的杠不算豆"),
    "late": pgettext_lazy("void", "憨包豆"),
    "xiang_gong": pgettext_lazy("void", "相公"),
    "chui_feng": pgettext_lazy("void", "吹风鸡"),
}
MELD_TITLES = dict(MELD_CHOICES[1:])
MELD_WORDS = {**MELD_TITLES, "late": gettext_lazy("憨包豆")}  # a meld by its `Meld.code`


VOID_ARGS = {"ji": ("points",), "dou": ("kind", "tile"), "chui_feng": ("tile",)}  # after (code, seat, why)


def void_fields(phrase: Sequence[int | str | None]) -> dict:
    """A `Settlement.void` phrase by name: code, seat, why, and its points (鸡), kind and tile (豆)
    or tile (吹风鸡). What the settlement JSON carries, and what `void_text` words."""
    code, seat, why, *args = phrase
    return {"code": code, "seat": seat, "why": why, **dict(zip(VOID_ARGS.get(code, ()), args, strict=True))}


def void_text(phrase: Sequence[int | str | None], names: Sequence[str]) -> str:
    """One thing that paid nothing, and why: 张哥 的冲锋鸡不算：没叫."""
    fields = void_fields(phrase)
    words = {"name": names[fields["seat"]] if fields["seat"] is not None else "", "why": str(VOID_WHY[fields["why"]])}
    if "points" in fields:
        words["points"] = fields["points"]
    if "kind" in fields:
        words["kind"] = str(MELD_TITLES[fields["kind"]])
    if "tile" in fields:
        words["tile"] = tile_text(fields["tile"])
    return str(VOID_TEXTS[fields["code"]]).format(**words)


def turned_text(turned: str, chickens: Sequence[str]) -> str:
    """Which tiles the 翻牌 made chickens (R19, R48): 翻牌 5万 → 鸡：6万; 1条 among them is 金鸡 (R21)."""
    if not chickens:
        return str(gettext_lazy("翻牌 {turned}：这局不翻鸡")).format(turned=tile_text(turned))
    names = [str(gettext_lazy("{tile}（金鸡）")).format(tile=tile_text(c)) if c == "1s" else tile_text(c)
             for c in chickens]
    return str(gettext_lazy("翻牌 {turned} → 鸡：{chickens}")).format(
        turned=tile_text(turned), chickens=("、" if chinese_page() else ", ").join(names))
