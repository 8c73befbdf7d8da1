"""Told while the site is closed (docs/players.md, "Told when the site is closed"):
``GET /api/push`` (the site's public key, ``null`` where the deployment gives it none: the
pages then offer nothing), ``POST /api/push`` (a browser's subscription handed over) and
``DELETE /api/push`` (one ended). Thin: the work is :class:`~cardavia.live.push.Push`'s;
each changing route checks ``Origin``, takes JSON only and knows the player by their
cookie (``bad_token`` without one)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from starlette.responses import Response

from cardavia.live.push import Push
from cardavia.live.settings import Settings
from cardavia.players import Player
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import SafeJSONResponse
from cardavia.web.routes.friends import NO_STORE, changes


def install(app: FastAPI, push: Push, guests: Guests, settings: Settings) -> None:
    """Add the push subscriptions' routes to ``app``."""
    change = changes(guests, settings)

    @app.get("/api/push")
    async def key() -> Response:
        return SafeJSONResponse({"key": push.public_key}, headers=NO_STORE)

    @app.post("/api/push", status_code=201)
    async def subscribe(request: Request) -> Response:
        async def act(player: Player, data: dict[str, Any]) -> dict[str, Any]:
            await push.subscribe(player.id, data)
            return {"subscribed": True}

        return await change(request, act, 201)

    @app.delete("/api/push")
    async def unsubscribe(request: Request) -> Response:
        async def act(player: Player, data: dict[str, Any]) -> dict[str, Any]:
            await push.unsubscribe(player.id, data)
            return {"subscribed": False}

        return await change(request, act)


__all__ = ["install"]
