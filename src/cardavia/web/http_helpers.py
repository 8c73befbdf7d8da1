"""What every route of the site shares: refusing a request the protocol's way (its status,
its WebSocket close code), reading a JSON body within limits, the origin check, who a
request is from, its seat token, and the security headers of every response."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from starlette.responses import Response

from cardavia.web.connection import RATE_LIMITED_CLOSE, TOO_SLOW_CLOSE
from cardavia.web.protocol import ClientError, decode_message, dump_message
from cardavia.words import Wording

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
    "too_slow": TOO_SLOW_CLOSE,
    "rate_limited": RATE_LIMITED_CLOSE,
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


def install_security_headers(app: FastAPI) -> None:
    """Every response says: no sniffing, no referrer to other sites, this site's own
    scripts and styles only (:data:`CONTENT_SECURITY_POLICY`), never framed."""

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response


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


__all__ = [
    "CLOSE_CODES",
    "CONTENT_SECURITY_POLICY",
    "HTTP_STATUS",
    "SafeJSONResponse",
    "client_key",
    "error_response",
    "install_security_headers",
    "origin_allowed",
    "read_json_body",
    "request_token",
]
