"""改这局 together (issue 19, point 2): opening it opens the round's correction draft, which every
phone sees and edits like a new round's (merge per field, the poll, the before → after nets);
保存修改 stores it in one tap from any phone and ends it for all, so does 不改了; the way without
JavaScript (看看改了什么, 确认修改) still works and ends it too. And a phone's presence at a draft
expires when its poll stops (代按 becomes possible for that seat)."""
from __future__ import annotations

import json
import re
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from calculator import selectors, services
from calculator.models import Evening, Round, RoundDraft
from tests.factories import example_record, hidden, make_evening, open_edit, say_who, url
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def edited(record: dict, form: dict, changed: str = "", **extra) -> dict:
    """The correction form as its page posts it (the stored meld rows are initial rows)."""
    data = record_to_post_data(record)
    for seat, held in enumerate(record["seats"]):
        data[f"seat{seat}-melds-INITIAL_FORMS"] = str(len(held.get("melds", [])))
    data.update(form)
    data["draft_changed"] = changed
    data.update(extra)
    return data


def poll(client: Client, evening: Evening, form: dict, *, since: int | None = None, number: int = 1, **extra):
    query = {"draft_base": since if since is not None else form["draft_base"], "draft_client": form["draft_client"],
             "idempotency_key": form["idempotency_key"], "version": form["version"], **extra}
    return client.get(url("evening_round_correction_draft", evening, number), query)


def stored_e1(evening: Evening) -> Round:
    round_ = services.round_record(evening=evening, record=example_record("E1"))  # turned 5万
    services.round_confirm(round=round_, seat=2, verdict="disputed", note="翻牌不对", phone_seat=2)
    return round_


def test_every_phone_sees_and_edits_the_same_correction_and_one_tap_saves_it_for_all(client):
    evening = make_evening()
    stored_e1(evening)
    wang, zhen = say_who(Client(), evening, 0), say_who(Client(), evening, 2)
    form = open_edit(wang, evening)
    draft = selectors.correction_draft(evening=evening, number=1)
    assert draft is not None and str(draft.idempotency_key) == form["idempotency_key"]
    assert selectors.evening_draft(evening=evening) is None  # not the next round's draft
    # the others see that round 1 is being corrected, by whom, and can join
    for page in (zhen.get(url("evening_detail", evening)), zhen.get(url("evening_round", evening, 1))):
        assert re.search(r'data-correcting="1".*?第1局正在改（老王）.*?一起改', page.content.decode(), re.S)

    other = open_edit(zhen, evening)
    assert other["idempotency_key"] == form["idempotency_key"]
    assert poll(zhen, evening, other).status_code == 204

    fixed = {**example_record("E1"), "turned": "8m"}
    preview = wang.post(url("evening_round_preview", evening) + "?round=1",
                        edited(fixed, form, changed="turned"), **HTMX).content.decode()
    assert 'id="draft-bar"' in preview and "data-net-before" in preview
    answer = poll(zhen, evening, other).json()
    assert answer["fields"]["turned"] == ["8m"] and answer["said"]["turned"] == "老王 也改了翻牌：8万（现在按你的）"
    assert "data-net-before" in answer["state"] and 'id="round-' not in answer["state"]
    nets = re.findall(r"<s>([^<]*)</s> →", answer["state"])
    assert len(nets) == 4  # every seat's net before → after
    page = zhen.get(url("evening_round_edit", evening, 1)).content.decode()  # a reload, or a third phone
    assert re.search(r'<option value="8m" selected>', page) and "data-net-before" in page

    saved = zhen.post(url("evening_round_edit", evening, 1), edited(fixed, other, save="1"))
    assert saved.status_code == 302 and saved["Location"] == url("evening_round", evening, 1)
    round_ = Round.objects.get(evening=evening)
    assert round_.record["turned"] == "8m" and round_.version == 2
    assert not RoundDraft.objects.filter(evening=evening).exists()  # ended for every phone
    ended = poll(wang, evening, form).json()
    bar = ended.pop("bar")  # what the page shows as it stops: the words and the way to the round
    assert ended == {"recorded": 1, "url": url("evening_round", evening, 1)}
    assert "第1局改好了，每家再确认一次" in bar and f'href="{url("evening_round", evening, 1)}"' in bar
    detail = wang.get(url("evening_round", evening, 1)).content.decode()
    assert "第1局改过了：翻牌：5万 → 8万" in detail and "请再确认" in detail
    assert "还没确认：老王、小李、阿珍、张哥" in detail
    assert "阿珍</b> 有异议：翻牌不对" in re.search(r'<details class="earlier-words".*?</details>', detail, re.S).group(0)
    assert "正在改" not in detail


def test_saving_an_old_copy_of_the_correction_saves_nothing_and_shows_the_correction_as_it_is(client):
    """老王 and 阿珍 both correct round 1; 阿珍 has set 翻牌 to 9万 on her phone, 老王's page (not yet
    polled) still says 8万 and he taps 保存修改: her change is not undone in silence."""
    evening = make_evening()
    stored_e1(evening)
    wang, zhen = say_who(Client(), evening, 0), say_who(Client(), evening, 2)
    his, hers = open_edit(wang, evening), open_edit(zhen, evening)
    eight, nine = {**example_record("E1"), "turned": "8m"}, {**example_record("E1"), "turned": "9m"}
    wang.post(url("evening_round_preview", evening) + "?round=1", edited(eight, his, changed="turned"), **HTMX)
    base = str(selectors.correction_draft(evening=evening, number=1).version)
    zhen.post(url("evening_round_preview", evening) + "?round=1",
              edited(nine, {**hers, "draft_base": base}, changed="turned"), **HTMX)

    late = wang.post(url("evening_round_edit", evening, 1), edited(eight, {**his, "draft_base": base}, save="1"))
    assert late.status_code == 409
    page = late.content.decode()
    assert "别的手机刚改了这一局，没有保存：看一遍，再点保存修改。" in page and "阿珍 改了翻牌：9万" in page
    assert re.search(r'<option value="9m" selected>', page)
    round_ = Round.objects.get(evening=evening)
    assert round_.version == 1 and round_.record["turned"] == "5m"  # nothing saved
    again = {name: hidden(page, name) for name in ("version", "idempotency_key", "draft_base", "draft_client")}
    assert wang.post(url("evening_round_edit", evening, 1), edited(nine, again, save="1")).status_code == 302
    assert Round.objects.get(evening=evening).record["turned"] == "9m"


def test_confirming_a_preview_another_phone_has_changed_since_saves_nothing(client):
    """看看改了什么 → 确认修改 (the way without JavaScript): the record in the card is frozen when the
    preview is drawn; 阿珍 changing the correction meanwhile refuses it, as 保存修改 is refused."""
    evening = make_evening()
    stored_e1(evening)
    wang, zhen = say_who(Client(), evening, 0), say_who(Client(), evening, 2)
    his, hers = open_edit(wang, evening), open_edit(zhen, evening)
    preview = wang.post(url("evening_round_edit", evening, 1),
                        edited({**example_record("E1"), "turned": "8m"}, his)).content.decode()
    # the form under the preview still posts to 改这局 (its action was taken by 换个规矩看看's)
    assert f'<form method="post" action="{url("evening_round_edit", evening, 1)}" class="round-form"' in preview
    card = {name: hidden(preview, name) for name in ("record", "version", "draft_base", "draft_client")}
    card["record"] = card["record"].replace("&quot;", '"')
    zhen.post(url("evening_round_preview", evening) + "?round=1",
              edited({**example_record("E1"), "turned": "9m"}, {**hers, "draft_base": card["draft_base"]},
                     changed="turned"), **HTMX)
    refused = wang.post(url("evening_round_edit_confirm", evening, 1), card)
    assert refused.status_code == 302 and refused["Location"] == url("evening_round_edit", evening, 1)
    assert Round.objects.get(evening=evening).record["turned"] == "5m"  # nothing saved
    page = wang.get(refused["Location"]).content.decode()
    assert "别的手机刚改了这一局，没有保存" in page and "阿珍 改了翻牌：9万" in page
    assert re.search(r'<option value="9m" selected>', page)
    # nobody changed it since this preview: 确认修改 saves
    again = wang.post(url("evening_round_edit", evening, 1),
                      edited({**example_record("E1"), "turned": "9m"}, {**his, "draft_base": card["draft_base"]}))
    fresh = {name: hidden(again.content.decode(), name) for name in ("record", "version", "draft_base", "draft_client")}
    fresh["record"] = fresh["record"].replace("&quot;", '"')
    assert wang.post(url("evening_round_edit_confirm", evening, 1), fresh).status_code == 302
    assert Round.objects.get(evening=evening).record["turned"] == "9m"


def test_a_preview_asked_from_an_old_copy_shows_the_correction_as_the_table_has_it(client):
    """阿珍 has set 翻牌 to 9万; 老王's page (not yet polled, or without JavaScript) still says 5万
    and he asks 看看改了什么 with a change of his own: what he is shown, and what its 确认修改
    would save, is the correction with her 9万 and his change, never his old copy of it."""
    evening = make_evening()
    stored_e1(evening)
    wang, zhen = say_who(Client(), evening, 0), say_who(Client(), evening, 2)
    his, hers = open_edit(wang, evening), open_edit(zhen, evening)
    zhen.post(url("evening_round_preview", evening) + "?round=1",
              edited({**example_record("E1"), "turned": "9m"}, hers, changed="turned"), **HTMX)
    old = edited(example_record("E1"), his)
    old["seat1-discards"] = "8s"  # his own change: 南 discarded a 8条 (a 乌骨鸡)
    preview = wang.post(url("evening_round_edit", evening, 1), old)
    assert preview.status_code == 409
    page = preview.content.decode()
    assert "阿珍 改了翻牌：9万" in page
    assert re.search(r'<option value="9m" selected>', page)  # her change, shown
    assert re.search(r'name="seat1-discards"[^>]*value="8s"', page)  # his, kept
    card = {name: hidden(page, name) for name in ("record", "version", "draft_base", "draft_client")}
    card["record"] = card["record"].replace("&quot;", '"')
    assert wang.post(url("evening_round_edit_confirm", evening, 1), card).status_code == 302
    stored = Round.objects.get(evening=evening).record
    assert stored["turned"] == "9m" and stored["seats"][1]["discards"] == "8s"


def test_a_late_write_after_the_correction_ended_writes_nothing_and_says_so(client):
    evening = make_evening()
    stored_e1(evening)
    form = open_edit(client, evening)
    services.draft_discard(evening=evening, correcting=1)
    fixed = {**example_record("E1"), "turned": "8m"}
    late = client.post(url("evening_round_preview", evening) + "?round=1", edited(fixed, form, changed="turned"), **HTMX)
    bar = late.content.decode()
    assert "data-draft-ended" in bar and "这次修改在别的手机上结束了，没有改动" in bar  # which of the two, not "saved or thrown away"
    assert json.loads(late["HX-Trigger-After-Swap"]) == {"draftended": {}}  # the page stops (draft.js)
    assert not RoundDraft.objects.filter(evening=evening).exists()
    ended = poll(client, evening, form).json()
    assert "这次修改在别的手机上结束了，没有改动" in ended.pop("bar")
    assert ended == {"gone": True, "url": url("evening_round", evening, 1)}


def test_a_late_write_after_the_correction_was_saved_elsewhere_says_it_was_saved(client):
    evening = make_evening()
    round_ = stored_e1(evening)
    form = open_edit(client, evening)
    services.round_correct(round=round_, record={**example_record("E1"), "turned": "9m"}, expected_version=1)
    fixed = {**example_record("E1"), "turned": "8m"}
    bar = client.post(url("evening_round_preview", evening) + "?round=1",
                      edited(fixed, form, changed="turned"), **HTMX).content.decode()
    assert "data-draft-ended" in bar and "第1局改好了，每家再确认一次" in bar and "没有改动" not in bar
    assert Round.objects.get(evening=evening).record["turned"] == "9m"  # the late write wrote nothing


def test_throwing_the_correction_away_ends_it_for_every_phone_and_keeps_the_round(client):
    evening = make_evening()
    stored_e1(evening)
    form = open_edit(client, evening)
    fixed = {**example_record("E1"), "turned": "8m"}
    client.post(url("evening_round_preview", evening) + "?round=1", edited(fixed, form, changed="turned"), **HTMX)
    response = client.post(url("evening_round_edit_discard", evening, 1))
    assert response.status_code == 302 and response["Location"] == url("evening_round", evening, 1)
    assert Round.objects.get().record["turned"] == "5m" and Round.objects.get().version == 1
    assert not RoundDraft.objects.filter(evening=evening).exists()
    assert poll(Client(), evening, form).json()["gone"] is True
    assert "正在改" not in client.get(url("evening_detail", evening)).content.decode()


@pytest.mark.parametrize("two_step", [False, True], ids=["保存修改", "确认修改"])
def test_saving_a_correction_that_changes_nothing_ends_it_and_keeps_every_word(client, two_step):
    """老王 opens 改这局, looks, and saves it as it was: nobody is asked to confirm again, the
    round is not "being corrected" any more on any phone, and 阿珍's objection stays."""
    evening = make_evening()
    stored_e1(evening)
    wang, zhen = say_who(Client(), evening, 0), say_who(Client(), evening, 2)
    form, hers = open_edit(wang, evening), open_edit(zhen, evening)
    if two_step:
        preview = wang.post(url("evening_round_edit", evening, 1), edited(example_record("E1"), form)).content.decode()
        card = {name: hidden(preview, name) for name in ("record", "version", "draft_base", "draft_client")}
        card["record"] = card["record"].replace("&quot;", '"')
        saved = wang.post(url("evening_round_edit_confirm", evening, 1), card, follow=True)
    else:
        saved = wang.post(url("evening_round_edit", evening, 1), edited(example_record("E1"), form, save="1"), follow=True)
    page = saved.content.decode()
    assert "第1局没有改，还是原来的样子。" in page and "再确认" not in page
    assert not RoundDraft.objects.filter(evening=evening).exists()
    assert "正在改" not in zhen.get(url("evening_round", evening, 1)).content.decode()
    ended = poll(zhen, evening, hers).json()  # her open form stops, told the round stays as it was
    assert ended["gone"] is True and "还是原来的样子" in ended["bar"]
    round_ = Round.objects.get(evening=evening)
    assert round_.version == 1 and round_.confirmations.get(seat=2).note == "翻牌不对"


def test_without_javascript_the_two_step_correction_still_works_and_ends_the_draft(client):
    evening = make_evening()
    stored_e1(evening)
    form = open_edit(client, evening)
    fixed = {**example_record("E1"), "turned": "8m"}
    page = client.post(url("evening_round_edit", evening, 1), edited(fixed, form)).content.decode()
    assert "确认修改" in page and "小李 打出的鸡里的 6万 翻牌改了以后不是鸡了" in page
    assert selectors.correction_draft(evening=evening, number=1).data["turned"] == ["8m"]  # the table sees it
    record = re.search(r'name="record" value="([^"]*)"', page).group(1)
    response = client.post(url("evening_round_edit_confirm", evening, 1),
                           {"record": record.replace("&quot;", '"'), "version": "1"})
    assert response.status_code == 302
    assert Round.objects.get().record["turned"] == "8m"
    assert not RoundDraft.objects.filter(evening=evening).exists()


def test_deleting_the_round_ends_its_correction(client):
    evening = make_evening()
    round_ = stored_e1(evening)
    form = open_edit(client, evening)
    services.round_delete(round=round_)
    assert not RoundDraft.objects.filter(evening=evening).exists()
    ended = poll(client, evening, form).json()
    assert f'href="{url("evening_detail", evening)}"' in ended.pop("bar")
    assert ended == {"gone": True, "url": url("evening_detail", evening)}


def test_a_correction_with_a_problem_saves_nothing(client):
    evening = make_evening()
    stored_e1(evening)
    form = open_edit(client, evening)
    broken = example_record("E1")
    broken["seats"][3]["concealed"] = "19m"
    response = client.post(url("evening_round_edit", evening, 1), edited(broken, form, save="1"))
    assert response.status_code == 400 and "还有" in response.content.decode()
    assert Round.objects.get().version == 1


# -- a phone's presence expires ------------------------------------------------------------------


def test_a_phone_that_stopped_polling_no_longer_holds_its_seat_so_another_may_press_for_it(client):
    cache.clear()
    evening = make_evening()
    wang, li = say_who(Client(), evening, 0), say_who(Client(), evening, 1)
    start = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=start):
        page = wang.get(url("evening_round_new", evening)).content.decode()
        li_page = li.get(url("evening_round_new", evening)).content.decode()
    key, client_id = hidden(page, "idempotency_key"), hidden(li_page, "draft_client")
    draft = selectors.evening_draft(evening=evening)
    assert draft.has_phone(1, now=start + timedelta(seconds=29))
    assert not draft.has_phone(1, now=start + timedelta(seconds=31))  # 30 s unseen: left

    def li_polls(at):
        with mock.patch("django.utils.timezone.now", return_value=at):
            return li.get(url("evening_round_draft", evening),
                          {"draft_base": "0", "draft_client": client_id, "idempotency_key": key, "me": "1"})

    assert li_polls(start + timedelta(seconds=25)).status_code == 204  # still at the table: seen again
    later = start + timedelta(seconds=50)
    assert selectors.evening_draft(evening=evening).has_phone(1, now=later)
    assert selectors.evening_draft(evening=evening).version == 0  # being seen is no change to the round
    with mock.patch("django.utils.timezone.now", return_value=later):
        proxy = wang.get(url("evening_round_new", evening)).content.decode()
    assert "小李" not in re.search(r'<select id="proxy-seat".*?</select>', proxy, re.S).group(0)

    gone = start + timedelta(seconds=60)  # 小李's phone went away after its poll at 25 s
    assert not selectors.evening_draft(evening=evening).has_phone(1, now=gone)
    with mock.patch("django.utils.timezone.now", return_value=gone):
        proxy = wang.get(url("evening_round_new", evening)).content.decode()
    assert "小李" in re.search(r'<select id="proxy-seat".*?</select>', proxy, re.S).group(0)
    with mock.patch("django.utils.timezone.now", return_value=gone):
        services.draft_confirm(evening=evening, seat=1, verdict="confirmed", by="老王", phone_seat=0,
                               settled={"turned": "5m"})
    assert selectors.evening_draft(evening=evening).confirmations["1"]["by"] == "老王"


def test_a_poll_claiming_another_seat_does_not_make_it_present(client):
    cache.clear()
    evening = make_evening()
    say_who(client, evening, 0)
    page = client.get(url("evening_round_new", evening)).content.decode()
    client.get(url("evening_round_draft", evening), {"draft_base": "0", "draft_client": "x", "me": "3",
                                                     "idempotency_key": hidden(page, "idempotency_key")})
    assert "3" not in selectors.evening_draft(evening=evening).phones


def test_a_glance_at_the_correction_that_was_left_does_not_stay_on_the_evening_page(client):
    evening = make_evening()
    stored_e1(evening)
    open_edit(client, evening)  # a phone that never said who it is: nobody to name, nothing changed
    assert "正在改" not in client.get(url("evening_detail", evening)).content.decode()
    start = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=start):
        form = open_edit(say_who(Client(), evening, 2), evening)
        assert "第1局正在改（阿珍）" in client.get(url("evening_detail", evening)).content.decode()
    with mock.patch("django.utils.timezone.now", return_value=start + timedelta(seconds=40)):
        assert "正在改" not in client.get(url("evening_detail", evening)).content.decode()  # 阿珍 left
        fixed = {**example_record("E1"), "turned": "8m"}
        client.post(url("evening_round_preview", evening) + "?round=1", edited(fixed, form, changed="turned"), **HTMX)
        assert "第1局正在改" in client.get(url("evening_detail", evening)).content.decode()  # work not yet saved
