"""The loser of a close race (issue 14): a round deleted by another phone a moment ago is not a
bare 404 for whoever still had it open; they are taken to the evening and told it was deleted."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from calculator import services
from calculator.models import Round
from calculator.views import evening_rounds
from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def deleted():
    evening = make_evening()
    round_, _ = record_rounds(evening, ["E1", "E2"])
    services.round_delete(round=round_)
    return evening


def test_opening_a_round_deleted_meanwhile_says_so(deleted):
    response = Client().get(reverse("calculator:evening_round", args=[deleted.token, 1]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("calculator:evening_detail", args=[deleted.token])
    assert "第1局已经被删了" in response.content.decode()


def test_the_read_only_address_is_told_too_and_stays_read_only(deleted):
    response = Client().get(reverse("calculator:evening_follow_round", args=[deleted.read_token, 1]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("calculator:evening_follow", args=[deleted.read_token])
    assert "第1局已经被删了" in response.content.decode()


@pytest.mark.parametrize("view, name", [("round_delete", "evening_round_delete"),
                                        ("round_edit_confirm", "evening_round_edit_confirm")])
def test_a_delete_landing_between_the_check_and_the_read_is_told_too(deleted, monkeypatch, view, name):
    """The other phone's delete commits just after this request looked (the check said the round
    was there): the read that follows finds it gone."""
    monkeypatch.setattr(evening_rounds, "_deleted_meanwhile", lambda *args: None)
    response = Client().post(reverse(f"calculator:{name}", args=[deleted.token, 1]), {"version": 1}, follow=True)
    assert response.status_code == 200 and "第1局已经被删了" in response.content.decode()
    assert Round.objects.filter(evening=deleted).count() == 1


def test_a_round_that_never_was_is_still_a_404(deleted):
    assert Client().get(reverse("calculator:evening_round", args=[deleted.token, 9])).status_code == 404
