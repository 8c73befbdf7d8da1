"""The site's outer edge, around every request and socket (docs/deploy.md): a ``Host`` the
site does not answer to is refused (DNS rebinding), every HTTP answer carries the security
headers (errors and 500s included), a redirect to the site itself says a path (never the
``Host`` it was sent), and an unexpected error is answered ``internal`` without resetting the
keep-alive connection.

A plain ASGI middleware rather than Starlette's ``BaseHTTPMiddleware``: it sees every answer,
the exception handlers' too, and costs a function call, not a task per request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardavia.live.settings import LOOPBACK_HOSTS
from cardavia.metrics import refused

log = logging.getLogger(__name__)

ANY_HOST: Final = "*"
"""In the allowed hosts: every ``Host`` is answered (a proxy in front checks it)."""
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
"""Scripts and styles from the site's own files only: no inline script (the table's strings
are a JSON ``<script>``, data rather than code) and no inline style attribute (scripts may
still set styles); images from the site or ``data:`` (the grain's texture); no page may be
framed by another site."""
SECURITY_HEADERS: Final[Mapping[bytes, bytes]] = {
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"same-origin",
    b"content-security-policy": CONTENT_SECURITY_POLICY.encode(),
    b"x-frame-options": b"DENY",
}
"""What every answer says: no sniffing, no referrer to other sites, this site's own scripts
and styles only, never framed."""
BAD_HOST_CLOSE: Final = 1008
"""The WebSocket close code of a socket opened with a ``Host`` the site does not answer to
(before it is accepted: the browser sees a refused handshake)."""


def host_name(host: str) -> str:
    """The name of a ``Host`` header, without its port, in lower case.

    >>> host_name("Cardavia.example:8443"), host_name("[::1]:8000"), host_name("localhost")
    ('cardavia.example', '[::1]', 'localhost')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host.partition("]")[0] + "]"
    return host.partition(":")[0]


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """Whether a request sent to ``host`` (its ``Host`` header) is for this site: its name is
    one of ``allowed`` (or ``allowed`` holds :data:`ANY_HOST`)."""
    names = frozenset(name.lower() for name in allowed)
    return ANY_HOST in names or host_name(host) in names


class Edge:
    """The ASGI middleware of the site's edge: the ``Host`` check, the security headers, and
    ``internal_error`` (the protocol's ``internal`` answer, in the request's language) for an
    unexpected error, logged with its traceback once."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_hosts: Iterable[str] = LOOPBACK_HOSTS,
        internal_error: Callable[[Headers], Response] | None = None,
    ) -> None:
        self.app = app
        self.allowed_hosts = frozenset(name.lower() for name in allowed_hosts)
        self.internal_error = internal_error or (
            lambda _headers: PlainTextResponse("Internal Server Error", status_code=500)
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if not host_allowed(headers.get("host", ""), self.allowed_hosts):
            await self._refuse_host(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        started = False
        secured = _secured(send, headers.get("host", ""))

        async def send_secured(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await secured(message)

        try:
            await self.app(scope, receive, send_secured)
        except Exception:
            if started:
                raise
            log.exception("%s %s failed", scope.get("method", ""), scope.get("path", ""))
            await self.internal_error(headers)(scope, receive, secured)

    async def _refuse_host(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused("bad_host")
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": BAD_HOST_CLOSE})
            return
        response = PlainTextResponse(
            "Invalid host", status_code=400, headers={"Cache-Control": "no-store"}
        )
        await response(scope, receive, _secured(send))


def with_security_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """An answer's headers with :data:`SECURITY_HEADERS` added where it has not set them."""
    result = list(headers)
    present = {name.lower() for name, _ in result}
    result.extend((name, value) for name, value in SECURITY_HEADERS.items() if name not in present)
    return result


def relative_location(location: bytes, host: str) -> bytes:
    """A redirect's ``Location`` to the site itself (the ``host`` it was sent to) as a path:
    the router builds ``/fr`` → ``http://HOST/fr/`` from the request's own ``Host``.

    >>> relative_location(b"http://localhost:8000/fr/?a=1", "localhost:8000")
    b'/fr/?a=1'
    >>> relative_location(b"https://elsewhere.example/", "localhost")
    b'https://elsewhere.example/'
    """
    parts = urlsplit(location.decode("latin-1"))
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
        return location
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return ("/" + path.lstrip("/")).encode("latin-1")


def _secured(send: Send, host: str = "") -> Send:
    """``send`` adding the security headers to an answer, its redirect made relative."""

    async def send_secured(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = with_security_headers(message.get("headers", []))
            if 300 <= message["status"] < 400:
                headers = [
                    (name, relative_location(value, host) if name.lower() == b"location" else value)
                    for name, value in headers
                ]
            message["headers"] = headers
        await send(message)

    return send_secured


__all__ = [
    "ANY_HOST",
    "BAD_HOST_CLOSE",
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "Edge",
    "host_allowed",
    "host_name",
    "relative_location",
    "with_security_headers",
]
