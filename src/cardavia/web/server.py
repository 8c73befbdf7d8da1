"""The web process (docs/deploy.md): uvicorn running :func:`cardavia.web.app.create_app`,
one process or several (``cardavia serve --workers N``), each with the same limits at the
connection's level, below the site:

- a request head (its line and headers) past ``Limits.header_bytes`` (16 KiB) is refused
  with 431 as soon as that much has come, before the rest is read (httptools, uvicorn's
  fastest parser, has no limit of its own);
- a head that takes longer than ``Limits.header_timeout`` (10 s) to arrive is answered 408
  and its connection closed (slowloris);
- one client address holds at most ``Limits.connections_per_address`` connections at once
  on a process (a trusted proxy's are not counted): past them a new one is answered 429 and
  closed as it opens, so that one address cannot take every file the process may open;
- the process holds at most :func:`~cardavia.web.open_files.connection_capacity` connections
  at once, below its open-file limit (raised at start: :func:`server_options`), so that many
  addresses together cannot take every file either: a new connection past them closes the
  one that has waited longest for a request head (408 if it had sent part of one; an idle
  kept-alive one silently), and only when every connection is busy with a request or is a
  socket is the new one answered 503 and closed (the audit of 2026-12-04: twelve addresses'
  unfinished heads starved ``/healthz`` of a process limited to 1,024 files);
- WebSocket frames past 64 KiB are refused before they are read, without per-message deflate
  (a state is 1-3 KB, compressing it cost more CPU than the rest of an action).

:class:`EdgeProtocol` is uvicorn's httptools protocol with these checks; :func:`server_options`
are uvicorn's options, the same for one process or several.
"""

from __future__ import annotations

import asyncio
import collections
import functools
from collections.abc import Callable
from typing import Any, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from cardavia.live.logs import LOG_CONFIG
from cardavia.live.settings import Settings
from cardavia.metrics import refused
from cardavia.web.http_helpers import client_of, is_trusted_proxy
from cardavia.web.open_files import connection_capacity, raise_file_limit

APP: Final = "cardavia.web.app:create_app"
"""The site's factory, as uvicorn imports it in each process."""
WS_MAX_SIZE: Final = 65_536
"""The largest WebSocket frame read (a client message is under 4 KiB: docs/web.md)."""

_open: collections.Counter[str] = collections.Counter()
"""Connections open on this process, by client address."""
_held: collections.Counter[str] = collections.Counter()
"""Connections this process holds (``"all"``), sockets included, every address's."""
_waiting: dict[EdgeProtocol, None] = {}
"""The connections waiting for a request head, the longest waiting first (a dict: ordered,
and a connection moves to its end when it waits again)."""


class HeadTooLargeError(Exception):
    """A request head grew past the limit (raised from the parser's callbacks)."""


@functools.cache
def _settings() -> Settings:
    """This process's settings (read once: the limits and the trusted proxies)."""
    return Settings.from_env()


def _response(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(text)).encode() + b"\r\nconnection: close\r\n\r\n" + text
    )


HEAD_TOO_LARGE: Final = _response(b"431 Request Header Fields Too Large", b"Headers too large")
HEAD_TIMEOUT: Final = _response(b"408 Request Timeout", b"Request timeout")
TOO_MANY_CONNECTIONS: Final = _response(b"429 Too Many Requests", b"Too many connections")
SERVER_FULL: Final = _response(b"503 Service Unavailable", b"Too many connections")
REFUSED_CODES: Final = {
    HEAD_TOO_LARGE: "head_too_large",
    HEAD_TIMEOUT: "head_timeout",
    TOO_MANY_CONNECTIONS: "too_many_connections",
    SERVER_FULL: "server_full",
}
"""The reason each refusal at the edge is counted under (:func:`cardavia.metrics.refused`);
a connection closed to make room for another is counted as ``head_evicted``."""


class EdgeProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a limit on a request head's size and time, and on
    the connections of one address (:mod:`cardavia.web.server`)."""

    settings: Callable[[], Settings] = staticmethod(_settings)
    """Where the limits come from (tests give their own)."""
    capacity: Callable[[], int] = staticmethod(connection_capacity)
    """The most connections the process holds at once (below its open-file limit)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = self.settings()
        self.head_limit = settings.limits.header_bytes
        self.head_timeout = settings.limits.header_timeout
        self.per_address = settings.limits.connections_per_address
        self.trusted = settings.trusted_proxies
        self.address: str | None = None
        """The client address counted in :data:`_open` (``None``: not counted)."""
        self.held = False
        """Whether the connection is counted in :data:`_held`."""
        self.head_bytes = 0
        """Bytes read since the request began (``-1``: its head is complete)."""
        self.head_size = 0
        """The size of its line and complete headers, as the parser has given them."""
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else ""
        if self.per_address > 0 and host and not is_trusted_proxy(host, self.trusted):
            address = client_of(host, "")  # an IPv6 client is its /64
            if _open[address] >= self.per_address:
                self._refuse(TOO_MANY_CONNECTIONS)
                return
            self.address = address
            _open[address] += 1
        if _held["all"] >= self.capacity() and not _make_room():
            self._refuse(SERVER_FULL)
            self._release()
            return
        self.held = True
        _held["all"] += 1
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Count the bytes of an unfinished head (the parser keeps an unfinished header to
        itself): past the limit, 431 before the rest is read."""
        if self.head_bytes >= 0:
            self.head_bytes += len(data)
        super().data_received(data)
        if self.head_bytes > self.head_limit and not self.transport.is_closing():
            self._refuse(HEAD_TOO_LARGE)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_size = 0

    def on_url(self, url: bytes) -> None:
        self._grow_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._grow_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.head_bytes = -1
        self._cancel_timer()
        _waiting.pop(self, None)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.head_bytes = 0
        self._await_head()

    def send_400_response(self, msg: str) -> None:
        if self.head_size > self.head_limit or self.head_bytes > self.head_limit:
            self._refuse(HEAD_TOO_LARGE)
        else:
            super().send_400_response(msg)

    def handle_websocket_upgrade(self) -> None:
        self._cancel_timer()
        _waiting.pop(self, None)
        super().handle_websocket_upgrade()
        # The socket's own protocol carries the connection on: it releases the address and
        # its place among the connections held.
        protocol = self.transport.get_protocol()
        if self.address is not None or self.held:
            address, held = self.address, self.held
            self.address, self.held = None, False
            closed = protocol.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                if address is not None:
                    _release(address)
                if held:
                    _held["all"] -= 1
                closed(exc)

            protocol.connection_lost = connection_lost  # type: ignore[method-assign]

    # -- the limits --

    def _grow_head(self, size: int) -> None:
        """The head's complete parts grew by ``size`` bytes: past the limit, the parser stops
        (uvicorn answers its error with :meth:`send_400_response`, here a 431)."""
        self.head_size += size
        if self.head_size > self.head_limit:
            raise HeadTooLargeError

    def _await_head(self) -> None:
        """Start timing the next request head (the keep-alive wait included); the connection
        waits for it from now (the last of :data:`_waiting`)."""
        self._cancel_timer()
        if self.head_timeout > 0:
            self.head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)
        _waiting.pop(self, None)
        _waiting[self] = None

    def is_idle(self) -> bool:
        """Whether the connection waits for a request head, no answer of its own under way
        (what may be closed to make room for another)."""
        return self.head_bytes >= 0 and (self.cycle is None or self.cycle.response_complete)

    def evict(self) -> None:
        """Close the connection to make room for another (408 if it sent part of a head)."""
        _waiting.pop(self, None)
        refused("head_evicted")
        self._refuse(HEAD_TIMEOUT if self.head_bytes else b"", counted=False)

    def _head_timed_out(self) -> None:
        self.head_timer = None
        if self.cycle is not None and not self.cycle.response_complete:
            self._await_head()  # a long answer: the next head is timed once it is sent
        elif self.head_bytes >= 0:
            self._refuse(HEAD_TIMEOUT if self.head_bytes else b"")

    def _cancel_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _refuse(self, answer: bytes, *, counted: bool = True) -> None:
        self._cancel_timer()
        _waiting.pop(self, None)
        if not self.transport.is_closing():
            if answer:
                if counted:
                    refused(REFUSED_CODES[answer])
                self.transport.write(answer)
            self.transport.close()

    def _release(self) -> None:
        self._cancel_timer()
        _waiting.pop(self, None)
        if self.address is not None:
            _release(self.address)
            self.address = None
        if self.held:
            _held["all"] -= 1
            self.held = False


def _release(address: str) -> None:
    _open[address] -= 1
    if _open[address] <= 0:
        del _open[address]


def _make_room() -> bool:
    """Close the connection that has waited longest for a request head, no answer of its
    own under way (false: every connection is busy, or a socket)."""
    for protocol in _waiting:
        if protocol.is_idle():
            protocol.evict()
            return True
    return False


def open_connections() -> dict[str, int]:
    """The connections open on this process by client address (what tests and tools read)."""
    return dict(_open)


def held_connections() -> int:
    """The connections this process holds, sockets included (what tests and tools read)."""
    return _held["all"]


def server_options(host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> dict[str, Any]:
    """uvicorn's options for the site, the same for one process or ``workers`` of them:
    :class:`EdgeProtocol`, WebSocket frames of :data:`WS_MAX_SIZE` at most without deflate,
    and no ``X-Forwarded-For`` read by uvicorn (the site reads it from its trusted proxies
    only: :attr:`~cardavia.live.settings.Settings.trusted_proxies`). Asked once as the site
    starts (``cardavia serve``), before uvicorn makes its worker processes, it first raises
    this process's open-file limit to its hard limit where the system allows (the workers
    inherit it: :func:`~cardavia.web.open_files.raise_file_limit`)."""
    raise_file_limit()
    return {
        "app": APP,
        "factory": True,
        "host": host,
        "port": port,
        "workers": workers if workers > 1 else None,
        "http": EdgeProtocol,
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": False,
        "proxy_headers": False,
        "server_header": False,
        "log_config": LOG_CONFIG,
    }


__all__ = [
    "APP",
    "WS_MAX_SIZE",
    "EdgeProtocol",
    "HeadTooLargeError",
    "held_connections",
    "open_connections",
    "server_options",
]
