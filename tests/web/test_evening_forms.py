"""The evening form's rule choices: every option of RULES §9 from presentation.options, each value
with the places whose preset uses it, worked out from scoring.PRESETS rather than written by hand;
a blank field keeps the preset's value and only what the player changes becomes an option."""
from __future__ import annotations

import dataclasses

import pytest
from django.utils import translation

from calculator.forms import AS_PRESET, EveningForm
from calculator.scoring import PRESETS, RuleSet
from calculator.scoring.rules import CHOICES, POINT_MAPS

NAMES = {"player_0": "东哥", "player_1": "南姐", "player_2": "西西", "player_3": "", "stake": "1",
         "preset": "anshun", "first_dealer": "0"}


def test_the_form_asks_for_every_option_of_the_rules():
    fields = set(EveningForm().fields)
    for option in dataclasses.fields(RuleSet):
        if option.name in POINT_MAPS:
            assert {f"{option.name}__{key}" for key in POINT_MAPS[option.name]} <= fields, option.name
        elif option.name != "preset":
            assert option.name in fields, option.name


def test_blank_fields_keep_the_preset_and_filled_ones_are_the_changes():
    plain = EveningForm(NAMES)
    assert plain.is_valid(), plain.errors
    assert plain.options() == {} and plain.changed_options() == 0
    form = EveningForm({**NAMES, "jian_dou_san": "yes", "gold_discards": "no", "ze_ren": "3",
                        "declare__hard": "15", "self_draw": AS_PRESET})
    assert form.is_valid(), form.errors
    assert form.options() == {"jian_dou_san": True, "gold_discards": False, "ze_ren": 3, "declare": {"hard": 15}}
    assert form.changed_options() == 4
    assert not EveningForm({**NAMES, "ze_ren": "-1"}).is_valid()


@pytest.mark.parametrize("option", list(CHOICES))
def test_each_value_names_exactly_the_presets_that_use_it(option):
    choices = dict(EveningForm().fields[option].choices)
    assert list(choices) == [AS_PRESET, *CHOICES[option]]
    for value in CHOICES[option]:
        places = "、".join(name for key, name in (("guiyang", "贵阳"), ("anshun", "安顺"), ("xingyi", "兴义"))
                          if getattr(PRESETS[key], option) == value)
        label = str(choices[value])
        assert label.endswith(f"（{places}）") if places else "（" not in label, (value, label)


def test_the_annotations_follow_the_presets(monkeypatch):
    def labels() -> dict[str, str]:
        return {value: str(label) for value, label in EveningForm().fields["chicken_collectors"].choices}

    assert labels()["ready"] == "有叫的才收鸡（贵阳、安顺、兴义）"  # all three: no hand-written label said so
    assert labels()["all"] == "不管有没有叫都收鸡"

    monkeypatch.setitem(PRESETS, "anshun", dataclasses.replace(PRESETS["anshun"], chicken_collectors="all"))

    assert labels()["ready"] == "有叫的才收鸡（贵阳、兴义）" and labels()["all"] == "不管有没有叫都收鸡（安顺）"


def test_the_choices_read_in_english_with_a_capital_and_plain_brackets():
    with translation.override("en"):
        labels = {value: str(label) for value, label in EveningForm().fields["turned_chicken"].choices}
    assert labels["next"] == "The tile after the turned one is a chicken (Guiyang, Xingyi)"
    assert labels["swing"] == "Swing chicken 摇摆鸡: the tiles on both sides (Anshun)"
