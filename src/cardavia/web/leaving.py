"""The policy for leaving a quick-play table, applied (docs/players.md, "Leaving").

- A disconnection is never leaving: a computer player plays the seat meanwhile, and the seat
  is given back when its player returns (:meth:`RoomState.seating
  <cardavia.web.room_state.RoomState.seating>`); it is never counted against them.
- Leaving for good once the game has started ("Leave the table", confirmed) is a loss for
  that player only: their quick-play seat is ``abandoned`` (:func:`abandon`), a computer
  player takes the seat for the rest of the game, and their partner is not punished.
- A seat played to the end of the game (the match over) is ``finished``, that of an away
  player never gone for good too (:class:`SeatsFinished`, a deal listener).
"""

from __future__ import annotations

import contextlib
import functools
import logging

from cardavia.belote import Seat
from cardavia.store.db import GameStore, StoreUnavailableError
from cardavia.web.room import Room
from cardavia.web.rooms import RoomService
from cardavia.web.table import Table
from cardavia.web.writer import GameWriter

log = logging.getLogger(__name__)


async def abandon(rooms: RoomService, room: Room, seat: Seat) -> None:
    """The person in ``seat`` left the quick-play table ``room`` for good: once its game
    has started, their seat is abandoned (before the start, nothing is counted)."""
    if not room.settings.quick or not room.state.started:
        return
    try:
        await rooms.writer.call(
            functools.partial(rooms.store.quick.abandon, room_code=room.code, seat=seat.name)
        )
    except StoreUnavailableError:
        log.warning("room %s: the abandoned seat %s could not be written", room.code, seat.name)


class SeatsFinished:
    """A deal listener (:data:`~cardavia.web.rooms.DealListener`): once a quick-play room's
    game is over, each of its seats still played is finished (written once, whoever writes
    it first: a seat already ended stays as it is)."""

    def __init__(self, store: GameStore, writer: GameWriter) -> None:
        self.store = store
        self.writer = writer

    async def __call__(self, room: Room, table: Table) -> None:
        if not table.match.is_over:
            return
        with contextlib.suppress(StoreUnavailableError):
            await self.writer.call(functools.partial(self.store.quick.end, room_code=room.code))


__all__ = ["SeatsFinished", "abandon"]
