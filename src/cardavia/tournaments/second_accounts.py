"""Signs of one person behind several entries of a tournament, for the fair-play screen
(:mod:`cardavia.tournaments.fairplay`; issue 35). The audit's scout played a deal to its end
with a throwaway account, saw all four hands, then played it ranked with another: the
computer players answer the same line the same way, so the same actions give the same result.
Two signals, from the tournament's rows and the games' records only:

- **accounts of one client**: two players or more who started deals of the same tournament
  from one client, as the site's limits count clients (an address, an IPv6 /64:
  :func:`cardavia.web.http_helpers.client_of`);
- **repeated lines**: a deal played with exactly the actions of an earlier entry's on the same
  deal, the player's own actions at least :data:`MIN_LINE` of them (a deal passed out, or
  one decided in a bid or two, repeats by chance).

Both are for a person to review, never verdicts: a family shares an address, and the obvious
line of an easy deal is found by many. A line repeated from the same client is the strongest
sign.

>>> from datetime import UTC, datetime
>>> from cardavia.belote import Pass, Seat
>>> at = datetime(2026, 12, 4, tzinfo=UTC)
>>> line = tuple(Pass(seat) for seat in (Seat.W, Seat.S, Seat.E, Seat.N))
>>> deals = [PlayedDeal("t", 1, "pat", "198.51.100.7", line, at),
...          PlayedDeal("t", 1, "quinn", "198.51.100.7", line, at)]
>>> shared_clients((d.tournament_id, d.player_id, d.client) for d in deals)
(SharedClient(tournament_id='t', client='198.51.100.7', players=('pat', 'quinn')),)
>>> repeated_lines(deals), len(repeated_lines(deals, min_line=1))
((), 1)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from cardavia.belote import Action, Seat
from cardavia.tournaments.deals import PLAYER_SEAT

MIN_LINE: Final = 6
"""The player's own actions a repeated line must hold to be listed (a deal's bids and eight
cards make nine or more; a deal passed out, one or two)."""


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """One player's deal of a tournament as the screen reads it."""

    tournament_id: str
    number: int
    player_id: str
    client: str | None
    """Who it was started from (``None``: not known, or its player deleted since)."""
    line: tuple[Action, ...]
    """Every action of the deal, in order (the player's and the computer players')."""
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class SharedClient:
    """Players who started deals of one tournament from one client."""

    tournament_id: str
    client: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RepeatedLine:
    """A deal played with exactly the line an earlier entry played on it."""

    tournament_id: str
    number: int
    first: str
    """The player who played the line first."""
    again: str
    """The player who played it again, later."""
    own_actions: int
    """The player's own actions in the line."""
    same_client: bool
    """Whether both were played from one client."""


def shared_clients(started: Iterable[tuple[str, str, str | None]]) -> tuple[SharedClient, ...]:
    """The clients each tournament's deals were started from by two players or more
    (``started``: each deal started, finished or not, as tournament, player, client)."""
    players: dict[tuple[str, str], set[str]] = defaultdict(set)
    for tournament, player, client in started:
        if client:
            players[(tournament, client)].add(player)
    return tuple(
        SharedClient(tournament, client, tuple(sorted(found)))
        for (tournament, client), found in sorted(players.items())
        if len(found) > 1
    )


def repeated_lines(
    deals: Sequence[PlayedDeal], *, seat: Seat = PLAYER_SEAT, min_line: int = MIN_LINE
) -> tuple[RepeatedLine, ...]:
    """Each deal played with the very line of an earlier entry on the same deal (the first
    to finish it), its player's own actions at least ``min_line``."""
    same: dict[tuple[str, int, tuple[Action, ...]], list[PlayedDeal]] = defaultdict(list)
    for deal in deals:
        same[(deal.tournament_id, deal.number, deal.line)].append(deal)
    found = []
    for (tournament, number, line), played in sorted(
        same.items(), key=lambda item: (item[0][0], item[0][1])
    ):
        own = sum(action.seat is seat for action in line)
        if len(played) < 2 or own < min_line:
            continue
        first, *again = sorted(played, key=lambda deal: (deal.finished_at, deal.player_id))
        found += [
            RepeatedLine(
                tournament,
                number,
                first.player_id,
                later.player_id,
                own,
                first.client is not None and first.client == later.client,
            )
            for later in again
            if later.player_id != first.player_id
        ]
    return tuple(found)


__all__ = [
    "MIN_LINE",
    "PlayedDeal",
    "RepeatedLine",
    "SharedClient",
    "repeated_lines",
    "shared_clients",
]
