"""The policy for leaving a quick-play table, applied (docs/players.md, "Leaving").

- A disconnection is never leaving: a computer player plays the seat meanwhile, and the seat
  is given back when its player returns (:meth:`RoomState.seating
  <cardavia.live.room_state.RoomState.seating>`); it is never counted against them.
- Leaving for good once the game has started ("Leave the table", confirmed) is a loss for
  that player only: their quick-play seat is ``abandoned`` (:meth:`Leaving.abandon`), the deal in
  play is rated at once for them alone as lost by the widest margin (:func:`forfeited_deal`:
  leaving never dodges a rating), a computer player takes the seat for the rest of the game,
  and their partner is not punished (:meth:`Leaving.leave`).
- A seat played to the end of the game (the match over) is ``finished``, that of an away
  player never gone for good too (:class:`SeatsFinished`, a deal listener).
"""

from __future__ import annotations

import contextlib
import functools
import logging
from dataclasses import replace

from cardavia.belote import Seat
from cardavia.live.logs import reason
from cardavia.live.room import Room
from cardavia.live.room_state import PersonSeat
from cardavia.live.rooms import RoomService
from cardavia.live.table import Table
from cardavia.live.writer import GameWriter
from cardavia.players.ratings import MARGIN_SPREAD, RatedDeal, Ratings, family_of
from cardavia.store.db import GameStore, StoreUnavailableError

log = logging.getLogger(__name__)


def forfeited_deal(room: Room, table: Table, seat: Seat) -> RatedDeal | None:
    """The deal the room's table is playing, as lost by ``seat``'s partnership by a whole
    spread of margins (:data:`~cardavia.players.ratings.MARGIN_SPREAD`: the most a margin
    weighs, so that leaving is never cheaper than losing), its change kept for ``seat``
    alone (``None``: not a quick-play room, or no deal in play). The other seats as they
    are: people (their players filled in by the caller) and computer players."""
    match = table.match
    if not room.settings.quick or room.game_id is None or match.deal.is_over:
        return None
    if not isinstance(room.state.seats[seat], PersonSeat):
        return None
    family = family_of(room.settings.rules)
    spread = round(MARGIN_SPREAD[family])
    seats = tuple("" if isinstance(entry, PersonSeat) else None for entry in room.state.seats)
    one, two, three, four = seats
    return RatedDeal(
        room_code=room.code,
        game_id=room.game_id,
        deal=len(match.deals),
        family=family,
        level=room.settings.level,
        seats=(one, two, three, four),
        scores=(0, spread) if seat in (Seat.N, Seat.S) else (spread, 0),
        only=int(seat),
    )


class Leaving:
    """Leaving a room for good, applied (see the module): given the store and the one
    thread that writes it; the room changed through the room service that holds it."""

    def __init__(self, store: GameStore, writer: GameWriter) -> None:
        self.store = store
        self.writer = writer
        self.ratings = Ratings(store.ratings)

    async def leave(self, rooms: RoomService, room: Room, seat: Seat) -> None:
        """The person in ``seat`` leaves the room for good (its state's ``leave``); at a
        quick-play table whose game has started, their seat is abandoned and the deal in
        play rated for them as lost (who sat where read before the seat is left)."""
        forfeit = await self._forfeit(rooms, room, seat)
        await rooms.change(room, lambda state: state.leave(seat))
        if await self.abandon(room, seat) and forfeit is not None:
            try:
                await self.ratings.rate(forfeit)
            except StoreUnavailableError as error:
                log.warning(
                    "room %s: the deal left at %s not rated (%s)",
                    room.code,
                    seat.name,
                    reason(error),
                )

    async def abandon(self, room: Room, seat: Seat) -> bool:
        """The person in ``seat`` left the quick-play table ``room`` for good: once its game
        has started, their seat is abandoned (before the start, nothing is counted). Answers
        whether a seat was abandoned now (not before, nor by another process)."""
        if not room.settings.quick or not room.state.started:
            return False
        try:
            count = await self.writer.call(
                functools.partial(self.store.quick.abandon, room_code=room.code, seat=seat.name)
            )
        except StoreUnavailableError:
            log.warning("room %s: the abandoned seat %s could not be written", room.code, seat.name)
            return False
        return bool(count)

    async def _forfeit(self, rooms: RoomService, room: Room, seat: Seat) -> RatedDeal | None:
        """:func:`forfeited_deal` of the room as it stands, its people's players filled in
        (the seats' holders, ``player_rooms``); ``None`` when there is nothing to rate."""
        if not room.settings.quick or not room.state.started:
            return None
        try:
            table = await rooms.table(room)
            deal = None if table is None else forfeited_deal(room, table, seat)
            if deal is None:
                return None
            holders = await self.ratings.room_players(room.code)
        except StoreUnavailableError as error:
            log.warning(
                "room %s: the deal left at %s not read (%s)", room.code, seat.name, reason(error)
            )
            return None
        one, two, three, four = (
            holders.get(place.name, "") if player is not None else None
            for place, player in zip(Seat, deal.seats, strict=True)
        )
        return replace(deal, seats=(one, two, three, four))


class SeatsFinished:
    """A deal listener (:data:`~cardavia.live.rooms.DealListener`): once a quick-play room's
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


__all__ = ["Leaving", "SeatsFinished", "forfeited_deal"]
