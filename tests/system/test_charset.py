"""A form POST that declares a charset other than UTF-8 (issue 14): Django would decode the body
with it, and an unknown one (or UTF-16) made a 500 on every form. Now it is a 415, said plainly."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_evening, record_rounds

pytestmark = pytest.mark.django_db


def endpoints() -> list[str]:
    evening = make_evening()
    return ["/evening/new/", "/round/", "/round/preview/", "/evening/import/",
            f"/e/{evening.token}/settle/paid/", f"/e/{evening.token}/rounds/new/", f"/e/{evening.token}/me/"]


@pytest.mark.parametrize("charset", ["x-no-such-charset", "utf-16", "utf-32", "latin-1", "utf-7"])
def test_a_form_in_another_charset_is_a_415_on_every_form(charset):
    for url in endpoints():
        response = Client().generic("POST", url, b"player_0=%E8%80%81&stake=1",
                                    content_type=f"application/x-www-form-urlencoded; charset={charset}")
        assert response.status_code == 415, url
        assert "UTF-8" in response.content.decode()


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "utf8", '"utf-8"'])
def test_utf8_said_any_way_still_goes_through(charset):
    response = Client().generic("POST", "/evening/new/", b"player_0=%E8%80%81&stake=1",
                                content_type=f"application/x-www-form-urlencoded; charset={charset}")
    assert response.status_code == 400  # the form, answered: the other fields are missing


def every_form(evening) -> list[str]:
    """Every address a form is posted to (issue 18 counted 18)."""
    return ["/evening/new/", "/evening/import/", "/round/", "/round/preview/", "/round/what-if/",
            *(f"/e/{evening.token}/{tail}" for tail in (
                "me/", "settle/paid/", "what-if/", "rounds/new/", "rounds/preview/", "rounds/draft/",
                "rounds/draft/confirm/", "rounds/draft/discard/", "rounds/1/confirm/", "rounds/1/edit/",
                "rounds/1/edit/confirm/", "rounds/1/what-if/", "rounds/1/delete/"))]


@pytest.mark.parametrize("spelling", ["UTF8", "utf_8", "U8", "UTF", "cp65001"])
def test_every_spelling_of_utf8_is_answered_as_utf8_on_every_form(settings, spelling):
    """`charset=UTF8` was a 500 on every form: Django refuses a form body whose charset is not
    spelled exactly "utf-8". Each form must answer it as it answers "utf-8" (a form error, a
    redirect…), with DEBUG off as in production."""
    settings.DEBUG = False
    evening = make_evening()
    record_rounds(evening, ["E1"])
    body = "player_0=老王&stake=1&seat=0&note=翻牌不对".encode()
    answers = {}
    for url in every_form(evening):
        for charset in ("utf-8", spelling):
            client = Client(raise_request_exception=False)
            response = client.generic("POST", url, body,
                                      content_type=f"application/x-www-form-urlencoded; charset={charset}")
            answers[url, charset] = response.status_code
        assert answers[url, spelling] < 500, url
        assert answers[url, spelling] == answers[url, "utf-8"], url
