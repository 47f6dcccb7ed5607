"""Services of the evening ledger: evening_create, round_record, round_correct, round_delete,
paid marks, and the JSON export/import round trip."""
from __future__ import annotations

import dataclasses
import uuid
from datetime import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from calculator import selectors, services
from calculator.models import Change, Evening, PaidTransfer, Round
from calculator.scoring import RecordInvalid
from calculator.scoring.rules import PRESETS
from tests.factories import NAMES, example_record, expected_net, make_evening, record_rounds

pytestmark = pytest.mark.django_db


# -- evening_create ----------------------------------------------------------------------------


def test_an_evening_seats_its_players_in_order_and_fixes_stake_and_rules():
    evening = make_evening(stake="0.5", options={"jian_dou_san": True}, first_dealer=2)
    assert [p.name for p in evening.players.all()] == NAMES
    assert evening.stake == Decimal("0.5")
    assert evening.rules["preset"] == "guiyang" and evening.rules["jian_dou_san"] is True
    assert evening.rules["dou_values"] == {"men": 2, "zhuanwan": 3, "dian": 1}  # stored in full
    assert evening.first_dealer == 2


def test_each_evening_gets_two_different_unguessable_addresses():
    a, b = make_evening(), make_evening()
    tokens = {a.token, a.read_token, b.token, b.read_token}
    assert len(tokens) == 4
    assert all(len(t) >= 32 for t in tokens)  # token_urlsafe(24): 192 random bits


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"names": ["甲", "乙"]}, "players"),
        ({"names": ["甲", "乙", "丙", "丁", "戊"]}, "players"),
        ({"names": ["甲", "乙", "甲"]}, "name_twice"),
        ({"names": ["甲", " ", "丙"]}, "name"),
        ({"stake": Decimal("0")}, "stake"),
        ({"stake": Decimal("0.00001")}, "stake"),
        ({"preset": "chengdu"}, "rules"),
        ({"options": {"self_draw": "triple"}}, "rules"),
        ({"first_dealer": 3, "names": ["甲", "乙", "丙"]}, "dealer"),
    ],
)
def test_an_evening_that_cannot_be_played_is_refused(kwargs, code):
    arguments = {"names": ["甲", "乙", "丙", "丁"], "stake": Decimal("1"), **kwargs}
    with pytest.raises(ValidationError) as error:
        services.evening_create(**arguments)
    assert error.value.code == code
    assert Evening.objects.count() == 0


# -- round_record ------------------------------------------------------------------------------


def test_a_recorded_round_stores_record_settlement_rules_and_net():
    evening = Evening.objects.get(pk=make_evening(stake="2").pk)  # the stake as the database gives it
    round_ = services.round_record(evening=evening, record=example_record("E1"))
    assert round_.number == 1
    assert round_.net == expected_net("E1")
    assert round_.settlement["net"] == expected_net("E1")
    assert round_.settlement["money"] == ["30", "-4", "-14", "-12"]  # the evening's stake, not the record's
    assert round_.rules == evening.rules and round_.record["stake"] == "2"
    assert [s["name"] for s in round_.record["seats"]] == NAMES  # the evening's names
    assert round_.next_dealer == 0 and round_.dealer == 0 and round_.version == 1


def test_rounds_are_numbered_in_order():
    evening = make_evening()
    rounds = record_rounds(evening, ["E1", "E2", "E3"])
    assert [r.number for r in rounds] == [1, 2, 3]


def test_the_evening_rules_override_the_record_rules():
    evening = make_evening(options={"jian_dou_san": True})
    record = example_record("E1")  # guiyang without 见豆三: 闷豆 2 per payer
    round_ = services.round_record(evening=evening, record=record)
    assert round_.net == [18, -3, -8, -7]  # 闷豆 now 3 from each of three payers
    assert round_.record["options"] == {"jian_dou_san": True}


def test_an_invalid_record_stores_nothing():
    evening = make_evening()
    record = example_record("E1")
    record["seats"][0]["concealed"] = "234m"
    with pytest.raises(RecordInvalid) as error:
        services.round_record(evening=evening, record=record)
    assert "tile_count" in {p.code for p in error.value.problems}
    assert Round.objects.count() == 0 and Change.objects.count() == 0


def test_a_record_for_another_table_size_is_refused():
    evening = make_evening(names=NAMES[:3])
    with pytest.raises(RecordInvalid) as error:
        services.round_record(evening=evening, record=example_record("E1"))
    assert [p.code for p in error.value.problems] == ["bad_seat"]


def test_a_second_submit_with_the_same_key_returns_the_first_round():
    evening = make_evening()
    key = uuid.uuid4()
    first = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    again = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    assert again.pk == first.pk and again.net == expected_net("E1")
    assert Round.objects.count() == 1 and Change.objects.count() == 1


def test_a_key_reused_for_a_different_round_is_refused_not_swallowed():
    evening = make_evening()
    key = uuid.uuid4()
    services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    with pytest.raises(services.IdempotencyKeyReused) as reused:
        services.round_record(evening=evening, record=example_record("E2"), idempotency_key=key)
    assert reused.value.existing.number == 1
    assert list(Round.objects.values_list("net", flat=True)) == [expected_net("E1")]
    assert Change.objects.count() == 1


def test_the_same_key_in_another_evening_is_a_new_round():
    key = uuid.uuid4()
    a = services.round_record(evening=make_evening(), record=example_record("E1"), idempotency_key=key)
    b = services.round_record(evening=make_evening(), record=example_record("E1"), idempotency_key=key)
    assert a.pk != b.pk



def test_a_submit_resent_after_its_round_was_deleted_is_not_recorded_again():
    """The key is remembered in the history of the deleted round: the resend is answered with
    what became of it, and nothing is stored."""
    evening = make_evening()
    key = uuid.uuid4()
    round_ = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    services.round_delete(round=round_)
    changes = Change.objects.count()
    with pytest.raises(services.IdempotencyKeyDeleted) as deleted:
        services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    assert deleted.value.number == round_.number
    assert Round.objects.count() == 0 and Change.objects.count() == changes
    services.round_record(evening=evening, record=example_record("E1"), idempotency_key=uuid.uuid4())
    assert Round.objects.count() == 1

def test_recording_writes_the_history():
    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"), by="老王")
    change = Change.objects.get()
    assert (change.kind, change.round_number, change.by, change.before) == ("created", 1, "老王", None)
    assert change.after["net"] == expected_net("E1")


# -- round_correct -----------------------------------------------------------------------------


def test_a_correction_rescores_that_round_only():
    evening = make_evening()
    first, second, third = record_rounds(evening, ["E1", "E2", "E3"])
    corrected = services.round_correct(round=second, record=example_record("E4"), expected_version=1)
    assert corrected.net == expected_net("E4")
    assert corrected.version == 2 and corrected.number == 2
    assert Round.objects.get(pk=first.pk).net == expected_net("E1")
    assert Round.objects.get(pk=third.pk).net == expected_net("E3")
    totals = selectors.evening_total_points(evening=evening)
    assert totals == [a + b + c for a, b, c in zip(expected_net("E1"), expected_net("E4"), expected_net("E3"))]


def test_a_correction_is_kept_in_the_history_with_before_and_after():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_correct(round=round_, record=example_record("E2"), expected_version=1, by="小李")
    change = Change.objects.filter(kind="corrected").get()
    assert change.before["net"] == expected_net("E1") and change.after["net"] == expected_net("E2")
    assert change.before["version"] == 1 and change.after["version"] == 2 and change.by == "小李"


def test_a_correction_based_on_an_old_version_is_refused():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    with pytest.raises(services.RoundVersionConflict) as conflict:
        services.round_correct(round=round_, record=example_record("E3"), expected_version=1)
    assert conflict.value.current.version == 2
    assert Round.objects.get().net == expected_net("E2")


def test_a_correction_of_a_deleted_round_is_refused():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_delete(round=round_)
    with pytest.raises(services.RoundVersionConflict) as conflict:
        services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    assert conflict.value.current is None


def test_an_invalid_correction_changes_nothing():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    record = example_record("E1")
    record["outcome"]["winners"][0]["seat"] = 2  # the discarder cannot win on its own discard
    with pytest.raises(RecordInvalid):
        services.round_correct(round=round_, record=record, expected_version=1)
    assert Round.objects.get().version == 1 and Change.objects.count() == 1


def test_an_unchanged_correction_leaves_no_history():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_correct(round=round_, record=example_record("E1"), expected_version=1)
    assert Round.objects.get().version == 1 and Change.objects.count() == 1


def change_guiyang_defaults(monkeypatch) -> None:
    """As a later release might: a 贵阳 default that E1 does not use (E1 is no self-draw). The
    rounds stored before it list only their options that differed from the old defaults."""
    guiyang = PRESETS["guiyang"]
    assert guiyang.self_draw != "double"
    monkeypatch.setitem(PRESETS, "guiyang", dataclasses.replace(guiyang, self_draw="double"))


def test_an_unchanged_correction_stays_unchanged_after_a_preset_changes_its_defaults(monkeypatch):
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    change_guiyang_defaults(monkeypatch)
    services.round_correct(round=round_, record=example_record("E1"), expected_version=1)
    assert Round.objects.get().version == 1 and Change.objects.count() == 1


def test_a_resubmit_is_still_a_resubmit_after_a_preset_changes_its_defaults(monkeypatch):
    evening = make_evening()
    key = uuid.uuid4()
    first = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    change_guiyang_defaults(monkeypatch)
    again = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    assert again.pk == first.pk and Round.objects.count() == 1


def test_a_correction_keeps_the_rules_the_round_was_scored_under():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    Evening.objects.filter(pk=evening.pk).update(rules={**evening.rules, "jian_dou_san": True})
    round_.refresh_from_db()
    record = example_record("E1")
    record["seats"][1]["discards"] = ""  # 南's discarded 6万 no longer counts
    corrected = services.round_correct(round=round_, record=record, expected_version=1)
    assert corrected.rules["jian_dou_san"] is False
    # RULES §8 E1 without its last items "0, 2, 3 → 1 1 each" (南's chicken was that 6万, R20):
    # seats 0, 2 and 3 get 1 back and 南 loses 3. Its 闷豆 items stay 2 each; under 见豆三 they
    # would be 3 each, and seat 0 would have 3 more.
    assert corrected.net == [n + d for n, d in zip(expected_net("E1"), [1, -3, 1, 1])]


# -- round_delete ------------------------------------------------------------------------------


def test_deleting_a_round_keeps_it_in_the_history_and_drops_it_from_the_totals():
    evening = make_evening()
    first, second = record_rounds(evening, ["E1", "E2"])
    services.round_delete(round=second, expected_version=1, by="阿珍")
    assert list(Round.objects.values_list("number", flat=True)) == [1]
    change = Change.objects.get(kind="deleted")
    assert change.before["net"] == expected_net("E2") and change.after is None and change.by == "阿珍"
    assert selectors.evening_total_points(evening=evening) == expected_net("E1")


def test_deleting_with_an_old_version_is_refused():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    with pytest.raises(services.RoundVersionConflict):
        services.round_delete(round=round_, expected_version=1)
    assert Round.objects.count() == 1


def test_numbers_continue_after_the_highest_round():
    evening = make_evening()
    first, second, third = record_rounds(evening, ["E1", "E2", "E3"])
    services.round_delete(round=second)
    assert services.round_record(evening=evening, record=example_record("E4")).number == 4


def test_a_deleted_last_rounds_number_is_never_reused():
    """Else a correction left open on the deleted round would land on the new one: same
    number, same version 1."""
    evening = make_evening()
    _first, second = record_rounds(evening, ["E1", "E2"])
    services.round_delete(round=second)
    assert selectors.next_round_number(evening=evening) == 3
    assert services.round_record(evening=evening, record=example_record("E3")).number == 3
    with pytest.raises(services.RoundVersionConflict) as conflict:
        services.round_correct(round=second, record=example_record("E4"), expected_version=1)
    assert conflict.value.current is None


def test_a_record_that_is_not_an_object_is_refused_without_a_crash():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    for record in ([], "E1", None, 7):
        with pytest.raises(RecordInvalid):
            services.round_record(evening=evening, record=record)
        with pytest.raises(RecordInvalid):
            services.round_correct(round=round_, record=record, expected_version=1)
    assert Round.objects.count() == 1 and Round.objects.get().version == 1


# -- paid marks --------------------------------------------------------------------------------


def test_a_transfer_of_the_plan_can_be_marked_paid_and_unmarked():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    plan = selectors.evening_settle_up(evening=evening).transfers
    t = plan[0]
    services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)
    services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)
    assert PaidTransfer.objects.count() == 1
    assert selectors.evening_settle_up(evening=evening).transfers[0].paid
    payment = selectors.evening_settle_up(evening=evening).transfers[0].payment
    assert services.transfer_mark_unpaid(evening=evening, payment=payment)
    assert not selectors.evening_settle_up(evening=evening).transfers[0].paid


def test_undo_sent_twice_takes_back_one_payment_only():
    """Two equal payments (the same transfer paid twice in an evening); 撤回 double-tapped or
    resent must not take back the second."""
    evening = make_evening()
    record_rounds(evening, ["E1"])
    first, second = (PaidTransfer.objects.create(evening=evening, payer=0, payee=1, points=4) for _ in range(2))
    assert services.transfer_mark_unpaid(evening=evening, payment=second.pk)
    assert not services.transfer_mark_unpaid(evening=evening, payment=second.pk)
    assert list(PaidTransfer.objects.all()) == [first]


def test_undo_cannot_take_back_another_evenings_payment():
    evening, other = make_evening(), make_evening()
    theirs = PaidTransfer.objects.create(evening=other, payer=0, payee=1, points=4)
    assert not services.transfer_mark_unpaid(evening=evening, payment=theirs.pk)
    assert PaidTransfer.objects.filter(pk=theirs.pk).exists()


def test_a_transfer_that_is_not_in_the_plan_cannot_be_marked():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    with pytest.raises(services.TransferNotInPlan):
        services.transfer_mark_paid(evening=evening, payer=0, payee=1, points=99)


def mark_whole_plan_paid(evening) -> set[tuple[int, int, int]]:
    plan = {(t.payer, t.payee, t.points) for t in selectors.evening_settle_up(evening=evening).to_pay}
    for payer, payee, points in plan:
        services.transfer_mark_paid(evening=evening, payer=payer, payee=payee, points=points)
    return plan


def settled_by(transfers, players: int) -> list[int]:
    """What each player ends up with from these transfers alone (+ received, − paid)."""
    moved = [0] * players
    for t in transfers:
        moved[t.payer] -= t.points
        moved[t.payee] += t.points
    return moved


def example_nets(name: str) -> list[int]:
    from calculator.scoring import settle_record

    return settle_record(example_record(name)).net


def test_a_payment_counts_whatever_rounds_are_recorded_after_it():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    paid = mark_whole_plan_paid(evening)
    assert selectors.evening_settle_up(evening=evening).all_paid

    record_rounds(evening, ["E2"])
    settle = selectors.evening_settle_up(evening=evening)

    assert {(t.payer, t.payee, t.points) for t in settle.transfers if t.paid} == paid
    assert selectors.evening_still_owed(evening=evening) == example_nets("E2")  # E1 is settled
    assert settled_by(settle.to_pay, 4) == example_nets("E2")
    assert not settle.all_paid


def test_a_corrected_round_keeps_its_payments_and_the_plan_settles_the_difference():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    paid = mark_whole_plan_paid(evening)

    services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    settle = selectors.evening_settle_up(evening=evening)

    assert PaidTransfer.objects.count() == len(paid)
    owed = [e2 - e1 for e1, e2 in zip(example_nets("E1"), example_nets("E2"))]
    assert selectors.evening_still_owed(evening=evening) == owed
    assert settled_by(settle.to_pay, 4) == owed
    # payments plus the plan come to the totals: nobody pays twice, nobody is forgotten
    assert settled_by(settle.transfers, 4) == [t.points for t in settle.totals]


def test_deleting_a_paid_round_asks_for_the_money_back():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    paid = mark_whole_plan_paid(evening)

    services.round_delete(round=round_)

    to_pay = selectors.evening_settle_up(evening=evening).to_pay
    assert settled_by(to_pay, 4) == [-n for n in example_nets("E1")]
    assert sum(t.points for t in to_pay) == sum(points for _payer, _payee, points in paid)


def test_an_old_page_or_a_double_tap_records_a_payment_once():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    t = selectors.evening_settle_up(evening=evening).to_pay[0]
    for _ in range(3):
        services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)
    assert PaidTransfer.objects.count() == 1


# -- export / import ---------------------------------------------------------------------------


def test_export_then_import_gives_back_the_same_evening_under_new_addresses():
    evening = make_evening(stake="0.5", options={"jian_dou_san": True}, title="周五")
    rounds = record_rounds(evening, ["E1", "E2", "E3"])
    services.round_correct(round=rounds[1], record=example_record("E4"), expected_version=1, by="老王")
    services.round_delete(round=rounds[2])
    t = selectors.evening_settle_up(evening=evening).transfers[0]
    services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)

    data = services.evening_export(evening=evening)
    copy = services.evening_import(data=data)

    assert services.evening_export(evening=copy) == data
    assert copy.token != evening.token and copy.read_token != evening.read_token
    assert selectors.evening_total_points(evening=copy) == selectors.evening_total_points(evening=evening)


def test_the_export_is_plain_json():
    import json

    evening = make_evening()
    record_rounds(evening, ["E1"])
    data = services.evening_export(evening=evening)
    assert json.loads(json.dumps(data)) == data
    assert evening.token not in json.dumps(data)


def test_a_damaged_export_is_refused_and_nothing_is_stored():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    data = services.evening_export(evening=evening)
    data["rounds"][0]["net"] = [99, 0, 0, -99]
    with pytest.raises(ValidationError):
        services.evening_import(data=data)
    assert Evening.objects.count() == 1
    with pytest.raises(ValidationError):
        services.evening_import(data={"format": "something else"})


def without_offset(moment: str) -> str:
    return datetime.fromisoformat(moment).replace(tzinfo=None).isoformat()


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(created_at=without_offset(d["created_at"])),
        lambda d: d["rounds"][1].update(created_at=without_offset(d["rounds"][1]["created_at"])),
        lambda d: d["rounds"][1].update(updated_at=without_offset(d["rounds"][1]["updated_at"])),
        lambda d: d["history"][0].update(at=without_offset(d["history"][0]["at"])),
        lambda d: d["paid"][0].update(paid_at=without_offset(d["paid"][0]["paid_at"])),
    ],
)
def test_an_import_with_a_time_that_has_no_utc_offset_is_refused(damage):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    t = selectors.evening_settle_up(evening=evening).transfers[0]
    services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)
    data = services.evening_export(evening=evening)
    damage(data)
    with pytest.raises(ValidationError) as refused:
        services.evening_import(data=data)
    assert refused.value.code == "damaged"
    assert Evening.objects.count() == 1


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["rounds"][0].update(number=d["rounds"][1]["number"]),  # two rounds share a number
        lambda d: d["rounds"][0].update(dealer=7),
        lambda d: d.update(first_dealer=4),
        lambda d: d.update(players=["甲", "乙"]),
        lambda d: d.update(stake="-1"),
        lambda d: d["rules"].update(self_draw="triple"),
        lambda d: d["history"][0].update(kind="stolen"),
        lambda d: d.pop("rounds"),
    ],
)
def test_each_kind_of_damage_is_refused(damage):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    data = services.evening_export(evening=evening)
    damage(data)
    with pytest.raises(ValidationError):
        services.evening_import(data=data)
    assert Evening.objects.count() == 1
