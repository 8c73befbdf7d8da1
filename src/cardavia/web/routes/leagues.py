"""The leagues' page (docs/tournaments.md, "Leagues"): ``/{lang}/leagues``, the player's
group this week, last week's, and the hall of fame, drawn by the server. Thin: what it
shows is :class:`~cardavia.web.leagues.Leagues`'."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.store.db import StoreUnavailableError
from cardavia.web.guests import Guests
from cardavia.web.leagues import Leagues
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, is_language


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
        try:
            player = await guests.identify(request)
            context |= await leagues.page(None if player is None else player.id, wording, lang)
            context["unavailable"] = None
        except StoreUnavailableError:
            context |= {"week": None, "current": None, "last": None, "fame": []}
            context["unavailable"] = wording.error("unavailable")
        response = templates.TemplateResponse(request, "leagues.html", context)
        response.headers["Cache-Control"] = "no-store"
        return response


__all__ = ["install"]
