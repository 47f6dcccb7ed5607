"""The report PDF and the whole-evening 换个规矩看看 are made once per state of an evening by a task
(issue 23, calculator/tasks.py). Without a worker (the default, `bin/run`) the task runs inside
the request and the page is what it always was; with the database backend the page says 正在生成…,
refreshes itself without JS, and one task per state is queued however many phones ask, until the
worker (`manage.py db_worker`, run here through its own command) has put the result in the cache."""
from __future__ import annotations

import re
import threading

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from calculator import pdf as report_pdf
from calculator import services, tasks
from tests.factories import make_evening, record_rounds

DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
XINGYI = {"what_if-preset": "xingyi"}


def report_url(evening, *, follow: bool = False) -> str:
    if follow:
        return reverse("calculator:evening_follow_report_pdf", args=[evening.read_token])
    return reverse("calculator:evening_report_pdf", args=[evening.token])


def what_if_url(evening, *, follow: bool = False) -> str:
    if follow:
        return reverse("calculator:evening_follow_what_if", args=[evening.read_token])
    return reverse("calculator:evening_what_if", args=[evening.token])


def run_worker() -> None:
    """What `manage.py db_worker` does, until the queue is empty."""
    call_command("db_worker", "--batch", "--no-reload", "--no-startup-delay", "--interval", "0", verbosity=0)


def refresh_seconds(response) -> int | None:
    """The page's own refresh (a meta refresh: it works without JS), or None."""
    found = re.search(r'<meta http-equiv="refresh" content="(\d+)">', response.content.decode())
    return int(found[1]) if found else None


# -- without a worker: the task runs in the request --------------------------------------------


@pytest.mark.django_db
def test_without_a_worker_the_report_and_the_what_if_come_in_the_first_answer(client):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])
    response = client.get(report_url(evening))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    page = client.get(what_if_url(evening), XINGYI)
    assert page.status_code == 200 and "今晚按兴义算" in page.content.decode()
    assert refresh_seconds(page) is None and not DBTaskResult.objects.exists()


@pytest.mark.django_db
def test_a_render_that_fails_says_so_and_does_not_loop(client, monkeypatch):
    evening = make_evening()
    record_rounds(evening, ["E1"])

    def broken(evening):
        raise RuntimeError("font missing")

    monkeypatch.setattr(report_pdf, "render_report_pdf", broken)
    response = client.get(report_url(evening, follow=True))
    assert response.status_code == 503 and "这次没能生成" in response.content.decode()
    assert refresh_seconds(response) is None and response["Retry-After"] == "60"  # not into the same failure every 2 s
    monkeypatch.undo()
    assert client.get(report_url(evening, follow=True)).status_code == 503  # for a minute, not at once again


# -- with the database backend and a worker ----------------------------------------------------


@pytest.fixture
def db_tasks(settings):
    settings.TASKS = DB_TASKS


@pytest.mark.django_db(transaction=True)
def test_with_a_worker_the_report_is_made_once_and_the_page_waits_for_it(client, db_tasks):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2"])

    waiting = client.get(report_url(evening))
    assert waiting.status_code == 202 and "正在生成" in waiting.content.decode()
    assert refresh_seconds(waiting) == 2 and waiting["Retry-After"] == "2"
    assert client.get(report_url(evening, follow=True)).status_code == 202  # the other address waits too
    assert DBTaskResult.objects.count() == 1  # …for the same task

    run_worker()
    (done,) = DBTaskResult.objects.all()
    assert done.status == "SUCCESSFUL"
    first = client.get(report_url(evening))
    assert first.status_code == 200 and first.content.startswith(b"%PDF-")
    assert client.get(report_url(evening, follow=True)).content == first.content
    assert DBTaskResult.objects.count() == 1

    record_rounds(evening, ["E3"])  # a new state: a new render
    assert client.get(report_url(evening, follow=True)).status_code == 202
    run_worker()
    again = client.get(report_url(evening, follow=True))
    assert again.status_code == 200 and again.content != first.content
    assert DBTaskResult.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_with_a_worker_the_evening_what_if_is_made_once_per_state_and_rules(client, db_tasks):
    evening = make_evening()
    record_rounds(evening, ["E1", "E2", "E3"])

    waiting = client.get(what_if_url(evening, follow=True), XINGYI)
    text = waiting.content.decode()
    assert waiting.status_code == 202 and "正在生成" in text and refresh_seconds(waiting) == 2
    assert 'value="xingyi"' in text  # the rest of the page is there: another preset is one tap away
    run_worker()
    page = client.get(what_if_url(evening, follow=True), XINGYI)
    assert page.status_code == 200 and refresh_seconds(page) is None
    assert re.search(r"今晚按兴义算：老王 \+7 而不是 0", page.content.decode())
    assert client.get(what_if_url(evening), XINGYI).status_code == 200  # the edit address: the same result
    assert client.get(what_if_url(evening), {"what_if-preset": "anshun"}).status_code == 202  # other rules
    assert DBTaskResult.objects.count() == 2
    services.round_delete(round=evening.rounds.get(number=1))
    assert client.get(what_if_url(evening), XINGYI).status_code == 202  # the evening changed
    assert DBTaskResult.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_phones_asking_at_the_same_moment_queue_one_render(db_tasks, monkeypatch):
    """Both requests find no report and try to claim the state at the same moment (a barrier
    holds each just before its claim): one task is queued, and both are told to wait."""
    evening = make_evening()
    record_rounds(evening, ["E1"])
    both_here = threading.Barrier(2, timeout=30)
    real_claim = tasks._claim

    def claim_together(key):
        both_here.wait()
        return real_claim(key)

    monkeypatch.setattr(tasks, "_claim", claim_together)
    answers = []

    def ask():
        try:
            answers.append(Client().get(report_url(evening, follow=True)).status_code)
        finally:
            connection.close()

    phones = [threading.Thread(target=ask) for _ in range(2)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join(60)
    assert answers == [202, 202]
    assert DBTaskResult.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_render_that_finishes_while_a_phone_claims_is_not_queued_again(client, db_tasks, monkeypatch):
    """The worker stores its result and then frees the claim: a phone that looked before the
    result was there and claims after the claim was freed gets that result, not a second task."""
    evening = make_evening()
    record_rounds(evening, ["E1"])
    assert client.get(report_url(evening)).status_code == 202
    real_claim = tasks._claim

    def worker_finishes_first(key):
        run_worker()  # between this phone's look and its claim
        return real_claim(key)

    monkeypatch.setattr(tasks, "_claim", worker_finishes_first)
    monkeypatch.setattr(tasks.cache, "get", _first_miss(tasks.cache.get, tasks.report_key(evening, "zh-hans")))
    response = client.get(report_url(evening, follow=True))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    assert DBTaskResult.objects.count() == 1


def _first_miss(get, key):
    """cache.get that misses `key` once (the look before the worker stored it), then sees it."""
    missed = []

    def looking(asked, *args, **kwargs):
        if asked == key and not missed:
            missed.append(asked)
            return None
        return get(asked, *args, **kwargs)

    return looking
