"""Keep the evenings' addresses out of the logs.

An evening's address is its permission (/e/<token>/ may change it, /v/<read_token>/ may look),
so a log line that holds one hands the evening to whoever reads the logs. Django's own warnings
("Not Found: /e/…/rounds/9/") and gunicorn's access log (the request line and the Referer) go
through `mask_tokens`: /e/Xr4…/ is written /e/…/.
"""
from __future__ import annotations

import logging
import re

from gunicorn.glogging import Logger

TOKEN_PATH = re.compile(r"/([ev])/[\w-]+")


def mask_tokens(text: str) -> str:
    return TOKEN_PATH.sub(r"/\1/…", text)


class MaskTokens(logging.Filter):
    """A logging filter: the message, formatted, with the addresses masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_tokens(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


class GunicornLogger(Logger):
    """gunicorn's logger with every field of the access log masked (`--logger-class`)."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {key: mask_tokens(value) if isinstance(value, str) else value for key, value in atoms.items()}
