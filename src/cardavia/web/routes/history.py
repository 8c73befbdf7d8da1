"""A player's history (docs/players.md, "My games"): the page ``/{lang}/me/games`` and its
API ``GET /api/me/games`` (paged), the analysis of one of the player's finished deals, and
a finished deal shared by its link (``/{lang}/deal/{code}``, ``GET /api/deals/{code}``)."""

from __future__ import annotations

from datetime import datetime

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.live.protocol import ClientError
from cardavia.live.settings import Settings
from cardavia.web.deal_picture import deal_picture, sorted_hand
from cardavia.web.guests import Guests
from cardavia.web.history import History, contract_text
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    client_key,
    or_else,
    whole_number,
)
from cardavia.web.i18n import choose_language
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, is_language
from cardavia.words.times import ZONE_COOKIE, Times, zone_named

NO_STORE = {"Cache-Control": "no-store"}
PICTURE_CACHE = {"Cache-Control": "public, max-age=86400"}
"""A finished deal's picture never changes: a chat app's crawler may keep it a day."""


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

    install_shared(app, history, settings, catalogs, templates)


def install_shared(
    app: FastAPI,
    history: History,
    settings: Settings,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add a shared deal's analysis, picture and page (docs/players.md, "A shared deal"): the
    page of a deal of a tournament still open says until when its cards stay hidden."""

    def language(request: Request) -> str:
        return choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )

    @app.get("/api/deals/{code}/analysis")
    async def shared_deal_analysis(request: Request, code: str) -> Response:
        client = client_key(request, settings.trusted_proxies)
        data = await history.shared_analysis(code, language(request), client=client)
        return SafeJSONResponse(data, headers=NO_STORE)

    @app.get("/{lang}/deal/{code}/picture.png", include_in_schema=False)
    async def shared_deal_picture(lang: str, code: str) -> Response:
        record = await or_else(history.shared(code, lang), None) if is_language(lang) else None
        if record is None:
            return not_found_page(catalogs, lang if is_language(lang) else None)
        picture = deal_picture(
            record["replay"]["hands"], record["seat"], deck=record["deck"], lang=lang
        )
        return Response(picture, media_type="image/png", headers=PICTURE_CACHE)

    @app.get("/{lang}/deal/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def shared_deal_page(request: Request, lang: str, code: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        wording = catalogs.wording(lang)
        context = page_context(lang, wording, templates) | {"code": code}
        times = Times(wording, zone_named(request.cookies.get(ZONE_COOKIE)))
        pending = await or_else(history.pending(code), None)
        if pending is not None:
            tournament, number = pending
            context |= {"tournament": tournament, "number": number, "times": times}
            return templates.TemplateResponse(
                request, "deal_pending.html", context, headers=NO_STORE
            )
        record = await or_else(history.shared(code, lang), None)
        if record is None:
            return not_found_page(catalogs, lang)
        base = str(request.base_url).rstrip("/")
        context |= {
            "record": record,
            "contract": contract_text(record, wording),
            "picture": f"{base}/{lang}/deal/{code}/picture.png",
            "address": f"{base}/{lang}/deal/{code}",
            "when": times.day(datetime.fromisoformat(record["date"])),
            "hands": {
                seat: sorted_hand(codes) for seat, codes in record["replay"]["hands"].items()
            },
        }
        return templates.TemplateResponse(request, "deal.html", context, headers=NO_STORE)


__all__ = ["install", "install_shared", "number_field"]
