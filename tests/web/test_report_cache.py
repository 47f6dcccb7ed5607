"""The evening report is expensive (WeasyPrint) and anyone holding the read-only address can ask
for it (issue 14): it is rendered once per state of the evening, and its length is bounded."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from calculator import selectors, services
from calculator import pdf as report_pdf
from tests.factories import make_evening, record_rounds
from tests.pdf_tools import poppler, squeeze

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch):
    """The report contexts rendered, in order (the real renderer still runs)."""
    seen = []
    real = report_pdf.render_pdf

    def counting(template_name, context, **kwargs):
        seen.append(context)
        return real(template_name, context, **kwargs)

    monkeypatch.setattr(report_pdf, "render_pdf", counting)
    return seen


def report(evening, *, follow=False, language=None):
    client = Client(HTTP_COOKIE=f"django_language={language}") if language else Client()
    name, token = ("evening_follow_report_pdf", evening.read_token) if follow else ("evening_report_pdf", evening.token)
    response = client.get(reverse(f"calculator:{name}", args=[token]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    return response.content


def test_repeated_downloads_of_one_state_render_once(renders):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    first = report(evening)
    assert report(evening) == first and report(evening, follow=True) == first
    assert len(renders) == 1


def test_a_new_round_a_deletion_or_a_payment_renders_again(renders):
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    report(evening)
    record_rounds(evening, ["E2"])
    report(evening)
    services.round_delete(round=round_)
    unpaid = report(evening)
    t = selectors.evening_settle_up(evening=evening).to_pay[0]
    services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)
    assert report(evening) != unpaid
    assert len(renders) == 4
    services.transfer_mark_unpaid(evening=evening, payment=evening.paid_transfers.get().pk)
    assert report(evening) == unpaid  # the undo brings back the state printed before the payment


def test_each_language_has_its_own_report(renders):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    report(evening)
    report(evening, language="en")
    assert len(renders) == 2


def test_two_evenings_never_share_a_report(renders):
    one, two = make_evening(title="一号桌"), make_evening(title="二号桌")
    report(one)
    report(two)
    assert len(renders) == 2


def test_a_very_long_evening_prints_its_latest_rounds_and_says_what_it_left_out(renders, monkeypatch, tmp_path):
    monkeypatch.setattr(report_pdf, "MAX_REPORT_ROUNDS", 2)
    monkeypatch.setattr(report_pdf, "MAX_REPORT_CHANGES", 3)
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3", "E4", "E5"])
    text = squeeze(poppler("pdftotext", report(evening), tmp_path))
    assert [r.row.number for r in renders[0]["rounds"]] == [4, 5] and len(renders[0]["history"]) == 3
    assert "前3局没有印出来" in text and "还有2条更早的改动没有印出来" in text
