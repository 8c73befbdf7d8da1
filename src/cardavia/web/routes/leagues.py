"""The leagues' page (docs/tournaments.md, "Leagues"): ``/{lang}/leagues``, the player's
group this week, last week's, and the hall of fame, drawn by the server. Thin: what it
shows is :class:`~cardavia.web.leagues.Leagues`'."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.web.guests import Guests
from cardavia.web.http_helpers import or_else
from cardavia.web.leagues import Leagues
from cardavia.web.pages import kept_zone, not_found_page, page_context
from cardavia.words import Catalogs, Wording, is_language


def install(
    app: FastAPI,
    leagues: Leagues,
    guests: Guests,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add the leagues' page to ``app``."""

    @app.get("/{lang}/leagues", response_class=HTMLResponse, include_in_schema=False)
    async def leagues_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        wording = catalogs.wording(lang)
        context = page_context(lang, wording, templates)
        shown = await or_else(_league_page(request, leagues, guests, wording, lang), None)
        if shown is None:  # the database cannot answer: the page says so
            context |= {"week": None, "current": None, "last": None, "fame": []}
            context["unavailable"] = wording.error("unavailable")
        else:
            context |= shown
            context["unavailable"] = None
        response = templates.TemplateResponse(request, "leagues.html", context)
        response.headers["Cache-Control"] = "no-store"
        return response


async def _league_page(
    request: Request, leagues: Leagues, guests: Guests, wording: Wording, lang: str
) -> dict[str, Any]:
    """The leagues' part of the page, for the request's player (or nobody)."""
    player = await guests.identify(request)
    if player is None:
        return await leagues.page(None, wording, lang)
    return await leagues.page(player.id, wording, lang) | {"kept_zone": kept_zone(player.settings)}


__all__ = ["install"]
