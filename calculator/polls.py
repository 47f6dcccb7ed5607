"""Polls that cost no database while nothing changed (issue 23).

Four phones poll their evening every 2–5 s; almost every answer is "nothing new" (204). Each
evening has a generation in the cache that every committed write to it moves (the model signals
below). A poll view wrapped in `answered_from_cache` remembers each 204 it gave, with the
generation read before the view looked at the database; the same question while that
generation holds is answered 204 from the cache, without the view, its address look-up or any
query. A write that commits after the view read the database moves the generation, so a
remembered answer can never hide it. The cache must be one every process sees (Redis with
several servers, REDIS_URL; the file cache of `bin/run --table`): settings.POLL_ANSWERS_FROM_CACHE
is off with the per-process default and several gunicorn workers, where a write in one worker
would not move what another answers from.
"""
from __future__ import annotations

import hashlib
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse

GENERATION = "zhuoji-gen:{pk}"
ADDRESS = "zhuoji-address:{token}"  # an address's evening: addresses never change
ANSWER = "zhuoji-poll:{name}:{token}:{question}"
ANSWER_SECONDS = 300  # a bound on any surprise, e.g. a generation the cache evicted
IGNORED = {"draft_client"}  # says which page asks, not what it knows
ASKS_SINCE = ("since", "draft_base")  # the version a poll has: the evening's and a round's, the draft's


def _bump(evening_id: int) -> None:
    key = GENERATION.format(pk=evening_id)
    cache.add(key, 0, timeout=None)
    try:
        cache.incr(key)
    except ValueError:  # evicted between add and incr: any new value differs from what was read
        cache.set(key, 1, timeout=None)


def evening_changed(evening_id: int | None) -> None:
    """Move the evening's generation now and again once the write commits: a poll that read
    the database between the two saw the old state, and the second move undoes its answer."""
    if evening_id is not None:
        _bump(evening_id)
        transaction.on_commit(lambda: _bump(evening_id))


def _evening_of(instance) -> int | None:
    from .models import Evening

    if isinstance(instance, Evening):
        return instance.pk
    if hasattr(instance, "evening_id"):
        return instance.evening_id
    try:
        return instance.round.evening_id  # a 确认 / 有异议
    except ObjectDoesNotExist:  # deleted with its round, whose own signal moves the generation
        return None


def _on_write(sender, instance, **kwargs):
    evening_changed(_evening_of(instance))


def connect() -> None:
    """Every model an evening's pages show (CalculatorConfig.ready)."""
    from .models import Change, Evening, PaidTransfer, Player, Round, RoundConfirmation, RoundDraft

    for model in (Evening, Player, Round, RoundDraft, RoundConfirmation, Change, PaidTransfer):
        post_save.connect(_on_write, sender=model, dispatch_uid=f"zhuoji-poll-{model.__name__}")
        post_delete.connect(_on_write, sender=model, dispatch_uid=f"zhuoji-poll-{model.__name__}-del")


def _question(request) -> str | None:
    """What a poll asks, as one string; None for a request that is not a poll."""
    if not any(name in request.GET for name in ASKS_SINCE):
        return None
    asked = sorted((k, v) for k, values in request.GET.lists() if k not in IGNORED for v in values)
    text = f"{request.path}|{request.headers.get('HX-Request', '')}|{asked}"  # rounds share a token
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _evening_id(token: str) -> int | None:
    from .models import Evening

    key = ADDRESS.format(token=hashlib.sha256(token.encode()).hexdigest()[:32])
    found = cache.get(key)
    if found is None:
        found = Evening.objects.filter(Q(token=token) | Q(read_token=token)).values_list("pk", flat=True).first()
        if found is not None:
            cache.set(key, found, timeout=None)
    return found


def answered_from_cache(name: str, *, wrap_answer=lambda response: response):
    """A decorator for a poll view above its `editing` / `reading`: see the module's docstring.
    `wrap_answer` dresses a 204 from the cache as the view's own would be (private headers)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            shared = settings.POLL_ANSWERS_FROM_CACHE  # a cache all processes see (settings)
            question = _question(request) if request.method == "GET" and shared else None
            token = kwargs.get("token") or kwargs.get("read_token") or ""
            if question is None:
                return view(request, *args, **kwargs)
            key = ANSWER.format(name=name, token=hashlib.sha256(token.encode()).hexdigest()[:32], question=question)
            remembered = cache.get(key)
            if remembered is not None and cache.get(GENERATION.format(pk=remembered[0])) == remembered[1]:
                return wrap_answer(HttpResponse(status=204))
            evening_id = _evening_id(token)
            generation = cache.get(GENERATION.format(pk=evening_id)) if evening_id is not None else None
            response = view(request, *args, **kwargs)
            if response.status_code == 204 and evening_id is not None:
                cache.set(key, (evening_id, generation), ANSWER_SECONDS)
            return response

        return wrapper

    return decorator
