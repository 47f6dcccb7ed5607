"""The address is the permission: /e/<token>/ may change an evening, /v/<read_token>/ may only
look. `editing` and `reading` look the evening up by its address (404 if unknown) and keep every
page of it private; the helpers below are what every evening view shares.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from .. import selectors
from ..models import Evening, Round, Table

ME_SESSION_KEY = "zhuoji-me"
def refused(response: HttpResponse) -> HttpResponse:
    """A submitted form that was not saved comes back with its problems shown, as 400."""
    response.status_code = 400
    return response


def private(response: HttpResponse) -> HttpResponse:
    """Evening pages are reached by secret address: keep them out of shared caches and search
    engines. `private` forbids any shared cache (a proxy, a CDN) to keep the page; `no-cache` makes
    the phone's own browser ask again before reusing it, while still letting Back and Forward
    restore the page at once (`no-store` kept every evening page out of the back/forward cache)."""
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Cookie"])
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _by_address(kwarg: str, find, missing: type[Exception] = Evening.DoesNotExist):
    """A view decorator: look the evening (or table) up by the address in `kwarg` (404 if unknown)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            try:
                evening = find(kwargs.pop(kwarg))
            except missing:
                raise Http404 from None
            return private(view(request, evening, *args, **kwargs))

        return wrapper

    return decorator


def _by_either_address(edit: tuple[str, object], read: tuple[str, object], missing: type[Exception]):
    """A view decorator for a page both addresses show: one view, routed from the edit address
    (`edit`: its URL kwarg and look-up) and from the read-only one (`read`), called with
    `read_only` saying which it came by; the page offers nothing that changes anything when it
    is True. One view per page, instead of a twin per address (issue 22)."""
    (edit_kwarg, edit_find), (read_kwarg, read_find) = edit, read

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            read_only = read_kwarg in kwargs
            kwarg, find = (read_kwarg, read_find) if read_only else (edit_kwarg, edit_find)
            try:
                found = find(kwargs.pop(kwarg))
            except missing:
                raise Http404 from None
            return private(view(request, found, *args, read_only=read_only, **kwargs))

        return wrapper

    return decorator


def _find_evening(token):
    return selectors.evening_for_editing(token=token)


def _follow_evening(token):
    return selectors.evening_for_reading(read_token=token)


def _find_table(token):
    return selectors.table_for_editing(token=token)


def _follow_table(token):
    return selectors.table_for_reading(read_token=token)


# /e/<token>/ may change the evening; /v/<read_token>/ may only look.
editing = _by_address("token", _find_evening)
reading = _by_address("read_token", _follow_evening)
viewing = _by_either_address(("token", _find_evening), ("read_token", _follow_evening), Evening.DoesNotExist)
# A 固定桌 likewise: /t/<token>/ may change it (and open its evenings), /tv/<read_token>/ may look.
table_editing = _by_address("table_token", _find_table, Table.DoesNotExist)
table_reading = _by_address("table_read_token", _follow_table, Table.DoesNotExist)
table_viewing = _by_either_address(("table_token", _find_table), ("table_read_token", _follow_table),
                                   Table.DoesNotExist)

# The read-only address's name for each page both addresses show (calculator/urls.py).
READ_ONLY_URL_NAMES = {
    "evening_detail": "evening_follow",
    "evening_round": "evening_follow_round",
    "evening_report_pdf": "evening_follow_report_pdf",
    "evening_rules": "evening_follow_rules",
    "evening_what_if": "evening_follow_what_if",
    "evening_round_what_if": "evening_follow_round_what_if",
    "table_season": "table_follow",
    "table_figure": "table_follow_figure",
    "table_csv": "table_follow_csv",
    "table_share_card": "table_follow_share_card",
}


def address_url(name: str, owner, *args, read_only: bool) -> str:
    """The URL of page `name` (its edit address's URL name) of an evening or a table, at the
    address the page was reached by: the read-only one never leads to the edit address."""
    if read_only:
        return reverse(f"calculator:{READ_ONLY_URL_NAMES[name]}", args=[owner.read_token, *args])
    return reverse(f"calculator:{name}", args=[owner.token, *args])


class RoundDeleted(Exception):
    """The round was there and someone deleted it (views/errors.py takes the loser of that race
    to the evening, and says so, instead of a bare 404)."""

    def __init__(self, evening: Evening, number: int):
        super().__init__(f"round {number} was deleted")
        self.evening, self.number = evening, number


def round_or_404(evening: Evening, number: int) -> Round:
    try:
        return selectors.round_get(evening=evening, number=number)
    except Round.DoesNotExist:
        if selectors.round_was_deleted(evening=evening, number=number):
            raise RoundDeleted(evening, number) from None
        raise Http404 from None


def live_round(request, evening: Evening, number: int, context_of) -> HttpResponse:
    """A stored round's page, or for its htmx poll only the seats' words: 204 while the `since`
    it sends is still the round's state; the words when only they changed; a whole reload when the
    round was corrected or deleted (its breakdown changed, or it is gone). `context_of(round_)`
    gives the page's context."""
    since = request.GET.get("since") if request.htmx else None
    try:
        round_ = round_or_404(evening, number)
    except RoundDeleted:
        if since is None:
            raise
        return _reload()
    version = selectors.round_live_version(round_)
    if since is not None:
        if since == version:
            return HttpResponse(status=204)
        if since.split(".")[0] != str(round_.version):
            return _reload()
    context = {**context_of(round_), "live_version": version}
    template = "calculator/partials/_round_words_live.html" if since is not None else "calculator/evening/round_detail.html"
    return render(request, template, context)


def _reload() -> HttpResponse:
    response = HttpResponse()
    response["HX-Refresh"] = "true"  # htmx reloads the page: the round was corrected or deleted
    return response


def me(request, evening: Evening) -> str:
    """The name this phone said it belongs to, for the history's "who" (R42)."""
    seat = request.session.get(ME_SESSION_KEY, {}).get(str(evening.pk))
    names = selectors.evening_names(evening=evening)
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


def base_context(request, evening: Evening) -> dict:
    return {"evening": evening, "token": evening.token, "me": me(request, evening)}


def address_context(request, evening: Evening, *, read_only: bool) -> dict:
    """What every page of the evening shows, at the address it was reached by: the read-only
    address never puts the edit address (`token`) or 我是… in a page."""
    return {"evening": evening, "read_only": True} if read_only else base_context(request, evening)


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# -- validators: a reopened page that has not changed is a 304 ---------------------------------


@cache
def release() -> str:
    """Names this copy of the app (its code, templates, translations and static files), so that a
    deploy never answers 304 for a page the new templates would draw differently."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder, pattern in (("calculator", "*.py"), ("templates", "*"), ("locale", "*.mo"), ("static", "*")):
        for path in sorted((base / folder).rglob(pattern)):
            if path.is_file():
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def page_etag(request, state: tuple) -> str | None:
    """An ETag for a whole evening page: `state` (the evening's versions, as the view reads them)
    and everything else the page shows that is not in its address: this browser's CSRF cookie
    (the forms carry a token made from it: another phone, or this one after its cookie changed,
    never gets this copy), whose phone it is (我是…), the language and the release. None — no
    validator, no 304 — for an htmx request (the polls answer 204 themselves) or while a message
    waits to be shown (a 304 would keep it from the page)."""
    if request.htmx or len(get_messages(request)):
        return None
    seen = [release(), request.resolver_match.view_name if request.resolver_match else "", request.get_full_path(),
            get_language(), request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""), list(state)]
    return quote_etag(hashlib.sha256(json.dumps(seen, default=str).encode()).hexdigest()[:32])


def unless_unchanged(request, state: tuple, draw: Callable[[], HttpResponse]) -> HttpResponse:
    """304 Not Modified when the browser's copy of this page (If-None-Match) is still what `draw`
    would give; else the page, with its ETag."""
    etag = page_etag(request, state) if request.method == "GET" else None
    if etag is None:
        return draw()
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        return unchanged
    response = draw()
    if response.status_code == 200:
        response["ETag"] = etag
    return response


def evening_state(evening: Evening) -> tuple:
    """What any page of the evening may show, as versions: its own fields, the names, the
    rounds, the seats' words, the payments and the draft being entered."""
    return (evening.title, evening.rules_name, evening.rules, str(evening.stake),
            str(evening.table) if evening.table_id else "", selectors.evening_names(evening=evening), selectors.evening_report_version(evening=evening),
            selectors.draft_mark(evening=evening))
