"""One open socket, a table's or a room's: the loop that pumps its outbox
(:class:`~cardavia.live.outbox.Listener`, filled by the game server) into it, and the one
that reads it.

- :func:`pump` sends a connection's queue; :func:`serve_connection` runs it until it closes,
  each message received handed on within the client's rate.
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


__all__ = ["RATE_LIMITED_CLOSE", "pump", "serve_connection"]
