"""The decision pool (:mod:`cardavia.ai.pool`), the lanes and the cap per client
(:mod:`cardavia.ai.decisions`), and the spreading of a decision's worlds over spare cores
(:mod:`cardavia.ai.spread`): the same decisions as serial, cheap decisions in a lane of their
own, a cap per client."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from cardavia.ai import find_player
from cardavia.ai.decisions import Decisions
from cardavia.ai.expert import ExpertPlayer
from cardavia.ai.levels import LEVELS, register_player
from cardavia.ai.pool import DecisionPool, Kind, decide_here, machine_cores
from cardavia.ai.spread import Cores, in_order, lending
from cardavia.ai.strong import StrongPlayer
from cardavia.belote import DealState, Observation, Seat, find_rules
from cardavia.belote.actions import Action
from cardavia.belote.game import Phase

pytestmark = pytest.mark.slow  # pools of processes


def observations(preset: str, seed: int, count: int) -> list[Observation]:
    """Observations of card play, at the first, middle and late tricks of deals played by
    the club level."""
    rng = random.Random(seed)
    club = find_player("club")
    found: list[Observation] = []
    while len(found) < count:
        state = DealState.deal(find_rules(preset), dealer=Seat(rng.randrange(4)), rng=rng)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            observation = state.observation(seat)
            if (
                state.phase is Phase.PLAYING
                and len(observation.tricks) in (0, 3, 5)
                and len(observation.legal_actions) > 1
                and len(found) < count
            ):
                found.append(observation)
            state = state.apply(club.decide(observation, rng))
    return found


def wait_until_free(cores: Cores) -> None:
    """Every core given back (helpers finish the world they are solving, then give it)."""
    deadline = time.monotonic() + 30
    while cores.free != cores.count and time.monotonic() < deadline:
        time.sleep(0.01)
    assert cores.free == cores.count


def test_machine_cores() -> None:
    assert 1 <= machine_cores() <= 4096


def test_in_order_answers_in_order_and_uses_spare_cores() -> None:
    cores = Cores(3)
    names: list[str] = []

    def slow_square(x: int) -> int:
        names.append(threading.current_thread().name)
        time.sleep(0.01)
        return x * x

    try:
        with lending(cores):
            assert list(in_order(slow_square, range(12))) == [x * x for x in range(12)]
        assert any(name.startswith("cardavia-world") for name in names)
        assert cores.free == 3
    finally:
        cores.close()


def test_in_order_stops_the_work_ahead_when_closed() -> None:
    cores = Cores(2)
    try:
        with lending(cores):
            results = in_order(lambda x: x, range(100))
            assert next(results) == 0
            results.close()
        wait_until_free(cores)
    finally:
        cores.close()


def test_helpers_wait_for_decisions() -> None:
    """A spare core goes to a world ahead only while no decision waits for one."""
    cores = Cores(1)
    entered, leave = threading.Event(), threading.Event()

    def decision() -> None:
        with cores.hold():
            entered.set()
            leave.wait(10)

    try:
        assert cores.spare()  # a helper has the only core
        waiting = threading.Thread(target=decision)
        waiting.start()
        while not cores.waiting:
            time.sleep(0.001)
        cores.give()  # the helper is done: the core is the waiting decision's, not a helper's
        assert not cores.spare()
        assert entered.wait(10)
        leave.set()
        waiting.join()
        assert cores.free == 1
    finally:
        leave.set()
        cores.close()


@pytest.mark.parametrize("preset", ["coinche", "cardavia"])
def test_spread_worlds_give_the_serial_values(preset: str) -> None:
    """strong and expert with their worlds spread over four cores: the same values (so the
    same worlds, solved in the same order, to the same node budgets) as alone."""
    cores = Cores(4)
    try:
        for index, observation in enumerate(observations(preset, 5, 6)):
            for player in (StrongPlayer(), ExpertPlayer()):
                serial = player.play_values(observation, random.Random(index))
                with lending(cores):
                    spread = player.play_values(observation, random.Random(index))
                assert spread == serial
        wait_until_free(cores)  # a world solved ahead and not needed may still be running
    finally:
        cores.close()


@pytest.mark.parametrize(
    ("kind", "spread"), [("process", True), ("thread", True), ("thread", False)]
)
def test_the_pool_decides_as_the_players_do(kind: Kind, spread: bool) -> None:
    async def main() -> list[tuple[Action, Action]]:
        pool = Decisions(pool=DecisionPool(cores=3, kind=kind, spread=spread))
        try:
            pairs = []
            work = []
            for index, observation in enumerate(observations("coinche", 8, 4)):
                for level in ("beginner", "club", "strong", "expert"):
                    scores = (300, 700) if index % 2 else None
                    expected = decide_here(level, observation, index, scores)
                    work.append(
                        pool.decide(level, observation, index, match_scores=scores, client="t")
                    )
                    pairs.append(expected)
            return list(zip(await asyncio.gather(*work), pairs, strict=True))
        finally:
            await pool.close()

    for got, expected in asyncio.run(main()):
        assert got == expected


def test_an_unknown_level_is_refused() -> None:
    async def main() -> None:
        pool = DecisionPool(cores=1, kind="thread")
        try:
            with pytest.raises(ValueError, match="unknown level"):
                await pool.decide("grandmaster", observations("coinche", 1, 1)[0], 1)
        finally:
            await pool.close()

    asyncio.run(main())


class _Gate:
    """A fake search level that waits for a gate, counting the decisions inside at once."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.inside = 0
        self.most = 0
        self.lock = threading.Lock()

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        with self.lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
        self.open.wait(10)
        with self.lock:
            self.inside -= 1
        return observation.legal_actions[0]


@pytest.fixture
def gate() -> Iterator[_Gate]:
    gate = _Gate()
    register_player("gated", lambda: gate)
    yield gate
    gate.open.set()
    del LEVELS["gated"]


def test_cheap_decisions_do_not_wait_for_the_search_lane(gate: _Gate) -> None:
    async def main() -> None:
        # The fake level lives in this process, in the search lane.
        pool = Decisions(pool=DecisionPool(cores=2, kind="thread"), search_levels={"gated"})
        observation = observations("coinche", 3, 1)[0]
        try:
            busy = [asyncio.ensure_future(pool.decide("gated", observation, i)) for i in range(4)]
            await asyncio.sleep(0.05)
            action = await asyncio.wait_for(pool.decide("club", observation, 1), 5)
            assert action in observation.legal_actions
            assert not any(task.done() for task in busy)  # the search lane is still full
            gate.open.set()
            await asyncio.gather(*busy)
        finally:
            gate.open.set()
            await pool.close()

    asyncio.run(main())


def test_one_client_waits_behind_its_own_cap(gate: _Gate) -> None:
    async def main() -> None:
        pool = Decisions(
            pool=DecisionPool(cores=4, kind="thread"), per_client=1, search_levels={"gated"}
        )
        observation = observations("coinche", 3, 1)[0]
        try:
            mine = [
                asyncio.ensure_future(pool.decide("gated", observation, i, client="greedy"))
                for i in range(3)
            ]
            other = asyncio.ensure_future(pool.decide("gated", observation, 9, client="other"))
            await asyncio.sleep(0.1)
            assert gate.inside == 2  # one of the greedy client's, and the other's
            gate.open.set()
            await asyncio.gather(*mine, other)
            assert gate.most == 2
            assert pool.budget._slots == {}  # the caps are dropped when unused
        finally:
            gate.open.set()
            await pool.close()

    asyncio.run(main())


def test_start_starts_the_processes() -> None:
    async def main() -> int:
        pool = DecisionPool(cores=2, kind="process")
        try:
            await pool.start()
            executor = pool._search
            assert isinstance(executor, ProcessPoolExecutor)
            return len(executor._processes)
        finally:
            await pool.close()

    assert asyncio.run(main()) == 2


def test_the_process_pool_outlives_a_killed_process() -> None:
    observation = observations("coinche", 12, 1)[0]
    expected = decide_here("strong", observation, 3)

    async def main() -> tuple[Action, Action]:
        pool = DecisionPool(cores=1, kind="process")
        try:
            first = await pool.decide("strong", observation, 3)
            executor = pool._search
            assert isinstance(executor, ProcessPoolExecutor)
            for process in list(executor._processes.values()):
                os.kill(process.pid, signal.SIGKILL)
                process.join()
            return first, await pool.decide("strong", observation, 3)
        finally:
            await pool.close()

    assert asyncio.run(main()) == (expected, expected)
