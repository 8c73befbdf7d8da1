"""The tournaments on the site (docs/tournaments.md): their tables (a single-deal game of the
table service, dealt from the tournament's seed), the scheduler (the site's own loop: the
next tournaments made, the due ones closed, every minute; the state is the database's, so a
restart or several processes change nothing), and what the pages show (:class:`Pages`).

What a tournament deal gives away stays its player's while the tournament is open: its
shared link is refused (:meth:`~cardavia.web.history.History.shared` asks
:meth:`~cardavia.tournaments.service.Tournaments.sealed`), the others' results are shown
only once the tournament has closed, or to a player who has finished it, and the seeds only
after closing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final
from urllib.parse import urlencode

from fastapi import FastAPI

from cardavia.belote import Action, Observation, card_code
from cardavia.store.base import now
from cardavia.store.db import StoreUnavailableError
from cardavia.tournaments import standings
from cardavia.tournaments.closing import close_due
from cardavia.tournaments.deals import PLAYER_SEAT
from cardavia.tournaments.par import Decide, compute, next_missing
from cardavia.tournaments.service import Progress, Tournament, Tournaments, dealt
from cardavia.web.history import share_code
from cardavia.web.logs import reason
from cardavia.web.protocol import ClientError, Message
from cardavia.web.shuffles import new_commitment
from cardavia.web.table import Seated, Table
from cardavia.web.tables import TableService
from cardavia.words import N_, Wording

log = logging.getLogger(__name__)

SCHEDULE_INTERVAL: Final = 60.0
"""Seconds between two rounds of the scheduler."""
RANKING_SIZE: Final = 50
"""Lines on a page of a tournament's ranking."""


class DealTablesOfService:
    """The tournament deals' tables: single-deal games of the table service."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.on_deal: Callable[[], object] = lambda: None
        """Told when a deal is started here (a tournament may have been entered: the par's
        worker looks at once rather than on its next round)."""

    async def deal(self, tournament: Tournament, number: int, *, lang: str, client: str) -> str:
        """A new single-deal game dealt from deal ``number``'s seed and dealer."""
        self.on_deal()
        game = await self.service.create_game(
            tournament.preset,
            tournament.level,
            lang,
            seat=PLAYER_SEAT,
            target=None,
            dealt=dealt(tournament, number),
            client=client,
        )
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
    "Fair play"). A tournament deal's table takes actions only while its tournament is open
    (``tournament_closed`` after: its seeds, so every hand, are public then), never answers a
    hint (``tournament_no_hints``: the field is ranked against computer players, and a hint is
    theirs), and deals no next deal (``match_over``). Each game is looked up once per process
    (it is a tournament's deal before its seat can be opened, and a tournament's close never
    moves), so that the other tables' messages cost nothing after their first."""

    def __init__(self, tournaments: Tournaments, *, size: int = KNOWN_TABLES) -> None:
        self.tournaments = tournaments
        self.size = size
        self._windows: OrderedDict[str, DealWindow | None] = OrderedDict()

    def install(self, service: TableService) -> None:
        """Guard the table service's messages (a room's, which include them, too), and seal
        each tournament deal's table it opens."""
        service.messages.guard(("action", "hint", "next_deal"), self._check)
        service.opening = self.seal

    async def seal(self, table: Table) -> None:
        """A tournament deal's table, opened: its finished deal shows only what its seat saw
        until the tournament closes (no replay of the four hands, no seed, no deck)."""
        window = await self.window(table.game_id)
        table.sealed_until = None if window is None else window.closes_at

    async def is_sealed(self, game_id: str) -> bool:
        """Whether ``game_id`` is a deal of a tournament not yet closed (its analysis waits)."""
        return await asyncio.to_thread(self.tournaments.sealed, game_id)

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
        deal = self.tournaments.store.tournaments.of_game(game_id)
        tournament = None if deal is None else self.tournaments.get(deal.tournament_id)
        return None if tournament is None else DealWindow(tournament.id, tournament.closes_at)

    def is_closed(self, window: DealWindow) -> bool:
        """Whether the tournament of that window has closed (its ``closes_at`` is past)."""
        return self.tournaments.clock() >= window.closes_at

    async def _check(self, seated: Seated, message: Message) -> None:
        window = await self.window(seated.table.game_id)
        if window is None:
            return
        if message.kind == "next_deal":
            raise ClientError("match_over")
        if self.is_closed(window):
            raise ClientError("tournament_closed")
        if message.kind == "hint":
            raise ClientError("tournament_no_hints")


async def run_schedule(
    tournaments: Tournaments,
    stop: asyncio.Event,
    *,
    interval: float = SCHEDULE_INTERVAL,
    clock: Callable[[], datetime] = now,
) -> None:
    """The scheduler: at start, then every ``interval`` seconds until ``stop``, make the
    tournaments the schedule calls for and close the due ones (in a worker thread;
    idempotent). Its work is never cut short: the site's stop waits for the round under way,
    so that no write outlives the store."""
    while not stop.is_set():
        try:
            moment = clock()
            made = await asyncio.to_thread(tournaments.make_upcoming, moment)
            closed = await asyncio.to_thread(close_due, tournaments.store, now=moment)
            if made or closed:
                log.info("tournaments made: %s; closed: %s", made, closed)
        except StoreUnavailableError as error:
            log.warning("the tournaments' schedule could not run (%s)", reason(error))
        except Exception:
            log.warning("the tournaments' schedule failed", exc_info=True)
        await pause(stop, interval)


async def pause(stop: asyncio.Event, seconds: float, wake: asyncio.Event | None = None) -> None:
    """Wait ``seconds``, or less if ``stop`` (or ``wake``) is set meanwhile."""
    events = (stop,) if wake is None else (stop, wake)
    waits = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in waits:
            waiting.cancel()


PAR_PAUSE: Final = 30.0
"""Seconds the par's worker waits when every par is known (or after a failure)."""


async def work_out_pars(
    tournaments: Tournaments,
    decide: Decide,
    stop: asyncio.Event,
    wake: asyncio.Event | None = None,
) -> None:
    """The par of every deal of the tournaments not yet closed, one deal at a time, in the
    background until ``stop`` (:mod:`cardavia.tournaments.par`); the deal under way is
    finished first. With every par known it looks again after :data:`PAR_PAUSE`, or at once
    when ``wake`` is set (a deal started in this process: a first player may have entered)."""
    while not stop.is_set():
        if wake is not None:
            wake.clear()  # before looking: a deal started from now on wakes the next pause
        try:
            missing = await asyncio.to_thread(next_missing, tournaments.store)
            if missing is not None:
                await compute(tournaments.store, missing, decide)
                continue
        except StoreUnavailableError as error:
            log.warning("a tournament's par could not be worked out (%s)", reason(error))
        except Exception:
            log.warning("a tournament's par could not be worked out", exc_info=True)
        await pause(stop, PAR_PAUSE, wake)


def decide_with(service: TableService) -> Decide:
    """The par's computer players: the table service's (:class:`~cardavia.ai.decisions.
    Decisions`: the lane of their level, on this process's cores or the AI workers)."""

    async def decide(level: str, observation: Observation, seed: int) -> Action:
        return await service.decisions.decide(level, observation, seed, client="tournament-par")

    return decide


def keep_scheduling(
    app: FastAPI,
    tournaments: Tournaments,
    interval: float = SCHEDULE_INTERVAL,
    decide: Decide | None = None,
    tables: DealTablesOfService | None = None,
) -> None:
    """Run the scheduler (and, given ``decide``, the par's worker, woken when ``tables``
    deals a tournament's deal) for the site's life, inside the rest of it."""
    outer = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def with_schedule(app: FastAPI) -> AsyncIterator[None]:
        async with outer(app):
            stop = asyncio.Event()
            tasks = [asyncio.create_task(run_schedule(tournaments, stop, interval=interval))]
            if decide is not None:
                wake = asyncio.Event()
                if tables is not None:
                    tables.on_deal = wake.set
                work = work_out_pars(tournaments, decide, stop, wake)
                tasks.append(asyncio.create_task(work))
            yield
            stop.set()  # each ends its round: a write in a thread is never left running
            await asyncio.gather(*tasks, return_exceptions=True)

    app.router.lifespan_context = with_schedule


@dataclass(frozen=True, slots=True)
class Pages:
    """What the tournaments' pages show, read from the store (blocking: a worker thread)."""

    tournaments: Tournaments

    def listing(self, player_id: str | None) -> dict[str, Any]:
        """The open tournaments with the player's progress, and the ones closed lately."""
        service = self.tournaments
        opened = [self.summary(tournament, player_id) for tournament in service.open_now()]
        closed = [self.summary(tournament, None) for tournament in service.closed_lately()]
        return {"open": opened, "closed": closed, "now": service.clock()}

    def summary(self, tournament: Tournament, player_id: str | None) -> dict[str, Any]:
        """A tournament as a line of the list."""
        progress = None
        if player_id is not None:
            progress = self.tournaments.progress(tournament, player_id)
        return {"t": tournament, "progress": progress}

    def tournament(
        self, tournament: Tournament, player_id: str | None, page: int, lang: str
    ) -> dict[str, Any]:
        """A tournament's page: its deals, the player's, and the ranking when it shows."""
        progress, ranked_here = None, None
        if player_id is not None:
            progress = self.tournaments.progress(tournament, player_id)
            if not tournament.closed:
                ranked_here = self.tournaments.ranks(tournament, player_id)
        context: dict[str, Any] = {
            "t": tournament,
            "progress": progress,
            "ranked_here": ranked_here,
            "open": tournament.is_open(self.tournaments.clock()),
            "results_shown": results_shown(tournament, progress),
            "seeds": self.seeds(tournament, lang),
            "ranking": None,
            "placing": None,
            "entries": self.tournaments.store.tournaments.entries(tournament.id),
        }
        if tournament.closed:
            context["ranking"] = standings.ranking(
                self.tournaments.store, tournament.id, page=page, size=RANKING_SIZE
            )
            if player_id is not None:
                context["placing"] = standings.place_of(
                    self.tournaments.store, tournament.id, player_id, size=RANKING_SIZE
                )
        return context

    @staticmethod
    def seeds(tournament: Tournament, lang: str) -> list[dict[str, Any]]:
        """Each deal's commitment, and once closed its seed and the link that checks it."""
        found = []
        for number, committed in enumerate(tournament.commitments, start=1):
            line: dict[str, Any] = {"number": number, "hash": committed, "seed": None}
            if tournament.seeds is not None:
                seed = tournament.seeds[number - 1]
                commitment, deck = new_commitment(bytes.fromhex(seed))
                query = {
                    "seed": commitment.seed,
                    "hash": commitment.hash,
                    "deck": " ".join(card_code(card) for card in deck),
                }
                line["seed"] = seed
                line["check"] = f"/{lang}/rules/fairness?{urlencode(query)}"
            found.append(line)
        return found

    def comparison(
        self, tournament: Tournament, number: int, player_id: str | None
    ) -> dict[str, Any] | None:
        """Deal ``number`` against the field (``None``: not to be shown to this reader yet)."""
        progress = None
        if player_id is not None:
            progress = self.tournaments.progress(tournament, player_id)
        if not results_shown(tournament, progress):
            return None
        store = self.tournaments.store
        mine = None if progress is None else progress.deals[number - 1]
        field = standings.deal_field(store, tournament.id, number)
        best: list[str] = []
        if tournament.closed:
            for game_id in standings.best_results(store, tournament.id, number):
                stored = store.load(game_id)
                if stored is not None:
                    best.append(share_code(stored, 1))
        pars = store.tournaments.pars(tournament.id)
        return {
            "t": tournament,
            "number": number,
            "mine": mine,
            "field": field,
            "best": best,
            "par": pars.get(number),
        }


CONTRACT_WORDS: Final = {
    "coinche": N_("Coinche"),
    "surcoinche": N_("Surcoinche"),
    "capot": N_("Capot"),
    "generale": N_("Générale"),
}
PASSED: Final = N_("Everybody passed")
SAID: Final = N_("{seat}: {bid}")


def contract_words(code: str | None, wording: Wording, deck: str | None = None) -> str:
    """A contract of :func:`~cardavia.tournaments.deals.contract_code` in the reader's words:
    ``S 110 H coinche`` → "South: 110 hearts · Coinche"; ``pass`` → "Everybody passed"."""
    if code is None:
        return ""
    if code == "pass":
        return wording.gettext(PASSED)
    seat, *rest = code.split()
    doubled = [
        wording.gettext(CONTRACT_WORDS[word]) for word in rest if word in ("coinche", "surcoinche")
    ]
    said = [word for word in rest if word not in ("coinche", "surcoinche")]
    strain = wording.strain(said[-1], deck) if said else ""
    value = [
        wording.gettext(CONTRACT_WORDS[word]) if word in CONTRACT_WORDS else word
        for word in said[:-1]
    ]
    bid = " ".join([*value, strain])
    said_by = wording.gettext(SAID, seat=wording.seat(seat), bid=bid)
    return " · ".join([said_by, *doubled])


def results_shown(tournament: Tournament, progress: Progress | None) -> bool:
    """Whether the others' results may be shown: once the tournament has closed, or to a
    player who has finished it."""
    return tournament.closed or (progress is not None and progress.finished)


__all__ = [
    "CONTRACT_WORDS",
    "KNOWN_TABLES",
    "PAR_PAUSE",
    "PASSED",
    "RANKING_SIZE",
    "SAID",
    "SCHEDULE_INTERVAL",
    "DealTablesOfService",
    "DealWindow",
    "Pages",
    "TournamentTables",
    "contract_words",
    "decide_with",
    "keep_scheduling",
    "results_shown",
    "run_schedule",
    "work_out_pars",
]
