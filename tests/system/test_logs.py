"""No evening's address in any log (issue 18): Django's logging, gunicorn's access log and its
error log write /e/…/, /v/…/ and ?rules_from=…, tracebacks included."""
from __future__ import annotations

import logging
import secrets

from gunicorn.config import Config

from zhuoji_site.logs import GunicornLogger, MaskTokens, mask_tokens

TOKEN = secrets.token_urlsafe(24)


def test_paths_and_the_rules_query_are_masked():
    assert mask_tokens(f"GET /e/{TOKEN}/rounds/3/ HTTP/1.1") == "GET /e/…/rounds/3/ HTTP/1.1"
    assert mask_tokens(f"Referer: http://192.168.1.23:8000/v/{TOKEN}/") == "Referer: http://192.168.1.23:8000/v/…/"
    assert mask_tokens(f"GET /evening/new/?rules_from={TOKEN}") == "GET /evening/new/?rules_from=…"
    assert mask_tokens("GET /round/?players=4") == "GET /round/?players=4"


def test_a_logged_traceback_is_masked_too():
    record = None
    try:
        raise RuntimeError(f"no evening at /e/{TOKEN}/")
    except RuntimeError:
        import sys

        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s",
                                   (f"/e/{TOKEN}/settle/",), sys.exc_info())
    MaskTokens().filter(record)
    written = logging.Formatter().format(record)
    assert TOKEN not in written and "/e/…/settle/" in written and "RuntimeError: no evening at /e/…/" in written


def test_gunicorns_error_log_is_masked(capsys):
    """A worker's "Error handling request /e/…/" and a timeout's traceback name the URL."""
    logger = GunicornLogger(Config())
    logger.error("Error handling request %s", f"/e/{TOKEN}/rounds/new/")
    try:
        raise TimeoutError(f"/v/{TOKEN}/report.pdf took too long")
    except TimeoutError:
        logger.exception("Worker timeout")
    written = capsys.readouterr().err
    assert "Error handling request /e/…/rounds/new/" in written and "/v/…/report.pdf" in written
    assert TOKEN not in written


def test_a_tables_addresses_are_masked_like_an_evenings():
    assert mask_tokens(f"GET /t/{TOKEN}/season/?period=all HTTP/1.1") == "GET /t/…/season/?period=all HTTP/1.1"
    assert mask_tokens(f"Referer: http://h/tv/{TOKEN}/season.csv") == "Referer: http://h/tv/…/season.csv"
    assert mask_tokens("GET /table/new/") == "GET /table/new/"
