"""家规 (R45–R56): an evening opened with house-rule variants scores by them, its rules page says
so, and 换个规矩看看 can flip them. Posted as a browser without JavaScript posts."""
from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from calculator import services
from calculator.models import Evening
from tests.factories import example_record

pytestmark = pytest.mark.django_db


def evening_post(**changes) -> dict:
    data = {"player_0": "老王", "player_1": "小李", "player_2": "阿珍", "player_3": "张哥",
            "stake": "1", "preset": "guiyang", "first_dealer": "0", "title": ""}
    data.update(changes)
    return data


def test_the_evening_form_offers_every_house_rule(client):
    page = html.unescape(client.get(reverse("calculator:evening_new")).content.decode())
    assert "家规：各地桌上的变体" in page
    for name in ("hot_shot_bonus", "robbed_kong", "bao_ji", "chicken_flow", "chong_feng_on_top", "dou_reverse",
                 "ze_ren_gold", "chui_feng", "declare_kill_by_kind", "cap"):
        assert f'name="{name}"' in page, name
    assert re.search(r'<option value="plain">每家付 牌型，不加 1</option>', page)  # R45 in the 自摸 menu


def test_an_evening_with_house_rules_scores_by_them(client):
    response = client.post(reverse("calculator:evening_new"), evening_post(
        self_draw="plain", bao_ji="shown", chicken_collectors="ready_or_pay", dou_reverse="yes",
        ze_ren_gold="no", cap="30"))
    assert response.status_code == 302
    evening = Evening.objects.get()
    assert {k: evening.rules[k] for k in ("self_draw", "bao_ji", "dou_reverse", "ze_ren_gold", "cap")} == {
        "self_draw": "plain", "bao_ji": "shown", "dou_reverse": True, "ze_ren_gold": False, "cap": 30}
    # E2: 南 self-draws a 清大对 (15): under R45 `plain` each pays 15 instead of 16.
    round_ = services.round_record(evening=evening, record=example_record("E2"))
    assert {(i["payer"], i["points"], i["rule"]) for i in round_.settlement["items"]
            if i["reason"] == "hu.self_draw"} == {(0, 15, "R45"), (2, 15, "R45"), (3, 15, "R45")}

    rules = html.unescape(client.get(reverse("calculator:evening_rules", args=[evening.token])).content.decode())
    r49 = re.search(r'id="R49">.*?<p>(.*?)</p>', rules, re.DOTALL)[1]
    assert "（本规则用这一条。）" in r49
    r55 = re.search(r'id="R55">.*?<p>(.*?)</p>', rules, re.DOTALL)[1]
    assert "（本规则不用这一条。）" in r55
    board = html.unescape(client.get(reverse("calculator:evening_detail", args=[evening.token])).content.decode())
    # the evening's rules state each house rule it changed, in words
    for name, words in (("包鸡", "包鸡只包亮出来的鸡"), ("豆倒赔", "是"), ("金鸡时责任鸡翻倍", "不是"), ("封顶", "30 番")):
        assert re.search(rf"<dt>{name}</dt>\s*<dd>{words}</dd>", board), name


def test_a_bad_cap_is_refused_on_its_field(client):
    response = client.post(reverse("calculator:evening_new"), evening_post(cap="-1"))
    assert response.status_code == 400
    assert not Evening.objects.exists()


def test_what_if_can_flip_a_house_rule(client):
    evening = services.evening_create(names=["老王", "小李", "阿珍", "张哥"], stake=1, preset="guiyang")
    services.round_record(evening=evening, record=example_record("E2"))
    page = html.unescape(client.get(reverse("calculator:evening_what_if", args=[evening.token]),
                                    {"what_if-preset": "guiyang", "what_if-self_draw": "plain"}).content.decode())
    # E2 under 贵阳: [−29, 59, −1, −29]; each payer pays 1 less for the self-draw under R45.
    assert "今晚按贵阳 · 自定 1 项算：老王 −28 而不是 −29、小李 +56 而不是 +59、阿珍 0 而不是 −1、张哥 −28 而不是 −29" in page


def test_the_evening_supplies_and_stores_the_dealers_streak():
    # 连庄 (R59): E1 three times, 老王 (seat 0) dealing each time and winning 平胡 on 阿珍's discard.
    evening = services.evening_create(names=["老王", "小李", "阿珍", "张哥"], stake=1, preset="guiyang",
                                      options={"dealer_streak_bonus": 1})
    rounds = [services.round_record(evening=evening, record=example_record("E1")) for _ in range(3)]
    assert [r.record.get("dealer_streak", 0) for r in rounds] == [0, 1, 2]
    # The dealer's win moves 1 more per round it has dealt in a row: 阿珍 pays 0, 1, 2 more.
    assert [[(i["payer"], i["points"]) for i in r.settlement["items"] if i["reason"] == "hu.dealer"]
            for r in rounds] == [[], [(2, 1)], [(2, 2)]]
    # A correction of round 2 counts the rounds before it only.
    corrected = services.round_correct(round=rounds[1], record=example_record("E1"), expected_version=1)
    assert corrected.record["dealer_streak"] == 1


# -- house rules of one's own: named, previewed, copied to the next evening, exported ------------


def form_data(page: str) -> dict[str, str]:
    """What a browser would post for the form on `page`, as it was filled in (raw HTML)."""
    form = re.search(r'<form method="post" action="/evening/new/.*?</form>', page, re.DOTALL)[0]
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        kind = (re.search(r'type="([^"]+)"', tag) or [None, "text"])[1]
        if not name or (kind in ("radio", "checkbox") and " checked" not in tag):
            continue
        data[name[1]] = html.unescape(value[1]) if value else ("on" if kind == "checkbox" else "")
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.DOTALL):
        chosen = re.search(r'<option value="([^"]*)" selected>', body)
        data[name] = html.unescape(chosen[1]) if chosen else ""
    return data


def test_opening_an_evening_previews_its_rules_in_words_without_opening_it(client):
    response = client.post(reverse("calculator:evening_new"), evening_post(
        player_0="", preset="xingyi", bao_ji="shown", chicken_collectors="ready_or_pay", cap="30",
        rules_name="老王家规矩", preview="1"))
    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and not Evening.objects.exists()
    preview = re.search(r'<section class="ev-rules-preview".*?</section>', page, re.DOTALL)[0]
    assert "老王家规矩" in preview and "兴义规则" in preview
    for name, words in (("包鸡", "包鸡只包亮出来的鸡"), ("封顶", "30 番")):
        assert re.search(rf"<dt>{name}</dt>\s*<dd>{words}</dd>", preview), name
    assert 'value="老王家规矩"' in page  # what was typed stays


def test_a_named_rule_set_is_copied_to_the_next_evening_from_the_read_only_address(client):
    client.post(reverse("calculator:evening_new"), evening_post(
        preset="anshun", self_draw="plain", dou_reverse="yes", cap="20", rules_name="老王家规矩", stake="2",
        gold="3"))
    first = Evening.objects.get()
    assert first.rules["gold"] == 3 and first.rules_name == "老王家规矩"
    board = html.unescape(client.get(reverse("calculator:evening_detail", args=[first.token])).content.decode())
    assert "老王家规矩 · 安顺" in board
    follow = html.unescape(client.get(reverse("calculator:evening_follow", args=[first.read_token])).content.decode())
    link = f"{reverse('calculator:evening_new')}?rules_from={first.read_token}"
    assert link in follow and link in board  # both copy through the read-only address
    assert f"rules_from={first.token}" not in board  # an edit address in a URL reaches logs (issue 18)

    raw = client.get(link).content.decode()
    page = html.unescape(raw)
    assert 'name="player_0" value="老王"' in page and 'name="rules_name" value="老王家规矩"' in page
    assert re.search(r'<option value="plain" selected>', page)
    assert "<dt>规则</dt>" in page  # the copied rules are shown in words before anything is changed
    assert f'action="{link}"' in raw  # the form posts back to the read-only address
    assert client.post(link, form_data(raw)).status_code == 302  # opened as it came, untouched
    second = Evening.objects.exclude(pk=first.pk).get()
    assert second.rules == first.rules and second.rules_name == "老王家规矩"
    assert [p.name for p in second.players.all()] == [p.name for p in first.players.all()]


def test_the_export_carries_the_rules_name_and_the_import_keeps_it(client):
    evening = services.evening_create(names=["老王", "小李", "阿珍"], stake=1, preset="guiyang",
                                      options={"bao_ji": "shown"}, rules_name="老王家规矩")
    exported = services.evening_export(evening=evening)
    assert exported["rules_name"] == "老王家规矩" and exported["rules"]["bao_ji"] == "shown"
    assert services.evening_import(data=exported).rules_name == "老王家规矩"


def test_the_evening_supplies_and_stores_the_weekday():
    # 星期鸡 (R64): each round keeps the day it was played, a correction keeps the round's day.
    from datetime import timedelta

    from django.utils import timezone

    evening = services.evening_create(names=["老王", "小李", "阿珍", "张哥"], stake=1, preset="guiyang",
                                      options={"xing_qi_ji": True})
    played = services.round_record(evening=evening, record=example_record("E1"))
    assert played.record["weekday"] == timezone.localdate().isoweekday()
    type(played).objects.filter(pk=played.pk).update(created_at=timezone.now() - timedelta(days=1))
    played.refresh_from_db()
    corrected = services.round_correct(round=played, record=example_record("E3"), expected_version=1)
    assert corrected.record["weekday"] == (timezone.localdate() - timedelta(days=1)).isoweekday()
    # An evening that does not play it stores no weekday (records read as before).
    plain = services.evening_create(names=["老王", "小李", "阿珍", "张哥"], stake=1, preset="guiyang")
    assert "weekday" not in services.round_record(evening=plain, record=example_record("E1")).record


def test_an_older_link_with_the_edit_address_still_copies_from_the_read_only_one(client):
    client.post(reverse("calculator:evening_new"), evening_post(preset="anshun", rules_name="老王家规矩"))
    first = Evening.objects.get()
    response = client.get(f"{reverse('calculator:evening_new')}?rules_from={first.token}", follow=True)
    assert response.redirect_chain == [(f"{reverse('calculator:evening_new')}?rules_from={first.read_token}", 302)]
    raw = response.content.decode()
    assert 'name="rules_name" value="老王家规矩"' in html.unescape(raw)
    assert first.token not in raw and f"rules_from={first.read_token}" in raw
