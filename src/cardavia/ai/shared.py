"""The field's shared thinking: a computer decision kept by its key, so that the same
decision asked again — at another table of the same tournament deal, on any process — is
read rather than computed again (docs/tournament-robots.md, "The field shares its computer
players' thinking").

Every computer decision of a tournament's table is a function of the deal's secret seed, the
seat, the level's version, the rules and dealer, the match score and the public actions so
far (:func:`cardavia.ai.decisions.decision_seed`): the entrants of a duplicate field who bid
and play a deal the same way meet the same computer actions, and they make the same early
choices often (the bidding, the lead). :class:`SharedDecisions` keeps each decision made by
a level's own player under :func:`~cardavia.ai.decisions.decision_key` — a SHA-256 of all of
those, the secret seed included — for as long as its :class:`Share` says (the tournament's
close), in a store every process reads: Redis where the site has it (:class:`RedisStore`),
else this process's memory, bounded (:class:`MemoryStore`: least recently used first).

What it never does:

- keep a fallback's decision as the level's (a decision a worker did not make in time is a
  cheaper level's: :class:`~cardavia.ai.decisions.Decisions` says which are the level's own);
- serve anything: the store is read by the computer players' lanes only, by a key nobody
  can work out without the deal's secret seed, and what it holds is the action the computer
  player would take anyway;
- answer an action that is not legal for the observation asking (a kept text that does not
  read as one of its legal actions is a miss, and the decision is made again);
- fail a decision: a store out of reach is a miss, and a write that fails is dropped;
- answer sooner than the decision took to make: a decision read is given after as long as it
  took the first time (kept with it: :attr:`SharedDecisions.paced`), so that a table's
  computer players do not answer faster where someone else has played the same line, which
  would tell its player so. The wait costs no CPU.

Decisions asked at once for the same key in one process are made once (the later ones wait
for the first: :meth:`SharedDecisions.decide`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from cardavia.belote import Action, InvalidActionError, Observation, parse_action

KEY_PREFIX: Final = "cardavia:ai:shared:"
"""The Redis keys of the shared decisions: this, then the decision's key."""

MEMORY_LIMIT: Final = 100_000
"""The most decisions :class:`MemoryStore` keeps (about 20 MB): the least recently used go
first."""

LONGEST_WAIT: Final = 60.0
"""The longest a decision read waits (the time it took to make, as kept: a kept time beyond
it is not believed)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Share:
    """How a decision is shared: its key (:func:`~cardavia.ai.decisions.decision_key`) and
    how long it is kept, in seconds (until its tournament closes)."""

    key: str
    keep: float


class DecisionStore(Protocol):
    """Where the shared decisions are kept: their text (the action as the records write it,
    a tab, the seconds it took to make) by key."""

    async def get(self, key: str) -> str | None:
        """The text kept under ``key``, or ``None``."""
        ...

    async def put(self, key: str, text: str, keep: float) -> None:
        """Keep ``text`` under ``key`` for ``keep`` seconds."""
        ...


class MemoryStore:
    """The shared decisions of one process: at most ``limit``, the least recently used
    dropped first, each dropped once its time is up."""

    def __init__(
        self, limit: int = MEMORY_LIMIT, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self._clock = clock
        self._kept: OrderedDict[str, tuple[float, str]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def texts(self) -> list[str]:
        """What is kept now, the least recently used first."""
        return [text for _, text in self._kept.values()]

    async def get(self, key: str) -> str | None:
        found = self._kept.get(key)
        if found is None:
            return None
        until, text = found
        if until <= self._clock():
            del self._kept[key]
            return None
        self._kept.move_to_end(key)
        return text

    async def put(self, key: str, text: str, keep: float) -> None:
        if keep <= 0:
            return
        self._kept[key] = (self._clock() + keep, text)
        self._kept.move_to_end(key)
        while len(self._kept) > self.limit:
            self._kept.popitem(last=False)


class RedisStore:
    """The shared decisions of every process of a site, on its Redis: one key each
    (:data:`KEY_PREFIX`), expiring when its share says. Redis out of reach is a miss."""

    def __init__(self, connect: Callable[[], Awaitable[Redis]]) -> None:
        self._connect = connect
        """The connection (the AI queue's: :meth:`cardavia.ai.queue.DecisionQueue.redis`)."""

    async def get(self, key: str) -> str | None:
        try:
            value = await (await self._connect()).get(KEY_PREFIX + key)
        except (OSError, RedisError) as error:
            log.warning("a shared decision could not be read (%s)", error)
            return None
        if isinstance(value, bytes):
            return value.decode("utf-8", "replace")
        return value if isinstance(value, str) else None

    async def put(self, key: str, text: str, keep: float) -> None:
        milliseconds = int(keep * 1000)
        if milliseconds <= 0:
            return
        try:
            await (await self._connect()).set(KEY_PREFIX + key, text, px=milliseconds)
        except (OSError, RedisError) as error:
            log.warning("a shared decision could not be kept (%s)", error)


Own = tuple[Action, bool]
"""A decision made, and whether it is its level's own (not a fallback's)."""


class SharedDecisions:
    """The decisions kept by key in ``store`` (see the module), with what became of each
    asked (:attr:`read`, :attr:`made`, :attr:`kept`)."""

    def __init__(self, store: DecisionStore, *, paced: bool = True) -> None:
        self.store = store
        self.paced = paced
        """Whether a decision read is given after as long as it took to make (the site's
        tables); a benchmark counting CPU alone waits nothing."""
        self.read = 0
        """Decisions found in the store (or made once for several askers): not computed."""
        self.made = 0
        """Decisions computed (none was kept, or the kept one did not fit)."""
        self.kept = 0
        """Decisions written to the store (the level's own only)."""
        self._flying: dict[str, asyncio.Future[Action]] = {}

    async def decide(
        self, share: Share, observation: Observation, make: Callable[[], Awaitable[Own]]
    ) -> Action:
        """The decision kept under ``share``'s key if there is one and it is legal here; else
        ``make``'s, kept if it is the level's own. Asked again for a key while it is being
        made in this process, the later askers wait for it."""
        found, took = _read(await self.store.get(share.key), observation)
        if found is not None:
            self.read += 1
            if self.paced and took > 0:
                await asyncio.sleep(took)
            return found
        flying = self._flying.get(share.key)
        if flying is not None:
            with contextlib.suppress(Exception):
                action = await asyncio.shield(flying)
                if action in observation.legal_actions:
                    self.read += 1
                    return action
            return (await make())[0]  # the first asker's failed: this one's own
        future: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self._flying[share.key] = future
        try:
            started = time.perf_counter()
            action, own = await make()
            took = time.perf_counter() - started
            self.made += 1
            if own:
                await self.store.put(share.key, f"{action}\t{took:.3f}", share.keep)
                self.kept += 1
                future.set_result(action)
            else:
                future.set_exception(LookupError("a fallback's decision is not shared"))
            return action
        except BaseException as error:
            future.set_exception(LookupError(f"not decided: {error!r}"))
            raise
        finally:
            del self._flying[share.key]
            if future.done() and not future.cancelled():
                future.exception()  # retrieved: an unawaited failure is no warning


def _read(text: str | None, observation: Observation) -> tuple[Action | None, float]:
    """The action a kept ``text`` writes, if it is one of ``observation``'s legal actions,
    and the seconds it took to make (0 if not kept or not believed)."""
    if text is None:
        return None, 0.0
    written, _, seconds = text.partition("\t")
    try:
        action = parse_action(written)
        took = float(seconds or 0)
    except (InvalidActionError, ValueError):
        return None, 0.0
    if action not in observation.legal_actions:
        return None, 0.0
    return action, took if 0 <= took <= LONGEST_WAIT else 0.0


__all__ = [
    "KEY_PREFIX",
    "LONGEST_WAIT",
    "MEMORY_LIMIT",
    "DecisionStore",
    "MemoryStore",
    "Own",
    "RedisStore",
    "Share",
    "SharedDecisions",
]
