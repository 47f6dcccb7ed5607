"""Middleware of the app: the language choice, and the cap on request size."""
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
