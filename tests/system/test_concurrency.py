"""Four phones at one table tap at once (issue 5): nothing lost, nothing twice, no silent overwrite.

These tests use real threads with committed transactions, so they need a database that takes
concurrent writers: they run in bin/test's PostgreSQL run and are skipped on SQLite (its
in-memory test database answers a second writer with "database table is locked").

- `round_record` locks the evening row and numbers the round max + 1; the database's unique
  (evening, number) and (evening, idempotency_key) constraints stand behind it.
- A double-tapped submit carries the same idempotency key, so it finds the first round.
- `round_correct` compares the version the form was based on, under the same lock.

The loopback load run posts the real round form over HTTP to a server on 127.0.0.1, with
dropped connections and retries; ZHUOJI_LOAD=8x100 sets its size (default 8x25).
"""
from __future__ import annotations

import http.client
import json
import os
import re
import threading
import time
import uuid
from collections import Counter
from urllib.parse import urlencode

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.testcases import LiveServerThread
from django.urls import reverse

from calculator import selectors, services
from calculator.models import Change, Round
from calculator.scoring import format_tiles, parse_tiles
from tests.factories import GUIYANG_FOUR, example_record, expected_net, make_evening, record_rounds
from tests.round_form_data import record_to_post_data

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("real concurrent writers need PostgreSQL (bin/test runs these in its second run)")


def together(count: int, work, *, timeout: float = 60) -> list:
    """Run work(0) … work(count - 1) in `count` threads released at the same instant by a
    barrier. Returns their results in order, or raises the first error a thread met. Each
    thread closes its own database connection when it is done."""
    barrier = threading.Barrier(count)
    results: list = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = work(index)
        except BaseException as error:  # noqa: BLE001 - handed to the main thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "a thread is still running: a deadlock?"
    if errors:
        raise errors[0]
    return results


def example_for(index: int) -> str:
    return GUIYANG_FOUR[index % len(GUIYANG_FOUR)]


def assert_rounds_are_exactly(evening, keys: list[uuid.UUID], examples: list[str]) -> None:
    """Every key's round is stored once, numbered 1…N without a gap, with its history line,
    and the totals are the sum of exactly those rounds."""
    rounds = list(Round.objects.filter(evening=evening).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, len(keys) + 1))
    assert Counter(r.idempotency_key for r in rounds) == Counter(keys)
    created = Change.objects.filter(evening=evening, kind=Change.CREATED)
    assert sorted(created.values_list("round_number", flat=True)) == [r.number for r in rounds]
    expected = [sum(col) for col in zip(*(expected_net(name) for name in examples))]
    assert selectors.evening_total_points(evening=evening) == expected


# -- the services, from many threads -----------------------------------------------------------


def test_rounds_recorded_at_once_from_eight_phones_are_all_kept_and_numbered_once():
    evening = make_evening()
    phones, each = 8, 10
    keys = [[uuid.uuid4() for _ in range(each)] for _ in range(phones)]

    def phone(p: int) -> list[int]:
        return [services.round_record(evening=evening, record=example_record(example_for(p + i)),
                                      idempotency_key=key).number
                for i, key in enumerate(keys[p])]

    numbers = together(phones, phone)

    assert sorted(n for ns in numbers for n in ns) == list(range(1, phones * each + 1))
    assert all(ns == sorted(ns) for ns in numbers)  # each phone's rounds in the order it sent them
    assert_rounds_are_exactly(evening, [k for ks in keys for k in ks],
                              [example_for(p + i) for p in range(phones) for i in range(each)])


def test_a_second_writer_waits_for_the_evening_lock_instead_of_racing():
    """Deterministic: while a transaction that recorded a round is still open, a second
    round_record blocks on the evening row, and then numbers its round after the first."""
    evening = make_evening()
    recorded, release, second_done = threading.Event(), threading.Event(), threading.Event()

    def holder() -> int:
        with transaction.atomic():
            number = services.round_record(evening=evening, record=example_record("E1")).number
            recorded.set()
            release.wait(10)
        return number

    def second() -> int:
        recorded.wait(10)
        number = services.round_record(evening=evening, record=example_record("E2")).number
        second_done.set()
        return number

    def watcher() -> bool:
        recorded.wait(10)
        still_waiting = not second_done.wait(0.5)
        release.set()
        return still_waiting

    first, then, second_waited = together(3, lambda i: (holder, second, watcher)[i]())

    assert second_waited, "round_record did not wait for the lock held by the open transaction"
    assert (first, then) == (1, 2)


def test_a_double_tap_sent_at_once_records_one_round():
    evening = make_evening()
    key = uuid.uuid4()

    rounds = together(6, lambda i: services.round_record(
        evening=evening, record=example_record("E1"), idempotency_key=key))

    assert len({r.pk for r in rounds}) == 1
    assert Round.objects.filter(evening=evening).count() == 1
    assert Change.objects.filter(evening=evening).count() == 1


def test_two_corrections_from_the_same_version_one_is_saved_the_other_is_told():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])
    contenders = ["E2", "E3", "E4", "E5"]

    def correct(i: int):
        try:
            return services.round_correct(round=round_, record=example_record(contenders[i]),
                                          expected_version=1)
        except services.RoundVersionConflict as conflict:
            return conflict

    outcomes = together(len(contenders), correct)

    saved = [(i, o) for i, o in enumerate(outcomes) if isinstance(o, Round)]
    refused = [o for o in outcomes if isinstance(o, services.RoundVersionConflict)]
    assert len(saved) == 1 and len(refused) == len(contenders) - 1
    winner, _round = saved[0]
    stored = Round.objects.get(pk=round_.pk)
    assert stored.version == 2 and stored.net == expected_net(contenders[winner])
    for conflict in refused:  # each loser is shown the round as the winner left it
        assert conflict.current.version == 2 and conflict.current.record == stored.record
    assert Change.objects.filter(evening=evening, kind=Change.CORRECTED).count() == 1


def test_a_correction_and_a_delete_at_once_one_of_them_happens():
    evening = make_evening()
    (round_,) = record_rounds(evening, ["E1"])

    def act(i: int):
        try:
            if i == 0:
                return services.round_delete(round=round_, expected_version=1) or "deleted"
            return services.round_correct(round=round_, record=example_record("E2"), expected_version=1)
        except services.RoundVersionConflict as conflict:
            return conflict

    deleted, corrected = together(2, act)

    if deleted == "deleted":
        assert isinstance(corrected, services.RoundVersionConflict) and corrected.current is None
        assert not Round.objects.filter(pk=round_.pk).exists()
    else:
        assert isinstance(deleted, services.RoundVersionConflict) and deleted.current.version == 2
        assert Round.objects.get(pk=round_.pk).net == expected_net("E2")
    assert Change.objects.filter(evening=evening).exclude(kind=Change.CREATED).count() == 1


# -- the same through HTTP: the round form, posted by several phones ---------------------------


def form_url(name: str, evening, *args) -> str:
    return reverse(f"calculator:{name}", args=[evening.token, *args])


def round_form(example: str, key: uuid.UUID) -> dict:
    return {**record_to_post_data(example_record(example)), "idempotency_key": str(key)}


def test_phones_submitting_the_round_form_at_once_all_get_their_round():
    evening = make_evening()
    keys = [uuid.uuid4() for _ in range(8)]

    responses = together(8, lambda i: Client().post(form_url("evening_round_new", evening),
                                                    round_form(example_for(i), keys[i])))

    assert [r.status_code for r in responses] == [302] * 8
    assert_rounds_are_exactly(evening, keys, [example_for(i) for i in range(8)])


def test_a_double_tapped_round_form_records_one_round():
    """The same form (same hidden idempotency key) sent by four taps at once, then once more."""
    evening = make_evening()
    data = round_form("E1", uuid.uuid4())
    url = form_url("evening_round_new", evening)

    responses = together(4, lambda i: Client().post(url, data))
    again = Client().post(url, data)

    assert [r.status_code for r in [*responses, again]] == [302] * 5
    assert Round.objects.filter(evening=evening).count() == 1
    assert Change.objects.filter(evening=evening).count() == 1


def test_two_people_confirming_corrections_at_once_the_second_sees_the_new_version():
    evening = make_evening()
    record_rounds(evening, ["E1"])
    contenders = ["E3", "E4"]
    hands = [example_record(name)["seats"][0]["concealed"] for name in contenders]
    concealed = [format_tiles(parse_tiles(hand)) for hand in hands]  # as stored: sorted
    assert concealed[0] != concealed[1]
    url = form_url("evening_round_edit_confirm", evening, 1)

    def confirm(i: int):
        client = Client()
        response = client.post(url, {"record": json.dumps(example_record(contenders[i])), "version": "1"})
        return client, response

    outcomes = together(2, confirm)

    detail, edit = form_url("evening_detail", evening), form_url("evening_round_edit", evening, 1)
    assert sorted(r["Location"] for _c, r in outcomes) == sorted([detail, edit])
    winner = next(i for i, (_c, r) in enumerate(outcomes) if r["Location"] == detail)
    loser_client, _response = outcomes[1 - winner]
    page = loser_client.get(edit).content.decode()
    assert "有人刚改过这一局" in page
    assert 'name="version" value="2"' in page
    assert f'value="{concealed[winner]}"' in page and f'value="{concealed[1 - winner]}"' not in page
    stored = Round.objects.get(evening=evening, number=1)
    assert stored.version == 2 and stored.net == expected_net(contenders[winner])


# -- the loopback load run: many phones, many rounds, dropped connections ---------------------


def load_size() -> tuple[int, int]:
    clients, rounds = os.environ.get("ZHUOJI_LOAD", "8x25").lower().split("x")
    return int(clients), int(rounds)


@pytest.fixture
def loopback_server(settings):
    """The app served by a threaded WSGI server on 127.0.0.1 only, stopped after the test."""
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    server = LiveServerThread("127.0.0.1", static_handler=lambda app: app)
    server.daemon = True
    server.start()
    server.is_ready.wait(10)
    if server.error:
        raise server.error
    yield server
    server.terminate()


class Phone:
    """One client: fetches the form once for its CSRF cookie and token, then posts rounds."""

    def __init__(self, port: int, path: str):
        self.port, self.path = port, path
        status, headers, body = self.request("GET", path)
        assert status == 200
        self.cookie = re.search(r"csrftoken=([^;]+)", " ".join(headers.get_all("Set-Cookie"))).group(1)
        self.token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
        self.latencies: list[float] = []

    def request(self, method: str, path: str, body: str | None = None, *, headers=None, drop=False):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            if drop:  # the network goes away after the request left: no answer is read
                return None
            response = conn.getresponse()
            return response.status, response.headers, response.read().decode()
        finally:
            conn.close()

    def post_round(self, example: str, key: uuid.UUID, *, drop: bool = False):
        data = {**record_to_post_data(example_record(example)), "idempotency_key": str(key),
                "csrfmiddlewaretoken": self.token}
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={self.cookie}"}
        started = time.perf_counter()
        answer = self.request("POST", self.path, urlencode(data, doseq=True), headers=headers, drop=drop)
        if not drop:
            self.latencies.append(time.perf_counter() - started)
        return answer


def test_load_run_on_loopback_loses_and_duplicates_nothing(loopback_server):
    """N phones × M rounds through the real round form over HTTP. Every fifth round the
    connection drops after sending and the phone sends it again; every seventh answer is
    "lost" and the phone sends it again. Each round must be stored exactly once."""
    clients, per_client = load_size()
    evening = make_evening()
    path = form_url("evening_round_new", evening)
    phones = [Phone(loopback_server.port, path) for _ in range(clients)]
    keys = [[uuid.uuid4() for _ in range(per_client)] for _ in range(clients)]
    # A saved round's own page comes first (its breakdown): the answer names the round recorded.
    saved_page = re.compile(re.escape(form_url("evening_detail", evening)) + r"rounds/(\d+)/$")
    shown: dict[uuid.UUID, int] = {}

    def run(c: int) -> int:
        phone, retries = phones[c], 0
        for i, key in enumerate(keys[c]):
            example = example_for(c + i)
            if i % 5 == 4:
                phone.post_round(example, key, drop=True)
                retries += 1
            status, headers, _body = phone.post_round(example, key)
            page = saved_page.match(headers.get("Location", ""))
            assert status == 302 and page, (status, headers.get("Location"), _body[:300])
            shown[key] = int(page[1])
            if i % 7 == 6:
                status, headers, _body = phone.post_round(example, key)
                assert (status, headers["Location"]) == (302, page[0])  # the same round, again
                retries += 1
        return retries

    started = time.perf_counter()
    retries = sum(together(clients, run, timeout=600))
    elapsed = time.perf_counter() - started

    assert_rounds_are_exactly(evening, [k for ks in keys for k in ks],
                              [example_for(c + i) for c in range(clients) for i in range(per_client)])
    assert shown == dict(Round.objects.filter(evening=evening).values_list("idempotency_key", "number"))
    latencies = sorted(t for phone in phones for t in phone.latencies)
    print(f"\nload run: {clients} clients x {per_client} rounds = {clients * per_client} rounds "
          f"(+{retries} resent) in {elapsed:.1f} s, {len(latencies) / elapsed:.0f} requests/s, "
          f"p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, "
          f"p95 {latencies[int(len(latencies) * 0.95)] * 1000:.0f} ms; every round stored exactly once")
