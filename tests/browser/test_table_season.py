"""固定桌 on a phone (390 × 844, issue 24): a new user makes a table from tonight's evening, opens
the next evening from it in one tap, and reads the season; a friend reads it at the read-only
address. Every state is screenshotted and checked by axe."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from calculator import services
from calculator.models import Evening
from tests.factories import make_evening, record_rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_from_an_evening_its_next_evening_in_one_tap_and_its_season(live_server, page: Page, screenshot):
    tonight = make_evening(names=["老王", "小李", "阿珍", "张哥"], stake="0.5")
    record_rounds(tonight, ["E1", "E2"])
    page.goto(f"{live_server.url}/e/{tonight.token}/")
    expect(page.locator("#awards-title")).to_have_text("今晚的奖")
    page.get_by_role("button", name="这桌常打：建一个固定桌").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("老王、小李、阿珍、张哥")
    start = page.locator("#table-start")
    expect(start).to_contain_text("老王、小李、阿珍、张哥")
    expect(start).to_contain_text("底注 0.5")
    screenshot(suffix="1-table")

    start.click()  # one tap: the next evening, seated and ruled as tonight
    expect(page.get_by_role("link", name="＋ 记一局")).to_be_visible()
    nxt = Evening.objects.exclude(pk=tonight.pk).get()
    tonight.refresh_from_db()
    assert page.url.endswith(f"/e/{nxt.token}/")
    assert [p.name for p in nxt.players.all()] == ["老王", "小李", "阿珍", "张哥"] and nxt.table == tonight.table
    record_rounds(nxt, ["E3"])
    page.reload()
    screenshot(suffix="2-next-evening")

    page.get_by_role("link", name="战绩").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("战绩")
    standings = page.locator(".tb-standings tbody tr")
    expect(standings).to_have_count(4)
    # 小李: −2 + 59 tonight, +3 the next evening = +60, at 0.5 = +30 元
    expect(standings.first).to_contain_text("小李")
    expect(standings.first).to_contain_text("+60")
    expect(standings.first).to_contain_text("+30")
    expect(page.locator(".tb-awards")).to_contain_text("最大一手")
    screenshot(suffix="3-season")

    # The rounds behind 老王's 胡: a tap away, each linking its round.
    page.locator(".tb-player", has_text="老王").get_by_role("link", name="2", exact=True).first.click()
    expect(page.locator(".tb-refs li")).to_have_count(2)
    screenshot(suffix="4-rounds-behind")

    page.goto(f"{live_server.url}/tv/{tonight.table.read_token}/?period=month")
    expect(page.get_by_role("heading", level=1)).to_contain_text("战绩")
    expect(page.locator(".ev-facts")).to_contain_text("只能看")
    assert tonight.table.token not in page.content()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # nothing wider than the phone (the head-to-head scrolls in its box)
    screenshot(suffix="5-read-only")


def test_a_fresh_table_attaches_a_past_evening(live_server, page: Page, screenshot):
    past = make_evening(names=["王哥", "小李", "阿珍"])
    page.goto(f"{live_server.url}/table/new/")
    page.get_by_label("这桌叫什么").fill("周五老王家")
    page.get_by_label("常来的人").fill("老王\n小李\n阿珍")
    page.get_by_role("button", name="建好").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("周五老王家")
    page.get_by_label("那一晚的改账链接").fill(f"{live_server.url}/e/{past.token}/")
    page.get_by_role("button", name="加进来").click()
    expect(page.locator(".tb-evenings li")).to_have_count(1)
    page.locator(".tb-seats summary").click()
    page.locator(".tb-seat").first.get_by_role("button", name="老王").click()  # one tap: 王哥 is 老王
    expect(page.locator(".tb-evenings li").first).to_contain_text("王哥 = 老王")
    screenshot(suffix="seats")
    assert services.table_next_setup(table=past.__class__.objects.get(pk=past.pk).table)["names"] == ["王哥", "小李", "阿珍"]


def test_the_share_pages_copy_each_address(live_server, page: Page, screenshot):
    evening = make_evening()
    table = services.table_from_evening(evening=evening)
    for url in (f"/t/{table.token}/share/", f"/e/{evening.token}/share/"):
        page.goto(live_server.url + url)
        button = page.get_by_role("button", name="复制链接").first
        expect(button).to_be_visible()  # shown by the script; hidden without it
        button.click()
        expect(page.get_by_role("button", name="已复制").first).to_be_visible()
    screenshot(suffix="evening-share")
