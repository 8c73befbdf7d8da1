"""A room's connections (docs/web.md, "Rooms"): who may open one — a player by their seat
token, a watcher with none where the room allows watchers, each within its cap — and what
their opening and closing change: a player who arrives takes their seat back from away, one
whose last connection here closes is away (a computer player plays the seat after the grace
period). What a connection may send is :mod:`cardavia.live.room_messages`'."""

from __future__ import annotations

import contextlib
import time

from cardavia.belote import Seat
from cardavia.live.outbox import Listener
from cardavia.live.protocol import ClientError
from cardavia.live.room import Room
from cardavia.live.rooms import RoomService
from cardavia.store.db import hash_token
from cardavia.words import Wording


class RoomConnections:
    """The connections of this process's rooms, opened and closed through the room
    service."""

    def __init__(self, rooms: RoomService) -> None:
        self.rooms = rooms

    def connect(
        self,
        room: Room,
        token: str | None,
        wording: Wording,
        *,
        client: str,
        changes: bool = False,
    ) -> Listener:
        """A connection to a room: a player's (their token's seat) or a watcher's (no token,
        if the room allows them); ``changes``: it takes changes (``protocol=2``)."""
        if token:
            seat = room.seat_of_token(token)
            if seat is None:
                raise ClientError("bad_token")
        elif room.settings.watchers:
            seat = None
        else:
            raise ClientError("missing_token")
        if self._crowded(room, seat):
            raise ClientError("too_many_sockets")
        limit = self.rooms.limits.queue_messages
        listener = Listener(wording, limit=limit, client=client, seat=seat, changes=changes)
        room.connections[listener] = hash_token(token) if token and seat is not None else None
        return listener

    def _crowded(self, room: Room, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None``: the watchers) has all its connections open here: each
        seat's are its player's own, the watchers' are capped apart, so that no crowd of
        watchers can keep a player out of their room."""
        limits = self.rooms.limits
        limit = limits.watchers_per_room if seat is None else limits.sockets_per_seat
        open_here = sum(1 for listener in room.connections if listener.seat == seat)
        return limit > 0 and open_here >= limit

    async def arrive(self, room: Room, listener: Listener) -> None:
        """A connection opened: it is sent the room (and its view of the game); a player
        back from away takes their seat back."""
        seat = listener.seat
        if seat is not None:
            with contextlib.suppress(ClientError):
                await self.rooms.change(room, lambda state: state.awake(seat))
        room.send_room()
        table = await self.rooms.table(room)
        if table is not None:
            if client := listener.client:
                table.client = client
            view = self.rooms.view(room, table, listener.wording.lang, listener.seat)
            listener.send_view(view, table.view_version)
            self.rooms.tables.ensure_runner(table)

    def depart(self, room: Room, listener: Listener) -> None:
        """A connection closed: when it was its player's last one here, they are away (a
        computer player takes the seat after the grace period), saved in the background."""
        token = room.connections.pop(listener, None)
        if not room.connections and room.game_id is not None:
            self.rooms.background(self._unobserved(room))
        seat = room.state.seat_of(token)
        if seat is None or room.is_connected(seat):
            return
        self.rooms.background(self._away(room, seat))

    async def _unobserved(self, room: Room) -> None:
        """The last connection here closed: the room stops hearing its table."""
        with contextlib.suppress(ClientError):
            await self.rooms.table(room)

    async def _away(self, room: Room, seat: Seat) -> None:
        if room.is_connected(seat):
            return
        with contextlib.suppress(ClientError):
            await self.rooms.change(room, lambda state: state.away(seat, time.time()))


__all__ = ["RoomConnections"]
