"""RULES §9 and §10: the three presets, option by option, and how options are laid over a preset."""
from __future__ import annotations

import pytest

from calculator.scoring import PRESETS, rules_for

PATTERNS = {"ping_hu": 1, "da_dui_zi": 5, "xiao_qi_dui": 10, "qing_yi_se": 10, "qing_da_dui": 15,
            "qing_qi_dui": 20, "long_qi_dui": 20, "qing_long_qi_dui": 30}

# The §9 table, column by column.
TABLE = {
    "patterns": (PATTERNS, PATTERNS, {**PATTERNS, "qing_long_qi_dui": 40}),
    "self_draw": ("plus_one", "double", "plus_one"),
    "kong_bloom_bonus": (1, 0, 1),
    "hot_shot_bonus": ("one", "kong_total", "none"),
    "hot_shot_burn": ("kong", "all", "all"),
    "robbed_kong": ("pay_all", "pay_all", "qing_yi_se"),
    "robbed_kong_burn": ("none", "all", "all"),
    "pass_dou": ("any", "men_or_zhuanwan", "any"),
    "dou_values": ({"men": 2, "zhuanwan": 3, "dian": 1}, {"men": 2, "zhuanwan": 1, "dian": 1},
                   {"men": 2, "zhuanwan": 3, "dian": 1}),
    "jian_dou_san": (False, False, False),
    "dou_collectors": ("ready", "ready", "ready"),
    "turned_chicken": ("next", "swing", "next"),
    "chicken_discards": ("all", "none", "yaoji"),
    "yaoji_concealed": (1, 1, 2),
    "gold": (2, 2, 2),
    "gold_discards": (True, True, False),
    "chong_feng": (2, 2, 0),
    "chong_feng_gold": (4, 3, 0),
    "ze_ren": (1, 0, 0),
    "chicken_collectors": ("ready", "ready", "ready"),
    "declare": ({"hard": 20, "soft": 10}, {"hard": 10, "soft": 10}, {"hard": 10, "soft": 10}),
    "declare_kill_self_draw": (0, 10, 10),
    "multi_win_dealer": ("guiyang", "discarder", "after_discarder"),
    "draw_dealer": ("stay", "anshun", "xingyi"),
    # §10, the house-rule variants (R45–R56): no preset plays one.
    "bao_ji": ("all", "all", "all"),
    "chicken_flow": ("all", "all", "all"),
    "chong_feng_on_top": (False, False, False),
    "dou_reverse": (False, False, False),
    "cap": (0, 0, 0),
    "ze_ren_gold": (True, True, True),
    "chui_feng": (False, False, False),
    "declare_kill_by_kind": (False, False, False),
    "dian_payer": ("feeder", "feeder", "feeder"),
    "declare_floor": (False, False, False),
    "dealer_bonus": (0, 0, 0),
    "dealer_streak_bonus": (0, 0, 0),
    "wu_gu_ji": (0, 0, 0),  # R44, a project rule: off in every preset
    "dan_diao": (0, 0, 0),  # R60
    "qing_dan_diao": (0, 0, 0),
    "duo_long": (0, 0, 0),  # R61
    "tian_hu": (0, 0, 0),  # R62
    "di_hu": (0, 0, 0),
    "tian_di_bonus": (0, 0, 0),
    "gen_zhuang": (0, 0, 0),  # R63
    "xing_qi_ji": (False, False, False),  # R64
    "chong_feng_claimed": (False, False, False),  # R65
    "chong_feng_pays": (False, False, False),
    "dealer_bonus_win_only": (False, False, False),  # R66
    "ze_ren_every": (False, False, False),  # R67
    "wu_gu_ji_to_ready": (False, False, False),  # R68
    "discard_pool": (False, False, False),  # R69
    "chong_feng_wu_gu_ji": (False, False, False),  # R70
}


@pytest.mark.parametrize("option", sorted(TABLE))
@pytest.mark.parametrize("column, preset", [(0, "guiyang"), (1, "anshun"), (2, "xingyi")])
def test_preset_values_are_those_of_section_9(option, column, preset):
    value = getattr(PRESETS[preset], option)
    assert (dict(value) if isinstance(TABLE[option][column], dict) else value) == TABLE[option][column]


def test_every_option_of_the_ruleset_is_in_the_table():
    assert set(PRESETS["guiyang"].to_dict()) - {"preset"} == set(TABLE)


def test_options_override_single_values_and_merge_point_maps():
    rules, problems = rules_for("anshun", {"jian_dou_san": True, "dou_values": {"zhuanwan": 3},
                                           "patterns": {"ping_hu": 2}})
    assert problems == []
    assert rules.jian_dou_san is True and rules.dou_value("men") == 3  # 见豆三
    assert dict(rules.dou_values) == {"men": 2, "zhuanwan": 3, "dian": 1}
    assert rules.patterns["ping_hu"] == 2 and rules.patterns["qing_yi_se"] == 10
    assert rules.options() == {"jian_dou_san": True, "dou_values": {"men": 2, "zhuanwan": 3, "dian": 1},
                               "patterns": {**PATTERNS, "ping_hu": 2}}


@pytest.mark.parametrize("preset, options", [
    ("shanghai", {}),
    ("guiyang", {"draw_dealer": "random"}),
    ("guiyang", {"gold": -1}),
    ("guiyang", {"declare": {"hard": "20"}}),
    ("guiyang", {"turned_chicken": None}),
])
def test_bad_options_are_reported(preset, options):
    rules, problems = rules_for(preset, options)
    assert rules is None
    assert [p.code for p in problems] == ["bad_option"]
