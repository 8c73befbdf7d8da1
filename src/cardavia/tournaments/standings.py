"""A tournament's standings in the store (docs/tournaments.md, "Scoring"): closing it —
every deal scored against its field and every entry ranked, by
:mod:`~cardavia.tournaments.scoring`'s arithmetic, written by the store's ``standings`` in one
transaction — then the ranking by pages, a player's own place, a deal's field and its best
results.

These reads answer what the store holds, to whoever asks: hiding the others' results until
the tournament closes (or until the player has finished the deal, for their own comparison)
is the pages' to do. :func:`ranking`, :func:`place_of` and :func:`best_results` have nothing
to say before closing (no entry is placed or ranked then); :func:`deal_field` counts the
results at any time, their percentages from closing on.

>>> from datetime import UTC, datetime
>>> from cardavia.store.db import GameStore
>>> store = GameStore("sqlite://")
>>> close(store, "daily-coinche-20261202", now=datetime.now(UTC))
False
>>> ranking(store, "daily-coinche-20261202", page=1)
RankingPage(page=1, size=50, total=0, lines=())
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from cardavia.store.db import GameStore
from cardavia.store.standings import ClosingField, EntryStanding, Ranked, RankingLine
from cardavia.tournaments.scoring import UNPLAYED, against_par, standings

PAGE_SIZE: Final = 50
"""A ranking page's lines, unless asked otherwise."""


@dataclass(frozen=True, slots=True)
class RankingPage:
    """One page of a closed tournament's ranking (pages from 1), and how many ranked
    entries there are in all."""

    page: int
    size: int
    total: int
    lines: tuple[RankingLine, ...]

    @property
    def pages(self) -> int:
        """How many pages the whole ranking takes (at least one, empty)."""
        return max(1, -(-self.total // self.size))


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's own standing in a closed tournament: their score and, when ranked,
    their place and the ranking's page it is on (a guest has a score, no place)."""

    percent: float
    ranked: bool
    place: int | None
    page: int | None


@dataclass(frozen=True, slots=True)
class ContractCount:
    """A contract of the field (``pass``: all four passed) and how many results had it."""

    contract: str
    count: int


@dataclass(frozen=True, slots=True)
class MarginCount:
    """A margin of the field, how many results had it, its percentage (``None`` before
    closing) and the margin against the par (``None`` without a par)."""

    margin: int
    count: int
    percent: float | None
    against_par: int | None


@dataclass(frozen=True, slots=True)
class Par:
    """The computer players' own result on the deal from the seat: the datum."""

    margin: int
    contract: str | None


@dataclass(frozen=True, slots=True)
class DealField:
    """A deal's field: how many results, their contracts (most played first), their
    margins (best first) and the par."""

    number: int
    results: int
    contracts: tuple[ContractCount, ...]
    margins: tuple[MarginCount, ...]
    par: Par | None


def scored(field: ClosingField) -> Ranked:
    """A tournament's field, as the store reads it at closing, scored
    (:func:`~cardavia.tournaments.scoring.standings`) into what the store writes: the
    function :func:`close` gives the store."""
    table = standings(field.deals, field.results, field.entries, field.keyed)
    return Ranked(
        {
            number: {margin: float(percent) for margin, percent in margins.items()}
            for number, margins in table.deals.items()
        },
        float(UNPLAYED),
        [
            EntryStanding(entry.player_id, float(entry.percent), entry.ranked, entry.place)
            for entry in table.entries
        ],
    )


def close(store: GameStore, tournament_id: str, *, now: datetime) -> bool:
    """Close the tournament if its window is over at ``now``: every deal played scored
    against its field (``tournament_deals.matchpoints``; 25 % for one begun and not
    finished), every entry's score, whether it is ranked (its player holds a passkey that
    existed when the tournament opened) and its place among the ranked
    (``tournament_entries``), and ``closed_at`` set. ``False``
    when there was nothing to do: unknown, not yet due, or closed already — by an earlier
    call or by another process at the same moment (only one of them does the work)."""
    return store.standings.close(tournament_id, now=now, rank=scored)


def ranking(
    store: GameStore, tournament_id: str, *, page: int, size: int = PAGE_SIZE
) -> RankingPage:
    """Page ``page`` (from 1) of the ranked entries of a closed tournament, by place (ties
    by player id): empty before closing, and past the last page."""
    page, size = max(1, page), max(1, size)
    total, lines = store.standings.ranking(tournament_id, offset=(page - 1) * size, limit=size)
    return RankingPage(page, size, total, tuple(lines))


def place_of(
    store: GameStore, tournament_id: str, player_id: str, *, size: int = PAGE_SIZE
) -> Placing | None:
    """The player's standing in a closed tournament, and the page of :func:`ranking` (of
    ``size`` lines) that shows it; ``None``: no entry, or not closed yet."""
    found = store.standings.standing(tournament_id, player_id)
    if found is None:
        return None
    entry, before = found
    page = None if entry.place is None else before // max(1, size) + 1
    return Placing(entry.percent, entry.ranked, entry.place, page)


def deal_field(store: GameStore, tournament_id: str, number: int) -> DealField:
    """Deal ``number``'s field: its finished results counted by contract and by margin,
    each margin's percentage (from closing on) and its margin against the par."""
    field = store.standings.field(tournament_id, number)
    par = None if field.par is None else Par(*field.par)
    return DealField(
        number,
        field.results,
        tuple(ContractCount(contract, count) for contract, count in field.contracts),
        tuple(
            MarginCount(
                margin, count, percent, None if par is None else against_par(margin, par.margin)
            )
            for margin, count, percent in field.margins
        ),
        par,
    )


def best_results(store: GameStore, tournament_id: str, number: int, limit: int = 3) -> list[str]:
    """The game ids of deal ``number``'s ``limit`` best results by ranked players, best
    first (their records are shown after closing; before, there are none)."""
    return store.standings.best(tournament_id, number, limit)


__all__ = [
    "PAGE_SIZE",
    "ContractCount",
    "DealField",
    "MarginCount",
    "Par",
    "Placing",
    "RankingLine",
    "RankingPage",
    "best_results",
    "close",
    "deal_field",
    "place_of",
    "ranking",
    "scored",
]
