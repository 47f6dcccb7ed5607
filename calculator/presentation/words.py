"""The game's words: one vocabulary for every page, form, receipt and report.

Keyed by scoring's codes (reason codes, pattern keys, meld kinds, presets); each entry is the
Chinese term, translated when shown (the msgids stay the hanzi, so a missing English entry shows
the term rather than a code). Forms draw their choice labels from here too, so a word is written
once wherever it appears.
"""
from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

GROUP_TITLES = {
    "hu": gettext_lazy("胡"),
    "cha_jiao": gettext_lazy("查叫"),
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
MEI_JIAO_TITLE = gettext_lazy("没叫（没亮牌）")  # a not-ready seat recorded without its concealed tiles
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
