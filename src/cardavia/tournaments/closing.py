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

import logging
from datetime import datetime

from cardavia.store.db import GameStore
from cardavia.tournaments import leagues, performance, standings
from cardavia.tournaments.service import Tournaments

log = logging.getLogger(__name__)


def close_one(store: GameStore, tournament_id: str, *, now: datetime) -> bool:
    """Close one tournament if it is due and still open: its deals over written, ranked,
    its performances computed. ``False``: closed already, or not yet due."""
    Tournaments(store, clock=lambda: now).settle_all(tournament_id)
    if not standings.close(store, tournament_id, now=now):
        return False
    performance.after_close(store, tournament_id, now=now)
    return True


def close_due(store: GameStore, *, now: datetime) -> list[str]:
    """Close every tournament past its ``closes_at`` and not yet closed; then the league
    season whose week is over. Answers the ids closed here."""
    closed = [
        tournament_id
        for tournament_id in store.tournaments.due(now)
        if close_one(store, tournament_id, now=now)
    ]
    leagues.season_due(store, now=now)
    return closed


__all__ = ["close_due", "close_one"]
