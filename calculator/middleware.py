"""Middleware of the app: the language choice, the cap on request size, UTF-8 bodies only, and a
device cookie for rate limits."""
import codecs
import secrets

from django.conf import settings
from django.http import HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class SwitchOnlyLocaleMiddleware(LocaleMiddleware):
    """Like Django's LocaleMiddleware, but the browser's Accept-Language is not consulted.

    The players are at a table in Guizhou and the app is Chinese first: a phone set to English
    still opens in Chinese, and the switch on every page (which sets Django's language cookie)
    is the one way to change it.
    """

    def process_request(self, request):
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if code not in dict(settings.LANGUAGES):
            code = settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()


def request_size_cap(get_response):
    """413 for a body over settings.MAX_REQUEST_BYTES, before anything reads it.

    DATA_UPLOAD_MAX_MEMORY_SIZE caps form fields but not uploaded files, which Django streams
    to a temporary file, and the CSRF check reads the whole body before any view could look at
    its size. Gunicorn sets no limit of its own.
    """

    def middleware(request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads a body of unknown length as empty
        if length > settings.MAX_REQUEST_BYTES:
            return HttpResponse("413: the request is too large.", status=413,
                                content_type="text/plain; charset=utf-8")
        return get_response(request)

    return middleware


FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def utf8_only(get_response):
    """415 for a body that declares a charset other than UTF-8, before anything decodes it.

    Every page and the API are UTF-8; Django would decode a form with the charset its
    Content-Type names, and an unknown one (or UTF-16) raised deep in request.POST: a 500 on
    every form. No browser sends such a request on its own. Every spelling of UTF-8 that
    Python's codecs know is UTF-8 here, and is read as such.
    """

    def middleware(request):
        charset = (request.content_params or {}).get("charset", "").strip().strip('"')
        # Only form bodies are decoded by Django; the JSON API reads its body raw and answers a
        # wrong charset itself, in JSON with its error code.
        if request.content_type in FORM_TYPES and charset:
            if _codec(charset) != "utf-8":
                return HttpResponse("415: send the form in UTF-8.", status=415,
                                    content_type="text/plain; charset=utf-8")
            # UTF8, utf_8, U8 …: Django refuses a form whose charset is not spelled "utf-8".
            request.encoding = "utf-8"
        return get_response(request)

    return middleware


def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return ""


def content_security_policy(get_response):
    """settings.CONTENT_SECURITY_POLICY on every answer that has none: scripts and everything
    else from this site only, no plugins, no framing, forms posted only here."""

    def middleware(request):
        response = get_response(request)
        if settings.CONTENT_SECURITY_POLICY:
            response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response

    return middleware


DEVICE_COOKIE = "zhuoji_device"
DEVICE_COOKIE_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie


def device_cookie(get_response):
    """Give each browser a random name of its own (no account, nothing else in it).

    Rate limits count per device as well as per address (calculator/views/limits.py): the phones
    of a club behind one NAT address each get their own budget instead of sharing one.
    """

    def middleware(request):
        response = get_response(request)
        if DEVICE_COOKIE not in request.COOKIES and response.get("Content-Type", "").startswith("text/html"):
            response.set_cookie(DEVICE_COOKIE, secrets.token_urlsafe(16), max_age=DEVICE_COOKIE_AGE,
                                secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Lax")
        return response

    return middleware
