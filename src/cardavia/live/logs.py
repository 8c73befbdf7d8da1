"""The site's logs keep no secret (seat tokens in the URLs uvicorn logs are hidden), and say
an expected failure (the database or Redis out of reach) in one line, its reason, rather than
a traceback. Every line of a web process is one line of ``key=value`` (:class:`OneLine`,
:data:`LOG_CONFIG`), a fault's traceback folded into it: what a log collector splits on."""

from __future__ import annotations

import json
import logging
import re
import traceback
from datetime import UTC, datetime
from typing import Any, Final


class RedactTokens(logging.Filter):
    """Hide seat tokens in log lines (uvicorn logs each URL, and the WebSocket's carries
    ``?token=``): whoever reads the logs must not be able to act for a player."""

    PATTERN: Final = re.compile(r"(token=)[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = self.PATTERN.sub(r"\1…", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                self.PATTERN.sub(r"\1…", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        return True


def redact_tokens_in_logs() -> None:
    """Put :class:`RedactTokens` on uvicorn's loggers (once)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


class OneLine(logging.Formatter):
    """A log record in one line: ``time=… level=… logger=… msg="…"``, with ``error="…"``
    and ``at="file:line in function < …"`` (innermost first) for an exception; strings
    JSON-quoted, so that no newline of a message or a traceback can break the line."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        fields: dict[str, Any] = {
            "time": moment.replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            fields["error"] = f"{type(error).__name__}: {reason(error)}"
            frames = traceback.extract_tb(error.__traceback__)[::-1][:8]
            fields["at"] = " < ".join(f"{f.filename}:{f.lineno} in {f.name}" for f in frames)
        return " ".join(f"{key}={_value(value)}" for key, value in fields.items())


def _value(value: str) -> str:
    """A value as it is when it is one plain word, JSON-quoted otherwise."""
    plain = value and not any(c.isspace() or c in '"=\\' for c in value)
    return value if plain and value.isprintable() else json.dumps(value, ensure_ascii=False)


LOG_CONFIG: Final[dict[str, Any]] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"()": OneLine}},
    "filters": {"tokens": {"()": RedactTokens}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "filters": ["tokens"],
            "stream": "ext://sys.stderr",
        }
    },
    "loggers": {
        "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "uvicorn.access": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["stderr"], "level": "INFO"},
}
"""The logging of a web process (``cardavia serve``: uvicorn's ``log_config``): every logger,
uvicorn's and the site's, each record in one line (:class:`OneLine`) on standard error, tokens
hidden."""


def reason(error: BaseException) -> str:
    """Why ``error`` happened, in one line: its message's first line, else its kind.

    >>> reason(OSError("disk full\\nDETAIL: …")), reason(TimeoutError())
    ('disk full', 'TimeoutError')
    """
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


__all__ = ["LOG_CONFIG", "OneLine", "RedactTokens", "reason", "redact_tokens_in_logs"]
