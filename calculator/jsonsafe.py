"""JSON from outside (the API's bodies, imported evenings, rule links) read so it can be stored.

`loads` refuses what Python's json accepts but JSON does not (NaN, Infinity); `check_storable`
refuses what no column can hold. Callers turn `Unstorable` into their own answer: the API's
error body, the import's ValidationError.
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

# A round record nests about five levels deep and an export about ten; far deeper is hostile.
MAX_DEPTH = 32


class Unstorable(ValueError):
    """The data cannot be stored. `reason` is "depth", "text" (a NUL or a lone surrogate) or
    "number" (NaN or an infinity, e.g. from 1e999)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def loads(text: str) -> Any:
    """`json.loads` without NaN and Infinity. Raises ValueError, or RecursionError when the
    nesting is deeper than the parser can follow."""
    return json.loads(text, parse_constant=_reject_constant)


def check_storable(data: Any) -> None:
    """Walk parsed JSON without recursion and raise `Unstorable` for what PostgreSQL cannot hold:
    NUL characters (text), lone surrogates (they do not encode as UTF-8), non-finite numbers
    (jsonb) and nesting deeper than MAX_DEPTH. Keys are checked as well as values."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Unstorable("depth")
        # Strings first and dicts before the Mapping ABC: an imported evening is a million values,
        # and isinstance against an ABC costs several times more.
        if isinstance(value, str):
            if "\x00" in value or _has_surrogate(value):
                raise Unstorable("text")
        elif isinstance(value, (dict, Mapping)):
            stack.extend((item, depth + 1) for pair in value.items() for item in pair)
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, float) and not math.isfinite(value):
            raise Unstorable("number")


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
