"""One open connection, a table's or a room's: its outbox and its serve loop.

- :class:`Listener`: a connection's language, seat and bounded queue of messages (a single
  writer per connection keeps them in order; a connection that cannot keep up is dropped).
- :func:`pump` sends a connection's queue; :func:`serve_connection` runs it until it closes,
  each message received handed on within the client's rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardavia.belote import Seat
from cardavia.web.limits import Limits, RateLimiter
from cardavia.web.protocol import ClientError, dump_message
from cardavia.words import Wording

log = logging.getLogger(__name__)

TOO_SLOW_CLOSE: Final = 4408
"""The WebSocket close code of a connection that could not keep up."""
RATE_LIMITED_CLOSE: Final = 1008
"""The WebSocket close code of a connection that flooded the site with messages."""

CLOSE: Final = ""
"""What a connection's queue holds last when it must be closed (it could not keep up)."""


@dataclass(slots=True, eq=False)
class Listener:
    """One open connection to a game: its language and the queue of messages to send it (a
    single writer per connection keeps them in order). The queue is bounded: a connection
    that lets it fill (too slow, or not reading) is sent ``too_slow`` and closed, rather than
    have its messages pile up in the server's memory."""

    wording: Wording
    limit: int = 256
    client: str = ""
    seat: Seat | None = None
    """The seat this connection plays (its token's); ``None``: a watcher, sent only what is
    public."""
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    close_code: int = TOO_SLOW_CLOSE
    """The WebSocket close code sent when :data:`CLOSE` is reached (4408: too slow)."""

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message for this connection."""
        self.send_text(dump_message(message))

    def send_text(self, text: str) -> None:
        """Queue a message already written as JSON (:func:`dump_message`)."""
        if self.dropped:
            return
        if self.limit > 0 and self.queue.qsize() >= self.limit:
            self.drop()
            return
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """Give up on this connection: what it has not been sent is forgotten; it is sent
        ``too_slow``, then closed."""
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(dump_message(ClientError("too_slow").message(self.wording, "")))
        self.queue.put_nowait(CLOSE)

    def close(self, code: int) -> None:
        """Close the connection once what is queued has been sent."""
        self.close_code = code
        self.queue.put_nowait(CLOSE)


async def pump(websocket: WebSocket, listener: Listener) -> None:
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
    sender = asyncio.create_task(pump(websocket, listener))
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
                    listener.close(RATE_LIMITED_CLOSE)
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


__all__ = ["CLOSE", "Listener", "pump", "serve_connection"]
