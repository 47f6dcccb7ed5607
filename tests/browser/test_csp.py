"""The pages work under their Content-Security-Policy (issue 14): htmx, the tile keyboard and the
evening's chart, in Chromium that enforces the policy (the other browser tests bypass it so that
axe-core can be injected). Any refusal the browser reports fails the test."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE
from tests.factories import make_evening, record_rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """window.__refused = [];
document.addEventListener('securitypolicyviolation',
    e => window.__refused.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));"""


@pytest.fixture
def strict_page(browser):
    context = browser.new_context(**{**PHONE, "bypass_csp": False})
    context.add_init_script(WATCH)
    page = context.new_page()
    yield page
    context.close()


def refused(page) -> list[str]:
    return page.evaluate("() => window.__refused")


def test_the_tile_keyboard_and_htmx_work_under_the_policy(live_server, strict_page):
    page = strict_page
    response = page.goto(live_server.url + "/round/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator('[data-seat-card="0"] .seat-preview [data-tile-box]').click()  # 东's hand (胡的哪张 has a box too)
    keyboard = page.locator("[data-tile-keyboard]")
    expect(keyboard).to_be_visible()
    with page.expect_response(lambda r: "/round/preview/" in r.url):  # htmx's swap runs under the policy
        keyboard.locator(".tile-key").first.click()
    assert page.evaluate("() => typeof window.htmx === 'object'")
    expect(page.locator('[data-count-for="id_seat0-concealed"]')).to_have_text("1/13")
    assert refused(page) == []


def test_the_evening_page_and_its_chart_work_under_the_policy(live_server, strict_page):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3"])
    page = strict_page
    page.goto(f"{live_server.url}/e/{evening.token}/")
    expect(page.locator("svg").first).to_be_visible()
    # Seat colours are classes, not inline styles the policy would refuse: 东 is the chart's blue.
    dot = page.locator("#evening-rounds .ev-dot").first
    assert dot.evaluate("d => getComputedStyle(d).backgroundColor") == "rgb(0, 114, 178)"
    assert refused(page) == []  # each page its own list: look before leaving it
    page.locator("#evening-rounds a.ev-round").first.click()
    expect(page.locator(".thirds")).to_be_visible()
    assert page.locator(".thirds").evaluate("g => getComputedStyle(g).gridTemplateColumns.split(' ').length") == 3
    assert refused(page) == []
    page.goto(f"{live_server.url}/v/{evening.read_token}/")
    expect(page.locator("svg").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert refused(page) == []


def test_the_seats_words_and_a_refused_one_work_under_the_policy(live_server, strict_page, browser):
    """确认 swaps the seats' words in place, and a refused 代按 its why (a 400): nothing the policy refuses."""
    from calculator import services
    from tests.browser.table import open_phone
    from tests.browser.test_agreement import draft_of

    evening = make_evening()
    services.draft_save(evening=evening, values=draft_of("E1"), changed=None, base=0, client="setup")
    page = strict_page
    page.goto(f"{live_server.url}/e/{evening.token}/")
    page.select_option("#me-seat", "1")
    page.get_by_role("button", name="记住").click()
    page.locator("a.ev-record").click()
    page.wait_for_load_state("load")
    expect(page.locator(".net-bar [data-net]")).to_have_count(4)
    for _poll in range(3):  # the draft's polls morph the seats' state in meanwhile
        with page.expect_response(lambda r: "/rounds/draft/?" in r.url):
            pass
    page.keyboard.press("Escape")
    page.locator('#draft-confirm button[value="confirmed"]').click()
    expect(page.locator('[data-seat-word="1"]')).to_contain_text("确认")
    wang = open_phone(browser, live_server.url, evening.token, 0)  # after 小李's 代按 menu was drawn
    try:
        page.locator("details.confirm-proxy summary").click()
        page.select_option("#proxy-seat", "0")
        page.locator('#draft-confirm button[value="confirmed"]').click()
        expect(page.locator("[data-confirm-error]")).to_contain_text("老王 有自己的手机在录这一局")
        assert refused(page) == []
    finally:
        wang.close()
