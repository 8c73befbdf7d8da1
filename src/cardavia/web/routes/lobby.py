"""The lobby (docs/players.md, "The lobby"): the page ``/{lang}/lobby`` and ``GET /api/lobby``
(how many play now, the public tables, each preset's "Play now"). Thin: the figures are
:class:`~cardavia.live.lobby.Lobby`'s."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.live.lobby import Lobby
from cardavia.web.home import commitments
from cardavia.web.http_helpers import SafeJSONResponse
from cardavia.web.i18n import choose_language
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, is_language


def install(app: FastAPI, lobby: Lobby, catalogs: Catalogs, templates: Jinja2Templates) -> None:
    """Add the lobby's page and API to ``app``."""

    # The API first: /{lang}/lobby would take /api/lobby for a page in a language "api".
    @app.get("/api/lobby")
    async def lobby_api(request: Request) -> Response:
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        body = await lobby.answer(catalogs.wording(lang), lang)
        return SafeJSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.get("/{lang}/lobby", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        context = page_context(lang, catalogs.wording(lang), templates)
        # What each "Play now" commits to, said as the home says it (_play_now.html).
        context["commitments"] = commitments(context["presets"])
        return templates.TemplateResponse(request, "lobby.html", context)


__all__ = ["install"]
