"""The game server of one process (docs/architecture.md, "The live floor"), built once by
:meth:`GameServer.build` from the site's settings: every service is given, when it is made,
what it works with and who is told of what happens in it — nothing is wired by assignment
afterwards. One owner holds what the services share (the store, the one writer thread, the
bus, the computer players' decisions, the site-wide counters) and hands it to each; one list
of background jobs runs for the process's life (:meth:`GameServer.running`), and the whole is
closed in order at its end.

The site's HTTP and socket face (:mod:`cardavia.web.app`) runs :meth:`GameServer.running` as
its one lifespan and installs its routes over the services.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from cardavia.ai.decisions import Decisions
from cardavia.live.bus import LocalBus, make_bus
from cardavia.live.clock import ActionClock
from cardavia.live.flows import Flows
from cardavia.live.friend_news import FriendNews
from cardavia.live.friends import CLOSING_SOON, Friends, closing_entry
from cardavia.live.learn import Learning
from cardavia.live.leaving import Leaving, SeatsFinished
from cardavia.live.limits import Counters
from cardavia.live.lobby import Lobby
from cardavia.live.presence import Presence
from cardavia.live.push import Push
from cardavia.live.quickplay import QuickPlay
from cardavia.live.ratings import RoomRatings
from cardavia.live.room_connections import RoomConnections
from cardavia.live.room_messages import RoomMessages
from cardavia.live.rooms import RoomService, is_room_key
from cardavia.live.safety import Safety
from cardavia.live.settings import Settings
from cardavia.live.tables import TableService
from cardavia.live.tournament_schedule import decide_with, run_schedule, work_out_pars
from cardavia.live.tournament_tables import DealTablesOfService, TournamentTables
from cardavia.live.upkeep import count_in_play, purge_abandoned_games
from cardavia.live.writer import GameWriter
from cardavia.metrics import process_stopped
from cardavia.players import Players
from cardavia.players.ratings import Ratings
from cardavia.store.db import GameStore
from cardavia.tournaments.service import Tournaments
from cardavia.words import Catalogs, load_catalogs


@dataclass(frozen=True, slots=True)
class Job:
    """One of the game server's background jobs: its work, and whether the stop may cut it
    short (a job that writes through a thread of its own ends its round instead, so that no
    write outlives the store)."""

    work: Coroutine[Any, Any, None]
    cut_short: bool = True


@dataclass(frozen=True, slots=True)
class GameServer:
    """The services of one process's game server, each built once with what it works with
    (:meth:`build`)."""

    settings: Settings
    store: GameStore
    catalogs: Catalogs
    writer: GameWriter
    """The one thread that writes the store (every service's writes go through it)."""
    bus: LocalBus
    """How the other processes of the site hear of this one's changes, and it of theirs."""
    decisions: Decisions
    """Where the computer players think, and the one cap on each client's computer work."""
    counters: Counters
    """Where the site-wide limits count."""
    presence: Presence
    players: Players
    tables: TableService
    learning: Learning
    rooms: RoomService
    room_messages: RoomMessages
    room_connections: RoomConnections
    quick: QuickPlay
    lobby: Lobby
    safety: Safety
    friends: Friends
    push: Push
    """Telling players while the site is closed (:mod:`cardavia.live.push`)."""
    tournament_tables: TournamentTables
    """The tournaments' deals as tables: their window, their seal (the table service's rules)."""
    tournaments: Tournaments
    deal_started: asyncio.Event
    """Set when a tournament's deal is started here: the par's worker looks at once."""
    guests_kept: timedelta | None = None
    """How long a guest never seen again is kept (their cookie's life; ``None``: for ever)."""

    @classmethod
    def build(
        cls,
        settings: Settings,
        *,
        catalogs: Catalogs | None = None,
        bus: LocalBus | None = None,
        decisions: Decisions | None = None,
        guests_kept: timedelta | None = None,
    ) -> GameServer:
        """The game server of ``settings``: what its services share made once (``bus`` and
        ``decisions`` given: those instead), then each service, the ones it is told by first."""
        catalogs = catalogs or load_catalogs()
        store = GameStore(settings.database_url)
        writer = GameWriter(store)
        bus = bus or make_bus(settings.redis_url)
        decisions = decisions or Decisions.from_settings(
            redis_url=settings.redis_url,
            per_client=settings.limits.ai_per_client,
            deadline=settings.ai_deadline,
        )
        counters = Counters(settings.redis_url)
        flows = Flows()
        tournament_tables = TournamentTables(store, flow=flows.tournament)
        learning = Learning(decisions.budget, catalogs, sealed=tournament_tables.is_sealed)
        tables = TableService(
            store,
            catalogs,
            ai_delay=settings.ai_delay,
            seed=settings.seed,
            max_message_bytes=settings.max_message_bytes,
            limits=settings.limits,
            writer=writer,
            bus=bus,
            decisions=decisions,
            hints=learning.hint,
            rules=(tournament_tables,),
            flows=flows,
        )
        rooms = room_service(
            tables, settings, store=store, writer=writer, bus=bus, counters=counters
        )
        quick = QuickPlay.of_settings(rooms, store, catalogs, settings, counters, writer=writer)
        players = Players(store.players, store.passkeys)
        presence = Presence(settings.redis_url)
        deal_started = asyncio.Event()
        deal_tables = DealTablesOfService(tables, on_deal=deal_started.set)
        safety = Safety(store, rooms, players, counters, settings.limits)
        push = Push(store, settings.push, catalogs)
        return cls(
            settings=settings,
            store=store,
            catalogs=catalogs,
            writer=writer,
            bus=bus,
            decisions=decisions,
            counters=counters,
            presence=presence,
            players=players,
            tables=tables,
            learning=learning,
            rooms=rooms,
            room_messages=RoomMessages(
                rooms,
                settings.limits,
                leaving=Leaving(store, writer),
                max_message_bytes=settings.max_message_bytes,
            ),
            room_connections=RoomConnections(rooms),
            quick=quick,
            lobby=Lobby(tables, rooms, presence, store.ratings, waiting=quick.waiting_here),
            safety=safety,
            friends=Friends(
                store, safety, FriendNews(settings.redis_url), counters, settings.limits, push
            ),
            push=push,
            tournament_tables=tournament_tables,
            tournaments=Tournaments(store, deal_tables, clock=tournament_tables.clock),
            deal_started=deal_started,
            guests_kept=guests_kept,
        )

    def jobs(self, stop: asyncio.Event) -> list[Job]:
        """The background work, one list: the purge of abandoned games, idle rooms and
        unseen guests; the count of the tables in play; quick play's rounds; the lobby's
        heartbeat; the tournaments' schedule and their pars (these two end their round when
        ``stop`` is set); the pushed reminders of tournaments about to close."""
        purge = purge_abandoned_games(
            self.store,
            self.settings.limits.abandoned_days,
            self.rooms.purge,
            writer=self.writer,
            guests_kept=self.guests_kept,
        )
        decide = decide_with(self.decisions)
        return [
            Job(purge),
            Job(count_in_play(self.tables, self.rooms)),
            Job(self.quick.run()),
            Job(self.lobby.run()),
            Job(run_schedule(self.tournaments, stop), cut_short=False),
            Job(work_out_pars(self.tournaments, decide, stop, self.deal_started), cut_short=False),
            Job(self.push.remind_forever(CLOSING_SOON, closing_entry)),
        ]

    async def on_change(self, key: str, revision: int) -> None:
        """Another process saved a room or a game (the bus): whoever holds it here follows."""
        if is_room_key(key):
            await self.rooms.on_remote_change(key, revision)
        else:
            await self.tables.on_remote_change(key, revision)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The game server's life: the bus delivering the other processes' changes and the
        background jobs; at the end the jobs stopped (those that write end their round), then
        everything closed in order, the store last."""
        await self.bus.start(self.on_change, self.tables.resync)
        stop = asyncio.Event()
        tasks = [(asyncio.create_task(job.work), job.cut_short) for job in self.jobs(stop)]
        try:
            yield
        finally:
            stop.set()
            for task, cut_short in tasks:
                if cut_short:
                    task.cancel()
            for task, _ in tasks:
                with contextlib.suppress(BaseException):
                    await task
            await self.close()

    async def close(self) -> None:
        """Close every service, then what they share, in order: nothing is left writing when
        the store closes."""
        await self.quick.close()
        await self.presence.close()
        await self.friends.news.close()
        await self.push.close()
        self.rooms.close()
        await self.tables.close()
        self.writer.shutdown()
        await self.decisions.close()
        await self.bus.close()
        await self.counters.close()
        self.store.close()
        process_stopped()


def room_service(
    tables: TableService,
    settings: Settings,
    *,
    store: GameStore,
    writer: GameWriter,
    bus: LocalBus,
    counters: Counters,
) -> RoomService:
    """The rooms over ``tables``: told of each quick-play deal over (its rating, its seats
    finished) and followed by the action clock."""
    return RoomService(
        tables,
        store=store,
        writer=writer,
        bus=bus,
        limits=settings.limits,
        counters=counters,
        deal_listeners=(
            RoomRatings(Ratings(store.ratings)).deal_over,
            SeatsFinished(store, writer),
        ),
        followers=(ActionClock().follow,),
        flows=tables.flows,
    )


__all__ = ["GameServer", "Job", "room_service"]
