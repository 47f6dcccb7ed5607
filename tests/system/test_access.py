"""Nobody in who shouldn't be (issue 5): the two addresses of an evening are the only keys.

- /e/<token>/… can change the evening; /v/<read_token>/… can only look. Every URL pattern of
  the app is found through the resolver, so a route added later is covered without editing
  this file.
- A wrong address answers 404 — the same as an evening that does not exist, never a 403 that
  would confirm one — and changes nothing in the database.
- The addresses carry at least 128 random bits, and no page lists evenings.
"""
from __future__ import annotations

import json
import math
import re
import secrets
import string
import subprocess
import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from calculator import selectors, services
from calculator.models import Change, Evening, PaidTransfer, Player, Round, new_token
from tests.factories import example_record, make_evening, record_rounds
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db

TOKEN_ALPHABET = set(string.ascii_letters + string.digits + "-_")


def app_patterns() -> list[tuple[str, URLPattern]]:
    """(route, pattern) for every URL of the calculator app, as the resolver knows them."""
    found = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + str(entry.pattern), entry.namespace or namespace)
            elif namespace == "calculator":
                found.append((prefix + str(entry.pattern), entry))

    walk(get_resolver().url_patterns, "", "")
    return found


def urls_with(converter: str) -> list[tuple[str, str]]:
    """(name, route) of the app's URLs that take `converter` (token or read_token)."""
    return [(p.name, route) for route, p in app_patterns() if f":{converter}>" in route]


EDIT_URLS = urls_with("token")
READ_URLS = urls_with("read_token")


def url_for(name: str, route: str, key: str, number: int = 1) -> str:
    """The URL with `key` in the address slot, whatever `key` is (even what reverse refuses)."""
    placeholder = "A" * 32
    kwargs = {"number": number} if "<int:number>" in route else {}
    slot = "read_token" if ":read_token>" in route else "token"
    return reverse(f"calculator:{name}", kwargs={slot: placeholder, **kwargs}).replace(placeholder, key, 1)


def everything_posted(evening: Evening) -> dict:
    """One body that a real address would accept on each write URL: a round form, a version, a
    corrected record, a paid transfer, a seat."""
    transfer = selectors.evening_settle_up(evening=evening).transfers[0]
    return {
        **record_to_post_data(example_record("E2")),
        "idempotency_key": str(uuid.uuid4()),
        "version": "1",
        "record": json.dumps(example_record("E3")),
        "payer": str(transfer.payer), "payee": str(transfer.payee), "points": str(transfer.points),
        "paid": "on",
        "seat": "0",
    }


def database_state() -> list:
    """Every row the ledger holds, every column."""
    return [list(model.objects.order_by("pk").values_list()) for model in
            (Evening, Player, Round, Change, PaidTransfer)]


@pytest.fixture
def evenings():
    """The evening under attack, with rounds, and a second one whose read token is also tried."""
    target, other = make_evening(), make_evening(names=["甲", "乙", "丙"])
    record_rounds(target, ["E1", "E2"])
    return target, other


def made_up_keys(target: Evening, other: Evening) -> dict[str, str]:
    return {
        "the read-only address": target.read_token,
        "a random address": secrets.token_urlsafe(24),
        "a short address": "abc",
        "one character off": target.token[:-1] + ("A" if target.token[-1] != "A" else "B"),
        "another evening's read-only address": other.read_token,
        "the address in capitals": target.token.upper() if target.token.upper() != target.token else "X" * 32,
        "a very long address": "a" * 5000,
        "a NUL": "%00",
        "a NUL after the address": target.token + "%00",
        "a path": "..%2F..%2Fadmin",
        "Chinese": "%E8%80%81%E7%8E%8B",
    }


# -- which URLs exist --------------------------------------------------------------------------


def test_the_evening_routes_are_found_and_every_one_sits_behind_an_address():
    assert len(EDIT_URLS) >= 15 and len(READ_URLS) >= 3
    for route, pattern in app_patterns():
        if "evening" in (pattern.name or "") and pattern.name not in ("evening_new", "evening_import"):
            assert route.startswith(("e/<slug:token>/", "v/<slug:read_token>/")), route


# -- the wrong address ----------------------------------------------------------------------


@pytest.mark.parametrize("method", ["get", "post"])
def test_every_edit_url_with_a_wrong_address_is_not_found_and_changes_nothing(client, evenings, method):
    target, other = evenings
    data = everything_posted(target) if method == "post" else {}
    before = database_state()
    seen = {}
    for name, route in EDIT_URLS:
        for what, key in made_up_keys(target, other).items():
            response = getattr(client, method)(url_for(name, route, key), data)
            seen[(name, what)] = response.status_code
            assert response.status_code in (404, 405), (name, what, response.status_code)
            if response.status_code == 404:
                assert target.token not in response.content.decode(errors="replace")
    assert database_state() == before

    # The control: the real address is accepted on the same URLs with the same body, so the
    # 404s above are the address being refused. 405 only where the method is never allowed
    # (a key that is no address at all, like a NUL, is a 404 even there).
    control = make_evening()
    record_rounds(control, ["E1", "E2"])
    data = everything_posted(control) if method == "post" else {}
    for name, route in EDIT_URLS:
        status = getattr(Client(), method)(url_for(name, route, control.token), data).status_code
        assert status in (200, 302, 400, 405), (name, status)
        for what in made_up_keys(target, other):
            assert seen[(name, what)] in ((404, 405) if status == 405 else (404,)), (name, what)


def test_the_read_only_address_has_no_write_url_at_all(client, evenings):
    target, _other = evenings
    before = database_state()
    for name, route in READ_URLS:
        for method in ("post", "put", "patch", "delete"):
            url = url_for(name, route, target.read_token)
            response = getattr(client, method)(url, everything_posted(target))
            assert response.status_code == 405, (name, method)
    assert database_state() == before


def test_a_wrong_read_only_address_is_not_found(client, evenings):
    target, other = evenings
    for name, route in READ_URLS:
        for what, key in {**made_up_keys(target, other), "the edit address": target.token}.items():
            if key in (target.read_token, other.read_token):  # real read-only addresses
                continue
            assert client.get(url_for(name, route, key)).status_code == 404, (name, what)


def test_a_round_of_another_evening_is_not_found_at_that_evenings_address(client, evenings):
    _target, other = evenings  # the target has rounds 1 and 2; the other evening has none
    for name, route in EDIT_URLS + READ_URLS:
        if "<int:number>" in route:
            key = other.read_token if (name, route) in READ_URLS else other.token
            assert client.get(url_for(name, route, key, number=1)).status_code in (404, 405)
            assert client.get(url_for(name, route, key, number=2**40)).status_code in (404, 405)


# -- what the read-only address shows -----------------------------------------------------------


def test_no_read_only_page_contains_the_edit_address(client, evenings, tmp_path):
    target, _other = evenings
    for name, route in READ_URLS:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url_for(name, route, target.read_token), **headers)
            assert response.status_code == 200, name
            body = response.content
            assert target.token.encode() not in body, name
            if response["Content-Type"] == "application/pdf":
                (tmp_path / "follow.pdf").write_bytes(body)
                text = subprocess.run(["pdftotext", str(tmp_path / "follow.pdf"), "-"], check=True,
                                      capture_output=True, text=True).stdout
                assert target.token not in text


# -- nothing lists evenings ---------------------------------------------------------------------


def test_no_page_without_an_address_shows_any_evenings_address(client, evenings):
    target, other = evenings
    secrets_ = [target.token, target.read_token, other.token, other.read_token]
    plain = [(p.name, route) for route, p in app_patterns() if "<" not in route]
    assert plain  # home, rules, round, evening/new, evening/import, the API
    for name, _route in plain:
        response = client.get(reverse(f"calculator:{name}"))
        assert response.status_code in (200, 405), name
        assert not any(s.encode() in response.content for s in secrets_), name


@pytest.mark.parametrize("path", ["/admin/", "/admin/calculator/evening/", "/admin/calculator/round/",
                                  "/admin/calculator/change/"])
def test_the_admin_lists_nothing_without_a_staff_login(client, evenings, path):
    target, _other = evenings
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    login = client.get(response["Location"])
    assert target.token not in login.content.decode() and target.read_token not in login.content.decode()


# -- the addresses themselves -------------------------------------------------------------------


def test_addresses_carry_at_least_128_random_bits():
    tokens = [new_token() for _ in range(2000)]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) == 32 and set(t) <= TOKEN_ALPHABET for t in tokens)
    bits = 32 * math.log2(len(TOKEN_ALPHABET))  # 24 random bytes as URL-safe base64
    assert bits >= 128
    # Every position takes (nearly) every one of the 64 characters: no fixed or guessable part.
    for position in range(32):
        assert len({t[position] for t in tokens}) >= 60, position


def test_each_evening_gets_its_two_addresses_from_the_random_token_function():
    assert Evening._meta.get_field("token").default is new_token
    assert Evening._meta.get_field("read_token").default is new_token
    evening = make_evening()
    assert evening.token != evening.read_token
    for token in (evening.token, evening.read_token):
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)


def test_an_imported_evening_gets_new_addresses_not_the_ones_in_the_file():
    evening = make_evening()
    data = services.evening_export(evening=evening)
    data["token"], data["read_token"] = "chosen-by-the-file-000000000000", "chosen-too-0000000000000000000"
    copy = services.evening_import(data=data)
    assert copy.token not in (evening.token, data["token"])
    assert copy.read_token not in (evening.read_token, data["read_token"])
