"""Failures said plainly (issue 14): a 503 when the database is out that says the last action
was not saved, and a 500 page of our own, in Chinese or English, instead of Django's bare
"Server Error (500)"."""
from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client
from django.urls import reverse

from calculator import services
from calculator.views import evenings as evening_views
from tests.factories import example_record, make_evening, record_rounds
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db


def client(language: str | None = None) -> Client:
    cookies = {"HTTP_COOKIE": f"django_language={language}"} if language else {}
    return Client(raise_request_exception=False, **cookies)


@pytest.mark.parametrize("error", [OperationalError("database is locked"), InterfaceError("connection closed")])
def test_a_round_posted_while_the_database_is_out_is_a_503_saying_it_was_not_saved(monkeypatch, error):
    evening = make_evening()

    def out(**kwargs):
        raise error

    monkeypatch.setattr(services, "round_record", out)
    response = client().post(reverse("calculator:evening_round_new", args=[evening.token]),
                             record_to_post_data(example_record("E1")))
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "没有保存" in response.content.decode()


def test_the_503_speaks_english_too(monkeypatch):
    evening = make_evening()
    monkeypatch.setattr(services, "round_record", lambda **kwargs: (_ for _ in ()).throw(OperationalError()))
    response = client("en").post(reverse("calculator:evening_round_new", args=[evening.token]),
                                 record_to_post_data(example_record("E1")))
    assert response.status_code == 503 and "not saved" in response.content.decode()


def test_a_page_that_fails_is_our_500_saying_nothing_was_changed(monkeypatch):
    evening = make_evening()
    record_rounds(evening, ["E1"])

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(evening_views.selectors, "evening_settle_up", broken)
    response = client().get(reverse("calculator:evening_settle", args=[evening.token]))
    assert response.status_code == 500
    page = response.content.decode()
    assert "出错了" in page and "什么也没有改" in page and "Server Error" not in page


def test_a_write_that_fails_says_to_look_before_entering_it_again(monkeypatch):
    evening = make_evening()

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "round_record", broken)
    response = client("en").post(reverse("calculator:evening_round_new", args=[evening.token]),
                                 record_to_post_data(example_record("E1")))
    assert response.status_code == 500 and "may not have been saved" in response.content.decode()
