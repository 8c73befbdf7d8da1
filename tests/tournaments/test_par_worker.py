"""The par's worker (live/tournament_schedule.py, ``work_out_pars``) in the game server's
background: a process told to stop leaves the deal it was playing out (nothing of it was kept:
whoever works the pars out next plays it again) rather than finish a deal of the search levels
first, which kept a stopping web process alive for seconds, past its supervisor's patience."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cardavia.belote import Action, Observation
from cardavia.live.tournament_schedule import work_out_pars
from cardavia.store.db import GameStore, new_token
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments

TOURNAMENT = "short-cardavia-par-worker"


def test_a_stopping_process_leaves_the_par_under_way(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'cardavia.db'}")
    try:
        tournaments = Tournaments(store, level="beginner")
        opens = datetime.now(UTC) - timedelta(minutes=1)
        plan = Planned(TOURNAMENT, "short", "cardavia", 3, opens, opens + timedelta(hours=1))
        assert tournaments.make(plan)
        player = store.players.create(new_token())
        tournaments.enter(TOURNAMENT, player.id)  # entered: its pars are to be worked out
        asked: list[str] = []
        cancelled: list[str] = []

        async def main() -> None:
            stop = asyncio.Event()
            thinking = asyncio.Event()

            async def decide(
                level: str, observation: Observation, seed: int, **_: object
            ) -> Action:
                """A search that takes as long as it takes (until cancelled)."""
                asked.append(level)
                thinking.set()
                try:
                    await asyncio.Event().wait()
                except asyncio.CancelledError:
                    cancelled.append(level)
                    raise
                raise AssertionError("never decided")

            worker = asyncio.create_task(work_out_pars(tournaments, decide, stop))
            await asyncio.wait_for(thinking.wait(), timeout=60)
            stop.set()
            await asyncio.wait_for(worker, timeout=10)  # it waited on the deal for ever

        asyncio.run(main())
        assert asked and cancelled == asked[:1]
        assert store.tournaments.pars(TOURNAMENT) == {}  # nothing kept of the deal left
    finally:
        store.close()
