"""Importing an evening (issue 14): the whole file is checked, every round scored again, before
anything is written; then the write is a few bulk inserts, whatever the evening's size."""
from __future__ import annotations

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from calculator import services
from calculator.models import Change, Evening, Round
from calculator.services import exchange
from tests.factories import example_record, make_evening, record_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def export():
    evening = make_evening()
    rounds = record_rounds(evening, ["E1", "E2", "E3"])
    services.round_correct(round=rounds[0], record=example_record("E4"), expected_version=1, by="老王")
    services.round_delete(round=rounds[2])
    return services.evening_export(evening=evening)


def refused(data) -> ValidationError:
    before = (Evening.objects.count(), Round.objects.count(), Change.objects.count())
    with pytest.raises(ValidationError) as error:
        services.evening_import(data=data)
    assert (Evening.objects.count(), Round.objects.count(), Change.objects.count()) == before
    return error.value


def test_a_round_that_pays_what_its_record_does_not_is_refused(export):
    """The net is the sum of the items, as before; but no rule makes this round pay 1,000."""
    data = copy.deepcopy(export)
    settlement = data["rounds"][0]["settlement"]
    item = settlement["items"][0]
    item["points"] += 1000
    for net in (settlement["net"], data["rounds"][0]["net"]):
        net[item["payer"]] -= 1000
        net[item["payee"]] += 1000
    refused(data)


def test_a_hand_with_thirteen_of_one_tile_is_refused(export):
    data = copy.deepcopy(export)
    data["rounds"][1]["record"]["seats"][2]["concealed"] = "1m" * 13
    refused(data)


def test_a_history_snapshot_is_scored_too(export):
    data = copy.deepcopy(export)
    deleted = next(c for c in data["history"] if c["kind"] == Change.DELETED)
    deleted["before"]["record"]["seats"][2]["concealed"] = "1m" * 13
    refused(data)


def test_text_no_round_holds_is_not_stored(export):
    """A 7 MB string beside a seat: what is stored is the record as scoring rebuilds it."""
    data = copy.deepcopy(export)
    data["rounds"][0]["record"]["seats"][0]["note"] = "长" * 7_000_000
    copy_ = services.evening_import(data=data)
    stored = copy_.rounds.get(number=data["rounds"][0]["number"]).record
    assert "note" not in stored["seats"][0] and len(json.dumps(stored)) < 10_000


@pytest.mark.parametrize("field", ["number", "version"])
def test_a_round_number_or_version_near_the_columns_end_is_refused(export, field):
    """Else the next round (max + 1) or correction (version + 1) fails on PostgreSQL."""
    data = copy.deepcopy(export)
    data["rounds"][0][field] = 2**31 - 1
    refused(data)


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59+00:00", "9999-12-31T23:00:00-14:00",
                                    "1900-01-01T00:00:00+08:00"])
@pytest.mark.parametrize("where", ["evening", "round", "change"])
def test_a_date_at_the_calendars_ends_is_refused(export, moment, where):
    """Pages do arithmetic on these dates (local time, "3 minutes ago"): at the calendar's end
    every page of the evening would be a 500."""
    data = copy.deepcopy(export)
    holder, key = {"evening": (data, "created_at"), "round": (data["rounds"][0], "updated_at"),
                   "change": (data["history"][0], "at")}[where]
    holder[key] = moment
    refused(data)


@pytest.mark.parametrize("part, cap", [("rounds", "MAX_ROUNDS"), ("history", "MAX_HISTORY"),
                                       ("paid", "MAX_PAID")])
def test_more_than_an_evening_holds_is_refused_before_scoring(export, monkeypatch, part, cap):
    data = copy.deepcopy(export)
    data["paid"] = [{"payer": 0, "payee": 1, "points": 1, "paid_at": data["created_at"]}] * 3
    monkeypatch.setattr(exchange, cap, len(data[part]) - 1)
    scored = []
    monkeypatch.setattr(exchange, "settle_record", lambda d: scored.append(d))
    error = refused(data)
    assert "more" in str(error.message)
    assert part != "rounds" or scored == []


def test_a_file_damaged_at_its_end_sends_nothing_to_the_database(export):
    """Everything is checked before the transaction opens: not even a BEGIN is issued."""
    data = copy.deepcopy(export)
    data["history"][-1]["by"] = 7
    with CaptureQueriesContext(connection) as queries, pytest.raises(ValidationError):
        services.evening_import(data=data)
    assert queries.captured_queries == []


def test_no_round_is_scored_while_the_write_lock_is_held(export, monkeypatch):
    writing = []
    real_write, real_settle = exchange._write, exchange.settle_record

    def write(checked):
        writing.append(True)
        try:
            return real_write(checked)
        finally:
            writing.pop()

    def settle(data):
        assert not writing, "a round was scored inside the write transaction"
        return real_settle(data)

    monkeypatch.setattr(exchange, "_write", write)
    monkeypatch.setattr(exchange, "settle_record", settle)
    services.evening_import(data=export)


def evening_of(rounds: int) -> dict:
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3", "E4", "E5"] * (rounds // 5))
    return services.evening_export(evening=evening)


@pytest.fixture
def chunks(monkeypatch):
    """(model, rows, the transaction it ran in) of each bulk insert of an import."""
    from django.db.models.query import QuerySet

    seen = []
    real = QuerySet.bulk_create

    def spy(self, objs, *args, **kwargs):
        objs = list(objs)
        seen.append((self.model.__name__, len(objs), connection.savepoint_ids[-1] if connection.savepoint_ids
                     else None))
        return real(self, objs, *args, **kwargs)

    monkeypatch.setattr(QuerySet, "bulk_create", spy)
    return seen


def test_the_write_is_bulk_inserts_in_transactions_of_a_few_rows(monkeypatch, chunks):
    """However big the evening, no write transaction holds more than WRITE_CHUNK rows."""
    data = evening_of(25)
    monkeypatch.setattr(exchange, "WRITE_CHUNK", 10)
    chunks.clear()
    services.evening_import(data=data)
    rounds = [(n, where) for model, n, where in chunks if model == "Round"]
    assert [n for n, _ in rounds] == [10, 10, 5]
    assert len({where for _, _, where in chunks}) == len(chunks)  # each insert its own transaction


def test_a_write_that_fails_midway_leaves_nothing(monkeypatch):
    from django.db import DatabaseError
    from django.db.models.query import QuerySet

    data = evening_of(10)
    before = (Evening.objects.count(), Round.objects.count(), Change.objects.count())
    monkeypatch.setattr(exchange, "WRITE_CHUNK", 4)
    real, calls = QuerySet.bulk_create, []

    def failing(self, objs, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:  # players, then the first chunk of rounds; the disk fills up
            raise DatabaseError("disk full")
        return real(self, objs, *args, **kwargs)

    monkeypatch.setattr(QuerySet, "bulk_create", failing)
    with pytest.raises(DatabaseError):
        services.evening_import(data=data)
    assert (Evening.objects.count(), Round.objects.count(), Change.objects.count()) == before


def test_an_export_from_before_items_carried_words_still_imports(export):
    """Rounds stored before `words` keep only their `detail` sentence (R41); what they decided
    is the same, so their export imports, and the copy's rounds carry words."""
    data = copy.deepcopy(export)
    for kept in [*data["rounds"], *(c[s] for c in data["history"] for s in ("before", "after") if c[s])]:
        for item in kept["settlement"]["items"]:
            item.pop("words", None)
            item["detail"] = "闷豆 9筒"
    copy_ = services.evening_import(data=data)
    assert all("words" in item for r in copy_.rounds.all() for item in r.settlement["items"])


def test_on_sqlite_the_write_lock_is_left_free_between_chunks(monkeypatch, chunks):
    """SQLite's lock is not fair: a writer waiting for it retries every 100 ms at most, so
    chunks written back to back would keep another table's round out for the whole import."""
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL locks rows, not the database")
    data = evening_of(10)
    monkeypatch.setattr(exchange, "WRITE_CHUNK", 4)
    events = []
    monkeypatch.setattr(exchange.time, "sleep", lambda seconds: events.append(seconds))
    chunks.clear()
    services.evening_import(data=data)
    inserts = [c for c in chunks if c[0] != "Player"]
    assert len(events) == len(inserts) and min(events) > 0.1


def test_an_export_carries_what_did_not_count_and_the_chickens_and_imports_them_back(export):
    """Round 2 is E2: its 翻牌 9条 made 1条 金鸡. The copy, exported again, says the same."""
    rounds = {r["number"]: r for r in export["rounds"]}
    assert rounds[2]["settlement"]["chickens"] and "void" in rounds[2]["settlement"]
    copy_ = services.evening_import(data=copy.deepcopy(export))
    again = services.evening_export(evening=copy_)
    assert [r["settlement"] for r in again["rounds"]] == [r["settlement"] for r in export["rounds"]]


def test_an_export_from_before_rounds_said_what_did_not_count_still_imports(export):
    data = copy.deepcopy(export)
    for kept in [*data["rounds"], *(c[s] for c in data["history"] for s in ("before", "after") if c[s])]:
        del kept["settlement"]["void"], kept["settlement"]["chickens"]
    copy_ = services.evening_import(data=data)
    assert all({"void", "chickens"} <= set(r.settlement) for r in copy_.rounds.all())


def test_a_file_whose_void_was_changed_imports_what_scoring_says(export):
    """`void` and `chickens` are words worked out from the record: the copy holds scoring's."""
    data = copy.deepcopy(export)
    for kept in data["rounds"]:
        kept["settlement"]["void"], kept["settlement"]["chickens"] = [], []
    copy_ = services.evening_import(data=data)
    stored = {r.number: r.settlement for r in copy_.rounds.all()}
    assert stored == {r["number"]: r["settlement"] for r in export["rounds"]}


def agreed_evening():
    evening = make_evening()
    first, second = record_rounds(evening, ["E1", "E2"])
    services.round_confirm(round=first, seat=0, verdict="confirmed")
    services.round_confirm(round=first, seat=2, verdict="disputed", note="翻牌不对")
    services.round_confirm(round=second, seat=1, verdict="confirmed")
    return evening


def words(evening) -> list[tuple]:
    from calculator.models import RoundConfirmation

    return sorted((c.round.number, c.seat, c.verdict, c.note, c.at)
                  for c in RoundConfirmation.objects.filter(round__evening=evening).select_related("round"))


def test_confirmations_and_disputes_move_with_the_evening():
    """Issue 18: an exported and imported evening lost who confirmed and who disputed what."""
    evening = agreed_evening()
    data = json.loads(json.dumps(services.evening_export(evening=evening)))  # through a file
    assert data["rounds"][0]["confirmations"][1] == {
        "seat": 2, "verdict": "disputed", "note": "翻牌不对", "at": data["rounds"][0]["confirmations"][1]["at"],
        "by": ""}
    copy_ = services.evening_import(data=data)
    assert words(copy_) == words(evening) and len(words(copy_)) == 3


def test_the_streamed_export_carries_them_too():
    evening = agreed_evening()
    streamed = json.loads("".join(services.evening_export_json(evening=evening)))
    assert streamed == json.loads(json.dumps(services.evening_export(evening=evening)))


def test_who_pressed_a_word_for_a_seat_and_the_words_a_correction_replaced_move_too():
    """Issue 19: 代按 (`by`) and the history's words on an earlier version go with the evening;
    a file from before issue 19 (words without `by`) still imports."""
    evening = agreed_evening()
    first = evening.rounds.get(number=1)
    services.round_confirm(round=first, seat=3, verdict="confirmed", by="老王", phone_seat=0)
    services.round_correct(round=first, record=example_record("E3"), expected_version=1, by="老王")
    services.round_confirm(round=evening.rounds.get(number=2), seat=3, verdict="confirmed", by="小李", phone_seat=1)
    data = json.loads(json.dumps(services.evening_export(evening=evening)))
    copy_ = services.evening_import(data=data)
    corrected = copy_.changes.get(kind="corrected")
    assert [(w["seat"], w["verdict"], w["note"], w["by"]) for w in corrected.before["confirmations"]] == [
        (0, "confirmed", "", ""), (2, "disputed", "翻牌不对", ""), (3, "confirmed", "", "老王")]
    assert copy_.rounds.get(number=2).confirmations.get(seat=3).by == "小李"
    for round_ in data["rounds"]:
        for word in round_["confirmations"]:
            del word["by"]
    for change in data["history"]:
        for side in ("before", "after"):
            if change[side]:
                change[side].pop("confirmations", None)
    older = services.evening_import(data=data)
    assert older.rounds.get(number=2).confirmations.get(seat=3).by == ""


def test_an_export_from_before_confirmations_still_imports():
    data = services.evening_export(evening=agreed_evening())
    for round_ in data["rounds"]:
        del round_["confirmations"]
    assert words(services.evening_import(data=data)) == []


@pytest.mark.parametrize("damage", [
    lambda words: words.append(dict(words[0])),                 # one seat twice
    lambda words: words[0].update(verdict="maybe"),
    lambda words: words[0].update(seat=7),
    lambda words: words[0].update(note="长" * 81),
    lambda words: words[0].update(at="2026-01-01T00:00:00"),    # no UTC offset
])
def test_a_damaged_confirmation_is_refused_and_nothing_is_written(damage):
    data = services.evening_export(evening=agreed_evening())
    damage(data["rounds"][0]["confirmations"])
    refused(data)
