"""The rules in words (calculator/rules_text.py): every option named, the evening's summary
states whatever differs from its preset, and the rules page states the rules it is given."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from calculator.presentation.rules_text import (
    CHOICE_WORDS, OPTION_NAMES, OVERVIEW, changed_text, overview, rules_headline, rules_in_words, rules_page,
)
from calculator.scoring import PRESETS, RuleSet, rules_for
from calculator.scoring.rules import CHOICES

OPTIONS = [f.name for f in dataclasses.fields(RuleSet) if f.name != "preset"]
LINE_OF = {option: name for name, options, _main in OVERVIEW for option in options}


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


def test_every_option_is_stated_by_exactly_one_line_of_the_overview():
    stated = [option for _name, options, _main in OVERVIEW for option in options]
    assert sorted(stated) == sorted(OPTIONS)
    assert [name for name, _options, _main in OVERVIEW] == list(OPTION_NAMES)


def test_every_value_of_a_worded_option_has_its_words():
    for option, words in CHOICE_WORDS.items():
        assert set(words) == set(CHOICES[option]), option


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("option", OPTIONS)
def test_the_evenings_summary_shows_every_option_that_differs_from_its_preset(preset, option):
    rules, problems = rules_for(preset, {option: another_value(PRESETS[preset], option)})
    assert not problems

    summary = dict(rules_in_words(rules))
    name = str(OPTION_NAMES[LINE_OF[option]])

    assert name in summary and summary[name] == dict(overview(rules))[name]
    assert summary[name] != dict(overview(PRESETS[preset]))[name]
    assert name in changed_text(rules)


def test_the_summary_of_a_preset_keeps_to_the_main_lines():
    summary = dict(rules_in_words(PRESETS["xingyi"]))
    main = {str(OPTION_NAMES[name]) for name, _options, is_main in OVERVIEW if is_main}
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
    ],
)
def test_options_the_summary_once_left_out_read_in_words(option, value, label, words):
    rules, _problems = rules_for("guiyang", {option: value})
    assert dict(rules_in_words(rules))[label].startswith(words)


def test_the_headline_counts_the_changes_beside_jian_dou_san():
    rules, _problems = rules_for("guiyang", {"jian_dou_san": True, "self_draw": "double", "gold": 3})
    assert rules_headline(PRESETS["anshun"]) == "安顺"
    assert rules_headline(rules) == "贵阳 · 见豆三 · 自定 2 项"
    assert changed_text(rules) == "在贵阳规则上改了：自摸、豆、金鸡"


def test_the_rules_page_states_the_rules_it_is_given():
    rules, _problems = rules_for("guiyang", {"self_draw": "double"})
    page = rules_page(rules)
    r12 = next(rule for section in page.sections for rule in section.rules if rule.number == "R12")

    assert "2V（翻倍）" in r12.text and "V + 1 番" not in r12.text
    assert dict(page.options)["自摸"].startswith("每家付 牌型×2")
    assert page.changed == "在贵阳规则上改了：自摸"
    assert not any(current for _key, _name, current in page.presets)  # not the plain 贵阳 page
    assert [current for _key, _name, current in rules_page(PRESETS["anshun"]).presets] == [False, True, False]
