"""What friends tell each other while the site is open (docs/players.md, "Friends"): where a
player was last seen — at a table (and the room's code, when they sit in it: their friends may
watch it if it lets watchers in), in a tournament, or just on the site — and the invitations
to a room waiting for them.

Each open page of a player who has friends says where it is every :data:`POLL` seconds
(``POST /api/friends/news``) and gets the invitations waiting for them in the answer; a
player not seen for :data:`ONLINE` seconds is offline. With Redis (``CARDAVIA_REDIS_URL``)
both live in Redis, so that every web process sees them (one hash of last signs, one list
per invited player, each invitation kept :data:`INVITE_KEPT` seconds); without it, or while
it fails, in this process.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any, Final, NamedTuple

from cardavia.live.logs import reason
from cardavia.metrics import service_failed

log = logging.getLogger(__name__)

POLL: Final = 15.0
"""Seconds between two signs of an open page of a player who has friends."""
ONLINE: Final = 45.0
"""Seconds a player counts as online after their last sign (three polls)."""
INVITE_KEPT: Final = 300.0
"""Seconds an invitation waits for its friend."""
PLACES: Final = frozenset({"table", "tournament", "online"})
"""Where a page may say it is (anything else: ``online``)."""
RETRY: Final = 30.0
"""Seconds after Redis failed before it is asked again (meanwhile: this process's own)."""
KEPT_HERE: Final = 20_000
"""Signs kept in this process before those of the players offline are dropped."""
SEEN_KEY: Final = "cardavia:friends:seen"
INVITES_KEY: Final = "cardavia:friends:invites:"


class Sign(NamedTuple):
    """Where a player's page said it was: the place (one of :data:`PLACES`), and the room's
    code when it is at a table of a room the player sits in."""

    place: str
    room: str | None = None


class FriendNews:
    """The players' last signs and their invitations, on Redis at ``redis_url`` or here."""

    def __init__(self, redis_url: str | None = None) -> None:
        self._redis: Any = None
        if redis_url:
            import redis.asyncio

            self._redis = redis.asyncio.Redis.from_url(redis_url, socket_timeout=2.0)
        self._seen: dict[str, tuple[Sign, float]] = {}
        self._invites: dict[str, list[dict[str, Any]]] = {}
        self._failed_at: float | None = None

    def _failed(self, error: Exception) -> None:
        service_failed("redis")
        if self._failed_at is None:
            log.warning("friends' news kept in this process: %s", reason(error))
        self._failed_at = time.monotonic()

    @property
    def _shared(self) -> bool:
        """Whether Redis is asked: there is one, and it did not fail in the last
        :data:`RETRY` seconds (then it is tried again)."""
        if self._redis is None:
            return False
        return self._failed_at is None or time.monotonic() - self._failed_at >= RETRY

    async def seen(self, player_id: str, where: str, room: str | None = None) -> None:
        """``player_id``'s page says it is at ``where`` now (at a table: of the room ``room``,
        when the player sits in it)."""
        place = where if where in PLACES else "online"
        sign = Sign(place, room if place == "table" else None)
        now = time.time()
        self._seen[player_id] = (sign, now)
        if len(self._seen) > KEPT_HERE:
            # Only the players online are worth keeping: the others' signs are dropped.
            self._seen = {p: s for p, s in self._seen.items() if s[1] >= now - ONLINE}
        if self._shared:
            try:
                await self._redis.hset(SEEN_KEY, player_id, json.dumps([place, now, sign.room]))
            except Exception as error:
                self._failed(error)

    async def signs(self, player_ids: Iterable[str]) -> dict[str, Sign | None]:
        """Where each player was last seen (``None``: offline, not seen for :data:`ONLINE`)."""
        wanted = list(player_ids)
        signs = {p: self._seen[p] for p in wanted if p in self._seen}
        if self._shared and wanted:
            try:
                for player, text in zip(
                    wanted, await self._redis.hmget(SEEN_KEY, wanted), strict=True
                ):
                    if text is not None:
                        place, at, *room = json.loads(text)
                        sign = Sign(str(place), str(room[0]) if room and room[0] else None)
                        signs[player] = (sign, float(at))
            except Exception as error:
                self._failed(error)
        oldest = time.time() - ONLINE
        return {p: signs[p][0] if p in signs and signs[p][1] >= oldest else None for p in wanted}

    async def where(self, player_ids: Iterable[str]) -> dict[str, str | None]:
        """Where each player was last seen: the place only (:meth:`signs`)."""
        return {p: s.place if s else None for p, s in (await self.signs(player_ids)).items()}

    async def invite(self, friend_id: str, name: str, room: str) -> None:
        """Invite ``friend_id`` to the room ``room`` from a player named ``name``."""
        entry = {"id": secrets.token_hex(8), "name": name, "room": room, "at": time.time()}
        if self._shared:
            key = INVITES_KEY + friend_id
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    pipe.rpush(key, json.dumps(entry))
                    pipe.expire(key, int(INVITE_KEPT))
                    await pipe.execute()
                return
            except Exception as error:
                self._failed(error)
        self._invites.setdefault(friend_id, []).append(entry)

    async def invites(self, player_id: str) -> list[dict[str, Any]]:
        """The invitations waiting for ``player_id``, the oldest first (none past
        :data:`INVITE_KEPT`): Redis's, else this process's."""
        oldest = time.time() - INVITE_KEPT
        found = None
        if self._shared:
            try:
                saved = await self._redis.lrange(INVITES_KEY + player_id, 0, -1)
                found = [json.loads(text) for text in saved]
            except Exception as error:
                self._failed(error)
        if found is None:
            found = self._invites[player_id] = [
                i for i in self._invites.get(player_id, []) if i["at"] >= oldest
            ]
            if not found:
                del self._invites[player_id]
        return [i for i in found if i.get("at", 0) >= oldest]

    async def dismiss(self, player_id: str, invite_id: str) -> bool:
        """The invitation ``invite_id`` of ``player_id``'s is answered (joined, or declined):
        gone. Whether it was there."""
        if self._shared:
            key = INVITES_KEY + player_id
            try:
                for text in await self._redis.lrange(key, 0, -1):
                    if json.loads(text).get("id") == invite_id:
                        return bool(await self._redis.lrem(key, 1, text))
                return False
            except Exception as error:
                self._failed(error)
        kept = self._invites.get(player_id, [])
        here = [i for i in kept if i["id"] != invite_id]
        self._invites[player_id] = here
        return len(here) != len(kept)

    async def close(self) -> None:
        """Close the connection to Redis, if any."""
        if self._redis is not None:
            await self._redis.aclose()


__all__ = ["INVITE_KEPT", "ONLINE", "POLL", "FriendNews", "Sign"]
