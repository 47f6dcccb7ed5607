"""乌骨鸡 (R44) end to end, the first house rule built from the OPTIONS table and item words: the
evening form sets it, the live preview and the result pay it, the rules page, receipt and report
say it in words, in Chinese and English."""
from __future__ import annotations

import pytest
from django.urls import reverse

from calculator.models import Evening
from calculator import services
from tests.pdf_tools import poppler, squeeze
from tests.round_form_data import record_to_post_data
from tests.scoring.factory import discard_win, record
from tests.web.test_evening_views import evening_post

pytestmark = pytest.mark.django_db

# Seat 0 wins 大对子 (5) on seat 2's 7条 holding 8筒 ×3; the turned 7筒 makes 8筒 gold: each other
# seat pays seat 0 3 tiles × 1 × 2 = 6 for 金乌骨鸡, and no 翻牌鸡 besides.
SEATS = ["111p555m888p33p777s", "99p234s456s678m67s", "1234578m456p249s", "1234678m56p2689s"]
ROUND = record(SEATS, discard_win(2, (0, "7s")), turned="7p")


@pytest.fixture
def evening(client) -> Evening:
    response = client.post(reverse("calculator:evening_new"), evening_post(wu_gu_ji="1"))
    assert response.status_code == 302
    evening = Evening.objects.get()
    assert evening.rules["wu_gu_ji"] == 1
    return evening


def url(name: str, evening: Evening, *args) -> str:
    return reverse(f"calculator:{name}", args=[evening.token, *args])


def test_the_evening_form_offers_it_blank_as_the_preset_has_it(client):
    page = client.get(reverse("calculator:evening_new")).content.decode()
    assert 'name="wu_gu_ji"' in page and "空着就按地方规则：贵阳 0、安顺 0、兴义 0" in page


def test_the_live_preview_and_the_result_pay_it(client, evening):
    data = record_to_post_data(ROUND)
    preview = client.post(url("evening_round_preview", evening), data, HTTP_HX_REQUEST="true").content.decode()
    assert "金乌骨鸡 ×3" in preview

    round_ = services.round_record(evening=evening, record=ROUND)
    assert round_.net == [5 + 3 * 6, -6, -5 - 6, -6]
    page = client.get(url("evening_round", evening, 1)).content.decode()
    assert "金乌骨鸡 ×3" in page and "#R44" in page and "翻牌鸡" not in page.split("各家的牌")[0]


def test_the_rules_page_receipt_and_report_say_it_in_words(client, evening, tmp_path):
    services.round_record(evening=evening, record=ROUND)
    rules = client.get(url("evening_rules", evening)).content.decode()
    assert 'id="R44"' in rules and "8筒 每张算 1" in rules and "在贵阳规则上改了：乌骨鸡" in rules

    receipt = squeeze(poppler("pdftotext", client.get(url("evening_round_receipt_pdf", evening, 1)).content,
                              tmp_path))
    assert squeeze("改过的选项：乌骨鸡：8筒 每张算 1") in receipt and "金乌骨鸡×3" in receipt
    report = squeeze(poppler("pdftotext", client.get(url("evening_report_pdf", evening)).content, tmp_path))
    assert "乌骨鸡" in report and "8筒每张算1" in report


def test_it_reads_in_english(client, evening):
    services.round_record(evening=evening, record=ROUND)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(url("evening_round", evening, 1)).content.decode()
    rules = client.get(url("evening_rules", evening)).content.decode()
    assert "Gold black-bone chicken 金乌骨鸡 ×3" in page
    assert "8-dot: 1 each" in rules and "The 8-dot is a fixed chicken too" in rules
