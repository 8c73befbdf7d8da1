"""What every route of the site shares: refusing a request the protocol's way (its status,
its WebSocket close code) — one handler for every route, :func:`install_refusals`, answers a
client's error or a database that cannot answer in the visitor's language —, reading a JSON
body within limits, the origin check, a body that says only its language, who a request is
from, its seat token, and a number the client wrote (ASCII digits only)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
from collections.abc import Awaitable, Mapping
from ipaddress import IPv4Network, IPv6Network
from typing import Any, Final, TypeVar
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from starlette.responses import Response

from cardavia.live.outbox import TOO_SLOW_CLOSE
from cardavia.live.protocol import ClientError, check_fields, decode_message, dump_message
from cardavia.live.settings import Settings
from cardavia.store.db import StoreUnavailableError
from cardavia.web.connection import RATE_LIMITED_CLOSE
from cardavia.web.i18n import choose_language
from cardavia.words import Catalogs, Wording, is_language

T = TypeVar("T")
U = TypeVar("U")

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
    "not_in_room": 403,
    "cannot_befriend": 403,
    "tournament_sealed": 403,
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
    "too_slow": TOO_SLOW_CLOSE,
    "rate_limited": RATE_LIMITED_CLOSE,
    "unavailable": 1013,
    "internal": 1011,
}
"""WebSocket close codes when a connection cannot open a game (after the ``error``
message that says why)."""


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


def speak(request: Request, lang: str) -> str:
    """Answer ``request`` in ``lang`` (the language its body asked for), a refusal of it too
    (:func:`install_refusals`); answers ``lang``."""
    request.state.lang = lang
    return lang


def refusal_language(request: Request) -> str:
    """The language a refusal of ``request`` is worded in: the one its route was asked for
    (:func:`speak`), else the query's ``lang``, else the browser's (``Accept-Language``)."""
    said = getattr(request.state, "lang", None)
    if isinstance(said, str) and is_language(said):
        return said
    return choose_language(request.query_params.get("lang"), request.headers.get("accept-language"))


def install_refusals(app: FastAPI, catalogs: Catalogs) -> None:
    """The one answer to a refused request, whatever its route: a client's error
    (:class:`ClientError`) as it is, a database that cannot answer as ``unavailable``,
    worded in the visitor's language (:func:`refusal_language`) with the status of its code.
    A route raises; none of them catches the store's error, nor imports the store."""

    @app.exception_handler(ClientError)
    async def client_error(request: Request, error: ClientError) -> Response:
        return error_response(error, catalogs.wording(refusal_language(request)))

    @app.exception_handler(StoreUnavailableError)
    async def unavailable(request: Request, _error: StoreUnavailableError) -> Response:
        wording = catalogs.wording(refusal_language(request))
        return error_response(ClientError("unavailable"), wording)


async def or_else(work: Awaitable[T], otherwise: U) -> T | U:
    """``work``'s answer, or ``otherwise`` when it is refused (a client's error, or the
    database unavailable): a part of a page left out rather than the page refused."""
    try:
        return await work
    except (ClientError, StoreUnavailableError):
        return otherwise


async def read_json_body(request: Request, limit: int, timeout: float) -> dict[str, Any]:
    """The request's body as a JSON object, read no further than ``limit`` bytes and for no
    longer than ``timeout`` seconds; it must say it is JSON (``application/json``)."""
    declared = whole_number(request.headers.get("content-length", ""))
    if declared is not None and declared > limit:
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


async def read_sent(request: Request, settings: Settings) -> tuple[dict[str, Any], str]:
    """What a changing request sent, and the language it is answered in from then on: its
    origin checked (``bad_origin``), its JSON body read within the site's limits, its
    ``lang`` (if it names one) spoken (:func:`speak`) — else the refusal's language."""
    if not origin_allowed(request.headers, settings.allowed_origins):
        raise ClientError("bad_origin")
    data = await read_json_body(request, settings.max_message_bytes, settings.body_timeout)
    if is_language(data.get("lang")):
        return data, speak(request, str(data["lang"]))
    return data, refusal_language(request)


async def asked_language(request: Request, settings: Settings) -> str:
    """The language of a request whose body says at most that (``{"lang": "fr"}``: starting
    a deal, playing a shared one): :func:`read_sent`, any other field refused."""
    data, lang = await read_sent(request, settings)
    check_fields(data, ("lang",))
    return lang


def whole_number(text: str, digits: int = 18) -> int | None:
    """The whole number ``text`` writes in ASCII digits (at most ``digits`` of them), else
    ``None``: ``str.isdigit`` also says yes to ``²`` and ``٣``, which ``int`` refuses or reads.

    >>> whole_number("12"), whole_number("\u00b2"), whole_number("\u0663"), whole_number("-1")
    (12, None, None, None)
    """
    if not (0 < len(text) <= digits and text.isascii() and text.isdigit()):
        return None
    return int(text)


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


def client_key(connection: Request | WebSocket, trusted_proxies: tuple[str, ...] = ()) -> str:
    """Who a request is from, for the fair-use limits (:func:`client_of`): its peer, or the
    client a trusted proxy forwards it for."""
    peer = connection.client.host if connection.client is not None else "unknown"
    return client_of(peer, connection.headers.get("x-forwarded-for", ""), trusted_proxies)


def client_of(peer: str, forwarded_for: str, trusted_proxies: tuple[str, ...] = ()) -> str:
    """The client an address stands for: ``peer`` itself, unless it is one of the
    ``trusted_proxies``: then the last address of ``X-Forwarded-For`` not of a trusted proxy
    (the one the nearest untrusted hop was seen from; ``X-Forwarded-For`` is ignored from
    anyone else). An IPv6 client is its /64 (one machine's usual share).

    >>> client_of("203.0.113.9", "198.51.100.1"), client_of("10.0.0.2", "1.2.3.4", ("10.0.0.0/8",))
    ('203.0.113.9', '1.2.3.4')
    >>> client_of("2001:db8:1:2:aaaa::1", "")
    '2001:db8:1:2::/64'
    """
    address = peer
    if trusted_proxies and is_trusted_proxy(peer, trusted_proxies):
        for hop in reversed([hop.strip() for hop in forwarded_for.split(",") if hop.strip()]):
            address = hop
            if not is_trusted_proxy(hop, trusted_proxies):
                break
    return _client_network(address)


def is_trusted_proxy(address: str, trusted: tuple[str, ...]) -> bool:
    """Whether ``address`` is one of the ``trusted`` proxies (an address, a network, or a
    name matched as it is)."""
    if address in trusted:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(trusted))


@functools.lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]) -> tuple[IPv4Network | IPv6Network, ...]:
    networks = []
    for item in trusted:
        with contextlib.suppress(ValueError):  # a name (a test client's): matched as it is
            networks.append(ipaddress.ip_network(item, strict=False))
    return tuple(networks)


@functools.lru_cache(maxsize=4096)
def _client_network(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def request_token(request: Request) -> str | None:
    """The seat token of a request: ``?token=`` or ``Authorization: Bearer …``."""
    token = request.query_params.get("token")
    if token:
        return token
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def refuse_socket(websocket: WebSocket, error: ClientError, wording: Wording) -> None:
    """A socket that cannot open its game or room: told why in the player's language (the
    protocol's ``error``), then closed with the code of :data:`CLOSE_CODES`."""
    await websocket.send_text(dump_message(error.message(wording, "french")))
    await websocket.close(code=CLOSE_CODES.get(error.code, 1008))


__all__ = [
    "CLOSE_CODES",
    "HTTP_STATUS",
    "SafeJSONResponse",
    "client_key",
    "client_of",
    "error_response",
    "install_refusals",
    "is_trusted_proxy",
    "or_else",
    "origin_allowed",
    "read_json_body",
    "refusal_language",
    "refuse_socket",
    "request_token",
    "speak",
    "whole_number",
]
