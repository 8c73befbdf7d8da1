"""Where the site's computer players think: every decision of a computer seat goes through
:func:`computer_decision`, the one place where how and where they are computed is chosen.

For now a decision runs in a worker thread (:func:`asyncio.to_thread`), so that the event
loop keeps answering; a pool running them on every core (or AI worker processes fed by a
queue) plugs in here without the table noticing.
"""

from __future__ import annotations

import asyncio
import random

from cardavia.ai.player import Player
from cardavia.belote.actions import Action
from cardavia.belote.observation import Observation


async def computer_decision(player: Player, observation: Observation, rng: random.Random) -> Action:
    """The action ``player`` chooses from ``observation`` (a seat's view only), drawing its
    randomness from ``rng``; computed off the event loop."""
    return await asyncio.to_thread(player.decide, observation, rng)


__all__ = ["computer_decision"]
