"""The installable app (issue 20, point 3): after one visit online, an evening's round form opens
with the network gone; a page the phone never opened says there is no network; online, a page is
never an old copy; and Chromium finds the app installable (manifest + worker).

The outage is real: the phone reaches the server through a relay (tests/browser/outage.py) that
cuts every connection, the service worker's own included."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.outage import Relay
from tests.conftest import PHONE
from tests.factories import make_evening, record_rounds
from tests.timing import scaled, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEPT = """async (path) => {
  for (const name of await caches.keys()) {
    if (await (await caches.open(name)).match(path)) return true;
  }
  return false;
}"""


@pytest.fixture
def relay(live_server):
    relay = Relay(live_server.url)
    yield relay
    relay.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(**{**PHONE, "service_workers": "allow"})
    yield context.new_page()
    context.close()


def kept(page, path: str) -> bool:
    return page.evaluate(KEPT, path)


def test_the_evening_opens_offline_after_one_visit_and_no_other_page_does(relay, phone, screenshot):
    evening, never_opened = make_evening(), make_evening()
    record_rounds(evening, ["E1"])
    page = f"/e/{evening.token}/"
    phone.goto(relay.url + page)
    wait_until(lambda: kept(phone, page), 30, "the worker keeps the evening page opened once")

    relay.go_offline()
    phone.reload()
    expect(phone.locator("#evening-rounds")).to_contain_text("第1局")
    screenshot(phone, "offline-evening")

    phone.goto(f"{relay.url}/e/{never_opened.token}/")
    expect(phone.get_by_role("heading", name="没有网络")).to_be_visible()
    assert never_opened.token not in phone.content() and evening.token not in phone.content()  # no evening's copy
    screenshot(phone, "offline-never-opened")


def test_the_round_form_is_never_an_old_copy_that_could_overwrite_the_table(relay, phone):
    """A copy of the round form holds the draft as it was when it was loaded; typed into offline
    and sent when the network is back, it would overwrite what the others entered since. Offline,
    the form is not served from a copy: the phone says there is no network."""
    evening = make_evening()
    form = f"/e/{evening.token}/rounds/new/"
    phone.goto(relay.url + form)
    wait_until(lambda: kept(phone, "/static/calculator/draft.js"), 30, "the worker has installed (it keeps the shell)")
    relay.go_offline()
    phone.reload()
    expect(phone.get_by_role("heading", name="没有网络")).to_be_visible()
    assert not kept(phone, form)
    assert phone.locator("form[data-round-form]").count() == 0


def test_online_a_page_is_never_the_kept_copy(relay, phone):
    evening = make_evening()
    page = f"/e/{evening.token}/"
    phone.goto(relay.url + page)
    wait_until(lambda: kept(phone, page), 30, "the worker keeps the evening page")
    phone.reload()  # now through the worker, which keeps the newest copy
    record_rounds(evening, ["E1"])  # another phone records a round
    phone.reload()
    expect(phone.locator("#evening-rounds")).to_contain_text("第1局")
    relay.go_offline()
    phone.reload()  # the copy kept is the newest one this phone saw
    expect(phone.locator("#evening-rounds")).to_contain_text("第1局")


def test_chromium_finds_the_app_installable(relay, phone):
    phone.goto(relay.url + "/")
    phone.wait_for_function("navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready")
    manifest = phone.evaluate("async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()")
    assert manifest["display"] == "standalone" and manifest["name"] == "捉鸡算账"
    cdp = phone.context.new_cdp_session(phone)

    def errors():
        found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # Playwright's contexts are incognito-like; a phone's browser is not.
        return [e["errorId"] for e in found if e["errorId"] != "in-incognito"]

    wait_until(lambda: errors() == [], 30, "no installability error")


def test_a_phone_says_when_the_network_is_gone_and_when_it_is_back(relay, page, screenshot):
    """The evening page polls every 5 s: the first poll that cannot reach the server shows the
    banner, the first that gets an answer hides it."""
    evening = make_evening()
    page.goto(f"{relay.url}/e/{evening.token}/")
    banner = page.locator("[data-network-banner]")
    expect(banner).to_be_hidden()
    relay.go_offline()
    expect(banner).to_be_visible(timeout=scaled(15_000))
    expect(banner).to_contain_text("没有网络")
    screenshot(page, "offline-banner")
    relay.go_online()
    expect(banner).to_be_hidden(timeout=scaled(15_000))


def test_the_round_form_says_so_within_seconds_of_losing_the_network(relay, page):
    """The draft's poll runs every second: its first failure shows the banner (issue 20: within 3 s)."""
    evening = make_evening()
    page.goto(f"{relay.url}/e/{evening.token}/rounds/new/")
    banner = page.locator("[data-network-banner]")
    expect(banner).to_be_hidden()
    relay.go_offline()
    expect(banner).to_be_visible(timeout=scaled(3_000))
    relay.go_online()
    expect(banner).to_be_hidden(timeout=scaled(10_000))
