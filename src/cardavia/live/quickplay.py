"""Quick play with strangers (docs/players.md, "Quick play"): "Play now" puts a person in
their rules preset's queue; tables are formed from it (:mod:`cardavia.players.matching`) and
each becomes a room dealt at once (:meth:`RoomService.create_quick`), its people seated with
their own seat tokens, the other seats played by computer players.

The queue is :mod:`cardavia.live.quick_queue`'s (memory, or Redis shared by every process).
Each process runs :meth:`QuickPlay.run`: every :data:`TICK` (and at once after a join or a
connection here) it marks its waiting people's connections as seen, and those closed as
gone, sends them the seats given (by whichever process formed their table), forms the tables
due from the people present (a waiting connection open: a join alone is seated with nobody),
and once a second tells each waiting person how long they have waited and how many wait
with them.

Fair to everyone (docs/players.md, "Quick play"): two entries of one client (the address
or IPv6 /64 the limits count) never sit at one table, and the abandonment penalty of the
players who joined from a client lately is that client's: a new guest inherits it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from cardavia.belote import PRESETS, Seat
from cardavia.live.display_names import generated_name, told_apart
from cardavia.live.flows import Watchers
from cardavia.live.limits import Counters
from cardavia.live.logs import reason
from cardavia.live.outbox import Listener
from cardavia.live.protocol import ClientError, decode_message, echo
from cardavia.live.quick_queue import Entry, Queue, Seated, make_queue
from cardavia.live.room_state import (
    QUICK_GRACE,
    OpenSeat,
    PersonSeat,
    RoomSeat,
    RoomSettings,
    RoomState,
    clean_name,
)
from cardavia.live.rooms import RoomService
from cardavia.live.settings import Settings
from cardavia.live.writer import GameWriter
from cardavia.players.matching import Formed, form_tables
from cardavia.players.ratings import family_of
from cardavia.players.waiting import waiting_player
from cardavia.store.db import GameStore, StoreUnavailableError, hash_token, new_token
from cardavia.words import Catalogs

log = logging.getLogger(__name__)

TICK: Final = 0.25
"""Seconds between two rounds of the queue's work in a process."""
TELL_EVERY: Final = 1.0
"""Seconds between two ``waiting`` messages to a waiting person."""
LOST_AFTER: Final = 10.0
"""Seconds a waiting person's entry may be missing from the queue (another process forming
their table meanwhile) before they are told they no longer wait."""
NOT_WAITING_CLOSE: Final = 4404


def check_preset(preset: object) -> str:
    """A preset's name as a client sent it (``unknown_rules`` if it names none)."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ClientError("unknown_rules", {"rules": echo(preset)})
    return preset


@dataclass(frozen=True, slots=True)
class Person:
    """Who joins: their player's id, display name (``None``: none yet) and language."""

    player: str
    name: str | None
    lang: str


@dataclass(frozen=True, slots=True)
class Queued:
    """A person in the queue: since when (seconds since the epoch), and how many wait for
    the preset."""

    since: float
    waiting: int


@dataclass(slots=True, eq=False)
class _Watch:
    """A waiting person's open connection here."""

    player: str
    preset: str
    listener: Listener
    told: float = 0.0
    missing: float | None = None


class QuickPlay:
    """The quick play of this process: joins, the waiting people's connections, the tables
    formed. Given the rooms (to form tables as rooms), the store (ratings, completion, blocks,
    the seats noted) and the one thread that writes it, the catalogs (default names), the
    queue and its settings."""

    def __init__(
        self,
        rooms: RoomService,
        store: GameStore,
        catalogs: Catalogs,
        *,
        writer: GameWriter,
        queue: Queue | None = None,
        wait: float = 20.0,
        clock: float = 30.0,
        joins_per_minute: float = 30.0,
        counters: Counters | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.rooms = rooms
        self.store = store
        self.writer = writer
        self.catalogs = catalogs
        self.queue = queue or make_queue(None)
        self.wait = wait
        self.clock = clock
        self.now = now
        counters = counters or Counters()
        self.joins = counters.limiter(
            "quick", joins_per_minute / 60.0, max(1, int(joins_per_minute / 3))
        )
        """Joins per client, site-wide."""
        self.watches: set[_Watch] = set()
        self._closed: set[tuple[str, str]] = set()
        """The (player, preset) whose last waiting connection here closed: told to the queue
        at the next round."""
        self.counts: dict[str, int] = {}
        """The size of each preset's queue, as last read here."""
        self._wake = asyncio.Event()
        self.tables_formed = 0

    @classmethod
    def of_settings(
        cls,
        rooms: RoomService,
        store: GameStore,
        catalogs: Catalogs,
        settings: Settings,
        counters: Counters,
        *,
        writer: GameWriter,
    ) -> QuickPlay:
        """The quick play of a site's settings: its queue in Redis when the site has it."""
        return cls(
            rooms,
            store,
            catalogs,
            writer=writer,
            queue=make_queue(settings.redis_url),
            wait=settings.quick_wait,
            clock=settings.quick_clock,
            joins_per_minute=settings.quick_joins_per_minute,
            counters=counters,
        )

    # -- joining --

    async def _write(self, call: Callable[[], Any]) -> Any:
        """A write of the store, in the thread that writes the site's games."""
        return await self.writer.call(call)

    async def join(self, person: Person, preset: object, *, client: str) -> Queued:
        """Put a person in a preset's queue (in it already, from another tab: the same
        entry); ``unknown_rules``, ``rate_limited``."""
        chosen = check_preset(preset)
        if await self.joins.take(client):
            raise ClientError("rate_limited")
        now = self.now()
        # No name chosen: one generated, kept with the player, read in each reader's language.
        name = person.name or generated_name(person.player)
        players = await self.queue.note_client(client, person.player, now)
        seen = functools.partial(
            waiting_player,
            self.store,
            person.player,
            family=family_of(chosen),
            lang=person.lang,
            since=now,
            client=client,
            players=players,
        )
        try:
            waiting = await asyncio.to_thread(seen)
        except StoreUnavailableError as error:
            log.warning("quick play: the database is unavailable (%s)", reason(error))
            raise ClientError("unavailable") from None
        shown = clean_name(name)
        try:
            hidden = await asyncio.to_thread(self.store.safety.is_hidden, person.player, shown)
        except StoreUnavailableError:
            hidden = False  # the seat's opening hides it (Safety.arrived)
        entry = Entry(waiting, shown, hidden)
        await self.queue.forget_seat(person.player)
        kept = await self.queue.add(chosen, entry, now)
        count = len(await self.queue.waiting(chosen, now))
        self.counts[chosen] = count
        self._wake.set()
        return Queued(kept.waiting.since, count)

    async def cancel(self, player: str, preset: str) -> None:
        """Take a person out of the queue; their connections here are told so and closed."""
        await self.queue.remove(preset, player)
        for watch in [w for w in self.watches if w.player == player and w.preset == preset]:
            watch.listener.send({"type": "cancelled"})
            watch.listener.close(1000)
            self.watches.discard(watch)

    # -- connections --

    async def expects(self, player: str, preset: str) -> bool:
        """Whether a connection of ``player`` has something to wait for: they are in the
        preset's queue, or are being given a seat, or were just given one."""
        now = self.now()
        if any(e.waiting.player == player for e in await self.queue.waiting(preset, now)):
            return True
        return bool(await self.queue.seated([player], now)) or await self.queue.forming(player)

    def connect(self, player: str, preset: str, listener: Listener) -> None:
        """A waiting person's connection opened here: present from the next round (at once)."""
        self.watches.add(_Watch(player, preset, listener))
        self._closed.discard((player, preset))
        self._wake.set()

    def depart(self, listener: Listener) -> None:
        """A connection closed: its person is no longer seen from it; their last one here,
        and they are no longer present from the next round (at once: seated with nobody
        until a connection of theirs opens again; their entry leaves the queue unless one
        does soon)."""
        gone = {w for w in self.watches if w.listener is listener}
        self.watches -= gone
        for watch in gone:
            if not any(w.player == watch.player and w.preset == watch.preset for w in self.watches):
                self._closed.add((watch.player, watch.preset))
                self._wake.set()

    async def handle(self, player: str, preset: str, listener: Listener, text: str | bytes) -> None:
        """A message from a waiting person's connection: ``{"type": "cancel"}`` only."""
        try:
            message = decode_message(text)
            if message.get("type") != "cancel":
                raise ClientError("unknown_type", {"type": echo(message.get("type"))})
            await self.cancel(player, preset)
        except ClientError as error:
            listener.send(error.message(listener.wording, ""))

    # -- the rounds --

    async def run(self) -> None:
        """The queue's work in this process, round after round, until cancelled."""
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK)
            self._wake.clear()
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("quick play: a round failed (%s)", reason(error))

    async def round(self) -> None:
        """One round: connections closed and open seen, seats sent, tables formed from the
        people present, the waiting told."""
        now = self.now()
        closed, self._closed = self._closed, set()
        for player, preset in closed:
            await self.queue.closed(preset, player)
        for preset in PRESETS:
            watched = {w.player for w in self.watches if w.preset == preset}
            if watched:
                await self.queue.touch(preset, watched, now)
        await self._send_seats(now)
        formed = False
        for preset in PRESETS:
            entries = await self.queue.waiting(preset, now)
            if await self._form(preset, await self._present(preset, entries, now), now):
                formed = True
                entries = await self.queue.waiting(preset, now)
            self.counts[preset] = len(entries)
            self._tell(preset, {e.waiting.player: e for e in entries}, now)
        if formed:
            await self._send_seats(now)

    async def _send_seats(self, now: float) -> None:
        """Send each waiting connection here the seat its person was given, then close it."""
        players = {w.player for w in self.watches}
        if not players:
            return
        seats = await self.queue.seated(players, now)
        for watch in [w for w in self.watches if w.player in seats]:
            seated = seats[watch.player]
            watch.listener.send(
                {
                    "type": "seated",
                    "room": seated.room,
                    "token": seated.token,
                    "seat": seated.seat,
                    "link": f"/{watch.listener.wording.lang}/room/{seated.room}",
                }
            )
            watch.listener.close(1000)
            self.watches.discard(watch)

    def _tell(self, preset: str, entries: Mapping[str, Entry], now: float) -> None:
        """Tell the waiting connections of a preset how long and with how many they wait;
        a person missing from the queue a while (their tab's entry dropped, cancelled in
        another tab) is told they no longer wait."""
        for watch in [w for w in self.watches if w.preset == preset]:
            entry = entries.get(watch.player)
            if entry is None:
                watch.missing = watch.missing or now
                if now - watch.missing >= LOST_AFTER:
                    error = ClientError("not_waiting")
                    watch.listener.send(error.message(watch.listener.wording, ""))
                    watch.listener.close(NOT_WAITING_CLOSE)
                    self.watches.discard(watch)
                continue
            watch.missing = None
            if now - watch.told >= TELL_EVERY:
                watch.told = now
                watch.listener.send(
                    {
                        "type": "waiting",
                        "preset": preset,
                        "waiting": len(entries),
                        "waited": int(max(0.0, now - entry.waiting.since)),
                    }
                )

    # -- forming tables --

    async def _present(self, preset: str, entries: list[Entry], now: float) -> list[Entry]:
        """The entries whose waiting connection is open (in this process or another)."""
        if not entries:
            return []
        present = await self.queue.present(preset, now)
        return [entry for entry in entries if entry.waiting.player in present]

    async def _form(self, preset: str, entries: list[Entry], now: float) -> list[Formed]:
        """Form the tables due from a preset's queue: each taken out of the queue at once
        (atomically: a table whose people another process took meanwhile is not formed),
        made a room, its seats given. Answers the tables formed here."""
        by_player = {entry.waiting.player: entry for entry in entries}
        formed: list[Formed] = []
        waiting = [e.waiting for e in entries]
        for table in form_tables(waiting, now=now, wait=self.wait, family=family_of(preset)):
            people = table.people
            if not await self.queue.take(preset, [who.player for who in people.values()]):
                continue
            try:
                await self._seat(preset, table, {s: by_player[w.player] for s, w in people.items()})
            except Exception as error:
                log.warning("quick play: a table could not be formed (%s)", reason(error))
                for seat_entry in (by_player[w.player] for w in people.values()):
                    await self.queue.add(preset, seat_entry, now)
                continue
            formed.append(table)
        return formed

    async def _seat(self, preset: str, table: Formed, people: Mapping[Seat, Entry]) -> None:
        """Make a formed table a room, dealt at once: the people in their seats, arriving (no
        connection of theirs on the room yet: the table waits :data:`QUICK_GRACE` seconds
        for each, then a computer player plays the seat of one who has not come until they
        do), their seats noted and linked to their players, each given their seat token."""
        rules = PRESETS[preset]
        settings = RoomSettings(
            rules=preset,
            level=table.level,
            deck=rules.deck,
            target=rules.target,
            lang=table.lang,
            grace=QUICK_GRACE,
            watchers=self.rooms.flows.quick.watchers is Watchers.ANYONE,  # its flow's
            quick=True,
            clock=self.clock,
        )
        now = self.now()
        tokens = {seat: new_token() for seat in people}
        seats: list[RoomSeat] = [OpenSeat()] * 4
        # No two people at the table under the same name (two "Ana", two generated alike).
        apart = told_apart([entry.name for entry in people.values()])
        names = dict(zip(people, apart, strict=True))
        for seat, entry in people.items():
            token, formed = hash_token(tokens[seat]), time.time()  # the rooms' clock
            person = PersonSeat(names[seat], token, formed, hidden=entry.hidden, arriving=True)
            seats[seat] = person
        one, two, three, four = seats
        code = await self.rooms.create_quick(
            RoomState(settings, (one, two, three, four), creator=None), client="quick"
        )
        family = family_of(preset)

        def note() -> None:
            for seat, entry in people.items():
                player = entry.waiting.player
                self.store.quick.seat(player, room_code=code, seat=seat.name, family=family)
                self.store.players.link_room(player, code, seat.name)

        await self._write(note)
        given = {
            entry.waiting.player: Seated(code, tokens[seat], seat.name, table.lang)
            for seat, entry in people.items()
        }
        await self.queue.give(given, now)
        self.tables_formed += 1

    # -- life --

    def waiting_here(self) -> set[str]:
        """Who waits in quick play on this process now, as the lobby counts them: one member
        each (``queue:<player>``), from their waiting connections here."""
        return {f"queue:{watch.player}" for watch in self.watches}

    async def close(self) -> None:
        """Close the queue's connection (the rounds, :meth:`run`, are the game server's
        background work: stopped before)."""
        await self.queue.close()


__all__ = ["Person", "Queued", "QuickPlay", "check_preset"]
