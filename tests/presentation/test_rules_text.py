"""The rules in words (presentation/options.py, rules_text.py): every option named, the evening's summary
states whatever differs from its preset, and the rules page states the rules it is given."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from calculator.presentation.options import OPTION, OPTIONS, changed_in_words, option_lines
from calculator.presentation.rules_text import changed_text, rules_headline, rules_in_words, rules_page
from calculator.scoring import PRESETS, RuleSet, rules_for
from calculator.scoring.rules import CHOICES, POINT_MAPS

FIELDS = [f.name for f in dataclasses.fields(RuleSet) if f.name != "preset"]


def another_value(rules: RuleSet, option: str):
    """A valid value of `option` that differs from what `rules` have."""
    value = getattr(rules, option)
    if option in CHOICES:
        return next(v for v in CHOICES[option] if v != value)
    if isinstance(value, bool):
        return not value
    if isinstance(value, Mapping):
        key = next(iter(value))
        return {key: value[key] + 1}
    return value + 1


def test_the_options_table_has_one_row_per_ruleset_option_in_its_order():
    assert [option.name for option in OPTIONS] == FIELDS


def test_every_value_of_a_worded_option_has_its_words():
    for name in CHOICES:
        assert set(OPTION[name].words) == set(CHOICES[name]), name
    for name in POINT_MAPS:
        assert set(OPTION[name].keys) == set(POINT_MAPS[name]), name
    for name in FIELDS:
        if isinstance(getattr(PRESETS["guiyang"], name), bool):
            assert set(OPTION[name].words) == {True, False}, name


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("option", FIELDS)
def test_the_evenings_summary_shows_every_option_that_differs_from_its_preset(preset, option):
    rules, problems = rules_for(preset, {option: another_value(PRESETS[preset], option)})
    assert not problems

    summary = dict(rules_in_words(rules))
    name = str(OPTION[option].title)

    assert name in summary and summary[name] == dict(option_lines(rules))[name]
    assert summary[name] != dict(option_lines(PRESETS[preset]))[name]
    assert name in changed_text(rules)
    assert f"{name}：{summary[name]}" in changed_in_words(rules)  # the receipt's 改过的选项


def test_the_summary_of_a_preset_keeps_to_the_main_lines():
    summary = dict(rules_in_words(PRESETS["xingyi"]))
    main = {str(option.title) for option in OPTIONS if option.main}
    assert set(summary) == {"规则"} | main
    assert summary["规则"] == "兴义规则"
    assert changed_text(PRESETS["xingyi"]) == ""


@pytest.mark.parametrize(
    ("option", "value", "label", "words"),
    [
        ("hot_shot_burn", "all", "热炮烧什么", "点炮的人的豆和鸡全部作废（烧光）"),
        ("robbed_kong_burn", "all", "抢杠烧什么", "被抢的一家豆和鸡全部作废（烧光）"),
        ("dou_collectors", "all", "谁收豆", "每一家都收豆"),
        ("yaoji_concealed", 2, "手里的幺鸡", "每张算 2"),
        ("gold_discards", False, "打出的金鸡", "只有拿着的幺鸡翻倍，打出去的不翻。"),
        ("multi_win_dealer", "discarder", "一炮多响坐庄", "点炮的人坐庄"),
        ("patterns", {"ping_hu": 2}, "牌型番数", "平胡 2 番、大对子 5 番"),
        ("jian_dou_san", True, "见豆三", "每个豆都算 3 番"),
        ("kong_bloom_bonus", 0, "杠上开花", "0 番（不另加）"),
        ("ze_ren", 0, "责任鸡", "没有责任鸡"),
        ("dou_values", {"men": 3}, "豆", "闷豆 3 番、转弯豆 3 番、点豆 1 番"),
    ],
)
def test_options_the_summary_once_left_out_read_in_words(option, value, label, words):
    rules, _problems = rules_for("guiyang", {option: value})
    assert dict(rules_in_words(rules))[label].startswith(words)


def test_the_headline_counts_the_changes_and_the_receipt_says_them_in_words():
    rules, _problems = rules_for("guiyang", {"jian_dou_san": True, "self_draw": "double", "gold": 3})
    assert rules_headline(PRESETS["anshun"]) == "安顺"
    assert rules_headline(rules) == "贵阳 · 自定 3 项"
    assert changed_text(rules) == "在贵阳规则上改了：自摸、见豆三、金鸡"
    assert changed_in_words(rules) == "自摸：每家付 牌型×2；见豆三：每个豆都算 3 番；金鸡：×3"


def test_the_rules_page_states_the_rules_it_is_given():
    rules, _problems = rules_for("guiyang", {"self_draw": "double"})
    page = rules_page(rules)
    r12 = next(rule for section in page.sections for rule in section.rules if rule.number == "R12")

    assert "2V（翻倍）" in r12.text and "V + 1 番" not in r12.text
    assert dict(page.options)["自摸"].startswith("每家付 牌型×2")
    assert page.changed == "在贵阳规则上改了：自摸"
    assert not any(current for _key, _name, current in page.presets)  # not the plain 贵阳 page
    assert [current for _key, _name, current in rules_page(PRESETS["anshun"]).presets] == [False, True, False]


def test_a_house_rule_left_off_does_not_quote_its_numbers_as_zero():
    # 多 0 番 read as a rule worth nothing; off, the text names the number a table sets, and says
    # it is not played. Played, its own number is there.
    def text(rules, number):
        return next(r.text for s in rules_page(rules).sections for r in s.rules if r.number == number)

    for number in ("R59", "R62", "R63"):
        off = text(PRESETS["guiyang"], number)
        assert "0 番" not in off and "定好的番数" in off and "本规则不用这一条" in off, off
    played, problems = rules_for("guiyang", {"gen_zhuang": 4})
    assert not problems and "庄家付其余每家 4 番" in text(played, "R63")


def test_several_dragons_left_off_read_as_the_one_dragon_they_count_as():
    def r61(rules):
        return next(r.text for s in rules_page(rules).sections for r in s.rules if r.number == "R61")

    off = r61(PRESETS["guiyang"])  # 双龙七对 20 番 beside 不用这一条 read as a rule that pays nothing more
    assert "双龙七对 同龙七对（20 番）" in off and "一门的清双龙七对 同清龙七对（30 番）" in off and "本规则不用这一条" in off, off
    played, problems = rules_for("guiyang", {"duo_long": 5})
    assert not problems and "双龙七对 25 番、三龙七对 30 番" in r61(played)
