"""The rooms' routes (docs/web.md, "Rooms"): create a room, join it, read it, its WebSocket,
and its pages. Thin: the work is :class:`~cardavia.live.rooms.RoomService`'s, a connection's
messages :class:`~cardavia.live.room_messages.RoomMessages`'."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import JSONResponse, Response

from cardavia.belote import Seat
from cardavia.live.display_names import clean_name
from cardavia.live.protocol import ClientError
from cardavia.live.room import Room
from cardavia.live.room_connections import RoomConnections
from cardavia.live.room_messages import RoomMessages
from cardavia.live.room_state import normal_code
from cardavia.live.rooms import Joined, RoomService
from cardavia.live.settings import Settings
from cardavia.web.connection import serve_connection, takes_changes
from cardavia.web.guests import Guests, RoomSeat, player_token
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    client_key,
    origin_allowed,
    read_json_body,
    refuse_socket,
    request_token,
    speak,
)
from cardavia.web.i18n import LANGUAGE_COOKIE, choose_language, visitor_language
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, is_language


def _joined(joined: Joined, lang: str) -> JSONResponse:
    return JSONResponse(
        {
            "room": joined.code,
            "token": joined.token,
            "seat": joined.seat,
            "link": f"/{lang}/room/{joined.code}",
        },
        status_code=201,
        headers={"Cache-Control": "no-store"},
    )


def _language(request: Request, data: dict[str, Any] | None = None) -> str:
    """The language asked for: the body's ``lang``, else the query's or the browser's."""
    if data is not None and is_language(data.get("lang")):
        return str(data["lang"])
    return choose_language(request.query_params.get("lang"), request.headers.get("accept-language"))


def _visitors_language(request: Request, lang: str) -> str:
    """The language a room's link opens in for this visitor: the link's (``lang``) when they
    came from a page of the site (its language menu, the room they just made); else the
    language they chose on the site before (the cookie its pages keep), else their browser's
    (``Accept-Language``, when it names one of ours); else the link's. A link is sent by its
    creator, in the creator's language: whoever opens it reads the room in their own."""
    referer = urlsplit(request.headers.get("referer") or "")
    if referer.netloc and referer.netloc == request.headers.get("host"):
        return lang
    return visitor_language(
        request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language"), lang
    )


Arrived = Callable[[Room, Seat, str | None], Awaitable[None]]
"""Told that the person of a player token (``None``: none) opened their seat in a room (a
reported name of theirs hidden there too: :meth:`cardavia.live.safety.Safety.arrived`)."""


async def _tell(arrived: Arrived | None, room: Room, seat: Seat | None, token: str | None) -> None:
    """Tell ``arrived`` of a seat opened (its failure never keeps anyone from their seat)."""
    if arrived is None or seat is None:
        return
    with contextlib.suppress(ClientError):
        await arrived(room, seat, token)


def install(
    app: FastAPI,
    rooms: RoomService,
    settings: Settings,
    catalogs: Catalogs,
    templates: Jinja2Templates,
    *,
    messages: RoomMessages,
    connections: RoomConnections,
    guests: Guests | None = None,
    arrived: Arrived | None = None,
) -> None:
    """Add the rooms' API, socket and pages (create a room; a room by its code) to ``app``;
    each seat taken is linked to its person's player (``guests``), and ``arrived`` told."""
    install_pages(app, catalogs, templates)
    install_api(app, rooms, settings, catalogs, guests, arrived)
    install_socket(app, rooms, messages, connections, settings, catalogs, arrived)


def install_pages(app: FastAPI, catalogs: Catalogs, templates: Jinja2Templates) -> None:
    """``/{lang}/room/`` (create or find a room) and ``/{lang}/room/{code}``."""

    def room_page(request: Request, lang: str, code: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        context = page_context(lang, catalogs.wording(lang), templates)
        context |= {"code": code, "room_page": True}
        return templates.TemplateResponse(request, "room.html", context)

    @app.get("/{lang}/room/", response_class=HTMLResponse, include_in_schema=False)
    async def new_room_page(request: Request, lang: str) -> Response:
        return room_page(request, lang, "")

    @app.get("/{lang}/room/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def room_code_page(request: Request, lang: str, code: str) -> Response:
        normal = normal_code(code) or ""
        theirs = _visitors_language(request, lang) if is_language(lang) and normal else lang
        if theirs != lang:
            return RedirectResponse(
                f"/{theirs}/room/{normal}",
                status_code=307,
                headers={"Vary": "Accept-Language, Cookie, Referer", "Cache-Control": "no-store"},
            )
        return room_page(request, lang, normal)


def install_api(
    app: FastAPI,
    rooms: RoomService,
    settings: Settings,
    catalogs: Catalogs,
    guests: Guests | None = None,
    arrived: Arrived | None = None,
) -> None:
    """``POST /api/rooms``, ``POST /api/rooms/{code}/join``, ``GET /api/rooms/{code}``."""

    async def seated(request: Request, joined: Joined, lang: str, name: object) -> Response:
        response = _joined(joined, lang)
        if guests is not None:
            seat = RoomSeat(joined.code, joined.seat, clean_name(name), joined.token_hash)
            await guests.took_room_seat(request, response, lang, seat)
        if arrived is not None:
            with contextlib.suppress(ClientError):
                room = await rooms.open(joined.code)
                await _tell(arrived, room, Seat[joined.seat], player_token(request))
        return response

    async def body(request: Request) -> dict[str, Any]:
        if not origin_allowed(request.headers, settings.allowed_origins):
            raise ClientError("bad_origin")
        return await read_json_body(request, settings.max_message_bytes, settings.body_timeout)

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> Response:
        data = await body(request)
        lang = speak(request, _language(request, data))
        joined = await rooms.create(
            data, lang, client=client_key(request, settings.trusted_proxies)
        )
        return await seated(request, joined, lang, data.get("name"))

    @app.post("/api/rooms/{code}/join", status_code=201)
    async def join_room(request: Request, code: str) -> Response:
        data = await body(request)
        lang = speak(request, _language(request, data))
        joined = await rooms.join(code, data, client=client_key(request, settings.trusted_proxies))
        return await seated(request, joined, lang, data.get("name"))

    @app.get("/api/rooms/{code}")
    async def read_room(request: Request, code: str) -> Response:
        """The room as its seats are (public), and the view of the token's seat (or a
        watcher's, where the room has them) once dealt."""
        lang = _language(request)
        wording = catalogs.wording(lang)
        room = await rooms.open(code, client=client_key(request, settings.trusted_proxies))
        token = request_token(request)
        seat = room.seat_of_token(token) if token else None
        if token and seat is None:
            raise ClientError("bad_token")
        info = room.info(wording, seat) | {"you": seat.name if seat is not None else None}
        table = await rooms.table(room)
        view = None
        if table is not None and (seat is not None or room.settings.watchers):
            view = rooms.view(room, table, lang, seat)
        return SafeJSONResponse({"room": info, "view": view}, headers={"Cache-Control": "no-store"})


def install_socket(
    app: FastAPI,
    rooms: RoomService,
    messages: RoomMessages,
    connections: RoomConnections,
    settings: Settings,
    catalogs: Catalogs,
    arrived: Arrived | None = None,
) -> None:
    """``/ws/rooms/{code}``: a room's connection, a player's (``token``) or a watcher's: opened
    and closed by the rooms' ``connections``, its messages answered by ``messages``."""

    @app.websocket("/ws/rooms/{code}")
    async def room_socket(websocket: WebSocket, code: str) -> None:
        asked = websocket.query_params.get("lang")
        lang = choose_language(asked, websocket.headers.get("accept-language"))
        wording = catalogs.wording(lang)
        await websocket.accept()
        try:
            if not origin_allowed(websocket.headers, settings.allowed_origins):
                raise ClientError("bad_origin")
            room = await rooms.open(code, client=client_key(websocket, settings.trusted_proxies))
            token = websocket.query_params.get("token")
            listener = connections.connect(
                room,
                token,
                wording,
                client=client_key(websocket, settings.trusted_proxies),
                changes=takes_changes(websocket),
            )
        except ClientError as error:
            await refuse_socket(websocket, error, wording)
            return
        await _tell(arrived, room, listener.seat, player_token(websocket))

        async def handle(data: str | bytes) -> None:
            await messages.handle_text(room, listener, data)

        await serve_connection(
            websocket,
            listener,
            settings.limits,
            handle=handle,
            depart=lambda: connections.depart(room, listener),
            arrive=lambda: connections.arrive(room, listener),
        )


__all__ = ["install"]
