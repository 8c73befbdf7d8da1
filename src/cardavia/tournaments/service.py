"""The tournaments a player sees and plays (docs/tournaments.md, "Playing"): the scheduled
ones made ahead with fresh seeds and their commitments, a player's entry, each deal started
once (one attempt: the unique row; a deal started and left is resumed, never dealt again),
its result written when it is over, and the player's progress.

A tournament deal is a single-deal game of the site's table service, dealt from the
tournament's seed for that deal (:class:`DealTables` makes it: the web layer's). Its seat
token is not a random one given once but :func:`seat_token`: an HMAC keyed by the deal's
secret seed over the game and the player, so that the same player finds it again from any
device (their cookie or a passkey sign-in names them), and nobody else can.

The result is read from the game's record (:func:`settle`): whenever the player's progress
is asked for, and before the tournament closes, every deal started and not yet written is
looked at; a deal over is written once. So no process has to be told when a deal ends, and a
restart loses nothing.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, Protocol

from cardavia.ai.levels import level_version, version_level
from cardavia.belote import Record, Seat
from cardavia.store.base import hash_token, now
from cardavia.store.db import GameStore
from cardavia.store.tournaments import PENDING, StoredDeal, StoredTournament
from cardavia.tournaments.deals import PLAYER_SEAT, commitments, dealer_of, new_seeds, result_of
from cardavia.tournaments.schedule import LEVEL, Planned, planned
from cardavia.tournaments.scoring import matchpoints

log = logging.getLogger(__name__)

NOT_STARTED: Final = "todo"
PLAYING: Final = "playing"
DONE: Final = "done"
CLAIM_WAIT: Final = 20.0
"""Seconds a start waits for the game another request is dealing for the same deal."""
CLAIM_POLL: Final = 0.05
"""Seconds between two looks at a deal being dealt by another request."""
STALE_CLAIM: Final = timedelta(minutes=1)
"""How old a deal's row still without its game is when it is taken over (the request that
took it died while dealing: dealing takes a fraction of a second)."""


class NotPlayableError(ValueError):
    """The deal cannot be played: the tournament is unknown, not open, or has no such deal."""


class DealingError(RuntimeError):
    """Another request has been dealing the same deal for too long: try again."""


class DealTables(Protocol):
    """What makes a tournament deal's table (the web layer's table service)."""

    async def deal(self, tournament: Tournament, number: int, *, lang: str, client: str) -> str:
        """A new single-deal game of ``tournament``'s preset and level, dealt from deal
        ``number``'s seed and dealer, the person at :data:`PLAYER_SEAT`: its id."""

    def keyed(self, game_id: str, token_hash: str) -> None:
        """The game's seat was given the token of that hash (:func:`seat_token`): the table
        held in memory, if any, takes it too."""


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as the site shows it: the seeds only once it has closed."""

    id: str
    kind: str
    preset: str
    level: str
    version: str
    deals: int
    opens_at: datetime
    closes_at: datetime
    commitments: tuple[str, ...]
    closed_at: datetime | None
    secret: tuple[str, ...]
    """The seeds, hexadecimal: for the service only while open (:meth:`seeds`)."""

    @classmethod
    def of(cls, stored: StoredTournament) -> Tournament:
        """The tournament of a stored row."""
        return cls(
            stored.id,
            stored.kind,
            stored.preset,
            stored.level,
            stored.version,
            stored.deals,
            stored.opens_at,
            stored.closes_at,
            tuple(json.loads(stored.commitments)),
            stored.closed_at,
            tuple(json.loads(stored.seeds)),
        )

    @property
    def players(self) -> str:
        """Who its computer seats are, at every table and in its par, from its making to its
        close: the version it was made with (a tournament made before its level's new
        version plays the former one), or its level's own should this code no longer have
        that version (logged: a version is kept while a tournament made with it is open)."""
        try:
            version_level(self.version)
        except ValueError:
            log.warning(
                "tournament %s: version %s unknown, played by %s", self.id, self.version, self.level
            )
            return self.level
        return self.version

    @property
    def closed(self) -> bool:
        """Whether it has been closed (ranked): its results and seeds are public."""
        return self.closed_at is not None

    def is_open(self, moment: datetime) -> bool:
        """Whether its deals may be played at ``moment``."""
        return self.opens_at <= moment < self.closes_at and not self.closed

    def seed(self, number: int) -> bytes:
        """The secret seed of deal ``number``."""
        return bytes.fromhex(self.secret[number - 1])

    @property
    def seeds(self) -> tuple[str, ...] | None:
        """The seeds, revealed once it has closed (``None`` before)."""
        return self.secret if self.closed else None


@dataclass(frozen=True, slots=True)
class DealProgress:
    """Where a player stands on one deal: not started, in play, or over (its result)."""

    number: int
    state: str
    game_id: str | None = None
    margin: int | None = None
    score_us: int | None = None
    score_them: int | None = None
    contract: str | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    """A player's progress in a tournament, deal by deal."""

    entered: bool
    deals: tuple[DealProgress, ...]

    @property
    def played(self) -> int:
        """How many deals are over."""
        return sum(deal.state == DONE for deal in self.deals)

    @property
    def finished(self) -> bool:
        """Whether every deal is over."""
        return bool(self.deals) and self.played == len(self.deals)

    @property
    def next_number(self) -> int | None:
        """The deal to play or resume next (``None``: all over)."""
        for deal in self.deals:
            if deal.state != DONE:
                return deal.number
        return None


@dataclass(frozen=True, slots=True)
class DealSeat:
    """A player's seat at a tournament deal: the game and its seat token."""

    game_id: str
    token: str


def seat_token(tournament: Tournament, number: int, game_id: str, player_id: str) -> str:
    """The seat token of ``player_id`` at the game of deal ``number``: an HMAC-SHA256 keyed
    by the deal's secret seed over the game and the player (both never shown to others)."""
    message = f"tournament-seat:{game_id}:{player_id}".encode()
    return hmac.new(tournament.seed(number), message, "sha256").hexdigest()


def settle(store: GameStore, deal: StoredDeal, moment: datetime | None = None) -> bool:
    """Write the result of a deal started and not yet written, if its game's first deal is
    over (all four passing: margin 0, contract ``pass``) and its tournament has not closed
    (:meth:`~cardavia.store.tournaments.TournamentStore.finish_deal` refuses it then: a deal
    played on after closing, its hands public, is no result); answers whether it was
    written."""
    if deal.finished_at is not None:
        return False
    stored = store.load(deal.game_id)
    if stored is None:
        return False
    match = Record.from_json(stored.record).replay()
    first = match.deals[0]
    if not first.is_over:
        return False
    result = result_of(first, PLAYER_SEAT.team)
    return store.tournaments.finish_deal(
        deal.game_id,
        margin=result.margin,
        score_us=result.score_us,
        score_them=result.score_them,
        contract=result.contract,
        moment=moment or now(),
    )


@dataclass(frozen=True, slots=True)
class SoFar:
    """A deal the player finished, against those who finished it before them (while the
    tournament is open): their margin from the seat, the par's (``None``: not worked out
    yet), how many others finished it, and the share of them the player did better than, in
    percent (a tie counts half; ``None`` with nobody before)."""

    margin: int
    par: int | None
    others: int
    better: int | None


class Tournaments:
    """The tournaments in the store: made, entered, played (blocking calls but
    :meth:`start`, which makes a table: the site runs them in a worker thread)."""

    def __init__(
        self,
        store: GameStore,
        tables: DealTables | None = None,
        *,
        clock: Callable[[], datetime] = now,
        level: str = LEVEL,
    ) -> None:
        self.store = store
        self.tables = tables
        self.clock = clock
        self.level = level

    # -- making them --

    def make(self, plan: Planned) -> bool:
        """Make one tournament with fresh seeds and their commitments (``False``: it exists,
        made by this process or another)."""
        seeds = new_seeds(plan.deals)
        values: dict[str, object] = {
            "id": plan.id,
            "kind": plan.kind,
            "preset": plan.preset,
            "level": self.level,
            "version": level_version(self.level),
            "deals": plan.deals,
            "opens_at": plan.opens_at,
            "closes_at": plan.closes_at,
            "seeds": json.dumps([seed.hex() for seed in seeds]),
            "commitments": json.dumps(commitments(seeds)),
            "created_at": self.clock(),
            "closed_at": None,
        }
        return self.store.tournaments.create(values)

    def make_upcoming(self, moment: datetime | None = None) -> list[str]:
        """Make the tournaments the schedule calls for at ``moment`` (now) that do not exist
        yet; answers the ids made here."""
        plans = planned(moment or self.clock())
        existing = self.store.tournaments.existing([plan.id for plan in plans])
        return [plan.id for plan in plans if plan.id not in existing and self.make(plan)]

    # -- reading them --

    def get(self, tournament_id: str) -> Tournament | None:
        """The tournament of that id, or ``None``."""
        stored = self.store.tournaments.load(tournament_id)
        return None if stored is None else Tournament.of(stored)

    def open_now(self) -> list[Tournament]:
        """The tournaments open now, closing first."""
        return [Tournament.of(row) for row in self.store.tournaments.open_at(self.clock())]

    def closed_lately(self, limit: int = 10) -> list[Tournament]:
        """The tournaments closed last, the latest first."""
        return [Tournament.of(row) for row in self.store.tournaments.closed_lately(limit)]

    def progress(self, tournament: Tournament, player_id: str) -> Progress:
        """The player's progress, each deal in play looked at first (a deal over since is
        written)."""
        entered = self.store.tournaments.entry(tournament.id, player_id) is not None
        started = self.store.tournaments.deals_of(tournament.id, player_id)
        unwritten = [] if tournament.closed else started  # closed: its results are final
        if sum(settle(self.store, deal, self.clock()) for deal in unwritten):
            started = self.store.tournaments.deals_of(tournament.id, player_id)
        by_number = {deal.number: deal for deal in started}
        deals = []
        for number in range(1, tournament.deals + 1):
            deal = by_number.get(number)
            if deal is None:
                deals.append(DealProgress(number, NOT_STARTED))
            elif deal.finished_at is None:
                deals.append(DealProgress(number, PLAYING, deal.game_id))
            else:
                deals.append(
                    DealProgress(
                        number,
                        DONE,
                        deal.game_id,
                        deal.margin,
                        deal.score_us,
                        deal.score_them,
                        deal.contract,
                    )
                )
        return Progress(entered, tuple(deals))

    def so_far(self, tournament: Tournament, number: int, player_id: str) -> SoFar | None:
        """The player's result on deal ``number`` against the results of those who
        finished it before (results only: no hand, no contract of theirs), and the par if
        worked out; ``None`` while their deal is not over (written first if it just ended),
        or once the tournament has closed (its comparison page says it all then)."""
        deal = self.store.tournaments.deal(tournament.id, number, player_id)
        if deal is None or tournament.closed:
            return None
        if deal.finished_at is None:
            if not settle(self.store, deal, self.clock()):
                return None
            deal = self.store.tournaments.deal(tournament.id, number, player_id)
        if deal is None or deal.margin is None:
            return None
        others = [
            other.margin
            for other in self.store.tournaments.finished_of(tournament.id, number)
            if other.player_id != player_id and other.margin is not None
        ]
        par = self.store.tournaments.pars(tournament.id).get(number)
        better = None
        if others:
            better = round(100 * matchpoints(deal.margin, others) / len(others))
        return SoFar(deal.margin, None if par is None else par.margin, len(others), better)

    def ranks(self, tournament: Tournament, player_id: str) -> bool:
        """Whether the player's entry would be ranked: they hold a passkey that existed when
        the tournament opened (the closing's rule: a second account made after a first one
        saw the deals plays unranked)."""
        held = self.store.passkeys.of_player(player_id)
        return any(passkey.created_at <= tournament.opens_at for passkey in held)

    def deal_of(self, game_id: str) -> tuple[Tournament, int] | None:
        """The tournament whose deal was played at ``game_id`` and that deal's number, or
        ``None`` (not a tournament's deal): what My games and a shared link name it by."""
        deal = self.store.tournaments.of_game(game_id)
        tournament = None if deal is None else self.get(deal.tournament_id)
        return None if deal is None or tournament is None else (tournament, deal.number)

    def sealed(self, game_id: str) -> bool:
        """Whether ``game_id`` is a deal of a tournament not yet closed: its record, replay,
        analysis, shared link and seed are then its player's alone."""
        deal = self.store.tournaments.of_game(game_id)
        if deal is None:
            return False
        tournament = self.get(deal.tournament_id)
        return tournament is not None and not tournament.closed

    # -- playing them --

    def playable(self, tournament_id: str, number: int) -> Tournament:
        """The tournament, open now and with a deal ``number`` (:class:`NotPlayableError`
        otherwise: nothing is written for a deal that cannot be played)."""
        tournament = self.get(tournament_id)
        if tournament is None or not tournament.is_open(self.clock()):
            raise NotPlayableError(tournament_id)
        if not 1 <= number <= tournament.deals:
            raise NotPlayableError(f"{tournament_id} {number}")
        return tournament

    def enter(self, tournament_id: str, player_id: str, *, number: int = 1) -> Tournament:
        """Enter the player in an open tournament to play deal ``number``
        (:class:`NotPlayableError`, and no entry, when it cannot be played)."""
        tournament = self.playable(tournament_id, number)
        self.store.tournaments.enter(tournament_id, player_id, self.clock())
        return tournament

    def seat(self, tournament: Tournament, deal: StoredDeal) -> DealSeat:
        """The player's seat at a deal they started."""
        token = seat_token(tournament, deal.number, deal.game_id, deal.player_id)
        return DealSeat(deal.game_id, token)

    def resume(self, tournament_id: str, number: int, player_id: str) -> DealSeat | None:
        """The player's seat at deal ``number``, started before (``None``: not started, being
        dealt, or the tournament or the deal is unknown)."""
        tournament = self.get(tournament_id)
        if tournament is None or not 1 <= number <= tournament.deals:
            return None
        deal = self.store.tournaments.deal(tournament_id, number, player_id)
        if deal is None or deal.game_id == PENDING:
            return None
        return self.seat(tournament, deal)

    async def start(
        self, tournament_id: str, number: int, player_id: str, *, lang: str, client: str = ""
    ) -> DealSeat:
        """Start deal ``number`` for the player (entering them first), or reopen it if they
        started it already: one attempt per deal, never dealt twice. The deal's row is taken
        before its game is dealt (:meth:`~cardavia.store.tournaments.TournamentStore.
        claim_deal`): of simultaneous starts, one deals and the others wait for its game
        (:data:`CLAIM_WAIT` at most: :class:`DealingError`). A claim left by a request that
        died while dealing is taken over after :data:`STALE_CLAIM`. The seat token is keyed
        to the player (:func:`seat_token`)."""
        enter = functools.partial(self.enter, tournament_id, player_id, number=number)
        tournament = await asyncio.to_thread(enter)
        store = self.store.tournaments
        waited = 0.0
        while True:
            found = await asyncio.to_thread(store.deal, tournament_id, number, player_id)
            if found is None:
                claim = functools.partial(
                    store.claim_deal, tournament_id, number, player_id, self.clock(), client
                )
            elif found.game_id == PENDING:  # another request is dealing it
                claim = functools.partial(
                    store.retake_claim,
                    tournament_id,
                    number,
                    player_id,
                    stale_before=self.clock() - STALE_CLAIM,
                    moment=self.clock(),
                )
            else:
                return self.seat(tournament, found)
            if await asyncio.to_thread(claim):
                return await self._deal(tournament, number, player_id, lang=lang, client=client)
            if waited >= CLAIM_WAIT:
                raise DealingError(f"{tournament_id} {number}")
            await asyncio.sleep(CLAIM_POLL)
            waited += CLAIM_POLL

    async def _deal(
        self, tournament: Tournament, number: int, player_id: str, *, lang: str, client: str
    ) -> DealSeat:
        """Deal the game of a deal whose row this request has taken, key its seat to the
        player, then name it in the row (a game that cannot be dealt gives the row back)."""
        store, tables = self.store.tournaments, self.tables
        try:
            if tables is None:
                raise NotPlayableError("no tables")
            game_id = await tables.deal(tournament, number, lang=lang, client=client)
        except BaseException:
            await asyncio.to_thread(store.release_claim, tournament.id, number, player_id)
            raise
        token = seat_token(tournament, number, game_id, player_id)
        await asyncio.to_thread(store.key_seat, game_id, hash_token(token))
        tables.keyed(game_id, hash_token(token))
        deal = await asyncio.to_thread(
            store.deal_claimed, tournament.id, number, player_id, game_id
        )
        if deal.game_id != game_id:
            log.warning("tournament %s deal %d: a late game left unused", tournament.id, number)
        return self.seat(tournament, deal)

    def settle_all(self, tournament_id: str) -> int:
        """Write the result of every deal of the tournament over and not yet written (before
        it closes); answers how many were."""
        unfinished = self.store.tournaments.unfinished(tournament_id)
        return sum(settle(self.store, deal, self.clock()) for deal in unfinished)


def dealt(tournament: Tournament, number: int) -> tuple[bytes, Seat]:
    """What deal ``number``'s table is dealt from: its seed and its dealer."""
    return tournament.seed(number), dealer_of(number)


__all__ = [
    "CLAIM_POLL",
    "CLAIM_WAIT",
    "DONE",
    "NOT_STARTED",
    "PLAYING",
    "STALE_CLAIM",
    "DealProgress",
    "DealSeat",
    "DealTables",
    "DealingError",
    "NotPlayableError",
    "Progress",
    "SoFar",
    "Tournament",
    "Tournaments",
    "dealt",
    "seat_token",
    "settle",
]
