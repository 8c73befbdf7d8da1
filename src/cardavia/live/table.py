"""A game in play on this server (:class:`Table`): its match, who plays each seat, the
connections watching it and the task playing its computer seats; and the record it is saved
as (:func:`record_json`, :func:`restore_match`), brought up to date from the store when
another process moved it on (:func:`catch_up`)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from cardavia.ai.levels import level_version
from cardavia.belote import Match, Record, Seat
from cardavia.live.flows import SOLO, Again, TableFlow
from cardavia.live.logs import reason
from cardavia.live.outbox import Listener
from cardavia.live.protocol import ClientError
from cardavia.live.seating import Seating
from cardavia.live.shuffles import Commitment, commitment_of
from cardavia.store.db import GameStore, StoredGame, StoreUnavailableError, token_matches
from cardavia.store.events import apply_event, deal_seeds, event_seed

log = logging.getLogger(__name__)


class TableObserver(Protocol):
    """Whoever follows a table's game besides its own connections (a room, for its
    connections and its timers)."""

    def changed(self, table: Table) -> None:
        """Told of every change of the game, once it has been sent to the table's
        connections."""

    def stopped(self, table: Table, error: ClientError) -> None:
        """Told that the computer players stopped on an error (they start again at the next
        action or ``sync``): the table's connections have been sent ``error``."""


@dataclass(eq=False)
class Table:
    """A game in play on this server: the match, the lock that serialises its actions, who
    plays each seat (:attr:`seating`), the connections watching it and the task playing its
    computer seats. Mutable on purpose: it is the one place where the game moves on, under
    :attr:`lock`."""

    game_id: str
    level: str
    lang: str
    token_hash: str
    match: Match
    revision: int
    """Each seat's computer player (any seat may be handed to one)."""
    rng: random.Random
    seating: Seating
    """Who plays each seat: the table service reads it, its owner replaces it
    (:meth:`cardavia.live.tables.TableService.reseat`)."""
    token_seat: Seat | None
    """The seat the game's own token plays (the person's at a single-player table);
    ``None`` for a room's game, whose people hold the room's tokens."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    runner: asyncio.Task[None] | None = None
    commitments: dict[int, Commitment] = field(default_factory=dict)
    """Each deal's shuffle, by the deal's number (1 the first)."""
    client: str = ""
    """Whose work the computer players' decisions count against (the cap of
    :class:`cardavia.ai.budget.WorkBudget`): the client that created the game, or last
    connected to it."""
    observers: list[TableObserver] = field(default_factory=list)
    """Told of each change of the game (a room sends its views, deals the next deal after a
    delay)."""
    remembered: int = 0
    """When the service last opened it (its count of tables opened): the latest stay."""
    sealed_until: datetime | None = None
    """Until when a finished deal is shown only as its seat saw it — no other hand, seed nor
    deck (a tournament's deal: until the tournament closes); ``None``: never."""
    version: str = ""
    """The version of :attr:`level` the game was made with (a tournament's deal: its
    tournament's), kept with the game (``games.version``); empty: the level's current one
    (:attr:`players`)."""
    shared_until: datetime | None = None
    """Until when its computer players' decisions are shared with the other tables of the
    same deal (:mod:`cardavia.ai.shared`; a tournament's deal: until the tournament closes);
    ``None``: never."""
    flow: TableFlow = SOLO
    """What kind of table it is (:mod:`cardavia.live.flows`): what the end of a deal offers,
    whether a next deal or a hint is answered; given when the game is made or opened (a
    room's by the room, a tournament's deal by the tournament's tables)."""

    view_version: int = 0
    """How many times its views were sent anew (a change of the game, of who sits where):
    each view sent carries it, and a change says the one it follows (docs/web.md, "Changes
    as changes")."""

    def next_view_version(self) -> int:
        """The version of views about to be sent anew."""
        self.view_version += 1
        return self.view_version

    def is_sealed(self) -> bool:
        """Whether a finished deal is shown only as its seat saw it, now."""
        return self.sealed_until is not None and datetime.now(UTC) < self.sealed_until

    @property
    def players(self) -> str:
        """Who its computer seats are: :attr:`version`, or its level's current version."""
        return self.version or level_version(self.level)

    def person_plays(self, seat: Seat) -> bool:
        """Whether a person plays ``seat`` now (else a computer player does)."""
        return self.seating.person_plays(seat, time.time())

    @property
    def commitment(self) -> Commitment | None:
        """The current deal's shuffle (``None``: dealt before deals were committed to)."""
        return self.commitments.get(len(self.match.deals))

    @property
    def deck(self) -> str:
        """The deck whose names the table uses."""
        return self.match.rules.deck

    def token_matches(self, token: str | None) -> bool:
        """Whether ``token`` is this game's seat token."""
        return token_matches(self.token_hash, token)

    @property
    def is_idle(self) -> bool:
        """Nobody watching (no connection, no observer), nothing running: the table may be
        dropped from memory."""
        running = self.runner is not None and not self.runner.done()
        watched = self.listeners or self.observers
        return not watched and not running and not self.lock.locked()

    def may_play_again(self, seat: Seat | None, game: object) -> bool:
        """Whether the connection that plays ``seat`` may have the next game dealt after
        ``game`` (the one its page saw end): ``False`` if ``game`` is no longer this table's
        (asked already: nothing to do); :class:`ClientError` ``watching`` for a connection
        without this table's seat, ``game_not_over`` while its game is in play,
        ``match_over`` where the table's flow deals no new game (a tournament's deal: the
        tournament's next deal is the way on)."""
        if seat is None or seat is not self.token_seat:
            raise ClientError("watching")
        if self.flow.again is not Again.NEW_GAME:
            raise ClientError("match_over")
        if game != self.game_id:
            return False
        if not self.match.is_over:
            raise ClientError("game_not_over")
        return True

    def computer_to_move(self) -> Seat | None:
        """The computer seat to act now, or ``None`` (a person's turn, or the deal is
        over)."""
        deal = self.match.deal
        if deal.is_over or deal.to_move is None or self.person_plays(deal.to_move):
            return None
        return deal.to_move


@dataclass(frozen=True, slots=True)
class Seated:
    """What a table's message handler is given: the table and the connection it came on."""

    table: Table
    listener: Listener


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game just created: its id, the seat token that lets its player act (given once,
    never stored) and the seat it plays."""

    game_id: str
    token: str
    seat: str | None


def record_json(match: Match) -> str:
    """The record of a match as saved: JSON of :mod:`cardavia.belote.notation`."""
    return Record.from_match(match).to_json()


def restore_match(text: str) -> Match:
    """The match of a saved record, replayed through the engine."""
    return Record.from_json(text).replay()


def commitments_of(store: GameStore, stored: StoredGame, deals: int) -> dict[int, Commitment]:
    """The shuffles of a game of ``deals`` deals: the first deal's seed kept with the
    game, the later ones' in their events (blocking: a thread)."""
    found: dict[int, Commitment] = {}
    if stored.first_seed:
        found[1] = commitment_of(stored.first_seed)
    events = [text for _seq, text in store.events_since(stored.id, 0)]
    for number, seed in deal_seeds(events, deals).items():
        found[number] = commitment_of(seed)
    return found


async def catch_up(store: GameStore, table: Table) -> bool:
    """Bring ``table`` up to date: apply the events saved since its revision (by another
    process); reload the whole game should they not follow on. Answers whether anything
    changed."""
    try:
        events = await asyncio.to_thread(store.events_since, table.game_id, table.revision)
    except StoreUnavailableError as error:
        log.warning("game %s: the database is unavailable (%s)", table.game_id, reason(error))
        return False
    if not events:
        return False
    match, revision = table.match, table.revision
    try:
        for seq, text in events:
            if seq != revision + 1:
                raise ValueError(f"event {seq} after revision {revision}")
            match = apply_event(match, text)
            revision = seq
            seed = event_seed(text)
            if seed is not None:
                table.commitments[len(match.deals)] = commitment_of(seed)
    except Exception:
        log.warning("game %s: reloaded whole", table.game_id, exc_info=True)
        stored = await asyncio.to_thread(store.load, table.game_id)
        if stored is None:
            return False
        match = await asyncio.to_thread(restore_match, stored.record)
        revision = stored.revision
        table.commitments = await asyncio.to_thread(commitments_of, store, stored, len(match.deals))
    table.match, table.revision = match, revision
    return True


__all__ = [
    "NewGame",
    "Seated",
    "Table",
    "TableObserver",
    "catch_up",
    "commitments_of",
    "record_json",
    "restore_match",
]
