"""The evening form's rule choices: the words of rules_text, each value with the places whose
preset uses it, worked out from scoring.PRESETS rather than written by hand."""
from __future__ import annotations

import dataclasses

import pytest
from django.utils import translation

from calculator.forms import AS_PRESET, EveningForm
from calculator.scoring import PRESETS
from calculator.scoring.rules import CHOICES

OPTION_FIELDS = EveningForm.OPTION_FIELDS


@pytest.mark.parametrize("option", OPTION_FIELDS)
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
