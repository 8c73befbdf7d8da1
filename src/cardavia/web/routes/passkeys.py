"""The passkeys' routes (docs/players.md): a player adds passkeys (WebAuthn registration),
lists and revokes them, signs in with one in another browser (the cookie given a new token)
and signs out. Every request that changes something is JSON from the site itself (``Origin``
checked) and rate-limited; the relying party is the site as the request reached it (its
``Host``, which the edge allows, and its scheme)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from fastapi import FastAPI, Request
from starlette.responses import Response

from cardavia.live.limits import Counters, SiteLimiter
from cardavia.live.protocol import ClientError, check_fields, require
from cardavia.live.settings import Settings
from cardavia.players import PasskeyRefusedError, Player, Players, RelyingParty
from cardavia.players.service import NOBODY
from cardavia.web.edge import host_name
from cardavia.web.guests import PLAYER_COOKIE, Guests, is_https, player_token
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    client_key,
    origin_allowed,
    read_json_body,
)
from cardavia.web.i18n import choose_language
from cardavia.words import Catalogs

ATTEMPTS_PER_MINUTE: Final = 20
"""Ceremonies and sign-outs a client may ask per minute (a burst of :data:`ATTEMPTS_BURST`)."""
ATTEMPTS_BURST: Final = 10
ANSWER_FIELDS: Final = ("ceremony", "credential")
"""What the answer of a ceremony says."""
MAX_ANSWER_BYTES: Final = 16_384
"""A ceremony's answer may be larger than a table's message (the attestation)."""


def relying_party(request: Request, trusted_proxies: tuple[str, ...]) -> RelyingParty:
    """The site as the request reached it: its host name and its origin."""
    host = request.headers.get("host", "")
    scheme = "https" if is_https(request, trusted_proxies) else "http"
    return RelyingParty(host_name(host), f"{scheme}://{host}")


def _json(body: dict[str, Any], status: int = 200) -> Response:
    return SafeJSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


@dataclass(frozen=True, slots=True)
class _Routes:
    """What every passkey route shares: the players, the settings, the words, the limit."""

    guests: Guests
    settings: Settings
    catalogs: Catalogs
    limiter: SiteLimiter

    @property
    def players(self) -> Players:
        return self.guests.players

    def party(self, request: Request) -> RelyingParty:
        return relying_party(request, self.settings.trusted_proxies)

    async def checked(self, request: Request) -> dict[str, Any]:
        """The body of a state-changing request: from the site, within the rate, JSON."""
        if not origin_allowed(request.headers, self.settings.allowed_origins):
            raise ClientError("bad_origin")
        if await self.limiter.take(client_key(request, self.settings.trusted_proxies)):
            raise ClientError("rate_limited")
        return await read_json_body(request, MAX_ANSWER_BYTES, self.settings.body_timeout)

    async def signed_in(self, request: Request) -> Player:
        """The request's player (``bad_token`` without one)."""
        player = await self.guests.identify(request)
        if player is None:
            raise ClientError("bad_token")
        return player

    async def listed(self, player: Player) -> list[dict[str, Any]]:
        return [passkey.public() for passkey in await self.players.passkeys(player)]

    async def answer(self, request: Request, work: Callable[[], Awaitable[Response]]) -> Response:
        """Run ``work``; a ceremony the players refuse is ``passkey_refused`` (answered, as
        every refusal, by the site's one handler)."""
        try:
            return await work()
        except PasskeyRefusedError:
            raise ClientError("passkey_refused") from None


def install(
    app: FastAPI, guests: Guests, settings: Settings, catalogs: Catalogs, counters: Counters
) -> None:
    """Add the passkeys' routes and ``POST /api/signout`` to ``app``."""
    limiter = counters.limiter("passkeys", ATTEMPTS_PER_MINUTE / 60.0, ATTEMPTS_BURST)
    routes = _Routes(guests, settings, catalogs, limiter)
    _install_registration(app, routes)
    _install_sign_in(app, routes)


def _install_registration(app: FastAPI, routes: _Routes) -> None:
    """A player's passkeys: added, listed, revoked."""

    @app.get("/api/passkeys")
    async def list_passkeys(request: Request) -> Response:
        async def work() -> Response:
            player = await routes.guests.identify(request)
            return _json({"passkeys": [] if player is None else await routes.listed(player)})

        return await routes.answer(request, work)

    @app.post("/api/passkeys/register/options")
    async def registration_options(request: Request) -> Response:
        async def work() -> Response:
            check_fields(await routes.checked(request), ())
            lang = choose_language(None, request.headers.get("accept-language"))
            player, token = await routes.guests.player(request, lang)
            ceremony = await routes.players.begin_registration(player, routes.party(request))
            response = _json({"ceremony": ceremony.id, "options": ceremony.options})
            routes.guests.keep(request, response, token)
            return response

        return await routes.answer(request, work)

    @app.post("/api/passkeys/register")
    async def register(request: Request) -> Response:
        async def work() -> Response:
            data = await routes.checked(request)
            check_fields(data, ANSWER_FIELDS)
            require(data, *ANSWER_FIELDS)
            player = await routes.signed_in(request)
            added = await routes.players.finish_registration(
                player, data["ceremony"], data["credential"], routes.party(request)
            )
            return _json({"passkey": added.public(), "passkeys": await routes.listed(player)}, 201)

        return await routes.answer(request, work)

    @app.delete("/api/passkeys/{passkey_id}")
    async def revoke(request: Request, passkey_id: str) -> Response:
        async def work() -> Response:
            if not origin_allowed(request.headers, routes.settings.allowed_origins):
                raise ClientError("bad_origin")
            player = await routes.signed_in(request)
            if not await routes.players.revoke(player, passkey_id):
                raise ClientError("not_found")
            return _json({"passkeys": await routes.listed(player)})

        return await routes.answer(request, work)


def _install_sign_in(app: FastAPI, routes: _Routes) -> None:
    """Signing in with a passkey, and out."""

    @app.post("/api/passkeys/signin/options")
    async def sign_in_options(request: Request) -> Response:
        async def work() -> Response:
            check_fields(await routes.checked(request), ())
            ceremony = await routes.players.begin_sign_in(routes.party(request))
            return _json({"ceremony": ceremony.id, "options": ceremony.options})

        return await routes.answer(request, work)

    @app.post("/api/passkeys/signin")
    async def sign_in(request: Request) -> Response:
        async def work() -> Response:
            data = await routes.checked(request)
            check_fields(data, ANSWER_FIELDS)
            require(data, *ANSWER_FIELDS)
            signed = await routes.players.finish_sign_in(
                data["ceremony"],
                data["credential"],
                routes.party(request),
                leaving=player_token(request),
            )
            response = _json(signed.player.public())
            routes.guests.keep(request, response, signed.token)
            return response

        return await routes.answer(request, work)

    @app.post("/api/signout")
    async def sign_out(request: Request) -> Response:
        async def work() -> Response:
            check_fields(await routes.checked(request), ())
            token = player_token(request)
            if token:
                await routes.players.sign_out(token)
            response = _json(dict(NOBODY))
            response.delete_cookie(
                PLAYER_COOKIE,
                path="/",
                httponly=True,
                samesite="lax",
                secure=is_https(request, routes.settings.trusted_proxies),
            )
            return response

        return await routes.answer(request, work)


__all__ = ["ATTEMPTS_BURST", "ATTEMPTS_PER_MINUTE", "install", "relying_party"]
