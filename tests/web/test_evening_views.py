"""The evening pages: open an evening, record and correct rounds from the round form, settle up,
read the history, share a read-only address. Every form is posted as a browser without
JavaScript would post it; htmx requests get the partials."""
from __future__ import annotations

import json
import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from calculator import selectors, services
from calculator.models import Change, Evening, PaidTransfer, Round
from calculator.scoring.tiles import parse_tiles
from tests.factories import NAMES, example_record, expected_net, make_evening, record_rounds
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, evening: Evening, *args) -> str:
    return reverse(f"calculator:{name}", args=[evening.token, *args])


def round_post(example: str, **extra) -> dict:
    data = record_to_post_data(example_record(example))
    data.update(extra)
    return data


# -- opening an evening ------------------------------------------------------------------------


def evening_post(**changes) -> dict:
    data = {"player_0": "老王", "player_1": "小李", "player_2": "阿珍", "player_3": "张哥",
            "stake": "0.5", "preset": "guiyang", "first_dealer": "1", "title": ""}
    data.update(changes)
    return data


def test_the_home_page_offers_to_open_an_evening(client):
    response = client.get(reverse("calculator:home"))
    assert reverse("calculator:evening_new") in response.content.decode()


def test_opening_an_evening_redirects_to_its_own_address(client):
    response = client.post(reverse("calculator:evening_new"), evening_post(jian_dou_san="yes", self_draw="double"))
    evening = Evening.objects.get()
    assert response.status_code == 302 and response["Location"] == url("evening_detail", evening)
    assert [p.name for p in evening.players.all()] == NAMES
    assert evening.rules["jian_dou_san"] is True and evening.rules["self_draw"] == "double"
    assert evening.first_dealer == 1 and str(evening.stake) == "0.5000"


def test_a_three_player_evening_leaves_the_fourth_seat_empty(client):
    client.post(reverse("calculator:evening_new"), evening_post(player_3="", first_dealer="0"))
    assert Evening.objects.get().players.count() == 3


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"player_1": "老王"}, "重名"),
        ({"player_2": ""}, "这个字段是必填项"),
        ({"stake": "0"}, "stake"),
        ({"player_3": "", "first_dealer": "3"}, "没有第四位"),
    ],
)
def test_an_evening_that_cannot_be_played_is_shown_again_with_the_problem(client, changes, message):
    response = client.post(reverse("calculator:evening_new"), evening_post(**changes))
    assert response.status_code == 400 and Evening.objects.count() == 0
    form = response.context["form"]
    assert form.errors
    if message != "stake":
        assert message in response.content.decode()
    else:
        assert "stake" in form.errors


# -- the evening page --------------------------------------------------------------------------


def test_the_evening_page_shows_totals_chart_and_rounds_newest_first(client):
    evening = make_evening(stake="2")
    record_rounds(evening, ["E1", "E2"])
    page = client.get(url("evening_detail", evening)).content.decode()
    assert page.index("第2局") < page.index("第1局")
    assert "<svg" in page and "running-chart" in page
    for total in selectors.evening_totals(evening=evening):
        assert total.name in page and total.money_text in page
    assert "第3局 · 小李 坐庄" in page  # E2: 小李 self-drew, so deals next (R35)
    # The read-only address is shared from the share page; here it only rides in the
    # 照这一晚的规矩再开一晚 link, which copies rules through it rather than the edit address.
    assert page.count(evening.read_token) == 1
    assert f"rules_from={evening.read_token}" in page
    assert page.count(url("evening_round", evening, 1)) == 1


def test_an_unknown_address_is_not_found(client):
    assert client.get(reverse("calculator:evening_detail", args=["nope" * 8])).status_code == 404
    assert client.get(reverse("calculator:evening_follow", args=["nope" * 8])).status_code == 404


def test_the_read_token_does_not_open_the_editable_page(client):
    evening = make_evening()
    assert client.get(reverse("calculator:evening_detail", args=[evening.read_token])).status_code == 404


def test_evening_pages_are_kept_out_of_shared_caches_and_search_engines(client):
    evening = make_evening()
    for response in (client.get(url("evening_detail", evening)),
                     client.get(reverse("calculator:evening_follow", args=[evening.read_token]))):
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"private", "no-cache"} <= directives and "public" not in directives
        assert "Cookie" in response["Vary"] and "noindex" in response["X-Robots-Tag"]
        # no-store would keep the page out of the back/forward cache (issue 15)
        assert "no-store" not in directives


# -- recording a round -------------------------------------------------------------------------


def test_the_new_round_page_fixes_names_stake_and_rules_and_suggests_the_dealer(client):
    evening = make_evening(first_dealer=2)
    page = client.get(url("evening_round_new", evening)).content.decode()
    assert page.count('name="idempotency_key"') == 1  # one key per form, sent once
    assert 'name="stake"' not in page and 'name="preset"' not in page and 'name="seat0-name"' not in page
    assert "这局 阿珍 坐庄" in page
    assert 'name="dealer"' in page


def test_a_valid_round_is_recorded_and_its_breakdown_is_shown_first_with_the_way_back(client):
    evening = make_evening()
    response = client.post(url("evening_round_new", evening), round_post("E1", idempotency_key=str(uuid.uuid4())))
    assert response.status_code == 302 and response["Location"] == url("evening_round", evening, 1)
    round_ = Round.objects.get()
    assert round_.net == expected_net("E1") and round_.number == 1
    page = client.get(response["Location"]).content.decode()
    assert "第1局记好了。" in page  # the message survives the redirect
    assert f'class="btn btn-outline-secondary bg-white ev-return" href="{url("evening_detail", evening)}"' in page
    assert "← 回到这一晚" in page


def test_the_rounds_page_says_what_did_not_count_and_which_tile_the_turn_made_the_chicken(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    page = client.get(url("evening_round", evening, 1)).content.decode()
    assert "没算的" in page and f"{NAMES[3]} 的冲锋鸡不算：没叫" in page  # RULES E1: seat 3 is not ready
    assert "翻牌 5万 → 鸡：6万" in page


def test_the_rounds_page_shows_every_seats_entered_hand_as_tiles(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    page = client.get(url("evening_round", evening, 1)).content.decode()
    hands = page[page.index('id="result-hands"'):]
    hands = hands[:hands.index("</section>")]
    for seat, data in enumerate(example_record("E1")["seats"]):
        name = hands.index(NAMES[seat])
        following = hands[name:hands.index(NAMES[seat + 1])] if seat < 3 else hands[name:]
        concealed = [str(t) for t in sorted(parse_tiles(data["concealed"]))]
        assert re.findall(r'data-tile="(\w+)"', following)[:len(concealed)] == concealed
        for meld in data["melds"]:
            assert f'data-tile="{meld["tile"]}"' in following


def test_submitting_the_same_form_twice_records_one_round(client):
    evening = make_evening()
    data = round_post("E1", idempotency_key=str(uuid.uuid4()))
    client.post(url("evening_round_new", evening), data)
    client.post(url("evening_round_new", evening), data)
    assert Round.objects.count() == 1


def test_a_form_resubmitted_with_a_different_round_is_refused_and_kept(client):
    """Back button, change the hand, submit again: the form's key recorded round 1 already."""
    evening = make_evening()
    key = str(uuid.uuid4())
    client.post(url("evening_round_new", evening), round_post("E1", idempotency_key=key))
    changed = round_post("E2", idempotency_key=key)
    response = client.post(url("evening_round_new", evening), changed)
    assert response.status_code == 400
    page = response.content.decode()
    assert "这张表已经记成第1局了，改动没有保存。请在第1局里改。" in page
    assert url("evening_round", evening, 1) in page
    assert f'value="{changed["seat1-concealed"]}"' in page  # the changed form is still there
    assert list(Round.objects.values_list("net", flat=True)) == [expected_net("E1")]


def test_an_invalid_round_is_shown_again_with_its_problems_and_the_key_of_the_draft_that_keeps_it(client):
    """A form whose draft is gone (thrown away: its key holds nothing now) is kept in a new draft
    under a key of its own; the page comes back with that key, so the corrected submit records
    that draft once."""
    evening = make_evening()
    data = round_post("E1", idempotency_key=str(uuid.uuid4()))
    data["seat0-concealed"] = "234m"
    response = client.post(url("evening_round_new", evening), data)
    assert response.status_code == 400 and Round.objects.count() == 0
    draft = selectors.evening_draft(evening=evening)
    assert draft.data["seat0-concealed"] == ["234m"]
    assert f'name="idempotency_key" value="{draft.idempotency_key}"' in response.content.decode()
    fixed = round_post("E1", idempotency_key=str(draft.idempotency_key))
    for _ in range(2):  # a double tap
        assert client.post(url("evening_round_new", evening), fixed).status_code == 302
    assert Round.objects.count() == 1 and selectors.evening_draft(evening=evening) is None


def test_the_live_preview_answers_with_the_round_forms_partials(client):
    evening = make_evening()
    response = client.post(url("evening_round_preview", evening), round_post("E1"), **HTMX)
    assert response.status_code == 200
    assert 'hx-swap-oob' in response.content.decode()


# -- a stored round, corrections and deletes ---------------------------------------------------


def test_a_stored_round_shows_its_items_and_links_to_edit_delete_and_receipt(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    page = client.get(url("evening_round", evening, 1)).content.decode()
    assert "阿珍 付 老王 1 番" in page
    for name in ("evening_round_edit", "evening_round_delete", "evening_round_receipt_pdf"):
        assert url(name, evening, 1) in page


def test_a_missing_round_is_not_found(client):
    evening = make_evening()
    assert client.get(url("evening_round", evening, 9)).status_code == 404


def test_the_correction_form_starts_from_the_stored_round(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    page = client.get(url("evening_round_edit", evening, 1)).content.decode()
    for seat, stored in enumerate(example_record("E1")["seats"]):  # the form may write tiles in its own order
        shown = re.search(rf'name="seat{seat}-concealed" value="([^"]*)"', page).group(1)
        assert sorted(parse_tiles(shown)) == sorted(parse_tiles(stored["concealed"]))
    assert 'name="version" value="1"' in page


def bar_nets(page: str) -> list[str]:
    """The nets in the sticky bar under the round form."""
    bar = re.search(r'<div id="entry-net-bar".*?</div>', page, re.S).group(0)
    return re.findall(r"<b data-net>([^<]+)</b>", bar)


def signed_nets(net: list[int]) -> list[str]:
    return [f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0" for n in net]


def test_the_correction_form_shows_the_stored_rounds_nets_in_its_bar_from_the_start(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])

    page = client.get(url("evening_round_edit", evening, 2)).content.decode()

    assert bar_nets(page) == signed_nets(expected_net("E2"))
    assert "填好每家的牌，这里就出输赢" not in page and "结算预览" in page


def test_the_correction_preview_page_shows_the_corrected_nets_in_its_bar(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])

    page = client.post(url("evening_round_edit", evening, 2), round_post("E3", version="1")).content.decode()

    assert "确认修改" in page
    assert bar_nets(page) == signed_nets(expected_net("E3"))


def test_the_correction_preview_scores_under_the_rules_the_round_was_stored_with(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])  # 贵阳 as it comes: 闷豆 2 per payer
    Evening.objects.filter(pk=evening.pk).update(rules={**evening.rules, "jian_dou_san": True})
    page = client.get(url("evening_round_edit", evening, 1)).content.decode()
    preview_url = re.search(r'hx-post="([^"]+)"', page).group(1).replace("&amp;", "&")
    response = client.post(preview_url, round_post("E1"), **HTMX)
    assert response.status_code == 200
    assert response.context["entry"].settlement.net == expected_net("E1")


def test_a_correction_preview_for_a_round_that_is_gone_is_not_found(client):
    evening = make_evening()
    for number in ("9", "99999999999999999999"):
        address = url("evening_round_preview", evening) + f"?round={number}"
        assert client.post(address, round_post("E1"), **HTMX).status_code == 404


def test_a_correction_shows_before_and_after_and_saves_nothing_until_confirmed(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    response = client.post(url("evening_round_edit", evening, 2), round_post("E3", version="1"))
    assert response.status_code == 200
    changes = response.context["changes"]
    assert [(c.before, c.after) for c in changes] == list(zip(expected_net("E2"), expected_net("E3")))
    assert Round.objects.get(number=2).net == expected_net("E2")  # nothing saved yet
    assert "确认修改" in response.content.decode()

    confirm = {"record": json.dumps(response.context["confirm"].initial["record"]), "version": "1"}
    done = client.post(url("evening_round_edit_confirm", evening, 2), confirm)
    assert done.status_code == 302
    round_ = Round.objects.get(number=2)
    assert round_.net == expected_net("E3") and round_.version == 2
    assert Change.objects.filter(kind="corrected").count() == 1


def test_a_confirmation_based_on_an_old_version_shows_the_new_version(client):
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    confirm = {"record": json.dumps(example_record("E3")), "version": "1"}
    response = client.post(url("evening_round_edit_confirm", evening, 1), confirm, follow=True)
    assert response.redirect_chain[-1][0] == url("evening_round_edit", evening, 1)
    assert "有人刚改过这一局" in response.content.decode()
    assert 'name="version" value="2"' in response.content.decode()
    assert Round.objects.get().net == expected_net("E2")


def test_a_save_of_a_correction_another_phone_saved_first_goes_to_the_round_and_opens_no_correction(client):
    """Two phones on one correction: one taps 保存修改, then the other (its page not yet told). The
    second goes to the round as saved, and no new correction is left open on every phone's page
    ("第1局正在改" with nobody changing anything: seen by the new-player run)."""
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    response = client.post(url("evening_round_edit", evening, 1), {**round_post("E3", version="1"), "save": "1"},
                           follow=True)
    assert response.redirect_chain[-1][0] == url("evening_round", evening, 1)
    assert "有人刚改过这一局" in response.content.decode()
    assert selectors.correction_draft(evening=evening, number=1) is None
    assert Round.objects.get().net == expected_net("E2")


def test_a_preview_based_on_an_old_version_shows_the_new_version(client):
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    response = client.post(url("evening_round_edit", evening, 1), round_post("E3", version="1"), follow=True)
    assert "有人刚改过这一局" in response.content.decode()


@pytest.mark.parametrize("form", ["evening_round_edit_confirm", "evening_round_edit", "evening_round_delete"])
def test_a_form_left_open_on_a_deleted_round_is_told_and_never_lands_on_a_new_round(client, form):
    evening = make_evening()
    _first, second = record_rounds(evening, ["E1", "E2"])
    services.round_delete(round=second)
    (new,) = record_rounds(evening, ["E3"])
    data = {**round_post("E4"), "record": json.dumps(example_record("E4")), "version": "1"}
    response = client.post(url(form, evening, 2), data, follow=True)
    assert response.redirect_chain[-1][0] == url("evening_detail", evening)
    assert "有人刚改过这一局" in response.content.decode()
    assert Round.objects.get(pk=new.pk).version == 1 and Round.objects.count() == 2
    assert client.post(url(form, evening, 9), data).status_code == 404  # never existed


def test_deleting_asks_first_then_deletes_and_keeps_the_history(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    page = client.get(url("evening_round_delete", evening, 2)).content.decode()
    assert "确认删除" in page and Round.objects.count() == 2
    response = client.post(url("evening_round_delete", evening, 2), {"version": "1"})
    assert response.status_code == 302
    assert list(Round.objects.values_list("number", flat=True)) == [1]
    assert Change.objects.filter(kind="deleted", round_number=2).exists()


def test_a_delete_based_on_an_old_version_goes_back_to_the_round_as_it_is_now(client):
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    response = client.post(url("evening_round_delete", evening, 1), {"version": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == url("evening_round", evening, 1)
    assert "有人刚改过这一局" in response.content.decode()
    assert Round.objects.get().version == 2


def test_the_phones_owner_is_written_into_the_history(client):
    evening = make_evening()
    client.post(url("evening_me", evening), {"seat": "1"})
    client.post(url("evening_round_new", evening), round_post("E1", idempotency_key=str(uuid.uuid4())))
    assert Change.objects.get().by == "小李"


# -- settle-up, history, share, follow, export -------------------------------------------------


def test_settle_up_lists_the_fewest_transfers_in_money(client):
    evening = make_evening(stake="0.5")
    record_rounds(evening, ["E1"])
    page = client.get(url("evening_settle", evening)).content.decode()
    assert page.count('class="ev-transfer') == 3
    assert "7.5" in page  # 老王 +15 points at 0.5


def test_a_transfer_is_marked_paid_without_javascript_and_with_htmx(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    t = selectors.evening_settle_up(evening=evening).transfers[0]
    data = {"payer": t.payer, "payee": t.payee, "points": t.points, "paid": "1"}
    response = client.post(url("evening_transfer_paid", evening), data)
    assert response.status_code == 302 and PaidTransfer.objects.count() == 1
    data.pop("paid")
    data["payment"] = PaidTransfer.objects.get().pk
    response = client.post(url("evening_transfer_paid", evening), data, **HTMX)
    assert response.status_code == 200 and 'id="settle-up"' in response.content.decode()
    assert "<html" not in response.content.decode()
    assert PaidTransfer.objects.count() == 0


def test_undo_names_its_payment_so_a_resend_takes_back_nothing_more(client):
    """撤回 tapped twice (or resent) on one of two equal payments: one is taken back, not both."""
    evening = make_evening()
    record_rounds(evening, ["E1"])
    for _ in range(2):
        PaidTransfer.objects.create(evening=evening, payer=0, payee=1, points=4)
    page = client.get(url("evening_settle", evening)).content.decode()
    undo = re.search(r'name="payment" value="(\d+)"', page)
    assert undo, "each paid transfer's 撤回 names its payment"
    form = {"payer": 0, "payee": 1, "points": 4, "payment": undo.group(1)}
    for _ in range(2):
        assert client.post(url("evening_transfer_paid", evening), form).status_code == 302
    assert PaidTransfer.objects.count() == 1


def test_undo_without_naming_a_payment_is_refused(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    PaidTransfer.objects.create(evening=evening, payer=0, payee=1, points=4)
    response = client.post(url("evening_transfer_paid", evening), {"payer": 0, "payee": 1, "points": 4})
    assert response.status_code == 400 and PaidTransfer.objects.count() == 1


def test_money_paid_mid_evening_still_shows_as_paid_after_more_rounds(client):
    """Paid after round 1, then round 2 is recorded: the payment stays 已付 and the plan asks
    only for what round 2 added, so nobody pays twice."""
    evening = make_evening()
    record_rounds(evening, ["E1"])
    t = selectors.evening_settle_up(evening=evening).to_pay[0]
    client.post(url("evening_transfer_paid", evening), {"payer": t.payer, "payee": t.payee, "points": t.points,
                                                        "paid": "1"})
    record_rounds(evening, ["E2"])

    page = client.get(url("evening_settle", evening)).content.decode()

    paid = re.findall(r'class="ev-transfer paid" data-transfer="([^"]+)"', page)
    assert paid == [f"{t.payer}-{t.payee}-{t.points}"]
    assert page.count("✓ 已付") == 1 and page.count("标记已付") == len(selectors.evening_settle_up(
        evening=evening).to_pay) > 0


PLAN_CHANGED = "总分刚变过，结账方案也跟着变了，请再看一遍。"


def stale_transfer(evening: Evening) -> dict:
    """A transfer of the plan as a page showed it, before another phone recorded a round."""
    t = selectors.evening_settle_up(evening=evening).transfers[0]
    record_rounds(evening, ["E2"])
    return {"payer": t.payer, "payee": t.payee, "points": t.points, "paid": "1"}


def test_a_tap_on_a_transfer_the_plan_no_longer_has_is_told_inside_the_swapped_part(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    response = client.post(url("evening_transfer_paid", evening), stale_transfer(evening), **HTMX)
    assert PLAN_CHANGED in response.content.decode()
    assert PaidTransfer.objects.count() == 0
    later = client.get(url("evening_detail", evening)).content.decode()
    assert PLAN_CHANGED not in later  # not left in the session for the next page


def test_without_javascript_the_plan_change_is_told_on_the_settle_page(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    response = client.post(url("evening_transfer_paid", evening), stale_transfer(evening), follow=True)
    assert response.redirect_chain[-1][0] == url("evening_settle", evening)
    assert response.content.decode().count(PLAN_CHANGED) == 1


def test_the_history_page_lists_each_change(client):
    evening = make_evening()
    first, second = record_rounds(evening, ["E1", "E2"])
    services.round_correct(round=second, record=example_record("E3"), expected_version=1, by="老王")
    page = client.get(url("evening_history", evening)).content.decode()
    assert page.count("记了") == 2 and "改了" in page and "老王" in page


def test_the_share_page_shows_the_read_only_link_and_its_qr_code(client):
    evening = make_evening()
    page = client.get(url("evening_share", evening)).content.decode()
    follow = reverse("calculator:evening_follow", args=[evening.read_token])
    assert follow in page and '<svg class="qr"' in page


@pytest.mark.parametrize("host, warned", [
    ("127.0.0.1:8000", True), ("localhost:8000", True), ("[::1]:8000", True),
    ("192.168.1.20:8000", False), ("zhuoji.example", False),
])
def test_the_share_page_says_when_its_codes_open_only_on_this_computer(client, settings, host, warned):
    settings.ALLOWED_HOSTS = ["*"]
    page = client.get(url("evening_share", make_evening()), HTTP_HOST=host).content.decode()
    assert ('id="share-loopback"' in page) is warned
    assert ("bin/run --table" in page) is warned


POLL = 'hx-trigger="every 5s"'  # live.js skips a poll while the tab is hidden (no eval: the CSP)


def polled_version(page: str, address: str) -> str:
    """The version a page's live part sends back when it polls `address`."""
    match = re.search(rf'hx-get="{re.escape(address)}\?since=([\d.]+)"', page)
    assert match, "the live part does not poll its own address"
    return match.group(1)


def test_the_read_only_page_polls_its_totals_and_never_shows_the_edit_address(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    follow = reverse("calculator:evening_follow", args=[evening.read_token])
    page = client.get(follow).content.decode()
    assert POLL in page and "calculator/live.js" in page and polled_version(page, follow)
    assert f'href="{follow}"' in page  # a real link to refresh without JavaScript
    assert evening.token not in page
    assert "+15" in page


def test_the_edit_page_polls_its_live_part_too(client):
    evening = make_evening()
    page = client.get(url("evening_detail", evening)).content.decode()
    assert POLL in page and "calculator/live.js" in page and polled_version(page, url("evening_detail", evening))


@pytest.mark.parametrize("read_only", [False, True])
def test_a_poll_gets_nothing_while_the_evening_is_unchanged(client, read_only):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    address = (reverse("calculator:evening_follow", args=[evening.read_token]) if read_only
               else url("evening_detail", evening))
    since = polled_version(client.get(address).content.decode(), address)
    quiet = client.get(address, {"since": since}, **HTMX)
    assert quiet.status_code == 204 and quiet.content == b""


@pytest.mark.parametrize("read_only", [False, True])
def test_a_poll_after_another_phone_recorded_gets_the_new_round(client, read_only):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    address = (reverse("calculator:evening_follow", args=[evening.read_token]) if read_only
               else url("evening_detail", evening))
    since = polled_version(client.get(address).content.decode(), address)
    record_rounds(evening, ["E2"])  # 小李 self-draws, so deals round 3 (R35)
    fresh = client.get(address, {"since": since}, **HTMX)
    body = fresh.content.decode()
    assert fresh.status_code == 200 and body.lstrip().startswith('<div id="evening-live"')
    assert "第2局 小李 自摸" in body and "<html" not in body
    assert polled_version(body, address) != since
    if not read_only:
        assert "第3局 · 小李 坐庄" in body  # the record button follows too
    assert client.get(address, {"since": polled_version(body, address)}, **HTMX).status_code == 204


def test_the_version_in_an_address_is_ignored_without_htmx(client):
    evening = make_evening()
    address = url("evening_detail", evening)
    since = polled_version(client.get(address).content.decode(), address)
    page = client.get(address, {"since": since})
    assert page.status_code == 200 and "<html" in page.content.decode()


def test_the_read_only_poll_returns_only_the_live_partial(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    response = client.get(reverse("calculator:evening_follow", args=[evening.read_token]), **HTMX)
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="evening-live"') and "<html" not in body
    assert evening.token not in body


def test_the_read_only_address_cannot_change_anything(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    base = f"/e/{evening.read_token}/"
    assert client.post(base + "rounds/new/", round_post("E2")).status_code == 404
    assert client.post(base + "rounds/1/delete/", {"version": "1"}).status_code == 404
    assert Round.objects.count() == 1


def test_export_and_import_through_the_pages(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    exported = client.get(url("evening_export", evening))
    assert exported["Content-Type"] == "application/json"
    assert exported.streaming  # a long evening's file is never held whole in memory (issue 15)
    content = b"".join(exported.streaming_content)
    assert json.loads(content) == services.evening_export(evening=evening)
    upload = SimpleUploadedFile("evening.json", content, content_type="application/json")
    response = client.post(reverse("calculator:evening_import"), {"file": upload})
    copy = Evening.objects.exclude(pk=evening.pk).get()
    assert response["Location"] == url("evening_detail", copy)
    assert services.evening_export(evening=copy) == services.evening_export(evening=evening)


def test_a_damaged_import_is_refused_with_a_message(client):
    upload = SimpleUploadedFile("evening.json", b"{not json", content_type="application/json")
    response = client.post(reverse("calculator:evening_import"), {"file": upload})
    assert response.status_code == 400 and "损坏" in response.content.decode()
    assert Evening.objects.count() == 0


def test_a_follower_can_open_a_round_but_not_change_it(client):
    evening = make_evening()
    record_rounds(evening, ["E1"])
    follow = reverse("calculator:evening_follow", args=[evening.read_token])
    assert reverse("calculator:evening_follow_round", args=[evening.read_token, 1]) in client.get(follow).content.decode()
    page = client.get(reverse("calculator:evening_follow_round", args=[evening.read_token, 1])).content.decode()
    assert "阿珍 付 老王 1 番" in page
    assert evening.token not in page and "改这局" not in page
    assert client.get(reverse("calculator:evening_follow_round", args=[evening.read_token, 2])).status_code == 404


def test_the_exported_file_is_named_by_the_evenings_local_date(client):
    from datetime import datetime
    from datetime import timezone as tz

    evening = make_evening()
    Evening.objects.filter(pk=evening.pk).update(created_at=datetime(2026, 11, 29, 20, 0, tzinfo=tz.utc))

    exported = client.get(url("evening_export", evening))
    report = client.get(url("evening_report_pdf", evening))

    assert 'filename="zhuoji-20261130.json"' in exported["Content-Disposition"]  # 04:00 in 贵阳
    assert 'zhuoji-20261130.pdf' in report["Content-Disposition"]


def test_deleting_or_correcting_after_a_payment_says_what_becomes_of_the_money(client):
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    note = "给过的钱一直算着，结账只算差额，多给的会算回来。"
    assert note not in client.get(url("evening_round_delete", evening, round_.number)).content.decode()

    t = selectors.evening_settle_up(evening=evening).to_pay[0]
    services.transfer_mark_paid(evening=evening, payer=t.payer, payee=t.payee, points=t.points)

    assert "已经标了 1 笔“已付”" in client.get(url("evening_round_delete", evening, round_.number)).content.decode()
    edit = client.post(url("evening_round_edit", evening, round_.number), round_post("E2", version="1"))
    assert note in edit.content.decode()


def test_a_correction_of_only_the_turned_tile_says_so_before_and_after_it_is_saved(client):
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    record = example_record("E1")
    record["turned"] = "6s"

    data = dict(record_to_post_data(record), version="1")
    data["seat0-melds-INITIAL_FORMS"] = "1"  # as the page sends it: 东's 闷豆 is a pre-filled row
    confirm = client.post(url("evening_round_edit", evening, round_.number), data).content.decode()
    assert "翻牌：5万 → 6条" in confirm  # the summaries alone read the same
    services.round_correct(round=round_, record=record, expected_version=1)

    history = client.get(url("evening_history", evening)).content.decode()
    assert "翻牌：5万 → 6条" in history


def test_a_submit_resent_after_its_round_was_deleted_says_so_and_records_nothing(client):
    evening = make_evening()
    data = round_post("E1", idempotency_key=str(uuid.uuid4()))
    client.post(url("evening_round_new", evening), data)
    services.round_delete(round=Round.objects.get(evening=evening))
    response = client.post(url("evening_round_new", evening), data, follow=True)
    assert Round.objects.filter(evening=evening).count() == 0
    assert "被删了" in response.content.decode()


def test_a_new_turned_tile_takes_the_chickens_it_no_longer_makes_out_of_the_discards(client):
    """Issue 19: 翻牌记错了 is one change. Turned 3万, 小李's discarded 4万 was a 翻牌鸡; with 6万
    turned it is none: it leaves 小李's 打出的鸡 with a line saying so, nothing is refused, and the
    correction is ready to confirm."""
    evening = make_evening()
    record = example_record("E3")
    record["seats"][1]["discards"] = "4m"
    services.round_record(evening=evening, record=record)
    data = record_to_post_data(record)
    data.update(version="1", turned="6m")
    for seat, held in enumerate(record["seats"]):  # as the correction page draws its meld rows
        data[f"seat{seat}-melds-INITIAL_FORMS"] = str(len(held.get("melds", [])))
    response = client.post(url("evening_round_edit", evening, 1), data)
    page = response.content.decode()
    assert response.status_code == 200 and "确认修改" in page, re.sub(r"<[^>]+>|\s+", " ", " ".join(re.findall(r"⚠.{0,300}", page)))
    assert "小李 打出的鸡里的 4万 翻牌改了以后不是鸡了，拿掉了。" in page
    box = re.search(r'<input[^>]*name="seat1-discards"[^>]*>', page).group(0)
    assert 'value="4m"' not in box and 'value="' not in box.replace('value=""', "")
    fixed = response.context["confirm"].initial["record"]
    assert fixed["turned"] == "6m" and not fixed["seats"][1].get("discards")


def test_saying_whose_phone_it_is_comes_first_and_is_answered(client):
    """这部手机是… sits above the evening's rounds until the phone has said (it decides whose seat
    comes first on 记一局), then below them; 记住 says what it remembered (the new-player run found
    it at the bottom of a long page, with no answer)."""
    evening = make_evening()
    page = client.get(url("evening_detail", evening)).content.decode()
    assert page.index('id="me-seat"') < page.index('id="evening-live"')
    page = client.post(url("evening_me", evening), {"seat": "1"}, follow=True).content.decode()
    assert "记住了：这部手机是 小李。" in page
    assert page.index('id="me-seat"') > page.index('id="evening-live"')
    page = client.post(url("evening_me", evening), {"seat": ""}, follow=True).content.decode()
    assert "这部手机不再说是谁。" in page
