"""One open socket, a table's or a room's: the loop that pumps its outbox
(:class:`~cardavia.live.outbox.Listener`, filled by the game server) into it, and the one
that reads it.

- :func:`pump` sends a connection's queue; :func:`serve_connection` runs it until it closes,
  each message received handed on within the client's rate.
- A page that takes changes says so as it opens its socket (``?protocol=2``,
  :func:`takes_changes`; docs/web.md, "Changes as changes"): it is sent its views as changes,
  and what is queued for it at once in one frame, a JSON array of the messages in order (the
  computer players' moves and the state they make, a room's change and its view: one write
  to the socket rather than one each).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardavia.live.limits import Limits, RateLimiter
from cardavia.live.outbox import CLOSE, Listener
from cardavia.live.protocol import ClientError

log = logging.getLogger(__name__)

RATE_LIMITED_CLOSE: Final = 1008
"""The WebSocket close code of a connection that flooded the site with messages."""

CHANGES_PROTOCOL: Final = "2"
"""The ``protocol`` a page that takes changes asks for as it opens its socket."""


def takes_changes(websocket: WebSocket) -> bool:
    """Whether the socket's page takes changes and batches (``?protocol=2``); any other is
    sent every view whole, one message a frame (a page kept by an old service worker, the
    hints' own socket, a script of the tests)."""
    return websocket.query_params.get("protocol") == CHANGES_PROTOCOL


def batch(listener: Listener, first: str) -> tuple[str, bool]:
    """What to send in one frame from ``first`` on, and whether the connection must then be
    closed: ``first`` alone, or — to a connection that takes changes — every message queued
    behind it now, as one JSON array (each message is JSON already: the array is written by
    joining them)."""
    if not listener.changes or listener.queue.empty():
        return first, False
    texts, closing = [first], False
    while not listener.queue.empty():
        text = listener.queue.get_nowait()
        if text == CLOSE:
            closing = True
            break
        texts.append(text)
    return (texts[0] if len(texts) == 1 else "[" + ",".join(texts) + "]"), closing


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
            text, closing = batch(listener, text)
            await websocket.send_text(text)
            if closing:
                await websocket.close(code=listener.close_code)
                return
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


__all__ = [
    "CHANGES_PROTOCOL",
    "RATE_LIMITED_CLOSE",
    "batch",
    "pump",
    "serve_connection",
    "takes_changes",
]
