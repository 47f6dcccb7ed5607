"""Failures said plainly, in the page's language: what went wrong and whether what the player
just did was saved.

- 503 (`database_unavailable`, a middleware): the database could not be reached or was busy too
  long (OperationalError, InterfaceError). Every write is one transaction, so a write that failed
  this way was not saved.
- a round deleted by another phone meanwhile (`access.RoundDeleted`): to the evening, told so.
- 500 (`server_error`, Django's handler500): anything else. A write may or may not have gone
  through before the failure, so the page says to look before entering it again.
Both render a standalone template that needs no database and none of the app's context.
"""
from __future__ import annotations

import logging

from django.contrib import messages
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template import loader
from django.utils.translation import gettext as _

from .access import RoundDeleted

log = logging.getLogger("django.request")

RETRY_AFTER = 30  # seconds: a database restart or a long write


def _page(status: int, title: str, saved: str, next_step: str) -> HttpResponse:
    html = loader.get_template("error_page.html").render({"title": title, "saved": saved, "next": next_step})
    return HttpResponse(html, status=status)


def _writing(request) -> bool:
    return request.method not in ("GET", "HEAD", "OPTIONS")


def database_unavailable(get_response):
    def middleware(request):
        return get_response(request)

    def process_exception(request, exception):
        if isinstance(exception, RoundDeleted):
            return _round_deleted(request, exception)
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.error("Database unavailable: %s %s", request.method, request.path, exc_info=exception)
        saved = (_("刚才的操作没有保存：数据库暂时连不上。") if _writing(request)
                 else _("数据库暂时连不上，这一页打不开。"))
        response = _page(503, _("请稍后再试"), saved, _("等半分钟再试一次；记过的局都还在。"))
        response["Retry-After"] = str(RETRY_AFTER)
        return response

    middleware.process_exception = process_exception
    return middleware


def _round_deleted(request, gone: RoundDeleted) -> HttpResponse:
    """To the evening (at the address the request came by: the read-only one stays read-only),
    saying the round was deleted meanwhile."""
    messages.warning(request, _("第{number}局已经被删了（别的手机刚删的），历史里还能看到。").format(number=gone.number))
    if request.path.startswith("/v/"):
        return redirect("calculator:evening_follow", read_token=gone.evening.read_token)
    return redirect("calculator:evening_detail", token=gone.evening.token)


def server_error(request):
    """handler500: what Django shows for an uncaught exception when DEBUG is off."""
    saved = (_("刚才的操作可能没有保存。请先打开这一晚的页面看一眼，没有的话再录一次。") if _writing(request)
             else _("这一页出错了，什么也没有改。"))
    return _page(500, _("出错了"), saved, _("出错的情况已经记下来了。"))
