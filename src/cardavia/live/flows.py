"""Each kind of table's flow (docs/web.md, "The flow of each kind of table"): one frozen value
per kind — alone with computer players, a room of friends, quick play with strangers, a
tournament's deal, and the watcher's view of any of them — that says what the end of a deal
offers, what "play again" means, what leaving for good does, who may watch, and what the
screen shows.

The services are given these values when they are built (:class:`Flows`, made once by the
game server) and read them where the kinds differ: the table service refuses a next deal or a
hint where its table's flow has none, a room's "play again" is an offer, a move back to the
queue or a new game as its flow says. Each view carries its flow (:meth:`TableFlow.to_json`),
so that the page draws the end of a deal, the way on and the leaving as the kind of table
wants, with no guess of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from cardavia.belote import Rules


class Again(StrEnum):
    """What "play again" means once a table's game is over."""

    NEW_GAME = "new_game"
    """A new game with the same settings, dealt at once over the open connection (alone)."""
    OFFER = "offer"
    """An offer the other people seated accept or decline; dealt once every person present
    accepted (a rematch; computer seats accept)."""
    QUEUE = "queue"
    """Only the asker goes back to the queue; the others stay at their result."""
    NONE = "none"
    """No "play again" at the table (a tournament's deal: its tournament's next deal)."""


class OnLeave(StrEnum):
    """What leaving for good does, once the game has started."""

    FREE = "free"
    """A computer player takes the seat; nothing is counted."""
    LOSS = "loss"
    """A computer player takes the seat, and the deal in play is rated as lost for the
    leaver alone."""
    NONE = "none"
    """Nothing to leave (a table of one person: they close the page)."""


class Watchers(StrEnum):
    """Who may watch a table."""

    NOBODY = "nobody"
    CHOSEN = "chosen"
    """Whoever has the link, if the room's creator allowed watchers."""
    ANYONE = "anyone"
    """Anyone, from the lobby's public tables."""


@dataclass(frozen=True, slots=True)
class TableFlow:
    """One kind of table's flow (see the module)."""

    kind: str
    """``solo``, ``room``, ``quick``, ``tournament`` or ``watching``: the name the page reads."""
    again: Again
    next_deal: bool
    """Whether a deal over may be followed by another at this table (a match's next, a deal
    dealt again after everyone passed); ``False``: the table plays one deal (a tournament's,
    whose deal is its seed's)."""
    hints: bool
    """Whether the table answers a hint."""
    casual: bool
    """Whether the page offers the casual controls: the new-game form, "New game"."""
    leaving: OnLeave
    watchers: Watchers
    playing: bool = True
    """Whether the view is a player's (``False``: a watcher's: no instruction, no clock rule
    addressed to them)."""

    def to_json(self) -> dict[str, Any]:
        """The flow as each view carries it (``flow``: docs/web.md)."""
        return {
            "kind": self.kind,
            "again": self.again.value,
            "next_deal": self.next_deal,
            "casual": self.casual,
            "leaving": self.leaving.value,
            "playing": self.playing,
        }


SOLO = TableFlow(
    "solo",
    again=Again.NEW_GAME,
    next_deal=True,
    hints=True,
    casual=True,
    leaving=OnLeave.NONE,
    watchers=Watchers.NOBODY,
)
ROOM = TableFlow(
    "room",
    again=Again.OFFER,
    next_deal=True,
    hints=True,
    casual=False,
    leaving=OnLeave.FREE,
    watchers=Watchers.CHOSEN,
)
QUICK = TableFlow(
    "quick",
    again=Again.QUEUE,
    next_deal=True,
    hints=True,
    casual=False,
    leaving=OnLeave.LOSS,
    watchers=Watchers.ANYONE,
)
TOURNAMENT = TableFlow(
    "tournament",
    again=Again.NONE,
    next_deal=False,
    hints=False,
    casual=False,
    leaving=OnLeave.NONE,
    watchers=Watchers.NOBODY,
)
WATCHING = TableFlow(
    "watching",
    again=Again.NONE,
    next_deal=False,
    hints=False,
    casual=False,
    leaving=OnLeave.NONE,
    watchers=Watchers.ANYONE,
    playing=False,
)


@dataclass(frozen=True, slots=True)
class Flows:
    """The flow of each kind of table, given to the services when they are built (the game
    server makes one, :class:`~cardavia.live.game_server.GameServer`)."""

    solo: TableFlow = SOLO
    room: TableFlow = ROOM
    quick: TableFlow = QUICK
    tournament: TableFlow = TOURNAMENT
    watching: TableFlow = WATCHING

    def of_room(self, *, quick: bool) -> TableFlow:
        """A room's flow: quick play's for a table quick play formed, else a friends'."""
        return self.quick if quick else self.room

    def seen_by(self, flow: TableFlow, *, playing: bool) -> TableFlow:
        """The flow a connection sees: its table's for a player, the watcher's for one who
        watches."""
        return flow if playing else self.watching


MINUTES_A_DEAL: Final = 3
"""About how long one deal lasts at a person's pace, in minutes (what "Play now" says)."""
POINTS_A_DEAL: Final = {"auction": 260, "classic": 180}
"""About how many points both teams score together in one deal: a coinche auction's
contracts add their value to the card points (162), the classic's bonuses little."""
MATCH_SPREAD: Final = 1.7
"""About how many points both teams have scored together, per point of the target, when one
team reaches it."""


@dataclass(frozen=True, slots=True)
class Commitment:
    """What a person commits to at a quick-play table, told before they are seated (the
    waiting page): a single deal (``target`` ``None``) or a match to ``target``, of about
    ``deals`` deals and ``minutes`` minutes."""

    target: int | None
    deals: int
    minutes: int


def commitment_of(rules: Rules) -> Commitment:
    """How long a quick-play game of ``rules`` lasts, about: one deal, or a match's deals
    estimated from the points a deal scores (:data:`POINTS_A_DEAL`, :data:`MATCH_SPREAD`).

    >>> from cardavia.belote import PRESETS
    >>> [commitment_of(PRESETS[name]).minutes for name in ("cardavia", "maison", "coinche")]
    [3, 30, 42]
    """
    if rules.target is None:
        return Commitment(None, 1, MINUTES_A_DEAL)
    points = POINTS_A_DEAL["auction" if rules.bidding == "auction" else "classic"]
    deals = math.ceil(rules.target * MATCH_SPREAD / points)
    return Commitment(rules.target, deals, deals * MINUTES_A_DEAL)


__all__ = [
    "MATCH_SPREAD",
    "MINUTES_A_DEAL",
    "POINTS_A_DEAL",
    "QUICK",
    "ROOM",
    "SOLO",
    "TOURNAMENT",
    "WATCHING",
    "Again",
    "Commitment",
    "Flows",
    "OnLeave",
    "TableFlow",
    "Watchers",
    "commitment_of",
]
