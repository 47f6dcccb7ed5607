"""An evening at phone size in headless Chromium: open it, enter three rounds, correct the second,
settle up, download the PDF; and a second phone following the totals on the read-only address.

Screenshots go to test-artifacts/screenshots/ (see tests/conftest.py) for a human to look at.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from calculator import selectors, services
from calculator.models import Evening, Round
from calculator.presentation import signed
from tests.factories import example_record, expected_net, make_evening, record_rounds
from tests.round_form_data import record_to_post_data
from tests.timing import scaled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIXED = ("players", "preset", "stake", "jian_dou_san")  # the evening fixes these: not on its form


def tick(page: Page, box) -> None:
    """Tap a checkbox or radio the way a finger does: on its label (the inputs are styled away)."""
    label = page.locator(f'label[for="{box.get_attribute("id")}"]')
    if label.count() and label.first.is_visible():
        label.first.click()
    else:  # tucked inside a closed <details>
        box.evaluate("e => e.click()")


def fill_round(page: Page, example: str) -> None:
    """Fill the round form of issue 3 with a worked example, the way a phone user would."""
    data = record_to_post_data(example_record(example))
    for name, value in data.items():
        if name in FIXED or name.endswith("-name") or "_FORMS" in name:
            continue
        fields = page.locator(f'[name="{name}"]')
        if fields.count() == 0:
            continue
        first = fields.first
        kind = first.evaluate("e => e.tagName === 'SELECT' ? 'select' : e.type")
        if kind == "select":
            first.select_option(str(value), force=True)
        elif kind in ("checkbox", "radio"):
            wanted = {str(v) for v in value} if isinstance(value, list) else {str(value)}
            for i in range(fields.count()):
                box = fields.nth(i)
                on = box.get_attribute("value") in wanted or (kind == "checkbox" and value == "on")
                if (on or kind == "checkbox") and box.is_checked() != on:
                    tick(page, box)
        elif kind != "hidden" and first.is_visible():
            first.fill(str(value))
        elif kind != "hidden":  # a notation box the tile keyboard stands in for
            first.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }",
                           str(value))
    # Boxes the record leaves off must be off (the form may come pre-filled for a correction).
    for name in ("robbed", "after_kong", "passed_before"):
        if name not in data:
            box = page.locator(f'[name="{name}"]')
            if box.count() and box.is_checked():
                tick(page, box)


def totals_on_page(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#evening-totals td.pts").all_inner_texts()]


def test_an_evening_from_opening_to_the_pdf(live_server, page: Page, screenshot, tmp_path):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="开一晚").click()
    page.get_by_label("第一位（东）").fill("老王")
    page.get_by_label("第二位（南）").fill("小李")
    page.get_by_label("第三位（西）").fill("阿珍")
    page.get_by_label("第四位（北）").fill("张哥")
    page.get_by_label("底注：一番多少钱").fill("0.5")
    screenshot(suffix="1-open")
    page.get_by_role("button", name="开始记账").click()
    expect(page.locator("h1")).to_be_visible()
    evening = Evening.objects.get()
    assert page.url.endswith(f"/e/{evening.token}/")
    screenshot(suffix="2-empty-evening")

    for number, example in enumerate(["E1", "E2", "E3"], start=1):
        page.locator("a.ev-record").click()
        expect(page.locator("h1")).to_contain_text(f"记第{number}局")
        fill_round(page, example)
        if number == 1:
            screenshot(suffix="3-round-form")
        page.get_by_role("button", name="记下这一局").click()
        expect(page.locator(".alert-success")).to_contain_text(f"第{number}局记好了")
        # the saved round's breakdown comes first, then the way back to the evening
        assert page.url.endswith(f"/e/{evening.token}/rounds/{number}/")
        expect(page.locator("#result .net-points")).to_have_text([signed(v) for v in expected_net(example)])
        page.locator("a.ev-return").click()
        expect(page.locator("a.ev-record")).to_be_visible()
    assert list(Round.objects.order_by("number").values_list("net", flat=True)) == [
        expected_net("E1"), expected_net("E2"), expected_net("E3")]
    expect(page.locator("#evening-rounds li").first).to_contain_text("第3局")
    screenshot(suffix="4-three-rounds")

    # Correct round 2: E2 becomes E4; see before/after, then confirm.
    page.locator('#evening-rounds a[href$="/rounds/2/"]').click()  # the row (an award links it too)
    screenshot(suffix="5-round-2")
    page.get_by_role("link", name=re.compile("改这局")).click()
    bar = page.locator(".net-bar [data-net]")
    expect(bar).to_have_text([signed(v) for v in expected_net("E2")])  # the stored round's, from the start
    fill_round(page, "E4")
    page.get_by_role("button", name="看看改了什么").click()
    expect(page.locator("#correction-preview")).to_be_visible()
    expect(bar).to_have_text([signed(v) for v in expected_net("E4")])
    screenshot(suffix="6-correction-preview")
    page.get_by_role("button", name="确认修改").click()
    expect(page.locator(".alert-success")).to_contain_text("第2局改好了")
    stored = list(Round.objects.order_by("number").values_list("net", flat=True))
    assert stored[1] == expected_net("E4")
    sums = [sum(column) for column in zip(*stored)]
    assert totals_on_page(page) == [signed(v) for v in sums]
    screenshot(suffix="7-after-correction")

    # Settle up: mark the first transfer paid (htmx swaps the list in place).
    page.get_by_role("link", name=re.compile("结算")).click()
    transfers = page.locator(".ev-transfer")
    count = transfers.count()
    assert count == len(selectors.evening_settle_up(evening=evening).transfers)
    transfers.first.get_by_role("button", name="标记已付").click()
    expect(transfers.first).to_have_class(re.compile("paid"))
    screenshot(suffix="8-settle-up")

    page.get_by_role("link", name=re.compile("回到这一晚")).click()
    page.get_by_role("link", name=re.compile("历史")).click()
    expect(page.locator(".ev-history > li")).to_have_count(4)
    screenshot(suffix="9-history")

    page.get_by_role("link", name=re.compile("回到这一晚")).click()
    with page.expect_download() as download:
        page.get_by_role("link", name=re.compile("导出 PDF")).click()
    path = tmp_path / "evening.pdf"
    download.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")

    page.get_by_role("link", name=re.compile("分享")).click()
    expect(page.locator("svg.qr").first).to_be_visible()  # the share page has two codes now
    screenshot(suffix="10-share")


def test_a_second_phone_follows_the_totals_live(live_server, browser, page: Page, screenshot):
    evening = make_evening(names=["老王", "小李", "阿珍"], stake="1")
    page.goto(f"{live_server.url}/v/{evening.read_token}/")
    expect(page.locator("#evening-totals td.pts").first).to_have_text("0")
    record_rounds(evening, ["E8"])  # another phone records a round
    expect(page.locator("#evening-totals td.pts").first).to_have_text(signed(-13), timeout=scaled(8000))
    assert evening.token not in page.content()
    screenshot(suffix="follow")


def test_a_thirty_round_evening_reads_well_on_a_phone(live_server, page: Page, screenshot):
    evening = make_evening(stake="0.5", title="周五晚上")
    rounds = record_rounds(evening, [("E1", "E2", "E3", "E4", "E5")[i % 5] for i in range(30)])
    services.round_correct(round=rounds[1], record=example_record("E3"), expected_version=1)
    page.goto(f"{live_server.url}/e/{evening.token}/")
    expect(page.locator("#evening-rounds li")).to_have_count(20)  # the latest 20; the rest a page away
    expect(page.locator("#totals-title")).to_contain_text("共 30 局")
    screenshot(suffix="evening")
    page.get_by_role("link", name="更早的局").click()
    expect(page.locator("#evening-rounds li")).to_have_count(10)
    expect(page.locator("#evening-rounds li").last).to_contain_text("第1局")
    screenshot(suffix="evening-older")
    page.get_by_role("link", name="较新的局").click()
    expect(page.locator("#evening-rounds li").first).to_contain_text("第30局")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(suffix="evening-top", full_page=False)
    page.get_by_text("这一晚的规则").click()
    expect(page.locator(".ev-rules")).to_be_visible()
    screenshot(suffix="rules", full_page=False)


LONG = "阿强哥哥的表弟大明白"  # ten characters: more than a phone's column of nets has room for

# Boxes measured in the page: each round's line of nets, the "改过" badge, a totals row.
NETS_JS = """els => els.map(net => {
    const box = net.getBoundingClientRect(), who = net.querySelector('.who'), b = net.querySelector('b');
    const num = b.getBoundingClientRect();
    return {name: who.textContent, cut: who.scrollWidth > who.clientWidth,
            ellipsis: getComputedStyle(who).textOverflow, number: b.textContent,
            numberInside: num.width > 0 && num.left >= box.left - .5 && num.right <= box.right + .5,
            numberVisible: b.scrollWidth <= b.clientWidth + 1};
})"""
BADGE_JS = """badge => {
    const style = getComputedStyle(badge), box = badge.getBoundingClientRect();
    return {height: box.height, lineHeight: parseFloat(style.lineHeight),
            borders: parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth)};
}"""
DOT_JS = """cell => {
    const dot = cell.querySelector('.ev-dot').getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(cell);
    range.setStartAfter(cell.querySelector('.ev-dot'));
    const lines = [...range.getClientRects()].filter(r => r.width > 0);
    return {dotRight: dot.right, dotMiddle: (dot.top + dot.bottom) / 2,
            textLeft: Math.min(...lines.map(r => r.left)),
            textTop: Math.min(...lines.map(r => r.top)), textBottom: Math.max(...lines.map(r => r.bottom))};
}"""


def assert_rounds_keep_every_number(page: Page) -> None:
    nets = page.locator("#evening-rounds .ev-net").evaluate_all(NETS_JS)
    assert nets
    for net in nets:
        assert re.fullmatch(r"[+\u2212]?\d+", net["number"]), net
        assert net["numberInside"] and net["numberVisible"], net  # the number is never cut
    long_ones = [net for net in nets if net["name"] == LONG]
    assert long_ones and all(net["cut"] and net["ellipsis"] == "ellipsis" for net in long_ones)


def assert_the_badge_is_one_line_high(page: Page) -> None:
    badge = page.locator("#evening-rounds .ev-badge")
    expect(badge).to_have_count(1)
    box = badge.evaluate(BADGE_JS)
    assert box["height"] <= box["lineHeight"] + box["borders"] + 1, box


def assert_the_dot_stays_beside_the_name(page: Page, name: str) -> None:
    cell = page.locator("td.ev-name", has_text=name).first
    found = cell.evaluate(DOT_JS)
    assert found["dotRight"] <= found["textLeft"] + .5, found  # left of the name, not above it
    assert found["textTop"] <= found["dotMiddle"] <= found["textBottom"], found


def test_long_names_keep_their_numbers_their_dots_and_a_small_badge(live_server, page: Page, screenshot):
    evening = make_evening(names=["小王", LONG, "李姐", "老张"], stake="0.5")
    rounds = record_rounds(evening, ["E1", "E2", "E3"])
    services.round_correct(round=rounds[1], record=example_record("E4"), expected_version=1)

    page.goto(f"{live_server.url}/e/{evening.token}/")
    expect(page.locator("#evening-rounds li")).to_have_count(3)
    assert_rounds_keep_every_number(page)
    assert_the_badge_is_one_line_high(page)
    assert_the_dot_stays_beside_the_name(page, LONG)
    screenshot(page.locator("#evening-rounds"), "rounds")
    screenshot(page.locator(".running-chart"), "chart")
    legend = page.locator(".running-chart .legend text").all_text_contents()
    assert any(text.startswith(LONG[:4]) and "…" in text for text in legend), legend

    page.goto(f"{live_server.url}/v/{evening.read_token}/")
    expect(page.locator("#evening-rounds li")).to_have_count(3)
    assert_rounds_keep_every_number(page)
    assert_the_badge_is_one_line_high(page)
    screenshot(suffix="follow")

    page.goto(f"{live_server.url}/e/{evening.token}/settle/")
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert_the_dot_stays_beside_the_name(page, LONG)
    screenshot(suffix="settle-en")
    page.goto(f"{live_server.url}/e/{evening.token}/")
    assert_the_dot_stays_beside_the_name(page, LONG)
    assert_rounds_keep_every_number(page)
    screenshot(suffix="evening-en")


LEGEND_JS = """svg => {
    const frame = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('.legend text')].map(t => {
        const box = t.getBoundingClientRect();
        return {text: t.textContent, left: box.left, right: box.right, top: box.top,
                inside: box.right <= frame.right + .5};
    });
}"""


@pytest.mark.parametrize("names", [
    ["小王", LONG, "李姐", "老张"],
    ["东北大王东北大王东北大王", "Bartholomew Fitzwilliam", LONG],
], ids=["four", "three"])
def test_the_charts_legend_entries_never_run_into_each_other(live_server, page: Page, screenshot, names):
    evening = make_evening(names=names)
    record_rounds(evening, ["E8"] if len(names) == 3 else ["E1", "E2"])
    page.goto(f"{live_server.url}/e/{evening.token}/")
    entries = page.locator(".running-chart").evaluate(LEGEND_JS)
    assert len(entries) == len(names)
    for entry in entries:
        assert entry["inside"], entry
        assert re.search(r"[+\u2212]?\d+$", entry["text"]), entry  # the total shows
    for a in entries:
        for b in entries:
            if a is not b and abs(a["top"] - b["top"]) < 1 and a["left"] < b["left"]:
                assert a["right"] <= b["left"] - 4, (a, b)
    assert any("…" in entry["text"] for entry in entries)
    screenshot(page.locator(".running-chart"), "chart")


def test_a_rounds_page_says_what_did_not_count_and_shows_every_hand(live_server, page: Page, screenshot):
    """At 390×844: the 翻牌's chicken, the void list (E1: 张哥's 冲锋鸡, not ready) and the hands."""
    from tests.factories import NAMES

    evening = make_evening()
    record_rounds(evening, ["E1"])
    page.goto(f"{live_server.url}/e/{evening.token}/rounds/1/")
    expect(page.locator(".result-turned")).to_have_text("翻牌 5万 → 鸡：6万")
    void = page.locator("#result-void li")
    expect(void.filter(has_text=f"{NAMES[3]} 的冲锋鸡不算：没叫")).to_have_count(1)
    hands = page.locator("#result-hands .result-hand")
    expect(hands).to_have_count(4)
    expect(hands.nth(0).locator(".tile")).to_have_count(11 + 4)  # concealed, and the 闷豆 of 9筒
    void.first.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    screenshot()
