"""Where the site's computer players think: every decision of a computer seat goes through
:func:`computer_decision`, the one place where how and where they are computed is chosen.

The search levels (strong, expert) go to the :class:`~cardavia.ai.pool.DecisionPool`: a pool
of processes on every core of this machine, or, with ``CARDAVIA_REDIS_URL`` set, the AI
workers fed by the queue on Redis (``cardavia ai-worker``), which receive the seat's
observation only. The cheap levels, and any player the pool does not know (one registered by
a test), think in a thread of this process: they take well under a millisecond.
"""

from __future__ import annotations

import asyncio
import random

from cardavia.ai.player import Player, told_the_score
from cardavia.ai.pool import CHEAP_LEVELS, DecisionPool
from cardavia.belote import Action, Observation

SEARCH_LEVELS = frozenset({"strong", "expert"})
"""The levels whose decisions go to the pool (the others are cheap)."""


async def computer_decision(
    pool: DecisionPool | None,
    level: str,
    player: Player,
    observation: Observation,
    rng: random.Random,
    *,
    match_scores: tuple[int, int],
) -> Action:
    """The action of the computer ``player`` of ``level`` for ``observation`` (a seat's view
    only), told the match score, drawing its randomness from ``rng``; computed off the event
    loop, on the pool's cores for the search levels."""
    if pool is not None and level in SEARCH_LEVELS and level not in CHEAP_LEVELS:
        seed = rng.getrandbits(64)
        return await pool.decide(level, observation, seed, match_scores=match_scores)
    return await asyncio.to_thread(told_the_score(player, match_scores).decide, observation, rng)


__all__ = ["SEARCH_LEVELS", "computer_decision"]
