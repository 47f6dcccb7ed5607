"""The checklists of docs/CHANGING.md, made true by tests (issue 22): a house rule, an item or a
reason that misses one of its steps fails here instead of becoming a 500 on a result page or an
option nobody can read about.

- Every item and every 不算 line of random settlements, every option drawn, reads in Chinese and
  in English from its own words: a PHRASES row, a REASON_TITLES title, a VOID_TEXTS / VOID_WHY
  sentence, with no placeholder left and no code shown instead of words.
- Every option, set away from its preset, changes the text of a rule on the rules page (not only
  the overview of options), in both languages: a house rule without its `rule` text fails.
- The documents keep up: every option is in RULES.md's tables (§9, §10) and in GLOSSARY.md's table
  of options, and every rule the rules page states is a rule of RULES.md.
"""
from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import pytest
from django.utils import translation

from calculator.presentation.settlement import item_text, line_for
from calculator.presentation.options import OPTION
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


def _rule_texts(rules) -> str:
    return "\n".join(rule.text for section in rules_page(rules).sections for rule in section.rules)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("option", FIELDS)
def test_every_option_away_from_its_preset_changes_what_the_rules_page_says(option, language):
    preset = PRESETS["guiyang"]
    rules, problems = rules_for("guiyang", {option: another_value(preset, option)})
    assert not problems
    with translation.override(language):
        assert _rule_texts(rules) != _rule_texts(preset), f"{option}: no rule on the rules page says it"


# -- the documents: RULES.md and GLOSSARY.md name every option and every rule the page states ----

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("option", FIELDS)
def test_every_option_is_in_the_rules_spec_and_the_glossary(option):
    spec, glossary = (DOCS / "RULES.md").read_text(), (DOCS / "GLOSSARY.md").read_text()
    assert re.search(rf"^\| [^|]*`{option}`", spec, re.M), f"{option}: add its row to RULES.md §9 or §10"
    row = re.search(rf"^\| ([^|]+) \| `{option}` \|", glossary, re.M)
    assert row, f"{option}: add its row to GLOSSARY.md's table of options"
    with translation.override("zh-hans"):
        assert row.group(1) == str(OPTION[option].title), f"{option}: GLOSSARY.md names it as the forms do"


def test_every_rule_the_rules_page_states_is_a_rule_of_the_spec():
    spec = (DOCS / "RULES.md").read_text()
    numbers = [rule.number for section in rules_page(PRESETS["guiyang"]).sections for rule in section.rules]
    assert len(numbers) == len(set(numbers)), "a rule number is given twice"
    missing = [n for n in numbers if not re.search(rf"\*\*{n}\b|^#+ .*\({n}\)$", spec, re.M)]  # **R64, or a heading
    assert not missing, f"{missing}: the rules page states rules RULES.md does not have"


# -- a round-form field: the form draws it from a stored record and builds the record from it ----


def _posted_as_drawn(entry) -> dict:
    """What a browser posts back from `entry` drawn unchanged: each field's value as the page
    shows it (a switch that is off, a blank choice: absent), and each meld formset's management
    form."""
    data: dict = {}
    forms = [entry.round_form]
    for seat in entry.seats:
        forms += [seat.form, seat.melds.management_form, *seat.melds.forms]
    for form in forms:
        for bound in form:
            value = bound.value()
            if value is None or value is False or value in ("", []):  # not `in`: seat 0 == False
                continue
            if isinstance(value, (list, tuple)):
                data[bound.html_name] = [str(v) for v in value]
            else:
                data[bound.html_name] = "on" if value is True else str(value)
    return data


def _drawn_fields(data: dict) -> set[str]:
    """The fields a post holds something in, by name without its seat or row ("seat0-melds-1-tile"
    → "tile"; a formset's own counts left out)."""
    return {key.rsplit("-", 1)[-1] for key in data if not key.rsplit("-", 1)[-1].isupper()}


FROM_THE_EVENING = {"weekday": None, "dealer_streak": None}


def _records(rng: random.Random):
    """Random legal records, canonical as a round is stored; after each, where the rules allow
    it, the same round with its first seat that may be recorded 没叫 so recorded (random_rounds
    shows every hand)."""
    from calculator.scoring import RecordInvalid, check, parse_record

    while True:
        record = parse_record(random_record(rng)).to_dict()
        yield record
        parsed, analysis = check(record)
        winners = parsed.outcome.winner_seats
        for seat, (data, seen) in enumerate(zip(record["seats"], analysis)):
            if seat in winners or data.get("declared") or data.get("xiang_gong") or seen is None or seen.ready:
                continue
            variant = copy.deepcopy(record)
            variant["seats"][seat].update(concealed="", mei_jiao=True)
            try:
                check(variant)
            except RecordInvalid:  # the rules make every hand count here
                break
            yield parse_record(variant).to_dict()
            break


@pytest.mark.slow
def test_every_round_form_field_goes_from_a_stored_record_to_the_form_and_back_to_the_same_record():
    """Step 4 of a new round-form field (both directions of entry/record.py): a correction draws
    the stored record on the form, and the form posted unchanged builds the same record. Random
    legal records, every option drawn, until every field of the round, seat and meld forms has
    held something: a field the record never fills, or fills and never reads back, fails here."""
    from decimal import Decimal

    from calculator.entry import RoundEntry
    from calculator.entry.forms import MeldForm, RoundForm, SeatForm
    fixed = set(RoundForm.fixed_fields(fixed_rules=True, fixed_stake=True)) | {"name"}
    every = (set(RoundForm.base_fields) | set(SeatForm.base_fields) | set(MeldForm.base_fields)) - fixed
    seen: set[str] = set()
    for record, _ in zip(_records(random.Random(2212)), range(600)):
        rules, problems = rules_for(record["preset"], record.get("options") or {})
        assert not problems
        table = {"names": [seat["name"] for seat in record["seats"]], "rules": rules,
                 "stake": Decimal(str(record["stake"]))}
        drawn = RoundEntry(initial=record, **table)
        posted = _posted_as_drawn(drawn)
        again = RoundEntry(posted, **table)
        assert again.is_valid(), (record, [slot.messages for slot in again.slots if slot.messages])
        # Two facts of a record are the evening's, no field of the form: 星期鸡's day (R64) and
        # 连庄's streak (R59); services.rounds fills them from the evening when it stores a round.
        assert ("weekday" in again.record) == rules.xing_qi_ji
        assert {**again.record, **FROM_THE_EVENING} == {**record, **FROM_THE_EVENING}
        seen |= _drawn_fields(posted)
        if every <= seen:
            break
    assert every <= seen, f"no random record fills {sorted(every - seen)}: teach tests/scoring/random_rounds.py"


# -- the options no preset plays ------------------------------------------------------------------

# Options all three presets play alike that are still no house rule: the seeds name them as part
# of every region's rules (who collects 豆 and 鸡, 金鸡, 见豆三), and RULES §10 lists the others.
SHARED_BY_EVERY_PRESET = {"dou_collectors", "chicken_collectors", "gold", "jian_dou_san"}


def test_the_house_rules_section_lists_exactly_the_options_no_preset_plays():
    """A new house rule (R44 on) is off in every preset and shows under 家规 on the forms and the
    rules page; an option every preset leaves off that is not under 家规 is a forgotten step."""
    import dataclasses

    from calculator.presentation.options import OPTIONS
    from calculator.scoring.rules import RuleSet

    default = RuleSet(preset="")
    names = [field.name for field in dataclasses.fields(RuleSet) if field.name != "preset"]
    off_everywhere = {name for name in names
                      if all(getattr(preset, name) == getattr(default, name) for preset in PRESETS.values())}
    house = {option.name for option in OPTIONS if option.section == "house"}
    assert house <= off_everywhere, f"{sorted(house - off_everywhere)}: a preset plays it, so not 家规"
    assert off_everywhere - house == SHARED_BY_EVERY_PRESET, "an option no preset plays belongs under 家规"
    assert {option.name for option in OPTIONS} == set(names), "every RuleSet field has its OPTIONS row"
