"""Rating the deals of quick-play rooms (docs/players.md, "Ratings"): a deal listener of the
rooms (:attr:`cardavia.live.rooms.RoomService.deal_listeners`) that reads a finished deal's
scores and who sat where — a person's seat is their player's (``player_rooms``), any other
a computer player of the room's level — and has the players' ratings changed once
(:class:`cardavia.players.ratings.Ratings`). A room that quick play did not form (friends'
rooms) is never rated: friends cannot farm rating."""

from __future__ import annotations

import logging
from dataclasses import replace

from cardavia.belote import Seat
from cardavia.live.logs import reason
from cardavia.live.room import Room
from cardavia.live.room_state import PersonSeat
from cardavia.live.table import Table
from cardavia.players.ratings import RatedDeal, Ratings, family_of
from cardavia.store.db import StoreUnavailableError

log = logging.getLogger(__name__)


class RoomRatings:
    """The rooms' deal listener that rates quick-play deals."""

    def __init__(self, ratings: Ratings) -> None:
        self.ratings = ratings

    def finished_deal(self, room: Room, table: Table) -> RatedDeal | None:
        """The room's deal just over, as the ratings read it (``None``: not a quick-play
        room, no deal over, or a deal every player passed: nothing to rate). Read at once,
        before anything else may move the room on; the seats' players are filled in by
        :meth:`deal_over`."""
        match = table.match
        result = match.deal.result
        if not room.settings.quick or room.game_id is None or result is None:
            return None
        if not match.deal.is_over:
            return None
        seats = tuple("" if isinstance(entry, PersonSeat) else None for entry in room.state.seats)
        one, two, three, four = seats
        return RatedDeal(
            room_code=room.code,
            game_id=room.game_id,
            deal=len(match.deals),
            family=family_of(room.settings.rules),
            level=room.settings.level,
            seats=(one, two, three, four),
            scores=(result.scores[0], result.scores[1]),
        )

    async def deal_over(self, room: Room, table: Table) -> None:
        """Rate the room's deal just over (a :data:`cardavia.live.rooms.DealListener`)."""
        deal = self.finished_deal(room, table)
        if deal is None:
            return
        try:
            holders = await self.ratings.room_players(room.code)
            one, two, three, four = (
                holders.get(seat.name, "") if player is not None else None
                for seat, player in zip(Seat, deal.seats, strict=True)
            )
            rated = await self.ratings.rate(replace(deal, seats=(one, two, three, four)))
        except StoreUnavailableError as error:
            log.warning("room %s: deal %d not rated (%s)", room.code, deal.deal, reason(error))
            return
        if rated:
            log.info("room %s: deal %d of %s rated", room.code, deal.deal, deal.game_id)


__all__ = ["RoomRatings"]
