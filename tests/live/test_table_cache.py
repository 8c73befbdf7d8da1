"""The tables a server keeps in memory: with more tables in play than the cache holds, a game
just created stays (its page connects next), and idle tables are the ones dropped."""

from __future__ import annotations

import asyncio

from cardavia.belote import Seat
from cardavia.live.tables import TableService
from cardavia.store.db import GameStore
from cardavia.words import load_catalogs

CACHE = 2


def test_a_new_game_stays_in_memory_when_the_tables_in_play_exceed_the_cache(
    database: str,
) -> None:
    async def main() -> None:
        store = GameStore(database)
        service = TableService(store, load_catalogs(), ai_delay=(0.0, 0.0), cache_size=CACHE)
        busy = []
        for _ in range(4):  # four tables in play: each watched by a connection
            game = await service.create_game("cardavia", "beginner", "en", seat=Seat.S)
            table = await service.open(game.game_id, game.token)
            busy.append(service.listen(table, "en", seat=Seat.S))
        idle = await service.create_game(
            "cardavia", "beginner", "en", seat=Seat.S
        )  # nobody connected
        # A game just created stays, for its page to connect to, while another is created.
        new = await service.create_game("cardavia", "beginner", "en", seat=Seat.S)
        assert {idle.game_id, new.game_id} <= set(service.held())
        for _ in range(3):
            await service.create_game("cardavia", "beginner", "en", seat=Seat.S)
        # Past the cache size the idle ones are dropped (they load again when asked for);
        # the ones in play stay.
        assert idle.game_id not in service.held()
        assert len(service.held()) <= len(busy) + CACHE
        assert sum(1 for t in service.held().values() if t.listeners) == len(busy)
        await service.close()
        store.close()

    asyncio.run(main())
