"""Who a request's person is, by the player cookie (docs/players.md): a random player token
in an ``HttpOnly``, ``SameSite=Lax`` cookie, ``Secure`` when the site is served over HTTPS
(the request's own scheme, or ``X-Forwarded-Proto`` from a trusted proxy). The cookie is
set on a person's first game or room seat (:meth:`Guests.took_game`,
:meth:`Guests.took_room_seat`), which are linked to their player; a cookie that is not a
player's is the same as none (a new guest then), never an error."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from fastapi import Request, WebSocket
from starlette.responses import Response

from cardavia.players import Player, Players
from cardavia.store.db import StoreUnavailableError
from cardavia.store.players import PlayerStore
from cardavia.web.http_helpers import is_trusted_proxy

log = logging.getLogger(__name__)

PLAYER_COOKIE: Final = "cardavia_player"
COOKIE_MAX_AGE: Final = 400 * 24 * 3600
"""The cookie's life, renewed at every game: 400 days, the most browsers keep one."""


def is_https(connection: Request | WebSocket, trusted_proxies: tuple[str, ...] = ()) -> bool:
    """Whether the person reached the site over HTTPS: the request's own scheme (uvicorn
    serving TLS), else the ``X-Forwarded-Proto`` of a trusted proxy (nginx in front: its
    value from anyone else is ignored, as ``X-Forwarded-For`` is)."""
    if connection.url.scheme in ("https", "wss"):
        return True
    peer = connection.client.host if connection.client is not None else ""
    if not trusted_proxies or not is_trusted_proxy(peer, trusted_proxies):
        return False
    forwarded = connection.headers.get("x-forwarded-proto", "").split(",")[-1]
    return forwarded.strip().lower() == "https"


def player_token(connection: Request | WebSocket) -> str | None:
    """The player token the request's cookie holds, if any (not checked: see
    :meth:`Players.identify`)."""
    return connection.cookies.get(PLAYER_COOKIE) or None


@dataclass(frozen=True, slots=True)
class RoomSeat:
    """A seat taken in a room: the room's code, the seat, the display name (as the rooms'
    rules made it), the SHA-256 of the seat token it was taken with (what the player's
    record of the seat follows: docs/players.md, "Seats held now")."""

    code: str
    seat: str
    name: str
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Guests:
    """The players of the site's requests: found by their cookie, made on a first game."""

    players: Players
    trusted_proxies: tuple[str, ...] = ()

    async def identify(self, request: Request) -> Player | None:
        """The player of the request's cookie, or ``None``."""
        return await self.players.identify(player_token(request))

    async def player(self, request: Request, lang: str) -> tuple[Player, str]:
        """The request's player, or a new guest reading the site in ``lang``; with the token
        the cookie holds (to set, or renew, with :meth:`keep`)."""
        held = player_token(request)
        player, token = await self.players.player_or_guest(held, lang)
        return player, token or held or ""

    def keep(self, request: Request, response: Response, token: str) -> None:
        """Set the player cookie holding ``token`` on ``response``."""
        response.set_cookie(
            PLAYER_COOKIE,
            token,
            max_age=COOKIE_MAX_AGE,
            path="/",
            httponly=True,
            samesite="lax",
            secure=is_https(request, self.trusted_proxies),
        )

    def forget(self, request: Request, response: Response) -> None:
        """Remove the player cookie (the player was deleted, or signed out)."""
        response.delete_cookie(
            PLAYER_COOKIE,
            path="/",
            httponly=True,
            samesite="lax",
            secure=is_https(request, self.trusted_proxies),
        )

    async def took_game(
        self, request: Request, response: Response, lang: str, game_id: str, seat: str | None
    ) -> None:
        """The request's person (a new guest if need be) took ``seat`` at ``game_id``. Should
        the database fail here, the game stands without the link (logged)."""
        try:
            player, token = await self.player(request, lang)
            await self.players.took_game(player, game_id, seat)
            self.keep(request, response, token)
        except StoreUnavailableError as error:
            log.warning("game %s not linked to its player: %s", game_id, error)

    def linker(self, token: str | None, seat: str | None) -> Callable[[str], None] | None:
        """How the games its holder takes at ``seat`` are linked to the player of ``token``
        (a player cookie's): a write given each game's id, made with the game's own in the
        writer's thread, which finds the player as it links them (nobody: nothing written);
        ``None`` for no token. Should the database fail there, the game stands without the
        link (logged)."""
        if not token:
            return None
        return functools.partial(_link, self.players.store, token, seat)

    async def took_room_seat(
        self, request: Request, response: Response, lang: str, seat: RoomSeat
    ) -> None:
        """The request's person (a new guest if need be) took a seat in a room (as
        :meth:`took_game`); the name they sat under becomes their player's if it has none."""
        try:
            player, token = await self.player(request, lang)
            await self.players.took_room_seat(player, seat.code, seat.seat, token=seat.token)
            if player.name is None:
                await self.players.change(player, {"name": seat.name})
            self.keep(request, response, token)
        except StoreUnavailableError as error:
            log.warning("room %s not linked to its player: %s", seat.code, error)


def _link(store: PlayerStore, token: str, seat: str | None, game_id: str) -> None:
    try:
        store.link_game_of_token(token, game_id, seat)
    except StoreUnavailableError as error:
        log.warning("game %s not linked to its player: %s", game_id, error)


__all__ = ["COOKIE_MAX_AGE", "PLAYER_COOKIE", "Guests", "RoomSeat", "is_https", "player_token"]
