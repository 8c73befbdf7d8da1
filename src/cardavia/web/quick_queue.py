"""Quick play's queues, one per rules preset (docs/players.md, "Quick play"): the people
waiting, when each was last seen connected, and the seats given to those seated.

- :class:`MemoryQueue`: one process serves alone (the embedded default).
- :class:`RedisQueue` (``CARDAVIA_REDIS_URL``): the queues live in Redis, shared by every
  web process of the site. A table's people are taken out of the queue by one atomic script
  (:data:`TAKE`): two processes forming tables at once never seat the same person twice —
  the second finds them gone and forms nothing.

Both have the same face: ``add`` (the same player twice is one entry, kept from its first
time), ``remove``, ``touch`` (their connection still open), ``waiting`` (the entries, those
not seen for :data:`GONE_AFTER` seconds dropped first), ``take`` (then ``forming``, until)
``give`` and ``seated`` (the seat each person was given, kept :data:`SEATED_FOR` seconds
for their tabs).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final

from cardavia.players.matching import Waiting

GONE_AFTER: Final = 8.0
"""Seconds an entry stays in the queue once no connection of its player is open (a page
reloading comes back in time; a tab closed leaves)."""
SEATED_FOR: Final = 120.0
"""Seconds the seat given to a person is kept for their tabs to find."""
FORMING_FOR: Final = 30.0
"""Seconds a person taken out of the queue for a table counts as being seated (the room
made, then their seat given: a connection opening meanwhile waits for it)."""
PREFIX: Final = "cardavia:quick:"


@dataclass(frozen=True, slots=True)
class Entry:
    """A person in a queue: how the seating sees them, the display name they sit under, and
    whether that name was reported (hidden from the others: docs/players.md, "Safety")."""

    waiting: Waiting
    name: str
    hidden: bool = False

    def to_json(self) -> str:
        data = asdict(self.waiting) | {"name": self.name, "hidden": self.hidden}
        data["apart"] = sorted(self.waiting.apart)
        return json.dumps(data, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Entry:
        data = json.loads(text)
        name = str(data.pop("name"))
        hidden = bool(data.pop("hidden", False))
        data["apart"] = frozenset(data.get("apart", ()))
        return cls(Waiting(**data), name, hidden)


@dataclass(frozen=True, slots=True)
class Seated:
    """The seat a person was given: the room's code, their seat token, the seat, the room's
    language."""

    room: str
    token: str
    seat: str
    lang: str

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Seated:
        return cls(**json.loads(text))


class MemoryQueue:
    """The queues of a process serving alone."""

    def __init__(self) -> None:
        self._entries: dict[str, dict[str, Entry]] = {}
        self._seen: dict[str, dict[str, float]] = {}
        self._seated: dict[str, tuple[Seated, float]] = {}
        self._forming: dict[str, float] = {}

    async def add(self, preset: str, entry: Entry, now: float) -> Entry:
        """Put ``entry`` in the preset's queue (already there: kept as it was); seen now."""
        entries = self._entries.setdefault(preset, {})
        kept = entries.setdefault(entry.waiting.player, entry)
        self._seen.setdefault(preset, {})[kept.waiting.player] = now
        return kept

    async def remove(self, preset: str, player: str) -> bool:
        """Take a player out of the queue: whether they were in it."""
        self._seen.get(preset, {}).pop(player, None)
        return self._entries.get(preset, {}).pop(player, None) is not None

    async def touch(self, preset: str, players: Iterable[str], now: float) -> None:
        """The players' connections are open: seen now (those still queued)."""
        entries, seen = self._entries.get(preset, {}), self._seen.setdefault(preset, {})
        for player in players:
            if player in entries:
                seen[player] = now

    async def waiting(self, preset: str, now: float) -> list[Entry]:
        """The queue's entries, those not seen for :data:`GONE_AFTER` dropped first."""
        entries, seen = self._entries.get(preset, {}), self._seen.get(preset, {})
        for player in [p for p in entries if seen.get(p, 0.0) < now - GONE_AFTER]:
            await self.remove(preset, player)
        return list(entries.values())

    async def take(self, preset: str, players: Iterable[str]) -> bool:
        """Take the players out of the queue if every one is still in it (else nobody)."""
        entries = self._entries.get(preset, {})
        chosen = list(players)
        if not all(player in entries for player in chosen):
            return False
        for player in chosen:
            await self.remove(preset, player)
            self._forming[player] = time.time() + FORMING_FOR
        return True

    async def give(self, seats: Mapping[str, Seated], now: float) -> None:
        """Keep the seat given to each player, for their tabs to find."""
        for player, seated in seats.items():
            self._seated[player] = (seated, now + SEATED_FOR)
            self._forming.pop(player, None)

    async def seated(self, players: Iterable[str], now: float) -> dict[str, Seated]:
        """The seats given to the players (those still kept)."""
        for player in [p for p, (_, until) in self._seated.items() if until < now]:
            del self._seated[player]
        return {p: self._seated[p][0] for p in players if p in self._seated}

    async def forget_seat(self, player: str) -> None:
        """Forget the seat given to a player (they are queuing again)."""
        self._seated.pop(player, None)

    async def forming(self, player: str) -> bool:
        """Whether the player was taken out of a queue for a table being formed (their seat
        not given yet)."""
        return self._forming.get(player, 0.0) > time.time()

    async def close(self) -> None:
        """Nothing to close."""


TAKE: Final = """
for i, player in ipairs(ARGV) do
  if i > 1 and redis.call('HEXISTS', KEYS[1], player) == 0 then return 0 end
end
for i, player in ipairs(ARGV) do
  if i > 1 then
    redis.call('HDEL', KEYS[1], player)
    redis.call('HDEL', KEYS[2], player)
    redis.call('SET', KEYS[3] .. player, '1', 'PX', ARGV[1])
  end
end
return 1
"""
"""Take a table's people out of a queue in one step: all of them, or none if one is gone
(another process seated them, they cancelled, their tab closed); each taken is marked as
being seated (``KEYS[3]`` and the player) for ``ARGV[1]`` ms."""
PRUNE: Final = """
local gone = {}
local seen = redis.call('HGETALL', KEYS[2])
for i = 1, #seen, 2 do
  if tonumber(seen[i + 1]) < tonumber(ARGV[1]) then
    redis.call('HDEL', KEYS[1], seen[i])
    redis.call('HDEL', KEYS[2], seen[i])
  end
end
for i, player in ipairs(redis.call('HKEYS', KEYS[1])) do
  if redis.call('HEXISTS', KEYS[2], player) == 0 then redis.call('HDEL', KEYS[1], player) end
end
return redis.call('HVALS', KEYS[1])
"""
"""Drop the entries not seen since ``ARGV[1]``, then answer the queue's entries."""
ADD: Final = """
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return redis.call('HGET', KEYS[1], ARGV[1])
"""
"""Put an entry in a queue (one already there kept) and mark it seen, in one step."""
TOUCH: Final = """
for i, player in ipairs(ARGV) do
  if i > 1 and redis.call('HEXISTS', KEYS[1], player) == 1 then
    redis.call('HSET', KEYS[2], player, ARGV[1])
  end
end
return 0
"""
"""Mark the players still queued as seen at ``ARGV[1]``."""


class RedisQueue:
    """The queues of a site of several processes, in Redis: per preset a hash of entries
    (``cardavia:quick:<preset>``) and one of when each was last seen
    (``cardavia:quick:<preset>:seen``); each seat given, a key with an expiry
    (``cardavia:quick:seated:<player>``)."""

    def __init__(self, url: str) -> None:
        import redis.asyncio

        self.redis: Any = redis.asyncio.Redis.from_url(url, socket_timeout=2.0)

    @staticmethod
    def _keys(preset: str) -> tuple[str, str]:
        return PREFIX + preset, PREFIX + preset + ":seen"

    async def add(self, preset: str, entry: Entry, now: float) -> Entry:
        player = entry.waiting.player
        kept = await self.redis.eval(
            ADD, 2, *self._keys(preset), player, entry.to_json(), repr(now)
        )
        return entry if kept is None else Entry.from_json(kept)

    async def remove(self, preset: str, player: str) -> bool:
        entries, seen = self._keys(preset)
        await self.redis.hdel(seen, player)
        return bool(await self.redis.hdel(entries, player))

    async def touch(self, preset: str, players: Iterable[str], now: float) -> None:
        chosen = list(players)
        if chosen:
            await self.redis.eval(TOUCH, 2, *self._keys(preset), repr(now), *chosen)

    async def waiting(self, preset: str, now: float) -> list[Entry]:
        values = await self.redis.eval(PRUNE, 2, *self._keys(preset), repr(now - GONE_AFTER))
        return [Entry.from_json(value) for value in values]

    async def take(self, preset: str, players: Iterable[str]) -> bool:
        chosen = list(players)
        keys = (*self._keys(preset), PREFIX + "forming:")
        return bool(await self.redis.eval(TAKE, 3, *keys, int(FORMING_FOR * 1000), *chosen))

    async def give(self, seats: Mapping[str, Seated], now: float) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for player, seated in seats.items():
                pipe.set(PREFIX + "seated:" + player, seated.to_json(), px=int(SEATED_FOR * 1000))
                pipe.delete(PREFIX + "forming:" + player)
            await pipe.execute()

    async def seated(self, players: Iterable[str], now: float) -> dict[str, Seated]:
        chosen = list(players)
        if not chosen:
            return {}
        values = await self.redis.mget([PREFIX + "seated:" + player for player in chosen])
        return {p: Seated.from_json(v) for p, v in zip(chosen, values, strict=True) if v}

    async def forget_seat(self, player: str) -> None:
        await self.redis.delete(PREFIX + "seated:" + player)

    async def forming(self, player: str) -> bool:
        return bool(await self.redis.exists(PREFIX + "forming:" + player))

    async def close(self) -> None:
        await self.redis.aclose()


Queue = MemoryQueue | RedisQueue
"""Where the queues live."""


def make_queue(redis_url: str | None) -> Queue:
    """The queues on Redis at ``redis_url``, or in this process without one."""
    return RedisQueue(redis_url) if redis_url else MemoryQueue()


__all__ = [
    "GONE_AFTER",
    "SEATED_FOR",
    "Entry",
    "MemoryQueue",
    "Queue",
    "RedisQueue",
    "Seated",
    "make_queue",
]
