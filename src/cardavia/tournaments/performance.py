"""The players' performance from tournament deals (docs/tournaments.md, "Performance"): a
rating made of what the player did on each deal against everyone who played the same deal,
not of games won.

- **A deal's performance** is its matchpoints (percent) adjusted by the strength of the field
  that played it — Funbridge's "average performance" idea: ``matchpoints + field − 50``, the
  field being the mean performance, before this tournament, of the *others* who played the
  deal (a player with none counts :data:`NEUTRAL`, 50). 55 % against a field of 50s is 55;
  the same 55 % against a field whose performance is 60 is 65; 45 % against a weak field (40)
  is 35. A percentage tells how a player did against these opponents; the adjustment says who
  they were.
- **A player's performance** in a rules family is the mean of their deals' performances over
  a rolling window: the last :data:`WINDOW_DEALS` deals, of tournaments closed in the last
  :data:`WINDOW_DAYS` days. One value per closed tournament is kept
  (``performance_changes``), for the profile's chart.
- **Quick play seats by it** too (:func:`cardavia.players.matching.seating_skill`): the
  rating's mean blended with the performance, weighed by how many deals each is made of.

:func:`after_close` does it in the store once a tournament is ranked (its deals' matchpoints
written): each deal's ``performance``, then each player's new performance, all in one
transaction — a second call, or another process, writes nothing.

>>> round(deal_performance(55.0, 60.0), 6), round(deal_performance(45.0, 40.0), 6)
(65.0, 35.0)
>>> field_mean(60.0 + 40.0 + 50.0, 3, own=60.0)
45.0
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from cardavia.belote import PRESETS
from cardavia.players.ratings import Family, family_of
from cardavia.store.db import GameStore
from cardavia.store.leagues import DealMark, PastWindow, PerformanceWrite

NEUTRAL: Final = 50.0
"""The performance of a player who has none yet (and of an average field): half the
matchpoints."""
WINDOW_DEALS: Final = 200
"""The most deals a player's performance is the mean of (the latest)."""
WINDOW_DAYS: Final = 90
"""Deals of tournaments closed longer ago than this no longer count."""


def deal_performance(matchpoints: float, field: float) -> float:
    """A deal's performance: its matchpoints (percent) plus the field's mean performance
    less :data:`NEUTRAL`."""
    return matchpoints + field - NEUTRAL


def field_mean(total: float, count: int, *, own: float) -> float:
    """The mean performance of a deal's field but the player: ``total`` is the sum of the
    performances of the ``count`` who played the deal (the player's own, ``own``, among
    them); :data:`NEUTRAL` when the player played it alone."""
    if count <= 1:
        return NEUTRAL
    return (total - own) / (count - 1)


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's performance after a tournament: the mean of ``deals`` deal
    performances."""

    player_id: str
    value: float
    deals: int


def deal_performances(marks: Sequence[DealMark], before: Mapping[str, float]) -> dict[int, float]:
    """Each deal played's performance (by its row's id): its matchpoints adjusted by the
    others on that deal, each at their performance ``before`` the tournament
    (:data:`NEUTRAL` for a player without one). One pass: each deal's field summed once."""
    totals: dict[int, float] = defaultdict(float)
    counts: dict[int, int] = defaultdict(int)
    for mark in marks:
        totals[mark.number] += before.get(mark.player_id, NEUTRAL)
        counts[mark.number] += 1
    return {
        mark.id: deal_performance(
            mark.matchpoints,
            field_mean(
                totals[mark.number],
                counts[mark.number],
                own=before.get(mark.player_id, NEUTRAL),
            ),
        )
        for mark in marks
    }


def rolling(past: PastWindow | None, new: Sequence[float], player_id: str) -> Rated:
    """A player's performance once ``new`` deals are added to their ``past`` window (the
    window's latest deals, as many as leave room for the new ones)."""
    total = sum(new) + (past.kept_sum if past else 0.0)
    count = len(new) + (past.kept_count if past else 0)
    return Rated(player_id, total / count, count)


def presets_of(family: Family) -> list[str]:
    """The rules presets of a family."""
    return sorted(key for key in PRESETS if family_of(key) == family)


def after_close(store: GameStore, tournament_id: str, *, now: datetime) -> int:
    """Once the tournament is ranked: each of its deals' performance and each of its players'
    performance in its family (a ``performance_changes`` row), written at once. Answers how
    many players' performance was written: 0 when the tournament is not closed yet, was done
    already (here or by another process) or had no deal played."""
    tournament = store.leagues.tournament_facts(tournament_id)
    if tournament is None or tournament.closed_at is None:
        return 0
    family = family_of(tournament.preset)
    marks = store.leagues.deal_marks(tournament_id)
    if not marks:
        return 0
    windows = store.leagues.past_windows(
        tournament_id,
        presets=presets_of(family),
        since=now - timedelta(days=WINDOW_DAYS),
        window=WINDOW_DEALS,
    )
    before = {player: window.value for player, window in windows.items() if window.count}
    performances = deal_performances(marks, before)
    new: dict[str, list[float]] = defaultdict(list)
    for mark in marks:
        new[mark.player_id].append(performances[mark.id])
    rated = [rolling(windows.get(player), values, player) for player, values in new.items()]
    write = PerformanceWrite(
        tournament_id=tournament_id,
        family=family,
        deals=tuple(performances.items()),
        players=tuple((one.player_id, one.value, one.deals) for one in rated),
        at=now,
    )
    return len(rated) if store.leagues.record_performance(write) else 0


__all__ = [
    "NEUTRAL",
    "WINDOW_DAYS",
    "WINDOW_DEALS",
    "Rated",
    "after_close",
    "deal_performance",
    "deal_performances",
    "field_mean",
    "presets_of",
    "rolling",
]
