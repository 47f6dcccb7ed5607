"""Test data for the evening ledger, and a phone at its table: plain functions, no factory library.

Round records are the worked examples of RULES §8 (tests/data/examples), which the engine is
known to score exactly; `expected_net` gives their nets.
"""
from __future__ import annotations

import copy
import json
import re
from decimal import Decimal
from functools import cache
from pathlib import Path

from django.urls import reverse

from calculator import services
from calculator.models import Evening

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"
GUIYANG_FOUR = ("E1", "E2", "E3", "E4", "E5")  # the 贵阳, 4-player examples
NAMES = ["老王", "小李", "阿珍", "张哥"]


@cache
def _example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def example_record(name: str = "E1") -> dict:
    """A fresh copy of a worked example's round record."""
    return copy.deepcopy(_example(name))


@cache
def _expected() -> dict:
    return json.loads((EXAMPLES / "expected.json").read_text(encoding="utf-8"))


def expected_net(name: str) -> list[int]:
    return list(_expected()[name]["net"])


def make_evening(
    *,
    names: list[str] | None = None,
    stake: str | Decimal = "1",
    preset: str = "guiyang",
    options: dict | None = None,
    first_dealer: int = 0,
    title: str = "",
) -> Evening:
    return services.evening_create(
        names=list(names or NAMES), stake=Decimal(str(stake)), preset=preset,
        options=options, first_dealer=first_dealer, title=title,
    )


def three_player_evening(**kwargs) -> Evening:
    return make_evening(names=kwargs.pop("names", NAMES[:3]), **kwargs)


def record_rounds(evening: Evening, examples: list[str] | tuple[str, ...]) -> list:
    """Record the named examples as the evening's next rounds, in order."""
    return [services.round_record(evening=evening, record=example_record(name)) for name in examples]


# -- a phone at the table: a django.test.Client on an evening's pages -------------------------


def url(name: str, evening: Evening, *args) -> str:
    """An evening page's address (`calculator:<name>`, by the edit token)."""
    return reverse(f"calculator:{name}", args=[evening.token, *args])


def hidden(page: str, name: str) -> str:
    """A hidden field's value as the page drew it."""
    return re.search(rf'name="{name}" value="([^"]*)"', page).group(1)


def say_who(client, evening: Evening, seat: int):
    """我是…: the phone says which seat it is."""
    client.post(url("evening_me", evening), {"seat": str(seat)})
    return client


def open_round(client, evening: Evening) -> dict:
    """Open 记一局 as a phone does; the hidden fields its form posts back."""
    page = client.get(url("evening_round_new", evening)).content.decode()
    return {name: hidden(page, name) for name in ("idempotency_key", "draft_base", "draft_client")}


def open_edit(client, evening: Evening, number: int = 1) -> dict:
    """Open 改这局 as a phone does; the hidden fields its form posts back."""
    page = client.get(url("evening_round_edit", evening, number)).content.decode()
    return {name: hidden(page, name) for name in ("version", "idempotency_key", "draft_base", "draft_client")}
