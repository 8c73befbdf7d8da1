"""The web application (docs/web.md): :func:`create_app` assembles the site from its
:class:`~cardavia.live.settings.Settings`: the store, the table and room services, the bus
between processes, and each route file's installer; ``cardavia serve`` runs it with uvicorn.

Every page's URL starts with its language (``/fr/``, ``/ar/rules/``); ``/`` sends the visitor
to the browser's language. The server is the authority: the browser sends actions, the engine
checks them here, and each browser is sent only what its seat may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Final

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from cardavia.ai.decisions import Decisions
from cardavia.live.bus import make_bus
from cardavia.live.clock import ActionClock
from cardavia.live.learn import Learning
from cardavia.live.leaving import SeatsFinished
from cardavia.live.limits import Counters
from cardavia.live.lobby import Lobby
from cardavia.live.logs import reason, redact_tokens_in_logs
from cardavia.live.presence import Presence
from cardavia.live.protocol import ClientError
from cardavia.live.quickplay import QuickPlay
from cardavia.live.ratings import RoomRatings
from cardavia.live.rooms import RoomService, is_room_key
from cardavia.live.safety import Safety
from cardavia.live.settings import Settings
from cardavia.live.tables import TableService
from cardavia.live.tournament_schedule import decide_with
from cardavia.live.tournament_tables import DealTablesOfService, TournamentTables
from cardavia.live.writer import GameWriter
from cardavia.metrics import in_play, process_stopped
from cardavia.players import Players
from cardavia.players.ratings import Ratings
from cardavia.store.db import GameStore, StoreUnavailableError
from cardavia.tournaments.service import Tournaments
from cardavia.web.edge import Edge
from cardavia.web.guests import COOKIE_MAX_AGE, Guests
from cardavia.web.history import History
from cardavia.web.http_helpers import error_response
from cardavia.web.i18n import choose_language
from cardavia.web.leagues import Leagues
from cardavia.web.pages import make_templates
from cardavia.web.profile import Profiles
from cardavia.web.routes import history as history_routes
from cardavia.web.routes import leagues as league_routes
from cardavia.web.routes import learn, me, pages, passkeys, pwa, rules, tables
from cardavia.web.routes import lobby as lobby_routes
from cardavia.web.routes import profile as profile_routes
from cardavia.web.routes import quickplay as quick_routes
from cardavia.web.routes import rooms as room_routes
from cardavia.web.routes import safety as safety_routes
from cardavia.web.routes import tournaments as tournament_routes
from cardavia.web.tournaments import keep_scheduling
from cardavia.words import Catalogs, load_catalogs

log = logging.getLogger(__name__)

SWITCH_INTERVAL: Final = 0.0005
"""Seconds a thread may hold the GIL while another waits for it (Python's default: 5 ms).
The event loop shares the GIL with the threads deciding for the computer players and saving
actions; handing it back sooner cut the load test's p99 from 443 to 338 ms (bench/load.py,
200 club tables)."""
GC_THRESHOLDS: Final = (10_000, 20, 10)
"""The collector's thresholds while the site runs (Python's: 700, 10, 10). A deal makes
many short-lived values (views, observations, messages); collecting young objects every 700
allocations found them alive and moved them on to the costly older generations. The site's
own objects (modules, catalogs, templates) are frozen at start: never looked at again."""
PURGE_INTERVAL: Final = 3600.0
"""Seconds between two purges of abandoned games."""
GUESTS_KEPT: Final = timedelta(seconds=COOKIE_MAX_AGE)
"""How long a guest (no passkey) is kept unseen: their cookie's life, past which no browser
holds their token."""
IN_PLAY_INTERVAL: Final = 5.0
"""Seconds between two counts of the tables and rooms in play (:mod:`cardavia.metrics`)."""


async def purge_abandoned_games(
    store: GameStore,
    days: float,
    rooms: Callable[[], Awaitable[int]] | None = None,
    *,
    writer: GameWriter | None = None,
) -> None:
    """Delete the unfinished games idle for ``days`` (0: never), at start then every hour;
    finished games are kept (docs/fair-use.md). ``rooms``: close the rooms nobody
    has been at for a day (:meth:`cardavia.live.rooms.RoomService.purge`) too. Guests not seen
    for longer than their cookie lives are erased (docs/players.md, "The guest"). The
    deletions are the site's writes: in ``writer``'s thread when given (the one that writes
    the games, which the site's stop waits for: a purge under way never outlives the store)."""
    write = writer.call if writer is not None else asyncio.to_thread
    while True:
        try:
            if days > 0:
                count = await write(store.purge_abandoned, timedelta(days=days))
                if count:
                    log.info("%d abandoned games deleted (unfinished, idle %g days)", count, days)
            if rooms is not None:
                closed = await rooms()
                if closed:
                    log.info("%d rooms closed (nobody there for a day)", closed)
            guests = await write(store.players.purge_guests, GUESTS_KEPT)
            if guests:
                log.info("%d guests erased (not seen since their cookie ran out)", guests)
        except (StoreUnavailableError, ClientError) as error:
            log.warning("abandoned games could not be deleted (%s)", reason(error))
        except Exception:
            log.warning("abandoned games could not be deleted", exc_info=True)
        if days <= 0 and rooms is None:
            return
        await asyncio.sleep(PURGE_INTERVAL)


async def count_in_play(service: TableService, rooms: RoomService) -> None:
    """Tell the metrics the tables and rooms open here, every :data:`IN_PLAY_INTERVAL`."""
    while True:
        in_play(service.in_play, len(rooms.rooms))
        await asyncio.sleep(IN_PLAY_INTERVAL)


def settle_the_process() -> None:
    """Tune the process for serving, once: the GIL handed back within
    :data:`SWITCH_INTERVAL`, the collector's :data:`GC_THRESHOLDS`, and what the process
    holds at start collected, then frozen. The settings are the process's, not a site's: a
    second site started in the same process (the tests start hundreds) finds them made, and
    does not pay the full collection again (a quarter of a second, most of a start)."""
    if gc.get_freeze_count():
        return
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@contextlib.asynccontextmanager
async def _running(
    _app: FastAPI,
    *,
    service: TableService,
    rooms: RoomService,
    store: GameStore,
    counters: Counters,
    quick: QuickPlay | None = None,
) -> AsyncIterator[None]:
    """The site's life: the bus delivering other processes' changes (a game's to the table
    service, a room's to the rooms), the purge of abandoned games, the process settled for
    serving (:func:`settle_the_process`); then everything closed in order."""

    async def on_change(key: str, revision: int) -> None:
        if is_room_key(key):
            await rooms.on_remote_change(key, revision)
        else:
            await service.on_remote_change(key, revision)

    await service.bus.start(on_change, service.resync)
    purger = asyncio.create_task(
        purge_abandoned_games(
            store, service.limits.abandoned_days, rooms.purge, writer=service.writer
        )
    )
    counter = asyncio.create_task(count_in_play(service, rooms))
    if quick is not None:
        quick.start()
    settle_the_process()
    yield
    for task in (purger, counter):
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    if quick is not None:
        await quick.close()
    rooms.close()
    await service.close()
    await service.bus.close()
    await counters.close()
    store.close()
    process_stopped()


def lobby_and_safety(
    service: TableService,
    rooms: RoomService,
    guests: Guests,
    counters: Counters,
    settings: Settings,
    quick: QuickPlay,
) -> tuple[Lobby, Safety]:
    """The lobby (who plays here, the people waiting in quick play included) and the
    safety's blocks and reports."""
    lobby = Lobby(service, rooms, Presence(settings.redis_url))
    lobby.waiting.append(lambda: {f"queue:{watch.player}" for watch in quick.watches})
    safety = Safety(service.store, rooms, guests.players, counters, settings.limits)
    return lobby, safety


def install_lobby_and_safety(
    app: FastAPI,
    lobby: Lobby,
    safety: Safety,
    guests: Guests,
    settings: Settings,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """The lobby's and the safety's routes (and the lobby where tests reach for it); the
    lobby's heartbeat runs for the site's life, inside the rest of it."""
    app.state.lobby = lobby
    safety_routes.install(app, safety, guests, settings, catalogs)
    lobby_routes.install(app, lobby, catalogs, templates)
    outer = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def with_heartbeat(app: FastAPI) -> AsyncIterator[None]:
        async with outer(app):
            heartbeat = asyncio.create_task(lobby.run())
            yield
            heartbeat.cancel()
            with contextlib.suppress(BaseException):
                await heartbeat
            await lobby.presence.close()

    app.router.lifespan_context = with_heartbeat


def players_deals(
    app: FastAPI,
    service: TableService,
    learning: Learning,
    guests: Guests,
    settings: Settings,
    counters: Counters,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> History:
    """The players' deals: their histories (My games) and the tournaments
    (docs/tournaments.md: their tables, pages and scheduler; a deal of a tournament still open
    is sealed: no shared link, no next deal at its table, no hint; no action once it has
    closed). Answers the history."""
    history = History(service.store, learning, catalogs)
    history_routes.install(app, history, guests, settings, catalogs, templates)
    tables = DealTablesOfService(service)
    tournaments = Tournaments(service.store, tables)
    app.state.tournaments = tournaments
    history.sealed = tournaments.sealed
    guard = TournamentTables(tournaments)
    guard.install(service)
    learning.sealed = guard.is_sealed
    tournament_routes.install(app, tournaments, guests, settings, counters, catalogs, templates)
    keep_scheduling(app, tournaments, decide=decide_with(service), tables=tables)
    return history


def create_app(settings: Settings | None = None) -> FastAPI:
    """The Cardavia site: table page, games API, the table's WebSocket, rooms, learning, the
    rules pages, the installable app, static files and ``/healthz``."""
    settings = settings or Settings.from_env()
    redact_tokens_in_logs()
    catalogs = load_catalogs()
    store = GameStore(settings.database_url)
    service = TableService(
        store,
        catalogs,
        ai_delay=settings.ai_delay,
        seed=settings.seed,
        max_message_bytes=settings.max_message_bytes,
        limits=settings.limits,
        bus=make_bus(settings.redis_url),
        decisions=Decisions.from_settings(
            redis_url=settings.redis_url,
            per_client=settings.limits.ai_per_client,
            deadline=settings.ai_deadline,
        ),
    )
    templates = make_templates(settings.templates_dir, catalogs)
    counters = Counters(settings.redis_url)
    rooms = RoomService(
        service,
        store=store,
        writer=service.writer,
        bus=service.bus,
        limits=settings.limits,
        counters=counters,
    )
    rooms.deal_listeners.append(RoomRatings(Ratings(store.ratings)).deal_over)
    ActionClock(rooms)
    rooms.deal_listeners.append(SeatsFinished(store, service.writer))
    learning = Learning(service)
    service.hints = learning.hint
    guests = Guests(Players(store.players, store.passkeys), settings.trusted_proxies)
    quick = QuickPlay.of_settings(rooms, store, catalogs, settings, counters)
    lobby, safety = lobby_and_safety(service, rooms, guests, counters, settings, quick)
    lifespan = functools.partial(
        _running, service=service, rooms=rooms, store=store, counters=counters, quick=quick
    )
    app = FastAPI(
        title="Cardavia", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    # What tests and tools reach for (nothing of the site reads it back).
    app.state.settings = settings
    app.state.store = store
    app.state.tables = service
    app.state.rooms = rooms
    app.state.learning = learning
    app.state.players = guests.players
    app.state.quick = quick
    app.add_middleware(
        Edge,
        allowed_hosts=settings.allowed_hosts,
        internal_error=lambda headers: error_response(
            ClientError("internal"),
            catalogs.wording(choose_language(None, headers.get("accept-language"))),
        ),
    )
    pages.install_errors(app, catalogs)
    tables.install(app, service, settings, catalogs, counters, guests=guests)
    learn.install(app, service, learning, catalogs)
    arrived = safety.arrived
    room_routes.install(app, rooms, settings, catalogs, templates, guests=guests, arrived=arrived)
    me.install(app, guests, settings, catalogs, counters)
    passkeys.install(app, guests, settings, catalogs, counters)
    history = players_deals(app, service, learning, guests, settings, counters, catalogs, templates)
    profiles = Profiles(store, history, rooms, catalogs)
    profile_routes.install(app, profiles, guests, settings, catalogs, counters, templates)
    quick_routes.install(app, quick, guests, settings, catalogs, templates)
    install_lobby_and_safety(app, lobby, safety, guests, settings, catalogs, templates)
    rules.install(app, catalogs, templates)
    league_routes.install(app, Leagues(store), guests, catalogs, templates)
    pwa.install(app, settings.static_dir)
    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), "static")
    pages.install(app, catalogs, templates)
    return app


__all__ = ["create_app", "install_lobby_and_safety", "lobby_and_safety", "purge_abandoned_games"]
