"""The site's own pages and answers: ``/`` (to the visitor's saved language, else the
browser's), ``/healthz``, each
language's table page, and how errors are answered (the protocol's ``error`` under
``/api/``, the 404 page elsewhere)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from cardavia.live.protocol import ClientError
from cardavia.web.guests import Guests
from cardavia.web.home import Home, commitments
from cardavia.web.http_helpers import error_response, or_else
from cardavia.web.i18n import LANGUAGE_COOKIE, choose_language, visitor_language
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, Wording, is_language

log = logging.getLogger(__name__)

NO_STORE = {"Cache-Control": "no-store"}
"""The home holds the player's own (their rating, their tournaments): kept by no cache."""


def install_errors(app: FastAPI, catalogs: Catalogs) -> None:
    """Answer failures: ``internal`` for an unexpected error, the protocol's ``error`` for
    the API's 404 and any 405, the 404 page in its language for a page."""

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> Response:
        log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        lang = choose_language(None, request.headers.get("accept-language"))
        return error_response(ClientError("internal"), catalogs.wording(lang))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        path = request.url.path
        lang = choose_language(None, request.headers.get("accept-language"))
        if error.status_code == 405 or path.startswith("/api/"):
            code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "internal")
            response = error_response(ClientError(code), catalogs.wording(lang))
            if error.headers:
                response.headers.update(error.headers)
            response.status_code = error.status_code
            return response
        if error.status_code == 404:
            first = path.strip("/").split("/")[0]
            return not_found_page(catalogs, first if is_language(first) else None)
        return PlainTextResponse(str(error.detail), status_code=error.status_code)


def install(
    app: FastAPI, catalogs: Catalogs, templates: Jinja2Templates, *, home: Home, guests: Guests
) -> None:
    """Add ``/``, ``/healthz`` and the home with the table (``/{lang}/``: installed last,
    its path matches any first segment)."""

    @app.get("/", include_in_schema=False)
    async def root(request: Request) -> RedirectResponse:
        saved = request.cookies.get(LANGUAGE_COOKIE)
        lang = visitor_language(saved, request.headers.get("accept-language"))
        return RedirectResponse(
            f"/{lang}/", status_code=307, headers={"Vary": "Accept-Language, Cookie"}
        )

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> PlainTextResponse:
        return PlainTextResponse("ok")

    @app.get("/{lang}/", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        wording = catalogs.wording(lang)
        context = page_context(lang, wording, templates)
        context["home"] = await home_parts(request, wording, home=home, guests=guests)
        context["commitments"] = commitments(context["presets"])
        return templates.TemplateResponse(request, "table.html", context, headers=NO_STORE)


async def home_parts(
    request: Request, wording: Wording, *, home: Home, guests: Guests
) -> dict[str, Any]:
    """The home's parts for the request's player (docs/web.md, "The home"); those of the
    store left out when it cannot answer (the page is still the table's)."""
    player = await or_else(guests.identify(request), None)
    parts = await or_else(home.page(None if player is None else player.id, wording), None)
    return parts or {
        "open": [],
        "going_on": {"rooms": [], "tournaments": []},
        "next": None,
        "now": None,
        "ratings": {},
        "league": None,
        "guest_with_games": False,
        "keep_player": False,
        "problem": None,
    }


__all__ = ["install", "install_errors"]
