"""The installable app (issue 20): the web app manifest, the service worker and its offline page.

The worker (templates/calculator/sw.js) keeps the app's static files and, once a phone has
opened them online, that evening's pages, so the round form opens in a basement. Pages come
from the network whenever there is one: the copy is only for when there is none. A page is
kept under its own address and served for that address only, so no evening's page is ever
shown for another evening. The round form's copy is marked with the time it was kept, so that
the page knows it holds an old draft and sends nothing from it (static/calculator/outbox.js). Its version is a hash of the files it keeps: a new deploy installs a
new worker, which drops the old copies.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# What every page needs, fetched when the worker installs; other static files are kept the first
# time a page asks for them.
SHELL_FILES = (
    "vendor/bootstrap/bootstrap.trimmed.css",
    "calculator/app.css",
    "calculator/evening.css",
    "django_htmx/htmx-2.min.js",
    "vendor/idiomorph/idiomorph-ext.min.js",
    "calculator/live.js",
    "calculator/tiles.js",
    "calculator/draft.js",
    "calculator/outbox.js",
    "calculator/app_shell.js",
    "calculator/favicon.svg",
    "calculator/icons/icon-192.png",
)
THEME = "#1f7a4d"
BACKGROUND = "#faf7ee"


@require_GET
def manifest(request):
    """The web app manifest: what a phone needs to put 捉鸡算账 on its home screen."""
    icons = [{"src": static(f"calculator/icons/icon-{size}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": purpose}
             for size, purpose in ((192, "any"), (512, "any"), (512, "maskable"))]
    data = {
        "name": _("捉鸡算账"), "short_name": _("捉鸡算账"),
        "description": _("一局打完，把每家的牌输进手机：谁胡了、豆和鸡、报听、查叫，一条一条算清楚，每条都写明按哪条规则。"),
        "lang": "zh-CN" if request.LANGUAGE_CODE.startswith("zh") else request.LANGUAGE_CODE,
        "start_url": reverse("calculator:home"), "scope": "/", "display": "standalone",
        "theme_color": THEME, "background_color": BACKGROUND, "icons": icons,
    }
    response = HttpResponse(json.dumps(data, ensure_ascii=False), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


def _version() -> str:
    digest = hashlib.sha256(get_template("calculator/sw.js").template.source.encode())
    for name in SHELL_FILES:
        with open(finders.find(name), "rb") as file:
            digest.update(file.read())
    return digest.hexdigest()[:16]


_cached_version = lru_cache(maxsize=1)(_version)


@require_GET
def service_worker(request):
    """/sw.js, at the root so that its scope is the whole site; never cached by the browser's
    HTTP cache, so a deploy reaches every phone on its next visit."""
    version = _version() if settings.DEBUG else _cached_version()
    context = {"version": version, "shell": json.dumps([static(name) for name in SHELL_FILES] + [reverse("offline")]),
               "static_prefix": json.dumps(settings.STATIC_URL), "offline": json.dumps(reverse("offline"))}
    response = render(request, "calculator/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request):
    """What the worker shows for a page this phone never opened, when there is no network."""
    return render(request, "calculator/offline.html")
