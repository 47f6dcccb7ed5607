"""A form POST that declares a charset other than UTF-8 (issue 14): Django would decode the body
with it, and an unknown one (or UTF-16) made a 500 on every form. Now it is a 415, said plainly."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_evening

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
