"""R60–R65 end to end: the evening form sets them, the live preview and the result pay them, the
rules page says them in words, in Chinese and English (the pattern of test_wu_gu_ji)."""
from __future__ import annotations

import pytest
from django.urls import reverse

from calculator import services
from calculator.models import Evening
from tests.round_form_data import record_to_post_data
from tests.scoring.factory import discard_win, record, self_draw
from tests.web.test_evening_views import evening_post

pytestmark = pytest.mark.django_db

# Seat 0 wins a 单钓 on seat 2's 5筒 (four pongs, the 5筒 pair): 10 instead of 大对子 5 (R60).
DAN_DIAO = record(["55p P2m<1 P9m<2 P8s<3 P7s<1", "234s456s99s345p67m", "147m258p369s2m5m8m9p",
                   "369m147p258s4m7m3p6p"], discard_win(2, (0, "5p")))


@pytest.fixture
def evening(client) -> Evening:
    response = client.post(reverse("calculator:evening_new"),
                           evening_post(dan_diao="10", gen_zhuang="4", tian_hu="33"))
    assert response.status_code == 302
    evening = Evening.objects.get()
    assert (evening.rules["dan_diao"], evening.rules["gen_zhuang"], evening.rules["tian_hu"]) == (10, 4, 33)
    return evening


def url(name: str, evening: Evening, *args) -> str:
    return reverse(f"calculator:{name}", args=[evening.token, *args])


def test_the_live_preview_and_the_result_pay_a_dan_diao(client, evening):
    preview = client.post(url("evening_round_preview", evening), record_to_post_data(DAN_DIAO),
                          HTTP_HX_REQUEST="true").content.decode()
    assert "单钓 10" in preview
    round_ = services.round_record(evening=evening, record=DAN_DIAO)
    assert round_.net == [10, 0, -10, 0]
    assert "单钓 10" in client.get(url("evening_round", evening, 1)).content.decode()


def test_kai_ju_gen_and_tian_hu_from_the_round_form(client, evening):
    # The dealer (seat 0) self-draws 平胡 on its dealt 14, and every first discard followed its own:
    # 天胡 33 from each (R62), and the dealer pays each 4 (R63): 3 × (33 − 4).
    data = record_to_post_data(record(["123m456p789p88m345s", "234s456s99s345p67m", "147m258p369s2m5m8m9p",
                                       "369m147p258s4m7m3p6p"], self_draw(0, "8m")))
    data.update({"first_draw": "on", "kai_ju_gen": "on"})
    preview = client.post(url("evening_round_preview", evening), data, HTTP_HX_REQUEST="true").content.decode()
    assert "天胡 33" in preview and "开局跟 4" in preview


def test_kai_ju_gen_is_asked_only_where_the_evening_plays_it(client, evening):
    asked = client.get(url("evening_round_new", evening)).content.decode()
    assert 'name="kai_ju_gen"' in asked
    client.post(reverse("calculator:evening_new"), evening_post())  # 贵阳 as it is: no 开局跟 (R63 off)
    plain = Evening.objects.exclude(pk=evening.pk).get()
    page = client.get(url("evening_round_new", plain)).content.decode()
    assert 'name="kai_ju_gen"' not in page and "开局跟" not in page  # a switch that could pay nothing


def test_the_rules_page_says_them_in_chinese_and_english(client, evening):
    rules = client.get(url("evening_rules", evening)).content.decode()
    assert 'id="R60"' in rules and 'id="R65"' in rules and "单钓" in rules
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    rules = client.get(url("evening_rules", evening)).content.decode()
    assert "Single wait 单钓" in rules and "Heavenly win 天胡" in rules and "Dealer followed 开局跟" in rules
