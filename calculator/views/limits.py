"""Anonymous work that costs: a client (by its IP address) may open so many evenings and import
so many files in a while (settings.RATE_LIMITS), then is asked to wait (429).

The count lives in Django's cache: with the default per-process cache each gunicorn worker
counts on its own; DJANGO_CACHE_DIR (a file cache, as `bin/run --table` sets) shares it.
"""
from __future__ import annotations

import time
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render


def client_address(request) -> str:
    """The client's IP: the peer's, or behind a proxy the one the proxy appended last (the
    addresses before it are the client's own word)."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return request.META.get("REMOTE_ADDR", "")


def over_limit(scope: str, request) -> int:
    """Count this request against `scope`'s limit: 0 when within it, else the seconds to wait."""
    limit = settings.RATE_LIMITS.get(scope)
    if not limit:
        return 0
    count, seconds = limit
    window = int(time.time() // seconds)
    key = f"zhuoji-rate:{scope}:{client_address(request)}:{window}"
    cache.add(key, 0, timeout=seconds)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        cache.set(key, 1, timeout=seconds)
        used = 1
    return 0 if used <= count else int((window + 1) * seconds - time.time()) + 1


def rate_limited(scope: str):
    """A view decorator: POSTs over `scope`'s limit are answered 429, with Retry-After."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            wait = over_limit(scope, request) if request.method == "POST" else 0
            if wait:
                response = render(request, "429.html", {"minutes": max(1, round(wait / 60))}, status=429)
                response["Retry-After"] = str(wait)
                return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
