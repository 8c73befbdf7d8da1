"""Blocks and reports (docs/players.md, "Safety"): ``POST /api/blocks``, ``GET /api/blocks``,
``DELETE /api/blocks/{key}``, ``POST /api/reports``. Thin: the work is
:class:`~cardavia.live.safety.Safety`'s. Each changing route checks ``Origin`` and takes JSON
only; the person is their player cookie's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from starlette.responses import Response

from cardavia.live.protocol import ClientError
from cardavia.live.safety import Safety
from cardavia.live.settings import Settings
from cardavia.players import Player
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    read_sent,
    refusal_language,
)
from cardavia.words import Catalogs

NO_STORE = {"Cache-Control": "no-store"}


def install(
    app: FastAPI, safety: Safety, guests: Guests, settings: Settings, catalogs: Catalogs
) -> None:
    """Add the safety routes to ``app``."""

    async def change(
        request: Request,
        act: Callable[[Player, dict[str, Any]], Awaitable[object]],
        answer: dict[str, bool],
        status_code: int = 200,
    ) -> Response:
        """A changing request: ``Origin`` checked, the JSON body read, the player known by
        their cookie (none: ``not_in_room``, they sat nowhere), then ``act``; a refusal
        worded in the request's language."""
        data, _lang = await read_sent(request, settings)
        player = await guests.identify(request)
        if player is None:
            raise ClientError("not_in_room")
        await act(player, data)
        return SafeJSONResponse(answer, status_code=status_code, headers=NO_STORE)

    @app.post("/api/blocks", status_code=201)
    async def block(request: Request) -> Response:
        return await change(request, safety.block, {"blocked": True}, 201)

    @app.get("/api/blocks")
    async def blocks(request: Request) -> Response:
        player = await guests.identify(request)
        if player is None:
            return SafeJSONResponse({"blocks": [], "name_hidden": False}, headers=NO_STORE)
        listed = await safety.blocked(player, catalogs.wording(refusal_language(request)))
        standing = await safety.standing(player)
        body = {"blocks": listed, "name_hidden": standing["hidden"]}
        return SafeJSONResponse(body, headers=NO_STORE)

    @app.delete("/api/blocks/{key}")
    async def unblock(request: Request, key: str) -> Response:
        async def act(player: Player, _data: dict[str, Any]) -> None:
            await safety.unblock(player, key)

        return await change(request, act, {"unblocked": True})

    @app.post("/api/reports", status_code=201)
    async def report(request: Request) -> Response:
        return await change(request, safety.report, {"reported": True}, 201)


__all__ = ["install"]
