"""A 固定桌's two addresses are its only keys, as an evening's are (issue 24).

/t/<table_token>/… can change the table and open its evenings; /tv/<table_read_token>/… only shows
the season. Every table URL is found through the resolver; a wrong address is a 404 (never a 403)
and changes nothing; no read-only page holds an edit address, the table's or an evening's.
"""
from __future__ import annotations

import secrets

import pytest
from django.test import Client
from django.urls import reverse

from calculator import services
from calculator.models import Evening, Player, Round, Table, TablePlayer
from tests.factories import make_evening, record_rounds
from tests.system.test_access import app_patterns

pytestmark = pytest.mark.django_db

EDIT_URLS = [(p.name, route) for route, p in app_patterns() if ":table_token>" in route]
READ_URLS = [(p.name, route) for route, p in app_patterns() if ":table_read_token>" in route]


def url_for(name: str, route: str, key: str, query: str = "") -> str:
    slot = "table_read_token" if ":table_read_token>" in route else "table_token"
    placeholder = "A" * 32
    return reverse(f"calculator:{name}", kwargs={slot: placeholder}).replace(placeholder, key, 1) + query


def figure_query(table: Table) -> str:
    """What the season's links add: the rounds behind one figure of one player."""
    return f"?figure=hu&who={table.roster.first().pk}"


def database_state() -> list:
    return [list(model.objects.order_by("pk").values_list()) for model in (Table, TablePlayer, Evening, Player, Round)]


@pytest.fixture
def table():
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    return services.table_from_evening(evening=evening)


def everything_posted(table: Table) -> dict:
    evening = table.evenings.get()
    other = make_evening(names=["甲", "乙", "丙"])
    roster = list(table.roster.all())
    return {"evening": str(evening.pk), "seat": "0", "member": str(roster[1].pk), "keep": str(roster[0].pk),
            "absorb": str(roster[1].pk), "address": other.token}


def wrong_keys(table: Table, other: Table) -> dict[str, str]:
    evening = table.evenings.get()
    return {
        "the read-only address": table.read_token,
        "an evening's edit address": evening.token,
        "another table's read-only address": other.read_token,
        "a random address": secrets.token_urlsafe(24),
        "one character off": table.token[:-1] + ("A" if table.token[-1] != "A" else "B"),
        "a NUL": "%00",
        "Chinese": "%E8%80%81%E7%8E%8B",
    }


def test_the_table_routes_are_found():
    assert len(EDIT_URLS) >= 10 and len(READ_URLS) >= 3
    for route, pattern in app_patterns():
        if (pattern.name or "").startswith("table_") and pattern.name != "table_new":
            assert route.startswith(("t/<slug:table_token>/", "tv/<slug:table_read_token>/")), route


@pytest.mark.parametrize("method", ["get", "post"])
def test_every_table_edit_url_with_a_wrong_address_is_not_found_and_changes_nothing(client, table, method):
    other = services.table_create(name="别的桌", names=["甲", "乙", "丙"])
    data = everything_posted(table) if method == "post" else {}
    before = database_state()
    for name, route in EDIT_URLS:
        for what, key in wrong_keys(table, other).items():
            response = getattr(client, method)(url_for(name, route, key), data)
            assert response.status_code in (404, 405), (name, what, response.status_code)
            assert table.token not in response.content.decode(errors="replace")
    assert database_state() == before
    # The control: the real address is accepted with the same body.
    for name, route in EDIT_URLS:
        status = getattr(Client(), method)(url_for(name, route, table.token, figure_query(table)), data).status_code
        assert status in (200, 302, 400, 405), (name, status)


def test_the_read_only_address_writes_nothing_and_shows_no_edit_address(client, table):
    evening = table.evenings.get()
    data = everything_posted(table)
    before = database_state()
    for name, route in READ_URLS:
        url = url_for(name, route, table.read_token)
        for method in ("post", "put", "patch", "delete"):
            assert getattr(client, method)(url, data).status_code == 405, (name, method)
        response = client.get(url + figure_query(table))
        assert response.status_code == 200, name
        assert table.token.encode() not in response.content and evening.token.encode() not in response.content
    assert database_state() == before


def test_a_wrong_read_only_address_is_not_found(client, table):
    other = services.table_create(name="别的桌", names=["甲", "乙", "丙"])
    for name, route in READ_URLS:
        for what, key in {**wrong_keys(table, other), "the edit address": table.token}.items():
            if key in (other.read_token, table.read_token):
                continue
            assert client.get(url_for(name, route, key)).status_code == 404, (name, what)


def test_an_evenings_read_only_page_links_only_the_tables_read_only_address(client, table):
    evening = table.evenings.get()
    page = client.get(reverse("calculator:evening_follow", args=[evening.read_token])).content.decode()
    assert table.read_token in page and table.token not in page
    edit = client.get(reverse("calculator:evening_detail", args=[evening.token])).content.decode()
    assert table.token in edit


def test_table_pages_are_private(client, table):
    for name, route in EDIT_URLS[:1] + READ_URLS[:1]:
        key = table.read_token if ":table_read_token>" in route else table.token
        response = client.get(url_for(name, route, key))
        assert "private" in response["Cache-Control"] and response["X-Robots-Tag"] == "noindex, nofollow"
