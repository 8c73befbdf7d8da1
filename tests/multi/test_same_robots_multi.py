"""The computer players are the same across the site's processes (issue 22, item 2): one
tournament deal played at two tables, each through its own web process, their strong
computer seats decided by an AI worker on the queue (a new worker process for the second
table): the same person's actions meet the same computer actions."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path

from tests.multi.conftest import WebProcess
from tests.multi.test_several_servers import open_socket, settle, start_ai_worker

from cardavia.belote import Action, Record
from cardavia.live.tables import TableService
from cardavia.store.db import GameStore
from cardavia.tournaments.deals import PLAYER_SEAT, dealer_of
from cardavia.words import load_catalogs

DEAL_SEED = bytes(range(100, 132))


async def tournament_games(database: str, count: int) -> list[dict[str, str]]:
    """``count`` tables of one tournament deal (its seed and dealer), as the site makes them."""
    store = GameStore(database)
    service = TableService(store, load_catalogs())
    games = []
    try:
        for _ in range(count):
            game = await service.create_game(
                "coinche", "strong", "en", seat=PLAYER_SEAT, target=None,
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
    worker = start_ai_worker(redis_url, log)
    # A generous deadline: a decision made by the fallback (a worker late on a busy machine)
    # would be a cheaper level's (docs/tournament-robots.md).
    first, second = web_process(CARDAVIA_AI_DEADLINE="60"), web_process(CARDAVIA_AI_DEADLINE="60")
    try:
        one, two = asyncio.run(tournament_games(postgres_url, 2))
        play_deal(first, one)
        # The second table's decisions on another worker: its own processes, its own hashes.
        worker.terminate()
        worker.wait(timeout=20)
        worker = start_ai_worker(redis_url, log)
        play_deal(second, two)
    finally:
        worker.terminate()
        worker.wait(timeout=20)
    played = history_of(postgres_url, one["game"])
    assert sum(1 for action in played if action.seat is not PLAYER_SEAT) >= 12
    assert history_of(postgres_url, two["game"]) == played
    runs = log.read_text().split("AI worker:")
    assert len(runs) == 3
    assert all(":decide('strong', Observation(seat=<Seat." in run for run in runs[1:])
