"""换个规矩看看 on stored rounds: a round, a correction or the whole evening under other rules.

Reads only: the stored rounds stay as they are (R41); the other rules' settlements are computed
for the page and thrown away.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from ..models import Evening, Round
from ..presentation.what_if import EveningSides, RoundSides, evening_sides, round_outcome, round_sides
from ..scoring import RuleSet, ruleset_from_dict, settle_under
from .evenings import evening_names, evening_rounds_queryset, evening_stake
from .rounds import stored_settlement


def round_what_if(*, round_: Round, rules: RuleSet, record: Mapping[str, Any] | None = None) -> RoundSides:
    """The stored round beside itself under `rules`; with `record` (a correction not yet saved),
    that record under the round's own rules beside it under `rules`. Raises `RecordInvalid`
    when `record` does not stand under the round's own rules."""
    if record is None:
        return round_sides(stored_settlement(round_), round_.record, rules)
    return round_sides(settle_under(record, ruleset_from_dict(round_.rules)), record, rules)


def evening_what_if(*, evening: Evening, rules: RuleSet) -> EveningSides:
    """The evening's totals beside the same rounds scored under `rules` (今晚按兴义算)."""
    outcomes, streak, last_dealer = [], 0, None
    for r in evening_rounds_queryset(evening=evening):
        streak = streak + 1 if r.dealer == last_dealer else 0  # 连庄 (R59), as the evening would have counted it
        last_dealer = r.dealer
        record = {**r.record, "dealer_streak": streak} if rules.dealer_streak_bonus else r.record
        if rules.xing_qi_ji and "weekday" not in record:  # 星期鸡 (R64): the day it was played
            record = {**record, "weekday": timezone.localdate(r.created_at).isoweekday()}
        outcomes.append(round_outcome(r.number, r.net, record, rules))
    return evening_sides(evening_names(evening=evening), evening_stake(evening=evening), outcomes,
                         ruleset_from_dict(evening.rules), rules)
