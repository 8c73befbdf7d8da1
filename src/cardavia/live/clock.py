"""The action clock of a quick-play table (docs/players.md, "Leaving"; docs/web.md,
"Rooms").

At a room whose settings have a ``clock`` (seconds per action; a friends' room has none),
each action a person is to make is timed: when their turn begins, the room's state is given
a :class:`~cardavia.live.room_state.Clock` (the seat, the action it waits for — the game and
its revision — and until when), saved with the room like any change, so that every process
holding the room shows the same countdown and arms the same timer. When it runs out, the
first process to save the clock's lapse (the room's revision check lets one through) hands
that one action to a computer player of the room's level: the seating says so, and the
computer seats are played, as always, by the process holding the table's lease. Two
expiries in a row and the person is away (:data:`~cardavia.live.room_state.IDLE_MISSES`):
the computer player plays their seat until they act or say they are back.

An action arriving once the clock has run out is refused (``too_late``): it is not their
turn any more, and the computer's action is the one applied, once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any, Final

from cardavia.belote import Seat
from cardavia.live.protocol import ClientError
from cardavia.live.room import Room
from cardavia.live.room_state import Clock, PersonSeat, RoomState
from cardavia.live.rooms import RoomService
from cardavia.live.table import Table

log = logging.getLogger(__name__)

TIMER: Final = "clock"
"""The key of the clock's timer among the room's timers."""
SLACK: Final = 0.02
"""Seconds past the deadline before the clock's lapse is saved: an action sent just in time
is handled first."""


def due(state: RoomState, table: Table, now: float) -> Clock | None:
    """The clock the room should have at ``now``: the one it has while it still times the
    action the game waits for; a new one when a person (present, not idle) is to act; none
    once a clock that ran out is behind (a clock left behind otherwise is harmless: it times
    an action already made, and is replaced at the person's next turn)."""
    clock = state.clock
    if clock is not None and clock.waits_for(table.game_id, table.revision):
        return clock
    deal = table.match.deal
    seat = deal.to_move
    person = (
        not deal.is_over
        and seat is not None
        and isinstance(state[seat], PersonSeat)
        and state.seating().person_plays(seat, now)
    )
    if not person or seat is None:
        return None if clock is None or clock.lapsed else clock
    return Clock(seat, table.game_id, table.revision, now + state.settings.clock)


def refuse_late(state: RoomState, table: Table, seat: Seat, now: float) -> None:
    """Refuse (``too_late``) an action of ``seat`` that arrives once its clock has run out:
    the computer player acts for it (or has acted) instead."""
    clock = state.clock
    if (
        clock is not None
        and clock.seat == seat
        and clock.waits_for(table.game_id, table.revision)
        and (clock.lapsed or now >= clock.ends)
    ):
        raise ClientError("too_late")


class ActionClock:
    """The action clocks of this process's quick-play rooms: each set when a person's turn
    begins, and armed as a timer wherever the room is held. A follower of the rooms
    (:data:`~cardavia.live.rooms.Follower`), given to the room service when it is built:
    told of each change with the service that holds the room."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a room's clock failed", exc_info=task.exception())

    def follow(self, rooms: RoomService, room: Room, table: Table) -> None:
        """After a change of the room or its game: set (or clear) the clock when it is
        due, else arm its timer."""
        if room.settings.clock <= 0 or room.game_id != table.game_id:
            return
        if due(room.state, table, time.time()) != room.state.clock:
            self._spawn(self._set(rooms, room, table))
        else:
            self._arm(rooms, room, table)

    async def _set(self, rooms: RoomService, room: Room, table: Table) -> None:
        """Save the clock due (under the room's lock: whoever saves it first, the others
        find it there)."""
        with contextlib.suppress(ClientError):
            await rooms.change(
                room, lambda state: state.timed(due(state, table, time.time())), human=False
            )

    def _arm(self, rooms: RoomService, room: Room, table: Table) -> None:
        """The timer of the room's clock, if it times the action the game waits for."""
        old = room.timers.pop(TIMER, None)
        if old is not None:
            old.cancel()
        clock = room.state.clock
        if clock is None or clock.lapsed or not clock.waits_for(table.game_id, table.revision):
            return

        def run() -> None:
            room.timers.pop(TIMER, None)
            self._spawn(self._over(rooms, room, clock))

        delay = max(0.0, clock.ends - time.time()) + SLACK
        room.timers[TIMER] = asyncio.get_running_loop().call_later(delay, run)

    async def _over(self, rooms: RoomService, room: Room, clock: Clock) -> None:
        """``clock`` ran out: if the game still waits for that action, a computer player
        makes it (the room's lapse saved once; its seating then hands the seat over)."""
        with contextlib.suppress(ClientError):
            table = await rooms.table(room)
            if table is None or not clock.waits_for(table.game_id, table.revision):
                return
            await rooms.change(room, lambda state: state.lapse(clock), human=False)


__all__ = ["ActionClock", "due", "refuse_late"]
