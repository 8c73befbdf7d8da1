"""Friends (docs/players.md, "Friends"): ``GET /api/friends``, ``POST /api/friends`` (asking
the person of a room's seat, or a friend link's owner), ``POST /api/friends/{key}/accept``,
``DELETE /api/friends/{key}`` (ending a friendship, refusing an asking or taking one's
back), ``POST /api/friends/link`` (one's friend link, made the first time),
``POST /api/friends/news`` (a page says where it is, and hears its invitations),
``POST /api/friends/{key}/invite`` (a friend invited to one's room) and
``DELETE /api/friends/invites/{id}`` (an invitation answered); the pages
``/{lang}/me/friends`` and ``/{lang}/friend/{code}``. Thin: the work is
:class:`~cardavia.live.friends.Friends`'s. Each changing route checks ``Origin`` and takes
JSON only; the person is their player cookie's (one is made for a friend link's visitor,
as a first game makes one)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from cardavia.live.friends import Friends
from cardavia.live.protocol import ClientError
from cardavia.live.settings import Settings
from cardavia.players import Player
from cardavia.web.guests import Guests
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    or_else,
    read_sent,
    refusal_language,
)
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, is_language

NO_STORE = {"Cache-Control": "no-store"}

Act = Callable[[Player, dict[str, Any]], Awaitable[dict[str, Any]]]
"""What a changing request does for its player with its body: the answer to send."""
Change = Callable[..., Awaitable[Response]]


def changes(guests: Guests, settings: Settings) -> Change:
    """How every changing route of friends (and of push subscriptions) is answered."""

    async def change(
        request: Request,
        act: Act,
        status_code: int = 200,
        *,
        make_player: bool = False,
    ) -> Response:
        """A changing request: ``Origin`` checked, the JSON body read, the player known by
        their cookie (``make_player``: a guest made for a visitor without one; otherwise
        none is ``bad_token``), then ``act``, whose answer is sent."""
        data, lang = await read_sent(request, settings)
        token = ""
        if make_player:
            player, token = await guests.player(request, lang)
        else:
            found = await guests.identify(request)
            if found is None:
                raise ClientError("bad_token")
            player = found
        answer = await act(player, data)
        response = SafeJSONResponse(answer, status_code=status_code, headers=NO_STORE)
        if token:
            guests.keep(request, response, token)
        return response

    return change


def install(
    app: FastAPI,
    friends: Friends,
    guests: Guests,
    settings: Settings,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add the friends' routes and pages to ``app`` (before the table page's catch-all)."""
    change = changes(guests, settings)
    _install_answers(app, friends, change)

    @app.get("/api/friends")
    async def listed(request: Request) -> Response:
        player = await guests.identify(request)
        if player is None:
            empty: dict[str, list[Any]] = {"friends": [], "asking": [], "asked": []}
            return SafeJSONResponse(empty, headers=NO_STORE)
        wording = catalogs.wording(refusal_language(request))
        return SafeJSONResponse(await friends.listed(player, wording), headers=NO_STORE)

    @app.post("/api/friends", status_code=201)
    async def ask(request: Request) -> Response:
        async def act(player: Player, data: dict[str, Any]) -> dict[str, Any]:
            return {"state": await friends.ask(player, data)}

        return await change(request, act, 201, make_player=True)

    @app.post("/api/friends/link")
    async def link(request: Request) -> Response:
        async def act(player: Player, _data: dict[str, Any]) -> dict[str, Any]:
            return {"code": await friends.link(player)}

        return await change(request, act, make_player=True)

    @app.post("/api/friends/news")
    async def news(request: Request) -> Response:
        """Every page says where it is: a visitor without a player hears nothing, and is
        not asked again (``poll`` 0), never refused (no error in every page's console)."""
        data, lang = await read_sent(request, settings)
        player = await guests.identify(request)
        if player is None:
            return SafeJSONResponse({"invites": [], "closing": [], "poll": 0}, headers=NO_STORE)
        answer = await friends.heard(player, data, catalogs.wording(lang))
        return SafeJSONResponse(answer, headers=NO_STORE)

    _install_pages(app, friends, guests, catalogs, templates)


def _install_answers(app: FastAPI, friends: Friends, change: Change) -> None:
    """An invitation sent or answered, an asking accepted, a friendship ended."""

    @app.post("/api/friends/{key}/invite")
    async def invite(request: Request, key: str) -> Response:
        async def act(player: Player, data: dict[str, Any]) -> dict[str, Any]:
            await friends.invite(player, key, data)
            return {"invited": True}

        return await change(request, act)

    @app.delete("/api/friends/invites/{invite_id}")
    async def dismiss(request: Request, invite_id: str) -> Response:
        async def act(player: Player, _data: dict[str, Any]) -> dict[str, Any]:
            await friends.dismiss(player, invite_id)
            return {"dismissed": True}

        return await change(request, act)

    @app.post("/api/friends/{key}/accept")
    async def accept(request: Request, key: str) -> Response:
        async def act(player: Player, _data: dict[str, Any]) -> dict[str, Any]:
            await friends.accept(player, key)
            return {"accepted": True}

        return await change(request, act)

    @app.delete("/api/friends/{key}")
    async def end(request: Request, key: str) -> Response:
        async def act(player: Player, _data: dict[str, Any]) -> dict[str, Any]:
            await friends.end(player, key)
            return {"ended": True}

        return await change(request, act)


def _install_pages(
    app: FastAPI,
    friends: Friends,
    guests: Guests,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """The friends page and a friend link's page."""

    @app.get("/{lang}/me/friends", response_class=HTMLResponse, include_in_schema=False)
    async def friends_page(request: Request, lang: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs, None)
        wording = catalogs.wording(lang)
        context = page_context(lang, wording, templates)
        player = await or_else(guests.identify(request), None)
        empty: dict[str, list[dict[str, Any]]] = {"friends": [], "asking": [], "asked": []}
        lists = empty if player is None else await friends.listed(player, wording)
        context |= {"lists": lists}
        response = templates.TemplateResponse(request, "friends.html", context)
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/{lang}/friend/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def friend_link_page(request: Request, lang: str, code: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs, None)
        reader = await or_else(guests.identify(request), None)
        try:
            name, mine = await friends.owner(code, reader)
        except ClientError:
            return not_found_page(catalogs, lang)
        context = page_context(lang, catalogs.wording(lang), templates)
        context |= {"code": code, "owner": name, "mine": mine}
        response = templates.TemplateResponse(request, "friend_link.html", context)
        response.headers["Cache-Control"] = "no-store"
        # The link names a person: no search engine keeps it.
        response.headers["X-Robots-Tag"] = "noindex"
        return response


__all__ = ["changes", "install"]
