"""读表单: the round-entry forms' fields, cleaned straight from the POST without building forms.

The live preview answers every change on the round form, and binding Django's forms for it (13
forms, about 60 fields, each field copied per form) was most of its cost. The entry forms'
fields are few kinds — a switch, a choice, a seat, a tile, a line of text — so `clean_form`
cleans each field of a form class the way its Django class does, by the field's own widget,
choices and limits, and gives the same cleaned data, or None where the form would be invalid;
`clean_meld_rows` does the same for a seat's meld formset. The submit still binds the forms,
which the page draws with their errors: tests/entry/test_post.py holds the two to the same
answers on random and hostile data.
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.forms.formsets import INITIAL_FORM_COUNT, MAX_NUM_FORM_COUNT, MIN_NUM_FORM_COUNT, TOTAL_FORM_COUNT

from .forms import MAX_MELDS, MeldForm

Data = Any  # a QueryDict, or a dict as Django's forms accept


class _Invalid(Exception):
    """The form this field belongs to would not validate."""


def raw_value(form_class, name: str, data: Data, key: str) -> Any:
    """What a bound form's field `name` holds, read by its widget (`BoundField.value()` of a
    bound form)."""
    return form_class.base_fields[name].widget.value_from_datadict(data, {}, key)


def clean_form(form_class, data: Data, prefix: str | None, *, seats: int, without=()) -> dict | None:
    """The cleaned data a bound `form_class` would have, or None if it would not be valid.

    `seats`: how many players; the form's `seat_fields` offer one choice per seat. `without`:
    fields the form drops (those an evening fixes)."""
    cleaned = {}
    try:
        for name, field in form_class.base_fields.items():
            if name in without:
                continue
            key = f"{prefix}-{name}" if prefix else name
            value = field.widget.value_from_datadict(data, {}, key)
            if name in form_class.seat_fields:
                cleaned[name] = _seat(field, value, seats)
            else:
                cleaned[name] = _clean(field, value)
    except _Invalid:
        return None
    return cleaned


def clean_meld_rows(data: Data, prefix: str, *, seats: int) -> list[tuple[int, dict]] | None:
    """A seat's meld rows that hold anything, as (row, cleaned data), or None if the meld
    formset would not be valid. A row holding nothing is an extra form Django leaves uncleaned,
    and the record leaves out."""
    counts = _management(data, prefix)
    if counts is None or counts[TOTAL_FORM_COUNT] > MAX_MELDS:
        return None
    rows = []
    for row, row_prefix in enumerate(meld_row_prefixes(data, prefix)):
        if not any(_changed(field, field.widget.value_from_datadict(data, {}, f"{row_prefix}-{name}"))
                   for name, field in MeldForm.base_fields.items()):
            continue
        cleaned = clean_form(MeldForm, data, row_prefix, seats=seats)
        if cleaned is None:
            return None
        rows.append((row, cleaned))
    return rows


def meld_row_prefixes(data: Data, prefix: str) -> list[str]:
    """The field prefixes of the meld rows a bound formset builds: as many as its management
    form says, at most four."""
    try:
        total = _COUNT.clean(data.get(f"{prefix}-{TOTAL_FORM_COUNT}"))
    except ValidationError:
        total = 0
    return [f"{prefix}-{row}" for row in range(min(total, MAX_MELDS))]


# -- one field, as its Django class cleans it ---------------------------------------------------


def _clean(field: forms.Field, value: Any) -> Any:
    try:
        return field.clean(value)  # a class-level field: cleaning reads it and changes nothing
    except ValidationError:
        raise _Invalid from None


def _seat(field: forms.Field, value: Any, seats: int) -> Any:
    """A seat field: one choice per seat ("0", "1", …), blank allowed where not required."""
    codes = [str(i) for i in range(seats)]
    if isinstance(field, forms.MultipleChoiceField):
        if not value:
            return []
        if not isinstance(value, (list, tuple)) or any(str(v) not in codes for v in value):
            raise _Invalid
        return [int(v) for v in value]
    text = field.to_python(value)
    if text == "":
        if field.required:
            raise _Invalid
        return field.empty_value
    if text not in codes:
        raise _Invalid
    return int(text)


def _changed(field: forms.Field, value: Any) -> bool:
    """Whether a blank meld row's field holds something (`Field.has_changed` from no initial):
    as the field reads it, so a tile typed as a space is nothing, as Django finds."""
    if isinstance(field, forms.BooleanField):
        return field.to_python(value)
    try:
        value = field.to_python(value)
    except ValidationError:
        return True
    return value not in field.empty_values


# -- the formset's management form ---------------------------------------------------------------


_COUNT = forms.IntegerField()  # a management form's count; cleaning reads it and changes nothing
_OPTIONAL_COUNT = forms.IntegerField(required=False)


def _management(data: Data, prefix: str) -> dict[str, int] | None:
    """The management form's counts, or None where Django finds it missing or tampered with."""
    counts = {}
    for name, field in ((TOTAL_FORM_COUNT, _COUNT), (INITIAL_FORM_COUNT, _COUNT),
                        (MIN_NUM_FORM_COUNT, _OPTIONAL_COUNT), (MAX_NUM_FORM_COUNT, _OPTIONAL_COUNT)):
        try:
            counts[name] = field.clean(data.get(f"{prefix}-{name}"))
        except ValidationError:
            return None
    return counts
