"""Writes of an evening itself: opening one (开一晚) and the lock every other write takes."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from ..models import MAX_RULES_NAME, MAX_TITLE, Evening, EveningStats, Player
from ..scoring import rules_for
from ..scoring.record import MAX_NAME, MAX_STAKE
from ..scoring.stats import evening_summary


def clean_names(names: list[str]) -> list[str]:
    cleaned = [" ".join(str(n).split()) for n in names]
    if not 3 <= len(cleaned) <= 4:
        raise ValidationError("an evening has 3 or 4 players", code="players")
    if any(not n or len(n) > MAX_NAME or "\x00" in n for n in cleaned):  # PostgreSQL text holds no NUL
        raise ValidationError("every player needs a name of at most %(max)s characters",
                              code="name", params={"max": MAX_NAME})
    if len(set(cleaned)) != len(cleaned):
        raise ValidationError("two players have the same name", code="name_twice")
    return cleaned


def clean_title(title: str) -> str:
    title = str(title).strip()[:MAX_TITLE]
    if "\x00" in title:
        raise ValidationError("the title holds a NUL character", code="title")
    return title


def clean_stake(stake: Decimal | str) -> Decimal:
    try:
        value = Decimal(str(stake))
    except InvalidOperation:
        raise ValidationError("the stake is not a number", code="stake") from None
    if not value.is_finite() or value <= 0 or value > MAX_STAKE or value.as_tuple().exponent < -4:
        raise ValidationError("the stake must be a positive number with at most 4 decimals", code="stake")
    return value


def clean_rules_name(name: Any) -> str:
    """A rule set's name, spaces tidied; raises ValidationError when it is not a short text."""
    if not isinstance(name, str):
        raise ValidationError("the rules' name must be text", code="rules_name")
    name = " ".join(name.split())
    if len(name) > MAX_RULES_NAME:
        raise ValidationError("the rules' name is too long", code="rules_name")
    return name


@transaction.atomic
def evening_create(
    *,
    names: list[str],
    stake: Decimal,
    preset: str = "guiyang",
    options: Mapping[str, Any] | None = None,
    first_dealer: int = 0,
    title: str = "",
    rules_name: str = "",
) -> Evening:
    """开一晚: seat the players, fix the stake and the rules for the whole evening (R41); the
    rules may carry the table's own name for them (老王家规矩)."""
    names = clean_names(names)
    stake = clean_stake(stake)
    rules, problems = rules_for(preset, options or {})
    if rules is None:
        raise ValidationError("; ".join(p.message for p in problems), code="rules")
    if not 0 <= first_dealer < len(names):
        raise ValidationError("the first dealer must be one of the seats", code="dealer")
    evening = Evening.objects.create(
        title=clean_title(title), stake=stake, rules=rules.to_dict(), first_dealer=first_dealer,
        rules_name=clean_rules_name(rules_name),
    )
    Player.objects.bulk_create(Player(evening=evening, seat=s, name=n) for s, n in enumerate(names))
    EveningStats.objects.create(evening=evening, data=evening_summary([], players=len(names)))
    return evening


def lock_evening(evening: Evening) -> Evening:
    """The evening row, locked until the transaction ends: phones writing to one evening at once
    are served one after the other."""
    return Evening.objects.select_for_update().get(pk=evening.pk)
