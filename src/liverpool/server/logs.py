"""No secret in a log line: a :class:`logging.Filter` that blanks the values of secret query
parameters (``token``, ``password``, ``session``, ...) in every record of the server's loggers
and uvicorn's (its access log prints each request's path with its query string).

The protocol never puts a secret in a URL (a socket's token is its first message, REST calls use
the ``X-Seat-Token`` header); this filter is for clients that still do (an old client's
``?token=``, refused by the server but logged by uvicorn before the refusal).

>>> redact('127.0.0.1:5 - "WebSocket /ws/tables/Ab?token=s3cr3t&x=1" 403')
'127.0.0.1:5 - "WebSocket /ws/tables/Ab?token=[redacted]&x=1" 403'
>>> redact("GET /?join=Ab&Password=hunter2 HTTP/1.1")
'GET /?join=Ab&Password=[redacted] HTTP/1.1'
"""

from __future__ import annotations

import logging
import re

__all__ = ["LOGGERS", "RedactSecrets", "install", "redact"]

SECRET_PARAMS = ("token", "seat_token", "access_token", "password", "passwd", "session", "secret", "key")
_SECRET = re.compile(r"([?&;](?:" + "|".join(SECRET_PARAMS) + r")=)[^&;\s\"'#]*", re.IGNORECASE)

LOGGERS = ("uvicorn", "uvicorn.access", "uvicorn.error", "uvicorn.asgi", "liverpool", "liverpool.server")
"""The loggers whose records are filtered (a logger's filters see only its own records)."""


def redact(text: str) -> str:
    """``text`` with the value of every secret query parameter replaced by ``[redacted]``."""
    return _SECRET.sub(r"\1[redacted]", text)


class RedactSecrets(logging.Filter):
    """Redact secret query parameters in a record's message and its string arguments (the
    arguments stay a tuple of the same length: uvicorn's access formatter unpacks them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else _redact_other(a) for a in args)
        elif isinstance(args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in args.items()}
        return True


def _redact_other(value: object) -> object:
    """A non-string argument whose text holds a secret is replaced by that text, redacted."""
    if isinstance(value, int | float | bool) or value is None:
        return value
    text = str(value)
    cleaned = redact(text)
    return value if cleaned == text else cleaned


_FILTER = RedactSecrets()


def install() -> None:
    """Put the filter on the server's and uvicorn's loggers and on the handlers of those and of
    the root logger (idempotent; call it after logging is configured: uvicorn's start
    reconfigures its loggers' handlers)."""
    loggers = [logging.getLogger(name) for name in LOGGERS] + [logging.getLogger()]
    for logger in loggers:
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
        for handler in logger.handlers:
            if _FILTER not in handler.filters:
                handler.addFilter(_FILTER)
