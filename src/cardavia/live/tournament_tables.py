"""The tournaments' tables (docs/tournaments.md): a tournament's deal is a single-deal game of
the table service, dealt from the tournament's seed (:class:`DealTablesOfService`), of the
tournament's flow (:data:`cardavia.live.flows.TOURNAMENT`: no hint, no next deal, no new
game), and played inside the tournament's window (:class:`TournamentTables`): no action once
it has closed, its finished deal sealed until the close.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from cardavia.live.flows import TableFlow
from cardavia.live.protocol import ClientError, Message
from cardavia.live.table import Seated, Table
from cardavia.live.tables import TableService
from cardavia.store.base import now
from cardavia.store.db import GameStore
from cardavia.tournaments.deals import PLAYER_SEAT
from cardavia.tournaments.service import Tournament, Tournaments, dealt


class DealTablesOfService:
    """The tournament deals' tables: single-deal games of the table service."""

    def __init__(
        self, service: TableService, *, on_deal: Callable[[], object] = lambda: None
    ) -> None:
        self.service = service
        self.on_deal = on_deal
        """Told when a deal is started here (a tournament may have been entered: the par's
        worker looks at once rather than on its next round)."""

    async def deal(self, tournament: Tournament, number: int, *, lang: str, client: str) -> str:
        """A new single-deal game dealt from deal ``number``'s seed and dealer, its computer
        players the tournament's version (the one it was made with), their decisions shared
        with the field's other tables until it closes."""
        self.on_deal()
        game = await self.service.create_game(
            tournament.preset,
            tournament.level,
            lang,
            seat=PLAYER_SEAT,
            target=None,
            dealt=dealt(tournament, number),
            client=client,
            version=tournament.players,
            flow=self.service.flows.tournament,
        )
        table = self.service.held().get(game.game_id)
        if table is not None:
            table.shared_until = tournament.closes_at
        return game.game_id

    def keyed(self, game_id: str, token_hash: str) -> None:
        """The game's seat was keyed to its player: so is its table held here."""
        table = self.service.held().get(game_id)
        if table is not None:
            table.token_hash = token_hash


KNOWN_TABLES: Final = 10_000
"""Games whose tournament (or none) a process remembers, the least recently asked forgotten."""


@dataclass(frozen=True, slots=True)
class DealWindow:
    """A tournament deal's table: its tournament, and when that tournament closes."""

    tournament_id: str
    closes_at: datetime


class TournamentTables:
    """Which games are tournament deals, and the window each is played in (docs/tournaments.md,
    "Fair play"). A tournament deal's table, opened, is given the tournament's flow (no hint:
    the field is ranked against computer players, and a hint is theirs; no next deal, no new
    game: :mod:`cardavia.live.flows`), and takes an action or a hint only while its
    tournament is open (``tournament_closed`` after: its seeds, so every hand, are public
    then). A game opened here is looked up once per process (it is a tournament's deal before
    its seat can be opened, and a tournament's close never moves); a table of another flow
    than the tournament's (the next game a single-player table deals over its socket) and a
    next deal never are (:meth:`check`).

    The rules of every table (:class:`~cardavia.live.table_messages.TableRules`), given to
    the table service when it is built: read from the store and the clock alone, so that
    they stand before the tournaments' service, whose deals that table service deals."""

    guarded: Final = ("action", "hint")
    """The kinds of message a tournament's deal may refuse (:meth:`check`)."""

    def __init__(
        self,
        store: GameStore,
        *,
        flow: TableFlow,
        clock: Callable[[], datetime] = now,
        size: int = KNOWN_TABLES,
    ) -> None:
        self.store = store
        self.deal_flow = flow
        """A tournament deal's flow (:data:`cardavia.live.flows.TOURNAMENT`), given to its
        table when opened."""
        self.clock = clock
        """Now, as the tournaments' service reads it (the same clock)."""
        self.size = size
        self._windows: OrderedDict[str, DealWindow | None] = OrderedDict()

    async def opened(self, table: Table) -> None:
        """A tournament deal's table, opened: its finished deal shows only what its seat saw
        until the tournament closes (no replay of the four hands, no seed, no deck), its
        computer players share their decisions with the field's other tables until then, and
        it plays the tournament's flow."""
        window = await self.window(table.game_id)
        table.sealed_until = None if window is None else window.closes_at
        table.shared_until = table.sealed_until
        if window is not None:
            table.flow = self.deal_flow

    async def is_sealed(self, game_id: str) -> bool:
        """Whether ``game_id`` is a deal of a tournament not yet closed (its analysis waits)."""
        return await asyncio.to_thread(Tournaments(self.store).sealed, game_id)

    async def window(self, game_id: str) -> DealWindow | None:
        """The window of the game's tournament (``None``: no tournament's deal)."""
        if game_id in self._windows:
            self._windows.move_to_end(game_id)
            return self._windows[game_id]
        found = await asyncio.to_thread(self._read, game_id)
        self.know(game_id, found)
        return found

    def know(self, game_id: str, window: DealWindow | None) -> None:
        """Remember the game's window (a deal dealt here is known at once)."""
        self._windows[game_id] = window
        self._windows.move_to_end(game_id)
        while len(self._windows) > self.size:
            self._windows.popitem(last=False)

    def _read(self, game_id: str) -> DealWindow | None:
        deal = self.store.tournaments.of_game(game_id)
        tournament = None if deal is None else Tournaments(self.store).get(deal.tournament_id)
        return None if tournament is None else DealWindow(tournament.id, tournament.closes_at)

    def is_closed(self, window: DealWindow) -> bool:
        """Whether the tournament of that window has closed (its ``closes_at`` is past)."""
        return self.clock() >= window.closes_at

    async def check(self, seated: Seated, message: Message) -> None:
        """Refuse what a tournament deal's table may not do now (see the class). A table of
        another flow is none: a tournament's deal has the tournament's flow from the moment
        it is dealt or opened (:meth:`opened`), so the game a single-player table deals next
        over its socket is never looked up."""
        if seated.table.flow is not self.deal_flow:
            return
        window = await self.window(seated.table.game_id)
        if window is not None and self.is_closed(window):
            raise ClientError("tournament_closed")


__all__ = ["KNOWN_TABLES", "DealTablesOfService", "DealWindow", "TournamentTables"]
