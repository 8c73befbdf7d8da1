"""Fair use: what one client may ask of the site, so that no client can starve the others
(docs/web.md, "Fair use").

- :class:`RateLimiter`: token buckets by key (a connection for its messages, a seat for its
  phrases), in this process.
- :class:`SiteLimiter`: token buckets by client counted site-wide (game and room creation,
  code lookups): on Redis when the site has it (:class:`Counters`), so that several
  processes allow a client what one would; in this process otherwise, or while Redis fails.
- :class:`Limits`: the numbers, from the environment (``CARDAVIA_GAMES_PER_MINUTE``, …).
"""

from __future__ import annotations

import logging
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final

from cardavia.live.logs import reason
from cardavia.metrics import service_failed

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES: Final = 4096
"""The longest client message accepted (a WebSocket message, a request's body); a real one
is under 200 bytes (:attr:`cardavia.live.settings.Settings.max_message_bytes`)."""
MAX_KEYS: Final = 100_000
"""The most keys a limiter remembers (the least recently seen are forgotten first)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The fair-use limits; ``0`` turns one off."""

    games_per_minute: float = 20.0
    """Games one client address may create per minute (bursts up to :attr:`games_burst`)."""
    games_burst: int = 10
    messages_per_second: float = 20.0
    """Messages one connection may send per second (bursts up to :attr:`messages_burst`)."""
    messages_burst: int = 40
    flood_messages: int = 200
    """Messages over the limit after which a connection is closed rather than answered."""
    sockets_per_game: int = 8
    """Connections open on one game at once (tabs, a phone, a watcher)."""
    queue_messages: int = 256
    """Messages waiting to be sent to one connection; past that it is too slow (or not
    reading): it is told so and closed, not buffered."""
    ai_per_client: int = 2
    """Computer-player decisions running at once for one client's tables (the cap itself:
    :class:`cardavia.ai.budget.WorkBudget`, held by :class:`cardavia.ai.decisions.Decisions`)."""
    abandoned_days: float = 30.0
    """Unfinished games idle for this many days are deleted (finished games are kept)."""
    rooms_per_client: int = 10
    """Rooms one client address may have open at once."""
    rooms_per_minute: float = 10.0
    """Rooms one client address may create per minute."""
    room_lookups_per_minute: float = 30.0
    """Codes of no room one client may try per minute (guessing codes is slow)."""
    room_idle_days: float = 1.0
    """A room nobody has been at for this many days closes (its game is deleted)."""
    sockets_per_seat: int = 4
    """Connections one seat's player may have open on their room at once (tabs, a phone):
    reserved to them, so that no watcher can take their place."""
    watchers_per_room: int = 16
    """Watchers' connections (tokenless) open on one room at once, counted apart from the
    players' (:attr:`sockets_per_seat`): however many watchers come, a player's tab finds
    room. Counted by each web process for the connections it holds."""
    phrases_per_minute: float = 30.0
    """Quick phrases one seat of a room may say per minute (bursts up to
    :attr:`phrases_burst`)."""
    phrases_burst: int = 3
    header_bytes: int = 16_384
    """The longest request head (its line and headers) read; past it the request is refused
    with 431 before the rest is read (:mod:`cardavia.web.server`)."""
    header_timeout: float = 10.0
    """Seconds a request head may take to arrive: past them the connection is closed (408)."""
    connections_per_address: int = 100
    """Connections one client address may hold open on one process at once (a trusted
    proxy's excepted); past them a new one is refused (429) as it opens."""
    blocks_per_hour: float = 20.0
    """Blocks and unblocks one player may make per hour (docs/players.md, "Safety")."""
    reports_per_hour: float = 10.0
    """Display names one player may report per hour."""
    friends_per_hour: float = 30.0
    """Friend askings one player may make per hour (docs/players.md, "Friends")."""

    ENVIRONMENT: ClassVar[Mapping[str, str]] = {
        "games_per_minute": "CARDAVIA_GAMES_PER_MINUTE",
        "games_burst": "CARDAVIA_GAMES_BURST",
        "messages_per_second": "CARDAVIA_MESSAGES_PER_SECOND",
        "messages_burst": "CARDAVIA_MESSAGES_BURST",
        "flood_messages": "CARDAVIA_FLOOD_MESSAGES",
        "sockets_per_game": "CARDAVIA_SOCKETS_PER_GAME",
        "queue_messages": "CARDAVIA_QUEUE_MESSAGES",
        "ai_per_client": "CARDAVIA_AI_PER_CLIENT",
        "abandoned_days": "CARDAVIA_ABANDONED_DAYS",
        "rooms_per_client": "CARDAVIA_ROOMS_PER_CLIENT",
        "rooms_per_minute": "CARDAVIA_ROOMS_PER_MINUTE",
        "room_lookups_per_minute": "CARDAVIA_ROOM_LOOKUPS_PER_MINUTE",
        "room_idle_days": "CARDAVIA_ROOM_IDLE_DAYS",
        "sockets_per_seat": "CARDAVIA_SOCKETS_PER_SEAT",
        "watchers_per_room": "CARDAVIA_WATCHERS_PER_ROOM",
        "phrases_per_minute": "CARDAVIA_PHRASES_PER_MINUTE",
        "phrases_burst": "CARDAVIA_PHRASES_BURST",
        "header_bytes": "CARDAVIA_HEADER_BYTES",
        "header_timeout": "CARDAVIA_HEADER_TIMEOUT",
        "connections_per_address": "CARDAVIA_CONNECTIONS_PER_ADDRESS",
        "blocks_per_hour": "CARDAVIA_BLOCKS_PER_HOUR",
        "reports_per_hour": "CARDAVIA_REPORTS_PER_HOUR",
        "friends_per_hour": "CARDAVIA_FRIENDS_PER_HOUR",
    }

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The limits, each overridden by its variable of :attr:`ENVIRONMENT` when set."""
        environ = os.environ if environ is None else environ
        values: dict[str, float | int] = {}
        for item in fields(cls):
            text = environ.get(cls.ENVIRONMENT[item.name], "").strip()
            if text:
                kind: Callable[[str], float | int] = float if item.type == "float" else int
                values[item.name] = kind(text)
        return cls(**values)  # type: ignore[arg-type]


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """Token buckets by key: ``rate`` tokens a second, at most ``burst`` saved up. A rate of
    0 allows everything."""

    def __init__(
        self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def allow(self, key: str) -> bool:
        """Take a token for ``key``: whether it had one."""
        if self.rate <= 0:
            return True
        now = self.clock()
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = _Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        allowed = bucket.tokens >= 1.0
        if allowed:
            bucket.tokens -= 1.0
        self._buckets[key] = bucket
        while len(self._buckets) > MAX_KEYS:
            self._buckets.popitem(last=False)
        return allowed

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` has a token again."""
        bucket = self._buckets.get(key)
        if bucket is None or self.rate <= 0:
            return 0
        return max(1, int((1.0 - bucket.tokens) / self.rate + 0.999))


TAKE_TOKEN: Final = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local saved = redis.call('HMGET', KEYS[1], 't', 's')
local tokens = tonumber(saved[1]) or burst
local stamp = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 's', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
if allowed == 1 then return 0 end
return math.max(1, math.ceil((1 - tokens) / rate))
"""
"""A token bucket on Redis, taken in one step (a Lua script, Redis's clock): 0 if a token
was there, else the whole seconds until one is."""
KEY_PREFIX: Final = "cardavia:limit:"


class SiteLimiter:
    """A token bucket per client counted for the whole site: ``rate`` tokens a second, at
    most ``burst`` saved up (a rate of 0 allows everything). Made by :class:`Counters`."""

    def __init__(self, name: str, rate: float, burst: int, redis: Any = None) -> None:
        self.name = name
        self.local = RateLimiter(rate, burst)
        """The buckets of this process: alone, or while Redis fails."""
        self._redis = redis
        self._failing = False
        """Whether Redis failed last time (said once, not at every request)."""

    async def take(self, key: str) -> int:
        """Take a token for ``key``: 0 if it had one, else the seconds to wait for one."""
        if self.local.rate <= 0:
            return 0
        if self._redis is not None:
            try:
                args = (self.local.rate, self.local.burst)
                key_on_redis = f"{KEY_PREFIX}{self.name}:{key}"
                waited = int(await self._redis.eval(TAKE_TOKEN, 1, key_on_redis, *args))
            except Exception as error:  # Redis down: count in this process meanwhile
                service_failed("redis")
                if not self._failing:
                    log.warning("limit %s counted in this process: %s", self.name, reason(error))
                self._failing = True
            else:
                if self._failing:
                    log.warning("limit %s counted on Redis again", self.name)
                self._failing = False
                return waited
        if self.local.allow(key):
            return 0
        return self.local.retry_after(key)


class Counters:
    """Where the site-wide limits count: on Redis at ``redis_url`` (shared by every process
    of the site), or in this process when there is none."""

    def __init__(self, redis_url: str | None = None) -> None:
        self._redis: Any = None
        if redis_url:
            import redis.asyncio

            self._redis = redis.asyncio.Redis.from_url(redis_url, socket_timeout=2.0)

    def limiter(self, name: str, rate: float, burst: int) -> SiteLimiter:
        """A limiter named ``name`` (its keys on Redis start with it)."""
        return SiteLimiter(name, rate, burst, self._redis)

    async def close(self) -> None:
        """Close the connection to Redis, if any."""
        if self._redis is not None:
            await self._redis.aclose()


__all__ = ["MAX_MESSAGE_BYTES", "Counters", "Limits", "RateLimiter", "SiteLimiter"]
