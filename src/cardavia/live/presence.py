"""Who is playing now, counted for the whole site (docs/players.md, "The lobby").

Each web process says, every few seconds (a heartbeat), who is playing on it: one member per
person — ``table:<game>`` for a single-player table with a connection open, ``room:<code>:<seat>``
for a room's seat whose player has one open, ``queue:<player>`` for someone waiting in quick
play — and the public tables it holds. With Redis (``CARDAVIA_REDIS_URL``) the members go to
one sorted set scored by the time of their last heartbeat and the tables to one hash: the count
is the members seen within :data:`TTL` (the older ones dropped), so that a process that stops
stops counting, and a person with two tabs on two processes counts once. Without Redis, or
while it fails, the count is this process's own.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any, Final

from cardavia.live.logs import reason
from cardavia.metrics import service_failed

log = logging.getLogger(__name__)

TTL: Final = 15.0
"""Seconds a member or a table counts after its last heartbeat (three heartbeats)."""
PEOPLE_KEY: Final = "cardavia:presence:people"
TABLES_KEY: Final = "cardavia:presence:tables"


class Presence:
    """The people playing now and the public tables, on Redis at ``redis_url`` (shared by
    every process) or in this process."""

    def __init__(self, redis_url: str | None = None, *, ttl: float = TTL) -> None:
        self.ttl = ttl
        self._redis: Any = None
        if redis_url:
            import redis.asyncio

            self._redis = redis.asyncio.Redis.from_url(redis_url, socket_timeout=2.0)
        self._members: frozenset[str] = frozenset()
        self._tables: dict[str, dict[str, Any]] = {}
        self._failing = False

    def _failed(self, error: Exception) -> None:
        service_failed("redis")
        if not self._failing:
            log.warning("presence counted in this process: %s", reason(error))
        self._failing = True

    async def beat(self, members: Iterable[str], tables: Mapping[str, dict[str, Any]]) -> None:
        """This process's heartbeat: who plays here now, and the public tables it holds
        (each a JSON object, by the room's code)."""
        self._members = frozenset(members)
        self._tables = dict(tables)
        if self._redis is None:
            return
        now = time.time()
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                if self._members:
                    pipe.zadd(PEOPLE_KEY, dict.fromkeys(self._members, now))
                pipe.zremrangebyscore(PEOPLE_KEY, "-inf", now - self.ttl)
                for code, entry in self._tables.items():
                    pipe.hset(TABLES_KEY, code, json.dumps(entry | {"at": now}))
                await pipe.execute()
        except Exception as error:  # Redis down: this process's own figures meanwhile
            self._failed(error)
        else:
            self._failing = False

    async def count(self) -> int:
        """How many people play now (on the whole site, or here)."""
        if self._redis is not None and not self._failing:
            try:
                return int(await self._redis.zcount(PEOPLE_KEY, time.time() - self.ttl, "+inf"))
            except Exception as error:
                self._failed(error)
        return len(self._members)

    async def tables(self) -> list[dict[str, Any]]:
        """The public tables being played (on the whole site, or here); those no process
        has told of lately are dropped."""
        if self._redis is not None and not self._failing:
            try:
                return await self._shared_tables()
            except Exception as error:
                self._failed(error)
        return list(self._tables.values())

    async def _shared_tables(self) -> list[dict[str, Any]]:
        saved = await self._redis.hgetall(TABLES_KEY)
        oldest = time.time() - self.ttl
        found, stale = [], []
        for code, text in saved.items():
            entry = json.loads(text)
            if entry.get("at", 0) < oldest:
                stale.append(code)
            else:
                found.append(entry)
        if stale:
            await self._redis.hdel(TABLES_KEY, *stale)
        return found

    async def close(self) -> None:
        """Close the connection to Redis, if any."""
        if self._redis is not None:
            await self._redis.aclose()


__all__ = ["PEOPLE_KEY", "TABLES_KEY", "TTL", "Presence"]
