"""A tournament's standings: at closing, every deal's results scored against the field
(matchpoints, Neuberg's correction, 25 % for a deal not played) and the entries ranked; then
the ranking by pages, a player's own place, and each deal's field (docs/tournaments.md,
"Scoring"), read and written in the database in few statements, for fields of many
thousands; :mod:`cardavia.tournaments.scoring` says the same arithmetic deal by deal, and the
tests hold the two to each other.
"""

from __future__ import annotations

from sqlalchemy import Engine


class StandingStore:
    """The tournaments' standings in the store's database (the store's ``standings``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine


__all__ = ["StandingStore"]
