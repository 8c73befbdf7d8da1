"""Blocks and reports (docs/players.md, "Safety"): ``POST /api/blocks``, ``GET /api/blocks``,
``DELETE /api/blocks/{key}``, ``POST /api/reports``. Thin: the work is
:class:`~cardavia.web.safety.Safety`'s. Each changing route checks ``Origin`` and takes JSON
only; the person is their player cookie's."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from starlette.responses import Response

from cardavia.players import Player
from cardavia.store.db import StoreUnavailableError
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import SafeJSONResponse, origin_allowed, read_json_body, refusal
from cardavia.web.i18n import choose_language
from cardavia.web.protocol import ClientError
from cardavia.web.safety import Safety
from cardavia.web.settings import Settings
from cardavia.words import Catalogs, is_language

NO_STORE = {"Cache-Control": "no-store"}


def install(
    app: FastAPI, safety: Safety, guests: Guests, settings: Settings, catalogs: Catalogs
) -> None:
    """Add the safety routes to ``app``."""

    def language(request: Request, data: dict[str, Any] | None = None) -> str:
        if data is not None and is_language(data.get("lang")):
            return str(data["lang"])
        return choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )

    async def asked(request: Request) -> tuple[Player, dict[str, Any]]:
        """The request's player and its JSON body (``Origin`` checked); no player:
        ``not_in_room`` (they sat nowhere)."""
        if not origin_allowed(request.headers, settings.allowed_origins):
            raise ClientError("bad_origin")
        data = await read_json_body(request, settings.max_message_bytes, settings.body_timeout)
        player = await guests.identify(request)
        if player is None:
            raise ClientError("not_in_room")
        return player, data

    @app.post("/api/blocks", status_code=201)
    async def block(request: Request) -> Response:
        lang = language(request)
        try:
            player, data = await asked(request)
            lang = language(request, data)
            await safety.block(player, data)
        except (ClientError, StoreUnavailableError) as error:
            return refusal(error, catalogs.wording(lang))
        return SafeJSONResponse({"blocked": True}, status_code=201, headers=NO_STORE)

    @app.get("/api/blocks")
    async def blocks(request: Request) -> Response:
        lang = language(request)
        try:
            player = await guests.identify(request)
            if player is None:
                return SafeJSONResponse({"blocks": [], "name_hidden": False}, headers=NO_STORE)
            listed = await safety.blocked(player, catalogs.wording(lang))
            standing = await safety.standing(player)
        except (ClientError, StoreUnavailableError) as error:
            return refusal(error, catalogs.wording(lang))
        body = {"blocks": listed, "name_hidden": standing["hidden"]}
        return SafeJSONResponse(body, headers=NO_STORE)

    @app.delete("/api/blocks/{key}")
    async def unblock(request: Request, key: str) -> Response:
        lang = language(request)
        try:
            player, data = await asked(request)
            lang = language(request, data)
            await safety.unblock(player, key)
        except (ClientError, StoreUnavailableError) as error:
            return refusal(error, catalogs.wording(lang))
        return SafeJSONResponse({"unblocked": True}, headers=NO_STORE)

    @app.post("/api/reports", status_code=201)
    async def report(request: Request) -> Response:
        lang = language(request)
        try:
            player, data = await asked(request)
            lang = language(request, data)
            await safety.report(player, data)
        except (ClientError, StoreUnavailableError) as error:
            return refusal(error, catalogs.wording(lang))
        return SafeJSONResponse({"reported": True}, status_code=201, headers=NO_STORE)


__all__ = ["install"]
