"""The players' service (:class:`Players`): who a player token belongs to, a guest made for
a person who has none, what they change about themselves, and the games and room seats they
take. Every call is one short transaction of :class:`~cardavia.store.players.PlayerStore`,
run on a worker thread; any process of the site answers the same (the database is shared).

A token that is not a player's — forged, unknown, malformed, or from a deleted player — is
the same as none: the person is a new guest at their next game, never someone else."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardavia.players.settings import read_settings
from cardavia.store.db import new_token
from cardavia.store.players import PlayerStore, StoredPlayer


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the site shows them to themselves: what they keep, never their token."""

    id: str
    name: str | None
    lang: str | None
    settings: Mapping[str, Any]

    @classmethod
    def of(cls, stored: StoredPlayer) -> Player:
        """The player of a stored row."""
        return cls(stored.id, stored.name, stored.lang, read_settings(stored.settings))

    def public(self) -> dict[str, Any]:
        """What ``GET /api/me`` answers (the id stays inside: the token is the key)."""
        return {
            "player": True,
            "name": self.name,
            "lang": self.lang,
            "settings": dict(self.settings),
        }


NOBODY: dict[str, Any] = {"player": False, "name": None, "lang": None, "settings": {}}
"""What ``GET /api/me`` answers a person who is not a player yet."""


@dataclass(frozen=True, slots=True)
class Guest:
    """A new guest: the player and the token that names them (given once, to the cookie)."""

    player: Player
    token: str


class Players:
    """The players of the site's database."""

    def __init__(self, store: PlayerStore) -> None:
        self.store = store

    async def identify(self, token: str | None) -> Player | None:
        """The player holding ``token``, or ``None`` (no token, or not a player's)."""
        if not token:
            return None
        stored = await asyncio.to_thread(self.store.find, token)
        return None if stored is None else Player.of(stored)

    async def guest(self, lang: str | None = None) -> Guest:
        """A new guest player, reading the site in ``lang``."""
        token = new_token()
        stored = await asyncio.to_thread(self.store.create, token, lang=lang)
        return Guest(Player.of(stored), token)

    async def player_or_guest(
        self, token: str | None, lang: str | None
    ) -> tuple[Player, str | None]:
        """The player holding ``token``; else a new guest: answers the player and the new
        token to give them (``None`` when they already had one)."""
        player = await self.identify(token)
        if player is not None:
            return player, None
        guest = await self.guest(lang)
        return guest.player, guest.token

    async def change(self, player: Player, values: Mapping[str, str | None]) -> Player:
        """Keep what the player changed (``name``, ``lang``, ``settings``: already checked,
        the settings as :func:`~cardavia.players.settings.clean_settings` writes them)."""
        stored = await asyncio.to_thread(self.store.update, player.id, values)
        return player if stored is None else Player.of(stored)

    async def took_game(self, player: Player, game_id: str, seat: str | None) -> None:
        """The player took ``seat`` at the game ``game_id``."""
        await asyncio.to_thread(self.store.link_game, player.id, game_id, seat)

    async def took_room_seat(self, player: Player, code: str, seat: str) -> None:
        """The player took ``seat`` in the room ``code``."""
        await asyncio.to_thread(self.store.link_room, player.id, code, seat)


__all__ = ["NOBODY", "Guest", "Player", "Players"]
