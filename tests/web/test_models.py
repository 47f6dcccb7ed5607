"""What the database itself guarantees about the ledger (constraints), whatever the code does."""
from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, transaction

from calculator.models import Evening, PaidTransfer, Player, Round, new_token
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


def copy_round(round_: Round, **changes) -> Round:
    fields = {f.name: getattr(round_, f.name) for f in Round._meta.fields if f.name not in ("id",)}
    return Round(**{**fields, **changes})


def test_tokens_carry_at_least_128_random_bits():
    token = new_token()
    assert len(token) >= 32 and len({new_token() for _ in range(100)}) == 100


def test_two_rounds_cannot_share_a_number():
    (round_,) = record_rounds(make_evening(), ["E1"])
    with pytest.raises(IntegrityError), transaction.atomic():
        copy_round(round_, idempotency_key=None).save()


def test_two_rounds_cannot_share_an_idempotency_key():
    key = uuid.uuid4()
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    Round.objects.filter(pk=round_.pk).update(idempotency_key=key)
    with pytest.raises(IntegrityError), transaction.atomic():
        copy_round(round_, number=2, idempotency_key=key).save()


def test_many_rounds_may_have_no_idempotency_key():
    rounds = record_rounds(make_evening(), ["E1", "E2", "E3"])
    assert all(r.idempotency_key is None for r in rounds)


def test_a_seat_holds_one_player():
    evening = make_evening()
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(evening=evening, seat=0, name="另一个")


def test_tokens_are_unique():
    evening = make_evening()
    with pytest.raises(IntegrityError), transaction.atomic():
        Evening.objects.create(token=evening.token, stake=1, rules=evening.rules, first_dealer=0)


def test_a_stake_must_be_positive():
    evening = make_evening()
    with pytest.raises(IntegrityError), transaction.atomic():
        Evening.objects.create(stake=0, rules=evening.rules, first_dealer=0)


def test_a_paid_mark_is_between_two_seats():
    evening = make_evening()
    with pytest.raises(IntegrityError), transaction.atomic():
        PaidTransfer.objects.create(evening=evening, payer=1, payee=1, points=3)


@pytest.mark.parametrize("changes", [{"dealer": 4}, {"next_dealer": 4}])
def test_a_rounds_dealers_are_seats_of_a_table(changes):
    (round_,) = record_rounds(make_evening(), ["E1"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=round_.pk).update(**changes)


@pytest.mark.parametrize(
    "mark",
    [
        {"payer": 4, "payee": 0, "points": 3},
        {"payer": 0, "payee": 4, "points": 3},
        {"payer": 0, "payee": 1, "points": 0},
    ],
)
def test_a_paid_mark_is_a_real_transfer_between_seats(mark):
    evening = make_evening()
    with pytest.raises(IntegrityError), transaction.atomic():
        PaidTransfer.objects.create(evening=evening, **mark)


def test_deleting_an_evening_deletes_its_rounds_and_history():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    evening.delete()
    assert Round.objects.count() == 0
