"""The computer players at a table: whenever a computer seat is to act, a task of the table
plays it (and the next ones), its decisions made by the table service from each seat's
observation only (:meth:`TableService.decide <cardavia.web.tables.TableService.decide>`).

**A run of moves.** The levels decided at once (the cheap lane,
:class:`~cardavia.ai.decisions.Lane`) play the computer seats' moves up to the next person's
turn, the end of the deal or :data:`RUN` moves, whichever comes first, as one step: after
their pauses (one a move, as before), one trip to the writer (a single transaction), and each
move's view sent as it always was (the page shows each at the player's pace,
``static/js/table.js`` ``pump``). At a person's
pace a move otherwise woke the process, took the table's lock, went to the writer and was
published on its own, three times between two of the person's cards (``bench/load.py
--think 2-4``). The search levels' moves, which take a while to think, are still made and
shown one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Final

from cardavia.belote import Action, Match, Seat
from cardavia.store.events import action_event
from cardavia.web.bus import LocalBus
from cardavia.web.protocol import ClientError
from cardavia.web.table import Table
from cardavia.web.turns import PeopleFirst, on_beat, sleep_until

log = logging.getLogger(__name__)

RUN: Final = 3
"""The most moves in one run: the three other seats once. A table with no person (a room
before it is seated, everyone away) thus never plays far ahead of its pause and its
watchers."""

Decide = Callable[[Table, Match, Seat], Awaitable[Action]]
"""A computer seat's action in ``match`` (never fails: the first legal action at worst)."""
Commit = Callable[[Table, Sequence[tuple[Match, str]]], Awaitable[None]]
"""Save the matches events made, in order, and send each (:class:`ClientError` ``stale``
if another process moved the game on: caught up meanwhile)."""
AtOnce = Callable[[Table], bool]
"""Whether a table's computer players decide at once (their moves then go in runs)."""


class ComputerSeats:
    """The tasks that play the computer seats of this process's tables."""

    def __init__(
        self,
        *,
        decide: Decide,
        commit: Commit,
        bus: LocalBus,
        people_first: PeopleFirst,
        ai_delay: tuple[float, float],
        at_once: AtOnce = lambda _table: False,
    ) -> None:
        self.decide = decide
        self.at_once = at_once
        self.commit = commit
        self.bus = bus
        self.people_first = people_first
        self.ai_delay = (max(0.0, ai_delay[0]), max(0.0, ai_delay[0], ai_delay[1]))
        self._closed = False

    def ensure(self, table: Table) -> None:
        """Make sure the computer seats play if it is their turn (after an action, a new
        deal, a connection, a restart)."""
        if self._closed or (table.runner is not None and not table.runner.done()):
            return
        if table.computer_to_move() is None:
            return
        table.runner = asyncio.get_running_loop().create_task(self._run(table))

    def _pause(self, table: Table) -> float:
        low, high = self.ai_delay
        return low if high <= low else table.rng.uniform(low, high)

    async def _run(self, table: Table) -> None:
        """Play the computer seats until it is a person's turn or the deal is over: each
        action after a short pause, its decision made from the seat's observation only (the
        search levels' on the pool's cores), after any person's action under way (people
        first)."""
        try:
            while await self._play_one(table):
                pass
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("game %s: the computer players stopped", table.game_id)
            stop = ClientError(error.code if isinstance(error, ClientError) else "internal")
            for listener in list(table.listeners):
                listener.send(stop.message(listener.wording, table.deck))
            for observer in list(table.observers):
                observer.stopped(table, stop)
        finally:
            # Stopped: a new runner may start at once, while this one gives its lease up.
            if table.runner is asyncio.current_task():
                table.runner = None
            if self.bus.distributed:
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.bus.release(table.game_id))

    async def _play_one(self, table: Table) -> bool:
        """One run of computer moves, or nothing to do now (answers whether to go on)."""
        loop = asyncio.get_running_loop()
        async with table.lock:
            match = table.match
            seat = table.computer_to_move()
            if seat is None:
                return False
        if not await self.bus.claim(table.game_id):
            # Another process plays this table's computer seats: its changes arrive by the
            # bus; should it die, its lease runs out and this one takes over.
            await asyncio.sleep(self.bus.retry_seconds)
            return True
        started = loop.time()
        # People first: under load, a person's action goes ahead of these moves (the wait is
        # part of the pause).
        await self.people_first.computer_turn()
        seats, steps = await self._decide_run(table, match, seat)
        # Shown on the beat after their pauses (one each): every table's moves of that beat
        # made at once.
        pause = sum(self._pause(table) for _step in steps)
        due = on_beat(started + pause) if pause > 0 else 0.0
        if loop.time() < due:
            await sleep_until(due)
        async with table.lock:
            if table.match is not match or any(map(table.person_plays, seats)):
                return True  # the game moved on meanwhile (or a player is back)
            try:
                await self.commit(table, steps)
            except ClientError as error:
                if error.code != "stale":
                    raise
                # Moved on by another process: caught up, think again.
        return True

    async def _decide_run(
        self, table: Table, match: Match, seat: Seat
    ) -> tuple[list[Seat], list[tuple[Match, str]]]:
        """The moves from ``match`` on, ``seat``'s first: one, or a run of them (see the
        module). Answers the seats that moved, and each match with the event that made it."""
        seats: list[Seat] = []
        steps: list[tuple[Match, str]] = []
        next_seat: Seat | None = seat
        while next_seat is not None and len(steps) < RUN:
            action = await self.decide(table, match, next_seat)
            match = match.apply(action)
            seats.append(next_seat)
            steps.append((match, action_event(str(action))))
            if not self.at_once(table):
                break
            next_seat = table.computer_to_move(match)
        return seats, steps

    async def close(self, tables: Iterable[Table]) -> None:
        """Stop playing: cancel every table's task (the games are saved after each
        action)."""
        self._closed = True
        runners = [t.runner for t in tables if t.runner and not t.runner.done()]
        for runner in runners:
            runner.cancel()
        for runner in runners:
            with contextlib.suppress(BaseException):
                await runner


__all__ = ["ComputerSeats"]
