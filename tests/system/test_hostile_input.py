"""Hostile input (issue 5): people mistype and some poke at the forms by hand.

Every form answers bad input with its problems and a 4xx — never a 500, never a partial save —
on SQLite and on PostgreSQL (whose text cannot hold a NUL character). Hypothesis generates the
form data from the real forms' field names plus junk. Player names holding HTML stay text in
every page and PDF, and rendering a PDF fetches nothing but the app's own static files.
(The JSON API has its own fuzzers in test_api.py, the PDF fetcher its URL table in test_pdf.py.)
"""
from __future__ import annotations

import copy
import json
import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from calculator import selectors, services
from calculator.forms import EveningForm, ImportForm
from calculator.entry.forms import MAX_NOTATION
from calculator.models import Change, Evening, Player, Round, RoundDraft
from calculator.pdf import BASE_URL, StaticFileFetcher, URLRefused
from calculator.entry import RoundEntry
from calculator.scoring import ruleset_from_dict
from tests.factories import NAMES, example_record, make_evening, record_rounds
from tests.round_form_data import record_to_post_data
from tests.pdf_tools import poppler, squeeze

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def client() -> Client:
    """A test client that raises any server error in the test, with its traceback."""
    return Client(raise_request_exception=True)


def assert_no_server_error(response) -> None:
    event(f"status {response.status_code}")
    assert response.status_code < 500, response.content[:300]
    assert response.status_code in (200, 302) or 400 <= response.status_code < 500


def ledger_size() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Evening, Player, Round, Change))


# -- generated form data -----------------------------------------------------------------------

# Text of every kind a phone can send: NUL and other control characters, any script, emoji.
# (Lone surrogates cannot be sent: they do not encode as UTF-8, and Django decodes with
# replacement characters.)
any_text = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=60)
plausible = st.sampled_from([
    "", "0", "1", "2", "3", "4", "-1", "on", "off", "true", "1m", "9p", "5s", "0m", "10s", "1z",
    "discard", "self_draw", "draw", "pong", "men", "dian", "zhuanwan", "hard", "soft", "guiyang",
    "anshun", "xingyi", "0.5", "1e400", "NaN", "Infinity", "-0", "99999999999999999999999", "\x00",
    "1m\x001m", "<script>alert(1)</script>", "老王", "🀄", "\u202e", str(uuid.uuid4()), "{}", "[]",
])
huge = st.sampled_from(["9" * 5000, "1m" * 3000, "老" * 20000, "x" * 100_001])
field_value = st.one_of(plausible, any_text, huge, st.lists(st.one_of(plausible, any_text), max_size=3))

ROUND_FIELDS = sorted({*record_to_post_data(example_record("E1")), "idempotency_key", "version", "players",
                       "edit", "record"})
junk_key = st.one_of(st.sampled_from(["", "\x00", "seat9-concealed", "seat0-melds-7-kind",
                                      "seat0-melds-TOTAL_FORMS", "csrfmiddlewaretoken", "__proto__"]),
                     any_text)


def mutated_form(base: dict, *, fields: list[str]):
    """A valid form's data with some fields changed, dropped or added."""
    change = st.tuples(st.sampled_from(fields), field_value)
    drop = st.sampled_from(fields)
    add = st.tuples(junk_key, field_value)
    return st.tuples(st.lists(change, max_size=6), st.lists(drop, max_size=4), st.lists(add, max_size=3)).map(
        lambda parts: apply(base, *parts))


def apply(base: dict, changes, drops, additions) -> dict:
    data = copy.deepcopy(base)
    for key, value in changes:
        data[key] = value
    for key in drops:
        data.pop(key, None)
    for key, value in additions:
        data[key] = value
    return data


E1_FORM = {**record_to_post_data(example_record("E1")), "idempotency_key": str(uuid.uuid4())}


@pytest.fixture
def evening():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    return evening


def evening_entry_is_valid(evening: Evening, data: dict) -> bool:
    """What the round form itself says about `data` for this evening."""
    entry = RoundEntry(_query_dict(data), names=NAMES, rules=ruleset_from_dict(evening.rules),
                       stake=selectors.evening_stake(evening=evening))
    return entry.is_valid()


def _query_dict(data: dict):
    from django.http import QueryDict

    query = QueryDict(mutable=True)
    for key, value in data.items():
        query.setlist(key, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    return query


@pytest.mark.slow
@FUZZ
@given(data=mutated_form(E1_FORM, fields=ROUND_FIELDS))
def test_the_evening_round_form_answers_any_data_without_a_500_and_saves_only_a_valid_round(evening, data):
    data["idempotency_key"] = str(uuid.uuid4())  # each example a new submit
    before = ledger_size()

    response = client().post(reverse("calculator:evening_round_new", args=[evening.token]), data)

    assert_no_server_error(response)
    after = ledger_size()
    if response.status_code == 302:
        assert after[2:] == (before[2] + 1, before[3] + 1)  # one round and its history line
        stored = Round.objects.filter(evening=evening).order_by("-number").first()
        assert sum(stored.net) == 0
    else:
        assert response.status_code == 400 and after == before
        assert not evening_entry_is_valid(evening, data)


@pytest.mark.slow
@FUZZ
@given(data=mutated_form(E1_FORM, fields=ROUND_FIELDS),
       endpoint=st.sampled_from(["round_new", "round_preview", "evening_round_preview",
                                 "evening_round_edit"]))
def test_the_other_round_forms_answer_any_data_without_a_500_and_save_nothing(evening, data, endpoint):
    args = {"round_new": [], "round_preview": [], "evening_round_preview": [evening.token],
            "evening_round_edit": [evening.token, 1]}[endpoint]
    before = ledger_size()
    versions = list(Round.objects.values_list("version", flat=True))

    response = client().post(reverse(f"calculator:{endpoint}", args=args), data)

    assert_no_server_error(response)
    assert ledger_size() == before
    assert list(Round.objects.values_list("version", flat=True)) == versions


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | any_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(any_text, children, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(record=st.one_of(
    json_values.map(json.dumps),
    st.sampled_from(["", "{", "[" * 5000 + "]" * 5000, "NaN", "null", '"x"', "{\"seats\": NaN}"]),
    st.builds(lambda changes: json.dumps({**example_record("E2"), **changes}),
              st.dictionaries(st.sampled_from(list(example_record("E2"))), json_values, max_size=3)),
), version=st.sampled_from(["1", "2", "0", "-1", "", "x", "99999999999999999999", "1\x00"]))
def test_a_hand_made_correction_confirm_never_500s_and_saves_only_a_valid_one(evening, record, version):
    round_ = Round.objects.get(evening=evening, number=1)
    before = ledger_size()

    response = client().post(reverse("calculator:evening_round_edit_confirm", args=[evening.token, 1]),
                             {"record": record, "version": version})

    assert_no_server_error(response)
    after = Round.objects.get(pk=round_.pk)
    if after.version != round_.version:  # saved: a valid correction, with its history line
        assert after.version == round_.version + 1 and version == str(round_.version)
        assert ledger_size()[3] == before[3] + 1 and sum(after.net) == 0
    else:
        assert ledger_size() == before and after.record == round_.record


EVENING_FIELDS = sorted(EveningForm.base_fields)
VALID_EVENING = {"player_0": "老王", "player_1": "小李", "player_2": "阿珍", "player_3": "张哥", "stake": "0.5",
                 "preset": "guiyang", "first_dealer": "0", "title": ""}


@pytest.mark.slow
@FUZZ
@given(data=mutated_form(VALID_EVENING, fields=EVENING_FIELDS))
def test_the_evening_form_answers_any_data_without_a_500_and_opens_an_evening_only_when_valid(data):
    before = Evening.objects.count()

    response = client().post(reverse("calculator:evening_new"), data)

    assert_no_server_error(response)
    if response.status_code == 302:
        evening = Evening.objects.latest("pk")
        assert response["Location"] == reverse("calculator:evening_detail", args=[evening.token])
        assert 3 <= evening.players.count() <= 4
    else:
        assert response.status_code == 400 and Evening.objects.count() == before


# -- NUL, lengths and sizes --------------------------------------------------------------------


@pytest.mark.parametrize("field", ["player_0", "player_3", "title", "stake", "preset", "first_dealer"])
def test_a_nul_in_any_evening_field_is_a_400_on_every_database(field):
    data = {**VALID_EVENING, field: VALID_EVENING[field] + "\x00x"}
    response = client().post(reverse("calculator:evening_new"), data)
    assert response.status_code == 400 and Evening.objects.count() == 0


@pytest.mark.parametrize("field", ["seat0-concealed", "seat1-discards", "seat2-declared", "win_tile",
                                   "winners", "dealer", "seat0-melds-0-kind", "seat0-melds-0-from_seat",
                                   "stake"])
def test_a_nul_in_any_round_field_is_a_400_on_every_database(evening, field):
    data = {**record_to_post_data(example_record("E2")), "idempotency_key": str(uuid.uuid4())}
    value = data.get(field, "")
    data[field] = (value[0] if isinstance(value, list) and value else str(value)) + "\x00"
    before = ledger_size()
    if field != "stake":  # an evening fixes the stake: its form has no such field
        response = client().post(reverse("calculator:evening_round_new", args=[evening.token]), data)
        assert response.status_code == 400 and ledger_size() == before
    assert client().post(reverse("calculator:round_new"), data).status_code == 400
    # The round form's draft keeps what was typed, but no NUL: PostgreSQL's JSON cannot hold one.
    assert all("\\u0000" not in json.dumps(d.data) for d in RoundDraft.objects.all())


def test_a_nul_reaching_the_services_is_refused_before_the_database():
    with pytest.raises(services.ValidationError):
        services.evening_create(names=["老王", "小\x00李", "阿珍"], stake="1")
    with pytest.raises(services.ValidationError):
        services.evening_create(names=["老王", "小李", "阿珍"], stake="1", title="周五\x00")
    assert Evening.objects.count() == 0


@pytest.mark.parametrize(("field", "length"), [("player_0", 41), ("title", 61)])
def test_evening_fields_have_a_length_cap(field, length):
    response = client().post(reverse("calculator:evening_new"), {**VALID_EVENING, field: "长" * length})
    assert response.status_code == 400 and field in response.context["form"].errors
    assert client().post(reverse("calculator:evening_new"), {**VALID_EVENING, field: "长" * (length - 1)}
                         ).status_code == 302


def test_the_tile_fields_have_a_length_cap(evening):
    page = client().get(reverse("calculator:evening_round_new", args=[evening.token])).content.decode()
    assert f'maxlength="{MAX_NOTATION}"' in page
    data = {**E1_FORM, "idempotency_key": str(uuid.uuid4()), "seat0-concealed": "1m " * 40}
    response = client().post(reverse("calculator:evening_round_new", args=[evening.token]), data)
    assert response.status_code == 400 and Round.objects.count() == 1


def test_a_body_over_the_upload_cap_is_a_400(evening, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    data = {**E1_FORM, "title": "x" * 20_000}
    for url in (reverse("calculator:round_new"),
                reverse("calculator:evening_round_new", args=[evening.token])):
        assert Client().post(url, data).status_code == 400
    assert Round.objects.count() == 1


def test_too_many_fields_is_a_400(evening):
    data = {**E1_FORM, **{f"junk{i}": "x" for i in range(500)}}
    url = reverse("calculator:evening_round_new", args=[evening.token])
    assert Client().post(url, data).status_code == 400
    assert Round.objects.count() == 1


# -- the other small forms ----------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["²", "٣", "-1", "4", "99999999999999999999", "\x00", "", "0x1", " 1"])
def test_choosing_who_holds_the_phone_with_any_seat_never_500s(evening, seat):
    response = client().post(reverse("calculator:evening_me", args=[evening.token]), {"seat": seat})
    assert response.status_code == 302


@pytest.mark.parametrize("data", [
    {}, {"payer": "0"}, {"payer": "0", "payee": "0", "points": "0"},
    {"payer": "x", "payee": "1", "points": "1"},
    {"payer": "0", "payee": "1", "points": "99999999999999999999"},
    {"payer": "0\x00", "payee": "1", "points": "1", "paid": "on"},
])
def test_a_hand_made_paid_mark_is_a_400_or_changes_nothing(evening, data):
    response = client().post(reverse("calculator:evening_transfer_paid", args=[evening.token]), data)
    assert response.status_code in (302, 400)
    assert not evening.paid_transfers.exists()


@pytest.mark.parametrize("version", ["", "0", "x", "1\x00", "99999999999999999999"])
def test_a_hand_made_delete_is_a_400_and_deletes_nothing(evening, version):
    response = client().post(reverse("calculator:evening_round_delete", args=[evening.token, 1]),
                             {"version": version})
    assert response.status_code in (302, 400) and Round.objects.count() == 1


# -- importing a file --------------------------------------------------------------------------


def upload(content: bytes):
    file = SimpleUploadedFile("evening.json", content, content_type="application/json")
    return client().post(reverse("calculator:evening_import"), {"file": file})


@pytest.fixture
def export(evening):
    services.round_correct(round=Round.objects.get(evening=evening, number=1), record=example_record("E2"),
                           expected_version=1, by="老王")
    record_rounds(evening, ["E3"])
    return services.evening_export(evening=evening)


DAMAGE = {
    "NUL in the title": lambda d: d.update(title="周五\x00"),
    "NUL in a name": lambda d: d["players"].__setitem__(1, "小\x00李"),
    "NUL in who changed": lambda d: d["history"][0].update(by="老\x00王"),
    "NUL deep in a record": lambda d: d["rounds"][0]["record"]["seats"][0].update(note="\x00"),
    "NUL in a JSON key": lambda d: d["rounds"][0]["record"].update({"\x00": 1}),
    "a lone surrogate": lambda d: d.update(title="\ud800"),
    "NaN in a record": lambda d: d["rounds"][0]["record"].update(stake=float("nan")),
    "infinity in a settlement": lambda d: d["rounds"][0]["settlement"].update(x=float("inf")),
    "a round number past the column": lambda d: d["rounds"][0].update(number=2**31),
    "a huge version": lambda d: d["rounds"][0].update(version=10**30),
    "a version that is a float": lambda d: d["rounds"][0].update(version=1.5),
    "a negative seat in an item": lambda d: d["rounds"][0]["settlement"]["items"][0].update(payer=-1),
    "a paid mark past the column": lambda d: d["paid"].append(
        {"payer": 0, "payee": 1, "points": 2**40, "paid_at": d["created_at"]}),
    "a paid mark to seat 7": lambda d: d["paid"].append(
        {"payer": 0, "payee": 7, "points": 1, "paid_at": d["created_at"]}),
    "who changed is too long": lambda d: d["history"][0].update(by="长" * 41),
    "who changed is a number": lambda d: d["history"][0].update(by=7),
    "a history snapshot that is a list": lambda d: d["history"][0].update(after=[1, 2]),
    "a history snapshot without its record": lambda d: d["history"][0]["after"].pop("record"),
    "a record that does not parse": lambda d: d["rounds"][0].update(record={"seats": "x"}),
    "a record that is a list": lambda d: d["rounds"][0].update(record=[]),
    "a settlement without hands": lambda d: d["rounds"][0]["settlement"].pop("hands"),
    "a round dealer that is text": lambda d: d["rounds"][0].update(dealer="0"),
    "a date that is no date": lambda d: d.update(created_at="yesterday"),
    "a date out of range": lambda d: d["rounds"][0].update(created_at="0001-01-01T00:00:00+14:00"),
    "nesting 40 deep": lambda d: d["rounds"][0]["record"].update(deep=json.loads("[" * 40 + "]" * 40)),
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_export_is_a_400_and_stores_nothing(export, damage):
    data = copy.deepcopy(export)
    damage(data)
    before = ledger_size()
    response = upload(json.dumps(data, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass"))
    assert response.status_code == 400 and "损坏" in response.content.decode()
    assert ledger_size() == before


@pytest.mark.parametrize("content", [
    b"", b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe", b"null", b'"evening"', b"NaN", b'{"format": "\x00"}',
])
def test_a_file_that_is_no_export_is_a_400(content):
    response = upload(content)
    assert response.status_code == 400 and Evening.objects.count() == 0


def test_an_import_over_the_file_cap_is_a_413(monkeypatch):
    monkeypatch.setattr(ImportForm, "MAX_BYTES", 1000)
    response = upload(b" " * 100_000)
    assert response.status_code == 413 and "太大" in response.content.decode()
    assert Evening.objects.count() == 0


@pytest.mark.parametrize("url", ["/evening/import/", "/round/", "/api/settle", "/e/x/rounds/new/"])
def test_a_body_over_the_request_cap_is_a_413_before_anything_reads_it(settings, url):
    """Even before the CSRF check, which would read (and spool to disk) the whole body."""
    settings.MAX_REQUEST_BYTES = 1000
    body = {"file": SimpleUploadedFile("big.json", b"x" * 5000, content_type="application/json")}
    response = Client(enforce_csrf_checks=True).post(url, body)
    assert response.status_code == 413
    assert Client(enforce_csrf_checks=True).post(url, {"x": "small"}).status_code in (403, 404, 415)


def test_the_undamaged_export_still_imports(export):
    response = upload(json.dumps(export).encode())
    assert response.status_code == 302


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.sampled_from(["title", "stake", "players", "first_dealer", "rules",
                                                   "rounds", "history", "paid", "created_at", "format"]),
                                  json_values), min_size=1, max_size=3))
def test_any_damage_to_an_export_is_refused_or_imports_cleanly(export, changes):
    data = {**export, **dict(changes)}
    before = Evening.objects.count()
    response = upload(json.dumps(data, allow_nan=True).encode("utf-8", "surrogatepass"))
    assert_no_server_error(response)
    if response.status_code == 302:  # it imported: every page of it can be read
        copy_ = Evening.objects.latest("pk")
        for name in ("evening_detail", "evening_history", "evening_settle"):
            assert client().get(reverse(f"calculator:{name}", args=[copy_.token])).status_code == 200
    else:
        assert Evening.objects.count() == before


# -- HTML in names stays text: pages and PDFs ---------------------------------------------------


def hostile_names(port: int) -> list[str]:
    return [
        "<script>alert(1)</script>",
        f'<img src="http://127.0.0.1:{port}/x">',
        '<img src="http://127.0.0.1:9/x">',
        '<img src="file:///etc/passwd">',
    ]


HOSTILE_TITLE = '<style>@import "file:///etc/passwd";</style>'


@pytest.fixture
def hostile_evening(listener):
    evening = make_evening(names=hostile_names(listener.port), title=HOSTILE_TITLE)
    first, _second = record_rounds(evening, ["E1", "E2"])
    services.round_correct(round=first, record=example_record("E3"), expected_version=1,
                           by=hostile_names(listener.port)[0])
    return evening


def test_names_with_html_are_escaped_on_every_page(hostile_evening, listener):
    evening = hostile_evening
    token, read = evening.token, evening.read_token
    pages = [reverse(f"calculator:{name}", args=[token]) for name in
             ("evening_detail", "evening_history", "evening_settle", "evening_share", "evening_round_new")]
    pages += [reverse(f"calculator:{name}", args=[token, 1]) for name in
              ("evening_round", "evening_round_edit", "evening_round_delete")]
    pages += [reverse("calculator:evening_follow", args=[read]),
              reverse("calculator:evening_follow_round", args=[read, 1])]
    for url in pages:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            html = client().get(url, **headers).content.decode()
            for name in [*hostile_names(listener.port), HOSTILE_TITLE]:
                assert name not in html, (url, name)
            for markup in ("<script>alert", '<img src="http', '<img src="file', "<style>@import"):
                assert markup not in html, (url, markup)
    detail = client().get(pages[0]).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in detail
    assert "&lt;img src=&quot;file:///etc/passwd&quot;&gt;" in detail


@pytest.mark.parametrize("which", ["report", "follow report", "receipt"])
def test_names_with_html_print_as_text_in_pdfs_and_fetch_nothing(hostile_evening, listener, fetched, tmp_path,
                                                                  which):
    evening = hostile_evening
    url = {
        "report": reverse("calculator:evening_report_pdf", args=[evening.token]),
        "follow report": reverse("calculator:evening_follow_report_pdf", args=[evening.read_token]),
        "receipt": reverse("calculator:evening_round_receipt_pdf", args=[evening.token, 1]),
    }[which]

    response = client().get(url)

    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    text = squeeze(poppler("pdftotext", response.content, tmp_path))
    for name in hostile_names(listener.port):
        assert squeeze(name) in text, name
    if which != "receipt":
        assert squeeze(HOSTILE_TITLE) in text
    assert "root:" not in text
    assert not listener.connected()
    static = re.escape(BASE_URL) + r"static/[\w/.-]+"
    assert fetched and all(re.fullmatch(static, u) for u in fetched), fetched


@pytest.mark.parametrize("url", ["file:///etc/passwd", "http://127.0.0.1:9/x", "file://localhost/etc/passwd"])
def test_the_pdf_fetcher_refuses_the_references_in_those_names(url):
    with pytest.raises(URLRefused):
        StaticFileFetcher().fetch(url)
