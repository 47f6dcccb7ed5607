"""Keep the evenings' and tables' addresses out of the logs.

An evening's address is its permission (/e/<token>/ may change it, /v/<read_token>/ may look),
and so is a 固定桌's (/t/<token>/, /tv/<read_token>/), so a log line that holds one hands the
evening or the table to whoever reads the logs. Django's own warnings
("Not Found: /e/…/rounds/9/"), gunicorn's access log (the request line and the Referer) and its
error log go through `mask_tokens`: /e/Xr4…/ is written /e/…/, ?rules_from=Xr4… as ?rules_from=….
"""
from __future__ import annotations

import logging
import re

from gunicorn.glogging import Logger

TOKEN_PATH = re.compile(r"/(tv|[evt])/[\w-]+")
# A query parameter that names an evening by its address (开一晚's ?rules_from=).
TOKEN_QUERY = re.compile(r"\b(rules_from)=[\w-]+")


def mask_tokens(text: str) -> str:
    return TOKEN_QUERY.sub(r"\1=…", TOKEN_PATH.sub(r"/\1/…", text))


class MaskTokens(logging.Filter):
    """A logging filter: the message, formatted, with the addresses masked, and so is the
    traceback of an exception logged with it (an error's text may quote the URL)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_tokens(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = mask_tokens(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = mask_tokens(record.exc_text)
        return True


class GunicornLogger(Logger):
    """gunicorn's logger with every field of the access log masked, and its error log too
    (`--logger-class`): a worker's "Error handling request /e/…/" or a timeout names the URL."""

    def setup(self, cfg):
        super().setup(cfg)
        if not any(isinstance(f, MaskTokens) for f in self.error_log.filters):
            self.error_log.addFilter(MaskTokens())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {key: mask_tokens(value) if isinstance(value, str) else value for key, value in atoms.items()}
