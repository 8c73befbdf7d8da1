"""``HEAD`` answered wherever ``GET`` is (RFC 9110 9.3.2): FastAPI's routes answer only the
methods they name, so a chat app or a crawler asking a shared deal's link for its headers
first got 405 (issue 37). The request goes on as a ``GET``; its answer's start (status,
headers, ``Content-Length`` included) is sent as it is, its body never.

A ``GET`` of this site changes nothing (the routes that change something are ``POST``,
``PUT``, ``DELETE``), so answering a ``HEAD`` by running the ``GET`` is safe.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """The ASGI middleware that answers a ``HEAD`` as its ``GET``, without the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_head(message: Message) -> None:
            if message["type"] == "http.response.body":
                if not message.get("more_body", False):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_head)


__all__ = ["HeadAsGet"]
