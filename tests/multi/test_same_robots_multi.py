"""The computer players are the same across the site's processes (issue 22, item 2): one
tournament deal played at two tables, each through its own web process, their expert
computer seats (the level's version, ``expert-2026-12b``) decided by an AI worker on the
queue (a new worker process for the second table): the same person's actions meet the same
computer actions. And a tournament's field shares them (issue 39): its second table,
played the same way through another web process, reads every computer decision the first
one's made from Redis, its worker deciding nothing."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.multi.conftest import WebProcess
from tests.multi.test_several_servers import open_socket, settle, start_ai_worker

from cardavia.belote import Action, Record
from cardavia.live.tables import TableService
from cardavia.live.tournament_tables import DealTablesOfService
from cardavia.store.db import GameStore
from cardavia.tournaments.deals import PLAYER_SEAT, dealer_of
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments
from cardavia.words import load_catalogs

DEAL_SEED = bytes(range(100, 132))
HOUR = timedelta(hours=1)


async def tournament_games(database: str, count: int) -> list[dict[str, str]]:
    """``count`` tables of one deal (a tournament's seed and dealer: the same computer
    actions, each table computing its own)."""
    store = GameStore(database)
    service = TableService(store, load_catalogs())
    games = []
    try:
        for _ in range(count):
            game = await service.create_game(
                "coinche", "expert", "en", seat=PLAYER_SEAT, target=None,
                dealt=(DEAL_SEED, dealer_of(3)),
            )  # fmt: skip
            games.append({"game": game.game_id, "token": game.token})
    finally:
        await service.close()
        store.close()
    return games


def play_deal(web: WebProcess, game: dict[str, str]) -> None:
    """The person at South plays the deal through ``web``: each action a function of the
    view only (the same views, the same actions)."""
    with open_socket(web, game) as player:
        view = settle(player)
        while view["phase"] not in ("over", "cancelled"):
            legal = view["legal"]
            action = legal[random.Random(view["step"]).randrange(len(legal))]
            player.send(json.dumps({"type": "action", "action": action}))
            view = settle(player)


def history_of(database: str, game_id: str) -> tuple[Action, ...]:
    store = GameStore(database)
    try:
        stored = store.load(game_id)
        assert stored is not None
        return Record.from_json(stored.record).replay().deal.history
    finally:
        store.close()


def test_a_deal_played_the_same_way_on_two_processes_meets_the_same_computer_actions(
    web_process: Callable[..., WebProcess], postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "worker.log"
    worker = start_ai_worker(redis_url, log, fresh=True)
    # A generous deadline: a decision made by the fallback (a worker late on a busy machine)
    # would be a cheaper level's (docs/tournament-robots.md).
    first, second = web_process(CARDAVIA_AI_DEADLINE="60"), web_process(CARDAVIA_AI_DEADLINE="60")
    try:
        one, two = asyncio.run(tournament_games(postgres_url, 2))
        play_deal(first, one)
        # The second table's decisions on another worker: its own processes, its own hashes.
        worker.terminate()
        worker.wait(timeout=20)
        worker = start_ai_worker(redis_url, log, fresh=True)
        play_deal(second, two)
    finally:
        worker.terminate()
        worker.wait(timeout=20)
    played = history_of(postgres_url, one["game"])
    assert sum(1 for action in played if action.seat is not PLAYER_SEAT) >= 12
    assert history_of(postgres_url, two["game"]) == played
    runs = log.read_text().split("AI worker:")
    assert len(runs) == 3
    assert all(":decide('expert-2026-12b', Observation(seat=<Seat." in run for run in runs[1:])


async def a_tournaments_deals(database: str, players: int) -> list[dict[str, str]]:
    """Deal 1 of a tournament open now, started by ``players`` entrants as the site starts
    them: each one's game and seat token."""
    store = GameStore(database)
    service = TableService(store, load_catalogs())
    tournaments = Tournaments(store, DealTablesOfService(service), level="strong")
    opens = datetime.now(UTC) - timedelta(minutes=1)
    name = f"shared-{secrets.token_hex(4)}"
    try:
        assert tournaments.make(Planned(name, "short", "coinche", 1, opens, opens + HOUR))
        seats = [
            await tournaments.start(name, 1, f"entrant-{index}", lang="en")
            for index in range(players)
        ]
    finally:
        await service.close()
        store.close()
    return [{"game": seat.game_id, "token": seat.token} for seat in seats]


def test_a_tournaments_field_shares_its_computer_decisions_across_processes(
    web_process: Callable[..., WebProcess], postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "worker.log"
    worker = start_ai_worker(redis_url, log, fresh=True)
    first, second = web_process(CARDAVIA_AI_DEADLINE="60"), web_process(CARDAVIA_AI_DEADLINE="60")
    try:
        one, two = asyncio.run(a_tournaments_deals(postgres_url, 2))
        play_deal(first, one)
        # The second entrant's table on another web process, a new worker beside it.
        worker.terminate()
        worker.wait(timeout=20)
        worker = start_ai_worker(redis_url, log, fresh=True)
        play_deal(second, two)
    finally:
        worker.terminate()
        worker.wait(timeout=20)
    played = history_of(postgres_url, one["game"])
    assert sum(1 for action in played if action.seat is not PLAYER_SEAT) >= 12
    assert history_of(postgres_url, two["game"]) == played
    runs = log.read_text().split("AI worker:")
    assert len(runs) == 3
    assert ":decide('strong-2026-12', Observation(seat=<Seat." in runs[1]
    assert ":decide(" not in runs[2]  # every decision read from Redis: none computed
