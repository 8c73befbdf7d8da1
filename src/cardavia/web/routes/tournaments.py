"""The tournaments' routes (docs/tournaments.md): the list, a tournament's page (its deals,
the player's, the ranking once shown, the commitments and, after closing, the seeds), a
deal's comparison with the field, the table a deal is played at, and starting a deal. Thin:
the work is :class:`~cardavia.tournaments.service.Tournaments`' and
:class:`~cardavia.web.tournaments.Pages`'."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import JSONResponse, Response

from cardavia.belote import PRESETS
from cardavia.tournaments.deals import PLAYER_SEAT
from cardavia.tournaments.service import NotPlayableError, Tournament, Tournaments
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import (
    client_key,
    error_response,
    origin_allowed,
    read_json_body,
)
from cardavia.web.i18n import choose_language
from cardavia.web.pages import not_found_page, page_context
from cardavia.web.protocol import ClientError, check_fields
from cardavia.web.settings import Settings
from cardavia.web.tournaments import Pages, contract_words
from cardavia.words import Catalogs, Wording, is_language

NO_STORE = {"Cache-Control": "no-store"}


def _page_number(request: Request) -> int:
    text = request.query_params.get("page", "1")
    return int(text) if text.isascii() and text.isdigit() and 0 < len(text) < 6 else 1


def names(tournament: Tournament, wording: Wording) -> dict[str, str]:
    """A tournament's preset and level in the reader's words."""
    preset, _ = wording.preset(tournament.preset, PRESETS[tournament.preset].target)
    return {"preset": preset, "level": wording.level(tournament.level)}


def install(
    app: FastAPI,
    tournaments: Tournaments,
    guests: Guests,
    settings: Settings,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add the tournaments' pages and API to ``app``."""
    pages = Pages(tournaments)

    def context(lang: str, **more: Any) -> dict[str, Any]:
        wording = catalogs.wording(lang)
        found = page_context(lang, wording, templates)
        found["names"] = lambda tournament: names(tournament, wording)
        found["contract"] = lambda code: contract_words(code, wording)
        found.setdefault("me", None)
        return found | more

    async def find(request: Request, lang: str, tournament_id: str) -> Tournament | None:
        if not is_language(lang):
            return None
        return await asyncio.to_thread(tournaments.get, tournament_id)

    async def player_id(request: Request) -> str | None:
        player = await guests.identify(request)
        return None if player is None else player.id

    @app.get("/{lang}/tournaments", response_class=HTMLResponse, include_in_schema=False)
    async def list_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        listing = await asyncio.to_thread(pages.listing, await player_id(request))
        return templates.TemplateResponse(
            request, "tournaments.html", context(lang, **listing), headers=NO_STORE
        )

    @app.get(
        "/{lang}/tournaments/{tournament_id}", response_class=HTMLResponse, include_in_schema=False
    )
    async def tournament_page(request: Request, lang: str, tournament_id: str) -> Response:
        tournament = await find(request, lang, tournament_id)
        if tournament is None:
            return not_found_page(catalogs, lang if is_language(lang) else "en")
        me = await player_id(request)
        shown = await asyncio.to_thread(
            pages.tournament, tournament, me, _page_number(request), lang
        )
        shown["me"] = me
        return templates.TemplateResponse(
            request, "tournament.html", context(lang, **shown), headers=NO_STORE
        )

    @app.get(
        "/{lang}/tournaments/{tournament_id}/deals/{number}",
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    async def deal_page(request: Request, lang: str, tournament_id: str, number: int) -> Response:
        tournament = await find(request, lang, tournament_id)
        if tournament is None or not 1 <= number <= tournament.deals:
            return not_found_page(catalogs, lang if is_language(lang) else "en")
        shown = await asyncio.to_thread(
            pages.comparison, tournament, number, await player_id(request)
        )
        if shown is None:
            return RedirectResponse(f"/{lang}/tournaments/{tournament.id}", status_code=303)
        return templates.TemplateResponse(
            request, "tournament_deal.html", context(lang, **shown), headers=NO_STORE
        )

    @app.get(
        "/{lang}/tournaments/{tournament_id}/play/{number}",
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    async def table_page(request: Request, lang: str, tournament_id: str, number: int) -> Response:
        tournament = await find(request, lang, tournament_id)
        if tournament is None:
            return not_found_page(catalogs, lang if is_language(lang) else "en")
        player = await player_id(request)
        seat = None
        if player is not None:
            seat = await asyncio.to_thread(tournaments.resume, tournament.id, number, player)
        if seat is None or not tournament.is_open(tournaments.clock()):
            return RedirectResponse(f"/{lang}/tournaments/{tournament.id}", status_code=303)
        game = {
            "game": seat.game_id,
            "token": seat.token,
            "rules": tournament.preset,
            "level": tournament.level,
        }
        shown = context(lang, t=tournament, number=number, game=game)
        return templates.TemplateResponse(request, "tournament_table.html", shown, headers=NO_STORE)

    @app.post("/api/tournaments/{tournament_id}/deals/{number}", status_code=201)
    async def start_deal(request: Request, tournament_id: str, number: int) -> Response:
        """Start (or reopen) a deal: a guest made first, as a first game makes one."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        try:
            if not origin_allowed(request.headers, settings.allowed_origins):
                raise ClientError("bad_origin")
            data = await read_json_body(request, settings.max_message_bytes, settings.body_timeout)
            if is_language(data.get("lang")):
                lang = str(data["lang"])
            check_fields(data, ("lang",))
            player, token = await guests.player(request, lang)
            seat = await tournaments.start(
                tournament_id,
                number,
                player.id,
                lang=lang,
                client=client_key(request, settings.trusted_proxies),
            )
            await guests.players.took_game(player, seat.game_id, PLAYER_SEAT.name)
        except NotPlayableError:
            return error_response(ClientError("not_found"), catalogs.wording(lang))
        except ClientError as error:
            return error_response(error, catalogs.wording(lang))
        url = f"/{lang}/tournaments/{tournament_id}/play/{number}"
        response = JSONResponse({"url": url}, status_code=201, headers=NO_STORE)
        guests.keep(request, response, token)
        return response


__all__ = ["install", "names"]
