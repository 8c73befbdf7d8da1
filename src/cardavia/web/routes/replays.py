""" "Play this deal" (issue 37, item 4; docs/players.md, "A shared deal"): a visitor of a
shared deal plays the same deal — the same cards dealt by the same dealer, from the sharer's
seat, against the same computer players at the game's own version — at a table of their own,
then sees their result beside the sharer's on the deal's page.

``POST /api/deals/{code}/play`` makes the game (a guest first, as a first game makes one;
counted with the games a client creates); ``/{lang}/deal/{code}/play`` is the table page that
plays it: its script (``static/js/deal_play.js``) hands the table the game the browser kept
for that deal, so that no seat token is ever written into a page.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import JSONResponse, Response

from cardavia.live.limits import Counters
from cardavia.live.protocol import ClientError
from cardavia.live.settings import Settings
from cardavia.live.tables import TableService
from cardavia.web.guests import Guests
from cardavia.web.history import History
from cardavia.web.http_helpers import (
    asked_language,
    client_key,
    error_response,
    or_else,
)
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, is_language


def install(
    app: FastAPI,
    history: History,
    tables: TableService,
    guests: Guests,
    settings: Settings,
    counters: Counters,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add "play this deal": its API and its table's page (before the table's catch-all)."""
    limits = settings.limits
    games = counters.limiter("games", limits.games_per_minute / 60.0, limits.games_burst)

    @app.post("/api/deals/{code}/play", status_code=201)
    async def play_shared_deal(request: Request, code: str) -> Response:
        lang = await asked_language(request, settings)
        deal = await history.replay_of(code)
        client = client_key(request, settings.trusted_proxies)
        wait = await games.take(client)
        if wait:
            response = error_response(ClientError("too_many_games"), catalogs.wording(lang))
            response.headers["Retry-After"] = str(wait)
            return response
        game = await tables.create_game(
            deal.rules,
            deal.level,
            lang,
            deal.deck,
            client=client,
            seat=deal.seat,
            target=None,
            dealt=(deal.seed, deal.dealer),
            version=deal.version,
        )
        answer = {
            "game": game.game_id,
            "token": game.token,
            "seat": game.seat,
            "rules": deal.rules,
            "level": deal.level,
            "deck": deal.deck,
        }
        response = JSONResponse(answer, status_code=201, headers={"Cache-Control": "no-store"})
        await guests.took_game(request, response, lang, game.game_id, game.seat)
        return response

    @app.get("/{lang}/deal/{code}/play", response_class=HTMLResponse, include_in_schema=False)
    async def shared_deal_table(request: Request, lang: str, code: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        record = await or_else(history.shared(code, lang), None)
        if record is None:
            return not_found_page(catalogs, lang)
        context = page_context(lang, catalogs.wording(lang), templates) | {
            "code": code,
            "record": record,
        }
        return templates.TemplateResponse(
            request, "deal_play.html", context, headers={"Cache-Control": "no-store"}
        )


__all__ = ["install"]
