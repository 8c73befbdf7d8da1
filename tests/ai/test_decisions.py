"""Every computer decision of the site (:mod:`cardavia.ai.decisions`): the lanes, the one cap
per client (:mod:`cardavia.ai.budget`), and a real, legal decision whatever goes wrong in a
lane, never the first legal action."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Iterator

import pytest

from cardavia.ai.budget import WorkBudget
from cardavia.ai.decisions import (
    CHEAP_LEVELS,
    FALLBACK_LEVELS,
    SEARCH_LEVELS,
    Decisions,
    Lane,
)
from cardavia.ai.environment import DEFAULT_DEADLINE, deadline_from_env
from cardavia.ai.levels import LEVELS, player_levels, register_player
from cardavia.ai.pool import DecisionPool, decide_here
from cardavia.ai.queue import DecisionQueue
from cardavia.belote import Action, Observation, Pass

from .test_pool import observations


def test_the_work_budget_is_per_client() -> None:
    budget = WorkBudget(1)
    running: dict[str, int] = {"a": 0, "b": 0}
    most: dict[str, int] = {"a": 0, "b": 0}

    async def work(key: str) -> None:
        async with budget.slot(key):
            running[key] += 1
            most[key] = max(most[key], running[key])
            await asyncio.sleep(0.01)
            running[key] -= 1

    async def main() -> float:
        start = time.perf_counter()
        await asyncio.gather(*(work(key) for key in "aaab"))
        return time.perf_counter() - start

    elapsed = asyncio.run(main())
    assert most == {"a": 1, "b": 1}
    assert elapsed >= 0.03  # a's three one after another; b alongside
    assert budget.running("a") == 0


def test_every_level_has_one_lane() -> None:
    decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
    assert not CHEAP_LEVELS & SEARCH_LEVELS
    assert set(player_levels()) == CHEAP_LEVELS | SEARCH_LEVELS
    assert {decisions.lane(level) for level in CHEAP_LEVELS} == {Lane.CHEAP}
    assert {decisions.lane(level) for level in SEARCH_LEVELS} == {Lane.SEARCH}
    assert decisions.lane("Expert ") is Lane.SEARCH
    assert decisions.lane("registered-by-a-test") is Lane.THREAD
    assert set(FALLBACK_LEVELS) <= CHEAP_LEVELS  # a fallback is made at once
    assert decisions.deadline is None  # no queue: nothing waits for a worker


def test_the_deadline_is_a_setting() -> None:
    assert deadline_from_env({}) == DEFAULT_DEADLINE == 3.0
    assert deadline_from_env({"CARDAVIA_AI_DEADLINE": "1.5"}) == 1.5
    queued = Decisions.from_settings(redis_url="redis://127.0.0.1:1/0", deadline=2.5)
    assert queued.deadline == 2.5
    assert Decisions.from_settings().queue is None


class _Broken:
    def decide(self, observation: Observation, rng: random.Random) -> Action:
        raise RuntimeError("broken on purpose")


class _Cheat:
    def decide(self, observation: Observation, rng: random.Random) -> Action:
        seat = observation.seat
        return Pass(seat)  # never legal in card play


class _Slow:
    """A player that thinks :data:`SLOW_SECONDS` (as this machine's pool may, starting its
    processes on a busy machine, then searching), then plays its last legal action."""

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        time.sleep(SLOW_SECONDS)
        return observation.legal_actions[-1]


SLOW_SECONDS = 2.0
UNREACHABLE = "redis://127.0.0.1:1/0"
"""A Redis nobody serves (port 1): every connection refused at once."""


@pytest.fixture
def faulty_levels() -> Iterator[None]:
    register_player("broken", _Broken)
    register_player("cheat", _Cheat)
    register_player("slow", _Slow)
    yield
    LEVELS.pop("broken", None)
    LEVELS.pop("cheat", None)
    LEVELS.pop("slow", None)


@pytest.mark.parametrize("level", ["broken", "cheat"])
@pytest.mark.parametrize("lane", [Lane.SEARCH, Lane.THREAD])
def test_a_failing_or_cheating_player_is_replaced_by_a_real_decision(
    faulty_levels: None, level: str, lane: Lane, caplog: pytest.LogCaptureFixture
) -> None:
    """The club player decides instead (the same decision as its own), in one line of the
    log; never "the first legal action"."""
    observation = observations("coinche", 31, 1)[0]
    assert Pass(observation.seat) not in observation.legal_actions
    search = {level} if lane is Lane.SEARCH else set()

    async def main() -> Action:
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"), search_levels=search)
        assert decisions.lane(level) is lane
        try:
            return await decisions.decide(level, observation, 7, match_scores=(0, 0), client="c")
        finally:
            await decisions.close()

    with caplog.at_level(logging.WARNING, logger="cardavia.ai.decisions"):
        action = asyncio.run(main())
    assert action == decide_here("club", observation, 7, (0, 0))
    (record,) = caplog.records
    assert record.exc_info is None and "\n" not in record.getMessage()
    assert level in record.getMessage() and "club" in record.getMessage()


def test_a_failing_cheap_level_falls_back_to_another(
    faulty_levels: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the club level itself fail, the beginner decides."""
    observation = observations("coinche", 32, 1)[0]
    monkeypatch.setitem(LEVELS, "club", _Broken)

    async def main() -> Action:
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
        try:
            return await decisions.decide("club", observation, 3)
        finally:
            await decisions.close()

    assert asyncio.run(main()) == decide_here("beginner", observation, 3)


def test_with_no_player_able_to_decide_the_error_is_raised(
    faulty_levels: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    observation = observations("coinche", 33, 1)[0]
    monkeypatch.setitem(LEVELS, "club", _Broken)
    monkeypatch.setitem(LEVELS, "beginner", _Cheat)

    async def main() -> Action:
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
        try:
            return await decisions.decide("broken", observation, 3)
        finally:
            await decisions.close()

    with pytest.raises(RuntimeError, match="no computer player could decide"):
        asyncio.run(main())


def test_an_unknown_level_is_refused_before_any_lane() -> None:
    async def main() -> None:
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
        try:
            with pytest.raises(ValueError, match="unknown level"):
                await decisions.decide("grandmaster", observations("coinche", 1, 1)[0], 1)
        finally:
            await decisions.close()

    asyncio.run(main())


def test_a_generator_is_drawn_from_as_the_table_did() -> None:
    """The cheap levels draw from the table's generator itself; the search levels draw a
    64-bit seed from it (so that a seeded game replays, whichever lane decides)."""
    observation = observations("maison", 34, 1)[0]

    async def main() -> tuple[Action, Action]:
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
        try:
            club = await decisions.decide("club", observation, random.Random(5))
            strong = await decisions.decide("strong", observation, random.Random(6))
            return club, strong
        finally:
            await decisions.close()

    club, strong = asyncio.run(main())
    assert club == decide_here("club", observation, 5)
    assert strong == decide_here("strong", observation, random.Random(6).getrandbits(64))


@pytest.mark.slow  # waits out the deadline
def test_redis_unreachable_the_decision_is_made_here_within_the_deadline(
    faulty_levels: None, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis out of reach (restarting, say): the decision is made in this process at its own
    level if that is done within the deadline, else by the club player once it has passed —
    never after the deadline by the level itself (issue 35: a restart silenced strong tables
    7.7 s, the pool's processes starting with no deadline)."""
    observation = observations("coinche", 35, 1)[0]
    assert decide_here("club", observation, 7) != observation.legal_actions[-1]

    async def main() -> tuple[Action, Action]:
        queue = DecisionQueue(UNREACHABLE, timeout=0.3)
        decisions = Decisions(
            pool=DecisionPool(cores=1, kind="thread"), queue=queue, search_levels={"slow"}
        )
        try:
            slow = await decisions.decide("slow", observation, 7, client="c")
            club = await decisions.decide("club", observation, 7, client="c")
            return slow, club
        finally:
            await decisions.close()

    with caplog.at_level(logging.WARNING, logger="cardavia.ai.decisions"):
        slow, club = asyncio.run(main())
    assert slow == club == decide_here("club", observation, 7)  # the club's, not its own
    unreachable, late = (record.getMessage() for record in caplog.records)
    assert "slow decision" in unreachable and "deciding in this process" in unreachable
    assert "not answered in time" in late and "decided by club instead" in late


def test_redis_unreachable_a_quick_level_still_decides_here_at_its_own_level() -> None:
    """Within the deadline, the decision Redis could not queue is the level's own, made on
    this machine's cores: a strong table plays strong while Redis restarts."""
    observation = observations("coinche", 36, 1)[0]

    async def main() -> Action:
        queue = DecisionQueue(UNREACHABLE, timeout=30.0)
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"), queue=queue)
        try:
            return await decisions.decide("strong", observation, 11, client="c")
        finally:
            await decisions.close()

    assert asyncio.run(main()) == decide_here("strong", observation, 11)
