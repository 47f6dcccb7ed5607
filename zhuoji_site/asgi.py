"""The app over ASGI, for gunicorn's `asgi` worker (zhuoji_site/table.py, deploy/).

Why ASGI for an app whose views are all synchronous: the event loop reads each request's headers
and body without holding a thread, and hands Django a request only once it has all arrived (the
same is true of writing a response to a phone that reads slowly). Under the threaded WSGI worker
a client sending its body a byte at a time held one of the worker's few threads for as long as it
liked: eight such clients and no other phone was answered (issue 23). Django then runs each
request's synchronous middleware and view in a thread of its own.

Django's ASGI handler spools a whole body before any middleware sees it, so the cap of
calculator.middleware.request_size_cap would come after the bytes were taken: `capped` refuses a
body over settings.MAX_REQUEST_BYTES here, by its Content-Length before reading anything, and
while reading a body of unannounced length.
"""
import os
import warnings

from django.core.asgi import get_asgi_application

# WhiteNoise's static files (bin/run --table has no nginx to serve them) and the evening export
# are iterated synchronously: Django reads them in a thread, which is right for files of at most
# a few megabytes, and would warn once per worker about it.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zhuoji_site.settings")
django_application = get_asgi_application()

from django.conf import settings  # noqa: E402  (after the app: settings are configured by then)

TOO_LARGE = b"413: the request is too large."
CLIENT_CLOSED = 499  # nginx's status for a request whose client closed the connection first


async def _refuse(send) -> None:
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(TOO_LARGE)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": TOO_LARGE})


def capped(app, limit: int | None = None):
    async def application(scope, receive, send):
        if scope["type"] != "http":  # Django refuses anything else itself (run with --asgi-lifespan off)
            return await app(scope, receive, send)
        most = limit if limit is not None else settings.MAX_REQUEST_BYTES
        declared = dict(scope.get("headers") or []).get(b"content-length")
        try:
            if declared is not None and int(declared) > most:
                return await _refuse(send)
        except ValueError:
            pass  # Django answers a malformed length itself
        taken = 0

        async def counted_receive():
            nonlocal taken
            message = await receive()
            if message["type"] == "http.request":
                taken += len(message.get("body", b""))
                if taken > most:
                    raise BodyTooLarge
            return message

        started = False

        async def tracked_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await app(scope, counted_receive, tracked_send)
        except BodyTooLarge:
            return await _refuse(send)
        if not started:
            # Django answers nothing to a phone that hung up first (tiles.js drops a preview a newer
            # tap made stale), and gunicorn would log that as its own 500: say 499, as nginx does.
            await send({"type": "http.response.start", "status": CLIENT_CLOSED, "headers": []})
            await send({"type": "http.response.body", "body": b""})

    return application


class BodyTooLarge(Exception):
    pass


application = capped(django_application)
