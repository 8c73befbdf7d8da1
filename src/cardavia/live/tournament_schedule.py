"""The tournaments' work in the game server's loop (docs/tournaments.md): the scheduler (the
next tournaments made, the due ones closed, every minute; the state is the database's, so a
restart or several processes change nothing) and the par's worker (the computer players' own
result on each deal, worked out in the background).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Final

from cardavia.ai.decisions import Decisions
from cardavia.ai.shared import Share
from cardavia.belote import Action, Observation
from cardavia.live.logs import reason
from cardavia.store.base import now
from cardavia.store.db import StoreUnavailableError
from cardavia.tournaments.closing import close_due
from cardavia.tournaments.par import Decide, keep, next_missing, play_out
from cardavia.tournaments.service import Tournaments

log = logging.getLogger(__name__)

SCHEDULE_INTERVAL: Final = 60.0
"""Seconds between two rounds of the scheduler."""


async def run_schedule(
    tournaments: Tournaments,
    stop: asyncio.Event,
    *,
    interval: float = SCHEDULE_INTERVAL,
    clock: Callable[[], datetime] = now,
) -> None:
    """The scheduler: at start, then every ``interval`` seconds until ``stop``, make the
    tournaments the schedule calls for and close the due ones (in a worker thread;
    idempotent). Its work is never cut short: the site's stop waits for the round under way,
    so that no write outlives the store."""
    while not stop.is_set():
        try:
            moment = clock()
            made = await asyncio.to_thread(tournaments.make_upcoming, moment)
            closed = await asyncio.to_thread(close_due, tournaments.store, now=moment)
            if made or closed:
                log.info("tournaments made: %s; closed: %s", made, closed)
        except StoreUnavailableError as error:
            log.warning("the tournaments' schedule could not run (%s)", reason(error))
        except Exception:
            log.warning("the tournaments' schedule failed", exc_info=True)
        await pause(stop, interval)


async def pause(stop: asyncio.Event, seconds: float, wake: asyncio.Event | None = None) -> None:
    """Wait ``seconds``, or less if ``stop`` (or ``wake``) is set meanwhile."""
    events = (stop,) if wake is None else (stop, wake)
    waits = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in waits:
            waiting.cancel()


PAR_PAUSE: Final = 30.0
"""Seconds the par's worker waits when every par is known (or after a failure)."""


async def work_out_pars(
    tournaments: Tournaments,
    decide: Decide,
    stop: asyncio.Event,
    wake: asyncio.Event | None = None,
) -> None:
    """The par of every deal of the tournaments not yet closed, one deal at a time, in the
    background until ``stop`` (:mod:`cardavia.tournaments.par`). A deal under way when
    ``stop`` is set is left (nothing of it was kept: it is played again by whoever works the
    pars out next), so that a process stops at once rather than after a deal of the search
    levels; a par being kept is kept first. With every par known it looks again after
    :data:`PAR_PAUSE`, or at once when ``wake`` is set (a deal started in this process: a
    first player may have entered)."""
    while not stop.is_set():
        if wake is not None:
            wake.clear()  # before looking: a deal started from now on wakes the next pause
        try:
            missing = await asyncio.to_thread(next_missing, tournaments.store)
            if missing is not None:
                played = asyncio.ensure_future(play_out(missing.tournament, missing.number, decide))
                stopped = asyncio.ensure_future(stop.wait())
                try:
                    await asyncio.wait({played, stopped}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    stopped.cancel()
                if not played.done():
                    played.cancel()
                    with contextlib.suppress(BaseException):
                        await played
                    return
                await asyncio.to_thread(keep, tournaments.store, missing, played.result())
                continue
        except StoreUnavailableError as error:
            log.warning("a tournament's par could not be worked out (%s)", reason(error))
        except Exception:
            log.warning("a tournament's par could not be worked out", exc_info=True)
        await pause(stop, PAR_PAUSE, wake)


def decide_with(decisions: Decisions) -> Decide:
    """The par's computer players: the game server's (:class:`~cardavia.ai.decisions.
    Decisions`: the lane of their level, on this process's cores or the AI workers)."""

    async def decide(
        level: str,
        observation: Observation,
        seed: int,
        *,
        match_scores: tuple[int, int] | None = None,
        share: Share | None = None,
    ) -> Action:
        return await decisions.decide(
            level,
            observation,
            seed,
            match_scores=match_scores,
            client="tournament-par",
            share=share,
        )

    return decide


__all__ = [
    "PAR_PAUSE",
    "SCHEDULE_INTERVAL",
    "decide_with",
    "pause",
    "run_schedule",
    "work_out_pars",
]
