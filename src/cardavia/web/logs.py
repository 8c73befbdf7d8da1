"""The site's logs keep no secret (seat tokens in the URLs uvicorn logs are hidden), and say
an expected failure (the database or Redis out of reach) in one line, its reason, rather than
a traceback."""

from __future__ import annotations

import logging
import re
from typing import Final


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


def reason(error: BaseException) -> str:
    """Why ``error`` happened, in one line: its message's first line, else its kind.

    >>> reason(OSError("disk full\\nDETAIL: …")), reason(TimeoutError())
    ('disk full', 'TimeoutError')
    """
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


__all__ = ["RedactTokens", "reason", "redact_tokens_in_logs"]
