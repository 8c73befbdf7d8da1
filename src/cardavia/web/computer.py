"""Where the site's computer players think: every decision of a computer seat goes through
:func:`computer_decision`, the one place where how and where they are computed is chosen.

The search levels (strong, expert) go to the :class:`~cardavia.ai.pool.DecisionPool`: a pool
of processes on every core of this machine, or, with ``CARDAVIA_REDIS_URL`` set, the AI
workers fed by the queue on Redis (``cardavia ai-worker``), which receive the seat's
observation only. The cheap levels think at once on the event loop: a club decision takes
0.03 ms (at most 0.25 ms, ``bench/decisions.py``), less than a hop to a thread and back
would cost. Any other player (one registered by a test, whose time nobody knows) thinks in
a thread of this process.
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
    only), told the match score, drawing its randomness from ``rng``: the cheap levels at
    once, the search levels on the pool's cores, any other off the event loop."""
    decide = told_the_score(player, match_scores).decide
    if level in CHEAP_LEVELS:
        return decide(observation, rng)
    if pool is not None and level in SEARCH_LEVELS:
        seed = rng.getrandbits(64)
        return await pool.decide(level, observation, seed, match_scores=match_scores)
    return await asyncio.to_thread(decide, observation, rng)


__all__ = ["SEARCH_LEVELS", "computer_decision"]
