"""The computer players are the same at every table (issue 22, item 2): two people who bid
and play a deal the same way meet the same computer actions, whatever the table's own
generator, at a search level (the pool's lane) and a cheap level (the event loop: beginner,
which draws at most of its decisions); the seed of a decision follows the deal, the seat, the
level's version and the actions so far."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from cardavia.ai.decisions import decision_seed
from cardavia.ai.levels import find_player, level_version
from cardavia.belote import Action, Pass, Seat
from cardavia.live.table import Table
from cardavia.live.tables import TableService
from cardavia.store.db import GameStore
from cardavia.tournaments.deals import PLAYER_SEAT, dealer_of
from cardavia.words import load_catalogs

pytestmark = pytest.mark.slow  # expert and strong decisions

DEAL_SEED = bytes(range(32))


def person_action(table: Table) -> Action:
    """What the person does: a function of the seat's view only (a club player drawing from
    a generator seeded by the number of actions), so that the same views give the same
    actions at every table."""
    observation = table.match.deal.observation(PLAYER_SEAT)
    rng = random.Random(len(observation.history))
    return find_player("club").decide(observation, rng)


async def play(
    database: str, level: str, *, table_seed: int, person_actions: int
) -> tuple[Action, ...]:
    """A tournament's deal (its seed and dealer given) played by one person at South, at a
    site whose own generator is seeded with ``table_seed``: the deal's actions once the
    person has made ``person_actions`` of them (or the deal is over)."""
    store = GameStore(database)
    service = TableService(store, load_catalogs(), ai_delay=(0.0, 0.0), seed=table_seed)
    try:
        game = await service.create_game(
            "cardavia", level, "en", seat=PLAYER_SEAT, target=None,
            dealt=(DEAL_SEED, dealer_of(2)),
        )  # fmt: skip
        table = await service.open(game.game_id, game.token)
        made = 0
        while True:
            service.ensure_runner(table)
            while table.runner is not None and not table.runner.done():
                await table.runner
            deal = table.match.deal
            if deal.is_over or made >= person_actions:
                return deal.history
            assert deal.to_move is PLAYER_SEAT
            await service.act(table, person_action(table))
            made += 1
    finally:
        await service.close()
        store.close()


def computer_actions(history: tuple[Action, ...]) -> list[Action]:
    return [action for action in history if action.seat is not PLAYER_SEAT]


@pytest.mark.parametrize(("level", "person_actions"), [("beginner", 99), ("strong", 99)])
def test_two_people_who_play_a_deal_the_same_way_meet_the_same_computer_actions(
    tmp_path: Path, level: str, person_actions: int
) -> None:
    database = f"sqlite:///{tmp_path / 'cardavia.db'}"
    first = asyncio.run(play(database, level, table_seed=1, person_actions=person_actions))
    second = asyncio.run(play(database, level, table_seed=2, person_actions=person_actions))
    assert len(computer_actions(first)) >= 6
    assert first == second


def test_a_decisions_seed_follows_the_deal_the_seat_the_level_and_the_history() -> None:
    deal = DEAL_SEED.hex()
    history = (Pass(Seat.E), Pass(Seat.S))
    seed = decision_seed(deal, Seat.W, "expert", history)
    assert seed == decision_seed(deal.upper(), Seat.W, "Expert", list(history))
    others = {
        decision_seed(bytes(32).hex(), Seat.W, "expert", history),
        decision_seed(deal, Seat.N, "expert", history),
        decision_seed(deal, Seat.W, "strong", history),
        decision_seed(deal, Seat.W, "expert", history[:1]),
        decision_seed(deal, Seat.W, "expert", (Pass(Seat.S), Pass(Seat.E))),
    }
    assert seed not in others
    assert len(others) == 5


def test_each_level_has_one_version() -> None:
    assert level_version("expert") == "expert-2026-12b"
    assert len({level_version(level) for level in ("beginner", "club", "strong", "expert")}) == 4
    with pytest.raises(ValueError, match="unknown level"):
        level_version("grandmaster")
