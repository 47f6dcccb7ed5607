"""The round being entered (录入中): one draft per evening, merged per field, consumed once."""
from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, transaction

from calculator import selectors, services
from calculator.models import RoundDraft
from tests.factories import example_record, make_evening
from tests.round_form_data import record_to_post_data

pytestmark = pytest.mark.django_db


def values_of(example: str) -> dict[str, list[str]]:
    """A worked example as the draft keeps a form: name → list of values."""
    data = record_to_post_data(example_record(example))
    return {k: (v if isinstance(v, list) else [v]) for k, v in data.items()
            if not k.endswith("-name") and k not in ("players", "preset", "stake")}


def save(evening, values, *, changed=None, base=0, client="a", by=""):
    return services.draft_save(evening=evening, values=values, changed=changed, base=base, client=client, by=by)


def test_opening_twice_resumes_the_one_draft_and_the_database_allows_no_second():
    evening = make_evening()
    first = services.draft_open(evening=evening)
    assert services.draft_open(evening=evening).pk == first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundDraft.objects.create(evening=evening)


def test_the_first_save_keeps_the_whole_form_and_later_saves_only_what_changed():
    evening = make_evening()
    services.draft_open(evening=evening)
    form = values_of("E1")
    saved = save(evening, form, changed={"turned"})
    assert saved.draft.data == form and saved.draft.version == 1
    other = {**form, "turned": ["6s"], "seat1-concealed": ["123m"]}
    saved = save(evening, other, changed={"turned"}, base=1)
    assert saved.draft.data["turned"] == ["6s"]
    assert saved.draft.data["seat1-concealed"] == form["seat1-concealed"]  # not changed here: not written
    assert saved.draft.version == 2


def test_a_save_that_changes_nothing_keeps_the_version():
    evening = make_evening()
    form = values_of("E1")
    save(evening, form)
    assert save(evening, form, changed={"turned"}, base=1).draft.version == 1


def test_two_phones_each_write_their_own_seat_and_both_stay():
    evening = make_evening()
    blank = {**values_of("E1"), "seat0-concealed": [""], "seat1-concealed": [""]}
    save(evening, blank, client="a")
    save(evening, {**blank, "seat0-concealed": ["123456789m1122p"]}, changed={"seat0-concealed"}, base=1,
         client="a", by="老王")
    saved = save(evening, {**blank, "seat1-concealed": ["111222333p4455s"]}, changed={"seat1-concealed"}, base=1,
                 client="b", by="小李")
    assert saved.draft.data["seat0-concealed"] == ["123456789m1122p"]
    assert saved.draft.data["seat1-concealed"] == ["111222333p4455s"]
    assert not saved.overlaps
    changes = selectors.draft_changes(saved.draft, since=1, client="a")
    assert changes == {"seat1-concealed": (["111222333p4455s"], "小李")}


def test_two_phones_changing_the_same_field_are_told():
    evening = make_evening()
    form = values_of("E1")
    save(evening, form)
    save(evening, {**form, "turned": ["6s"]}, changed={"turned"}, base=1, client="b", by="小李")
    saved = save(evening, {**form, "turned": ["7s"]}, changed={"turned"}, base=1, client="a", by="阿珍")
    assert saved.draft.data["turned"] == ["7s"]  # the one who just typed it
    assert [(o.name, o.by, o.values) for o in saved.overlaps] == [("turned", "小李", ["6s"])]


def test_a_whole_form_never_overwrites_what_another_phone_wrote_since():
    evening = make_evening()
    form = values_of("E1")
    save(evening, form)
    save(evening, {**form, "turned": ["6s"]}, changed={"turned"}, base=1, client="b")
    saved = save(evening, {**form, "turned": ["7s"], "dealer": ["2"]}, changed=None, base=1, client="a")
    assert saved.draft.data["turned"] == ["6s"] and saved.draft.data["dealer"] == ["2"]


def test_recording_the_round_consumes_its_draft_and_the_draft_never_becomes_a_round_twice():
    evening = make_evening()
    draft = services.draft_open(evening=evening)
    key = draft.idempotency_key
    first = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    assert selectors.evening_draft(evening=evening) is None
    again = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    assert again.pk == first.pk and evening.rounds.count() == 1
    late = services.draft_save(evening=evening, values=values_of("E1"), changed={"turned"}, base=3,
                               client="b", key=key)
    assert late.recorded.pk == first.pk and selectors.evening_draft(evening=evening) is None


def test_a_draft_thrown_away_is_gone_and_a_phone_still_typing_starts_a_new_one():
    evening = make_evening()
    key = uuid.uuid4()
    services.draft_save(evening=evening, values=values_of("E1"), changed=None, base=0, client="a", key=key)
    assert services.draft_discard(evening=evening) is True
    assert selectors.evening_draft(evening=evening) is None
    assert services.draft_discard(evening=evening) is False
    saved = services.draft_save(evening=evening, values=values_of("E2"), changed={"turned"}, base=5,
                                client="a", key=key)
    assert saved.draft.data == values_of("E2")  # nothing typed is lost


# -- 确认 / 有异议 ---------------------------------------------------------------------------------


def test_a_seat_confirms_or_disputes_a_round_and_a_second_word_replaces_the_first():
    evening = make_evening()
    round_ = services.round_record(evening=evening, record=example_record("E1"))
    services.round_confirm(round=round_, seat=1, verdict="confirmed")
    services.round_confirm(round=round_, seat=1, verdict="disputed", note="  翻牌是 6条\x00 ")
    words = selectors.seat_words(round_, ["老王", "小李", "阿珍", "张哥"])
    assert [(w.verdict, w.note) for w in words] == [("", ""), ("disputed", "翻牌是 6条"), ("", ""), ("", "")]
    with pytest.raises(services.ValidationError):
        services.round_confirm(round=round_, seat=4, verdict="confirmed")
    with pytest.raises(services.ValidationError):
        services.round_confirm(round=round_, seat=0, verdict="maybe")


def test_a_correction_clears_the_words_it_invalidates_and_an_unchanged_one_keeps_them():
    evening = make_evening()
    round_ = services.round_record(evening=evening, record=example_record("E1"))
    services.round_confirm(round=round_, seat=0, verdict="confirmed")
    round_ = services.round_correct(round=round_, record=example_record("E1"), expected_version=1)
    assert round_.confirmations.count() == 1  # nothing changed, nothing to confirm again
    round_ = services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
    assert round_.confirmations.count() == 0
    with pytest.raises(services.RoundVersionConflict):
        services.round_confirm(round=round_, seat=0, verdict="confirmed", expected_version=1)


def test_words_given_on_the_draft_go_with_the_round_only_if_it_is_that_round():
    from calculator.scoring import settle_record

    evening = make_evening()
    key = services.draft_open(evening=evening).idempotency_key
    scored = settle_record(example_record("E1")).record.to_dict()
    other = settle_record(example_record("E2")).record.to_dict()
    services.draft_confirm(evening=evening, seat=0, verdict="confirmed", settled=scored)
    services.draft_confirm(evening=evening, seat=2, verdict="disputed", note="不对", settled=scored)
    services.draft_confirm(evening=evening, seat=3, verdict="confirmed", settled=other)  # saw another round
    round_ = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    words = {c.seat: (c.verdict, c.note) for c in round_.confirmations.all()}
    assert words == {0: ("confirmed", ""), 2: ("disputed", "不对")}


def test_the_first_save_fills_the_form_in_without_claiming_what_it_did_not_change():
    evening = make_evening()
    blank = {**values_of("E1"), "seat0-concealed": [""], "seat1-concealed": [""]}
    save(evening, {**blank, "seat2-concealed": ["123m"]}, changed={"seat2-concealed"}, client="c", by="阿珍")
    saved = save(evening, {**blank, "seat1-concealed": ["456p"]}, changed={"seat1-concealed"}, base=0, client="b")
    assert not saved.overlaps  # 阿珍's phone only filled 小李's hand in as blank, it did not change it
    assert selectors.draft_changes(saved.draft, since=0, client="x") == {
        "seat2-concealed": (["123m"], "阿珍"), "seat1-concealed": (["456p"], "")}


# -- a draft never outlives its round (issue 19, point 3) ------------------------------------------


def test_a_late_write_after_the_round_was_recorded_and_deleted_never_blocks_the_next_rounds():
    """A and B open 记一局, A records, A deletes the round, B (still on the old page) types, then C
    records three rounds: all three are stored (the late write started a draft of its own key)."""
    evening = make_evening()
    key = services.draft_open(evening=evening).idempotency_key  # A's page
    assert services.draft_open(evening=evening).idempotency_key == key  # B's page
    recorded = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key, by="A")
    services.round_delete(round=recorded, by="A")
    late = services.draft_save(evening=evening, values=values_of("E2"), changed={"turned"}, base=1,
                               client="b", by="B", key=key)
    assert late.recorded is None and late.deleted == 1
    assert late.draft.idempotency_key != key and late.draft.data == values_of("E2")  # nothing typed is lost
    for example in ("E1", "E2", "E3"):  # C
        draft = services.draft_open(evening=evening)
        assert draft.idempotency_key != key
        services.round_record(evening=evening, record=example_record(example),
                              idempotency_key=draft.idempotency_key, by="C")
    assert evening.rounds.count() == 3  # numbered 2, 3, 4: a deleted round's number is not reused


def test_a_late_write_after_the_round_was_recorded_is_told_so_even_when_the_next_draft_is_open():
    evening = make_evening()
    key = services.draft_open(evening=evening).idempotency_key
    recorded = services.round_record(evening=evening, record=example_record("E1"), idempotency_key=key)
    following = services.draft_open(evening=evening)
    late = services.draft_save(evening=evening, values=values_of("E2"), changed={"turned"}, base=1, client="b", key=key)
    assert late.recorded.pk == recorded.pk
    assert selectors.evening_draft(evening=evening).pk == following.pk
    assert not selectors.evening_draft(evening=evening).data  # the old page wrote nothing into the next round


def test_a_draft_left_under_a_deleted_rounds_key_is_given_a_fresh_one_when_opened():
    """An evening an earlier version left stuck: 记一局 reopened the draft whose key had recorded a
    deleted round, and every 记下这一局 was refused. Opening it now heals it, keeping what it holds."""
    evening = make_evening()
    key = services.draft_open(evening=evening).idempotency_key
    services.round_delete(round=services.round_record(evening=evening, record=example_record("E1"),
                                                      idempotency_key=key))
    RoundDraft.objects.create(evening=evening, idempotency_key=key, data=values_of("E2"), version=3,
                              confirmations={"0": {"verdict": "confirmed", "digest": "x"}})
    draft = services.draft_open(evening=evening)
    assert draft.idempotency_key != key and draft.data == values_of("E2") and draft.confirmations == {}
    assert draft.version == 4  # the phones' poll sees it
    services.round_record(evening=evening, record=example_record("E2"), idempotency_key=draft.idempotency_key)
    assert evening.rounds.count() == 1


def test_a_throw_away_then_late_writes_from_two_old_pages_start_one_new_draft_and_keep_each_others_changes():
    """After 扔掉, the first late write starts a new draft under a key of its own (the thrown-away
    one recorded nothing, but its versions are not this draft's): a second old page, whose base
    counted the old draft's versions, does not overwrite the first one's change in silence."""
    evening = make_evening()
    key = services.draft_open(evening=evening).idempotency_key
    for n in range(3):
        services.draft_save(evening=evening, values=values_of("E2"), changed={"turned"}, base=n, client="a", key=key)
    services.draft_discard(evening=evening)
    late = services.draft_save(evening=evening, values={**values_of("E2"), "turned": ["9m"]}, changed={"turned"},
                               base=1, client="b", key=key, by="阿珍")
    assert late.deleted is None and late.draft.idempotency_key != key
    older = services.draft_save(evening=evening, values={**values_of("E2"), "turned": ["8m"]}, changed=None,
                                base=3, client="a", key=key, by="老王")
    assert older.draft.data["turned"] == ["9m"]  # hers stays, and his page is told
    assert [(overlap.name, overlap.by) for overlap in older.overlaps] == [("turned", "阿珍")]


def test_the_same_chicken_discard_added_on_two_phones_is_named_not_silently_doubled():
    """Issue 19: 阿珍's phone adds 小李's 6万 to his 打出的鸡; 小李's phone, which has just received it,
    adds 6万 too. Both stay (two 6万 may be right), but 小李's phone is told it now counts twice."""
    evening = make_evening()
    blank = {**values_of("E1"), "seat1-discards": [""]}
    save(evening, blank, client="a")
    save(evening, {**blank, "seat1-discards": ["6m"]}, changed={"seat1-discards"}, base=1, client="a", by="阿珍")
    saved = save(evening, {**blank, "seat1-discards": ["6m6m"]}, changed={"seat1-discards"}, base=2,
                 client="b", by="小李")
    assert saved.draft.data["seat1-discards"] == ["6m6m"]
    assert [(o.name, o.by, o.doubled) for o in saved.overlaps] == [("seat1-discards", "阿珍", ("6m",))]
    # another tile, or the same phone adding a second one, is no clash
    again = save(evening, {**blank, "seat1-discards": ["6m6m9p"]}, changed={"seat1-discards"}, base=3, client="a")
    assert not again.overlaps
    more = save(evening, {**blank, "seat1-discards": ["6m6m6m9p"]}, changed={"seat1-discards"}, base=4, client="a")
    assert not more.overlaps


def test_a_chicken_discard_added_long_after_the_other_phones_is_no_clash(monkeypatch):
    evening = make_evening()
    blank = {**values_of("E1"), "seat1-discards": [""]}
    save(evening, blank, client="a")
    save(evening, {**blank, "seat1-discards": ["6m"]}, changed={"seat1-discards"}, base=1, client="a", by="阿珍")
    later = services.drafts.time.time() + services.drafts.SAME_DISCARD_SECONDS + 1
    monkeypatch.setattr(services.drafts.time, "time", lambda: later)
    saved = save(evening, {**blank, "seat1-discards": ["6m6m"]}, changed={"seat1-discards"}, base=2, client="b")
    assert not saved.overlaps and saved.draft.data["seat1-discards"] == ["6m6m"]
