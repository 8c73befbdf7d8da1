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
from typing import Any, Final

from cardavia.players.passkeys import (
    PasskeyRefusedError,
    RelyingParty,
    answer_passkey,
    check_registration,
    check_sign_in,
    registration_options,
    sign_in_options,
)
from cardavia.players.settings import read_settings
from cardavia.store.db import new_token
from cardavia.store.passkeys import PasskeyStore, StoredPasskey
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


@dataclass(frozen=True, slots=True)
class Ceremony:
    """A passkey ceremony begun: its id (to send back with the answer) and the options the
    browser gives its authenticator."""

    id: str
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as its player sees it listed."""

    id: str
    created_at: str
    used_at: str | None

    @classmethod
    def of(cls, stored: StoredPasskey) -> Passkey:
        """The listing of a stored passkey (times in ISO 8601, UTC)."""
        used = None if stored.used_at is None else stored.used_at.isoformat()
        return cls(stored.id, stored.created_at.isoformat(), used)

    def public(self) -> dict[str, Any]:
        """As ``GET /api/passkeys`` lists it."""
        return {"id": self.id, "created_at": self.created_at, "used_at": self.used_at}


class Players:
    """The players of the site's database, and their passkeys."""

    def __init__(self, store: PlayerStore, passkeys: PasskeyStore) -> None:
        self.store = store
        self.keys = passkeys

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

    async def took_room_seat(
        self, player: Player, code: str, seat: str, *, token: str | None = None
    ) -> None:
        """The player took ``seat`` in the room ``code``, with the seat token whose hash is
        ``token`` (their record then follows the seat that token holds)."""
        await asyncio.to_thread(self.store.link_room, player.id, code, seat, token=token)

    async def passkeys(self, player: Player) -> list[Passkey]:
        """The player's passkeys, oldest first."""
        stored = await asyncio.to_thread(self.keys.of_player, player.id)
        return [Passkey.of(passkey) for passkey in stored]

    async def begin_registration(self, player: Player, party: RelyingParty) -> Ceremony:
        """Begin adding a passkey to the player."""
        existing = [passkey.id for passkey in await self.passkeys(player)]
        options, challenge = registration_options(
            party, user_id=player.id, user_name=player.name or SITE_USER, existing=existing
        )
        ceremony = await asyncio.to_thread(self.keys.begin, challenge, player_id=player.id)
        return Ceremony(ceremony, options)

    async def finish_registration(
        self, player: Player, ceremony: object, answer: object, party: RelyingParty
    ) -> Passkey:
        """Add the passkey the browser's answer made (:class:`PasskeyRefusedError`: a
        ceremony unknown, used, too old or another player's, or an answer that does not
        hold)."""
        begun = await asyncio.to_thread(self.keys.take, ceremony)
        if begun is None or begun.player_id != player.id:
            raise PasskeyRefusedError("no such ceremony")
        made = check_registration(party, answer, begun.challenge)
        if await asyncio.to_thread(self.keys.find, made.id) is not None:
            raise PasskeyRefusedError("a passkey already kept")
        await asyncio.to_thread(self.keys.add, made.id, player.id, made.public_key, made.sign_count)
        stored = await asyncio.to_thread(self.keys.find, made.id)
        assert stored is not None
        return Passkey.of(stored)

    async def begin_sign_in(self, party: RelyingParty) -> Ceremony:
        """Begin a sign-in with a passkey."""
        options, challenge = sign_in_options(party)
        ceremony = await asyncio.to_thread(self.keys.begin, challenge, player_id=None)
        return Ceremony(ceremony, options)

    async def finish_sign_in(
        self, ceremony: object, answer: object, party: RelyingParty, *, leaving: str | None
    ) -> Guest:
        """Sign in as the player of the passkey the browser's answer names: a new session
        (a new token, to set in the cookie), the one the browser came with (``leaving``)
        closed. :class:`PasskeyRefusedError` for a ceremony unknown or used, an unknown or
        revoked passkey, a wrong signature, a counter that did not move on."""
        begun = await asyncio.to_thread(self.keys.take, ceremony)
        if begun is None or begun.player_id is not None:
            raise PasskeyRefusedError("no such ceremony")
        passkey = await asyncio.to_thread(self.keys.find, answer_passkey(answer))
        if passkey is None:
            raise PasskeyRefusedError("no such passkey")
        count = check_sign_in(
            party,
            answer,
            begun.challenge,
            public_key=passkey.public_key,
            sign_count=passkey.sign_count,
        )
        if not await asyncio.to_thread(
            self.keys.used, passkey.id, before=passkey.sign_count, after=count
        ):
            raise PasskeyRefusedError("the passkey was used meanwhile")
        token = new_token()
        await asyncio.to_thread(
            self.store.sign_in, passkey.player_id, token, passkey_id=passkey.id, leaving=leaving
        )
        stored = await asyncio.to_thread(self.store.load, passkey.player_id)
        if stored is None:
            raise PasskeyRefusedError("the player is gone")
        return Guest(Player.of(stored), token)

    async def revoke(self, player: Player, passkey_id: str) -> bool:
        """Remove one of the player's passkeys, and close the sessions it opened (false:
        they have none of that id)."""
        if not await asyncio.to_thread(self.keys.revoke, player.id, passkey_id):
            return False
        await asyncio.to_thread(self.store.close_sessions_of_passkey, passkey_id)
        return True

    async def sign_out(self, token: str) -> None:
        """Close the session of ``token``."""
        await asyncio.to_thread(self.store.sign_out, token)


SITE_USER: Final = "Cardavia"
"""The name a passkey is listed under on the authenticator when its player gave none."""

__all__ = ["NOBODY", "SITE_USER", "Ceremony", "Guest", "Passkey", "Player", "Players"]
