"""Migration 0008 (issue 24) gives rounds stored before it their season counts and each evening
their sums, from the stored settlements (nothing re-scored), so an old evening attached to a
固定桌 counts in its season like a new one."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from calculator.presentation import settlement_json
from calculator.scoring import settle_record
from tests.factories import example_record

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, AFTER = [("calculator", "0007_live_agreement")], [("calculator", "0008_tables")]


def test_old_rounds_get_their_counts_and_their_evening_its_sums():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    evening = old.get_model("calculator", "Evening").objects.create(
        stake=1, rules={"preset": "guiyang"}, first_dealer=0, token="t" * 32, read_token="r" * 32)
    for seat, name in enumerate(["老王", "小李", "阿珍", "张哥"]):
        old.get_model("calculator", "Player").objects.create(evening=evening, seat=seat, name=name)
    for number, example in enumerate(["E1", "E2"], start=1):
        settlement = settle_record(example_record(example))
        old.get_model("calculator", "Round").objects.create(
            evening=evening, number=number, record=settlement.record.to_dict(),
            settlement=settlement_json(settlement, words=True), rules={"preset": "guiyang"},
            net=list(settlement.net), dealer=settlement.record.dealer, next_dealer=settlement.next_dealer)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    counts = new.get_model("calculator", "RoundStats").objects.order_by("number")
    assert [c.data["net"] for c in counts] == [[15, -2, -7, -6], [-29, 59, -1, -29]]
    sums = new.get_model("calculator", "EveningStats").objects.get(evening_id=evening.pk).data
    assert sums["rounds"] == 2 and sums["net"] == [-14, 57, -8, -35]
    assert sums["c"]["hu"] == [1, 1, 0, 0] and sums["run"][0] == [2, 1]  # 老王 dealt both
