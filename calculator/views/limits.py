"""Anonymous work that costs: a phone may open so many evenings and import so many files in a
while, an address (a club's NAT, a script) ten phones' worth, and an evening may record so many
rounds (settings.RATE_LIMITS); past any of its counters a request is asked to wait (429).

A phone is its device cookie (calculator/middleware.device_cookie); a client that keeps no
cookie is counted by its address, on a phone's budget. The counts live in Django's cache: with
REDIS_URL every server shares them; with the default per-process cache each gunicorn worker
counts on its own; DJANGO_CACHE_DIR (a file cache, as `bin/run --table` sets) shares them on one
machine.
"""
from __future__ import annotations

import re
import time
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render

from ..middleware import DEVICE_COOKIE

DEVICE_NAME = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what device_cookie gives; anything else is no name


def client_address(request) -> str:
    """The client's IP: the peer's, or behind a proxy the one the proxy appended last (the
    addresses before it are the client's own word)."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return request.META.get("REMOTE_ADDR", "")


def _who(counter: str, request, evening) -> str | None:
    """What `counter` counts this request as, or None when it does not apply."""
    address = client_address(request)
    if counter == "address":
        return address
    if counter == "device":
        device = request.COOKIES.get(DEVICE_COOKIE, "")
        return device if DEVICE_NAME.fullmatch(device) else f"address-{address}"
    if counter == "evening":
        return None if evening is None else str(evening.pk)
    raise ValueError(f"unknown rate counter {counter!r}")


def _used(key: str, seconds: int) -> int:
    cache.add(key, 0, timeout=seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        cache.set(key, 1, timeout=seconds)
        return 1


def over_limit(scope: str, request, evening=None) -> int:
    """Count this request against each of `scope`'s counters: 0 when within all of them, else
    the seconds to wait for the one it is over."""
    wait = 0
    for counter, (count, seconds) in settings.RATE_LIMITS.get(scope, {}).items():
        who = _who(counter, request, evening)
        if who is None:
            continue
        window = int(time.time() // seconds)
        if _used(f"zhuoji-rate:{scope}:{counter}:{who}:{window}", seconds) > count:
            wait = max(wait, int((window + 1) * seconds - time.time()) + 1)
    return wait


def rate_limited(scope: str):
    """A view decorator: POSTs over `scope`'s limit are answered 429, with Retry-After. Under
    `editing`, whose views take the evening first, the evening's own counter applies too."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            evening = args[0] if args else None
            wait = over_limit(scope, request, evening) if request.method == "POST" else 0
            if wait:
                response = render(request, "429.html", {"minutes": max(1, round(wait / 60))}, status=429)
                response["Retry-After"] = str(wait)
                return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
