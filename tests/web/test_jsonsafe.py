"""JSON from outside: what `jsonsafe` lets through to the database and what it refuses."""
import json

import pytest

from calculator import jsonsafe


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"stake": -Infinity}'])
def test_nan_and_infinity_are_not_json(text):
    with pytest.raises(ValueError):
        jsonsafe.loads(text)


def test_ordinary_json_loads_as_python_does():
    text = '{"seats": [{"name": "老王", "concealed": "123m"}], "stake": "0.5", "n": 1.5}'
    assert jsonsafe.loads(text) == json.loads(text)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"name": "老\x00王"}, "text"),
        ({"老\x00王": 1}, "text"),  # keys are text too
        (["\ud800"], "text"),
        ({"stake": float("inf")}, "number"),
        ([[float("nan")]], "number"),
        (json.loads("[" * (jsonsafe.MAX_DEPTH + 1) + "]" * (jsonsafe.MAX_DEPTH + 1)), "depth"),
    ],
)
def test_what_no_column_can_hold_is_refused_with_its_reason(data, reason):
    with pytest.raises(jsonsafe.Unstorable) as refused:
        jsonsafe.check_storable(data)
    assert refused.value.reason == reason


def test_storable_data_passes_up_to_the_depth_limit():
    nested = json.loads("[" * jsonsafe.MAX_DEPTH + "]" * jsonsafe.MAX_DEPTH)
    jsonsafe.check_storable(nested)
    jsonsafe.check_storable({"name": "老王", "points": [1, -2, 3.5], "ok": True, "none": None})


def test_a_very_deep_nest_is_refused_without_recursing():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(jsonsafe.Unstorable):
        jsonsafe.check_storable(deep)
