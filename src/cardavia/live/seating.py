"""Who plays each seat of a table: a seating (docs/web.md, "Seats").

The table service is given a :class:`Seating` and only reads it: it never assumes where the
person sits. The single-player table is one seating (:meth:`Seating.solo`: a person in the
seat they chose, computer players elsewhere); a room is another (its state says who sits
where, who is away); a lobby's table will be a third.

>>> seating = Seating.solo(Seat.W, "club")
>>> seating.person_plays(Seat.W, now=0.0), seating.person_plays(Seat.N, now=0.0)
(True, False)
>>> seating.people
(<Seat.W: 3>,)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardavia.belote import Seat

SOLO_GRACE: Final = 0.0
"""The solo table's grace period: none is needed, its person is never marked away (the
computer players wait for them however long they take)."""


@dataclass(frozen=True, slots=True)
class Person:
    """A person in a seat: their display name (``None``: none given, the solo table's), since
    when they are away (seconds since the epoch; ``None``: present), and whether a computer
    player plays for them now whatever the grace period (``idle``: a quick-play table's
    clock ran out on them, or they are away from it: docs/players.md, "Leaving")."""

    name: str | None = None
    away_since: float | None = None
    idle: bool = False


@dataclass(frozen=True, slots=True)
class Computer:
    """A computer player in a seat, of a level (``club``, ``strong``…)."""

    level: str


Occupant = Person | Computer
"""Who sits in a seat."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays each seat (``players``, in :class:`Seat` order: N, E, S, W), and the grace
    period: how many seconds an away person keeps their seat before a computer player plays
    it for them (until they are back)."""

    players: tuple[Occupant, ...]
    grace: float = SOLO_GRACE

    def __post_init__(self) -> None:
        if len(self.players) != len(Seat):
            raise ValueError(f"a seating has {len(Seat)} seats, not {len(self.players)}")

    @classmethod
    def solo(cls, seat: Seat, level: str) -> Seating:
        """The single-player table: a person at ``seat``, computer players of ``level`` at
        the three others."""
        return cls(tuple(Person() if s == seat else Computer(level) for s in Seat))

    def __getitem__(self, seat: Seat) -> Occupant:
        return self.players[seat]

    @property
    def people(self) -> tuple[Seat, ...]:
        """The seats a person sits in (present or away), in turn order from North."""
        return tuple(s for s in Seat if isinstance(self.players[s], Person))

    def person_plays(self, seat: Seat, now: float) -> bool:
        """Whether a person plays ``seat`` at time ``now`` (seconds since the epoch): one sits
        there, not idle, present or away for less than the grace period; otherwise a
        computer player plays it."""
        player = self.players[seat]
        if not isinstance(player, Person) or player.idle:
            return False
        away = player.away_since
        return away is None or now - away < self.grace

    def names(self) -> dict[str, str | None]:
        """Each seat's display name, by its code (``None``: a computer player, or a person
        without one)."""
        return {
            s.name: p.name if isinstance(p, Person) else None
            for s, p in zip(Seat, self.players, strict=True)
        }


__all__ = ["Computer", "Occupant", "Person", "Seating"]
