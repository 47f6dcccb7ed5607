"""Every tap answered at once (issue 12): the chip in the tap's own frame, the server's answer put
in place in one pass, a stale request cancelled; and 没叫（没亮牌） in one tap. At 390×844."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.round_form_data import load_example
from tests.timing import wait_until

from .test_round_entry import E1_NET, enter_record_by_tapping, seat_card

PREVIEW = "**/round/preview/"


def open_keyboard(page, seat: int = 0):
    seat_card(page, seat).locator(".seat-preview [data-tile-box]").tap()
    expect(page.locator("[data-tile-keyboard]")).to_be_visible()


@pytest.mark.browser
def test_a_tapped_tile_shows_with_its_count_before_the_page_yields(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_keyboard(page)

    # The finger's touch and the look at the hand in one task: nothing may wait for a frame or the server.
    seen = page.evaluate("""() => {
        const key = document.querySelector('[data-tile-keyboard] [data-key="5p"]');
        key.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, cancelable: true, pointerType: 'touch'}));
        const box = document.querySelector('[data-tile-box][data-for="id_seat0-concealed"]');
        return [box.querySelectorAll('.tile-chips .tile').length,
                document.querySelector('[data-count-for="id_seat0-concealed"]').textContent,
                document.querySelector('[data-kb-count]').textContent];
    }""")

    assert seen == [1, "1/13", "1/13"]
    page.locator('[data-tile-keyboard] [data-key="5p"]').tap()  # a real tap types one tile, not two
    expect(page.locator("#id_seat0-concealed")).to_have_value("55p")


@pytest.mark.browser
def test_the_answer_changes_only_what_changed(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    # Every change the answer's swap makes to the form, by the piece of the answer it falls in.
    page.evaluate("""() => {
        const form = document.querySelector('[data-round-form]');
        const seen = new MutationObserver(() => {});
        window.touched = [];
        window.standing = document.getElementById('entry-seat1-preview');
        form.addEventListener('htmx:beforeSwap', () => seen.observe(form, {subtree: true, childList: true, attributes: true, characterData: true}));
        form.addEventListener('htmx:afterSwap', () => {
            seen.takeRecords().forEach((r) => {
                if (r.target === form) return;  // htmx's htmx-swapping / htmx-settling class
                const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
                window.touched.push(el.closest('.seat-standing, [hx-swap-oob], .problems, .net-bar, .settlement-preview, .entry-shortcuts').id);
            });
            seen.disconnect();
        });
    }""")
    open_keyboard(page, 1)
    with page.expect_response(PREVIEW):
        page.locator('[data-tile-keyboard] [data-key="3s"]').tap()
    expect(seat_card(page, 1).locator(".standing")).to_have_text("还差 12 张")

    assert set(page.evaluate("window.touched")) == {"entry-seat1-preview"}  # the other seats' standings stay
    assert page.evaluate("window.standing === document.getElementById('entry-seat1-preview')")  # changed in place


@pytest.mark.browser
def test_an_older_answer_swapped_in_keeps_the_count_of_the_taps_made_since(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    open_keyboard(page)
    with page.expect_response(PREVIEW) as first:
        page.locator('[data-tile-keyboard] [data-key="1m"]').tap()
    expect(seat_card(page, 0).locator(".standing")).to_have_text("还差 12 张")
    older = first.value.text()
    page.locator('[data-tile-keyboard] [data-key="2m"]').tap()
    page.locator('[data-tile-keyboard] [data-key="3m"]').tap()
    expect(seat_card(page, 0).locator(".standing")).to_have_text("还差 10 张")

    # As the draft poll puts the state in (draft.js): an answer to the page as it was one tile ago.
    page.evaluate("(html) => htmx.swap(document.querySelector('[data-round-form]'), html, {swapStyle: 'none'})", older)

    expect(seat_card(page, 0).locator(".standing")).to_have_text("还差 12 张")
    expect(page.locator('[data-count-for="id_seat0-concealed"]')).to_have_text("3/13")


@pytest.mark.browser
def test_a_request_made_stale_by_a_newer_tap_is_cancelled_not_waited_for(live_server, page):
    page.goto(live_server.url + reverse("calculator:round_new"))
    held = []
    page.route(PREVIEW, lambda route: held.append(route) if not held else route.continue_())
    page.evaluate("""() => { window.aborted = 0;
        document.body.addEventListener('htmx:sendAbort', () => window.aborted++); }""")
    open_keyboard(page)
    page.locator('[data-tile-keyboard] [data-key="1m"]').tap()
    # The route handler runs when Playwright next hands Python its events, which may be after the
    # page has already marked the form busy: wait for the request itself, not for the class.
    wait_until(lambda: held, 5, "the first preview request", pause=lambda s: page.wait_for_timeout(s * 1000))
    assert len(held) == 1  # the first request is out, and held at the server's door
    assert page.evaluate("document.querySelector('[data-round-form]').classList.contains('htmx-request')")

    page.locator('[data-tile-keyboard] [data-key="2m"]').tap()

    page.wait_for_function("() => window.aborted === 1")
    expect(page.locator('[data-count-for="id_seat0-concealed"]')).to_have_text("2/13")
    expect(seat_card(page, 0).locator(".standing")).to_have_text("还差 11 张")


@pytest.mark.browser
def test_mei_jiao_in_one_tap_needs_no_hand_and_keeps_the_nets(live_server, page, screenshot):
    record = load_example("E1")
    record["seats"][2]["concealed"] = ""  # 西 is not ready: nobody types its 13 tiles
    page.goto(live_server.url + reverse("calculator:round_new"))
    card = seat_card(page, 2)
    card.locator(".mei-jiao-switch label").tap()
    expect(card.locator(".seat-preview [data-tile-box] .tile-placeholder")).to_be_hidden()  # no hand to type
    expect(card.locator(".seat-preview [data-tile-box]")).to_have_accessible_name("没叫：点这里用牌键盘记碰、豆")  # its melds may

    enter_record_by_tapping(page, record)

    expect(card.locator(".standing")).to_have_text("没叫（没亮牌）")
    expect(page.locator(".net-bar [data-net]")).to_have_text(E1_NET)
    card.scroll_into_view_if_needed()
    screenshot(card, "seat")
    page.locator(".submit-btn").tap()
    expect(page.locator(".result-hero .net-points")).to_have_text(E1_NET)
    expect(page.get_by_text("没叫（没亮牌）").first).to_be_visible()
    screenshot(page, "result")
