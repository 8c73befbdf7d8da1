"""The computer players' settings as the environment names them.

A module of constants that imports nothing, so that any part of the project can read them
without pulling in a queue client or a pool of processes: the site's settings
(``cardavia.web``), the AI worker's command line (:mod:`cardavia.ai.worker`) and
:meth:`cardavia.ai.decisions.Decisions.from_settings` all name them from here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final

REDIS_URL_VARIABLE: Final = "CARDAVIA_REDIS_URL"
"""Redis, joining the site's processes: the web processes' bus and the AI workers' queue."""

DEADLINE_VARIABLE: Final = "CARDAVIA_AI_DEADLINE"
"""Seconds a web process waits for an AI worker's answer before it decides itself."""

DEFAULT_DEADLINE: Final = 3.0
"""The deadline when :data:`DEADLINE_VARIABLE` is not set: an expert decision takes about a
second on a worker, so three leave room for a short queue, and a table whose worker died
goes on within a few seconds (issue 18: never silent more than 5 s)."""


def deadline_from_env(environ: Mapping[str, str] | None = None) -> float:
    """The deadline of :data:`DEADLINE_VARIABLE` (seconds), else :data:`DEFAULT_DEADLINE`.

    >>> deadline_from_env({"CARDAVIA_AI_DEADLINE": "5"})
    5.0
    >>> deadline_from_env({})
    3.0
    """
    text = (os.environ if environ is None else environ).get(DEADLINE_VARIABLE, "").strip()
    return float(text) if text else DEFAULT_DEADLINE


__all__ = ["DEADLINE_VARIABLE", "DEFAULT_DEADLINE", "REDIS_URL_VARIABLE", "deadline_from_env"]
