"""The computer players at a table: whenever a computer seat is to act, a task of the table
plays it (and the next ones) one action at a time, with a short pause, its decision made by
the table service from that seat's observation only (:meth:`TableService.decide
<cardavia.live.tables.TableService.decide>`: :func:`decide_at`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime

from cardavia.ai.decisions import Decisions, decision_key, decision_seed
from cardavia.ai.shared import Share
from cardavia.belote import Action, Match, Observation, Seat
from cardavia.live.bus import LocalBus
from cardavia.live.protocol import ClientError
from cardavia.live.table import Table
from cardavia.live.turns import PeopleFirst, on_beat, sleep_until
from cardavia.store.events import action_event

log = logging.getLogger(__name__)

Decide = Callable[[Table, Seat, Observation], Awaitable[Action]]
"""A computer seat's action (never fails: the first legal action at worst)."""
Commit = Callable[[Table, Match, str], Awaitable[None]]
"""Save the match an event made and send it (:class:`ClientError` ``stale`` if another
process moved the game on: caught up meanwhile)."""


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
    ) -> None:
        self.decide = decide
        self.commit = commit
        self.bus = bus
        self.people_first = people_first
        self.ai_delay = (max(0.0, ai_delay[0]), max(0.0, ai_delay[0], ai_delay[1]))
        self._pauses = random.Random()
        """The pauses' own generator: a pause is no secret (a table's generator is the
        system's secure one in play, a system call a draw) and draws nothing from a game's."""
        self._closed = False

    def ensure(self, table: Table) -> None:
        """Make sure the computer seats play if it is their turn (after an action, a new
        deal, a connection, a restart)."""
        if self._closed or (table.runner is not None and not table.runner.done()):
            return
        if table.computer_to_move() is None:
            return
        table.runner = asyncio.get_running_loop().create_task(self._run(table))

    def _pause(self) -> float:
        low, high = self.ai_delay
        return low if high <= low else self._pauses.uniform(low, high)

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
        """One computer seat's action, or nothing to do now (answers whether to go on)."""
        loop = asyncio.get_running_loop()
        async with table.lock:
            match = table.match
            seat = table.computer_to_move()
            if seat is None:
                return False
            observation = match.deal.observation(seat)
        if not await self.bus.claim(table.game_id):
            # Another process plays this table's computer seats: its changes arrive by the
            # bus; should it die, its lease runs out and this one takes over.
            await asyncio.sleep(self.bus.retry_seconds)
            return True
        pause = self._pause()
        # Shown on the beat after its pause: every table's moves of that beat made at once.
        due = on_beat(loop.time() + pause) if pause > 0 else 0.0
        # People first: under load, a person's action goes ahead of this move (the wait is
        # part of the pause).
        await self.people_first.computer_turn()
        action = await self.decide(table, seat, observation)
        if loop.time() < due:
            await sleep_until(due)
        async with table.lock:
            if table.match is not match or table.person_plays(seat):
                return True  # the game moved on meanwhile (or its player is back)
            try:
                await self.commit(table, match.apply(action), action_event(str(action)))
            except ClientError as error:
                if error.code != "stale":
                    raise
                # Moved on by another process: caught up, think again.
        return True

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


async def decide_at(
    decisions: Decisions, table: Table, seat: Seat, observation: Observation
) -> Action:
    """The computer player's legal action for ``seat`` at ``table``, from its observation
    only: a player of the table's version (:attr:`~cardavia.live.table.Table.players`),
    seeded by the deal, the seat, the version and the actions
    (:func:`~cardavia.ai.decisions.decision_seed`: every table); while the table shares its
    decisions (a tournament's deal, until the tournament closes), read from the other
    tables' if one of them met it (:func:`~cardavia.ai.decisions.decision_key`)."""
    dealt, history = table.commitment, table.match.deal.history
    scores, players = table.match.scores, table.players
    if dealt is None:  # an old game, dealt before deals were committed to
        return await decisions.decide(
            players, observation, table.rng, match_scores=scores, client=table.client
        )
    seed = decision_seed(dealt.seed, seat, players, history)
    share = None
    if table.shared_until is not None:
        keep = (table.shared_until - datetime.now(UTC)).total_seconds()
        key = decision_key(dealt.seed, observation, players, match_scores=scores)
        share = Share(key, keep) if keep > 0 else None
    return await decisions.decide(
        players, observation, seed, match_scores=scores, client=table.client, share=share
    )


__all__ = ["ComputerSeats", "decide_at"]
