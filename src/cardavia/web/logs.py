"""The site's logs keep no secret: seat tokens in the URLs uvicorn logs are hidden."""

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


__all__ = ["RedactTokens", "redact_tokens_in_logs"]
