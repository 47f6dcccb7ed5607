"""The rules pages: a preset, a round's own rules carried in its links, and an evening's rules at
its two addresses (the evening's header links there, not to its preset)."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.http import QueryDict
from django.urls import reverse

from calculator.presentation import rules_url
from calculator.views.pages import asked_rules
from calculator.scoring import PRESETS, rules_for
from tests.factories import make_evening

RULES = reverse("calculator:rules")
pytestmark = pytest.mark.django_db


def page(client, url: str, params: dict | None = None) -> str:
    response = client.get(url, params or {})
    assert response.status_code == 200
    return response.content.decode()


def r12(html: str) -> str:
    """The text of rule R12 (自摸) on a rules page."""
    return re.search(r'id="R12">.*?<p>(.*?)</p>', html, re.S)[1]


@pytest.mark.parametrize(
    "options",
    [{"self_draw": "double"}, {"patterns": {"ping_hu": 2}, "gold": 3, "pass_dou": "off"},
     {"jian_dou_san": True, "declare": {"hard": 30}, "multi_win_dealer": "discarder"}],
)
def test_a_rounds_rules_link_reads_back_as_the_same_rules(options):
    rules, _problems = rules_for("anshun", options)
    link = urlsplit(rules_url(rules))

    assert link.path == RULES and asked_rules(QueryDict(link.query)) == rules
    assert rules_url(PRESETS["anshun"]) == f"{RULES}?preset=anshun"


def test_a_link_with_an_option_states_that_option_not_the_presets(client):
    rules, _problems = rules_for("guiyang", {"self_draw": "double"})

    html = page(client, rules_url(rules))

    assert "2V（翻倍）" in r12(html) and "V + 1 番" not in r12(html)
    assert "在贵阳规则上改了：自摸" in html
    assert 'aria-current="page"' not in html  # no preset tab claims to be these rules


@pytest.mark.parametrize(
    "options",
    ["{", "[1]", '"double"', "NaN", '{"self_draw": "triple"}', '{"gold": -1}', '{"nothing": 1}',
     '{"patterns": {"ping_hu": 1e999}}', "[" * 5000 + "]" * 5000, "\x00"],
)
def test_options_scoring_refuses_give_the_preset_as_it_is(client, options):
    html = page(client, RULES, {"preset": "anshun", "options": options})

    assert "安顺捉鸡规则" in html and "2V（翻倍）" in r12(html)
    assert "规则上改了" not in html


def test_an_unknown_preset_gives_guiyang_even_with_options(client):
    html = page(client, RULES, {"preset": "nowhere", "options": '{"self_draw": "double"}'})

    assert "贵阳捉鸡规则" in html and "2V（翻倍）" in r12(html)


def test_an_evenings_rules_page_states_its_own_options_at_both_addresses(client):
    evening = make_evening(options={"self_draw": "double", "chicken_discards": "none"})
    for url in (reverse("calculator:evening_rules", args=[evening.token]),
                reverse("calculator:evening_follow_rules", args=[evening.read_token])):
        response = client.get(url)
        html = response.content.decode()

        assert response.status_code == 200
        assert "private" in response["Cache-Control"] and "no-cache" in response["Cache-Control"]
        assert "2V（翻倍）" in r12(html) and "V + 1 番" not in r12(html)
        assert "在贵阳规则上改了：自摸、打出的鸡" in html and "这一晚的规则" in html


def test_the_read_only_rules_page_never_shows_the_edit_address(client):
    evening = make_evening()

    html = page(client, reverse("calculator:evening_follow_rules", args=[evening.read_token]))

    assert evening.token not in html
    assert reverse("calculator:evening_follow", args=[evening.read_token]) in html  # the way back


def test_unknown_addresses_have_no_rules(client):
    assert client.get(reverse("calculator:evening_rules", args=["x" * 32])).status_code == 404
    assert client.get(reverse("calculator:evening_follow_rules", args=["x" * 32])).status_code == 404


def test_the_evening_header_links_to_the_evenings_own_rules(client):
    evening = make_evening(options={"self_draw": "double"})
    edit_rules = reverse("calculator:evening_rules", args=[evening.token])
    read_rules = reverse("calculator:evening_follow_rules", args=[evening.read_token])

    board = page(client, reverse("calculator:evening_detail", args=[evening.token]))
    follow = page(client, reverse("calculator:evening_follow", args=[evening.read_token]))

    assert f'href="{edit_rules}"' in board and "?preset=" not in board
    assert f'href="{read_rules}"' in follow and evening.token not in follow
