"""Rooms: a table of several people (docs/web.md, "Rooms").

A room is found by a short code and a link. Whoever creates it chooses the rules, a match
target or a single deal, the computer players' level and the deck, takes a seat and gets a
seat token; friends open the link, type a display name and take a free seat, each with a token
of their own (only its SHA-256 is kept). Before the first deal the creator may swap seats,
free them, remove a player; at the start the empty seats go to computer players.

The room's state is a :class:`~cardavia.live.room_state.RoomState` (typed, frozen), saved as
one JSON row of ``rooms``, rewritten at each change under a revision check and announced on
the bus (``room:<code>``) like a game's. The game itself is an ordinary game of
:class:`~cardavia.live.table.TableService`: the room gives it a seating (who plays each seat,
:meth:`RoomState.seating`), hears each change of it through the table's observer, and sends
its own connections their views, with the room's names and who is ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final, TypeVar

from cardavia.belote import Seat
from cardavia.live.bus import LocalBus
from cardavia.live.flows import Flows, TableFlow
from cardavia.live.limits import Counters, Limits
from cardavia.live.logs import reason
from cardavia.live.protocol import (
    ClientError,
    check_fields,
    seat_field,
)
from cardavia.live.room import Room
from cardavia.live.room_state import (
    PersonSeat,
    RoomSettings,
    RoomState,
    clean_name,
    new_code,
    normal_code,
)
from cardavia.live.table import Table, TableObserver
from cardavia.live.tables import TableService
from cardavia.live.writer import GameWriter
from cardavia.store.db import (
    GameStore,
    RoomCodeTakenError,
    StaleGameError,
    StoreUnavailableError,
    hash_token,
    new_token,
)

log = logging.getLogger(__name__)

CREATE_FIELDS: Final = frozenset(
    {"rules", "level", "deck", "target", "lang", "name", "seat", "grace", "watchers", "next_delay"}
)
JOIN_FIELDS: Final = frozenset({"name", "seat", "lang"})
CHANGE_TRIES: Final = 3
"""Times a change of a room is made (:meth:`RoomService.change`) while other processes keep
changing it first."""
T = TypeVar("T")
DealListener = Callable[[Room, Table], Coroutine[Any, Any, None]]
"""Told once a deal of a quick-play room is over (its rating, its players' seats): in this
process, once per deal; another process holding the room may tell its own, so what a
listener writes must be written once whoever writes it first."""
Follower = Callable[["RoomService", Room, Table], None]
"""Told after each change of a dealt room or of its game, as this process hears of it, with
the room service that holds the room (the action clock, :mod:`cardavia.live.clock`)."""


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat just taken: the room's code, the seat and its token (given once, never
    stored)."""

    code: str
    token: str
    seat: str

    @property
    def token_hash(self) -> str:
        """The token as the store keeps it (its SHA-256)."""
        return hash_token(self.token)


class RoomService:
    """The rooms of this process: created, joined, opened, connected, changed. Given
    what it works with: the table service (public calls only), the store and the one writer
    thread that writes it, the bus, the limits; and who is told of what happens in them
    (``deal_listeners``, ``followers``)."""

    def __init__(
        self,
        tables: TableService,
        *,
        store: GameStore,
        writer: GameWriter,
        bus: LocalBus,
        limits: Limits,
        counters: Counters | None = None,
        deal_listeners: Sequence[DealListener] = (),
        followers: Sequence[Follower] = (),
        flows: Flows | None = None,
    ) -> None:
        self.tables = tables
        self.store = store
        self.writer = writer
        self.bus = bus
        self.limits = limits
        self.rooms: dict[str, Room] = {}
        self._observers: dict[str, TableObserver] = {}
        """Each room's observer of its table (one per room: observing twice is once)."""
        counters = counters or Counters()
        self.creation = counters.limiter(
            "rooms", limits.rooms_per_minute / 60.0, max(1, int(limits.rooms_per_minute))
        )
        """Rooms created per client, site-wide."""
        self.lookups = counters.limiter(
            "lookups",
            limits.room_lookups_per_minute / 60.0,
            max(1, int(limits.room_lookups_per_minute)),
        )
        """Failed code lookups per client, site-wide: guessing codes is slow."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.deal_listeners = tuple(deal_listeners)
        """What is told when a deal of a quick-play room is over (:data:`DealListener`)."""
        self.followers = tuple(followers)
        """Told after each change of a dealt room or of its game (:data:`Follower`)."""
        self.flows = flows or Flows()
        """The flows of the rooms' kinds of table (:mod:`cardavia.live.flows`): a friends'
        room's, a quick-play table's."""

    def flow_of(self, room: Room) -> TableFlow:
        """The room's flow: quick play's for a table quick play formed, else a friends'."""
        return self.flows.of_room(quick=room.settings.quick)

    def background(self, job: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a coroutine on a task of its own, kept until it ends, even when the connection
        that asked for it closes; its failure logged (not a client's refusal: told them)."""
        task = asyncio.ensure_future(job)
        self._tasks.add(task)

        def done(task: asyncio.Task[Any]) -> None:
            self._tasks.discard(task)
            if not task.cancelled() and not isinstance(task.exception(), ClientError | None):
                log.error("a room's task failed", exc_info=task.exception())

        task.add_done_callback(done)
        return task

    # -- the store --

    async def _store(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A call of the store, in the thread that writes the site's games (SQLite lets one
        connection write at a time: two writing threads would wait on each other)."""
        try:
            return await self.writer.call(functools.partial(call, *args, **kwargs))
        except StoreUnavailableError as error:
            log.warning("rooms: the database is unavailable (%s)", reason(error))
            raise ClientError("unavailable") from None

    async def _save(self, room: Room, state: RoomState, *, human: bool = True) -> None:
        """Save the room's new state (under its lock), then send it and tell the other
        processes; ``stale`` if another process changed it meanwhile (caught up, sent)."""
        text = json.dumps(state.to_json(), ensure_ascii=False)
        try:
            revision = await self._store(
                self.store.save_room,
                room.code,
                text,
                revision=room.revision,
                game_id=room.game_id,
                human=human,
            )
        except StaleGameError:
            await self._reload(room)
            raise ClientError("stale") from None
        room.state, room.revision = state, revision
        await self._after_change(room)
        await self.bus.publish("room:" + room.code, revision)

    async def change(
        self, room: Room, change: Callable[[RoomState], RoomState], *, human: bool = True
    ) -> None:
        """Change the room's state under its lock (``change`` may refuse with a
        :class:`ClientError`, or answer the state unchanged: then nothing is saved), save
        it, send it, announce it. Another process that changed the room meanwhile (``stale``:
        this one has caught up) does not refuse the change: it is made again on the room as it
        now stands, :data:`CHANGE_TRIES` times at most ("I'm back" pressed while the clock
        moved the game on elsewhere is not a "try again" for the player)."""
        for attempt in range(1, CHANGE_TRIES + 1):
            async with room.lock:
                state = change(room.state)
                if state is room.state:
                    return
                try:
                    await self._save(room, state, human=human)
                    return
                except ClientError as error:
                    if error.code != "stale" or attempt == CHANGE_TRIES:
                        raise

    async def _reload(self, room: Room) -> None:
        stored = await self._store(self.store.load_room, room.code)
        if stored is None:
            # Closed (nobody there for a day): forgotten here too.
            self.rooms.pop(room.code, None)
            raise ClientError("room_not_found")
        room.state = RoomState.from_json(json.loads(stored.state))
        room.revision, room.game_id = stored.revision, stored.game_id
        await self._after_change(room)

    async def _after_change(self, room: Room) -> None:
        """Follow the room's new state: connections of removed players closed, seats of
        swapped ones moved, the table reseated, everyone sent the room, the new phrases and
        the views (names, away, ready), the grace timers set."""
        room.let_watchers_go()
        for listener, token in list(room.connections.items()):
            if token is None:
                continue
            seat = room.state.seat_of(token)
            if seat is None:
                listener.send(ClientError("removed").message(listener.wording, ""))
                listener.close(4403)
                listener.seat = None
                room.connections[listener] = None
            else:
                listener.seat = seat
        room.send_room()
        room.send_new_phrases()
        table = await self.table(room)
        if table is not None:
            self.game_changed(room, table)
            self.tables.ensure_runner(table)
        now = time.time()
        for seat, entry in room.state.items():
            if isinstance(entry, PersonSeat) and entry.away is not None:
                left = entry.away + room.settings.grace - now
                if left > 0:
                    self._timer(
                        room,
                        "grace:" + seat.name,
                        left + 0.05,
                        functools.partial(self._grace_over, room),
                    )

    def _timer(
        self, room: Room, key: str, delay: float, job: Callable[[], Coroutine[Any, Any, None]]
    ) -> None:
        old = room.timers.pop(key, None)
        if old is not None:
            old.cancel()

        def run() -> None:
            room.timers.pop(key, None)
            self.background(job())

        room.timers[key] = asyncio.get_running_loop().call_later(delay, run)

    async def _grace_over(self, room: Room) -> None:
        """A grace period ran out: the seat is shown played by a computer player, which
        plays it if it is its turn."""
        room.send_room()
        table = await self.table(room)
        if table is not None:
            self.send_views(room, table)
            self.tables.ensure_runner(table)

    # -- creating, joining, opening --

    async def create(self, data: Mapping[str, Any], lang: str, *, client: str) -> Joined:
        """A new room, its creator seated (``seat``, South by default) under ``name``."""
        check_fields(data, CREATE_FIELDS)
        settings = RoomSettings.from_request(data, lang)
        name = clean_name(data.get("name"))
        seat = seat_field(data.get("seat", "S"))
        if await self.creation.take(client):
            raise ClientError("too_many_rooms")
        if self.limits.rooms_per_client > 0:
            count = await self._store(self.store.rooms_of, client)
            if count >= self.limits.rooms_per_client:
                raise ClientError("too_many_rooms")
        token = new_token()
        state = RoomState.new(settings, seat, name=name, token=hash_token(token))
        text = json.dumps(state.to_json(), ensure_ascii=False)
        for _ in range(8):
            code = new_code()
            try:
                stored = await self._store(self.store.create_room, code, text, client=client)
                break
            except RoomCodeTakenError:
                continue
        else:
            raise ClientError("internal")
        self.rooms[code] = Room(stored)
        return Joined(code, token, seat.name)

    async def create_quick(self, state: RoomState, *, client: str = "") -> str:
        """A room formed with its seats given (quick play: ``state``'s people seated, their
        tokens theirs already), dealt at once (the open seats to computer players): its
        code."""
        text = json.dumps(state.to_json(), ensure_ascii=False)
        for _ in range(8):
            code = new_code()
            with contextlib.suppress(RoomCodeTakenError):
                stored = await self._store(self.store.create_room, code, text, client=client)
                break
        else:
            raise ClientError("internal")
        room = self.rooms[code] = Room(stored)
        async with room.lock:
            await self._new_game(room, room.state.start())
        return code

    async def open(self, code: object, *, client: str = "") -> Room:
        """The room of a code, from memory or the store; ``room_not_found`` (counted against
        the client's lookups: ``too_many_attempts`` past them)."""
        normal = normal_code(code)
        room = self.rooms.get(normal) if normal else None
        if room is not None:
            if self.bus.distributed:
                async with room.lock:
                    await self._reload(room)
            return room
        stored = await self._store(self.store.load_room, normal) if normal else None
        if stored is None:
            if await self.lookups.take(client):
                raise ClientError("too_many_attempts")
            raise ClientError("room_not_found")
        room = self.rooms.get(stored.code)
        if room is None:
            room = self.rooms[stored.code] = Room(stored)
            await self._after_change(room)
        return room

    async def table(self, room: Room) -> Table | None:
        """The room's table once dealt, seated as the room stands, and heard by the room
        while a connection is open on it here."""
        if room.game_id is None:
            return None
        table = await self.tables.open(
            room.game_id, None, seating=room.state.seating(), flow=self.flow_of(room)
        )
        observer = self._observers.setdefault(room.code, _Following(self, room))
        if room.connections:
            self.tables.observe(table, observer)
        else:
            # Nobody here: the table need not follow the game (nor stay in memory) for us.
            self.tables.unobserve(table, observer)
        return table

    async def join(self, code: object, data: Mapping[str, Any], *, client: str) -> Joined:
        """Take a seat (``seat``, or the first free one) under a display name."""
        check_fields(data, JOIN_FIELDS)
        name = clean_name(data.get("name"))
        wanted = seat_field(data["seat"]) if data.get("seat") is not None else None
        room = await self.open(code, client=client)
        token = new_token()
        async with room.lock:
            state, seat = room.state.take(wanted, name=name, token=hash_token(token))
            await self._save(room, state)
        return Joined(room.code, token, seat.name)

    # -- the game's views --

    def view(self, room: Room, table: Table, lang: str, seat: Seat | None) -> dict[str, Any]:
        """The view of ``seat`` (``None``: a watcher's, public only) in ``lang``, with the
        room's names and who is ready."""
        return self.tables.view(table, lang, seat) | room.view_fields(
            table.revision, self.tables.wording(lang), seat
        )

    def send_views(self, room: Room, table: Table) -> None:
        """Send every connection of the room its view: each language and seat's built and
        written once."""
        version = table.next_view_version()
        views: dict[tuple[str, Seat | None], dict[str, Any]] = {}
        written: dict[tuple[int, ...], str] = {}
        for listener in list(room.connections):
            key = (listener.wording.lang, listener.seat)
            if key not in views:
                views[key] = self.view(room, table, *key)
            listener.send_view(views[key], version, written)

    def game_changed(self, room: Room, table: Table) -> None:
        """After each change of the room's game (or of the room): every connection sent its
        view; once a deal of the match is over, the next one is dealt after the room's delay
        (if someone is there); once a new deal starts, nobody is ready any more."""
        match = table.match
        if match.is_over != room.over:
            room.over = match.is_over
            room.send_room()  # the players may play again (or no longer)
        self.send_views(room, table)
        for follow in self.followers:
            follow(self, room, table)
        if match.deal.is_over and room.settings.quick:
            self._tell_deal_over(room, table)
        key = "next_deal"
        if match.deal.is_over and not match.is_over:
            if key not in room.timers and room.state.people_here():
                self._timer(
                    room, key, room.settings.next_delay, functools.partial(self.next_deal, room)
                )
        else:
            timer = room.timers.pop(key, None)
            if timer is not None:
                timer.cancel()
            if room.state.ready and not match.deal.is_over:
                self.background(self._clear_ready(room))

    def _tell_deal_over(self, room: Room, table: Table) -> None:
        """Tell the deal listeners that the room's deal in play is over (once per deal)."""
        deal = (room.game_id, len(table.match.deals))
        if room.deal_told == deal:
            return
        room.deal_told = deal
        for listener in self.deal_listeners:
            self.background(listener(room, table))

    async def _clear_ready(self, room: Room) -> None:
        async with room.lock:
            if not room.state.ready:
                return
            with contextlib.suppress(ClientError):
                await self._save(room, room.state.nobody_ready(), human=False)

    async def start(self, room: Room) -> None:
        """Deal the first deal: the open seats go to computer players."""
        async with room.lock:
            await self._new_game(room, room.state.start())

    async def again(self, room: Room, seat: Seat, game: object, *, match: object = None) -> None:
        """Offer to play again once the room's game (a single deal, or a whole match) is
        over, or accept the offer made (a rematch: :data:`cardavia.live.flows.Again.OFFER`):
        once every person present has, a new game for the same people in the same seats,
        whose tokens keep opening it; ``match`` ``True``: a match to the rules' target,
        ``False``: a single deal, ``None``: as before (the first offer's). ``game`` is the
        game the asker saw end: when it is no longer the room's, the new one is dealt
        already. A deal of a match in play is ``deal_not_over``; between two deals of a
        match, the asker is ready."""
        if match is not None and not isinstance(match, bool):
            raise ClientError("bad_field", {"field": "match"})
        async with room.lock:
            table = await self.table(room)
            if table is None:
                raise ClientError("not_started")
            if game != room.game_id:
                return  # dealt already, by whoever asked first
            if not table.match.deal.is_over:
                raise ClientError("deal_not_over")
            if table.match.is_over:
                state = room.state.offer(seat, match)
                if not state.offer_accepted:
                    await self._save(room, state)
                    return
                await self._new_game(room, state.again(state.offer_match))
                observer = self._observers.get(room.code)
                if observer is not None:
                    self.tables.unobserve(table, observer)
                return
        await self.ready(room, seat)

    async def _new_game(self, room: Room, state: RoomState) -> None:
        """A new game for the room seated as ``state`` says (under the room's lock), saved
        with it; the room as it was if it cannot be saved."""
        settings = state.settings
        game = await self.tables.create_game(
            settings.rules,
            settings.level,
            settings.lang,
            settings.deck,
            target=settings.target,
            seating=state.seating(),
            flow=self.flows.of_room(quick=settings.quick),
        )
        previous, room.game_id = room.game_id, game.game_id
        try:
            await self._save(room, state)
        except ClientError:
            room.game_id = previous
            raise
        await self._store(self.store.players.link_room_game, room.code, game.game_id)

    async def decline(self, room: Room, seat: Seat) -> None:
        """Decline the new game offered: the offer withdrawn, the others told who declined."""
        await self.change(room, lambda state: state.decline(seat))

    async def ready(self, room: Room, seat: Seat) -> None:
        """A player is ready for the next deal: dealt when every person present is."""
        table = await self.table(room)
        if table is None:
            raise ClientError("not_started")
        if not table.match.deal.is_over:
            raise ClientError("deal_not_over")
        if table.match.is_over:
            raise ClientError("match_over")
        await self.change(room, lambda state: state.mark_ready(seat))
        if room.state.people_here() <= room.state.ready:
            await self.next_deal(room)

    async def next_deal(self, room: Room) -> None:
        """Deal the next deal of the match (whoever asks first: the others find it dealt)."""
        table = await self.table(room)
        if table is None:
            return
        try:
            await self.tables.next_deal(table)
        except ClientError as error:
            if error.code not in ("deal_not_over", "match_over", "stale"):
                raise

    # -- other processes, closing --

    async def on_remote_change(self, key: str, revision: int) -> None:
        """Another process saved a room at ``revision``: follow it if it is open here."""
        room = self.rooms.get(key.removeprefix("room:"))
        if room is None or revision <= room.revision:
            return
        async with room.lock:
            await self._reload(room)
            # Still connected here? Then not away (a second tab on another process left).
            state = room.state
            for seat in {
                listener.seat for listener in room.connections if listener.seat is not None
            }:
                state = state.back(seat)
            if state is not room.state:
                with contextlib.suppress(ClientError):
                    await self._save(room, state)

    async def purge(self) -> int:
        """Close the rooms nobody has been at for the limits' ``room_idle_days``."""
        if self.limits.room_idle_days <= 0:
            return 0
        return await self._store(self.store.purge_rooms, timedelta(days=self.limits.room_idle_days))

    def close(self) -> None:
        """Cancel the timers."""
        for room in self.rooms.values():
            for timer in room.timers.values():
                timer.cancel()
            room.timers.clear()
        for task in list(self._tasks):
            task.cancel()


def is_room_key(key: str) -> bool:
    """Whether a bus key names a room (``room:<code>``) rather than a game."""
    return key.startswith("room:")


@dataclass(frozen=True, slots=True)
class _Following:
    """A room following its table (:class:`~cardavia.live.table.TableObserver`): each change
    sent to the room's connections, and the computer players' stop told to them."""

    service: RoomService
    room: Room

    def changed(self, table: Table) -> None:
        self.service.game_changed(self.room, table)

    def stopped(self, table: Table, error: ClientError) -> None:
        for listener in list(self.room.connections):
            listener.send(error.message(listener.wording, table.deck))


__all__ = ["Joined", "RoomService", "is_room_key"]
