"""The checklists of docs/CHANGING.md, made true by tests (issue 22): a house rule, an item or a
reason that misses one of its steps fails here instead of becoming a 500 on a result page or an
option nobody can read about.

- Every item and every 不算 line of random settlements, every option drawn, reads in Chinese and
  in English from its own words: a PHRASES row, a REASON_TITLES title, a VOID_TEXTS / VOID_WHY
  sentence, with no placeholder left and no code shown instead of words.
- Every option, set away from its preset, changes what the rules page says (its rule's text or
  the overview of options), in both languages.
"""
from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from calculator.presentation.settlement import item_text, line_for
from calculator.presentation.words import REASON_TITLES, void_text
from calculator.presentation.rules_text import rules_page
from calculator.scoring import PRESETS, rules_for, settle_record
from tests.presentation.test_rules_text import FIELDS, another_value
from tests.scoring.random_rounds import random_record

SETTLEMENTS = 400
CODE = re.compile(r"\b[a-z]+(?:[._][a-z]+)+\b")  # hu.self_draw, chong_feng: a code, not words


def _random_settlements():
    rng = random.Random(22)
    for _ in range(SETTLEMENTS):
        yield settle_record(random_record(rng))


@pytest.mark.slow
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_every_item_and_void_line_of_random_settlements_reads_in_words(language):
    reasons, voids = set(), 0
    with translation.override(language):
        for settlement in _random_settlements():
            names = [seat.name for seat in settlement.record.seats]
            for item in settlement.items:
                assert item.reason in REASON_TITLES, f"{item.reason}: add its title to REASON_TITLES"
                text, line = item_text(item), line_for(item, names)
                for shown in (text, line.title, line.text):
                    assert shown and "{" not in shown and not CODE.search(shown), (item, shown)
                reasons.add(item.reason)
            for phrase in settlement.void:
                shown = void_text(phrase, names)
                assert shown and "{" not in shown and not CODE.search(shown), (phrase, shown)
                voids += 1
    assert len(reasons) >= 12 and voids > 0  # the sample reaches most kinds of payment


def _page_text(rules) -> str:
    page = rules_page(rules)
    rule_texts = [rule.text for section in page.sections for rule in section.rules]
    return "\n".join([*rule_texts, *(f"{k}：{v}" for k, v in page.options)])


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("option", FIELDS)
def test_every_option_away_from_its_preset_changes_what_the_rules_page_says(option, language):
    preset = PRESETS["guiyang"]
    rules, problems = rules_for("guiyang", {option: another_value(preset, option)})
    assert not problems
    with translation.override(language):
        assert _page_text(rules) != _page_text(preset), f"{option}: the rules page does not say it"
