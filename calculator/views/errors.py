"""Failures said plainly, in the page's language: what went wrong and whether what the player
just did was saved.

- 503 (`database_unavailable`, a middleware): the database could not be reached or was busy too
  long (OperationalError, InterfaceError). Every write is one transaction, so a write that failed
  this way was not saved.
- a round deleted by another phone meanwhile (`access.RoundDeleted`): to the evening, told so.
- 500 (`server_error`, Django's handler500): anything else. A write may or may not have gone
  through before the failure, so the page says to look before entering it again.
- 400 (`bad_request`) and 403 (`permission_denied`, `csrf_failure`): refused before anything was
  done, so a write was not saved; a 403 from CSRF is nearly always a page left open too long.
All render one standalone template (error_page.html) that needs no database and none of the app's
context; if even that fails (a broken static manifest, say), a plain page says the same words.
"""
from __future__ import annotations

import logging

from django.contrib import messages
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template import loader
from django.utils.html import escape
from django.utils.translation import gettext as _

from .access import RoundDeleted

log = logging.getLogger("django.request")

RETRY_AFTER = 30  # seconds: a database restart or a long write


def _page(status: int, title: str, saved: str, next_step: str) -> HttpResponse:
    context = {"title": title, "saved": saved, "next": next_step}
    try:
        html = loader.get_template("error_page.html").render(context)
    except Exception:  # the page that explains a failure must not fail in turn
        log.exception("The error page could not be rendered; answering with the plain one")
        html = PLAIN_PAGE.format(**{key: escape(value) for key, value in context.items()})
    return HttpResponse(html, status=status)


PLAIN_PAGE = ("<!doctype html><html><head><meta charset=\"utf-8\">"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
              "<title>{title}</title></head><body><h1>{title}</h1><p>{saved}</p><p>{next}</p>"
              "<p><a href=\"/\">/</a></p></body></html>")


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


def bad_request(request, exception=None):
    """handler400: a request the app cannot read (a broken form body, an unknown host)."""
    saved = (_("刚才的操作没有保存：手机发来的内容不完整。") if _writing(request)
             else _("这个地址打不开，什么也没有改。"))
    return _page(400, _("打不开"), saved, _("回到上一页刷新一下再试。"))


def permission_denied(request, exception=None):
    """handler403."""
    saved = _("刚才的操作没有保存。") if _writing(request) else _("这一页不能看，什么也没有改。")
    return _page(403, _("不能这样做"), saved, _("一晚的账要用开这一晚时给的链接打开。"))


def csrf_failure(request, reason=""):
    """settings.CSRF_FAILURE_VIEW: a form from a page left open for long, or after the cookies
    were cleared. Nothing was done; reloading the page gives a fresh form."""
    return _page(403, _("这一页放得太久了"), _("刚才的操作没有保存。"),
                 _("刷新这一页，再做一次；记过的局都还在。"))
