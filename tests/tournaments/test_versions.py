"""A tournament keeps its computer players' version to its close (issue 39): one made before
its level's new version is played — at its tables and in its par — by the version it was
made with, each decision seeded with that version's name, while a tournament made after
plays the new one; a game keeps the version it was made with when it is loaded again."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cardavia.ai.decisions import Decisions, decision_seed
from cardavia.ai.levels import LEVEL_VERSIONS, LEVELS, VERSIONS
from cardavia.ai.pool import DecisionPool
from cardavia.belote import Action, Observation, Seat
from cardavia.live.tables import TableService
from cardavia.live.tournament_tables import DealTablesOfService
from cardavia.store.db import GameStore
from cardavia.tournaments.deals import PLAYER_SEAT
from cardavia.tournaments.par import play_out
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournament, Tournaments
from cardavia.words import load_catalogs

OLD, NEW = "probe-2026-11", "probe-2026-12"


@dataclass
class Probe:
    """A computer player of a test's level: its version's way (the first legal action, or
    the last), and the first draw of the generator of each of its decisions."""

    version: str
    draws: list[tuple[str, Seat, tuple[Action, ...], float]] = field(default_factory=list)

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        self.draws.append((self.version, observation.seat, observation.history, rng.random()))
        legal = observation.legal_actions
        return legal[0] if self.version == OLD else legal[-1]


@pytest.fixture
def probes() -> Iterator[list[tuple[str, Seat, tuple[Action, ...], float]]]:
    """The level ``probe`` at version :data:`OLD`, each version's player registered."""
    draws: list[tuple[str, Seat, tuple[Action, ...], float]] = []
    old, new = Probe(OLD, draws), Probe(NEW, draws)
    LEVELS["probe"] = lambda: new if LEVEL_VERSIONS["probe"] == NEW else old
    LEVEL_VERSIONS["probe"] = OLD
    VERSIONS[OLD], VERSIONS[NEW] = (lambda: old), (lambda: new)
    yield draws
    for table, key in ((LEVELS, "probe"), (LEVEL_VERSIONS, "probe"), (VERSIONS, OLD)):
        table.pop(key, None)
    VERSIONS.pop(NEW, None)


def plan(name: str) -> Planned:
    opens = datetime.now(UTC) - timedelta(minutes=1)
    return Planned(name, "short", "coinche", 2, opens, opens + timedelta(hours=1))


def seeded_with(
    draws: list[tuple[str, Seat, tuple[Action, ...], float]], tournament: Tournament, number: int
) -> set[str]:
    """The versions whose name seeded the draws, as a tournament deal's tables seed them."""
    seed = tournament.seed(number).hex()
    found = set()
    for _, seat, history, drawn in draws:
        for version in (OLD, NEW):
            if random.Random(decision_seed(seed, seat, version, history)).random() == drawn:
                found.add(version)
    return found


async def play_table(store: GameStore, tournament: Tournament, number: int) -> str:
    """Deal ``number``'s table, as the site makes it, its computer seats played until it is
    the person's turn or the deal is over: its game's id."""
    decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
    service = TableService(store, load_catalogs(), ai_delay=(0.0, 0.0), seed=1, decisions=decisions)
    try:
        game_id = await DealTablesOfService(service).deal(
            tournament, number, lang="en", client="test"
        )
        table = service.held()[game_id]
        for _ in range(40):
            service.ensure_runner(table)
            while table.runner is not None and not table.runner.done():
                await table.runner
            deal = table.match.deal
            if deal.is_over or deal.to_move is not PLAYER_SEAT:
                break
            await service.act(table, deal.observation(PLAYER_SEAT).legal_actions[0])
        return game_id
    finally:
        await service.close()


async def par(tournament: Tournament, number: int) -> None:
    """The par of deal ``number``, worked out as the site's par worker does."""
    decisions = Decisions(pool=DecisionPool(cores=1, kind="thread"))
    try:
        await play_out(tournament, number, decisions.decide)
    finally:
        await decisions.close()


def test_a_tournament_made_before_a_new_version_keeps_the_old_one_to_its_close(
    tmp_path: Path, probes: list[tuple[str, Seat, tuple[Action, ...], float]]
) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'cardavia.db'}")
    try:
        tournaments = Tournaments(store, level="probe")
        assert tournaments.make(plan("before"))
        LEVEL_VERSIONS["probe"] = NEW  # the level's new version, the tournament still open
        assert tournaments.make(plan("after"))
        before, after = tournaments.get("before"), tournaments.get("after")
        assert before is not None and after is not None
        assert (before.version, after.version) == (OLD, NEW)

        game = asyncio.run(play_table(store, before, 1))
        assert probes and {version for version, *_ in probes} == {OLD}
        assert seeded_with(probes, before, 1) == {OLD}
        stored = store.load(game)
        assert stored is not None and stored.version == OLD

        probes.clear()
        asyncio.run(play_table(store, after, 1))
        assert probes and {version for version, *_ in probes} == {NEW}
        assert seeded_with(probes, after, 1) == {NEW}

        # Its par too: four computer players of the tournament's version.
        probes.clear()
        asyncio.run(par(before, 2))
        assert {version for version, *_ in probes} == {OLD}
        assert seeded_with(probes, before, 2) == {OLD}
    finally:
        store.close()


def test_a_game_loaded_again_plays_the_version_it_was_made_with(
    tmp_path: Path, probes: list[tuple[str, Seat, tuple[Action, ...], float]]
) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'cardavia.db'}")

    async def made() -> tuple[str, str]:
        service = TableService(store, load_catalogs(), ai_delay=(0.0, 0.0), seed=2)
        try:
            game = await service.create_game("coinche", "probe", "en", seat=PLAYER_SEAT)
            return game.game_id, game.token
        finally:
            await service.close()

    async def players(game_id: str, token: str) -> str:
        service = TableService(store, load_catalogs(), ai_delay=(0.0, 0.0), seed=3)
        try:
            return (await service.open(game_id, token)).players
        finally:
            await service.close()

    try:
        game_id, token = asyncio.run(made())
        LEVEL_VERSIONS["probe"] = NEW
        assert asyncio.run(players(game_id, token)) == OLD
        stored = store.load(game_id)
        assert stored is not None and stored.version == OLD
    finally:
        store.close()
