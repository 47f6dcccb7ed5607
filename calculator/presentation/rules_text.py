"""规则原文: RULES.md in Chinese, one entry per rule number, filled in from a RuleSet.

Each rule is (number, title, text); `{…}` in a text is filled from `rule_words(rules)`, so the
rules page of a preset states that preset's values, in words. The rules page renders this list
with one template and an anchor per number (R16 → #R16), which result lines link to.

Every option's name and its values in a few words are `options.OPTIONS`; the rules page's
overview and the evening's summary print them from there. A house rule of one option keeps its
text in its row there (`Option.rule`); the page puts it among these by number (`ALL_RULES`).

The texts are marked with `gettext_noop` and translated when the page is built, so the page
reads in the language the player picked (the msgids stay the Chinese original).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ..scoring import PATTERN_HANZI, PRESETS, RuleSet
from .options import OPTION, OPTIONS, changed_lines, option_lines
from .options import points as _points
from .settlement import pattern_title, preset_title

SECTIONS = {
    "R1": gettext_noop("一、牌和人"),
    "R5": gettext_noop("二、手牌和牌型"),
    "R9": gettext_noop("三、怎么结算"),
    "R11": gettext_noop("四、胡"),
    "R16": gettext_noop("五、豆（杠）"),
    "R19": gettext_noop("六、鸡"),
    "R30": gettext_noop("七、报听"),
    "R33": gettext_noop("八、荒庄和查叫"),
    "R36": gettext_noop("九、罚"),
    "R40": gettext_noop("十、结算单和一晚的账"),
    "R44": gettext_noop("十一、家规：各地桌上的变体（各地规则里都不用，开一晚时可以选）"),
}

RULES: list[tuple[str, str, str]] = [
    ("R1", gettext_noop("一副牌"),
     gettext_noop("108 张：万、筒、条三门，每门 1 到 9，每种四张。没有字牌，没有花牌，不能吃。")),
    ("R2", gettext_noop("写法"),
     gettext_noop("数字在前、花色字母在后：m 万，p 筒，s 条。123m55p 就是 1万 2万 3万 5筒 5筒；空格不算，"
                  "也可以一张一张写（1m 2m）。幺鸡写作 1s。录入时也可以直接写 5万、3筒、7条。")),
    ("R3", gettext_noop("座位"),
     gettext_noop("三人或四人。座位按出牌顺序排：东、南、西、北，下一家是下家，上一家是上家。有一家是庄家。"
                  "“其余每家”指其他所有人：三人局两家付，四人局三家付。")),
    ("R4", gettext_noop("番和钱"),
     gettext_noop("番数都是整数。钱 = 番数 × 底注（底注可以是 0.5、5 这样的数）。")),
    ("R5", gettext_noop("手牌"),
     gettext_noop("一家的牌 = 手里的牌 + 碰、杠。数牌时杠按三张算。胡的人 14 张（胡的那张算在手里），"
                  "其他人 13 张。")),
    ("R6", gettext_noop("胡牌"),
     gettext_noop("14 张凑成四组加一对（一组是同门三张连号，或三张一样；碰杠都算一组），"
                  "或者没有碰杠的七对（四张一样算两对）。")),
    ("R7", gettext_noop("牌型"),
     gettext_noop("按能读成的最好的一种牌型算，牌型不叠加：{patterns}。")),
    ("R8", gettext_noop("有叫（听牌）"),
     gettext_noop("13 张的牌再来某一张就能胡，就是有叫。自己已经拿了四张的那种牌不算叫。"
                  "叫的番数是所有叫里最大的牌型番数，报了听的再加报听的番。胡的人算有叫；相公永远没叫。")),
    ("R9", gettext_noop("结算单"),
     gettext_noop("结算是一条一条的“谁付谁几番、为什么”，每条都注明规则号。每条都是转账，"
                  "所以一局的输赢加起来一定是零。付款表是每两家之间的合计；净输赢 = 收到的 − 付出的。")),
    ("R10", gettext_noop("结算顺序"),
     gettext_noop("有人胡：先算胡（R11–R15），再算报听（R30–R32）、豆（R16–R18）、鸡（R19–R25），"
                  "最后算罚（R36–R37）。荒庄只算查叫（R33）和罚。")),
    ("R11", gettext_noop("点胡"),
     gettext_noop("胡别人打的牌：点炮的一家独付胡牌番数 V（牌型番数，报了听的加报听番）。"
                  "一炮多响时点炮的人分别付给每个胡的人，每家的豆和鸡照常算。")),
    ("R12", gettext_noop("自摸"),
     gettext_noop("自摸时其余每家付 {self_draw}。杠上开花（杠后补的牌自摸）每家再多付 {kong_bloom}。")),
    ("R13", gettext_noop("热炮"),
     gettext_noop("杠后打出的第一张牌就点了炮：点炮的人付 V，{hot_shot_bonus}；{hot_shot_burn}。"
                  "点炮的人该付给别人的照付。")),
    ("R14", gettext_noop("抢杠"),
     gettext_noop("胡的是别人补杠（加杠）的那张：这个杠不算数。{robbed_kong}；{robbed_kong_burn}。"
                  "被抢的那一家记成原来的碰。")),
    ("R15", gettext_noop("通行证"),
     gettext_noop("{pass_dou}热炮、抢杠、胡报听的人打的牌都不用通行证，平胡以上的牌型也不用。"
                  "报听不算牌型：报了听的平胡胡别人打的牌照样要通行证。不合这条的胡会被拒绝。")),
    ("R16", gettext_noop("豆的番数"),
     gettext_noop("闷豆（暗杠）其余每家付 {dou_men}；转弯豆（爬坡豆，碰了以后自己摸到第四张）其余每家付 "
                  "{dou_zhuanwan}；点豆（杠别人打的牌）由打出那张的人付 {dou_dian}。{jian_dou_san}")),
    ("R17", gettext_noop("憨包豆"),
     gettext_noop("闷豆或转弯豆没有在摸到第四张的那一轮杠出来，晚杠的叫憨包豆：不收钱，但仍然算通行证。")),
    ("R18", gettext_noop("谁收豆"),
     gettext_noop("豆只在有人胡的时候算，荒庄不算。{dou_collectors}。被烧的一家（R13、R14）什么都不收。")),
    ("R19", gettext_noop("翻牌鸡"),
     gettext_noop("有人胡了以后，如果还有牌，就从牌墙翻一张牌：{turned_chicken}。没有翻牌就没有翻牌鸡。")),
    ("R20", gettext_noop("鸡算谁的"),
     gettext_noop("鸡算拿着它的人的：手里的牌和碰杠都算。打出去的牌：{chicken_discards}。")),
    ("R21", gettext_noop("幺鸡"),
     gettext_noop("幺鸡（1条）永远是鸡，每张算 1。{yaoji_concealed}金鸡：幺鸡同时又是翻牌鸡时，每张幺鸡算 "
                  "{gold} 倍。{gold_discards}")),
    ("R22", gettext_noop("冲锋鸡"),
     gettext_noop("{chong_feng}")),
    ("R23", gettext_noop("责任鸡"),
     gettext_noop("{ze_ren}")),
    ("R24", gettext_noop("谁收鸡"),
     gettext_noop("收鸡的一家，其余每家按它的鸡数每只付 1 番。{chicken_collectors}。被烧的一家不收也不付。")),
    ("R25", gettext_noop("数鸡"),
     gettext_noop("鸡是数出来的，不是报的：每家的鸡数从它的手牌、碰杠和记下的打出的牌算出来，"
                  "录入时不用填鸡的数目。")),
    ("R30", gettext_noop("报听"),
     gettext_noop("第一次出牌后可以报听：硬报（起手就听）算 {declare_hard} 番，软报（摸了一张后听）算 "
                  "{declare_soft} 番。报了以后牌不能再换。报听的人胡了，报听的番加到胡牌番数 V 上。")),
    ("R31", gettext_noop("杀报"),
     gettext_noop("报了听的人打出的牌（或被抢的杠）被别人胡了，除了 V 还要另付那个胡的人报听的番数。"
                  "{declare_kill_self_draw}")),
    ("R32", gettext_noop("报听必须有叫"),
     gettext_noop("报了听牌却没有叫，记录会被拒绝。")),
    ("R33", gettext_noop("查叫"),
     gettext_noop("牌摸完没人胡（荒庄）：不算豆，不算鸡。如果都有叫或者都没叫，谁也不付；"
                  "否则没叫的每一家付给每一家有叫的它的叫的番数（R8）。")),
    ("R34", gettext_noop("荒庄后谁坐庄"),
     gettext_noop("{draw_dealer}")),
    ("R35", gettext_noop("胡牌后谁坐庄"),
     gettext_noop("胡的人坐庄。一炮多响时：{multi_win_dealer}。")),
    ("R36", gettext_noop("过水（包牌）"),
     gettext_noop("有叫的人让一张能胡的牌过去了，在自己再摸牌之前不能胡别人打的牌。记成“过水”的胡不算胡："
                  "胡牌的人反过来付其余每家 V，这就是这一局全部的结算（不算豆，不算鸡），庄家不变。")),
    ("R37", gettext_noop("相公"),
     gettext_noop("牌数不对（多牌少牌）的一家是相公：不能胡，不收钱，也不算有叫。不论怎么结束，"
                  "相公付其余每家 2 番；如果那一家有叫，改付它的叫的番数（胡的人付 V）。"
                  "荒庄时这代替相公的查叫。")),
    ("R40", gettext_noop("结算单"),
     gettext_noop("每一局的结果：每条付款、付款表、每家的净输赢（番和钱）、每家的牌（胡了、有叫、没叫，"
                  "牌型、番数、叫哪几张）和下一局的庄家。记录有错就整局不算，把每个问题都列出来。")),
    ("R41", gettext_noop("一晚"),
     gettext_noop("一晚开始时定下人、座位、底注和规则。每一局都存下记录、结算和当时的规则，"
                  "以后改规则不会改掉已经算过的局。总账是各局相加。")),
    ("R42", gettext_noop("改局"),
     gettext_noop("改一局只重算那一局，总账跟着变。每次改动都留底：谁、什么时候、改前、改后。")),
    ("R43", gettext_noop("散场结账"),
     gettext_noop("用最少的转账让每个人两清。")),
    ("R44", gettext_noop("乌骨鸡"), gettext_noop("{wu_gu_ji}")),
    ("R45", gettext_noop("自摸不加番"),
     gettext_noop("有的桌自摸其余每家只付 V（不加 1），也有的付 2V + 1。放在 R12 的“自摸”选项里。{v_self_draw}")),
    ("R46", gettext_noop("抢杠怎么付"),
     gettext_noop("被抢杠的一家独付：(家数 − 1) × V（不加自摸的 1），或 4V，或 V + 1。放在 R14 的“抢杠”选项里。"
                  "{v_robbed}")),
    ("R47", gettext_noop("热炮翻倍"),
     gettext_noop("热炮的点炮者付 2V（“热炮”选项，R13）。那个杠算不算照 R13 的烧法。{v_hot_shot}")),
    ("R48", gettext_noop("本鸡"),
     gettext_noop("翻出来的那张本身就是鸡（翻到 1条 就是金鸡），可以只算本鸡，也可以本鸡和下一张都算"
                  "（“翻牌鸡”选项，R19）。{v_ben_ji}")),
    ("R50", gettext_noop("鸡只从没叫的流向有叫的"),
     gettext_noop("有叫的人之间不互相付鸡：每个有叫的（胡了的也算）只向每个没叫的收它的鸡；都有叫就谁也不付鸡。"
                  "没叫的人打出去的幺鸡，按张付给每个有叫的人（包鸡时已经算在包鸡里）。责任鸡只由没叫的人付。"
                  "谁收鸡的选项（R24）这时只看有没有叫。有叫的人的冲锋鸡也算它的鸡，只由没叫的人付；"
                  "有的桌（“冲锋鸡其余每家都付”）其余每家都付给它，有叫的也付。{v_chicken_flow}")),
    ("R53", gettext_noop("封顶"),
     gettext_noop("一局里一家付给另一家的合计（两家之间互相抵过以后）最多到封顶的番数，多出来的退回，单列一条。"
                  "荒庄和罚也算在内，最后才算。{v_cap}")),
    ("R59", gettext_noop("庄家加番、连庄"),
     gettext_noop("庄家胡了，每个付它的人多付；庄家付别人的胡牌钱也多付：多 {dealer_bonus}，"
                  "庄家每多连一庄再多 {dealer_streak_bonus}（连了几庄由这一晚记下，存在每一局里）。"
                  "庄家抢杠胡了，被抢的一家替其余每家付，多付（家数 − 1）份。{v_dealer}")),
    ("R60", gettext_noop("单钓（大吊车）"),
     gettext_noop("四组都碰了杠了，手里只剩一张单钓它的对子，胡了是单钓：{dan_diao}；一门的清单钓（双清）：{qing_dan_diao}。"
                  "比大对子、清大对大时按它算，牌型照样不叠加，怎么付照 R11–R14。{v_dan_diao}")),
    ("R61", gettext_noop("多龙七对"),
     gettext_noop("七对里有两个或三个四张一样：双龙七对 {shuang_long}、三龙七对 {san_long}；一门的清双龙七对 "
                  "{qing_shuang_long}、清三龙七对 {qing_san_long}（比龙七对、清龙七对每多一个四张一样加 {duo_long}）。"
                  "{v_duo_long}")),
    ("R62", gettext_noop("天胡、地胡"),
     gettext_noop("庄家起手 14 张就胡是天胡，闲家第一次摸牌就自摸是地胡（记录里勾上“天胡/地胡”）："
                  "其余每家付天胡 {tian_hu}、地胡 {di_hu}，不管牌型。这就是每家付的全部：不再加自摸的 1、报听或杠上开花"
                  "（习惯“33 + 自摸”的桌，天胡要定成 34）。没定这个数的，牌型番数再加 {tian_di_bonus}，"
                  "照自摸付。{v_tian_di}")),
    ("R63", gettext_noop("开局跟"),
     gettext_noop("庄家打的第一张，其余每家的第一张都跟着打了同一张（记录里勾上“开局跟”）：庄家付其余每家 {gen_zhuang}。"
                  "不管这局怎么结束（荒庄、过水、相公也一样），封顶照算。{v_gen_zhuang}")),
    ("R65", gettext_noop("冲锋鸡归碰杠的人、没叫的冲锋鸡反赔"),
     gettext_noop("第一张幺鸡被人碰杠了，冲锋鸡（金鸡时冲锋金鸡）算碰杠的人的，照它的鸡收，责任鸡照算。"
                  "碰杠的人不收鸡（没叫、被烧、相公）又不包鸡时，它不付冲锋鸡：冲锋鸡还是打出的人的，打出的人收鸡就收。"
                  "{v_chong_feng_claimed}"
                  "冲锋鸡的主人没叫（没被烧），付给每个收鸡的人冲锋鸡的番数（包鸡时已经算在包鸡里）。"
                  "{v_chong_feng_pays}")),
]

# A house rule's text is in its row of options.OPTIONS (`rule`): the page puts it in its place by number.
ALL_RULES = sorted([*RULES, *((o.rule.number, o.rule.title or o.title, o.rule.text) for o in OPTIONS if o.rule)],
                   key=lambda rule: int(rule[0][1:]))
HOUSE_OFF = {f.name: f.default for f in dataclasses.fields(RuleSet) if f.default is not dataclasses.MISSING}

IN_USE = gettext_noop("（本规则用这一条。）")
NOT_IN_USE = gettext_noop("（本规则不用这一条。）")


def rule_words(rules: RuleSet) -> dict[str, str]:
    """Every `{…}` of `RULES`, in words, for this RuleSet, in the active language."""
    r = rules
    dou = {kind: _points(r.dou_value(kind)) for kind in ("men", "zhuanwan", "dian")}
    gold = r.gold
    return {
        # Translators: "、" separates the patterns; "{pattern} {points}" is one of them.
        "patterns": _("、").join(
            _("{pattern} {points}").format(pattern=pattern_title(key), points=_points(value))
            for key, value in sorted(r.patterns.items(), key=lambda kv: (kv[1], list(PATTERN_HANZI).index(kv[0])))
        ),
        "self_draw": {"plus_one": _("V + 1 番"), "double": _("2V（翻倍）"), "plain": _("V 番（不加）"),
                      "double_plus_one": _("2V + 1 番")}[r.self_draw],
        "kong_bloom": _points(r.kong_bloom_bonus) if r.kong_bloom_bonus else _("0 番（不另加）"),
        "hot_shot_bonus": {"one": _("再加 1 番"),
                           "kong_total": _("再加那个杠的全部豆钱（每家的豆钱 × 其余家数，点豆就是那一份）"),
                           "none": _("不另加"), "double": _("再加 V 番，一共 2V")}[r.hot_shot_bonus],
        "hot_shot_burn": {"kong": _("那个杠不收豆钱"),
                          "all": _("点炮的人的豆和鸡全部作废（烧光）")}[r.hot_shot_burn],
        "robbed_kong": {"pay_all": _("被抢的一家独自包付其余各家自摸时该付的总数：(家数 − 1) × 自摸番（包三家）"),
                        "qing_yi_se": _("被抢的一家付一次，按胡牌番数和清一色（{points}）中较大的算").format(
                            points=_points(r.patterns["qing_yi_se"])),
                        "pay_all_plain": _("被抢的一家独付 (家数 − 1) × V，不加自摸的 1"),
                        "four_v": _("被抢的一家独付 4V"),
                        "v_plus_one": _("被抢的一家独付 V + 1")}[r.robbed_kong],
        "robbed_kong_burn": {"none": _("被抢的一家照常收豆收鸡"),
                             "all": _("被抢的一家豆和鸡全部作废（烧光）")}[r.robbed_kong_burn],
        "pass_dou": {"any": _("平胡要胡别人打的牌，手里必须有豆（任何豆，憨包豆也算）作通行证，没有就只能自摸。"),
                     "men_or_zhuanwan": _("平胡要胡别人打的牌，必须有闷豆或转弯豆作通行证（点豆不算），"
                                          "没有就只能自摸。"),
                     "off": _("本规则不要通行证，平胡也可以胡别人打的牌。")}[r.pass_dou],
        "dou_men": dou["men"], "dou_zhuanwan": dou["zhuanwan"], "dou_dian": dou["dian"],
        "jian_dou_san": (_("（{name}：{words}。）").format(name=OPTION["jian_dou_san"].title,
                                                         words=OPTION["jian_dou_san"].text(True))
                         if r.jian_dou_san else ""),
        "dou_collectors": {"ready": _("只有胡了的和有叫的人收豆"), "all": _("每一家都收豆")}[r.dou_collectors],
        "turned_chicken": {"next": _("翻出来那张的下一张（同一门，9 接 1）是鸡，比如翻 5万，6万 是鸡"),
                           "swing": _("摇摆鸡：翻出来那张的上一张和下一张都是鸡（两头都转圈），"
                                      "比如翻 2筒，1筒 和 3筒 是鸡"),
                           "none": _("本规则不算翻牌鸡"),
                           "self": _("本鸡：翻出来的那张本身是鸡，比如翻 5万，5万 是鸡"),
                           "self_next": _("本鸡和下一张都是鸡，比如翻 5万，5万 和 6万 是鸡")}[r.turned_chicken],
        "chicken_discards": {"all": _("满堂鸡，打出去的鸡牌也算打出的人的"),
                             "yaoji": _("只有打出去的幺鸡算打出的人的，别的鸡打出去就不算"),
                             "none": _("打出去的鸡都不算（冲锋鸡除外）")}[r.chicken_discards],
        "yaoji_concealed": (_("本规则手里藏着的幺鸡每张算 {n}，碰杠的每张算 1（碰 3，杠 4），打出去的算 1。").format(
                                n=r.yaoji_concealed) if r.yaoji_concealed != 1 else ""),
        "gold": str(gold),
        "gold_discards": _("打出去的幺鸡也翻倍。") if r.gold_discards else _("只有拿着的幺鸡翻倍，打出去的不翻。"),
        "chong_feng": (_("这一局第一张打出去的幺鸡如果没人碰杠，算打出的人的冲锋鸡：算 {cf}，"
                         "是金鸡时算 {cfg}，代替它平常的算法。").format(cf=r.chong_feng, cfg=r.chong_feng_gold)
                       if r.chong_feng else _("本规则没有冲锋鸡：第一张打出的幺鸡按 R20 照常算。")),
        "ze_ren": (_("第一张打出去的幺鸡被人碰或杠了：鸡算碰杠的人的；如果碰杠的人收鸡，打出的人再付他 "
                     "{points}（金鸡时 {gold_points}）。").format(points=_points(r.ze_ren),
                                                            gold_points=_points(r.ze_ren * gold))
                   if r.ze_ren else _("本规则没有责任鸡：第一张幺鸡被碰杠了，只算碰杠的人拿着的鸡。")),
        "chicken_collectors": {"ready": _("只有胡了的和有叫的人收鸡，没叫的人的鸡不算"),
                               "all": _("每一家都收鸡"),
                               "ready_or_pay": _("包鸡：只有胡了的和有叫的人收鸡；没叫的人反过来按自己的鸡数"
                                                 "付给每个收鸡的人")}[r.chicken_collectors],
        "wu_gu_ji": (_("8筒 也是固定的鸡（乌骨鸡），每张算 {n}：手里的、碰杠的都算，打出去的跟别的鸡一样按 R20 算，"
                       "但不算冲锋鸡和责任鸡。翻牌让 8筒 也成了翻牌鸡（比如翻 7筒）时是金乌骨鸡，每张算 {gold} 倍，"
                       "打出去的翻不翻倍跟幺鸡一样（R21）；它不再另算翻牌鸡。").format(n=r.wu_gu_ji, gold=r.gold)
                     if r.wu_gu_ji else _("本规则不算乌骨鸡：8筒 只有翻牌让它成鸡时才是鸡。")),
        "declare_hard": str(r.declare["hard"]), "declare_soft": str(r.declare["soft"]),
        "declare_kill_self_draw": (_("别人自摸时，每个报了听的人再多付胡的人 {points}。").format(
                                       points=_points(r.declare_kill_self_draw))
                                   if r.declare_kill_self_draw else _("别人自摸时报听的人不另付。")),
        **variant_words(r),
        "draw_dealer": {"stay": _("荒庄后庄家不变。"),
                        "anshun": _("没人有叫或都有叫：庄家不变；只有一家没叫（三人桌两家有叫也是）：没叫的那一家坐庄；"
                                    "只有一家有叫：它坐庄；四人桌两家有叫：庄家有叫就连庄，否则从庄家往下第一个有叫的坐庄。"),
                        "xingyi": _("没人有叫或都有叫：庄家不变；只有一家没叫（三人桌两家有叫也是）：没叫的那一家坐庄；"
                                    "只有一家有叫：它的上家坐庄；四人桌两家有叫：庄家的上家坐庄。")}[r.draw_dealer],
        "multi_win_dealer": {"guiyang": _("三家胡就是点炮的人坐庄；两家胡是从庄家起按顺序第一个胡的人坐庄"),
                             "discarder": _("点炮的人坐庄"),
                             "after_discarder": _("点炮的人之后按顺序第一个胡的人坐庄")}[r.multi_win_dealer],
    }


def _points_set(n: int) -> str:
    """A house rule's number in its text: n 番, or, where these rules leave it at 0 (off), the
    number a table sets when it plays it (not "多 0 番", which reads as a rule worth nothing)."""
    return _points(n) if n else _("定好的番数")


def _long_points(r: RuleSet, base: str, extra: int) -> str:
    """双龙七对 … in R61's text: its points, or, where these rules do not play it, that it counts as
    (清)龙七对 — not "双龙七对 20 番" beside 不用这一条, which read as a rule that pays nothing more."""
    if r.duo_long:
        return _points(r.patterns[base] + extra * r.duo_long)
    words = _("同龙七对（{points}）") if base == "long_qi_dui" else _("同清龙七对（{points}）")
    return words.format(points=_points(r.patterns[base]))


def _in_use(on: bool, how: str = "") -> str:
    return (_(IN_USE) + how) if on else _(NOT_IN_USE)


def variant_words(r: RuleSet) -> dict[str, str]:
    """Whether these rules play each house-rule variant (R45–R70), for the rules page:
    `v_<option>` for every 家规 option (played when away from its default, which is off) and
    `<option>`, its value in words, for a rule of options.OPTIONS; then what a rule of several
    options or with numbers says beyond that."""
    return {
        **{f"v_{option.name}": _in_use(getattr(r, option.name) != HOUSE_OFF[option.name])
           for option in OPTIONS if option.section == "house"},
        **{option.name: option.text(getattr(r, option.name)) for option in OPTIONS if option.rule},
        "v_self_draw": _in_use(r.self_draw in ("plain", "double_plus_one")),
        "v_robbed": _in_use(r.robbed_kong in ("pay_all_plain", "four_v", "v_plus_one")),
        "v_hot_shot": _in_use(r.hot_shot_bonus == "double"),
        "v_ben_ji": _in_use(r.turned_chicken in ("self", "self_next")),
        "v_chicken_flow": _in_use(r.flows_to_ready, _("有叫的人的冲锋鸡其余每家都付。")
                                  if r.chicken_flow == "to_ready_chong_feng_all" else ""),
        "v_cap": _in_use(bool(r.cap), _("封顶 {points}。").format(points=_points(r.cap))),
        "v_dealer": _in_use(bool(r.dealer_bonus or r.dealer_streak_bonus)),
        "dealer_bonus": _points_set(r.dealer_bonus), "dealer_streak_bonus": _points_set(r.dealer_streak_bonus),
        "v_dan_diao": _in_use(bool(r.dan_diao or r.qing_dan_diao)),
        "dan_diao": _points(r.dan_diao) if r.dan_diao else _("不算，按大对子"),
        "qing_dan_diao": _points(r.qing_dan_diao) if r.qing_dan_diao else _("不算，按清大对"),
        "duo_long": _points_set(r.duo_long),
        "v_tian_di": _in_use(bool(r.tian_hu or r.di_hu or r.tian_di_bonus)),
        "gen_zhuang": _points_set(r.gen_zhuang),
        "tian_hu": _points_set(r.tian_hu), "di_hu": _points_set(r.di_hu), "tian_di_bonus": _points_set(r.tian_di_bonus),
        **{name: _long_points(r, base, extra) for name, base, extra in (
            ("shuang_long", "long_qi_dui", 1), ("san_long", "long_qi_dui", 2),
            ("qing_shuang_long", "qing_long_qi_dui", 1), ("qing_san_long", "qing_long_qi_dui", 2))},
    }


def rules_in_words(rules: RuleSet) -> list[tuple[str, str]]:
    """The evening's rules for its header and report: the preset, then the summary lines."""
    return [(_("规则"), _("{place}规则").format(place=preset_title(rules.preset))),
            *option_lines(rules, summary=True)]


def rules_headline(rules: RuleSet) -> str:
    """A short label for the header: 贵阳 · 自定 2 项."""
    label = preset_title(rules.preset)
    if changed := rules.options():
        label += " · " + _("自定 {n} 项").format(n=len(changed))
    return label


def changed_text(rules: RuleSet) -> str:
    """What these rules change from their preset, by name: "" when they are the preset's."""
    changed = changed_lines(rules)
    if not changed:
        return ""
    names = _("、").join(name for name, _words in changed)
    return _("在{preset}规则上改了：{names}").format(preset=preset_title(rules.preset), names=names)


@dataclass(frozen=True)
class RuleText:
    number: str
    title: str
    text: str


@dataclass(frozen=True)
class RuleSection:
    title: str
    rules: list[RuleText]


@dataclass(frozen=True)
class RulesPage:
    preset: str
    preset_name: str
    presets: list[tuple[str, str, bool]]  # key, name, whether this page states exactly that preset
    sections: list[RuleSection]
    options: list[tuple[str, str]]
    changed: str  # what differs from the preset ("" for the preset itself)


def rules_page(rules: RuleSet) -> RulesPage:
    """Every rule of RULES.md for this RuleSet, grouped, plus the overview of its options."""
    words = rule_words(rules)
    sections: list[RuleSection] = []
    for number, title, text in ALL_RULES:
        if number in SECTIONS:
            sections.append(RuleSection(_(SECTIONS[number]), []))
        sections[-1].rules.append(RuleText(number, _(str(title)), _(text).format_map(words)))
    changed = changed_text(rules)
    presets = [(key, preset_title(key), key == rules.preset and not changed) for key in PRESETS]
    return RulesPage(rules.preset, preset_title(rules.preset), presets, sections, option_lines(rules), changed)
