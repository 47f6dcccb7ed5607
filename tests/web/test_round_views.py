"""The one-round pages: entry, htmx preview, result, rules and home, through Django's test client."""
import re
from html import unescape as html_unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import override_settings
from django.urls import reverse

from calculator.scoring import parse_tiles
from tests.round_form_data import EXAMPLE_NAMES, expected, load_example, record_to_post_data

ROUND_URL = reverse("calculator:round_new")
PREVIEW_URL = reverse("calculator:round_preview")


def text(response) -> str:
    return response.content.decode()


def seat_card(html: str, seat: int) -> str:
    """The markup of one seat's card on the entry page."""
    start = html.index(f'data-seat-card="{seat}"')
    end = html.find("data-seat-card=", start + 20)
    return html[start:end if end > 0 else None]


def nets_on_page(html: str) -> list[str]:
    return re.findall(r'class="net-points" data-net>([^<]+)<', html)


@override_settings(DEBUG=True)
def test_pages_under_bin_run_never_load_the_script_that_turns_a_refusal_into_a_blank_page(client):
    """bin/run serves with DEBUG on. django-htmx's DEBUG script replaces the whole page with any
    400 answer to htmx; a refused 确认 (another phone changed the round meanwhile) is such an
    answer, designed to show in place, and the phone was left with a bare list and no form."""
    html = text(client.get(ROUND_URL))
    assert "django_htmx/htmx-2.min.js" in html and "django-htmx.js" not in html


def test_entry_page_is_a_plain_form_that_htmx_enhances(client):
    response = client.get(ROUND_URL)

    html = text(response)
    assert response.status_code == 200
    assert re.search(rf'<form method="post" action="{ROUND_URL}"', html)
    assert f'hx-post="{PREVIEW_URL}"' in html and 'hx-swap="none"' in html
    # htmx is served from here; no script or stylesheet comes from another host (a CDN). Not a
    # search for "cdn" in the page: the random CSRF token contained it once.
    assert "django_htmx/htmx-2.min.js" in html and not re.search(r'(src|href)="(https?:)?//', html)
    assert html.count("data-seat-card=") == 4
    assert html.count('class="tile tile-key') == 27
    assert 'name="seat0-concealed"' in html and 'name="seat0-melds-TOTAL_FORMS"' in html
    assert 'type="submit"' in html
    assert 'name="language"' in html  # the language switch


def test_three_player_entry_page(client):
    html = text(client.get(ROUND_URL, {"players": "3"}))

    assert html.count("data-seat-card=") == 3
    assert 'name="players" value="3"' in html


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_posting_a_worked_example_shows_its_result(client, name):
    record = load_example(name)

    response = client.post(ROUND_URL, record_to_post_data(record))

    assert response.status_code == 200
    assert "calculator/round_result.html" in [t.name for t in response.templates]
    signed = [f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0" for n in expected(name)["net"]]
    assert nets_on_page(text(response)) == signed


def test_the_e1_result_says_what_did_not_count_and_shows_every_hand(client):
    html = text(client.post(ROUND_URL, record_to_post_data(load_example("E1"))))

    assert "翻牌 5万 → 鸡：6万" in html
    void = html[html.index('id="result-void"'):]
    assert "北 的冲锋鸡不算：没叫" in void[:void.index("</section>")]
    hands = html[html.index('id="result-hands"'):]
    hands = hands[:hands.index("</section>")]
    assert all(name in hands for name in "东南西北")
    assert hands.count('class="tile ') == sum(  # every concealed tile, meld tile and counted discard
        len(parse_tiles(seat["concealed"])) + sum(4 if m["type"] == "kong" else 3 for m in seat["melds"])
        + len(parse_tiles(seat.get("discards", ""))) for seat in load_example("E1")["seats"])


def test_the_e1_result_reads_as_sentences_with_rule_links_and_the_matrix(client):
    html = text(client.post(ROUND_URL, record_to_post_data(load_example("E1"))))

    assert nets_on_page(html) == ["+15", "−2", "−7", "−6"]
    assert "西 付 东 1 番：平胡 1" in html
    assert "南 付 东 2 番：闷豆 9筒" in html
    assert 'href="/rules/?preset=guiyang#R16"' in html
    assert "下一局 东 坐庄" in html
    for title in ("胡", "豆", "鸡"):
        assert f'<span class="group-title">{title}</span>' in html
    assert 'class="table table-sm matrix' in html
    assert "+15 元" in html


def test_rule_links_carry_the_rounds_own_options_and_the_page_states_them(client):
    record = load_example("E1")
    record["options"] = {"jian_dou_san": True}
    html = text(client.post(ROUND_URL, record_to_post_data(record)))

    links = {html_unescape(href) for href in re.findall(r'class="rule-link" href="([^"#]+)#R\d+"', html)}
    assert len(links) == 1
    link = urlsplit(links.pop())
    assert link.path == reverse("calculator:rules")
    assert parse_qs(link.query) == {"preset": ["guiyang"], "options": ['{"jian_dou_san":true}']}
    rules = text(client.get(f"{link.path}?{link.query}"))
    assert "见豆三：每个豆都算 3 番" in rules and "在贵阳规则上改了：见豆三" in rules


def test_money_follows_the_stake(client):
    html = text(client.post(ROUND_URL, record_to_post_data(load_example("E8"))))

    assert re.findall(r'class="net-money">([^<]+)<', html) == ["−6.5 元", "−9.5 元", "+16 元"]


@pytest.mark.django_db
def test_a_broken_round_comes_back_with_the_problem_next_to_the_seat_and_saves_nothing(
        client, django_assert_num_queries):
    record = load_example("E1")
    record["seats"][1]["concealed"] = "123m456p678p22s5s"

    with django_assert_num_queries(0):
        response = client.post(ROUND_URL, record_to_post_data(record))

    html = text(response)
    assert response.status_code == 400
    assert "calculator/round_new.html" in [t.name for t in response.templates]
    assert "南 有 12 张牌，应该是 13 张" in seat_card(html, 1)
    assert "应该是" not in seat_card(html, 0)
    assert 'value="123m456678p225s"' not in html  # the entered text comes back as typed
    assert 'value="123m456p678p22s5s"' in html
    assert nets_on_page(html) == []


@pytest.mark.parametrize("change, where", [
    (lambda r: r["seats"][1].update(concealed="123m456p678p22s5s"), "entry-seat1-hand-problems"),  # a short hand
    (lambda r: r["seats"][1].update(concealed="55555m123p456s78s"), "entry-general-problems"),  # a fifth 5万
])
def test_the_bar_saying_how_many_problems_are_left_takes_the_thumb_to_the_first(client, change, where):
    record = load_example("E1")
    change(record)

    html = client.post(ROUND_URL, record_to_post_data(record)).content.decode()

    link = re.search(r'<a class="net-status net-problems" href="#([^"]+)">', html)
    assert link and link.group(1) == where
    assert re.search(rf'<div id="{where}" class="problems"[^>]*>\s*<ul', html)  # it holds the problem


def test_htmx_preview_returns_only_the_out_of_band_partials(client):
    response = client.post(PREVIEW_URL, record_to_post_data(load_example("E1")), HTTP_HX_REQUEST="true")

    html = text(response)
    assert response.status_code == 200
    assert "<html" not in html and "<form" not in html
    assert [t.name for t in response.templates][0] == "calculator/partials/_entry_preview.html"
    for dom_id in ("entry-seat0-preview", "entry-seat3-preview", "entry-outcome-problems", "entry-net-bar",
                   "entry-settlement-preview"):
        assert re.search(rf'id="{dom_id}"[^>]*hx-swap-oob="morph"', html), dom_id
    assert re.findall(r"<b data-net>([^<]+)</b>", html) == ["+15", "−2", "−7", "−6"]
    assert "14/14" in html and "胡了" in html


def test_the_live_preview_says_what_will_not_count_before_the_round_is_saved(client):
    """北 recorded 没叫（没亮牌）: its 冲锋鸡 (E1) pays nothing, and the table sees it while it waits."""
    record = load_example("E1")
    record["seats"][3].update(concealed="", mei_jiao=True)

    html = text(client.post(PREVIEW_URL, record_to_post_data(record), HTTP_HX_REQUEST="true"))

    preview = html[html.index('id="entry-settlement-preview"'):]
    void = preview[preview.index('id="entry-void"'):]
    void = void[:void.index("</section>")]
    assert re.findall(r"<li>([^<]+)</li>", void) == ["北 的冲锋鸡不算：没叫"]  # its hand, and its 幺鸡, unshown
    record = load_example("E2")  # everything counts: nothing to say
    assert "没算的" not in text(client.post(PREVIEW_URL, record_to_post_data(record), HTTP_HX_REQUEST="true"))


def test_htmx_preview_of_a_half_entered_round_shows_counts_not_scolding(client):
    data = record_to_post_data(load_example("E1"))
    for seat in (1, 2, 3):
        data[f"seat{seat}-concealed"] = ""
    data["seat0-concealed"] = "234m567m"

    html = text(client.post(PREVIEW_URL, data, HTTP_HX_REQUEST="true"))

    assert "9/14" in html and "还差 5 张" in html
    assert "0/13" in html and "待输入" in html
    assert "应该是 13 张" not in html


def test_the_preview_shows_problems_in_their_slots(client):
    record = load_example("E3")
    record["outcome"]["hot_kong"] = "6p"

    html = text(client.post(PREVIEW_URL, record_to_post_data(record), HTTP_HX_REQUEST="true"))

    slot = re.search(r'<div id="entry-outcome-problems"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert "北：热炮：点炮者没有 6筒 的杠。" in slot


def test_five_of_a_tile_in_one_hand_is_named_on_that_seat_while_it_is_typed(client):
    """A seat typed with five 1万 is told on its own card at once, while the others are still
    empty (the round's own count comes only with the whole round)."""
    data = record_to_post_data(load_example("E1"))
    for seat in (1, 2, 3):
        data[f"seat{seat}-concealed"] = ""
    data["seat0-concealed"] = "11111m"
    html = text(client.post(PREVIEW_URL, data, HTTP_HX_REQUEST="true"))
    standing = re.search(r'id="entry-seat0-preview".*?(?=id="entry-seat1-preview")', html, re.S).group(0)
    assert "1万 有 5 张：一副牌每种只有四张。" in standing
    data["seat0-concealed"] = "1111m"
    assert "一副牌每种只有四张" not in text(client.post(PREVIEW_URL, data, HTTP_HX_REQUEST="true"))


def test_without_javascript_edit_carries_the_round_back_to_the_form(client):
    data = record_to_post_data(load_example("E1"))
    result = text(client.post(ROUND_URL, data))
    assert 'name="edit"' in result and 'type="hidden" name="seat2-concealed"' in result

    data["edit"] = "1"
    response = client.post(ROUND_URL, data)

    html = text(response)
    assert "calculator/round_new.html" in [t.name for t in response.templates]
    assert 'value="234m567m345s11s"' in html
    assert "问题" not in html and 'class="problem"' not in html


def bar_nets(html: str) -> list[str]:
    """The nets in the sticky bar under the entry form."""
    bar = re.search(r'<div id="entry-net-bar".*?</div>', html, re.S).group(0)
    return re.findall(r"<b data-net>([^<]+)</b>", bar)


def test_edit_from_the_result_page_shows_the_rounds_nets_in_the_bar_and_its_settlement(client):
    data = {**record_to_post_data(load_example("E1")), "edit": "1"}

    html = text(client.post(ROUND_URL, data))

    assert bar_nets(html) == ["+15", "−2", "−7", "−6"]
    assert "填好每家的牌，这里就出输赢" not in html
    assert "结算预览" in html and "西 付 东 1 番：平胡 1" in html


def named_e1() -> dict:
    data = record_to_post_data(load_example("E1"))
    data.update({f"seat{i}-name": name for i, name in enumerate(["老王", "小李", "阿珍", "张哥"])})
    return data


def test_switching_to_three_players_keeps_the_first_three_hands_and_names(client):
    data = {**named_e1(), "switch_players": "3"}
    data["seat1-concealed"] = "123m456p"  # 小李 is half typed in

    response = client.post(ROUND_URL, data)

    html = text(response)
    assert response.status_code == 200
    assert "calculator/round_new.html" in [t.name for t in response.templates]
    assert html.count("data-seat-card=") == 3 and 'name="players" value="3"' in html
    kept = [("老王", "234m567m345s11s"), ("小李", "123m456p"), ("阿珍", "1m9m2p8p3p7p4s6s9s9s5p8s3m")]
    for seat, (name, hand) in enumerate(kept):
        card = seat_card(html, seat)
        assert f'value="{name}"' in card and f'value="{hand}"' in card
    assert "张哥" not in html and 'name="seat3-concealed"' not in html
    assert 'class="problem"' not in html  # what is still being typed in is not scolded
    assert "6/13" in seat_card(html, 1) and "还差 7 张" in seat_card(html, 1)
    assert re.search(r'name="switch_players" value="3"[^>]*aria-pressed="true"', html)


def test_switching_back_to_four_players_adds_an_empty_fourth_seat(client):
    data = record_to_post_data(load_example("E8"))
    data.update({"seat2-name": "阿珍", "switch_players": "4"})

    html = text(client.post(ROUND_URL, data))

    assert html.count("data-seat-card=") == 4 and 'name="players" value="4"' in html
    assert 'value="阿珍"' in seat_card(html, 2)
    assert "0/13" in seat_card(html, 3) and 'name="seat3-melds-TOTAL_FORMS" value="4"' in html
    assert 'class="problem"' not in html


def test_enter_in_a_field_submits_the_round_not_the_players_switch(client):
    """Implicit submission presses the form's first submit button: the page puts one without a
    name before the 四人 / 三人 buttons."""
    html = text(client.get(ROUND_URL))

    form = html[html.index("<form method=\"post\" action=\"" + ROUND_URL):]
    first = re.search(r"<button[^>]*>", form).group(0)
    assert 'type="submit"' in first and "name=" not in first
    assert form.index(first) < form.index('name="switch_players"')


def test_the_players_switch_is_two_submit_buttons_of_the_form(client):
    html = text(client.get(ROUND_URL, {"players": "3"}))

    switch = re.search(r'<div class="players-switch".*?</div>', html, re.S).group(0)
    buttons = re.findall(r'<button type="submit" name="switch_players" value="(\d)" formnovalidate', switch)
    assert buttons == ["4", "3"]
    assert 'href="?players=' not in switch


def test_the_live_preview_of_a_short_hand_has_no_red_problem_but_the_submit_does(client):
    data = named_e1()
    data["seat1-concealed"] = "123m456p"

    preview = text(client.post(PREVIEW_URL, data, HTTP_HX_REQUEST="true"))
    submitted = text(client.post(ROUND_URL, data))

    standing = preview[preview.index('id="entry-seat1-preview"'):preview.index('id="entry-seat2-preview"')]
    assert "6/13" in standing and "还差 7 张" in standing and "has-problems" not in standing
    assert 'class="problem"' not in preview and "应该是 13 张" not in preview
    assert "还有" not in preview  # the bar counts nothing to fix: it asks for the rest
    assert "小李 有 6 张牌，应该是 13 张" in seat_card(submitted, 1)
    assert "还有 1 处要改" in submitted


def test_only_get_and_post(client):
    assert client.put(ROUND_URL).status_code == 405
    assert client.get(PREVIEW_URL).status_code == 405


def test_rules_page_shows_the_preset_in_chinese_with_an_anchor_per_rule(client):
    html = text(client.get(reverse("calculator:rules"), {"preset": "anshun"}))

    assert "安顺捉鸡规则" in html
    assert 'id="R16"' in html and 'id="R43"' in html
    assert "自摸时其余每家付 2V（翻倍）" in html
    assert "转弯豆（爬坡豆，碰了以后自己摸到第四张）其余每家付 1 番" in html
    assert "摇摆鸡" in html


def test_rules_page_falls_back_to_guiyang(client):
    html = text(client.get(reverse("calculator:rules"), {"preset": "nowhere"}))

    assert "贵阳捉鸡规则" in html and "自摸时其余每家付 V + 1 番" in html


def test_home_page_has_the_big_button(client):
    html = text(client.get(reverse("calculator:home")))

    assert re.search(rf'href="{ROUND_URL}">算一局</a>', html)


def test_chinese_by_default_and_english_through_the_switch(client):
    assert "算一局" in text(client.get(ROUND_URL))

    response = client.post(reverse("set_language"), {"language": "en", "next": ROUND_URL}, follow=True)

    html = text(response)
    assert '<html lang="en">' in html
    assert "Score a round" in html and "How did the round end?" in html
    english_problem = text(client.post(ROUND_URL, {**record_to_post_data(load_example("E1")), "win_tile": ""}))
    assert "Choose the winning tile." in english_problem


def test_a_phone_set_to_english_still_opens_in_chinese_until_the_switch(client):
    html = text(client.get(ROUND_URL, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9"))

    assert '<html lang="zh-CN">' in html and "算一局" in html


def test_mei_jiao_in_one_tap_settles_the_same_and_says_so(client):
    record = load_example("E1")
    assert 'name="seat2-mei_jiao"' in seat_card(text(client.get(ROUND_URL)), 2)
    data = record_to_post_data(record)
    data["seat2-mei_jiao"] = "on"  # 西's typed tiles stay on the form but no longer count
    data["seat2-concealed"] = "1m"

    html = text(client.post(ROUND_URL, data))

    assert nets_on_page(html) == ["+15", "−2", "−7", "−6"]
    assert "没叫（没亮牌）" in html


def test_a_declared_seats_value_names_its_parts(client):
    html = text(client.post(ROUND_URL, record_to_post_data(load_example("E6"))))

    assert "平胡 1 + 软报 10 = 11 番" in html  # the winner, who declared soft
    assert "平胡 1 + 硬报 10 = 11 番" in html  # a ready seat that declared hard
    assert "平胡 1 番" in html                 # a ready seat that did not declare


def test_a_robbed_kong_entered_as_the_added_kong_it_was_is_settled_as_a_qiang_gang(client):
    """E7: 东 robs the 6筒 西 was adding to its 碰; the recorder enters 西's 转弯豆 of 6筒 (RULE-DECISIONS 42)."""
    record = load_example("E7")
    record["seats"][2]["melds"][0] = {"type": "kong", "kind": "zhuanwan", "tile": "6p", "from": 3}

    html = text(client.post(ROUND_URL, record_to_post_data(record)))

    assert "抢杠按清一色" in html  # 兴义: the robbed seat pays as for 清一色 (R14)
    assert "西 的闷豆 7筒不算：被抢杠，烧光" in html
    assert nets_on_page(html) == ["+23", "+1", "−17", "−7"]
    hands = html[html.index('id="result-hands"'):]
    west = hands[hands.index("西"):hands.index("北")]
    assert "碰" in west and "转弯豆" not in west  # recorded as the pong it was before (RULES §3)
