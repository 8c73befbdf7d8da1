"""The single-player table's routes (docs/web.md, "API"): create a game, read its view, and
its WebSocket, where the next game is dealt too (``again``). Thin: the work is
:class:`~cardavia.live.tables.TableService`'s."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from starlette.responses import Response

from cardavia.belote import Seat
from cardavia.live.limits import Counters, SiteLimiter
from cardavia.live.outbox import Listener
from cardavia.live.protocol import ClientError, Dispatcher, Message, check_fields, seat_field
from cardavia.live.settings import Settings
from cardavia.live.table import Seated, Table
from cardavia.live.table_messages import handle_text
from cardavia.live.tables import TableService
from cardavia.web.connection import serve_connection, takes_changes
from cardavia.web.guests import Guests, player_token
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    client_key,
    error_response,
    origin_allowed,
    read_json_body,
    refusal_language,
    refuse_socket,
    request_token,
    speak,
)
from cardavia.web.i18n import choose_language
from cardavia.words import Catalogs, is_language

GAME_FIELDS: Final = ("rules", "level", "lang", "deck", "seat")
"""What ``POST /api/games`` may say."""


def install(
    app: FastAPI,
    service: TableService,
    settings: Settings,
    catalogs: Catalogs,
    counters: Counters,
    *,
    guests: Guests | None = None,
) -> None:
    """Add the table's API (create a game, read its view) and its socket to ``app``; games
    created per client are counted site-wide on ``counters``; each is linked to its
    person's player (``guests``: a new guest on their first game)."""
    limits = settings.limits
    game_creation = counters.limiter("games", limits.games_per_minute / 60.0, limits.games_burst)

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> Response:
        lang = refusal_language(request)
        if not origin_allowed(request.headers, settings.allowed_origins):
            raise ClientError("bad_origin")
        client = client_key(request, settings.trusted_proxies)
        wait = await game_creation.take(client)
        if wait:
            response = error_response(ClientError("too_many_games"), catalogs.wording(lang))
            response.headers["Retry-After"] = str(wait)
            return response
        data = await read_json_body(request, settings.max_message_bytes, settings.body_timeout)
        if is_language(data.get("lang")):
            lang = speak(request, data["lang"])
        check_fields(data, GAME_FIELDS)
        game = await service.create_game(
            data.get("rules", "cardavia"),
            data.get("level", "club"),
            data.get("lang", lang),
            data.get("deck"),
            client=client,
            seat=seat_field(data["seat"]) if "seat" in data else Seat.S,
        )
        response = JSONResponse(
            {"game": game.game_id, "token": game.token, "seat": game.seat},
            status_code=201,
            headers={"Cache-Control": "no-store"},
        )
        if guests is not None:
            await guests.took_game(request, response, lang, game.game_id, game.seat)
        return response

    @app.get("/api/games/{game_id}")
    async def game_view(request: Request, game_id: str) -> Response:
        asked = request.query_params.get("lang")
        table = await service.open(game_id, request_token(request))
        lang = asked if asked and is_language(asked) else table.lang
        view = service.view(table, lang, table.token_seat)
        return SafeJSONResponse(view, headers={"Cache-Control": "no-store"})

    install_socket(app, service, settings, catalogs, game_creation=game_creation, guests=guests)


@dataclass(slots=True, eq=False)
class SinglePlayer:
    """A single-player table's connection: the game it plays now (``again`` moves it to the
    next one), and how each next game is linked to its person's player (their cookie's:
    :meth:`Guests.linker <cardavia.web.guests.Guests.linker>`)."""

    table: Table
    listener: Listener
    link: Callable[[str], None] | None = None


def install_socket(
    app: FastAPI,
    service: TableService,
    settings: Settings,
    catalogs: Catalogs,
    *,
    game_creation: SiteLimiter | None = None,
    guests: Guests | None = None,
) -> None:
    """Add the table's WebSocket (``/ws/games/{id}?token=…``) to ``app``: the table's kinds
    of message, and ``again`` (the next game, dealt over the open connection: counted
    against the client's games per minute as ``POST /api/games`` is, and linked to the
    person's player)."""

    async def seated(connection: SinglePlayer) -> Seated:
        return Seated(connection.table, connection.listener)

    async def again(connection: SinglePlayer, message: Message) -> None:
        # A late or refused "again" costs no game of the client's minute.
        if not connection.table.may_play_again(connection.listener.seat, message.get("game")):
            return
        if game_creation is not None and await game_creation.take(connection.listener.client):
            raise ClientError("too_many_games")
        connection.table = await service.again(
            connection.table, connection.listener, message.get("game"), then=connection.link
        )

    messages: Dispatcher[SinglePlayer] = Dispatcher(limit=settings.max_message_bytes)
    messages.include(service.messages, seated)
    messages.on("again", again, fields=("game",))

    @app.websocket("/ws/games/{game_id}")
    async def table_socket(websocket: WebSocket, game_id: str) -> None:
        asked = websocket.query_params.get("lang")
        await websocket.accept()
        try:
            if not origin_allowed(websocket.headers, settings.allowed_origins):
                raise ClientError("bad_origin")
            table = await service.open(game_id, websocket.query_params.get("token"))
            lang = asked if asked and is_language(asked) else table.lang
            listener = service.listen(
                table,
                lang,
                seat=table.token_seat,
                client=client_key(websocket, settings.trusted_proxies),
                changes=takes_changes(websocket),
            )
        except ClientError as error:
            lang = choose_language(asked, websocket.headers.get("accept-language"))
            await refuse_socket(websocket, error, catalogs.wording(lang))
            return
        service.ensure_runner(table)
        seat = None if table.token_seat is None else table.token_seat.name
        link = None if guests is None else guests.linker(player_token(websocket), seat)
        connection = SinglePlayer(table, listener, link)

        async def handle(data: str | bytes) -> None:
            await handle_text(messages, connection, connection.table, listener, data)

        await serve_connection(
            websocket,
            listener,
            settings.limits,
            handle=handle,
            depart=lambda: service.unlisten(connection.table, listener),
        )


__all__ = ["GAME_FIELDS", "SinglePlayer", "install", "install_socket"]
