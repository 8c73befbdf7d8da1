"""A player's statistics (docs/players.md, "My statistics"): the page
``/{lang}/me/statistics?period=`` (``7``, ``30`` — the default — or ``all``), their own only;
a period not offered is the 404 page, never a figure of another period."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.players.statistics import DEFAULT_PERIOD, PERIODS
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import or_else
from cardavia.web.pages import not_found_page, page_context
from cardavia.web.statistics import StatisticsPages
from cardavia.words import Catalogs, is_language


def install(
    app: FastAPI,
    pages: StatisticsPages,
    guests: Guests,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add the statistics page to ``app`` (before the table page's catch-all)."""

    @app.get("/{lang}/me/statistics", response_class=HTMLResponse, include_in_schema=False)
    async def statistics_page(request: Request, lang: str) -> Response:
        period = request.query_params.get("period", DEFAULT_PERIOD)
        if not is_language(lang) or period not in PERIODS:
            return not_found_page(catalogs, lang if is_language(lang) else None)
        context = page_context(lang, catalogs.wording(lang), templates)
        rtl = context["dir"] == "rtl"
        player = await or_else(guests.identify(request), None)
        found: dict[str, object] = {"families": []}
        if player is not None:
            # The viewer is the player who reads; whose statistics, today, themselves.
            found = await pages.page(player.id, player.id, period=period, lang=lang, rtl=rtl)
        context |= found | {"period": period, "periods": list(PERIODS)}
        response = templates.TemplateResponse(request, "statistics.html", context)
        response.headers["Cache-Control"] = "no-store"
        return response


__all__ = ["install"]
