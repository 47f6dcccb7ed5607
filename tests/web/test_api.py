"""The JSON API: POST /api/settle answers the settlement of RULES §6, or 4xx with errors — never 500.

No test here touches the database: the API is stateless, and pytest-django would fail any test
that reached for it.
"""
import copy
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
EXPECTED = json.loads((EXAMPLES / "expected.json").read_text())
E1 = json.loads((EXAMPLES / "E1.json").read_text())
SETTLE = reverse("calculator:api_settle")
RECEIPT = reverse("calculator:api_receipt_pdf")


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def post(client, data, *, url=SETTLE, content_type="application/json", **extra):
    body = data if isinstance(data, (str, bytes)) else json.dumps(data, ensure_ascii=False)
    return client.post(url, body, content_type=content_type, **extra)


def codes(response) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]


# -- settling the worked examples -------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_worked_example_settles_to_its_expected_net_and_next_dealer(client, name):
    response = post(client, example(name))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = response.json()
    assert body["net"] == EXPECTED[name]["net"]
    assert body["next_dealer"] == EXPECTED[name]["next_dealer"]
    assert sum(body["net"]) == 0
    assert set(body) >= {"net", "matrix", "items", "money", "hands", "next_dealer"}


def test_chinese_in_the_settlement_is_sent_as_utf8_not_escaped(client):
    response = post(client, example("E1"))

    assert "闷豆".encode() in response.content
    assert b"\\u" not in response.content


def test_money_is_net_times_stake_as_decimal_strings(client):
    body = post(client, example("E8")).json()

    assert [Decimal(m) for m in body["money"]] == [Decimal("-6.5"), Decimal("-9.5"), Decimal("16")]


def test_the_api_needs_no_csrf_token(client):
    strict = Client(enforce_csrf_checks=True)

    assert post(strict, example("E1")).status_code == 200


# -- rejected records -----------------------------------------------------------------------


def test_a_record_that_breaks_the_rules_answers_400_with_every_problem_code(client):
    record = example("E1")
    record["seats"][0]["concealed"] = "234m567m345s19s"  # no longer a complete hand
    record["seats"][1]["concealed"] = "123m"  # too few tiles

    response = post(client, record)

    assert response.status_code == 400
    assert {"not_winning", "tile_count"} <= set(codes(response))
    for error in response.json()["errors"]:
        assert set(error) == {"code", "seat", "field", "message"}


def test_problem_messages_are_in_chinese_by_default(client):
    record = example("E1")
    record["dealer"] = 7

    response = post(client, record)

    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["code"] == "bad_seat"
    assert error["message"] == "7 不是这桌的座位（0–3）。"


def test_a_win_without_a_pass_is_rejected_with_needs_dou(client):
    record = example("E1")
    record["seats"][0]["melds"] = [{"type": "pong", "tile": "9p", "from": 1}]

    response = post(client, record)

    assert response.status_code == 400
    assert "needs_dou" in codes(response)


# -- requests that are not a record ----------------------------------------------------------


@pytest.mark.parametrize("body", ["{", "{'preset': 'guiyang'}", " ", "[1,]", "NaN", "{\"stake\": Infinity}",
                                  "{\"stake\": 1e999}"])
def test_malformed_json_answers_400_bad_record(client, body):
    response = post(client, body)

    assert response.status_code == 400
    assert codes(response) == ["bad_record"]


def test_an_empty_body_answers_4xx(client):
    response = client.post(SETTLE)

    assert 400 <= response.status_code < 500
    assert response.json()["errors"]


def test_bytes_that_are_not_utf8_answer_400(client):
    response = post(client, b'{"preset": "\xff\xfe"}')

    assert response.status_code == 400
    assert codes(response) == ["bad_record"]


@pytest.mark.parametrize("value", [[], [E1], "E1", 1, 1.5, None, True])
def test_json_that_is_not_an_object_answers_400(client, value):
    response = post(client, value)

    assert response.status_code == 400
    assert codes(response) == ["bad_record"]


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
     "application/json; charset=latin-1", "application/jsonx"],
)
def test_a_body_that_is_not_json_answers_415(client, content_type):
    response = post(client, json.dumps(E1), content_type=content_type)

    assert response.status_code == 415
    assert codes(response) == ["bad_content_type"]


def test_json_with_an_explicit_utf8_charset_is_fine(client):
    response = post(client, example("E1"), content_type="application/json; charset=UTF-8")

    assert response.status_code == 200


@pytest.mark.parametrize("url", [SETTLE, RECEIPT])
@pytest.mark.parametrize("method", ["get", "put", "delete", "patch"])
def test_other_methods_answer_405_with_allow_post(client, url, method):
    response = getattr(client, method)(url)

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert codes(response) == ["bad_method"]


@pytest.mark.parametrize("url", [SETTLE, RECEIPT])
def test_a_body_over_the_upload_cap_answers_413(client, settings, url):
    record = example("E1")
    record["padding"] = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)

    response = post(client, record, url=url)

    assert response.status_code == 413
    assert codes(response) == ["too_large"]


def test_a_nested_list_bomb_answers_400(client):
    depth = 100_000  # 200 kB of brackets, under the upload cap
    response = post(client, "[" * depth + "]" * depth)

    assert response.status_code == 400


def test_a_record_nested_deeper_than_any_record_answers_400(client):
    record = example("E1")
    nested = "东"
    for _ in range(200):
        nested = [nested]
    record["seats"][0]["name"] = nested

    response = post(client, record)

    assert response.status_code == 400


@pytest.mark.parametrize(
    "field, raw",
    [
        ("dealer", "1" + "0" * 4000),  # an int just under Python's 4300-digit limit
        ("dealer", "1" + "0" * 5000),  # over it: json refuses to read it
        ("dealer", "-1e999"),
        ("stake", "1e999"),
        ("stake", "1e-999"),
        ("stake", '"1e999999"'),
        ("turned", "123456789012345678901234567890"),
    ],
)
def test_huge_numbers_answer_400(client, field, raw):
    record = example("E1")
    record[field] = "@@"
    body = json.dumps(record).replace('"@@"', raw)

    response = post(client, body)

    assert response.status_code == 400


@pytest.mark.parametrize("name", ["东\x00", "\x00", "a\x00b"])
def test_a_nul_character_answers_400(client, name):
    record = example("E1")
    record["seats"][0]["name"] = name

    response = post(client, record)

    assert response.status_code == 400
    assert codes(response) == ["bad_record"]


def test_a_lone_surrogate_answers_400(client):
    body = json.dumps(E1).replace('"name": "\\u4e1c"', '"name": "\\ud800"')
    assert "\\ud800" in body

    response = post(client, body)

    assert response.status_code == 400
    assert codes(response) == ["bad_record"]


def test_a_lone_surrogate_in_a_tile_answers_400(client):
    body = json.dumps(E1).replace('"turned": "5m"', '"turned": "\\udfff"')

    response = post(client, body)

    assert response.status_code == 400


# -- fuzzing: any JSON gets 200 or 4xx, and every 200 sums to zero ---------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=25,
)


def paths_of(value, prefix=()):
    """Every key path into a JSON value, parents before children."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths_of(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths_of(child, (*prefix, index))


E1_PATHS = [path for path in paths_of(E1) if path]
DROP = object()


def mutated(record, mutations):
    """`record` with each (path, value) applied: the key dropped, or its value replaced."""
    record = copy.deepcopy(record)
    for path, value in mutations:
        parent = record
        try:
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]]  # the path must still exist after earlier mutations
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(parent, (dict, list)):  # an earlier mutation made it a string
            continue
        if value is DROP:
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
    return record


tile_texts = st.text(alphabet="123456789mps ", max_size=20)
# Values a record really holds somewhere, so that more mutants stay valid and reach the scorer.
plausible = st.sampled_from(
    [None, True, False, 0, 1, 2, 3, "0.5", "2", "", "hard", "soft", "men", "dian", "zhuanwan", "pong",
     "draw", "win", "anshun", "xingyi", "1s", "5m", "9p"]
)
mutations = st.lists(
    st.tuples(st.sampled_from(E1_PATHS), st.just(DROP) | plausible | json_values | tile_texts),
    min_size=1, max_size=4,
)


def assert_answer_is_sound(response):
    event(f"status {response.status_code}")
    assert response.status_code == 200 or 400 <= response.status_code < 500, response.content[:300]
    if response.status_code == 200:
        body = response.json()
        assert sum(body["net"]) == 0
        assert [sum(row) - sum(col) for row, col in zip(body["matrix"], zip(*body["matrix"]))] == [
            -n for n in body["net"]
        ]
    else:
        assert response.json()["errors"]


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(value=json_values)
def test_any_json_value_answers_200_or_4xx(value):
    response = post(Client(), json.dumps(value))

    assert_answer_is_sound(response)


@FUZZ
@given(changes=mutations)
def test_any_mutation_of_a_valid_record_answers_200_or_4xx(changes):
    response = post(Client(), mutated(E1, changes))

    assert_answer_is_sound(response)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=mutations)
def test_any_mutation_posted_for_a_receipt_answers_a_pdf_or_4xx(changes):
    response = post(Client(), mutated(E1, changes), url=RECEIPT)

    assert response.status_code == 200 or 400 <= response.status_code < 500
    if response.status_code == 200:
        assert response.content.startswith(b"%PDF-")


def test_a_mei_jiao_seat_settles_as_if_its_hand_were_shown(client):
    shown = post(client, example("E1")).json()
    record = example("E1")
    record["seats"][2].update(concealed="", mei_jiao=True)  # 西: 没叫（没亮牌）

    response = post(client, record)

    assert response.status_code == 200
    assert response.json()["items"] == shown["items"] and response.json()["net"] == shown["net"]
    assert response.json()["hands"][2]["status"] == "not_ready"


def test_mei_jiao_is_refused_where_a_not_ready_seat_collects(client):
    record = example("E1")
    record["options"] = {"chicken_collectors": "all"}
    record["seats"][2].update(concealed="", mei_jiao=True)

    response = post(client, record)

    assert response.status_code == 400
    assert codes(response) == ["bad_mei_jiao"]


def test_the_api_reads_first_draw_for_tian_hu_di_hu(client):
    # E2 with its self-draw recorded as seat 1's first draw (地胡, R62) and 地胡 worth 23: each
    # other seat pays 23 instead of 清大对 15 + 1 = 16, so 7 more each: [−29−7, 59+21, −1−7, −29−7].
    record = example("E2")
    record["outcome"]["first_draw"] = True
    record["options"] = {"di_hu": 23}

    body = post(client, record).json()

    assert body["net"] == [-36, 80, -8, -36]
    assert [(i["payer"], i["points"], i["rule"]) for i in body["items"] if i["reason"] == "hu.self_draw"] == [
        (0, 23, "R62"), (2, 23, "R62"), (3, 23, "R62")]


def test_first_draw_on_a_discard_win_is_a_bad_outcome(client):
    record = example("E1")
    record["outcome"]["first_draw"] = True

    response = post(client, record)

    assert response.status_code == 400
    assert "bad_outcome" in codes(response)


def test_the_api_reads_kai_ju_gen(client):
    # E5 (荒庄, net [20, 2, −11, −11], dealer seat 1) with 开局跟 worth 4 (R63): the dealer pays each
    # other seat 4, so [20 + 4, 2 − 12, −11 + 4, −11 + 4].
    record = example("E5")
    record["kai_ju_gen"] = True
    record["options"] = {**record.get("options", {}), "gen_zhuang": 4}

    body = post(client, record).json()

    assert body["net"] == [24, -10, -7, -7]
    assert [(i["payer"], i["payee"], i["points"]) for i in body["items"] if i["rule"] == "R63"] == [
        (1, 0, 4), (1, 2, 4), (1, 3, 4)]


# -- what did not count, and which tiles were chickens ------------------------------------------


def test_the_settlement_says_what_did_not_count_with_its_seat_reason_and_words(client):
    body = post(client, example("E1")).json()  # 北 is not ready: its 冲锋鸡 and its 1 point of 鸡 pay nothing

    assert body["void"] == [
        {"code": "chong_feng", "seat": 3, "why": "not_ready", "text": "北 的冲锋鸡不算：没叫"},
        {"code": "ji", "seat": 3, "why": "not_ready", "points": 1, "text": "北 的鸡（1 番）不算：没叫"},
    ]
    hot = post(client, example("E3")).json()["void"]  # 热炮 on 北's 闷豆 5筒
    assert {"code": "dou", "seat": 3, "why": "hot_kong", "kind": "men", "tile": "5p",
            "text": "北 的闷豆 5筒不算：热炮的杠不算豆"} in hot
    assert post(client, example("E2")).json()["void"] == []  # everything counted


def test_the_settlement_names_every_tile_that_was_a_chicken(client):
    assert post(client, example("E1")).json()["chickens"] == [  # 翻牌 5万 makes 6万
        {"tile": "6m", "kind": "turned", "gold": False}, {"tile": "1s", "kind": "yaoji", "gold": False}]
    assert post(client, example("E2")).json()["chickens"] == [  # 翻牌 9条 makes 1条 金鸡
        {"tile": "1s", "kind": "yaoji", "gold": True}]
    assert post(client, example("E6")).json()["chickens"] == [  # 安顺 swings: 翻牌 2条 makes 1条 and 3条
        {"tile": "1s", "kind": "yaoji", "gold": True}, {"tile": "3s", "kind": "turned", "gold": False}]


def test_under_chui_feng_no_tile_is_a_chicken_and_the_void_says_why(client):
    record = example("E7")  # 翻牌 4筒 in 兴义; turned 5筒 instead, with 吹风鸡 played
    record["turned"], record["options"] = "5p", {"chui_feng": True}

    body = post(client, record).json()

    assert body["chickens"] == []
    assert {"code": "chui_feng", "seat": None, "why": "chui_feng", "tile": "5p",
            "text": "翻牌 5筒 是吹风鸡：这局的鸡都不算"} in body["void"]
