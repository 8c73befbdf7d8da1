"""The game server's upkeep, in the background for the process's life: the abandoned games
and idle rooms purged, the guests long unseen erased (docs/fair-use.md; docs/players.md, "The
guest"), and the tables and rooms in play counted for the metrics."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Final

from cardavia.live.logs import reason
from cardavia.live.protocol import ClientError
from cardavia.live.rooms import RoomService
from cardavia.live.tables import TableService
from cardavia.live.writer import GameWriter
from cardavia.metrics import in_play
from cardavia.store.db import GameStore, StoreUnavailableError

log = logging.getLogger(__name__)

PURGE_INTERVAL: Final = 3600.0
"""Seconds between two purges of abandoned games."""
IN_PLAY_INTERVAL: Final = 5.0
"""Seconds between two counts of the tables and rooms in play (:mod:`cardavia.metrics`)."""


async def purge_abandoned_games(
    store: GameStore,
    days: float,
    rooms: Callable[[], Awaitable[int]] | None = None,
    *,
    writer: GameWriter | None = None,
    guests_kept: timedelta | None = None,
) -> None:
    """Delete the unfinished games idle for ``days`` (0: never), at start then every hour;
    finished games are kept (docs/fair-use.md). ``rooms``: close the rooms nobody
    has been at for a day (:meth:`cardavia.live.rooms.RoomService.purge`) too. Guests not seen
    for ``guests_kept`` (their cookie's life, past which no browser holds their token) are
    erased (docs/players.md, "The guest"). The deletions are the site's writes: in
    ``writer``'s thread when given (the one that writes the games, which the site's stop
    waits for: a purge under way never outlives the store)."""
    write = writer.call if writer is not None else asyncio.to_thread
    while True:
        try:
            if days > 0:
                count = await write(store.purge_abandoned, timedelta(days=days))
                if count:
                    log.info("%d abandoned games deleted (unfinished, idle %g days)", count, days)
            if rooms is not None:
                closed = await rooms()
                if closed:
                    log.info("%d rooms closed (nobody there for a day)", closed)
            if guests_kept is not None:
                guests = await write(store.players.purge_guests, guests_kept)
                if guests:
                    log.info("%d guests erased (not seen since their cookie ran out)", guests)
        except (StoreUnavailableError, ClientError) as error:
            log.warning("abandoned games could not be deleted (%s)", reason(error))
        except Exception:
            log.warning("abandoned games could not be deleted", exc_info=True)
        if days <= 0 and rooms is None:
            return
        await asyncio.sleep(PURGE_INTERVAL)


async def count_in_play(service: TableService, rooms: RoomService) -> None:
    """Tell the metrics the tables and rooms open here, every :data:`IN_PLAY_INTERVAL`."""
    while True:
        in_play(service.in_play, len(rooms.rooms))
        await asyncio.sleep(IN_PLAY_INTERVAL)


__all__ = ["IN_PLAY_INTERVAL", "PURGE_INTERVAL", "count_in_play", "purge_abandoned_games"]
