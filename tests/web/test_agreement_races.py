"""The table's agreement across drafts that end and begin again: a correction opened beside the
next round, a draft thrown away and restarted, a word or a save from a page that has not yet
seen what the table changed. Found by an adversarial review with four phones (each test failed
on the code before its fix); the round stored, or the word counted, is always the one the table
saw, and a phone that missed something is told what."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from calculator import selectors, services
from calculator.models import Round
from calculator.scoring import parse_tiles
from tests.factories import example_record, hidden, make_evening, open_edit, open_round, say_who, url
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PREVIEW = "evening_round_preview"


def posted(record: dict, form: dict, changed: str = "", **extra) -> dict:
    """A round form (a new round's or a correction's) as its page posts it."""
    data = record_to_post_data(record)
    for seat, held in enumerate(record["seats"]):  # a correction's stored meld rows are its initial rows
        data[f"seat{seat}-melds-INITIAL_FORMS"] = str(len(held.get("melds", []))) if "version" in form else "0"
    return {**data, **form, "draft_changed": changed, **extra}


def turned(tile: str, example: str = "E1") -> dict:
    return {**example_record(example), "turned": tile}


def test_typing_the_next_round_never_lands_in_a_correction_open_beside_it(client):
    """阿珍 glanced at 改这局 on round 1 (its draft stays open until saved or thrown away); 老王
    types round 2: his 9条 is round 2's, not round 1's correction."""
    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"))
    zhen, wang = say_who(Client(), evening, 2), say_who(Client(), evening, 0)
    open_edit(zhen, evening)
    form = open_round(wang, evening)
    wang.post(url(PREVIEW, evening), posted(turned("9s"), form, changed="turned"), **HTMX)
    assert selectors.correction_draft(evening=evening, number=1).version == 0
    assert selectors.evening_draft(evening=evening).data.get("turned") == ["9s"]
    other = open_round(Client(), evening)  # another phone on 记一局 sees it
    assert selectors.evening_draft(evening=evening).data["turned"] == ["9s"]
    assert other["idempotency_key"] == form["idempotency_key"]


def test_an_old_copy_of_a_correction_thrown_away_and_opened_again_does_not_undo_the_new_one(client):
    """老王's page still holds 改这局 as it was before 阿珍 threw it away (不改了) and opened it again
    with 9万: versions start again in the new correction, so his page's version says nothing of
    it. His 看看改了什么 and 保存修改 write and store nothing; he is told his correction ended, and
    her 9万 stays."""
    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"))
    wang, zhen = say_who(Client(), evening, 0), say_who(Client(), evening, 2)
    his = open_edit(wang, evening)
    wang.post(url(PREVIEW, evening) + "?round=1", posted(turned("8m"), his, changed="turned"), **HTMX)
    zhen.post(url("evening_round_edit_discard", evening, 1))
    hers = open_edit(zhen, evening)
    zhen.post(url(PREVIEW, evening) + "?round=1", posted(turned("9m"), hers, changed="turned"), **HTMX)
    wang.post(url("evening_round_edit", evening, 1), posted(turned("8m"), {**his, "draft_base": "1"}))
    late = wang.post(url("evening_round_edit", evening, 1), posted(turned("8m"), {**his, "draft_base": "1"}, save="1"),
                     follow=True)
    assert "这次修改在别的手机上结束了，没有改动" in late.content.decode()
    assert Round.objects.get(evening=evening).record["turned"] == "5m"
    assert selectors.correction_draft(evening=evening, number=1).data["turned"] == ["9m"]


def test_a_late_save_of_a_correction_thrown_away_and_only_glanced_at_since_stores_nothing(client):
    """阿珍 tapped 不改了; 小李 opened 改这局 just to look (a new, empty correction); 老王's 保存修改
    from before stores nothing: his correction was thrown away (review: it was stored, and 阿珍's
    确认 cleared)."""
    evening = make_evening()
    round_ = services.round_record(evening=evening, record=example_record("E1"))
    services.round_confirm(round=round_, seat=2, verdict="confirmed", phone_seat=2)
    wang, zhen, li = say_who(Client(), evening, 0), say_who(Client(), evening, 2), say_who(Client(), evening, 1)
    his = open_edit(wang, evening)
    wang.post(url(PREVIEW, evening) + "?round=1", posted(turned("8m"), his, changed="turned"), **HTMX)
    zhen.post(url("evening_round_edit_discard", evening, 1))
    open_edit(li, evening)
    wang.post(url("evening_round_edit", evening, 1), posted(turned("8m"), {**his, "draft_base": "1"}, save="1"))
    stored = Round.objects.get(evening=evening)
    assert stored.record["turned"] == "5m" and stored.version == 1 and stored.confirmations.count() == 1
    assert not selectors.correction_draft(evening=evening, number=1).data  # his old copy wrote nothing into li's


@pytest.mark.parametrize("two_step", [False, True], ids=["保存修改", "确认修改"])
def test_a_late_save_of_a_correction_thrown_away_stores_nothing_and_says_so(client, two_step):
    """阿珍 tapped 不改了; 老王's 保存修改 (or 确认修改 under his preview) a second later, before his
    page heard: the round stays as it was, with its words, and he is told why."""
    evening = make_evening()
    round_ = services.round_record(evening=evening, record=example_record("E1"))
    services.round_confirm(round=round_, seat=2, verdict="confirmed", phone_seat=2)
    wang, zhen = say_who(Client(), evening, 0), say_who(Client(), evening, 2)
    his = open_edit(wang, evening)
    if two_step:
        preview = wang.post(url("evening_round_edit", evening, 1), posted(turned("8m"), his)).content.decode()
        card = {name: hidden(preview, name) for name in ("record", "version", "draft_key", "draft_base", "draft_client")}
        card["record"] = card["record"].replace("&quot;", '"')
        zhen.post(url("evening_round_edit_discard", evening, 1))
        late = wang.post(url("evening_round_edit_confirm", evening, 1), card, follow=True)
    else:
        wang.post(url(PREVIEW, evening) + "?round=1", posted(turned("8m"), his, changed="turned"), **HTMX)
        zhen.post(url("evening_round_edit_discard", evening, 1))
        late = wang.post(url("evening_round_edit", evening, 1), posted(turned("8m"), {**his, "draft_base": "1"}, save="1"),
                         follow=True)
    assert "这次修改在别的手机上结束了，没有改动：这一局还是原来的样子。" in late.content.decode()
    stored = Round.objects.get(evening=evening)
    assert stored.record["turned"] == "5m" and stored.version == 1 and stored.confirmations.count() == 1


def test_a_whole_form_from_a_draft_thrown_away_does_not_overwrite_the_new_one(client):
    """小李's page (no JavaScript) still holds the round 老王 threw away; 阿珍 has begun the next
    with 9万. His 确认 carries his whole form with the old draft's version: her 9万 stays, and
    his word is not counted on a round he has not seen."""
    evening = make_evening()
    li, zhen = say_who(Client(), evening, 1), say_who(Client(), evening, 2)
    his = open_round(li, evening)
    li.post(url(PREVIEW, evening), posted(turned("8m"), his), **HTMX)
    li.post(url(PREVIEW, evening), posted(turned("8m"), {**his, "draft_base": "1"}, changed="turned"), **HTMX)
    client.post(url("evening_round_draft_discard", evening))
    hers = open_round(zhen, evening)
    zhen.post(url(PREVIEW, evening), posted(turned("9m"), hers, changed="turned"), **HTMX)
    li.post(url("evening_round_draft_confirm", evening), posted(turned("8m"), {**his, "draft_base": "2"}, verdict="confirmed"))
    draft = selectors.evening_draft(evening=evening)
    assert draft.data["turned"] == ["9m"]
    assert "1" not in draft.confirmations


def test_a_word_from_a_page_that_missed_a_change_is_not_taken_and_says_what_changed(client):
    """小李 taps 确认 on a page that has not yet received 阿珍's 9万: his word is refused, not shown
    as given (it would be on a round that is not the table's), with her change named."""
    evening = make_evening()
    li, zhen = say_who(Client(), evening, 1), say_who(Client(), evening, 2)
    his, hers = open_round(li, evening), open_round(zhen, evening)
    li.post(url(PREVIEW, evening), posted(example_record("E1"), his), **HTMX)
    zhen.post(url(PREVIEW, evening), posted(turned("9m"), {**hers, "draft_base": "1"}, changed="turned"), **HTMX)
    answer = li.post(url("evening_round_draft_confirm", evening),
                     posted(example_record("E1"), {**his, "draft_base": "1"}, verdict="confirmed"), **HTMX)
    assert answer.status_code == 400
    said = answer.content.decode()
    assert "小李</b> ✓ 确认" not in said and "阿珍 改了翻牌：9万" in said
    assert "1" not in selectors.evening_draft(evening=evening).confirmations
    without_js = li.post(url("evening_round_draft_confirm", evening),
                         posted(example_record("E1"), {**his, "draft_base": "1"}, verdict="disputed",
                                confirm_note="鸡算错了"), follow=True)
    page = without_js.content.decode()
    assert "阿珍 改了翻牌：9万" in page and re.search(r'<option value="9m" selected>', page)
    assert "你写的异议：鸡算错了" in page  # the page is drawn afresh: his why, to type again


def test_under_lianzhuang_the_round_stored_is_the_one_the_table_confirmed(client):
    """连庄 (R59) played: round 2 is 老王's second deal. Every phone sees it scored with his streak
    and confirms it; the round stored pays exactly that, and the four words go with it."""
    evening = make_evening(options={"dealer_streak_bonus": 1})
    services.round_record(evening=evening, record=example_record("E1"))
    phones = [say_who(Client(), evening, seat) for seat in range(4)]
    for phone in phones:
        phone.post(url("evening_round_draft_confirm", evening),
                   posted(example_record("E1"), open_round(phone, evening), verdict="confirmed"))
    page = re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", phones[0].get(url("evening_round_new", evening)).content.decode()))
    assert page.count("✓ 确认") == 4
    shown = [int(net) for net in re.findall(r"(?:老王|小李|阿珍|张哥) ([+-−]\d+)", page.replace("−", "-"))[:4]]
    phones[0].post(url("evening_round_new", evening), posted(example_record("E1"), open_round(phones[0], evening)))
    stored = Round.objects.get(evening=evening, number=2)
    assert stored.record["dealer_streak"] == 1 and list(stored.net) == shown
    assert stored.confirmations.count() == 4


def test_under_lianzhuang_the_same_form_sent_again_is_the_round_already_recorded(client):
    """A lost answer, or the outbox, sends 记下这一局 twice: the second finds its round, not a
    "changed form" (it was scored with the round itself counted in its own streak)."""
    evening = make_evening(options={"dealer_streak_bonus": 1})
    services.round_record(evening=evening, record=example_record("E1"))
    form = open_round(client, evening)
    client.post(url("evening_round_new", evening), posted(example_record("E1"), form))
    again = client.post(url("evening_round_new", evening), posted(example_record("E1"), form))
    assert again.status_code == 302 and again["Location"] == url("evening_round", evening, 2)
    assert Round.objects.filter(evening=evening).count() == 2


def test_throwing_away_from_an_old_evening_page_never_throws_away_the_round_begun_since(client):
    """老王's evening page shows 第1局 录入中 and he opens 扔掉这局录入; meanwhile 小李 records
    round 1 and 阿珍 begins round 2. 确定扔掉 leaves her round 2 alone, and says why."""
    evening = make_evening()
    li, zhen = say_who(Client(), evening, 1), say_who(Client(), evening, 2)
    form = open_round(li, evening)
    li.post(url(PREVIEW, evening), posted(example_record("E1"), form), **HTMX)
    page = client.get(url("evening_detail", evening)).content.decode()
    asked = re.search(r'action="([^"]*/discard/)".*?name="idempotency_key" value="([^"]*)"', page, re.S)
    li.post(url("evening_round_new", evening), posted(example_record("E1"), form))
    zhen.post(url(PREVIEW, evening), posted(example_record("E2"), open_round(zhen, evening), changed="seat0-concealed"),
              **HTMX)
    answer = client.post(asked.group(1), {"idempotency_key": asked.group(2)}, follow=True)
    assert selectors.evening_draft(evening=evening) is not None
    assert "正在录的已经是另一局了，没有扔掉" in answer.content.decode()
    page = client.get(url("evening_detail", evening)).content.decode()  # the page as it is now throws that one away
    key = re.search(r'name="idempotency_key" value="([^"]*)"', page).group(1)
    assert "正在录的那一局扔掉了" in client.post(asked.group(1), {"idempotency_key": key}, follow=True).content.decode()
    assert selectors.evening_draft(evening=evening) is None


def test_buogaile_from_an_old_correction_page_leaves_the_correction_opened_since(client):
    """阿珍 threw 改这局 away and opened it again with 9万; 老王's old page taps 不改了: her
    correction stays open, and his page is sent to it."""
    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"))
    wang, zhen = say_who(Client(), evening, 0), say_who(Client(), evening, 2)
    his = open_edit(wang, evening)
    zhen.post(url("evening_round_edit_discard", evening, 1), {"idempotency_key": his["idempotency_key"]})
    hers = open_edit(zhen, evening)
    zhen.post(url(PREVIEW, evening) + "?round=1", posted(turned("9m"), hers, changed="turned"), **HTMX)
    answer = wang.post(url("evening_round_edit_discard", evening, 1), {"idempotency_key": his["idempotency_key"]})
    assert answer.status_code == 302 and answer["Location"] == url("evening_round_edit", evening, 1)
    assert selectors.correction_draft(evening=evening, number=1).data["turned"] == ["9m"]


def test_pressing_for_another_seat_never_replaces_what_that_player_said_on_a_stored_round(client):
    """阿珍 disputes round 1 on her own phone; 老王 opens 替没带手机的人按 and picks her: her
    objection stays, and he is told why. Pressing for 张哥 (no word of his own yet) still works."""
    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"))
    zhen, wang = say_who(Client(), evening, 2), say_who(Client(), evening, 0)
    zhen.post(url("evening_round_confirm", evening, 1), {"seat": "2", "verdict": "disputed", "note": "翻牌不对", "version": "1"})
    answer = wang.post(url("evening_round_confirm", evening, 1), {"seat": "2", "verdict": "confirmed", "version": "1"},
                       follow=True)
    assert "阿珍 自己已经说过了" in answer.content.decode()
    word = Round.objects.get(evening=evening).confirmations.get(seat=2)
    assert (word.verdict, word.note) == ("disputed", "翻牌不对")
    wang.post(url("evening_round_confirm", evening, 1), {"seat": "3", "verdict": "confirmed", "version": "1"})
    assert Round.objects.get(evening=evening).confirmations.get(seat=3).by == "老王"
    zhen.post(url("evening_round_confirm", evening, 1), {"seat": "2", "verdict": "confirmed", "version": "1"})
    assert Round.objects.get(evening=evening).confirmations.get(seat=2).verdict == "confirmed"  # hers to change


def test_a_form_whose_round_was_recorded_then_deleted_keeps_what_it_holds_when_submitted(client):
    """老王 recorded round 1 and deleted it; 小李's phone (no JavaScript) still holds that form with
    his 9万 and taps 记下这一局: nothing is recorded twice, and his 9万 is in the round being
    entered now, on the page he gets back, not lost."""
    evening = make_evening()
    wang, li = say_who(Client(), evening, 0), say_who(Client(), evening, 1)
    mine, his = open_round(wang, evening), open_round(li, evening)
    wang.post(url("evening_round_new", evening), posted(example_record("E1"), mine))
    wang.post(url("evening_round_delete", evening, 1), {"version": "1"})
    answer = li.post(url("evening_round_new", evening), posted(turned("9m"), his))
    assert answer.status_code == 409 and Round.objects.filter(evening=evening).count() == 0
    page = answer.content.decode()
    assert "那一局后来被删了" in page and re.search(r'<option value="9m" selected>', page)
    draft = selectors.evening_draft(evening=evening)
    assert draft.data["turned"] == ["9m"] and str(draft.idempotency_key) != his["idempotency_key"]
    again = {name: hidden(page, name) for name in ("idempotency_key", "draft_base", "draft_client")}
    assert li.post(url("evening_round_new", evening), posted(turned("9m"), again)).status_code == 302
    assert Round.objects.get(evening=evening, number=2).record["turned"] == "9m"


def test_a_refused_submit_put_right_by_hand_without_javascript_is_recorded(client):
    """小李's phone has no JavaScript: 记下这一局 with 老王's hand left empty is refused (400, kept
    in the draft). He fills it in on the page he got back and taps again: recorded (it was a 409,
    his own refused form counted as another phone's change, and the page came back without his fix)."""
    evening = make_evening()
    li = say_who(Client(), evening, 1)
    broken = posted(example_record("E1"), open_round(li, evening))
    broken["seat0-concealed"] = ""
    refused = li.post(url("evening_round_new", evening), broken)
    assert refused.status_code == 400
    again = {name: hidden(refused.content.decode(), name) for name in ("idempotency_key", "draft_base", "draft_client")}
    assert li.post(url("evening_round_new", evening), posted(example_record("E1"), again)).status_code == 302
    stored = Round.objects.get(evening=evening).record["seats"][0]["concealed"]
    assert sorted(parse_tiles(stored)) == sorted(parse_tiles(example_record("E1")["seats"][0]["concealed"]))


def test_a_refused_preview_of_a_correction_put_right_by_hand_without_javascript_is_saved(client):
    """The same in 改这局: 看看改了什么 with a hand left empty comes back with its problem; filled in
    by hand, 保存修改 saves it."""
    evening = make_evening()
    services.round_record(evening=evening, record=example_record("E1"))
    wang = say_who(Client(), evening, 0)
    broken = posted(turned("8m"), open_edit(wang, evening))
    broken["seat0-concealed"] = ""
    refused = wang.post(url("evening_round_edit", evening, 1), broken)
    assert refused.status_code == 400
    again = {name: hidden(refused.content.decode(), name)
             for name in ("version", "idempotency_key", "draft_base", "draft_client")}
    assert wang.post(url("evening_round_edit", evening, 1), posted(turned("8m"), again, save="1")).status_code == 302
    assert Round.objects.get(evening=evening).record["turned"] == "8m"


def test_the_evening_page_hears_of_a_new_draft_at_the_same_version_as_the_old_one(client):
    """The evening page shows 第1局 录入中 with its 扔掉; the draft is thrown away and the next one
    begun, at version 1 again under a key of its own: the page's poll brings it (it answered
    "unchanged", and the page's 扔掉 kept the old key)."""
    evening = make_evening()
    li = say_who(Client(), evening, 1)
    form = open_round(li, evening)
    li.post(url(PREVIEW, evening), posted(example_record("E1"), form), **HTMX)
    since = re.search(r'\?since=([^"&]+)', client.get(url("evening_detail", evening)).content.decode()).group(1)
    services.draft_discard(evening=evening)
    li.post(url(PREVIEW, evening), posted(example_record("E1"), form), **HTMX)
    polled = client.get(url("evening_detail", evening) + f"?since={since}", **HTMX)
    assert polled.status_code == 200
    key = selectors.evening_draft(evening=evening).idempotency_key
    assert f'name="idempotency_key" value="{key}"' in polled.content.decode()


@pytest.mark.parametrize("where", ["stored round", "draft"])
def test_a_word_from_a_phone_that_never_said_who_it_is_can_be_pressed_over_by_daian(client, where):
    """A phone that never said 我是… presses 确认 for 阿珍 (on round 1, or on the draft, then
    recorded): not known to be her own word, so 老王's 代按 for her is taken (review: it was
    refused as 阿珍 自己已经说过了, since such a word also has no `by`)."""
    evening = make_evening()
    anonymous, wang = Client(), say_who(Client(), evening, 0)
    if where == "draft":
        anonymous.post(url("evening_round_draft_confirm", evening),
                       posted(example_record("E1"), open_round(anonymous, evening), verdict="confirmed", confirm_seat="2"))
        anonymous.post(url("evening_round_new", evening), posted(example_record("E1"), open_round(anonymous, evening)))
    else:
        services.round_record(evening=evening, record=example_record("E1"))
        anonymous.post(url("evening_round_confirm", evening, 1), {"seat": "2", "verdict": "confirmed", "version": "1"})
    assert Round.objects.get(evening=evening).confirmations.get(seat=2).verdict == "confirmed"
    answer = wang.post(url("evening_round_confirm", evening, 1),
                       {"seat": "2", "verdict": "disputed", "note": "翻牌不对", "version": "1"}, follow=True)
    assert "阿珍 自己已经说过了" not in answer.content.decode()
    word = Round.objects.get(evening=evening).confirmations.get(seat=2)
    assert (word.verdict, word.by) == ("disputed", "老王")


def test_a_word_her_own_phone_gave_on_the_draft_is_hers_once_recorded(client):
    """阿珍 confirms the draft on her own phone; recorded, 老王's 代按 cannot replace it."""
    evening = make_evening()
    zhen, wang = say_who(Client(), evening, 2), say_who(Client(), evening, 0)
    zhen.post(url("evening_round_draft_confirm", evening),
              posted(example_record("E1"), open_round(zhen, evening), verdict="disputed", confirm_note="鸡算错了"))
    zhen.post(url("evening_round_new", evening), posted(example_record("E1"), open_round(zhen, evening)))
    wang.post(url("evening_round_confirm", evening, 1), {"seat": "2", "verdict": "confirmed", "version": "1"})
    word = Round.objects.get(evening=evening).confirmations.get(seat=2)
    assert (word.verdict, word.note, word.own) == ("disputed", "鸡算错了", True)
