"""Heavy work off the request path, once per state of an evening (issue 23): the report PDF and the
whole-evening 换个规矩看看.

Both are Django tasks (the `django-tasks` backport of Django 6's tasks API). A page asks
`once_per_state` for the result of its evening's current state: a cache hit is served at once;
otherwise the first request to claim that state (an atomic `cache.add`) enqueues one task, and
every other request, from either address, waits for the same result. What runs the task is
settings.TASKS:
- the default (`bin/run`, no worker): the ImmediateBackend runs it inside `enqueue`, so the result
  is there before the page is drawn, as before;
- ZHUOJI_TASKS=db: the DatabaseBackend (django-tasks-db) queues it in the database and
  `manage.py db_worker` runs it; the page says 正在生成… and refreshes itself until the result is
  in the cache (which therefore must be one the worker shares: Redis or the file cache).
The task writes its result under the key of the state it read itself, so a result never sits
under a state it was not made from.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import logging
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.filebased import FileBasedCache
from django.utils import translation
from django_tasks import task

logger = logging.getLogger(__name__)

RESULT_SECONDS = 7 * 24 * 3600
# How long a claimed state waits for its task before another request may enqueue it again: a
# worker killed mid-render never finishes it. Longer than any render (300 rounds ≈ 10 s alone,
# 40 s on a loaded machine) plus a queue's wait.
CLAIM_SECONDS = 10 * 60
# A render that raised: the page says so for this long instead of queuing it again at once.
FAILED_SECONDS = 60


@dataclass(frozen=True)
class Pending:
    """No result yet: a task is queued or running (`failed` False), or the last one raised."""

    failed: bool = False


# -- the keys: one per evening state (and language, and for the what-if the other rules) ---------


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


def report_key(evening, language: str) -> str:
    from . import selectors

    return f"zhuoji-report:{selectors.evening_report_version(evening=evening)}:{language}"


def what_if_key(evening, rules: dict, language: str) -> str:
    from . import selectors

    state = (selectors.evening_report_version(evening=evening), evening.rules,
             selectors.evening_names(evening=evening), selectors.evening_stake_text(evening=evening))
    return f"zhuoji-what-if:{evening.pk}:{_digest(state, rules)}:{language}"


# -- claiming a state --------------------------------------------------------------------------


@contextmanager
def _across_processes():
    """Django's file cache checks and then writes in `add`: under a lock file in its folder, two
    workers of `bin/run --table` cannot both claim one state. Redis's SET NX and the per-process
    cache's own lock are atomic already."""
    backend = caches["default"]
    if not isinstance(backend, FileBasedCache):
        yield
        return
    with open(Path(backend._dir) / "zhuoji-claims.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _claim(key: str) -> bool:
    with _across_processes():
        return cache.add(f"{key}:claimed", True, CLAIM_SECONDS)


def once_per_state(key: str, job, *args) -> Any:
    """The result stored under `key`, or Pending. The first request for a state that has none
    enqueues `job(*args, claimed=key)`; with the immediate backend that runs it here and now."""
    found = cache.get(key)
    if found is not None:
        return found
    if cache.get(f"{key}:failed"):
        return Pending(failed=True)
    if _claim(key):
        # A task for this state may have finished between the look above and the claim (it
        # stores its result, then frees the claim): look again before queuing a second one.
        found = cache.get(key)
        if found is not None:
            cache.delete(f"{key}:claimed")
            return found
        job.enqueue(*args, claimed=key)
        found = cache.get(key)
        if found is not None:
            return found
        if cache.get(f"{key}:failed"):
            return Pending(failed=True)
    return Pending()


def _run_once(claimed: str, key_of: Callable[[], str], make: Callable[[], Any]) -> None:
    """The body of every task here: make the result, keep it under the key of the state it was
    made from (read before it), and free the claim either way."""
    try:
        key = key_of()
        value = make()
        cache.set(key, value, RESULT_SECONDS)
    except Exception:
        cache.set(f"{claimed}:failed", True, FAILED_SECONDS)
        raise
    finally:
        cache.delete(f"{claimed}:claimed")


# -- the tasks ---------------------------------------------------------------------------------


def _evening(evening_id: int):
    from .models import Evening

    return Evening.objects.get(pk=evening_id)


@task()
def render_report(evening_id: int, language: str, *, claimed: str) -> None:
    """The evening report PDF, for the evening as it is now."""
    from .pdf import render_report_pdf

    with translation.override(language):
        evening = _evening(evening_id)
        _run_once(claimed, lambda: report_key(evening, language), lambda: render_report_pdf(evening))


@task()
def evening_what_if(evening_id: int, rules: dict, language: str, *, claimed: str) -> None:
    """今晚按兴义算: every round of the evening scored again under `rules` (a RuleSet's dict)."""
    from . import selectors
    from .scoring import ruleset_from_dict

    with translation.override(language):
        evening = _evening(evening_id)
        _run_once(claimed, lambda: what_if_key(evening, rules, language),
                  lambda: selectors.evening_what_if(evening=evening, rules=ruleset_from_dict(rules)))


# -- what the views ask ------------------------------------------------------------------------


def evening_report(evening) -> bytes | Pending:
    language = translation.get_language()
    return once_per_state(report_key(evening, language), render_report, evening.pk, language)


def evening_what_if_sides(evening, rules):
    """The evening under `rules` (presentation.what_if.EveningSides), or Pending."""
    language = translation.get_language()
    asked = rules.to_dict()
    return once_per_state(what_if_key(evening, asked, language), evening_what_if, evening.pk, asked, language)
