"""The tournaments' routes (docs/tournaments.md): the list, a tournament's page (its deals,
the player's, the ranking once shown, the commitments and, after closing, the seeds), a
deal's comparison with the field, the table a deal is played at, and starting a deal. Thin:
the work is :class:`~cardavia.tournaments.service.Tournaments`' and
:class:`~cardavia.web.tournaments.Pages`'."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import JSONResponse, Response

from cardavia.belote import PRESETS
from cardavia.live.limits import Counters, SiteLimiter
from cardavia.live.protocol import ClientError
from cardavia.live.settings import Settings
from cardavia.tournaments.deals import PLAYER_SEAT
from cardavia.tournaments.service import (
    DealingError,
    NotPlayableError,
    SoFar,
    Tournament,
    Tournaments,
)
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import (
    asked_language,
    client_key,
    error_response,
    refusal_language,
    whole_number,
)
from cardavia.web.pages import kept_zone, not_found_page, page_context
from cardavia.web.tournaments import Pages, contract_words
from cardavia.words import Catalogs, Wording, is_language

NO_STORE = {"Cache-Control": "no-store"}
HOLDS_A_TOKEN = {"Cache-Control": "no-store, no-transform"}
"""A page that holds its seat's token (the deal's table): never kept, never compressed
(:mod:`cardavia.web.compression`: no secret in a compressed page)."""
DEAL_DIGITS: Final = 4
"""The most digits of a deal's number in an address (a tournament has a few dozen deals)."""


def _page_number(request: Request) -> int:
    text = request.query_params.get("page", "1")
    return int(text) if text.isascii() and text.isdigit() and 0 < len(text) < 6 else 1


def deal_number(text: str, tournament: Tournament | None) -> int | None:
    """The deal a path's number names, read as text (ASCII digits: ``whole_number``): ``None``
    for anything else, or a number that is none of the tournament's deals."""
    number = whole_number(text, digits=DEAL_DIGITS)
    if number is None or tournament is None or not 1 <= number <= tournament.deals:
        return None
    return number


def names(tournament: Tournament, wording: Wording) -> dict[str, str]:
    """A tournament's preset and level in the reader's words."""
    preset, _ = wording.preset(tournament.preset, PRESETS[tournament.preset].target)
    return {"preset": preset, "level": wording.level(tournament.level)}


@dataclass(frozen=True, slots=True)
class _Site:
    """What the tournaments' routes share: the service, the players, the words, the pages."""

    tournaments: Tournaments
    guests: Guests
    catalogs: Catalogs
    templates: Jinja2Templates

    def context(self, lang: str, **more: Any) -> dict[str, Any]:
        """A page's context in ``lang``, with the tournaments' words."""
        wording = self.catalogs.wording(lang)
        found = page_context(lang, wording, self.templates)
        found["names"] = lambda tournament: names(tournament, wording)
        found["contract"] = lambda code: contract_words(code, wording)
        found.setdefault("me", None)
        return found | more

    async def find(self, lang: str, tournament_id: str) -> Tournament | None:
        """The tournament of a page's address (``None``: no such language or tournament)."""
        if not is_language(lang):
            return None
        return await asyncio.to_thread(self.tournaments.get, tournament_id)

    async def player_id(self, request: Request) -> str | None:
        """The request's player (never a new one: reading a page makes no guest)."""
        player = await self.guests.identify(request)
        return None if player is None else player.id

    async def reader(self, request: Request) -> tuple[str | None, object]:
        """The request's player, as :meth:`player_id`, and the time zone kept with their
        settings (the page's times are said in it when the browser sent none)."""
        player = await self.guests.identify(request)
        return (None, None) if player is None else (player.id, kept_zone(player.settings))

    def not_found(self, lang: str) -> Response:
        return not_found_page(self.catalogs, lang if is_language(lang) else None)

    def page(
        self,
        request: Request,
        name: str,
        context: dict[str, Any],
        headers: dict[str, str] = NO_STORE,
    ) -> Response:
        return self.templates.TemplateResponse(request, name, context, headers=headers)


def install(
    app: FastAPI,
    tournaments: Tournaments,
    guests: Guests,
    settings: Settings,
    counters: Counters,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add the tournaments' pages and API to ``app``; the deals started per client are
    counted with the games created (the same limit)."""
    site = _Site(tournaments, guests, catalogs, templates)
    install_pages(app, site)
    limits = settings.limits
    games = counters.limiter("games", limits.games_per_minute / 60.0, limits.games_burst)
    install_play(app, site, settings, games)


def install_pages(app: FastAPI, site: _Site) -> None:
    """The list, a tournament's page and a deal's comparison."""
    pages = Pages(site.tournaments)

    @app.get("/{lang}/tournaments", response_class=HTMLResponse, include_in_schema=False)
    async def list_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return site.not_found(lang)
        me, zone = await site.reader(request)
        listing = await asyncio.to_thread(pages.listing, me)
        shown = site.context(lang, kept_zone=zone, **listing)
        return site.page(request, "tournaments.html", shown)

    @app.get(
        "/{lang}/tournaments/{tournament_id}", response_class=HTMLResponse, include_in_schema=False
    )
    async def tournament_page(request: Request, lang: str, tournament_id: str) -> Response:
        tournament = await site.find(lang, tournament_id)
        if tournament is None:
            return site.not_found(lang)
        me, zone = await site.reader(request)
        page = _page_number(request)
        shown = await asyncio.to_thread(pages.tournament, tournament, me, page, lang)
        context = site.context(lang, me=me, kept_zone=zone, **shown)
        return site.page(request, "tournament.html", context)

    @app.get(
        "/{lang}/tournaments/{tournament_id}/deals/{number}",
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    async def deal_page(request: Request, lang: str, tournament_id: str, number: str) -> Response:
        tournament = await site.find(lang, tournament_id)
        found = deal_number(number, tournament)
        if tournament is None or found is None:
            return site.not_found(lang)
        me = await site.player_id(request)
        shown = await asyncio.to_thread(pages.comparison, tournament, found, me)
        if shown is None:  # the others' results: not yet for this reader
            return RedirectResponse(f"/{lang}/tournaments/{tournament.id}", status_code=303)
        return site.page(request, "tournament_deal.html", site.context(lang, **shown))


def install_play(app: FastAPI, site: _Site, settings: Settings, games: SiteLimiter) -> None:
    """The table a deal is played at, and starting (or reopening) a deal."""
    tournaments, guests, catalogs = site.tournaments, site.guests, site.catalogs

    @app.get(
        "/{lang}/tournaments/{tournament_id}/play/{number}",
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    async def table_page(request: Request, lang: str, tournament_id: str, number: str) -> Response:
        tournament = await site.find(lang, tournament_id)
        found = deal_number(number, tournament)
        if tournament is None or found is None:
            return site.not_found(lang)
        player, seat = await site.player_id(request), None
        if player is not None:
            seat = await asyncio.to_thread(tournaments.resume, tournament.id, found, player)
        if seat is None or not tournament.is_open(tournaments.clock()):
            return RedirectResponse(f"/{lang}/tournaments/{tournament.id}", status_code=303)
        game = {"game": seat.game_id, "token": seat.token, "rules": tournament.preset}
        game["level"] = tournament.level
        shown = site.context(lang, t=tournament, number=found, game=game)
        return site.page(request, "tournament_table.html", shown, HOLDS_A_TOKEN)

    @app.post("/api/tournaments/{tournament_id}/deals/{number}", status_code=201)
    async def start_deal(request: Request, tournament_id: str, number: str) -> Response:
        """Start (or reopen) a deal: a guest made first, as a first game makes one. A number
        that is no deal's is ``not_found``, before anything is written."""
        lang = await asked_language(request, settings)
        found = whole_number(number, digits=DEAL_DIGITS)
        if found is None:
            raise ClientError("not_found")
        client = client_key(request, settings.trusted_proxies)
        wait = await games.take(client)
        if wait:
            response = error_response(ClientError("too_many_games"), catalogs.wording(lang))
            response.headers["Retry-After"] = str(wait)
            return response
        player, token = await guests.player(request, lang)
        try:
            seat = await tournaments.start(
                tournament_id, found, player.id, lang=lang, client=client
            )
        except NotPlayableError:
            raise ClientError("not_found") from None
        except DealingError:
            raise ClientError("unavailable") from None
        await guests.players.took_game(player, seat.game_id, PLAYER_SEAT.name)
        url = f"/{lang}/tournaments/{tournament_id}/play/{found}"
        response = JSONResponse({"url": url}, status_code=201, headers=NO_STORE)
        guests.keep(request, response, token)
        return response

    @app.get("/api/tournaments/{tournament_id}/deals/{number}/so-far")
    async def deal_so_far(request: Request, tournament_id: str, number: str) -> Response:
        """The reader's result on a deal they finished, against those who finished it
        before them (results only: the deal stays sealed), as sentences in the page's
        language (``?lang=``): ``{"lines": […]}``; ``not_found`` for no such deal of theirs,
        one not over, or a tournament closed (its comparison page says it all then)."""
        lang = refusal_language(request)
        tournament = await site.find(lang, tournament_id)
        found = deal_number(number, tournament)
        player = await site.player_id(request)
        if tournament is None or found is None or player is None:
            raise ClientError("not_found")
        shown = await asyncio.to_thread(tournaments.so_far, tournament, found, player)
        if shown is None:
            raise ClientError("not_found")
        lines = so_far_lines(shown, catalogs.wording(lang))
        return JSONResponse({"lines": lines}, headers=NO_STORE)


def so_far_lines(shown: SoFar, wording: Wording) -> list[str]:
    """A deal's result against those who played it before, in sentences: the margin, the
    par's (or that it is not known yet), the share of them the reader did better than."""

    def signed(margin: int) -> str:
        return f"{margin:+d}".replace("-", "\N{MINUS SIGN}")

    lines = [wording.gettext("Your margin on this deal: {margin}.", margin=signed(shown.margin))]
    if shown.par is None:
        lines.append(wording.gettext("The par of this deal is not known yet."))
    else:
        lines.append(wording.gettext("The par: margin {margin}.", margin=signed(shown.par)))
    if shown.better is None:
        lines.append(wording.gettext("Nobody had finished this deal before you."))
    else:
        lines.append(
            wording.ngettext(
                "You did better than {percent} % of the {count} player who finished it before you.",
                "You did better than {percent} % of the {count} players who finished it before"
                " you.",
                shown.others,
                percent=shown.better,
            )
        )
    return lines


__all__ = ["DEAL_DIGITS", "deal_number", "install", "install_pages", "install_play", "names"]
