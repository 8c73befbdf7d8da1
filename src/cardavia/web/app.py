"""The web application: pages, the games API and the table's WebSocket (docs/web.md).

:func:`create_app` builds it from :class:`Settings`; ``cardavia serve`` runs it with uvicorn.
Every page's URL starts with its language (``/fr/``, ``/ar/rules/``); ``/`` sends the visitor
to the browser's language. The server is the authority: the browser sends actions, the engine
checks them here, and the browser is sent only what South may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import importlib
import importlib.util
import logging
import os
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardavia.ai.decisions import Decisions
from cardavia.ai.environment import REDIS_URL_VARIABLE, deadline_from_env
from cardavia.ai.player import player_levels
from cardavia.belote import ALL_CARDS, DECKS, PRESETS, card_code
from cardavia.store.db import GameStore
from cardavia.teach.catalog import rules_text
from cardavia.teach.learning import THEMES, labels
from cardavia.web.bus import make_bus
from cardavia.web.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LANGUAGES,
    Catalogs,
    Wording,
    card_name,
    choose_language,
    is_language,
    load_catalogs,
    negotiate_language,
    suit_name,
    text_direction,
)
from cardavia.web.learn import Learning, daily_problem, problem_data, problems_data, today
from cardavia.web.limits import Limits, RateLimiter
from cardavia.web.pwa import router as pwa_router
from cardavia.web.rooms import RoomService, is_room_key
from cardavia.web.table import (
    CLOSE,
    DEFAULT_AI_DELAY,
    MAX_MESSAGE_BYTES,
    ClientError,
    Listener,
    TableService,
    decode_message,
    dump_message,
    printable,
)

log = logging.getLogger(__name__)

WEB_DIR: Final = Path(__file__).parent
RULES_ROUTES: Final = "cardavia.web.rules_routes"
"""The rules pages' module (its ``router`` is included when it is installed)."""
HTTP_STATUS: Final[Mapping[str, int]] = {
    "too_large": 413,
    "bad_origin": 403,
    "not_json": 415,
    "method_not_allowed": 405,
    "body_timeout": 408,
    "unavailable": 503,
    "rate_limited": 429,
    "too_many_games": 429,
    "too_many_sockets": 429,
    "missing_token": 401,
    "bad_token": 403,
    "game_not_found": 404,
    "not_found": 404,
    "stale": 409,
    "deal_not_over": 409,
    "internal": 500,
    "room_not_found": 404,
    "too_many_rooms": 429,
    "too_many_attempts": 429,
    "not_creator": 403,
    "watching": 403,
    "removed": 403,
    "seat_taken": 409,
    "room_full": 409,
    "already_started": 409,
    "not_started": 409,
}
"""The HTTP status of each error code (400 for the others: the request is wrong)."""
CLOSE_CODES: Final[Mapping[str, int]] = {
    "missing_token": 4401,
    "bad_token": 4403,
    "game_not_found": 4404,
    "room_not_found": 4404,
    "too_many_attempts": 4429,
    "bad_origin": 4403,
    "too_many_sockets": 4429,
    "too_slow": 4408,
    "rate_limited": 1008,
    "unavailable": 1013,
    "internal": 1011,
}
"""WebSocket close codes when a connection cannot open a game (after the ``error``
message that says why)."""
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
"""Scripts and styles from the site's own files only: no inline script (the table's strings
are a JSON ``<script>``, data rather than code) and no inline style attribute (scripts may
still set styles); images from the site or ``data:`` (the grain's texture); no page may be
framed by another site."""
DEFAULT_LIMITS: Final = Limits()
SWITCH_INTERVAL: Final = 0.0005
"""Seconds a thread may hold the GIL while another waits for it (Python's default: 5 ms).
The event loop shares the GIL with the threads deciding for the computer players and saving
actions; handing it back sooner cut the load test's p99 from 443 to 338 ms (bench/load.py,
200 club tables)."""
PURGE_INTERVAL: Final = 3600.0
"""Seconds between two purges of abandoned games."""
BODY_TIMEOUT: Final = 10.0
"""Seconds a request body may take to arrive (a slow client holds no worker longer)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How the site runs. The defaults are production's; tests set ``ai_delay=(0, 0)``, a
    ``seed`` and a temporary database."""

    database_url: str | None = None
    """SQLAlchemy URL; ``None``: ``CARDAVIA_DATABASE_URL``, else ``sqlite:///cardavia.db``."""
    redis_url: str | None = None
    """Redis, joining several web processes serving one site (``CARDAVIA_REDIS_URL``);
    ``None``: this process serves alone."""
    ai_delay: tuple[float, float] = DEFAULT_AI_DELAY
    """The computer players' pause before each action, seconds (low, high)."""
    seed: int | None = None
    """Seed the shuffles and the computer players (tests); ``None``: the system's randomness."""
    max_message_bytes: int = MAX_MESSAGE_BYTES
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://cardavia.example``) allowed besides the site's own host, for a
    ``POST`` or a WebSocket coming from a browser."""
    body_timeout: float = BODY_TIMEOUT
    limits: Limits = DEFAULT_LIMITS
    """Fair use: rate limits, queues, the computer players' budget per client, abandoned
    games (:class:`cardavia.web.limits.Limits`)."""
    web_dir: Path = WEB_DIR
    """Where ``templates/``, ``static/`` and ``locale/`` are."""

    @classmethod
    def from_env(cls) -> Settings:
        """The settings of the environment: ``CARDAVIA_DATABASE_URL``, ``CARDAVIA_REDIS_URL``,
        ``CARDAVIA_AI_DELAY`` (``0.4-0.9``, seconds) and ``CARDAVIA_ALLOWED_ORIGINS``
        (comma-separated)."""
        delay = DEFAULT_AI_DELAY
        text = os.environ.get("CARDAVIA_AI_DELAY")
        if text:
            low, _, high = text.partition("-")
            delay = (float(low), float(high or low))
        origins = os.environ.get("CARDAVIA_ALLOWED_ORIGINS", "")
        return cls(
            database_url=os.environ.get("CARDAVIA_DATABASE_URL"),
            redis_url=os.environ.get(REDIS_URL_VARIABLE) or None,
            ai_delay=delay,
            allowed_origins=tuple(o.strip() for o in origins.split(",") if o.strip()),
            limits=Limits.from_env(),
        )

    @property
    def templates_dir(self) -> Path:
        """The Jinja2 templates."""
        return self.web_dir / "templates"

    @property
    def static_dir(self) -> Path:
        """CSS, JavaScript modules, card pictures."""
        return self.web_dir / "static"

    @property
    def locale_dir(self) -> Path:
        """The gettext catalogs."""
        return self.web_dir / "locale"


class RedactTokens(logging.Filter):
    """Hide seat tokens in log lines (uvicorn logs each URL, and the WebSocket's carries
    ``?token=``): whoever reads the logs must not be able to act for a player."""

    PATTERN: Final = re.compile(r"(token=)[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = self.PATTERN.sub(r"\1…", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                self.PATTERN.sub(r"\1…", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        return True


def redact_tokens_in_logs() -> None:
    """Put :class:`RedactTokens` on uvicorn's loggers (once)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


# -- templates -------------------------------------------------------------------------------


def make_templates(directory: Path, catalogs: Catalogs) -> Jinja2Templates:
    """The Jinja2 templates, with gettext installed (newstyle: ``{{ _("Hi %(name)s",
    name=n) }}``, and ``{% trans %}``) in the language of the context's ``lang``."""

    @pass_context
    def gettext(context: Context, message: str) -> str:
        return catalogs.wording(str(context.get("lang", DEFAULT_LANGUAGE))).translations.gettext(
            message
        )

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, count: int) -> str:
        wording = catalogs.wording(str(context.get("lang", DEFAULT_LANGUAGE)))
        return wording.translations.ngettext(singular, plural, count)

    env = Environment(
        loader=FileSystemLoader(str(directory)),
        autoescape=select_autoescape(("html", "xml", "j2")),
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    return Jinja2Templates(env=env)


def page_context(lang: str, wording: Wording, templates: Jinja2Templates) -> dict[str, Any]:
    """What every page's template is given: ``lang``, ``dir``, ``_``/``gettext``,
    ``ngettext``, ``languages``, ``presets``, ``levels``, and the names of the cards and
    suits in the language (both decks: screen-reader labels)."""
    env = templates.env
    presets = []
    for key, rules in PRESETS.items():
        name, description = wording.preset(key, rules.target)
        presets.append(
            {
                "key": key,
                "name": name,
                "description": description,
                "deck": rules.deck,
                "target": rules.target,
                "is_match": rules.is_match,
            }
        )
    return {
        "lang": lang,
        "dir": text_direction(lang),
        "_": env.globals["gettext"],
        "gettext": env.globals["gettext"],
        "ngettext": env.globals["ngettext"],
        "languages": [
            {
                "code": code,
                "name": LANGUAGE_NAMES[code],
                "dir": text_direction(code),
                "url": f"/{code}/",
                "current": code == lang,
            }
            for code in LANGUAGES
        ],
        "presets": presets,
        "levels": [{"key": key, "name": wording.level(key)} for key in player_levels()],
        "card_names": {
            deck: {card_code(card): card_name(card, lang, deck) for card in ALL_CARDS}
            for deck in DECKS
        },
        "suit_names": {
            deck: {code: suit_name(index, lang, deck) for index, code in enumerate("SHDC")}
            for deck in DECKS
        },
    }


def not_found_page(catalogs: Catalogs, lang: str = DEFAULT_LANGUAGE) -> HTMLResponse:
    """The 404 page, with a link to each language's table: written here rather than from a
    template so that it works whatever is installed."""
    wording = catalogs.wording(lang)
    links = "\n".join(
        f'<li><a href="/{code}/" lang="{code}" dir="{text_direction(code)}">'
        f"{html.escape(LANGUAGE_NAMES[code])}</a></li>"
        for code in LANGUAGES
    )
    title = html.escape(wording.page_text("not_found_title"))
    body = (
        f'<!doctype html>\n<html lang="{lang}" dir="{wording.direction}">\n<head>\n'
        f'<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, '
        f'initial-scale=1">\n<title>{title} · Cardavia</title>\n'
        f'<link rel="stylesheet" href="/static/css/base.css">\n</head>\n<body>\n<main>\n'
        f"<h1>{title}</h1>\n<p>{html.escape(wording.page_text('not_found'))}</p>\n"
        f"<p>{html.escape(wording.page_text('choose_language'))}</p>\n<ul>\n{links}\n</ul>\n"
        "</main>\n</body>\n</html>\n"
    )
    return HTMLResponse(body, status_code=404)


# -- helpers of the API ----------------------------------------------------------------------


class SafeJSONResponse(JSONResponse):
    """JSON that can always be sent: a lone surrogate in it is written as a ``\\u``
    escape rather than fail while encoding."""

    def render(self, content: Any) -> bytes:
        return dump_message(content).encode("utf-8")


def error_response(error: ClientError, wording: Wording, deck: str = "french") -> JSONResponse:
    """A refused request: the protocol's ``error`` object, in the player's language, with the
    status of its code."""
    return SafeJSONResponse(
        error.message(wording, deck),
        status_code=HTTP_STATUS.get(error.code, 400),
        headers={"Cache-Control": "no-store"},
    )


async def read_json_body(request: Request, limit: int, timeout: float) -> dict[str, Any]:
    """The request's body as a JSON object, read no further than ``limit`` bytes and for no
    longer than ``timeout`` seconds; it must say it is JSON (``application/json``)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ClientError("too_large", {"count": limit})
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != "application/json":
        raise ClientError("not_json")
    body = bytearray()
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise ClientError("too_large", {"count": limit})
    except TimeoutError:
        raise ClientError("body_timeout") from None
    return decode_message(bytes(body), limit=limit)


def origin_allowed(headers: Mapping[str, str], allowed: tuple[str, ...] = ()) -> bool:
    """Whether a request may act: no ``Origin`` (not a browser's cross-site request), or the
    site's own (the ``Host`` it was sent to), or one of ``allowed``."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == headers.get("host", "")


def client_key(connection: Request | WebSocket) -> str:
    """Who a request is from, for the fair-use limits: the client's address (behind a
    proxy, uvicorn's ``--proxy-headers`` makes it the forwarded one)."""
    return connection.client.host if connection.client is not None else "unknown"


def request_token(request: Request) -> str | None:
    """The seat token of a request: ``?token=`` or ``Authorization: Bearer …``."""
    token = request.query_params.get("token")
    if token:
        return token
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def _pump(websocket: WebSocket, listener: Listener) -> None:
    """Send a connection's queued messages, in order, until it closes. Should sending fail,
    the connection is closed (and the failure logged): a connection never stays open with
    nobody sending to it."""
    try:
        while True:
            text = await listener.queue.get()
            if text == CLOSE:  # told why (too slow, flooding), now closed
                await websocket.close(code=listener.close_code)
                return
            await websocket.send_text(text)
    except (asyncio.CancelledError, WebSocketDisconnect):
        raise
    except Exception:
        log.warning("a connection could not be sent its messages", exc_info=True)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)


async def serve_connection(
    websocket: WebSocket,
    listener: Listener,
    limits: Limits,
    *,
    handle: Callable[[str | bytes], Awaitable[None]],
    depart: Callable[[], None],
    arrive: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Serve one open connection, a table's or a room's, until it closes: its queued
    messages sent in order (:func:`_pump`), each message received given to ``handle``
    within the client's rate (over it, the message is dropped and the client told once in a
    while; a flood closes the connection), and ``depart`` called however it ends."""
    sender = asyncio.create_task(_pump(websocket, listener))
    messages = RateLimiter(limits.messages_per_second, limits.messages_burst)
    flood = max(1, limits.flood_messages)
    excess = 0
    try:
        if arrive is not None:
            await arrive()
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not messages.allow(""):
                excess += 1
                if excess >= flood:
                    listener.send(ClientError("rate_limited").message(listener.wording, ""))
                    listener.close(CLOSE_CODES["rate_limited"])
                    break
                if excess % 50 == 1:
                    listener.send(ClientError("rate_limited").message(listener.wording, ""))
                continue
            text = message.get("text")
            await handle(text if text is not None else message.get("bytes") or b"")
    except WebSocketDisconnect:
        pass
    finally:
        depart()
        if not listener.dropped and excess < flood:
            sender.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(sender, timeout=5)
        if (
            websocket.application_state == WebSocketState.CONNECTED
            and websocket.client_state == WebSocketState.CONNECTED
        ):
            with contextlib.suppress(Exception):
                await websocket.close()


async def purge_abandoned_games(
    store: GameStore, days: float, rooms: Callable[[], Awaitable[int]] | None = None
) -> None:
    """Delete the unfinished games idle for ``days`` (0: never), at start then every hour;
    finished games are kept (README, "Abandoned games"). ``rooms``: close the rooms nobody
    has been at for a day (:meth:`cardavia.web.rooms.RoomService.purge`) too."""
    while True:
        try:
            if days > 0:
                count = await asyncio.to_thread(store.purge_abandoned, timedelta(days=days))
                if count:
                    log.info("%d abandoned games deleted (unfinished, idle %g days)", count, days)
            if rooms is not None:
                closed = await rooms()
                if closed:
                    log.info("%d rooms closed (nobody there for a day)", closed)
        except Exception:
            log.warning("abandoned games could not be deleted", exc_info=True)
        if days <= 0 and rooms is None:
            return
        await asyncio.sleep(PURGE_INTERVAL)


# -- the application -------------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> FastAPI:
    """The Cardavia site: table page, games API, the table's WebSocket, static files, the
    rules pages (when :mod:`cardavia.web.rules_routes` is installed) and ``/healthz``."""
    settings = settings or Settings.from_env()
    redact_tokens_in_logs()
    catalogs = load_catalogs(settings.locale_dir)
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
            deadline=deadline_from_env(),
        ),
    )
    templates = make_templates(settings.templates_dir, catalogs)
    limits = settings.limits
    game_creation = RateLimiter(limits.games_per_minute / 60.0, limits.games_burst)
    rooms = RoomService(
        service,
        rooms_per_client=limits.rooms_per_client,
        rooms_per_minute=limits.rooms_per_minute,
        lookups_per_minute=limits.room_lookups_per_minute,
        idle_days=limits.room_idle_days,
    )

    async def on_change(key: str, revision: int) -> None:
        if is_room_key(key):
            await rooms.on_remote_change(key, revision)
        else:
            await service.on_remote_change(key, revision)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.bus.start(on_change, service.resync)
        purger = asyncio.create_task(
            purge_abandoned_games(store, limits.abandoned_days, rooms.purge)
        )
        interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        yield
        sys.setswitchinterval(interval)
        purger.cancel()
        with contextlib.suppress(BaseException):
            await purger
        rooms.close()
        await service.close()
        await service.bus.close()
        store.close()

    app = FastAPI(title="Cardavia", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.catalogs = catalogs
    app.state.store = store
    app.state.tables = service
    app.state.rooms = rooms
    app.state.templates = templates
    learning = Learning(service)
    service.hints = learning.hint
    app.state.learning = learning

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> Response:
        log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        lang = choose_language(None, request.headers.get("accept-language"))
        return error_response(ClientError("internal"), catalogs.wording(lang))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        path = request.url.path
        lang = choose_language(None, request.headers.get("accept-language"))
        if error.status_code == 405 or path.startswith("/api/"):
            code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "internal")
            response = error_response(ClientError(code), catalogs.wording(lang))
            if error.headers:
                response.headers.update(error.headers)
            response.status_code = error.status_code
            return response
        if error.status_code == 404:
            first = path.strip("/").split("/")[0]
            return not_found_page(catalogs, first if is_language(first) else DEFAULT_LANGUAGE)
        return PlainTextResponse(str(error.detail), status_code=error.status_code)

    @app.get("/", include_in_schema=False)
    async def root(request: Request) -> RedirectResponse:
        lang = negotiate_language(request.headers.get("accept-language"))
        return RedirectResponse(f"/{lang}/", status_code=307, headers={"Vary": "Accept-Language"})

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> PlainTextResponse:
        return PlainTextResponse("ok")

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> Response:
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        try:
            if not origin_allowed(request.headers, settings.allowed_origins):
                raise ClientError("bad_origin")
            if not game_creation.allow(client_key(request)):
                response = error_response(ClientError("too_many_games"), catalogs.wording(lang))
                wait = game_creation.retry_after(client_key(request))
                response.headers["Retry-After"] = str(wait)
                return response
            data = await read_json_body(request, settings.max_message_bytes, settings.body_timeout)
            if is_language(data.get("lang")):
                lang = data["lang"]
            for key in data:
                if key not in ("rules", "level", "lang", "deck"):
                    raise ClientError("unknown_field", {"field": printable(str(key))[:24]})
            game = await service.create_game(
                data.get("rules", "cardavia"),
                data.get("level", "club"),
                data.get("lang", lang),
                data.get("deck"),
                client=client_key(request),
            )
        except ClientError as error:
            return error_response(error, catalogs.wording(lang))
        return JSONResponse(
            {"game": game.game_id, "token": game.token, "seat": game.seat},
            status_code=201,
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/api/games/{game_id}")
    async def game_view(request: Request, game_id: str) -> Response:
        asked = request.query_params.get("lang")
        lang = choose_language(asked, request.headers.get("accept-language"))
        try:
            table = await service.open(game_id, request_token(request))
        except ClientError as error:
            return error_response(error, catalogs.wording(lang))
        view = service.view(table, asked if asked and is_language(asked) else table.lang)
        return SafeJSONResponse(view, headers={"Cache-Control": "no-store"})

    @app.get("/api/games/{game_id}/analysis")
    async def deal_analysis(request: Request, game_id: str) -> Response:
        """The analysis of a finished deal (``?deal=N``, the current one by default): refused
        while that deal is being played."""
        asked = request.query_params.get("lang")
        lang = choose_language(asked, request.headers.get("accept-language"))
        try:
            table = await service.open(game_id, request_token(request))
            number_text = request.query_params.get("deal")
            number = None
            if number_text is not None:
                if not number_text.isdigit() or len(number_text) > 4:
                    raise ClientError("bad_field", {"field": "deal"})
                number = int(number_text)
            data = await learning.analysis(
                table, number, asked if asked and is_language(asked) else table.lang
            )
        except ClientError as error:
            return error_response(error, catalogs.wording(lang))
        return SafeJSONResponse(data, headers={"Cache-Control": "no-store"})

    @app.get("/api/learn/words")
    async def learning_words(request: Request) -> Response:
        """The words of the analysis view, the hint button and the shuffle check."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        text = rules_text(lang)
        return SafeJSONResponse({"lang": lang, "dir": text.direction} | labels(text))

    @app.get("/api/problems")
    async def training_problems(request: Request) -> Response:
        """The training problems (``?theme=``, all by default) as each seat sees them, with
        their solutions, in ``?lang=``."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        theme = request.query_params.get("theme")
        if theme is not None and theme not in THEMES:
            error = ClientError("bad_field", {"field": "theme"})
            return error_response(error, catalogs.wording(lang))
        data = await asyncio.to_thread(problems_data, catalogs.wording(lang), theme)
        return SafeJSONResponse({"lang": lang, "themes": list(THEMES), "problems": data})

    @app.get("/api/problems/today")
    async def problem_of_the_day(request: Request) -> Response:
        """The problem of the day (it changes at midnight UTC)."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        problem = daily_problem()
        data = await asyncio.to_thread(problem_data, problem, catalogs.wording(lang))
        return SafeJSONResponse(data | {"day": today()})

    @app.websocket("/ws/games/{game_id}")
    async def table_socket(websocket: WebSocket, game_id: str) -> None:
        asked = websocket.query_params.get("lang")
        await websocket.accept()
        try:
            if not origin_allowed(websocket.headers, settings.allowed_origins):
                raise ClientError("bad_origin")
            table = await service.open(game_id, websocket.query_params.get("token"))
            lang = asked if asked and is_language(asked) else table.lang
            listener = service.listen(table, lang, client=client_key(websocket))
        except ClientError as error:
            lang = choose_language(asked, websocket.headers.get("accept-language"))
            await websocket.send_text(dump_message(error.message(catalogs.wording(lang), "french")))
            await websocket.close(code=CLOSE_CODES.get(error.code, 1008))
            return
        service.ensure_runner(table)

        async def handle(data: str | bytes) -> None:
            await service.handle_text(table, listener, data)

        await serve_connection(
            websocket,
            listener,
            limits,
            handle=handle,
            depart=lambda: service.unlisten(table, listener),
        )

    from cardavia.web.room_routes import install_rooms  # it imports this module's helpers

    install_rooms(app, rooms, settings, catalogs, templates)

    if importlib.util.find_spec(RULES_ROUTES) is not None:
        rules_router: APIRouter = importlib.import_module(RULES_ROUTES).router
        app.include_router(rules_router)

    # The installable app: /manifest.webmanifest and /sw.js (cardavia.web.pwa).
    app.include_router(pwa_router)

    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), "static")

    @app.get("/{lang}/", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        context = page_context(lang, catalogs.wording(lang), templates)
        return templates.TemplateResponse(request, "table.html", context)

    return app
