"""The web application (docs/web.md): :func:`create_app` builds the game server of its
:class:`~cardavia.live.settings.Settings` (:class:`~cardavia.live.game_server.GameServer`:
the store, the tables, the rooms, quick play, the bus between processes) and installs the
site's face over it — the edge, the pages, each route file's installer; ``cardavia serve``
runs it with uvicorn. Its one lifespan is the game server's life.

Every page's URL starts with its language (``/fr/``, ``/ar/rules/``); ``/`` sends the visitor
to the browser's language. The server is the authority: the browser sends actions, the engine
checks them here, and each browser is sent only what its seat may see.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import sys
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Final

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from cardavia.live.game_server import GameServer
from cardavia.live.logs import redact_tokens_in_logs
from cardavia.live.protocol import ClientError
from cardavia.live.settings import Settings
from cardavia.web.compression import Compression
from cardavia.web.edge import Edge
from cardavia.web.guests import COOKIE_MAX_AGE, Guests
from cardavia.web.head import HeadAsGet
from cardavia.web.history import History
from cardavia.web.home import Home
from cardavia.web.http_helpers import error_response, install_refusals
from cardavia.web.i18n import choose_language
from cardavia.web.leagues import Leagues
from cardavia.web.pages import make_templates
from cardavia.web.profile import Profiles
from cardavia.web.routes import friends as friend_routes
from cardavia.web.routes import history as history_routes
from cardavia.web.routes import leagues as league_routes
from cardavia.web.routes import learn, me, pages, passkeys, pwa, rules, tables
from cardavia.web.routes import lobby as lobby_routes
from cardavia.web.routes import profile as profile_routes
from cardavia.web.routes import push as push_routes
from cardavia.web.routes import quickplay as quick_routes
from cardavia.web.routes import replays as replay_routes
from cardavia.web.routes import rooms as room_routes
from cardavia.web.routes import safety as safety_routes
from cardavia.web.routes import statistics as statistics_routes
from cardavia.web.routes import tournaments as tournament_routes
from cardavia.web.statistics import StatisticsPages

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
GUESTS_KEPT: Final = timedelta(seconds=COOKIE_MAX_AGE)
"""How long a guest (no passkey) is kept unseen: their cookie's life, past which no browser
holds their token."""


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


def install_routes(
    app: FastAPI, live: GameServer, guests: Guests, templates: Jinja2Templates
) -> None:
    """Each route file's installer, over the game server's services and the pages' builders
    made here (the players' histories, profiles and leagues: pages of the store)."""
    settings, catalogs, counters = live.settings, live.catalogs, live.counters
    tables.install(app, live.tables, settings, catalogs, counters, guests=guests)
    learn.install(app, live.tables, live.learning, catalogs)
    room_routes.install(
        app,
        live.rooms,
        settings,
        catalogs,
        templates,
        messages=live.room_messages,
        connections=live.room_connections,
        guests=guests,
        arrived=live.safety.arrived,
    )
    me.install(app, guests, settings, catalogs, counters)
    passkeys.install(app, guests, settings, catalogs, counters)
    history = History(
        live.store,
        live.learning,
        catalogs,
        sealed=live.tournaments.sealed,
        tournament_of=live.tournaments.deal_of,
    )
    history_routes.install(app, history, guests, settings, catalogs, templates)
    replay_routes.install(
        app, history, live.tables, guests, settings, counters, catalogs, templates
    )
    tournament_routes.install(
        app, live.tournaments, guests, settings, counters, catalogs, templates
    )
    profiles = Profiles(live.store, history, live.rooms, catalogs)
    profile_routes.install(app, profiles, guests, settings, catalogs, counters, templates)
    statistics = StatisticsPages(live.store, live.learning)
    statistics_routes.install(app, statistics, live.friends, guests, catalogs, templates)
    quick_routes.install(app, live.quick, guests, settings, catalogs, templates)
    safety_routes.install(app, live.safety, guests, settings, catalogs)
    friend_routes.install(app, live.friends, guests, settings, catalogs, templates)
    push_routes.install(app, live.push, guests, settings)
    lobby_routes.install(app, live.lobby, catalogs, templates)
    rules.install(app, catalogs, templates)
    league_routes.install(app, Leagues(live.store), guests, catalogs, templates)
    pwa.install(app, settings.static_dir)
    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), "static")
    home = Home(live.tournaments, live.store)
    pages.install(app, catalogs, templates, home=home, guests=guests)


def create_app(settings: Settings | None = None, *, live: GameServer | None = None) -> FastAPI:
    """The Cardavia site: table page, games API, the table's WebSocket, rooms, learning, the
    rules pages, the installable app, static files and ``/healthz``; over ``live``, the game
    server (made of ``settings`` when not given)."""
    if live is None:
        live = GameServer.build(settings or Settings.from_env(), guests_kept=GUESTS_KEPT)
    settings, catalogs = live.settings, live.catalogs
    redact_tokens_in_logs()
    templates = make_templates(settings.templates_dir, catalogs)
    # Every page's settings offer push only where the site has its key (base.html).
    templates.env.globals["push_key"] = live.push.public_key

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """The site's one life: the game server's (its bus, its background jobs, then
        everything closed in order), the process settled for serving."""
        async with live.running():
            settle_the_process()
            yield

    app = FastAPI(
        title="Cardavia", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    # What tests and tools reach for (nothing of the site reads it back).
    app.state.live = live
    app.state.settings = settings
    app.state.store = live.store
    app.state.tables = live.tables
    app.state.rooms = live.rooms
    app.state.learning = live.learning
    app.state.players = live.players
    app.state.quick = live.quick
    app.state.lobby = live.lobby
    app.state.tournaments = live.tournaments
    app.state.tournament_tables = live.tournament_tables
    # Inside the edge (added first): a compressed answer gets the security headers too, and
    # a HEAD the headers its GET would have.
    app.add_middleware(Compression)
    app.add_middleware(HeadAsGet)
    app.add_middleware(
        Edge,
        allowed_hosts=settings.allowed_hosts,
        internal_error=lambda headers: error_response(
            ClientError("internal"),
            catalogs.wording(choose_language(None, headers.get("accept-language"))),
        ),
    )
    pages.install_errors(app, catalogs)
    install_refusals(app, catalogs)
    install_routes(app, live, Guests(live.players, settings.trusted_proxies), templates)
    return app


__all__ = ["GUESTS_KEPT", "create_app", "install_routes", "settle_the_process"]
