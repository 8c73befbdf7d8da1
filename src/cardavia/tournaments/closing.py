"""Closing the tournaments whose window is over (docs/tournaments.md, "Closing"): the
scheduler's work, every minute or so, on whichever process runs it — idempotent, so that
several processes, or one restarted, close each tournament once.

For each tournament past its ``closes_at`` and not yet closed: the deals over and not yet
written are written (:meth:`~cardavia.tournaments.service.Tournaments.settle_all`), then the
standings rank it (:func:`cardavia.tournaments.standings.close`) and the performance of its
deals is computed (:func:`cardavia.tournaments.performance.after_close`); then a league
season whose week is over is closed (:func:`cardavia.tournaments.leagues.season_due`).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from cardavia.store.db import GameStore
from cardavia.tournaments.service import Tournaments

log = logging.getLogger(__name__)


def _step(module: str, name: str) -> Callable[..., Any] | None:
    """``cardavia.tournaments.<module>.<name>``, or ``None`` where that part of the
    tournaments is not installed."""
    try:
        found = importlib.import_module(f"cardavia.tournaments.{module}")
    except ModuleNotFoundError:
        return None
    step = getattr(found, name, None)
    return step if callable(step) else None


def close_one(store: GameStore, tournament_id: str, *, now: datetime) -> bool:
    """Close one tournament if it is due and still open: its deals over written, ranked,
    its performances computed. ``False``: closed already, or not yet due."""
    Tournaments(store, clock=lambda: now).settle_all(tournament_id)
    close = _step("standings", "close")
    if close is None:
        closed = store.tournaments.mark_closed(tournament_id, now)
    else:
        closed = bool(close(store, tournament_id, now=now))
    if not closed:
        return False
    after_close = _step("performance", "after_close")
    if after_close is not None:
        after_close(store, tournament_id, now=now)
    return True


def close_due(store: GameStore, *, now: datetime) -> list[str]:
    """Close every tournament past its ``closes_at`` and not yet closed; then the league
    season whose week is over. Answers the ids closed here."""
    closed = [
        tournament_id
        for tournament_id in store.tournaments.due(now)
        if close_one(store, tournament_id, now=now)
    ]
    season_due = _step("leagues", "season_due")
    if season_due is not None:
        season_due(store, now=now)
    return closed


__all__ = ["close_due", "close_one"]
