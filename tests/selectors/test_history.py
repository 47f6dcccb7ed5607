"""The change history (R42): every record, correction and delete, newest first, with its nets."""
from __future__ import annotations

import pytest

from calculator import selectors, services
from tests.factories import example_record, make_evening, record_rounds

pytestmark = pytest.mark.django_db


def test_the_history_lists_every_change_newest_first():
    evening = make_evening()
    first, second = record_rounds(evening, ["E1", "E2"])
    services.round_correct(round=second, record=example_record("E3"), expected_version=1, by="老王")
    services.round_delete(round=first)
    rows = selectors.evening_history(evening=evening)
    assert [(r.kind, r.round_number) for r in rows] == [
        ("deleted", 1), ("corrected", 2), ("created", 2), ("created", 1),
    ]
    corrected = rows[1]
    assert corrected.by == "老王"
    assert (corrected.nets[0].name, corrected.nets[0].before, corrected.nets[0].after) == ("老王", -29, 14)
    assert "自摸" in corrected.before and "热炮" in corrected.after
