"""换个规矩看看: a round (stateless, stored, or a correction not yet saved) and a whole evening
under other rules, side by side; nothing stored changes (R41). Posted as a browser without
JavaScript posts."""
from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from calculator.models import Change, Round
from tests.factories import example_record, make_evening, record_rounds
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db

WHAT_IF = reverse("calculator:round_what_if")


def text(response) -> str:
    return html.unescape(response.content.decode())


def row(page: str, seat: int) -> list[str]:
    """The cells of one player's row in the what-if table: name, before, after, change."""
    table = re.search(r'<table class="what-if-table">.*?</table>', page, re.DOTALL)[0]
    cells = re.search(rf'<tr data-seat="{seat}">(.*?)</tr>', table, re.DOTALL)[1]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", cells, re.DOTALL)]


def lines(page: str, kind: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", m).strip() for m in
            re.findall(rf'<li class="what-if-{kind}">.*?<(?:del|ins)>(.*?)</(?:del|ins)>', page, re.DOTALL)]


# -- the stateless round -----------------------------------------------------------------------


def test_the_result_page_offers_the_other_presets_in_one_tap(client):
    page = text(client.post(reverse("calculator:round_new"), record_to_post_data(example_record("E1"))))
    form = re.search(r'<form method="post" action="/round/what-if/" class="what-if-quick".*?</form>', page, re.DOTALL)[0]
    # E1 is plain 贵阳: the other two presets are offered, 贵阳 itself is not.
    assert re.findall(r'name="what_if-preset" value="(\w+)"', form) == ["anshun", "xingyi"]
    assert 'name="seat0-concealed"' in form  # the round itself travels with the tap


def test_a_round_under_xingyi_side_by_side_with_the_lines_that_changed(client):
    data = {**record_to_post_data(example_record("E1")), "what_if-preset": "xingyi"}
    response = client.post(WHAT_IF, data)
    page = text(response)
    assert response.status_code == 200
    # 东 won 平胡 1 on 西's discard, with a 闷豆 and two 幺鸡 in hand. 兴义 counts a held 幺鸡 2,
    # doubled by nothing here: 1 + 闷豆 2×3 + 幺鸡 4×3 + 翻牌鸡 1×3 = 22 instead of 1 + 6 + 2×3 + 3 = 15.
    assert row(page, 0) == ["东", "+15 +15 元", "+22 +22 元", "+7"]
    # 南 paid 2+2+1 and collected 1 from each other seat for its discarded 6万 (a 翻牌鸡): −2.
    # 兴义 counts only discarded 幺鸡: 南 pays 4+2+1 and collects nothing, −7.
    assert row(page, 1) == ["南", "−2 −2 元", "−7 −7 元", "−5"]
    assert "南 付 东 2 番：幺鸡 ×2" in lines(page, "removed")
    assert "南 付 东 4 番：幺鸡 ×2" in lines(page, "added")
    assert "东 付 南 1 番：翻牌鸡 6万 ×1" in lines(page, "removed")
    assert "平胡 1" not in " ".join(lines(page, "removed") + lines(page, "added"))  # unchanged lines stay out
    assert "只是看看：记下的账一点没变。" in page


def test_flipping_one_option_names_it_and_re_scores(client):
    # E2: 南 self-draws a 清大对 (15). 自摸 +1 → 16 from each; 自摸 ×2 → 30 from each.
    data = {**record_to_post_data(example_record("E2")), "what_if-preset": "guiyang", "what_if-self_draw": "double"}
    page = text(client.post(WHAT_IF, data))
    assert re.search(r"自摸：<span[^>]*>每家付 牌型\+1[^<]*</span> → 每家付 牌型×2", page)
    assert "这里按 <b>贵阳 · 自定 1 项</b>" in page
    assert row(page, 1)[:3] == ["南", "+59 +59 元", "+101 +101 元"]  # 59 + 3 × (30 − 16)
    assert "东 付 南 30 番：清大对 15，自摸" in lines(page, "added")


def test_a_round_that_does_not_stand_under_the_other_rules_says_why(client):
    # E4: 南's 平胡 has only a 点豆 for a pass, which 安顺 does not accept (R15).
    data = {**record_to_post_data(example_record("E4")), "what_if-preset": "anshun"}
    page = text(client.post(WHAT_IF, data))
    assert "按这个规矩，这局不成立：" in page
    assert "平胡要有豆（杠）作通行证才能胡别人打的牌" in page
    assert row(page, 1)[2] == "—"


def test_an_unknown_preset_is_shown_as_a_problem_not_a_result(client):
    data = {**record_to_post_data(example_record("E1")), "what_if-preset": "paris"}
    page = text(client.post(WHAT_IF, data))
    assert 'id="what-if"' not in page
    assert "paris" in page  # the choice field's own error names it


def test_the_what_if_page_leads_back_to_the_same_result(client):
    page = text(client.post(WHAT_IF, {**record_to_post_data(example_record("E1")), "what_if-preset": "xingyi"}))
    back = re.search(r'<form method="post" action="/round/" class="result-actions">.*?</form>', page, re.DOTALL)[0]
    assert 'name="seat0-concealed"' in back and "what_if-" not in back
    result = text(client.post(reverse("calculator:round_new"), dict(re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)"', back))))
    assert "这局结算" in result and "+15" in result


# -- stored rounds and the evening ---------------------------------------------------------------


def evening_url(name: str, evening, *args) -> str:
    return reverse(f"calculator:{name}", args=[evening.token, *args])


def stored_state(evening) -> list:
    return [list(Round.objects.filter(evening=evening).values_list("number", "net", "version", "settlement")),
            Change.objects.filter(evening=evening).count()]


def test_the_evening_re_totalled_under_xingyi_in_one_tap_changes_nothing_stored(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3"])
    before = stored_state(evening)
    detail = text(client.get(evening_url("evening_detail", evening)))
    tap = re.search(r'<form method="get" action="([^"]+)" class="what-if-quick".*?</form>', detail, re.DOTALL)
    assert tap[1] == evening_url("evening_what_if", evening)
    assert 'value="xingyi"' in tap[0]

    page = text(client.get(tap[1], {"what_if-preset": "xingyi"}))
    # Totals as stored (贵阳): E1 [15, −2, −7, −6] + E2 [−29, 59, −1, −29] + E3 [14, 3, −6, −11]
    # = [0, 60, −14, −46]; under 兴义: [22, −7, −8, −7] + [−26, 62, −10, −26] + [11, 6, −6, −11]
    # = [7, 61, −24, −44].
    assert re.search(r"今晚按兴义算：老王 \+7 而不是 0、小李 \+61 而不是 \+60、阿珍 −24 而不是 −14、"
                     r"张哥 −44 而不是 −46", page)
    assert [row(page, s)[:3] for s in range(4)] == [
        ["老王", "0 0 元", "+7 +7 元"], ["小李", "+60 +60 元", "+61 +61 元"],
        ["阿珍", "−14 −14 元", "−24 −24 元"], ["张哥", "−46 −46 元", "−44 −44 元"]]
    assert "3 局里有 3 局的输赢变了。" in page
    assert stored_state(evening) == before


def test_rounds_the_other_rules_reject_count_zero_and_are_named(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E4"])
    page = text(client.get(evening_url("evening_what_if", evening), {"what_if-preset": "anshun"}))
    assert "这几局按这个规矩不成立，没算进去：" in page
    assert re.search(r"第2局：[^<]*平胡要有豆", page)
    # Only E1 counts under 安顺: [19, −6, −7, −6].
    assert [row(page, s)[2] for s in range(4)] == ["+19 +19 元", "−6 −6 元", "−7 −7 元", "−6 −6 元"]


def test_a_stored_round_under_another_preset_and_from_the_read_only_address(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    detail = text(client.get(evening_url("evening_round", evening, 1)))
    assert f'action="{evening_url("evening_round_what_if", evening, 1)}"' in detail
    page = text(client.get(evening_url("evening_round_what_if", evening, 1), {"what_if-preset": "xingyi"}))
    assert row(page, 0) == ["老王", "+15 +15 元", "+22 +22 元", "+7"]

    follow = reverse("calculator:evening_follow_round_what_if", args=[evening.read_token, 1])
    assert f'action="{follow}"' in text(client.get(reverse("calculator:evening_follow_round",
                                                           args=[evening.read_token, 1])))
    page = text(client.get(follow, {"what_if-preset": "xingyi"}))
    assert row(page, 0) == ["老王", "+15 +15 元", "+22 +22 元", "+7"]
    assert evening.token not in page  # the read-only address never leaks the edit address
    follow_evening = reverse("calculator:evening_follow_what_if", args=[evening.read_token])
    assert "今晚按兴义算：老王 +22 而不是 +15" in text(client.get(follow_evening, {"what_if-preset": "xingyi"}))


def test_a_correction_preview_can_be_seen_under_other_rules_before_it_is_saved(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    before = stored_state(evening)
    corrected = example_record("E1")
    corrected["turned"] = "9m"  # the 翻牌鸡 becomes 1万 instead of 6万
    data = record_to_post_data(corrected)
    data["seat0-melds-INITIAL_FORMS"] = "1"  # as the edit page renders it: the stored 闷豆 is an initial form
    edit = client.post(evening_url("evening_round_edit", evening, 1), {**data, "version": "1"}).content.decode()
    tap = re.search(r'<form method="post" action="([^"]+)" class="what-if-quick".*?</form>', edit, re.DOTALL)
    assert tap[1] == evening_url("evening_round_what_if", evening, 1)
    carried = {name: html.unescape(value) for name, value in
               re.findall(r'<input type="hidden" name="(record|version)" value="([^"]*)"', tap[0])}
    assert json.loads(carried["record"])["turned"] == "9m"

    page = text(client.post(tap[1], {**carried, "what_if-preset": "xingyi"}))
    assert "第1局改后的样子（还没保存）" in page
    # The correction under 贵阳: 平胡 1 + 闷豆 2×3 + 幺鸡 2×3 = 13, less the 1 it pays 小李 (ready)
    # for the 1万 in its hand: 12. Under 兴义 the held 幺鸡 count 4 each: 1 + 6 + 12 − 1 = 18.
    assert row(page, 0) == ["老王", "+12 +12 元", "+18 +18 元", "+6"]
    assert stored_state(evening) == before
