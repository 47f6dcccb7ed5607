"""Issue 21 end to end: the evening form offers R66–R70 and says what 天胡/地胡 and 包鸡只包亮出来的
mean before a table picks them; an evening set with them scores by them (live preview and result),
and its rules page says which it plays, in Chinese and English."""
from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from calculator import services
from calculator.models import Evening
from tests.round_form_data import record_to_post_data
from tests.scoring.factory import discard_win, record, seat
from tests.web.test_evening_views import evening_post

pytestmark = pytest.mark.django_db

# R69: seat 0 wins 大对子 on seat 3's 5万; seat 1 is ready; seats 2 (discarded a 幺鸡) and 3 are not.
# R50 alone: [10, 3, −5, −8]; pooled, seat 3 pays 1 to each ready seat for seat 2's 幺鸡: [11, 4, −5, −10].
POOLED = record(["555m888p777s333p11s", "123s234m678m456p9p", seat("12468m3579p2579s", discards="1s"),
                 "13479m125p24589s"], discard_win(3, (0, "5m")))


def url(name: str, evening: Evening, *args) -> str:
    return reverse(f"calculator:{name}", args=[evening.token, *args])


def test_the_evening_form_offers_them_with_what_they_mean(client):
    page = html.unescape(client.get(reverse("calculator:evening_new")).content.decode())
    for name in ("dealer_bonus_win_only", "ze_ren_every", "wu_gu_ji_to_ready", "discard_pool"):
        assert f'name="{name}"' in page, name
    assert '<option value="to_ready_chong_feng_all">' in page  # R50's other table
    # Point 5 of the issue: the whole payment, and no melded 翻牌鸡 under 包鸡只包亮出来的.
    assert "习惯“33 + 自摸”的桌填 34" in page and "习惯“23 + 自摸”的桌填 24" in page
    assert "翻牌鸡不管是不是碰杠了都不包" in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = html.unescape(client.get(reverse("calculator:evening_new")).content.decode())
    assert 'A table used to "33 + 自摸" enters 34.' in page
    assert "no turned chicken 翻牌鸡, melded or not" in page


def test_an_evening_pooling_discards_scores_and_says_so(client):
    response = client.post(reverse("calculator:evening_new"), evening_post(
        chicken_flow="to_ready", discard_pool="yes", dealer_bonus="1", dealer_bonus_win_only="yes"))
    assert response.status_code == 302
    evening = Evening.objects.get()
    assert {k: evening.rules[k] for k in ("chicken_flow", "discard_pool", "dealer_bonus_win_only")} == {
        "chicken_flow": "to_ready", "discard_pool": True, "dealer_bonus_win_only": True}
    preview = client.post(url("evening_round_preview", evening), record_to_post_data(POOLED),
                          HTTP_HX_REQUEST="true").content.decode()
    assert "没叫的合付" in preview
    # Seat 0 deals: its win is 大对子 5 + 庄家加番 1 from seat 3 (R59; R66 keeps it on a win).
    round_ = services.round_record(evening=evening, record=POOLED)
    assert round_.net == [12, 4, -5, -11]
    rules = html.unescape(client.get(url("evening_rules", evening)).content.decode())
    for number, on in (("R66", True), ("R67", False), ("R68", False), ("R69", True)):
        text = re.search(rf'id="{number}">.*?<p>(.*?)</p>', rules, re.DOTALL)[1]
        assert ("（本规则用这一条。）" if on else "（本规则不用这一条。）") in text, number
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    rules = html.unescape(client.get(url("evening_rules", evening)).content.decode())
    assert "Players not ready pool their discarded 幺鸡" in rules
    assert "Dealer bonus 庄家加番 on the dealer's win only" in rules


# R70: seat 3 (ready) discarded the first 8筒, unclaimed; seat 0 wins 大对子 on seat 2's 7条 with 888筒.
# With 乌骨鸡 2: seat 0 collects 6 from each, seat 3 its 冲锋乌骨鸡 2 × 2 = 4 from each: [19, −10, −15, 6].
WU_FIRST = record(["222m555m888p33p777s", "13456789m15679p", "3679m1234p25679s",
                   seat("456s234m678m456p9p", discards="8p")], discard_win(2, (0, "7s")))
WU_FIRST["first_wu_gu_ji"] = {"seat": 3, "claimed_by": None}


def test_the_round_form_asks_for_the_first_8_dot_and_pays_a_chong_feng_wu_gu_ji(client):
    response = client.post(reverse("calculator:evening_new"), evening_post(wu_gu_ji="2", chong_feng_wu_gu_ji="yes"))
    assert response.status_code == 302
    evening = Evening.objects.get()
    form = html.unescape(client.get(url("evening_round_new", evening)).content.decode())
    assert "第一张 8筒（冲锋乌骨鸡，只有家规用）" in form and 'name="first_wu_gu_ji_seat"' in form
    posted = record_to_post_data(WU_FIRST)
    preview = client.post(url("evening_round_preview", evening), posted, HTTP_HX_REQUEST="true").content.decode()
    assert "冲锋乌骨鸡" in preview
    round_ = services.round_record(evening=evening, record=WU_FIRST)
    assert round_.net == [19, -10, -15, 6]
    # A correction shows the first 8筒 it was recorded with.
    again = html.unescape(client.get(url("evening_round_edit", evening, 1)).content.decode())
    assert re.search(r'name="first_wu_gu_ji_seat" value="3"[^>]*checked', again)
    rules = html.unescape(client.get(url("evening_rules", evening)).content.decode())
    assert "（本规则用这一条。）" in re.search(r'id="R70">.*?<p>(.*?)</p>', rules, re.DOTALL)[1]
