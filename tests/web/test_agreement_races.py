"""The table's agreement across drafts that end and begin again: a correction opened beside the
next round, a draft thrown away and restarted, a word or a save from a page that has not yet
seen what the table changed. Found by an adversarial review with four phones (each test failed
on the code before its fix); the round stored, or the word counted, is always the one the table
saw, and a phone that missed something is told what."""
from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from calculator import selectors, services
from calculator.models import Evening, Round
from tests.factories import example_record, make_evening
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PREVIEW = "evening_round_preview"


def url(name: str, evening: Evening, *args) -> str:
    return reverse(f"calculator:{name}", args=[evening.token, *args])


def hidden(page: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', page).group(1)


def say_who(client: Client, evening: Evening, seat: int) -> Client:
    client.post(url("evening_me", evening), {"seat": str(seat)})
    return client


def open_round(client: Client, evening: Evening) -> dict:
    """Open 记一局 as a phone does; the hidden fields its form posts back."""
    page = client.get(url("evening_round_new", evening)).content.decode()
    return {name: hidden(page, name) for name in ("idempotency_key", "draft_base", "draft_client")}


def open_edit(client: Client, evening: Evening, number: int = 1) -> dict:
    """Open 改这局 as a phone does; the hidden fields its form posts back."""
    page = client.get(url("evening_round_edit", evening, number)).content.decode()
    return {name: hidden(page, name) for name in ("version", "idempotency_key", "draft_base", "draft_client")}


def posted(record: dict, form: dict, changed: str = "", **extra) -> dict:
    """A round form (a new round's or a correction's) as its page posts it."""
    data = record_to_post_data(record)
    for seat, held in enumerate(record["seats"]):  # a correction's stored meld rows are its initial rows
        data[f"seat{seat}-melds-INITIAL_FORMS"] = str(len(held.get("melds", []))) if "version" in form else "0"
    return {**data, **form, "draft_changed": changed, **extra}


def turned(tile: str, example: str = "E1") -> dict:
    return {**example_record(example), "turned": tile}


def test_typing_the_next_round_never_lands_in_a_correction_open_beside_it(client):
    """阿珍 glanced at 改这局 on round 1 (its draft stays open until saved or thrown away); 老王
    types round 2: his 9条 is round 2's, not round 1's correction."""
    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"))
    zhen, wang = say_who(Client(), evening, 2), say_who(Client(), evening, 0)
    open_edit(zhen, evening)
    form = open_round(wang, evening)
    wang.post(url(PREVIEW, evening), posted(turned("9s"), form, changed="turned"), **HTMX)
    assert selectors.correction_draft(evening=evening, number=1).version == 0
    assert selectors.evening_draft(evening=evening).data.get("turned") == ["9s"]
    other = open_round(Client(), evening)  # another phone on 记一局 sees it
    assert selectors.evening_draft(evening=evening).data["turned"] == ["9s"]
    assert other["idempotency_key"] == form["idempotency_key"]
