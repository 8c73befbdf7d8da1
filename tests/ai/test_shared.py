"""The field's shared thinking (:mod:`cardavia.ai.shared`): a tournament deal's computer
decisions kept by their key and read, not computed again, at the next table that asks for
the same one — the same decisions as without it, never a fallback's kept as the level's,
nothing kept that is not legal where it is read, a bounded store."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from cardavia.ai.club import ClubPlayer
from cardavia.ai.decisions import Decisions, decision_key, decision_seed
from cardavia.ai.levels import LEVELS, register_player
from cardavia.ai.pool import DecisionPool
from cardavia.ai.shared import MemoryStore, Share, SharedDecisions
from cardavia.belote import (
    Action,
    DealState,
    Observation,
    Seat,
    deck_from_seed,
    find_rules,
    parse_action,
)
from cardavia.tournaments.deals import PLAYER_SEAT, dealer_of

KEEP = 3600.0


@dataclass
class Counted:
    """A computer player of the thread lane that decides as the club player does and counts
    its decisions (the work sharing saves)."""

    made: list[Seat] = field(default_factory=list)

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        self.made.append(observation.seat)
        return ClubPlayer().decide(observation, rng)


class Broken:
    def decide(self, observation: Observation, rng: random.Random) -> Action:
        raise RuntimeError("broken on purpose")


@pytest.fixture
def counted() -> Iterator[Counted]:
    player = Counted()
    register_player("counted", lambda: player)
    register_player("broken", Broken)
    yield player
    LEVELS.pop("counted", None)
    LEVELS.pop("broken", None)


def deal_seed(number: int) -> bytes:
    return random.Random(f"shared-{number}").randbytes(32)


async def play(
    decisions: Decisions, number: int, entrant: int, *, level: str, shared: bool
) -> tuple[Action, ...]:
    """Deal ``number`` of a tournament played by entrant ``entrant`` (a club player with a
    generator of its own at South) against three computer seats of ``level``, each decision
    seeded and keyed as the site's tables do: its actions."""
    seed = deal_seed(number)
    state = DealState.from_deck(
        find_rules("coinche"), dealer=dealer_of(number), deck=deck_from_seed(seed)
    )
    person, rng = ClubPlayer(), random.Random(entrant)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        if seat is PLAYER_SEAT:
            action = person.decide(observation, rng)
        else:
            chance = decision_seed(seed.hex(), seat, level, state.history)
            key = decision_key(seed.hex(), observation, level, match_scores=(0, 0))
            action = await decisions.decide(
                level,
                observation,
                chance,
                match_scores=(0, 0),
                share=Share(key, KEEP) if shared else None,
            )
        state = state.apply(action)
    return state.history


def a_field(level: str, deals: int, entrants: int, *, shared: bool) -> list[tuple[Action, ...]]:
    """Every entrant's line of every deal, one table after another."""

    async def main() -> list[tuple[Action, ...]]:
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
        try:
            return [
                await play(decisions, number, entrant, level=level, shared=shared)
                for number in range(1, deals + 1)
                for entrant in range(entrants)
            ]
        finally:
            await decisions.close()

    return asyncio.run(main())


def test_a_field_meets_the_same_decisions_with_and_without_sharing(counted: Counted) -> None:
    alone = a_field("counted", 6, 4, shared=False)
    computed = len(counted.made)
    counted.made.clear()
    together = a_field("counted", 6, 4, shared=True)
    assert together == alone
    assert computed == sum(1 for line in alone for action in line if action.seat != PLAYER_SEAT)
    assert len(counted.made) < computed


def test_a_second_table_replaying_a_line_computes_nothing(counted: Counted) -> None:
    async def main() -> tuple[tuple[Action, ...], tuple[Action, ...], SharedDecisions]:
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
        try:
            first = await play(decisions, 3, 7, level="counted", shared=True)
            made = len(counted.made)
            second = await play(decisions, 3, 7, level="counted", shared=True)
            assert len(counted.made) == made  # not one decision computed again
            return first, second, decisions.shared
        finally:
            await decisions.close()

    first, second, shared = asyncio.run(main())
    computer = sum(1 for action in first if action.seat != PLAYER_SEAT)
    assert second == first
    assert shared.made == shared.kept == computer
    assert shared.read == computer
    # Each kept with the time it took, which its reader waits (no sooner where shared).
    assert isinstance(shared.store, MemoryStore)
    for text in shared.store.texts():
        action, took = text.split("\t")
        assert parse_action(action).seat != PLAYER_SEAT and 0 <= float(took) < 1


def test_the_same_decision_asked_at_once_is_made_once(counted: Counted) -> None:
    seed = deal_seed(1)
    state = DealState.from_deck(find_rules("coinche"), dealer=Seat.S, deck=deck_from_seed(seed))
    observation = state.observation(Seat.W)
    key = Share(decision_key(seed.hex(), observation, "counted"), KEEP)

    async def main() -> list[Action]:
        decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
        try:
            asks = (decisions.decide("counted", observation, 5, share=key) for _ in range(3))
            return list(await asyncio.gather(*asks))
        finally:
            await decisions.close()

    actions = asyncio.run(main())
    assert len(set(actions)) == 1
    assert counted.made == [Seat.W]


def test_a_fallbacks_decision_is_never_kept_as_the_levels(counted: Counted) -> None:
    seed = deal_seed(2)
    state = DealState.from_deck(find_rules("coinche"), dealer=Seat.S, deck=deck_from_seed(seed))
    observation = state.observation(Seat.W)
    key = Share(decision_key(seed.hex(), observation, "broken"), KEEP)
    store = MemoryStore()

    async def main() -> Action:
        decisions = Decisions(
            pool=DecisionPool(cores=1, kind="thread"), shared=SharedDecisions(store)
        )
        try:
            return await decisions.decide("broken", observation, 5, share=key)
        finally:
            await decisions.close()

    action = asyncio.run(main())
    assert action == ClubPlayer().decide(observation, random.Random(5))  # club's, instead
    assert len(store) == 0


def test_what_is_kept_is_read_only_when_it_is_legal_there(counted: Counted) -> None:
    seed = deal_seed(4)
    state = DealState.from_deck(find_rules("coinche"), dealer=Seat.S, deck=deck_from_seed(seed))
    observation = state.observation(Seat.W)
    share = Share(decision_key(seed.hex(), observation, "counted"), KEEP)
    store = MemoryStore()

    async def main() -> list[Action]:
        decisions = Decisions(
            pool=DecisionPool(cores=1, kind="thread"), shared=SharedDecisions(store)
        )
        try:
            answers = []
            for text in ("not an action", "N pass", "W AS"):  # not W's, not a bid now
                await store.put(share.key, text, KEEP)
                answers.append(await decisions.decide("counted", observation, 5, share=share))
            return answers
        finally:
            await decisions.close()

    answers = asyncio.run(main())
    assert len(counted.made) == 3
    assert all(answer in observation.legal_actions for answer in answers)


def test_the_key_holds_the_secret_the_version_the_score_and_the_table() -> None:
    seed = deal_seed(5).hex()
    rules = find_rules("coinche")
    state = DealState.from_deck(rules, dealer=Seat.S, deck=deck_from_seed(deal_seed(5)))
    observation = state.observation(Seat.W)
    key = decision_key(seed, observation, "expert", match_scores=(0, 0))
    assert key == decision_key(seed.upper(), observation, "expert-2026-12b", match_scores=(0, 0))
    other_dealer = DealState.from_deck(rules, dealer=Seat.N, deck=deck_from_seed(deal_seed(5)))
    others = {
        decision_key(bytes(32).hex(), observation, "expert", match_scores=(0, 0)),
        decision_key(seed, observation, "expert-2026-12", match_scores=(0, 0)),
        decision_key(seed, observation, "expert", match_scores=(0, 10)),
        decision_key(seed, observation, "expert"),
        decision_key(seed, state.observation(Seat.N), "expert", match_scores=(0, 0)),
        decision_key(seed, other_dealer.observation(Seat.W), "expert", match_scores=(0, 0)),
    }
    assert key not in others
    assert len(others) == 6
    assert seed not in key


def test_the_memory_store_is_bounded_and_forgets_in_time() -> None:
    now = [0.0]
    store = MemoryStore(3, clock=lambda: now[0])

    async def main() -> list[str | None]:
        for key in "abcd":
            await store.put(key, f"text {key}", 10.0)
        assert await store.get("b") == "text b"  # b used lately: c goes before it
        await store.put("e", "text e", 10.0)
        found = [await store.get(key) for key in "abcde"]
        now[0] = 10.0
        return [*found, await store.get("e")]

    assert asyncio.run(main()) == [None, "text b", None, "text d", "text e", None]
    assert len(store) == 2  # b and d, expired, are dropped when next read


@pytest.mark.slow  # strong decisions over whole deals
def test_the_search_lanes_decisions_are_the_same_shared() -> None:
    alone = a_field("strong", 1, 2, shared=False)
    assert a_field("strong", 1, 2, shared=True) == alone
