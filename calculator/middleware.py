"""Language choice: Chinese for everyone until a player picks English with the switch."""
from django.conf import settings
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
