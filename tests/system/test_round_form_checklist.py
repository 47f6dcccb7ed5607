"""docs/CHANGING.md "A new field of the round form", made true by tests (issue 22): each step of a
new record field that the round trip of tests/system/test_checklists.py cannot see fails here.

- docs/RULES.md §3 names every key a round record can hold;
- some scoring module besides `scoring/record.py` reads every field of the parsed record;
- the round page draws every field of the round, seat and meld forms, for every seat;
- a correction that flips a record switch (相公, 没叫, 开局跟 …) says so in the history, by the
  switch's label, in both languages;
- a problem about a field of the seat form shows on that seat's card, one about a record switch
  of the round on the outcome card, not at the foot of the page.
"""
from __future__ import annotations

import copy
import dataclasses
import random
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

from calculator.entry import RoundEntry
from calculator.entry.forms import MeldForm, RoundForm, SeatForm
from calculator.presentation.changes import record_changes
from calculator.scoring import record as record_module
from calculator.scoring.problems import problem
from tests.round_form_data import load_example
from tests.system.test_checklists import _records

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["老王", "小李", "阿珍", "张哥"]


def _keys(value, found: set[str]) -> set[str]:
    """Every key of every object in a JSON-shaped value (an option's name is §9's business)."""
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            if key != "options":
                _keys(item, found)
    elif isinstance(value, list):
        for item in value:
            _keys(item, found)
    return found


def _section_3() -> str:
    text = (ROOT / "docs/RULES.md").read_text(encoding="utf-8")
    return text[text.index("## 3. The round record"):text.index("## 4. Settlement")]


def test_every_key_a_round_record_holds_is_named_in_rules_section_3():
    """Step 1: the record's field is written down where the record is (RULES §3), as `key` or as
    "key" in its example. The keys: those of stored random records (tests/scoring/random_rounds.py
    fills every field the form has, test_checklists makes sure) and every record switch."""
    keys = set(SeatForm.record_switches) | set(RoundForm.record_switches)
    for record, _ in zip(_records(random.Random(3)), range(300)):
        _keys(record, keys)
    section = _section_3()
    missing = sorted(key for key in keys if not re.search(rf'[`"]{key}\b', section))
    assert not missing, f"{missing}: say what the record field means in docs/RULES.md §3"


RECORD_CLASSES = (record_module.SeatRecord, record_module.RoundRecord, record_module.Outcome,
                  record_module.Winner, record_module.Meld, record_module.FirstYaoji)


def test_every_field_of_the_parsed_record_is_read_by_some_scoring_module():
    """Step 2: a field `scoring/record.py` parses and keeps is read where it counts (validate, a
    rule family, the analysis); one only parsed and written back changes nothing."""
    readers = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "calculator/scoring").glob("*.py")
                        if path.name != "record.py")
    unread = sorted(f"{cls.__name__}.{field.name}" for cls in RECORD_CLASSES for field in dataclasses.fields(cls)
                    if not re.search(rf"\.{field.name}\b", readers))
    assert not unread, f"{unread}: no scoring module reads it"


def test_every_field_of_the_round_form_is_drawn_on_the_round_page(client):
    """The page a player enters the round on draws every field, on every seat's card (a switch in
    the card's loop, `card_switches`; a field in a place of its own by its partial)."""
    html = client.get("/round/").content.decode()
    drawn = set(re.findall(r'<(?:input|select|textarea)\b[^>]*?\sname="([^"]+)"', html))
    expected = set(RoundForm.base_fields)
    for seat in range(4):
        expected |= {f"seat{seat}-{name}" for name in SeatForm.base_fields}
        expected |= {f"seat{seat}-melds-{row}-{name}" for row in range(4) for name in MeldForm.base_fields}
    assert not expected - drawn, f"{sorted(expected - drawn)}: not drawn on the round page"


def _flipped(where: str, switch: str) -> tuple[dict, dict]:
    before = load_example("E1")
    after = copy.deepcopy(before)
    target = after["seats"][1] if where == "seat" else after
    if target.get(switch):
        del target[switch]
    else:
        target[switch] = True
    return before, after


SWITCHES = [("seat", name) for name in SeatForm.record_switches] + [("round", name) for name in RoundForm.record_switches]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize(("where", "switch"), SWITCHES)
def test_a_correction_that_flips_a_record_switch_says_it_by_its_label(where, switch, language):
    """Step 3's history half: the round's one-line summaries do not say a switch, so the history does."""
    with translation.override(language):
        form = SeatForm if where == "seat" else RoundForm
        label = str(form.base_fields[switch].label)
        lines = record_changes(*_flipped(where, switch), NAMES)
        assert len(lines) == 1 and label in lines[0], (switch, lines)
        assert (NAMES[1] in lines[0]) == (where == "seat")
        yes, no = gettext("是"), gettext("否")
        assert lines[0].endswith((f"{no} → {yes}", f"{yes} → {no}")), lines  # 否 → 是, not 无 → 是


SEAT_FIELDS = [name for name in SeatForm.base_fields if name != "concealed"]  # the hand's own slot


@pytest.mark.parametrize("field", SEAT_FIELDS)
def test_a_problem_about_a_seat_field_shows_on_that_seats_card(field):
    entry = RoundEntry()
    entry._place(problem("bad_seat", "看一下这里。", seat=2, field=field))
    assert entry.seats[2].extra_slot.messages == ["看一下这里。"], field
    assert not entry.non_seat_problems


@pytest.mark.parametrize("field", RoundForm.record_switches)
def test_a_problem_about_a_round_switch_shows_on_the_outcome_card_where_it_is_drawn(field):
    entry = RoundEntry()
    entry._place(problem("bad_outcome", "看一下这里。", field=field))
    assert entry.slots_round["outcome"].messages == ["看一下这里。"], field
