"""A player's history (docs/players.md, "My games"): the page ``/{lang}/me/games`` and its
API ``GET /api/me/games`` (paged), the analysis of one of the player's finished deals, and
a finished deal shared by its link (``/{lang}/deal/{code}``, ``GET /api/deals/{code}``)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.live.protocol import ClientError
from cardavia.live.settings import Settings
from cardavia.web.guests import Guests
from cardavia.web.history import History
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    client_key,
    or_else,
    whole_number,
)
from cardavia.web.i18n import choose_language
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, is_language

NO_STORE = {"Cache-Control": "no-store"}


def number_field(request: Request, name: str) -> int:
    """The whole number (1 or more) of the query's ``name``, 1 by default (``bad_field``
    for anything else)."""
    text = request.query_params.get(name)
    if text is None:
        return 1
    number = whole_number(text, digits=4)
    if number is None or number < 1:
        raise ClientError("bad_field", {"field": name})
    return number


def install(
    app: FastAPI,
    history: History,
    guests: Guests,
    settings: Settings,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add the history's pages and API to ``app`` (before the table page's catch-all)."""

    def language(request: Request) -> str:
        return choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )

    @app.get("/api/me/games")
    async def my_games(request: Request) -> Response:
        lang = language(request)
        page = number_field(request, "page")
        player = await guests.identify(request)
        if player is None:
            data = {"page": page, "more": False, "games": 0, "deals": []}
        else:
            data = await history.page(player.id, player.name, page, lang)
        return SafeJSONResponse(data, headers=NO_STORE)

    @app.get("/api/me/games/{game_id}/analysis")
    async def my_deal_analysis(request: Request, game_id: str) -> Response:
        lang = language(request)
        number = number_field(request, "deal")
        player = await guests.identify(request)
        if player is None:
            raise ClientError("not_found")
        client = client_key(request, settings.trusted_proxies)
        data = await history.analysis(player.id, game_id, number, lang, client=client)
        return SafeJSONResponse(data, headers=NO_STORE)

    @app.get("/api/deals/{code}")
    async def shared_deal(request: Request, code: str) -> Response:
        data = await history.shared(code, language(request))
        return SafeJSONResponse(data, headers=NO_STORE)

    @app.get("/{lang}/me/games", response_class=HTMLResponse, include_in_schema=False)
    async def my_games_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        context = page_context(lang, catalogs.wording(lang), templates)
        return templates.TemplateResponse(request, "my_games.html", context)

    @app.get("/{lang}/deal/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def shared_deal_page(request: Request, lang: str, code: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        record = await or_else(history.shared(code, lang), None)
        if record is None:
            return not_found_page(catalogs, lang)
        context = page_context(lang, catalogs.wording(lang), templates) | {"record": record}
        return templates.TemplateResponse(
            request, "deal.html", context, headers={"Cache-Control": "no-store"}
        )


__all__ = ["install", "number_field"]
