"""What a room's connection may send (docs/web.md, "Rooms"): one dispatcher, the table's
kinds (``action``, ``hint``, ``sync``: played on the room's table, ``not_started`` before it
is dealt) with the room's added — ``start``, ``swap``, ``free``, ``remove``, ``sit``,
``leave``, ``ready`` (``next_deal`` the same), ``phrase``, ``again`` (once the room's game is
over, as the room's flow says: a friends' room's offer of a new game for the same people in
the same seats, or its acceptance; at a quick-play table, only the asker back to the queue,
told ``queue``), ``decline`` (the offer withdrawn), ``back`` (a person the action clock made
away says they are back). At a quick-play table an action that comes once its clock
ran out is refused (``too_late``), and leaving for good once the game started is counted
(:class:`cardavia.live.leaving.Leaving`). Each message is decoded and its
fields checked once (:class:`~cardavia.live.protocol.Dispatcher`); the changes themselves are
:class:`~cardavia.live.room_state.RoomState`'s, saved by :class:`RoomService`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from cardavia.belote import Seat
from cardavia.live.clock import refuse_late
from cardavia.live.flows import Again
from cardavia.live.leaving import Leaving
from cardavia.live.limits import Limits, RateLimiter
from cardavia.live.outbox import Listener
from cardavia.live.protocol import (
    ClientError,
    Dispatcher,
    Message,
    parse_action,
    seat_field,
)
from cardavia.live.room import Room
from cardavia.live.room_state import phrase_code
from cardavia.live.rooms import RoomService
from cardavia.live.table import Seated

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class InRoom:
    """What a room's message handler is given: the room and the connection it came on."""

    room: Room
    listener: Listener

    def player(self) -> Seat:
        """The seat of the player who sent the message (``watching``: a watcher may not
        act)."""
        if self.listener.seat is None:
            raise ClientError("watching")
        return self.listener.seat

    @property
    def is_creator(self) -> bool:
        """Whether the connection is the room's creator's."""
        return self.room.state.is_creator(self.room.connections.get(self.listener))

    def creator_before_start(self, *, creator: bool = True) -> Seat:
        """The player's seat, for a change allowed before the first deal only (by the
        creator alone where ``creator``): ``watching``, ``not_creator``,
        ``already_started``."""
        seat = self.player()
        if creator and not self.is_creator:
            raise ClientError("not_creator")
        if self.room.state.started:
            raise ClientError("already_started")
        return seat


class RoomMessages:
    """The messages of the rooms' connections, answered through the room service."""

    def __init__(
        self, rooms: RoomService, limits: Limits, *, leaving: Leaving, max_message_bytes: int
    ) -> None:
        self.rooms = rooms
        self.leaving = leaving
        """What leaving for good does (:class:`~cardavia.live.leaving.Leaving`)."""
        self.phrases = RateLimiter(limits.phrases_per_minute / 60.0, limits.phrases_burst)
        """Quick phrases per seat of a room."""
        messages: Dispatcher[InRoom] = Dispatcher(limit=max_message_bytes)
        messages.include(rooms.tables.messages, self._seated)
        messages.on("action", self._on_action, required=("action",))
        messages.on("back", self._on_back)
        messages.on("sync", self._on_sync)
        messages.on("start", self._on_start)
        messages.on("swap", self._on_swap, fields=("seats",))
        messages.on("free", self._on_free, fields=("seat",))
        messages.on("remove", self._on_free, fields=("seat",))
        messages.on("sit", self._on_sit, fields=("seat",))
        messages.on("leave", self._on_leave)
        messages.on("ready", self._on_ready)
        messages.on("next_deal", self._on_ready)
        messages.on("phrase", self._on_phrase, fields=("code",))
        messages.on("again", self._on_again, fields=("game", "match"))
        messages.on("decline", self._on_decline)
        self.dispatcher = messages

    async def handle_text(self, room: Room, listener: Listener, text: str | bytes) -> None:
        """One message of a room's connection: an error goes back to this connection only
        and changes nothing."""
        try:
            await self.dispatcher.dispatch(InRoom(room, listener), text)
        except ClientError as error:
            listener.send(error.message(listener.wording, room.settings.deck))
        except Exception:
            log.exception("room %s: a message failed", room.code)
            listener.send(ClientError("internal").message(listener.wording, ""))

    async def _seated(self, where: InRoom) -> Seated:
        """The room's table, for the table's kinds (``not_started`` before the first deal)."""
        table = await self.rooms.table(where.room)
        if table is None:
            raise ClientError("not_started")
        return Seated(table, where.listener)

    async def _on_action(self, where: InRoom, message: Message) -> None:
        """A player's action on the room's table: ``too_late`` once its clock ran out; an
        action made in time counts the clock's expiries from none again."""
        seated = await self._seated(where)
        mine, room = where.player(), where.room
        refuse_late(room.state, seated.table, mine, time.time())
        await self.rooms.tables.act(seated.table, parse_action(message["action"], seat=mine))
        await self.rooms.change(room, lambda state: state.acted(mine))

    async def _on_back(self, where: InRoom, _message: Message) -> None:
        """A person the clock made away is back: they play their seat again."""
        mine = where.player()
        await self.rooms.change(where.room, lambda state: state.awake(mine))

    async def _on_sync(self, where: InRoom, _message: Message) -> None:
        room, listener = where.room, where.listener
        table = await self.rooms.table(room)
        if table is None:
            room.send_room()
            return
        view = self.rooms.view(room, table, listener.wording.lang, listener.seat)
        listener.send_view(view, table.view_version, whole=True)
        self.rooms.tables.ensure_runner(table)  # the computer players stopped on an error?

    async def _on_start(self, where: InRoom, _message: Message) -> None:
        where.creator_before_start()
        await self.rooms.start(where.room)

    async def _on_swap(self, where: InRoom, message: Message) -> None:
        where.creator_before_start()
        pair = message["seats"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise ClientError("bad_field", {"field": "seats"})
        one, two = seat_field(pair[0], "seats"), seat_field(pair[1], "seats")
        await self.rooms.change(where.room, lambda state: state.swap(one, two))

    async def _on_free(self, where: InRoom, message: Message) -> None:
        """``free`` (before the start) and ``remove`` (at any time): the creator's."""
        if message.kind == "free":
            where.creator_before_start()
        else:
            where.player()
            if not where.is_creator:
                raise ClientError("not_creator")
        seat = seat_field(message["seat"])
        await self.rooms.change(where.room, lambda state: state.free(seat))

    async def _on_sit(self, where: InRoom, message: Message) -> None:
        mine = where.creator_before_start(creator=False)
        target = seat_field(message["seat"])
        await self.rooms.change(where.room, lambda state: state.sit(mine, target))

    async def _on_leave(self, where: InRoom, _message: Message) -> None:
        """Leaving for good, on a task of its own: the leaving person's socket is closed as
        they are told they left, a closing socket's task may be cancelled, and a seat left
        must be written all the same (a refusal still reaches them)."""
        mine = where.player()
        await asyncio.shield(self.rooms.background(self._leave(where.room, mine)))

    async def _leave(self, room: Room, mine: Seat) -> None:
        await self.leaving.leave(self.rooms, room, mine)

    async def _on_phrase(self, where: InRoom, message: Message) -> None:
        mine = where.player()
        code = phrase_code(message["code"])
        if not self.phrases.allow(f"{where.room.code} {mine.name}"):
            raise ClientError("rate_limited")
        await self.rooms.change(where.room, lambda state: state.say(mine, code))

    async def _on_ready(self, where: InRoom, _message: Message) -> None:
        await self.rooms.ready(where.room, where.player())

    async def _on_again(self, where: InRoom, message: Message) -> None:
        """Play again once the room's game is over, as the room's flow says: an offer (or its
        acceptance) of a new game for the same people in the same seats, or the asker alone
        back to the queue (``{"type": "queue", "rules": …}``: the page goes to the waiting
        page; the others stay at their result, no new game dealt for them)."""
        mine, room = where.player(), where.room
        if self.rooms.flow_of(room).again is Again.QUEUE:
            table = await self._seated(where)
            if not table.table.match.is_over:
                raise ClientError("game_not_over")
            where.listener.send({"type": "queue", "rules": room.settings.rules})
            return
        await self.rooms.again(room, mine, message.get("game"), match=message.get("match"))

    async def _on_decline(self, where: InRoom, _message: Message) -> None:
        """Decline the new game offered (a friends' room)."""
        await self.rooms.decline(where.room, where.player())


__all__ = ["InRoom", "RoomMessages"]
