"""A player's statistics (docs/players.md, "My statistics"): the page
``/{lang}/me/statistics?period=`` (``7``, ``30`` — the default — or ``all``), their own; and
``/{lang}/me/friends/{key}/statistics?period=``, a friend's who agreed to show them (anyone
else's, a key of no friend, a period not offered: the 404 page, never a figure)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.live.friends import Friends
from cardavia.live.protocol import ClientError
from cardavia.live.room import HIDDEN_NAME
from cardavia.players.statistics import DEFAULT_PERIOD, PERIODS
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import or_else
from cardavia.web.pages import not_found_page, page_context
from cardavia.web.statistics import StatisticsPages
from cardavia.words import Catalogs, is_language


def install(
    app: FastAPI,
    pages: StatisticsPages,
    friends: Friends,
    guests: Guests,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add the statistics pages to ``app`` (before the table page's catch-all)."""

    async def page(request: Request, lang: str, key: str | None) -> Response:
        """The page of the reader's statistics (``key``: ``None``), or of their friend's."""
        period = request.query_params.get("period", DEFAULT_PERIOD)
        if not is_language(lang) or period not in PERIODS:
            return not_found_page(catalogs, lang if is_language(lang) else None)
        context = page_context(lang, catalogs.wording(lang), templates)
        rtl = context["dir"] == "rtl"
        player = await or_else(guests.identify(request), None)
        found: dict[str, object] = {"families": []}
        address, owner_name = f"/{lang}/me/statistics", None
        if key is not None:
            try:
                if player is None:
                    raise ClientError("not_found")
                friend = await friends.friend(player, key)
                found = await pages.page(player.id, friend.id, period=period, lang=lang, rtl=rtl)
            except ClientError:
                return not_found_page(catalogs, lang)
            address = f"/{lang}/me/friends/{key}/statistics"
            owner_name = friend.name or catalogs.wording(lang).gettext(HIDDEN_NAME)
        elif player is not None:
            found = await pages.page(player.id, player.id, period=period, lang=lang, rtl=rtl)
        context |= found | {
            "period": period,
            "periods": list(PERIODS),
            "address": address,
            "owner_name": owner_name,
        }
        response = templates.TemplateResponse(request, "statistics.html", context)
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/{lang}/me/statistics", response_class=HTMLResponse, include_in_schema=False)
    async def statistics_page(request: Request, lang: str) -> Response:
        return await page(request, lang, None)

    @app.get(
        "/{lang}/me/friends/{key}/statistics",
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    async def friend_statistics_page(request: Request, lang: str, key: str) -> Response:
        return await page(request, lang, key)


__all__ = ["install"]
