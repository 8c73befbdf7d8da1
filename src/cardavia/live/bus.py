"""How the web processes serving one site tell each other about their tables (docs/web.md,
"Several servers").

- :class:`LocalBus`: one process (the embedded default): nothing to tell anyone.
- :class:`RedisBus` (``CARDAVIA_REDIS_URL``): a table's changes are published on Redis
  (``cardavia:table:<id>``, the revision reached), and every process watching that table
  brings it up to date from the store and sends it to its connections. One process at a time
  acts for a table: every save names the revision it replaces (the store refuses a stale
  one), and one process holds the lease to play a table's computer seats (renewed while it
  plays, given up when it stops, run out when the process dies).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from cardavia.live.logs import reason
from cardavia.metrics import service_failed

log = logging.getLogger(__name__)

CHANNEL_PREFIX: Final = "cardavia:table:"
MAX_CONNECTIONS: Final = 32
"""Connections to Redis per process (publishing, leases); more callers wait their turn."""
LEASE_SECONDS: Final = 2.5
"""How long a process may play a table's computer seats without renewing its lease: a
process killed mid-deal lets another one take the table over after at most this long (its
next move then within the 5 s the audit allows a table to be silent after a fault: 5.04 s
with a 5 s lease, tests/multi/test_faults.py). Shorter costs nothing but a renewal per move;
a lease lapsing during a long decision is safe (the revision check refuses a second save)."""

OnChange = Callable[[str, int], Awaitable[None]]
"""Called with a game's id and the revision another process saved."""
OnResync = Callable[[], Awaitable[None]]
"""Called when changes may have been missed: every table watched catches up."""
RETRY_SECONDS: Final = 0.5
"""How soon the bus tries Redis again once it is out of reach."""


class LocalBus:
    """One process serves everything: no one else to tell, nothing to share."""

    distributed: bool = False
    retry_seconds: float = 0.5

    async def start(self, on_change: OnChange, on_resync: OnResync) -> None:
        """Begin delivering other processes' changes to ``on_change``; ``on_resync`` when
        some may have been missed (the bus was out of reach a while)."""

    async def publish(self, game_id: str, revision: int) -> None:
        """Tell the other processes that a game reached ``revision``."""

    async def claim(self, game_id: str) -> bool:
        """Take (or renew) the lease to play a game's computer seats: whether this process
        holds it."""
        return True

    async def release(self, game_id: str) -> None:
        """Give the lease up."""

    async def close(self) -> None:
        """Stop."""


class RedisBus(LocalBus):
    """Processes joined by Redis: pub/sub for the changes, keys with an expiry for the locks
    and leases."""

    distributed = True

    def __init__(
        self, url: str, *, lease: float = LEASE_SECONDS, connections: int = MAX_CONNECTIONS
    ) -> None:
        import redis.asyncio

        # A bounded pool whose callers wait for a connection rather than fail.
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url, max_connections=connections, timeout=lease
        )
        self.redis: Any = redis.asyncio.Redis(connection_pool=pool)
        self.origin = secrets.token_hex(8)
        """This process's name in its messages and leases."""
        self.lease = lease
        self.lease_ms = int(lease * 1000)
        self._held: dict[str, float] = {}
        """The leases this process holds: until when (its clock), as last renewed."""
        self._reader: asyncio.Task[None] | None = None

    async def start(self, on_change: OnChange, on_resync: OnResync) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.psubscribe(CHANNEL_PREFIX + "*")
        self._reader = asyncio.create_task(self._read(pubsub, on_change, on_resync))

    async def _read(self, pubsub: Any, on_change: OnChange, on_resync: OnResync) -> None:
        lost = False
        while True:
            try:
                if lost:
                    # Subscribed again (Redis restarted, or the connection broke): whatever
                    # was published meanwhile is lost, so every table watched here catches up.
                    await pubsub.psubscribe(CHANNEL_PREFIX + "*")
                    lost = False
                    log.warning("the bus is back: catching up")
                    await on_resync()
                message = await pubsub.get_message(timeout=1.0)
                if message is None or message.get("type") != "pmessage":
                    continue
                channel = _text(message["channel"])
                origin, _, revision = _text(message["data"]).partition(" ")
                if origin != self.origin and revision.isdigit():
                    await on_change(channel.removeprefix(CHANNEL_PREFIX), int(revision))
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception as error:
                service_failed("redis")
                if not lost:
                    log.warning("the bus could not be read (%s); trying again", reason(error))
                lost = True
                await asyncio.sleep(RETRY_SECONDS)

    async def publish(self, game_id: str, revision: int) -> None:
        try:
            await self.redis.publish(CHANNEL_PREFIX + game_id, f"{self.origin} {revision}")
        except Exception as error:
            service_failed("redis")
            # The change is saved: the others catch up at their next action or connection.
            log.warning("game %s: the change could not be published (%s)", game_id, reason(error))

    async def claim(self, game_id: str) -> bool:
        now = time.monotonic()
        if self._held.get(game_id, 0.0) - now > self.lease / 2:
            return True  # held, and renewed recently enough: no round trip
        key = f"cardavia:runner:{game_id}"
        try:
            held = bool(await self.redis.set(key, self.origin, nx=True, px=self.lease_ms))
            if not held:
                holder = await self.redis.get(key)
                held = holder is not None and _text(holder) == self.origin
                if held:
                    await self.redis.pexpire(key, self.lease_ms)
        except Exception as error:
            service_failed("redis")
            # Redis out of reach: play on; the store's revision check still keeps two
            # processes from both saving a move.
            log.warning("game %s: the lease could not be taken (%s)", game_id, reason(error))
            return True
        if held:
            self._held[game_id] = now + self.lease
        else:
            self._held.pop(game_id, None)
        return held

    async def release(self, game_id: str) -> None:
        self._held.pop(game_id, None)
        key = f"cardavia:runner:{game_id}"
        with contextlib.suppress(Exception):
            holder = await self.redis.get(key)
            if holder is not None and _text(holder) == self.origin:
                await self.redis.delete(key)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        with contextlib.suppress(Exception):
            await self.redis.aclose()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def make_bus(url: str | None) -> LocalBus:
    """The bus of a Redis URL, or the one-process bus without one."""
    return RedisBus(url) if url else LocalBus()


__all__ = ["LocalBus", "RedisBus", "make_bus"]
