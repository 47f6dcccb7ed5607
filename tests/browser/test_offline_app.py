"""The installable app (issue 20, point 3): after one visit online, an evening's page and its round
form open with the network gone (the form says it is an old copy; what is typed into it reaches
the round as it is when the network is back, recorded once, never over another phone's typing);
a page the phone never opened says there is no network; online, a page is never an old copy;
and Chromium finds the app installable (manifest + worker).

The outage is real: the phone reaches the server through a relay (tests/browser/outage.py) that
cuts every connection, the service worker's own included."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from calculator import selectors
from calculator.models import Round
from calculator.scoring import parse_tiles
from tests.browser.outage import Relay
from tests.browser.table import Phone, chips, enter_outcome, enter_seat, open_phone, saved
from tests.conftest import PHONE
from tests.factories import example_record, expected_net, make_evening, record_rounds
from tests.round_form_data import record_to_post_data
from tests.timing import scaled, wait_until
from tests.web.test_drafts import open_round, url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYNC_MS = scaled(20_000)

KEPT = """async (path) => {
  for (const name of await caches.keys()) {
    if (await (await caches.open(name)).match(path, { ignoreVary: true })) return true;  // as the worker matches
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


def worker_phone(browser, base_url: str, token: str, seat: int) -> Phone:
    """open_phone with the service worker running: the phone says who it is, then opens 记一局
    (online, once: that visit is what the worker keeps)."""
    context = browser.new_context(**{**PHONE, "service_workers": "allow"})
    page = context.new_page()
    page.goto(f"{base_url}/e/{token}/")
    page.select_option("#me-seat", str(seat))
    page.get_by_role("button", name="记住").click()
    page.locator("a.ev-record").click()
    expect(page.locator("form[data-round-form]")).to_be_visible()
    wait_until(lambda: kept(page, f"/e/{token}/rounds/new/"), 30, "the worker keeps the round form opened once")
    # and the evening page, asked for once the worker runs (the first visit came before it): the
    # offline way back to 记一局 starts there
    wait_until(lambda: kept(page, f"/e/{token}/"), 30, "the worker keeps the evening page opened before it ran")
    return Phone(context, page)


def open_the_kept_form(phone: Phone, *, from_the_evening: bool = False) -> None:
    """Offline, 记一局 again (a reload, or its button on the evening page): the worker's copy,
    saying what it is."""
    if from_the_evening:
        phone.page.goto(phone.page.url.removesuffix("rounds/new/"))
        phone.page.locator("a.ev-record").click()
    else:
        phone.page.reload()
    expect(phone.page.locator("form[data-round-form]")).to_be_visible()
    expect(phone.page.locator("[data-draft-status]")).to_contain_text(re.compile(r"这是这部手机上次联网 \d\d:\d\d 时的样子"))
    keyboard = phone.page.locator("[data-tile-keyboard]")
    if keyboard.is_visible():  # opened by itself on the phone's own empty hand
        keyboard.locator("[data-kb-done]").click()


def recorded_offline(phone: Phone) -> None:
    phone.page.locator(".submit-btn").click()
    expect(phone.page.locator("[data-outbox-line]")).to_contain_text("网络回来后自动记下")


def same_tiles(a: str, b: str) -> bool:
    return sorted(map(str, parse_tiles(a))) == sorted(map(str, parse_tiles(b)))


def test_the_round_form_opens_offline_and_what_is_typed_there_is_recorded_once(live_server, relay, browser, screenshot):
    """Issue 20's "its round form opens with the network off": the other three seats are in, this
    phone opens 记一局 once online, loses the network, opens it again (the worker's copy), taps
    its hand in and 记下这一局; the network back, the page opens itself from the network and the
    round is recorded once, with the hand typed offline."""
    evening = make_evening()
    record = example_record("E1")
    other = open_phone(browser, live_server.url, evening.token, seat=1)
    phone = None
    try:
        for seat in (1, 2, 3):
            enter_seat(other, record, seat)
        enter_outcome(other, record)
        saved(other)
        phone = worker_phone(browser, relay.url, evening.token, seat=0)
        page = phone.page
        relay.go_offline()
        open_the_kept_form(phone, from_the_evening=True)
        expect(page.locator("[data-draft]")).to_have_attribute("data-kept-copy", re.compile(r"^\d+$"))
        expect(chips(page, 1)).to_have_count(len(parse_tiles(record["seats"][1]["concealed"])))  # the others' seats as they were
        expect(page.locator("[data-network-badge]")).to_be_visible(timeout=scaled(3_000))
        enter_seat(phone, record, 0)
        expect(page.locator("[data-outbox-count]")).to_have_text(re.compile(r"[1-9]\d* 处改动等网络"))
        recorded_offline(phone)
        screenshot(page, "offline-kept-round-form")
        assert Round.objects.count() == 0

        relay.go_online()  # the page opens itself from the network, which sends what waited
        expect(page.locator("[data-outbox-told]")).to_contain_text("这一局已经记成第1局了", timeout=SYNC_MS)
        expect(page.locator("[data-draft]")).to_have_attribute("data-kept-copy", "")  # the network's page, not the copy
        expect(other.page.locator("#draft-bar")).to_contain_text("已经记成第1局了", timeout=SYNC_MS)
        assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('zhuoji-outbox:')).length") == 0
    finally:
        other.close()
        if phone:
            phone.close()
    rounds = list(Round.objects.all())
    assert len(rounds) == 1
    assert list(rounds[0].net) == expected_net("E1")
    assert same_tiles(rounds[0].record["seats"][0]["concealed"], record["seats"][0]["concealed"])


def test_a_kept_copy_of_a_round_recorded_since_puts_what_was_typed_into_the_next_round(
        live_server, relay, browser, client, screenshot):
    """The stale copy: phone A opens the form online and loses the network; phone B (here without
    JavaScript) records that round and starts the next; A, offline, opens its copy, types its
    hand and taps 记下这一局. Back online, A's hand goes into the round being entered now and A
    is told; the recorded round is not touched, and nothing is recorded twice or on its own."""
    evening = make_evening()
    first, second = example_record("E1"), example_record("E2")
    phone = worker_phone(browser, relay.url, evening.token, seat=0)
    page = phone.page
    try:
        relay.go_offline()
        expect(page.locator("[data-network-badge]")).to_be_visible(timeout=scaled(3_000))

        form = open_round(client, evening)  # B: the same draft, so the same key as A's copy
        response = client.post(url("evening_round_new", evening), {**record_to_post_data(first), **form})
        assert response.status_code == 302
        recorded = Round.objects.get()
        assert str(recorded.idempotency_key) == form["idempotency_key"]
        before = (recorded.record, list(recorded.net))
        nxt = open_round(client, evening)  # the next round: a new draft, a new key
        assert nxt["idempotency_key"] != form["idempotency_key"]
        typed_by_b = {**record_to_post_data(second), **nxt, "draft_changed": "seat1-concealed"}
        assert client.post(url("evening_round_preview", evening), typed_by_b, HTTP_HX_REQUEST="true").status_code == 200

        open_the_kept_form(phone)  # A's copy: round 1 as A last saw it, empty
        enter_seat(phone, second, 0)
        recorded_offline(phone)
        screenshot(page, "offline-stale-copy")

        relay.go_online()
        told = page.locator("[data-outbox-told]")
        expect(told).to_contain_text("你离线时看的那一局已经记成第1局了", timeout=SYNC_MS)
        saved(phone)
        expect(chips(page, 0)).to_have_count(len(parse_tiles(second["seats"][0]["concealed"])))
        expect(chips(page, 1)).to_have_count(len(parse_tiles(second["seats"][1]["concealed"])))  # B's, kept
        expect(page.locator(".submit-btn")).to_be_visible()  # not recorded on its own: the table looks first
        screenshot(page, "offline-stale-copy-merged")
        assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('zhuoji-outbox:')).length") == 0
    finally:
        phone.close()
    draft = selectors.evening_draft(evening=evening)
    assert str(draft.idempotency_key) == nxt["idempotency_key"]
    assert same_tiles(draft.data["seat0-concealed"][0], second["seats"][0]["concealed"])  # A's hand, in the next round
    assert same_tiles(draft.data["seat1-concealed"][0], second["seats"][1]["concealed"])  # B's, untouched
    recorded.refresh_from_db()
    assert Round.objects.count() == 1 and (recorded.record, list(recorded.net)) == before


def test_a_copy_the_table_changed_since_merges_what_was_typed_and_does_not_record_on_its_own(
        live_server, relay, browser, screenshot):
    """The copy's round is still being entered, but another phone changed it since the copy: A's
    typing is merged per field (the other phone's change kept, a clash named) and the
    记下这一局 A tapped on the copy is not sent on its own."""
    evening = make_evening()
    record = example_record("E1")
    phone = worker_phone(browser, relay.url, evening.token, seat=0)
    other = open_phone(browser, live_server.url, evening.token, seat=1)
    page = phone.page
    try:
        relay.go_offline()
        for seat in (1, 2, 3):
            enter_seat(other, record, seat)
        enter_outcome(other, record)
        saved(other)

        open_the_kept_form(phone)
        expect(chips(page, 1)).to_have_count(0)  # the copy: before the others typed
        enter_seat(phone, record, 0)
        recorded_offline(phone)
        relay.go_online()
        expect(page.locator("[data-outbox-told]")).to_contain_text("别的手机之后也改了这一局", timeout=SYNC_MS)
        saved(phone)
        expect(chips(page, 1)).to_have_count(len(parse_tiles(record["seats"][1]["concealed"])))
        expect(chips(other.page, 0)).to_have_count(
            len(parse_tiles(record["seats"][0]["concealed"])), timeout=SYNC_MS)
        screenshot(page, "offline-copy-changed-since")
        assert Round.objects.count() == 0
        page.locator(".submit-btn").click()  # the table looked: now it is recorded, once
        expect(page).to_have_url(re.compile(r"/rounds/1/$"), timeout=SYNC_MS)
    finally:
        phone.close()
        other.close()
    assert list(Round.objects.values_list("net", flat=True)) == [expected_net("E1")]


def test_a_round_form_is_kept_for_its_own_evening_only(relay, browser):
    """The copy of an evening's round form is served for that address only: another evening's
    form (its page opened, its form never) and the form's address with a query are 没有网络."""
    evening, other = make_evening(), make_evening()
    phone = worker_phone(browser, relay.url, evening.token, seat=0)
    page = phone.page
    try:
        page.goto(f"{relay.url}/e/{other.token}/")
        wait_until(lambda: kept(page, f"/e/{other.token}/"), 30, "the worker keeps the other evening's page")
        relay.go_offline()
        for address in (f"/e/{other.token}/rounds/new/", f"/e/{evening.token}/rounds/new/?players=4"):
            page.goto(relay.url + address)
            expect(page.get_by_role("heading", name="没有网络")).to_be_visible()
            assert page.locator("form[data-round-form]").count() == 0
            assert evening.token not in page.content() and other.token not in page.content()
        round_forms = page.evaluate("""async () => {
          const found = [];
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) {
              if (request.url.includes("/rounds/")) found.push(new URL(request.url).pathname + new URL(request.url).search);
            }
          }
          return found;
        }""")
        assert round_forms == [f"/e/{evening.token}/rounds/new/"]
    finally:
        phone.close()


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
