"""规则: the rule options and the three regional presets of RULES §9, as data.

A house rule is a field here and a row in each preset, never an `if preset == …` elsewhere.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from .problems import Problem, problem
from .problems import gettext_noop as _

PATTERNS_STANDARD = {
    "ping_hu": 1,
    "da_dui_zi": 5,
    "xiao_qi_dui": 10,
    "qing_yi_se": 10,
    "qing_da_dui": 15,
    "qing_qi_dui": 20,
    "long_qi_dui": 20,
    "qing_long_qi_dui": 30,
}

# Options whose value is one word out of a fixed set.
CHOICES: dict[str, tuple[str, ...]] = {
    "self_draw": ("plus_one", "double", "plain", "double_plus_one"),  # the last two: R45
    "hot_shot_bonus": ("one", "kong_total", "none", "double"),  # double: R47
    "hot_shot_burn": ("kong", "all"),
    "robbed_kong": ("pay_all", "qing_yi_se", "pay_all_plain", "four_v", "v_plus_one"),  # the last three: R46
    "robbed_kong_burn": ("none", "all"),
    "pass_dou": ("any", "men_or_zhuanwan", "off"),
    "dou_collectors": ("ready", "all"),
    "turned_chicken": ("next", "swing", "none", "self", "self_next"),  # 本鸡: R48
    "chicken_discards": ("all", "yaoji", "none"),
    "chicken_collectors": ("ready", "all", "ready_or_pay"),
    "multi_win_dealer": ("guiyang", "discarder", "after_discarder"),
    "draw_dealer": ("stay", "anshun", "xingyi"),
    # House-rule variants (VARIANTS.md, R45 on): off in every preset.
    "bao_ji": ("all", "shown"),  # R49
    "chicken_flow": ("all", "to_ready", "to_ready_chong_feng_all"),  # R50
    "dian_payer": ("feeder", "konger"),  # R57
}
# Options that map fixed keys to whole points.
POINT_MAPS: dict[str, tuple[str, ...]] = {
    "patterns": tuple(PATTERNS_STANDARD),
    "dou_values": ("men", "zhuanwan", "dian"),
    "declare": ("hard", "soft"),
}
MAX_POINTS = 10_000  # far above any real house rule; keeps hostile options from exploding sums


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RuleSet:
    """Every option of RULES §9. Build one with `rules_for(preset, options)`."""

    preset: str
    patterns: Mapping[str, int] = field(default_factory=lambda: _frozen(PATTERNS_STANDARD))
    self_draw: str = "plus_one"
    kong_bloom_bonus: int = 1
    hot_shot_bonus: str = "one"
    hot_shot_burn: str = "kong"
    robbed_kong: str = "pay_all"
    robbed_kong_burn: str = "none"
    pass_dou: str = "any"
    dou_values: Mapping[str, int] = field(default_factory=lambda: _frozen({"men": 2, "zhuanwan": 3, "dian": 1}))
    jian_dou_san: bool = False
    dou_collectors: str = "ready"
    turned_chicken: str = "next"
    chicken_discards: str = "all"
    yaoji_concealed: int = 1
    gold: int = 2
    gold_discards: bool = True
    chong_feng: int = 2
    chong_feng_gold: int = 4
    ze_ren: int = 1
    chicken_collectors: str = "ready"
    declare: Mapping[str, int] = field(default_factory=lambda: _frozen({"hard": 20, "soft": 10}))
    declare_kill_self_draw: int = 0
    multi_win_dealer: str = "guiyang"
    draw_dealer: str = "stay"
    # House-rule variants (R45–R70): the defaults are the presets' own rules, so presets keep their results.
    bao_ji: str = "all"
    chicken_flow: str = "all"
    chong_feng_on_top: bool = False
    dou_reverse: bool = False
    cap: int = 0
    ze_ren_gold: bool = True
    chui_feng: bool = False
    declare_kill_by_kind: bool = False
    dian_payer: str = "feeder"
    declare_floor: bool = False
    dealer_bonus: int = 0
    dealer_streak_bonus: int = 0
    wu_gu_ji: int = 0  # 乌骨鸡 (R44): what each 8筒 is worth as a chicken; 0 = not a chicken
    dan_diao: int = 0  # 单钓/大吊车 (R60): the value of four melds and a pair wait; 0 = not a pattern
    qing_dan_diao: int = 0  # 清单钓/双清 (R60): the same in one suit; 0 = not a pattern
    duo_long: int = 0  # 多龙七对 (R61): what each four of a kind past the first adds to 龙七对; 0 = off
    tian_hu: int = 0  # 天胡 (R62): what each other seat pays the dealer winning on its first 14; 0 = off
    di_hu: int = 0  # 地胡 (R62): the same for a non-dealer self-drawing its first draw; 0 = off
    tian_di_bonus: int = 0  # R62's other reading: added to V (0 = off); a fixed value above wins
    gen_zhuang: int = 0  # 开局跟 (R63): what the dealer pays each other seat when followed; 0 = off
    xing_qi_ji: bool = False  # 星期鸡 (R64): the tiles of the round's weekday's rank are chickens
    chong_feng_claimed: bool = False  # R65: a claimed first 幺鸡 is still a 冲锋鸡, its claimer's
    chong_feng_pays: bool = False  # R65: a 冲锋鸡 holder that is not ready pays each collector its worth
    # Issue 21's sub-variants (R66 on): off in every preset.
    dealer_bonus_win_only: bool = False  # R66: 庄家加番 / 连庄 on the dealer's win only, never on its loss
    ze_ren_every: bool = False  # R67: 责任鸡 also for a claimed 幺鸡 that was not the first
    wu_gu_ji_to_ready: bool = False  # R68: under R50 a not-ready seat's discarded 8筒 pay like its 幺鸡
    discard_pool: bool = False  # R69: under R50 not-ready seats pay for each other's discarded 幺鸡, pooled
    chong_feng_wu_gu_ji: bool = False  # R70: under 乌骨鸡 the first 8筒 is a 冲锋鸡 / 责任鸡 like the first 幺鸡

    @cached_property
    def hand_patterns(self) -> Mapping[str, int]:
        """R7's pattern values with the house-rule patterns this set plays (R60, R61): what hands
        are read against. A house pattern with no value here is never a reading."""
        extra = {}
        if self.dan_diao:
            extra["dan_diao"] = self.dan_diao
        if self.qing_dan_diao:
            extra["qing_dan_diao"] = self.qing_dan_diao
        if self.duo_long:
            for fours, name in ((2, "shuang_long_qi_dui"), (3, "san_long_qi_dui")):
                extra[name] = self.patterns["long_qi_dui"] + (fours - 1) * self.duo_long
                extra[f"qing_{name}"] = self.patterns["qing_long_qi_dui"] + (fours - 1) * self.duo_long
        return _frozen({**self.patterns, **extra}) if extra else self.patterns

    def dou_value(self, kind: str) -> int:
        """见豆三 makes every 豆 worth 3 (R16)."""
        return 3 if self.jian_dou_san else self.dou_values[kind]

    @property
    def flows_to_ready(self) -> bool:
        """R50: chickens flow only from not-ready to ready seats (either value of it)."""
        return self.chicken_flow != "all"

    @property
    def allows_mei_jiao(self) -> bool:
        """没叫（没亮牌）: whether a not-ready seat may be recorded without its concealed tiles.

        True when only ready seats collect 豆 and 鸡 and there is no 包鸡 (R18, R24): then a
        not-ready seat's concealed tiles cannot change a single payment, so nobody has to show them.
        """
        return self.dou_collectors == "ready" and self.chicken_collectors == "ready"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, as stored with every round (R41)."""
        # Not dataclasses.asdict: it deep-copies, and the frozen point maps cannot be copied.
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for name in POINT_MAPS:
            data[name] = dict(getattr(self, name))
        return data

    def options(self) -> dict[str, Any]:
        """Only the options that differ from the preset, as a round record's `options`."""
        base = PRESETS[self.preset].to_dict()
        return {k: v for k, v in self.to_dict().items() if k != "preset" and base[k] != v}


PRESETS: dict[str, RuleSet] = {
    "guiyang": RuleSet(preset="guiyang"),
    "anshun": RuleSet(
        preset="anshun",
        self_draw="double",
        kong_bloom_bonus=0,
        hot_shot_bonus="kong_total",
        hot_shot_burn="all",
        robbed_kong_burn="all",
        pass_dou="men_or_zhuanwan",
        dou_values=_frozen({"men": 2, "zhuanwan": 1, "dian": 1}),
        turned_chicken="swing",
        chicken_discards="none",
        chong_feng_gold=3,
        ze_ren=0,
        declare=_frozen({"hard": 10, "soft": 10}),
        declare_kill_self_draw=10,
        multi_win_dealer="discarder",
        draw_dealer="anshun",
    ),
    "xingyi": RuleSet(
        preset="xingyi",
        patterns=_frozen({**PATTERNS_STANDARD, "qing_long_qi_dui": 40}),
        hot_shot_bonus="none",
        hot_shot_burn="all",
        robbed_kong="qing_yi_se",
        robbed_kong_burn="all",
        chicken_discards="yaoji",
        yaoji_concealed=2,
        gold_discards=False,
        chong_feng=0,
        chong_feng_gold=0,
        ze_ren=0,
        declare=_frozen({"hard": 10, "soft": 10}),
        declare_kill_self_draw=10,
        multi_win_dealer="after_discarder",
        draw_dealer="xingyi",
    ),
}

_INT_OPTIONS = {
    f.name for f in dataclasses.fields(RuleSet) if f.type in ("int", int)
}
_BOOL_OPTIONS = {f.name for f in dataclasses.fields(RuleSet) if f.type in ("bool", bool)}


def _is_points(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_POINTS


def _check_option(name: str, value: Any) -> Any:
    """The option's value in RuleSet form, or raise ValueError with a reason."""
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise ValueError(_("只能是 {choices}").format(choices=" / ".join(CHOICES[name])))
        return value
    if name in POINT_MAPS:
        if not isinstance(value, Mapping) or not set(value) <= set(POINT_MAPS[name]):
            raise ValueError(_("要把 {keys} 对应到番数").format(keys=" / ".join(POINT_MAPS[name])))
        if not all(_is_points(v) for v in value.values()):
            raise ValueError(_("番数要是 0 到 10000 的整数"))
        return value
    if name in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise ValueError(_("只能是 true 或 false"))
        return value
    if name in _INT_OPTIONS:
        if not _is_points(value):
            raise ValueError(_("要是 0 到 10000 的整数"))
        return value
    raise ValueError(_("没有这个选项"))


def rules_for(preset: str, options: Mapping[str, Any] | None = None) -> tuple[RuleSet | None, list[Problem]]:
    """The preset with `options` laid over it, or the problems (`bad_option`) that stop it."""
    if preset not in PRESETS:
        return None, [problem("bad_option", _("没有这个规则预设：{preset}。"), field="preset", preset=preset)]
    base = PRESETS[preset]
    changes: dict[str, Any] = {}
    problems: list[Problem] = []
    for name, value in (options or {}).items():
        if name == "preset":
            continue
        try:
            checked = _check_option(name, value)
        except ValueError as reason:
            problems.append(
                problem("bad_option", _("规则选项 {name} 不对：{reason}。"), field="options", name=name, reason=str(reason))
            )
            continue
        if name in POINT_MAPS:
            checked = _frozen({**getattr(base, name), **checked})
        changes[name] = checked
    if problems:
        return None, problems
    return dataclasses.replace(base, **changes), []


def ruleset_from_dict(data: Mapping[str, Any]) -> RuleSet:
    """Rebuild a stored RuleSet (R41); raises ValueError when the data is not a valid one."""
    rules, problems = rules_for(data.get("preset", ""), {k: v for k, v in data.items() if k != "preset"})
    if problems or rules is None:
        raise ValueError("; ".join(p.message for p in problems))
    return rules
