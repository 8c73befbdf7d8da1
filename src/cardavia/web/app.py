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
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardavia.ai.player import player_levels
from cardavia.belote.cards import ALL_CARDS, DECKS, card_code
from cardavia.belote.rules import PRESETS
from cardavia.store.db import GameStore
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
from cardavia.web.pwa import router as pwa_router
from cardavia.web.table import (
    DEFAULT_AI_DELAY,
    MAX_MESSAGE_BYTES,
    ClientError,
    Listener,
    TableService,
    decode_message,
)

log = logging.getLogger(__name__)

WEB_DIR: Final = Path(__file__).parent
RULES_ROUTES: Final = "cardavia.web.rules_routes"
"""The rules pages' module (its ``router`` is included when it is installed)."""
HTTP_STATUS: Final[Mapping[str, int]] = {
    "too_large": 413,
    "missing_token": 401,
    "bad_token": 403,
    "game_not_found": 404,
    "not_found": 404,
    "stale": 409,
    "internal": 500,
}
"""The HTTP status of each error code (400 for the others: the request is wrong)."""
CLOSE_CODES: Final[Mapping[str, int]] = {
    "missing_token": 4401,
    "bad_token": 4403,
    "game_not_found": 4404,
    "internal": 1011,
}
"""WebSocket close codes when a connection cannot open a game (after the ``error``
message that says why)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How the site runs. The defaults are production's; tests set ``ai_delay=(0, 0)``, a
    ``seed`` and a temporary database."""

    database_url: str | None = None
    """SQLAlchemy URL; ``None``: ``CARDAVIA_DATABASE_URL``, else ``sqlite:///cardavia.db``."""
    ai_delay: tuple[float, float] = DEFAULT_AI_DELAY
    """The computer players' pause before each action, seconds (low, high)."""
    seed: int | None = None
    """Seed the shuffles and the computer players (tests); ``None``: the system's randomness."""
    max_message_bytes: int = MAX_MESSAGE_BYTES
    web_dir: Path = WEB_DIR
    """Where ``templates/``, ``static/`` and ``locale/`` are."""

    @classmethod
    def from_env(cls) -> Settings:
        """The settings of the environment: ``CARDAVIA_DATABASE_URL`` and
        ``CARDAVIA_AI_DELAY`` (``0.4-0.9``, seconds)."""
        delay = DEFAULT_AI_DELAY
        text = os.environ.get("CARDAVIA_AI_DELAY")
        if text:
            low, _, high = text.partition("-")
            delay = (float(low), float(high or low))
        return cls(database_url=os.environ.get("CARDAVIA_DATABASE_URL"), ai_delay=delay)

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


def error_response(error: ClientError, wording: Wording, deck: str = "french") -> JSONResponse:
    """A refused request: the protocol's ``error`` object, in the player's language, with the
    status of its code."""
    return JSONResponse(
        error.message(wording, deck),
        status_code=HTTP_STATUS.get(error.code, 400),
        headers={"Cache-Control": "no-store"},
    )


async def read_json_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's body as a JSON object, read no further than ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ClientError("too_large", {"count": limit})
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ClientError("too_large", {"count": limit})
    return decode_message(bytes(body), limit=limit)


def request_token(request: Request) -> str | None:
    """The seat token of a request: ``?token=`` or ``Authorization: Bearer …``."""
    token = request.query_params.get("token")
    if token:
        return token
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def _pump(websocket: WebSocket, listener: Listener) -> None:
    """Send a connection's queued messages, in order, until it closes."""
    while True:
        message = await listener.queue.get()
        await websocket.send_json(message)


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
    )
    templates = make_templates(settings.templates_dir, catalogs)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        await service.close()
        store.close()

    app = FastAPI(title="Cardavia", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.catalogs = catalogs
    app.state.store = store
    app.state.tables = service
    app.state.templates = templates

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        path = request.url.path
        lang = choose_language(None, request.headers.get("accept-language"))
        if path.startswith("/api/"):
            code = "not_found" if error.status_code == 404 else "internal"
            response = error_response(ClientError(code), catalogs.wording(lang))
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
            data = await read_json_body(request, settings.max_message_bytes)
            if is_language(data.get("lang")):
                lang = data["lang"]
            for key in data:
                if key not in ("rules", "level", "lang", "deck"):
                    raise ClientError("unknown_field", {"field": str(key)[:24]})
            game = await service.create_game(
                data.get("rules", "cardavia"),
                data.get("level", "club"),
                data.get("lang", lang),
                data.get("deck"),
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
        return JSONResponse(view, headers={"Cache-Control": "no-store"})

    @app.websocket("/ws/games/{game_id}")
    async def table_socket(websocket: WebSocket, game_id: str) -> None:
        asked = websocket.query_params.get("lang")
        await websocket.accept()
        try:
            table = await service.open(game_id, websocket.query_params.get("token"))
        except ClientError as error:
            lang = choose_language(asked, websocket.headers.get("accept-language"))
            await websocket.send_json(error.message(catalogs.wording(lang), "french"))
            await websocket.close(code=CLOSE_CODES.get(error.code, 1008))
            return
        listener = service.listen(table, asked if asked and is_language(asked) else table.lang)
        sender = asyncio.create_task(_pump(websocket, listener))
        service.ensure_runner(table)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                data = text if text is not None else message.get("bytes") or b""
                await service.handle_text(table, listener, data)
        except WebSocketDisconnect:
            pass
        finally:
            service.unlisten(table, listener)
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
            if (
                websocket.application_state == WebSocketState.CONNECTED
                and websocket.client_state == WebSocketState.CONNECTED
            ):
                with contextlib.suppress(Exception):
                    await websocket.close()

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
