"""The admin reads the ledger; it cannot add, change or delete what the services keep history of."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from calculator import selectors, services
from calculator.models import Change, Evening, PaidTransfer, Round
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def ledger():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    t = selectors.evening_settle_up(evening=evening).transfers[0]
    services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)
    return evening


def admin_url(model, view: str, *args) -> str:
    return reverse(f"admin:calculator_{model._meta.model_name}_{view}", args=args)


@pytest.mark.parametrize("model", [Evening, Round, Change, PaidTransfer])
def test_every_part_of_the_ledger_can_be_read(admin_client, ledger, model):
    row = model.objects.first()
    assert admin_client.get(admin_url(model, "changelist")).status_code == 200
    assert admin_client.get(admin_url(model, "change", row.pk)).status_code == 200


@pytest.mark.parametrize("model", [Round, Change, PaidTransfer])
def test_rounds_history_and_paid_marks_cannot_be_deleted(admin_client, ledger, model):
    row = model.objects.first()
    assert admin_client.post(admin_url(model, "delete", row.pk), {"post": "yes"}).status_code == 403
    bulk = admin_client.post(admin_url(model, "changelist"),
                             {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"})
    assert bulk.status_code in (200, 302)  # no such action: the list comes back
    assert model.objects.filter(pk=row.pk).exists()


@pytest.mark.parametrize("model", [Evening, Round, Change, PaidTransfer])
def test_nothing_can_be_added_by_hand(admin_client, model):
    assert admin_client.get(admin_url(model, "add")).status_code == 403


def test_an_evening_with_rounds_cannot_be_deleted_from_under_its_history(admin_client, ledger):
    admin_client.post(admin_url(Evening, "delete", ledger.pk), {"post": "yes"})
    assert Evening.objects.filter(pk=ledger.pk).exists() and Change.objects.filter(evening=ledger).exists()


def test_the_history_list_reads_its_evenings_in_one_query_whatever_its_length(admin_client):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert admin_client.get(admin_url(Change, "changelist")).status_code == 200
        return len(captured)

    record_rounds(make_evening(), ["E1"])
    few = queries()
    for _ in range(3):
        record_rounds(make_evening(), ["E2", "E3"])
    assert queries() == few
