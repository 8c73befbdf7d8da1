"""Server CPU per action outside the computer players: whole matches' deals played through
:class:`cardavia.live.tables.TableService` (check, save, views, serialisation) with a table
watched by one connection, the computer seats replaced by a player that takes the first legal
action (so that their thinking is not counted), on a temporary SQLite file.

The figure is CPU time (this process, every thread) divided by the number of actions.
Run: ``uv run python bench/actions.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from cardavia.ai.levels import register_player
from cardavia.belote import Seat
from cardavia.belote.actions import Action
from cardavia.belote.observation import Observation
from cardavia.live.tables import TableService
from cardavia.store.db import GameStore
from cardavia.words import load_catalogs

PERSON = Seat.S
"""The seat the benchmark's person plays."""


class FirstLegal:
    """A computer player that costs nothing: the first legal action."""

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        return observation.legal_actions[0]


async def play(deals: int, database: str) -> tuple[int, float, float]:
    """Play ``deals`` deals of ``cardavia`` matches; answer the actions, the CPU seconds and
    the wall seconds."""
    register_player("bench-first-legal", FirstLegal)
    store = GameStore(database)
    service = TableService(store, load_catalogs(), ai_delay=(0.0, 0.0), seed=1)
    rng = random.Random(2)
    actions = 0
    played = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while played < deals:
        game = await service.create_game("cardavia", "bench-first-legal", "fr", seat=PERSON)
        table = await service.open(game.game_id, game.token)
        listener = service.listen(table, "fr", seat=PERSON)
        while played < deals and not table.match.is_over:
            service.ensure_runner(table)
            if table.runner is not None:
                await table.runner
            deal = table.match.deal
            if deal.is_over:
                played += 1
                if not table.match.is_over:
                    await service.next_deal(table)
                continue
            if deal.to_move == PERSON:
                choice = rng.choice(deal.observation(PERSON).legal_actions)
                await service.act(table, choice)
            while not listener.queue.empty():
                listener.queue.get_nowait()
        actions += sum(len(d.history) for d in table.match.deals)
        service.unlisten(table, listener)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await service.close()
    store.close()
    return actions, cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{Path(directory) / 'bench.db'}"
        actions, cpu, wall = asyncio.run(play(options.deals, url))
    print(
        f"{options.deals} deals, {actions} actions: {cpu / actions * 1000:.3f} ms CPU per "
        f"action ({cpu:.2f} s CPU, {wall:.2f} s wall, {actions / wall:.0f} actions/s)"
    )


if __name__ == "__main__":
    main()
