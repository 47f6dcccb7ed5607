"""The live preview reads the round form's fields straight from the POST (`calculator.entry_fields`);
the submit binds Django's forms. On any data, both must find the same values, or both refuse."""
from __future__ import annotations

import pytest
from django.http import QueryDict
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from calculator.entry.post import clean_form, clean_meld_rows, meld_row_prefixes
from calculator.entry.record import seat_draft
from calculator.entry.forms import MeldFormSet, RoundForm, SeatForm

# What a page sends, what a tampered or half-broken one might: seats out of range, codes from the
# wrong field, unicode digits, NUL, case, blanks, text past the limits.
VALUES = ["", " ", "0", "1", "2", "3", "4", "-1", "01", "٠", "１", "1.0", "4.00 ", "x", "\x00", "1m\x00",
          "true", "false", "FALSE", "on", "off", "None", "1m", "9s", "5p", "0z", "10m", " 1m", "pong", "men",
          "dian", "zhuanwan", "Pong", "discard", "self_draw", "draw", "guiyang", "anshun", "xingyi", "hard",
          "soft", "1", "2.5", "123m456p789s1122z", "1m 2万 3筒", "甲" * 41, "1m" * 51, "5" * 21]
NAMES = ["东", "南", "西", "北"]
VALID_ROUND = {"preset": ["guiyang"], "stake": ["1"], "dealer": ["0"], "result": ["self_draw"], "winners": ["1"],
               "win_tile": ["2s"], "from_seat": [""], "name": ["甲"], "concealed": ["1m"], "discards": [""]}
VALID_MELDS = {"TOTAL_FORMS": ["4"], "INITIAL_FORMS": ["0"], "0-kind": ["pong"], "0-tile": ["3m"], "0-from_seat": ["2"],
               "1-kind": ["men"], "1-tile": ["9p"], "1-late": ["on"]}

values = st.one_of(st.sampled_from(VALUES), st.text(max_size=6))
field_data = st.dictionaries(st.sampled_from(
    [*RoundForm.base_fields, *SeatForm.base_fields]), st.lists(values, min_size=1, max_size=3), max_size=14)
meld_data = st.dictionaries(st.sampled_from(
    [f"{row}-{name}" for row in range(5) for name in ("kind", "tile", "from_seat", "late")]
    + ["TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS"]),
    st.lists(values, min_size=1, max_size=2), max_size=6)


def query(lists: dict[str, list[str]], prefix: str | None = None) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, items in lists.items():
        data.setlist(f"{prefix}-{name}" if prefix else name, items)
    return data


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists=field_data, seats=st.sampled_from([3, 4]), fixed_rules=st.booleans(), fixed_stake=st.booleans(),
       prefix=st.sampled_from([None, "round"]), from_valid=st.booleans())
def test_round_fields_clean_as_the_round_form_does(lists, seats, fixed_rules, fixed_stake, prefix, from_valid):
    data = query({**VALID_ROUND, **lists} if from_valid else lists, prefix)
    form = RoundForm(data, prefix=prefix, names=NAMES[:seats], fixed_rules=fixed_rules, fixed_stake=fixed_stake)
    fixed = RoundForm.fixed_fields(fixed_rules=fixed_rules, fixed_stake=fixed_stake)

    ours = clean_form(RoundForm, data, prefix, seats=seats, without=fixed)

    assert ours == (form.cleaned_data if form.is_valid() else None)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists=field_data, fixed_name=st.booleans(), from_valid=st.booleans())
def test_seat_fields_clean_as_the_seat_form_does(lists, fixed_name, from_valid):
    data = query({**VALID_ROUND, **lists} if from_valid else lists, "seat1")
    form = SeatForm(data, prefix="seat1", fixed_name=fixed_name)

    ours = clean_form(SeatForm, data, "seat1", seats=4, without=("name",) if fixed_name else ())

    assert ours == (form.cleaned_data if form.is_valid() else None)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists=meld_data, seats=st.sampled_from([3, 4]), from_valid=st.booleans())
@example(lists={"3-tile": [" "]}, seats=3, from_valid=True)  # a tile typed as a space is no tile (CI found it)
@example(lists={"1-tile": [" 5筒 "]}, seats=4, from_valid=False)
def test_meld_rows_clean_as_the_meld_formset_does(lists, seats, from_valid):
    data = query({**VALID_MELDS, **lists} if from_valid else lists, "seat0-melds")
    formset = MeldFormSet(data, prefix="seat0-melds", form_kwargs={"names": NAMES[:seats]})

    ours = clean_meld_rows(data, "seat0-melds", seats=seats)

    if not formset.is_valid():
        assert ours is None
        return
    assert ours == [(form.row, form.cleaned_data) for form in formset.forms if form.has_changed()]
    assert meld_row_prefixes(data, "seat0-melds") == [form.prefix for form in formset.forms]
    seat = {"concealed": "", "discards": "", "declared": "", "xiang_gong": False}
    theirs = seat_draft("东", seat, ((form.row, form.cleaned_data) for form in formset.forms))
    assert seat_draft("东", seat, ours) == theirs


def test_a_round_as_the_page_sends_it_reads_the_same_both_ways():
    data = query({"preset": ["anshun"], "stake": [" 2.5 "], "dealer": ["3"], "result": ["discard"],
                  "winners": ["0", "2"], "win_tile": ["5p"], "from_seat": ["1"], "hot_kong": [""],
                  "robbed": ["on"], "turned": ["9s"], "first_yaoji_seat": [""], "first_yaoji_claimed_by": [""]})

    ours = clean_form(RoundForm, data, None, seats=4)

    assert ours["stake"] == "2.5" and ours["dealer"] == 3 and ours["winners"] == [0, 2]
    assert ours["from_seat"] == 1 and ours["first_yaoji_seat"] is None and ours["robbed"] is True
    assert ours["after_kong"] is False and ours["turned"] == "9s"
    form = RoundForm(data, names=NAMES, fixed_rules=False, fixed_stake=False)
    assert form.is_valid() and ours == form.cleaned_data
