"""The profile (docs/players.md, "The profile"): the page ``/{lang}/me`` (the name, the games
played, the export, the deletion), ``GET /api/me/export`` (everything kept about the player,
a JSON download) and ``DELETE /api/me`` (the player forgotten, the cookie cleared). Both
check ``Origin`` and are rate-limited as ``PUT /api/me``; the deletion takes JSON only, and
says it is meant (``{"confirm": true}``)."""

from __future__ import annotations

import json
from typing import Any, Final

from babel.numbers import format_decimal, format_percent
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.live.limits import Counters
from cardavia.live.protocol import ClientError, check_fields, require
from cardavia.live.settings import Settings
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    client_key,
    or_else,
    origin_allowed,
    read_json_body,
    refusal_language,
)
from cardavia.web.pages import kept_zone, not_found_page, page_context, reader_times
from cardavia.web.profile import Profiles
from cardavia.web.routes.me import CHANGES_BURST, CHANGES_PER_MINUTE
from cardavia.words import N_, Catalogs, Wording, is_language

EXPORT_FILE: Final = "cardavia-player.json"
"""The name the export is downloaded under."""
COMPLETION: Final = N_("{percent} ({finished} of {ended})")
"""The completion rate as the profile says it: "92 % (23 of 25)"."""


def install(
    app: FastAPI,
    profiles: Profiles,
    guests: Guests,
    settings: Settings,
    catalogs: Catalogs,
    counters: Counters,
    templates: Jinja2Templates,
) -> None:
    """Add the profile's page, the export and the deletion to ``app``."""
    limiter = counters.limiter("profile", CHANGES_PER_MINUTE / 60.0, CHANGES_BURST)

    async def checked(request: Request) -> None:
        """The request comes from the site and within its limit (else a ClientError)."""
        if not origin_allowed(request.headers, settings.allowed_origins):
            raise ClientError("bad_origin")
        if await limiter.take(client_key(request, settings.trusted_proxies)):
            raise ClientError("rate_limited")

    @app.get("/api/me/export")
    async def export_me(request: Request) -> Response:
        await checked(request)
        player = await guests.identify(request)
        if player is None:
            raise ClientError("not_found")
        data = await profiles.export(player.id, refusal_language(request))
        headers = {
            "Cache-Control": "no-store",
            "Content-Disposition": f'attachment; filename="{EXPORT_FILE}"',
        }
        text = json.dumps(data, ensure_ascii=False, indent=2)
        return Response(text, media_type="application/json", headers=headers)

    @app.delete("/api/me")
    async def delete_me(request: Request) -> Response:
        await checked(request)
        data = await read_json_body(request, settings.max_message_bytes, settings.body_timeout)
        check_fields(data, ("confirm",))
        require(data, "confirm")
        if data["confirm"] is not True:
            raise ClientError("bad_field", {"field": "confirm"})
        player = await guests.identify(request)
        if player is None:
            raise ClientError("not_found")
        await profiles.erase(player.id)
        answer = SafeJSONResponse({"deleted": True}, headers={"Cache-Control": "no-store"})
        guests.forget(request, answer)
        return answer

    @app.get("/{lang}/me", response_class=HTMLResponse, include_in_schema=False)
    async def profile_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        wording = catalogs.wording(lang)
        context = page_context(lang, wording, templates)
        rtl = context["dir"] == "rtl"
        context |= await rating_part(request, wording, profiles, guests, rtl=rtl)
        context |= await performance_part(request, wording, profiles, guests, rtl=rtl)
        context["completion"] = await completion_of(request, lang, profiles, guests, catalogs)
        response = templates.TemplateResponse(request, "profile.html", context)
        response.headers["Cache-Control"] = "no-store"
        return response


async def rating_part(
    request: Request, wording: Wording, profiles: Profiles, guests: Guests, *, rtl: bool
) -> dict[str, Any]:
    """The player's ratings for the page, their days on the reader's clock (none: no player,
    or the database away)."""
    none: dict[str, Any] = {"ratings": None}
    player = await or_else(guests.identify(request), None)
    if player is None:
        return none
    times = reader_times(request, wording, kept_zone(player.settings))
    return await or_else(profiles.rating_page(player.id, times, rtl=rtl), none)


async def performance_part(
    request: Request, wording: Wording, profiles: Profiles, guests: Guests, *, rtl: bool
) -> dict[str, Any]:
    """The player's performance from tournament deals for the page (none: no player, or
    the database away)."""
    none: dict[str, Any] = {"performances": None}
    player = await or_else(guests.identify(request), None)
    if player is None:
        return none
    times = reader_times(request, wording, kept_zone(player.settings))
    return await or_else(profiles.performance_page(player.id, times, rtl=rtl), none)


async def completion_of(
    request: Request, lang: str, profiles: Profiles, guests: Guests, catalogs: Catalogs
) -> str | None:
    """The player's completion rate as the profile says it, "92 % (23 of 25)" (``None``: no
    quick-play game of theirs has ended, or no player)."""
    player = await or_else(guests.identify(request), None)
    done = None if player is None else await or_else(profiles.completion(player.id), None)
    if done is None or done.rate is None:
        return None
    return (
        catalogs.wording(lang)
        .gettext(COMPLETION)
        .format(
            percent=format_percent(done.rate, locale=lang),
            finished=format_decimal(done.finished, locale=lang),
            ended=format_decimal(done.finished + done.abandoned, locale=lang),
        )
    )


__all__ = ["EXPORT_FILE", "install"]
