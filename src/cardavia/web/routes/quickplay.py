"""Quick play's routes (docs/players.md, "Quick play"): the waiting page, joining a preset's
queue, and the waiting person's WebSocket. Thin: the work is
:class:`~cardavia.live.quickplay.QuickPlay`'s.

The transport is one WebSocket per waiting tab (``/ws/quick/{preset}``): it is how the site
already talks to its pages, it carries the seat the moment a table forms (no poll's delay),
and its closing is how a closed tab is known (its entry leaves the queue unless a connection
of the same player comes back within a few seconds). Several processes share the queue in
Redis: the process holding the tab's connection keeps its entry seen and sends it the seat
given by whichever process formed the table.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.responses import JSONResponse, Response

from cardavia.belote import PRESETS
from cardavia.live.flows import commitment_of
from cardavia.live.outbox import Listener
from cardavia.live.protocol import ClientError, check_fields
from cardavia.live.quickplay import Person, QuickPlay, check_preset
from cardavia.live.settings import Settings
from cardavia.web.connection import serve_connection
from cardavia.web.guests import Guests, player_token
from cardavia.web.http_helpers import (
    client_key,
    origin_allowed,
    read_json_body,
    refuse_socket,
    speak,
)
from cardavia.web.i18n import choose_language
from cardavia.web.pages import not_found_page, page_context
from cardavia.words import Catalogs, is_language


def _language(request: Request | WebSocket, data: dict[str, Any] | None = None) -> str:
    """The body's ``lang``, else the query's or the browser's."""
    if data is not None and is_language(data.get("lang")):
        return str(data["lang"])
    return choose_language(request.query_params.get("lang"), request.headers.get("accept-language"))


def install(
    app: FastAPI,
    quick: QuickPlay,
    guests: Guests,
    settings: Settings,
    catalogs: Catalogs,
    templates: Jinja2Templates,
) -> None:
    """Add quick play's page, API and socket to ``app``."""

    @app.get("/{lang}/quick/{preset}", response_class=HTMLResponse, include_in_schema=False)
    async def waiting_page(request: Request, lang: str, preset: str) -> Response:
        if not is_language(lang):
            return not_found_page(catalogs)
        if preset not in PRESETS:
            return not_found_page(catalogs, lang)
        wording = catalogs.wording(lang)
        context = page_context(lang, wording, templates)
        name, _ = wording.preset(preset, PRESETS[preset].target)
        # What the person commits to, said before they are seated: the game's length and
        # the clock (a lost game if they leave for good).
        commitment = commitment_of(PRESETS[preset])
        clock = round(settings.quick_clock)
        context |= {"preset": preset, "preset_name": name, "commitment": commitment}
        context |= {"clock": clock}
        return templates.TemplateResponse(request, "quick.html", context)

    @app.post("/api/quick/{preset}", status_code=201)
    async def join(request: Request, preset: str) -> Response:
        """Join a preset's queue (a guest made first, as a first game makes one)."""
        if not origin_allowed(request.headers, settings.allowed_origins):
            raise ClientError("bad_origin")
        data = await read_json_body(request, settings.max_message_bytes, settings.body_timeout)
        lang = speak(request, _language(request, data))
        check_fields(data, ("lang",))
        check_preset(preset)
        player, token = await guests.player(request, lang)
        queued = await quick.join(
            Person(player.id, player.name, lang),
            preset,
            client=client_key(request, settings.trusted_proxies),
        )
        response = JSONResponse(
            {"preset": preset, "since": queued.since, "waiting": queued.waiting},
            status_code=201,
            headers={"Cache-Control": "no-store"},
        )
        guests.keep(request, response, token)
        return response

    @app.websocket("/ws/quick/{preset}")
    async def waiting_socket(websocket: WebSocket, preset: str) -> None:
        """A waiting tab: told how long and with how many it waits, then its seat."""
        lang = _language(websocket)
        wording = catalogs.wording(lang)
        await websocket.accept()
        try:
            if not origin_allowed(websocket.headers, settings.allowed_origins):
                raise ClientError("bad_origin")
            chosen = check_preset(preset)
            player = await guests.players.identify(player_token(websocket))
            if player is None or not await quick.expects(player.id, chosen):
                raise ClientError("not_waiting")
        except ClientError as error:
            await refuse_socket(websocket, error, wording)
            return
        listener = Listener(wording, limit=settings.limits.queue_messages)
        quick.connect(player.id, chosen, listener)

        async def handle(data: str | bytes) -> None:
            await quick.handle(player.id, chosen, listener, data)

        await serve_connection(
            websocket,
            listener,
            settings.limits,
            handle=handle,
            depart=lambda: quick.depart(listener),
        )


__all__ = ["install"]
