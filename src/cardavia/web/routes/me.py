"""``/api/me``: what the person's player keeps — display name, language, the table's
settings — read (``GET``) and changed (``PUT``, JSON only, ``Origin`` checked, rate-limited),
so that it follows them to any tab or browser signed in as the same player
(docs/players.md)."""

from __future__ import annotations

from typing import Any, Final

from fastapi import FastAPI, Request
from starlette.responses import Response

from cardavia.live.display_names import clean_name
from cardavia.live.limits import Counters
from cardavia.live.protocol import ClientError, check_fields
from cardavia.live.settings import Settings
from cardavia.players import Players, SettingError, clean_settings
from cardavia.players.service import NOBODY
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    client_key,
    origin_allowed,
    read_json_body,
    refusal_language,
    speak,
)
from cardavia.words import Catalogs, is_language

ME_FIELDS: Final = ("name", "lang", "settings")
"""What ``PUT /api/me`` may say (each optional; ``name`` ``null`` forgets it)."""
CHANGES_PER_MINUTE: Final = 60
"""Changes a client may make per minute (a burst of :data:`CHANGES_BURST`): the settings
panel sends one per pause of the person's hand, never a flood."""
CHANGES_BURST: Final = 20


def checked_changes(data: dict[str, Any]) -> dict[str, str | None]:
    """The changes ``PUT /api/me`` asks for, each checked as its own rules say (the rooms'
    for a name); a :class:`ClientError` for the first that is wrong."""
    check_fields(data, ME_FIELDS)
    changes: dict[str, str | None] = {}
    if "name" in data:
        changes["name"] = None if data["name"] is None else clean_name(data["name"])
    if "lang" in data:
        if not is_language(data["lang"]):
            raise ClientError("bad_field", {"field": "lang"})
        changes["lang"] = data["lang"]
    if "settings" in data:
        try:
            changes["settings"] = clean_settings(data["settings"])
        except SettingError as error:
            raise ClientError("bad_field", {"field": error.field}) from None
    return changes


def install(
    app: FastAPI, guests: Guests, settings: Settings, catalogs: Catalogs, counters: Counters
) -> None:
    """Add ``GET`` and ``PUT /api/me`` to ``app``."""
    changes_limiter = counters.limiter("me", CHANGES_PER_MINUTE / 60.0, CHANGES_BURST)
    players: Players = guests.players

    @app.get("/api/me")
    async def read_me(request: Request) -> Response:
        player = await guests.identify(request)
        body = dict(NOBODY) if player is None else player.public()
        return SafeJSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.put("/api/me")
    async def change_me(request: Request) -> Response:
        lang = refusal_language(request)
        if not origin_allowed(request.headers, settings.allowed_origins):
            raise ClientError("bad_origin")
        wait = await changes_limiter.take(client_key(request, settings.trusted_proxies))
        if wait:
            raise ClientError("rate_limited")
        data = await read_json_body(request, settings.max_message_bytes, settings.body_timeout)
        if is_language(data.get("lang")):
            lang = speak(request, data["lang"])
        changes = checked_changes(data)
        player, token = await guests.player(request, lang)
        if changes:
            player = await players.change(player, changes)
        answer = SafeJSONResponse(player.public(), headers={"Cache-Control": "no-store"})
        guests.keep(request, answer, token)
        return answer


__all__ = ["CHANGES_BURST", "CHANGES_PER_MINUTE", "ME_FIELDS", "checked_changes", "install"]
