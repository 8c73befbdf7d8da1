"""Every computer decision of the site, in one place: the lane it takes, the client's cap,
the deadline, and an answer that is always a legal action.

The site asks one object for every decision of a computer seat::

    decisions = Decisions.from_settings(redis_url=..., per_client=2, deadline=3.0)
    action = await decisions.decide("expert", observation, table.rng,
                                    match_scores=(500, 820), client=game_id)
    await decisions.close()                 # at shut-down

``observation`` is the seat's :class:`~cardavia.belote.Observation` (never a deal's state),
``randomness`` a seed (a decision reproducible anywhere) or a generator, ``match_scores``
the match score before the deal, ``client`` whoever the work is for (the key of the cap;
``None``: no cap).

The same at every table (docs/tournament-robots.md): the site seeds each decision with
:func:`decision_seed`, a SHA-256 of the deal's secret seed, the seat, the level's version
(:func:`~cardavia.ai.levels.version_of`) and the deal's public actions so far, never from
the clock, the process, the worker or the lane. Every lane decides a seed as
:func:`~cardavia.ai.pool.decide_here` does (a generator seeded with it; the pool's spreading
of worlds over cores gives the serial result; the budgets of the search levels count the
solver's nodes, not time), so two people who bid and play a deal the same way meet the same
computer actions, on one process or several, on the pool or on a worker. The fallback below
is seeded alike; what remains is that it is a cheaper level: a decision a worker does not
answer in time is the fallback's, not the level's own.

Three lanes, so that cheap decisions never wait behind costly ones:

- :data:`CHEAP_LEVELS` (``beginner``, ``club``) decide in tens of microseconds (club: median
  0.03 ms, at most 0.25 ms, ``bench/decisions.py``): at once, on the event loop, with a
  generator seeded by the seed (or the generator given). A hop to a thread would cost more
  than the decision, a round trip to a queue far more. They take no slot of the client's cap.
- :data:`SEARCH_LEVELS` (``strong``, ``expert``) search for a second or so: on the
  :class:`~cardavia.ai.pool.DecisionPool` (every core of this machine) or, with Redis
  configured, on the AI workers through the :class:`~cardavia.ai.queue.DecisionQueue`, each
  with the seed (or one drawn from the generator given).
- Any other level (one registered by a test, whose time nobody knows) decides in a thread
  of this process.

The one cap per client (:class:`~cardavia.ai.budget.WorkBudget`, :attr:`Decisions.budget`):
at most ``per_client`` of a client's search and thread decisions run or wait in a lane at a
time; its other tables wait behind its own work, not everyone's. The site takes the same
slots for a client's other computer work (analyses, hints).

Never stalled, never "the first legal action" (issues 18 and 35): a decision sent to the
workers is bounded by ``deadline`` seconds as a whole — queueing it, waiting for its answer,
and, should Redis be unreachable, making it here at its own level instead (on this machine's
cores, whose processes may first have to start). Past the deadline (a worker killed, Redis
restarting or not answering, every worker busy, this machine's pool too slow) it is made
here at once by a cheaper level (:data:`FALLBACK_LEVELS`); a lane that fails or answers an
illegal action likewise. Before the whole was bounded, a decision whose queue broke while
Redis restarted went to this machine's pool with no deadline, and strong tables fell silent
7.7 s (the audit of 2026-12-04). Each such case is logged in one line and counted
(:func:`cardavia.metrics.decision_fallback`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import random
from collections.abc import Collection, Sequence
from enum import Enum
from typing import Final

from cardavia.ai.budget import WorkBudget
from cardavia.ai.environment import DEFAULT_DEADLINE
from cardavia.ai.levels import find_version, version_level, version_of
from cardavia.ai.player import told_the_score
from cardavia.ai.pool import DecisionPool, Kind
from cardavia.ai.queue import DecisionQueue, QueueUnreachableError
from cardavia.ai.shared import MemoryStore, RedisStore, Share, SharedDecisions
from cardavia.belote import Action, Observation, Rules, Seat
from cardavia.metrics import deciding, decision_fallback, service_failed

CHEAP_LEVELS: Final = frozenset({"beginner", "club"})
"""The levels decided at once, on the event loop (the only definition in the project)."""

SEARCH_LEVELS: Final = frozenset({"strong", "expert"})
"""The levels that search: decided on the pool's cores or by the AI workers."""

FALLBACK_LEVELS: Final = ("club", "beginner")
"""Who decides, in this order, when a decision's own level could not: the first of these
that is not the level that failed. A real choice, made at once."""

DEFAULT_PER_CLIENT: Final = 2
"""The most decisions of one client running or waiting in a lane at once, by default
(``Limits.ai_per_client`` on the site)."""

Randomness = random.Random | int
"""Where a decision's randomness comes from: a seed (the decision is then
:func:`~cardavia.ai.pool.decide_here`'s, in every lane: what the site gives,
:func:`decision_seed`), or a generator (the cheap and thread lanes draw from it, the search
lane draws a seed from it: a game dealt before its deals were committed to)."""

SEED_FORMAT: Final = "cardavia-decision/1"
"""The first part hashed by :func:`decision_seed`: a new way of deriving the seeds gets a
new name, as a level's new version does."""


def decision_seed(deal_seed: str, seat: Seat, level: str, history: Sequence[Action]) -> int:
    """The seed of a computer decision: the first 8 bytes of the SHA-256 of the deal's secret
    seed (hexadecimal, as kept), the seat, the version (``level``: a level's current one,
    :func:`~cardavia.ai.levels.version_of`, or a version named) and the deal's public actions
    so far (bids and cards, as the records write them), never a hidden card. Two tables of one
    deal where the same actions were made give the same seed; the seed reveals nothing of the
    deal's own (a hash of it).

    >>> from cardavia.belote import Pass
    >>> seed = decision_seed("00" * 32, Seat.E, "expert", [Pass(Seat.S), Pass(Seat.W)])
    >>> seed == decision_seed("00" * 32, Seat.E, "expert", (Pass(Seat.S), Pass(Seat.W)))
    True
    >>> seed == decision_seed("00" * 32, Seat.E, "expert", [Pass(Seat.S)])
    False
    """
    parts = (SEED_FORMAT, deal_seed.lower(), seat.name, version_of(level))
    text = "\x1f".join((*parts, *map(_written, history)))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


KEY_FORMAT: Final = "cardavia-shared-decision/1"
"""The first part hashed by :func:`decision_key`."""

KEY_LENGTH: Final = 32
"""The hexadecimal digits of a key kept (128 bits: no two of a tournament's decisions ever
share one, and Redis keeps half as much)."""


def decision_key(
    deal_seed: str,
    observation: Observation,
    level: str,
    *,
    match_scores: tuple[int, int] | None = None,
) -> str:
    """The key a computer decision is shared by (:mod:`cardavia.ai.shared`), hexadecimal:
    the first :data:`KEY_LENGTH` digits of the SHA-256 of everything the decision is a
    function of — what :func:`decision_seed` hashes (the deal's secret seed, the seat, the
    version, the public actions so far), and the match score, the dealer and the rules,
    which with the seed make the seat's observation. Nobody who does not know the deal's
    secret seed can work it out.

    >>> from cardavia.belote import DealState, find_rules
    >>> state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(1))
    >>> one = decision_key("00" * 32, state.observation(Seat.N), "expert")
    >>> one == decision_key("00" * 32, state.observation(Seat.N), "expert-2026-12b")
    True
    >>> one == decision_key("00" * 32, state.observation(Seat.N), "expert", match_scores=(0, 0))
    False
    """
    scores = "-" if match_scores is None else f"{match_scores[0]}:{match_scores[1]}"
    parts = (
        KEY_FORMAT,
        deal_seed.lower(),
        observation.seat.name,
        version_of(level),
        scores,
        observation.dealer.name,
        _rules_written(observation.rules),
    )
    text = "\x1f".join((*parts, *map(_written, observation.history)))
    return hashlib.sha256(text.encode()).hexdigest()[:KEY_LENGTH]


@functools.lru_cache(maxsize=64)
def _rules_written(rules: Rules) -> str:
    """Every knob of a rule set, once (a rule set is a value: two equal ones write alike)."""
    return repr(rules)


@functools.lru_cache(maxsize=8192)
def _written(action: Action) -> str:
    """An action as the records write it, once: every decision of a deal hashes every action
    before it (a deal's decisions wrote the same actions some 500 times)."""
    return str(action)


log = logging.getLogger(__name__)


class Lane(Enum):
    """Where a level's decisions are made."""

    CHEAP = "cheap"
    """At once, on the event loop."""
    SEARCH = "search"
    """On the pool's cores, or the AI workers'."""
    THREAD = "thread"
    """In a thread of this process."""


class Decisions:
    """The computer players' decisions of a site (see the module)."""

    def __init__(
        self,
        *,
        pool: DecisionPool | None = None,
        queue: DecisionQueue | None = None,
        per_client: int = DEFAULT_PER_CLIENT,
        search_levels: Collection[str] = SEARCH_LEVELS,
        shared: SharedDecisions | None = None,
    ) -> None:
        self.search_levels = frozenset(search_levels)
        """The levels of the search lane (:data:`SEARCH_LEVELS`; a test may add its own)."""
        self.pool = pool or DecisionPool(levels=sorted(self.search_levels & SEARCH_LEVELS))
        """The search lane in this process (and where it goes when Redis is unreachable)."""
        self.queue = queue
        """The AI workers' queue that decides the search levels, or ``None``: the pool."""
        self.budget = WorkBudget(per_client)
        """The one cap per client, for every decision not made at once (and the site's
        other computer work for a client)."""
        self.shared = shared or SharedDecisions(MemoryStore())
        """The decisions kept by key (a tournament's: :mod:`cardavia.ai.shared`): on Redis
        with the workers' queue, else in this process's memory."""

    @classmethod
    def from_settings(
        cls,
        *,
        redis_url: str | None = None,
        per_client: int = DEFAULT_PER_CLIENT,
        deadline: float = DEFAULT_DEADLINE,
        kind: Kind = "process",
    ) -> Decisions:
        """The decisions of a web process: with ``redis_url``, the search levels go to the
        AI workers' queue, answered within ``deadline`` seconds or decided here; without
        it, to a pool of ``kind`` on this machine's cores."""
        url = (redis_url or "").strip()
        queue = DecisionQueue(url, timeout=deadline) if url else None
        pool = DecisionPool(kind=kind, levels=sorted(SEARCH_LEVELS))
        shared = None if queue is None else SharedDecisions(RedisStore(queue.redis))
        return cls(pool=pool, queue=queue, per_client=per_client, shared=shared)

    @property
    def deadline(self) -> float | None:
        """Seconds a decision sent to the workers is awaited (``None``: none is sent)."""
        return None if self.queue is None else self.queue.timeout

    def lane(self, level: str) -> Lane:
        """Where ``level``'s decisions are made (a version's: its level's)."""
        key = _level_of(level)
        if key in CHEAP_LEVELS:
            return Lane.CHEAP
        if key in self.search_levels:
            return Lane.SEARCH
        return Lane.THREAD

    async def start(self) -> None:
        """Start the pool's processes now rather than at the first search decision (when
        the search levels are decided here)."""
        if self.queue is None:
            await self.pool.start()

    async def decide(
        self,
        level: str,
        observation: Observation,
        randomness: Randomness,
        *,
        match_scores: tuple[int, int] | None = None,
        client: str | None = None,
        share: Share | None = None,
    ) -> Action:
        """A legal action of a player of ``level`` (a level, or a version: a tournament's
        tables play the version it was made with) for ``observation`` (see the module);
        ``ValueError`` for an unknown one. With ``share`` (a tournament's deal), a decision
        of the search or thread lane is read from :attr:`shared` if it was made before under
        that key, and kept there once made by the level's own player."""
        key = level.strip().lower()
        find_version(key)  # an unknown level fails here, not in a lane
        lane = self.lane(key)

        async def own() -> tuple[Action, bool]:
            return await self._own(lane, key, observation, randomness, match_scores, client)

        if share is None or lane is Lane.CHEAP:
            return (await own())[0]
        return await self.shared.decide(share, observation, own)

    async def _own(
        self,
        lane: Lane,
        key: str,
        observation: Observation,
        randomness: Randomness,
        match_scores: tuple[int, int] | None,
        client: str | None,
    ) -> tuple[Action, bool]:
        """The decision, and whether it is the level's own (not a fallback's)."""
        level = _level_of(key)
        try:
            with deciding(level):
                if lane is Lane.CHEAP:
                    action = _decide_now(key, observation, randomness, match_scores)
                else:
                    async with self.budget.slot(client):
                        action = await self._in_lane(
                            lane, key, observation, randomness, match_scores
                        )
        except Exception as error:
            decision_fallback(level, "late" if isinstance(error, TimeoutError) else "failed")
            reason = _failure(error)
            return self._fallback(key, observation, randomness, match_scores, reason), False
        if action not in observation.legal_actions:
            decision_fallback(level, "illegal")
            reason = f"chose {action}, which is not legal"
            return self._fallback(key, observation, randomness, match_scores, reason), False
        return action, True

    async def _in_lane(
        self,
        lane: Lane,
        level: str,
        observation: Observation,
        randomness: Randomness,
        match_scores: tuple[int, int] | None,
    ) -> Action:
        """The decision in the search or the thread lane; one sent to the workers, within
        the queue's deadline as a whole (``TimeoutError`` past it)."""
        if lane is Lane.THREAD:
            rng = _generator(randomness)
            return await asyncio.to_thread(_decide_now, level, observation, rng, match_scores)
        seed = randomness if isinstance(randomness, int) else randomness.getrandbits(64)
        if self.queue is None:
            return await self.pool.decide(level, observation, seed, match_scores=match_scores)
        async with asyncio.timeout(self.queue.timeout):
            try:
                return await self.queue.decide(level, observation, seed, match_scores)
            except QueueUnreachableError as error:
                service_failed("redis")
                decision_fallback(_level_of(level), "unreachable")  # labelled as the others
                # Redis out of reach: the same decision, made here in what is left of the
                # deadline (the pool's processes may have to start first).
                log.warning("%s decision: %s; deciding in this process", level, error)
            return await self.pool.decide(level, observation, seed, match_scores=match_scores)

    def _fallback(
        self,
        level: str,
        observation: Observation,
        randomness: Randomness,
        match_scores: tuple[int, int] | None,
        reason: str,
    ) -> Action:
        """A real decision at once by the first of :data:`FALLBACK_LEVELS` that can make
        one, logged in one line; ``RuntimeError`` should none (never an arbitrary action)."""
        failures = [f"{level} {reason}"]
        for fallback in FALLBACK_LEVELS:
            if fallback == _level_of(level):
                continue
            try:
                action = _decide_now(fallback, observation, randomness, match_scores)
            except Exception as error:
                failures.append(f"{fallback} {_failure(error)}")
                continue
            if action in observation.legal_actions:
                log.warning("%s decision %s: decided by %s instead", level, reason, fallback)
                return action
            failures.append(f"{fallback} chose {action}, which is not legal")
        raise RuntimeError("no computer player could decide: " + "; ".join(failures))

    async def close(self) -> None:
        """Stop the pool (the decisions running finish first) and the queue's
        connections."""
        if self.queue is not None:
            with contextlib.suppress(Exception):
                await self.queue.close()
        await self.pool.close()


def _level_of(name: str) -> str:
    """The level of a level or a version (:func:`~cardavia.ai.levels.version_level`), or the
    name itself, as given, if it is neither (it fails where it is looked up)."""
    try:
        return version_level(name)
    except ValueError:
        return name.strip().lower()


def _generator(randomness: Randomness) -> random.Random:
    """The generator a decision draws from: the one given, or one seeded with the seed."""
    return random.Random(randomness) if isinstance(randomness, int) else randomness


def _decide_now(
    level: str,
    observation: Observation,
    randomness: Randomness,
    match_scores: tuple[int, int] | None,
) -> Action:
    """The decision of a new player of ``level`` (or of a version), in the calling thread."""
    player = find_version(level)
    if match_scores is not None:
        player = told_the_score(player, match_scores)
    return player.decide(observation, _generator(randomness))


def _failure(error: Exception) -> str:
    """What went wrong, in a few words for the log's one line."""
    if isinstance(error, TimeoutError):
        return f"not answered in time ({error})"
    return f"failed ({type(error).__name__}: {error})"


__all__ = [
    "CHEAP_LEVELS",
    "DEFAULT_PER_CLIENT",
    "FALLBACK_LEVELS",
    "KEY_FORMAT",
    "KEY_LENGTH",
    "SEARCH_LEVELS",
    "SEED_FORMAT",
    "Decisions",
    "Lane",
    "Randomness",
    "decision_key",
    "decision_seed",
]
