"""Quick play's queues, one per rules preset (docs/players.md, "Quick play"): the people
waiting, when each was last seen connected, and the seats given to those seated.

- :class:`MemoryQueue`: one process serves alone (the embedded default).
- :class:`RedisQueue` (``CARDAVIA_REDIS_URL``): the queues live in Redis, shared by every
  web process of the site. A table's people are taken out of the queue by one atomic script
  (:data:`TAKE`): two processes forming tables at once never seat the same person twice —
  the second finds them gone and forms nothing.

Both have the same face: ``add`` (the same player twice is one entry, kept from its first
time), ``remove``, ``touch`` (their connection still open), ``closed`` (their last
connection in a process closed), ``waiting`` (the entries, those not seen for
:data:`GONE_AFTER` seconds dropped first), ``present`` (those whose waiting connection is
open: the only ones seated), ``take`` (then ``forming``, until) ``give`` and ``seated`` (the
seat each person was given, kept :data:`SEATED_FOR` seconds for their tabs), and
``note_client`` (the players who joined from one client lately: the abandonment penalty
follows the client, docs/players.md, "Quick play").

An entry is there from its join, but seated only while a waiting connection of its person is
open: a join that never opens one (a script's phantom guest) waits :data:`GONE_AFTER` seconds
and leaves, seated with nobody.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final

from cardavia.players.matching import Waiting

GONE_AFTER: Final = 8.0
"""Seconds an entry stays in the queue once no connection of its player is open (a page
reloading comes back in time; a tab closed leaves)."""
PRESENT_FOR: Final = 3.0
"""Seconds an entry counts as present after a process last saw its waiting connection open
(the processes see theirs every quarter of a second; a process that stops stops vouching for
its connections within these seconds)."""
CLIENT_MEMORY: Final = 24 * 3600.0
"""Seconds a client is remembered as the one a player joined from (the abandonment penalty
of every player seen from it lately is the client's)."""
CLIENT_PLAYERS: Final = 16
"""The most players remembered for one client (the latest)."""
MAX_CLIENTS: Final = 100_000
"""The most clients one process remembers (the least recently seen forgotten first)."""
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
        self._open: dict[str, dict[str, float]] = {}
        self._clients: OrderedDict[str, dict[str, float]] = OrderedDict()
        self._seated: dict[str, tuple[Seated, float]] = {}
        self._forming: dict[str, float] = {}

    async def add(self, preset: str, entry: Entry, now: float) -> Entry:
        """Put ``entry`` in the preset's queue (already there: kept as it was), kept
        :data:`GONE_AFTER` seconds for its waiting connection to open (not present before)."""
        entries = self._entries.setdefault(preset, {})
        kept = entries.setdefault(entry.waiting.player, entry)
        self._seen.setdefault(preset, {})[kept.waiting.player] = now
        return kept

    async def remove(self, preset: str, player: str) -> bool:
        """Take a player out of the queue: whether they were in it."""
        self._seen.get(preset, {}).pop(player, None)
        self._open.get(preset, {}).pop(player, None)
        return self._entries.get(preset, {}).pop(player, None) is not None

    async def touch(self, preset: str, players: Iterable[str], now: float) -> None:
        """The players' connections are open: seen and present now (those still queued)."""
        entries, seen = self._entries.get(preset, {}), self._seen.setdefault(preset, {})
        present = self._open.setdefault(preset, {})
        for player in players:
            if player in entries:
                seen[player] = present[player] = now

    async def closed(self, preset: str, player: str) -> None:
        """The player's last waiting connection in a process closed: no longer present (their
        entry kept a while for a reload, but seated with nobody)."""
        self._open.get(preset, {}).pop(player, None)

    async def present(self, preset: str, now: float) -> set[str]:
        """The players of the queue whose waiting connection is open (seen within
        :data:`PRESENT_FOR`)."""
        entries, present = self._entries.get(preset, {}), self._open.get(preset, {})
        return {p for p, at in present.items() if p in entries and at >= now - PRESENT_FOR}

    async def note_client(self, client: str, player: str, now: float) -> list[str]:
        """Remember that ``player`` joined from ``client``; answer the players seen joining
        from it within :data:`CLIENT_MEMORY` (the latest :data:`CLIENT_PLAYERS`, ``player``
        among them)."""
        if not client:
            return [player]
        seen = self._clients.pop(client, {})
        seen[player] = now
        kept = sorted(
            ((at, who) for who, at in seen.items() if at >= now - CLIENT_MEMORY), reverse=True
        )[:CLIENT_PLAYERS]
        self._clients[client] = {who: at for at, who in kept}
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)
        return [who for _, who in kept]

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
    redis.call('HDEL', KEYS[4], player)
    redis.call('SET', KEYS[3] .. player, '1', 'PX', ARGV[1])
  end
end
return 1
"""
"""Take a table's people out of a queue in one step: all of them, or none if one is gone
(another process seated them, they cancelled, their tab closed); each taken is marked as
being seated (``KEYS[3]`` and the player) for ``ARGV[1]`` ms, and is no longer present
(``KEYS[4]``)."""
PRUNE: Final = """
local gone = {}
local seen = redis.call('HGETALL', KEYS[2])
for i = 1, #seen, 2 do
  if tonumber(seen[i + 1]) < tonumber(ARGV[1]) then
    redis.call('HDEL', KEYS[1], seen[i])
    redis.call('HDEL', KEYS[2], seen[i])
    redis.call('HDEL', KEYS[3], seen[i])
  end
end
for i, player in ipairs(redis.call('HKEYS', KEYS[1])) do
  if redis.call('HEXISTS', KEYS[2], player) == 0 then redis.call('HDEL', KEYS[1], player) end
end
return redis.call('HVALS', KEYS[1])
"""
"""Drop the entries not seen since ``ARGV[1]`` (and their presence), then answer the queue's
entries."""
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
    redis.call('HSET', KEYS[3], player, ARGV[1])
  end
end
return 0
"""
"""Mark the players still queued as seen and present at ``ARGV[1]``."""


class RedisQueue:
    """The queues of a site of several processes, in Redis: per preset a hash of entries
    (``cardavia:quick:<preset>``), one of when each was last seen
    (``cardavia:quick:<preset>:seen``) and one of when its waiting connection was last seen
    open (``cardavia:quick:<preset>:open``); each seat given, a key with an expiry
    (``cardavia:quick:seated:<player>``); the players seen from each client, a sorted set
    (``cardavia:quick:client:<client>``) with an expiry."""

    def __init__(self, url: str) -> None:
        import redis.asyncio

        self.redis: Any = redis.asyncio.Redis.from_url(url, socket_timeout=2.0)

    @staticmethod
    def _keys(preset: str) -> tuple[str, str, str]:
        return PREFIX + preset, PREFIX + preset + ":seen", PREFIX + preset + ":open"

    async def add(self, preset: str, entry: Entry, now: float) -> Entry:
        player = entry.waiting.player
        entries, seen, _ = self._keys(preset)
        kept = await self.redis.eval(ADD, 2, entries, seen, player, entry.to_json(), repr(now))
        return entry if kept is None else Entry.from_json(kept)

    async def remove(self, preset: str, player: str) -> bool:
        entries, seen, present = self._keys(preset)
        await self.redis.hdel(seen, player)
        await self.redis.hdel(present, player)
        return bool(await self.redis.hdel(entries, player))

    async def touch(self, preset: str, players: Iterable[str], now: float) -> None:
        chosen = list(players)
        if chosen:
            await self.redis.eval(TOUCH, 3, *self._keys(preset), repr(now), *chosen)

    async def closed(self, preset: str, player: str) -> None:
        await self.redis.hdel(self._keys(preset)[2], player)

    async def present(self, preset: str, now: float) -> set[str]:
        opened = await self.redis.hgetall(self._keys(preset)[2])
        oldest = now - PRESENT_FOR
        return {_text(p) for p, at in opened.items() if float(at) >= oldest}

    async def note_client(self, client: str, player: str, now: float) -> list[str]:
        if not client:
            return [player]
        key = PREFIX + "client:" + client
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {player: now})
            pipe.zremrangebyscore(key, "-inf", now - CLIENT_MEMORY)
            pipe.zremrangebyrank(key, 0, -CLIENT_PLAYERS - 1)
            pipe.pexpire(key, int(CLIENT_MEMORY * 1000))
            pipe.zrevrange(key, 0, CLIENT_PLAYERS - 1)
            *_, players = await pipe.execute()
        return [_text(who) for who in players]

    async def waiting(self, preset: str, now: float) -> list[Entry]:
        cutoff = repr(now - GONE_AFTER)
        values = await self.redis.eval(PRUNE, 3, *self._keys(preset), cutoff)
        return [Entry.from_json(value) for value in values]

    async def take(self, preset: str, players: Iterable[str]) -> bool:
        chosen = list(players)
        entries, seen, present = self._keys(preset)
        keys = (entries, seen, PREFIX + "forming:", present)
        return bool(await self.redis.eval(TAKE, 4, *keys, int(FORMING_FOR * 1000), *chosen))

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


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


Queue = MemoryQueue | RedisQueue
"""Where the queues live."""


def make_queue(redis_url: str | None) -> Queue:
    """The queues on Redis at ``redis_url``, or in this process without one."""
    return RedisQueue(redis_url) if redis_url else MemoryQueue()


__all__ = [
    "CLIENT_MEMORY",
    "GONE_AFTER",
    "PRESENT_FOR",
    "SEATED_FOR",
    "Entry",
    "MemoryQueue",
    "Queue",
    "RedisQueue",
    "Seated",
    "make_queue",
]
