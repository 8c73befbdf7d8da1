"""A tournament's standings: at closing, every deal's results scored against the field
(matchpoints, Neuberg's correction, 25 % for a deal not played) and the entries ranked; then
the ranking by pages, a player's own place, and each deal's field (docs/tournaments.md,
"Scoring"), read and written in the database in few statements, for fields of many
thousands; :mod:`cardavia.tournaments.scoring` says the same arithmetic deal by deal, and the
tests hold the two to each other.

Closing reads the field in bulk (every finished deal's margin, the entries, which of their
players hold a passkey), has it scored by the function given (the store does no arithmetic
of its own: the scoring is the tournaments' package's, above it), then writes in one short
transaction: the tournament's ``closed_at`` set first, on the condition that it was not
(the lock: of two processes closing at once, the second waits for the first's commit, then
finds it closed and writes nothing), the field checked unchanged, and the standings written
in a few statements — one ``UPDATE`` per distinct margin of a deal (every result with that
margin scores the same), one per entry.

>>> from datetime import UTC, datetime
>>> from cardavia.store.db import GameStore
>>> store = GameStore("sqlite://")
>>> store.standings.close("nothing", now=datetime.now(UTC), rank=lambda field: None)
False
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, cast

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    func,
    select,
    update,
)

from cardavia.store.base import unavailable
from cardavia.store.passkeys import PasskeyRow
from cardavia.store.players import PlayerRow
from cardavia.store.tournaments import DealPlayedRow, EntryRow, ParRow, TournamentRow

OPTIMISTIC_TRIES: Final = 3
"""How many times closing reads and scores a field outside its writing transaction before
it does all in one (results still coming after the tournament's end)."""


@dataclass(frozen=True, slots=True)
class ClosingField:
    """What closing a tournament scores, as closing reads it."""

    deals: int
    """How many deals the tournament has."""
    results: tuple[tuple[str, int, int], ...]
    """Every finished deal: its player, its number and its margin."""
    entries: tuple[str, ...]
    """The players who entered."""
    keyed: frozenset[str]
    """Those of them who hold a passkey now that they held when the tournament opened
    (ranked; the others — guests, and accounts keyed since — play unranked)."""

    @property
    def fingerprint(self) -> tuple[int, int, int]:
        """The field's finished deals, the sum of their margins and its entries: what
        closing checks has not changed between reading and writing."""
        return len(self.results), sum(result[2] for result in self.results), len(self.entries)


@dataclass(frozen=True, slots=True)
class EntryStanding:
    """An entry as closing writes it (and as read after)."""

    player_id: str
    percent: float
    ranked: bool
    place: int | None


@dataclass(frozen=True, slots=True)
class Ranked:
    """What closing writes: each deal's percentage for each of its margins, the percentage
    of a deal begun but not finished, and every entry's standing."""

    deals: Mapping[int, Mapping[int, float]]
    unfinished: float
    entries: Sequence[EntryStanding]


@dataclass(frozen=True, slots=True)
class RankingLine:
    """One line of a ranking's page: a ranked entry, its player's name as others see it
    (``None``: none given, or one reported and hidden), how many deals it finished, and
    whether its player has been deleted since (``former``: "a former player")."""

    place: int
    player_id: str
    name: str | None
    percent: float
    played: int
    former: bool = False


@dataclass(frozen=True, slots=True)
class StoredField:
    """The results of one deal of a tournament: how many, each contract's count, each
    margin's count and percentage (``None`` before closing), and the par if computed."""

    results: int
    contracts: tuple[tuple[str, int], ...]
    """The contracts (:func:`cardavia.tournaments.deals.contract_code`), most played first."""
    margins: tuple[tuple[int, int, float | None], ...]
    """Margin, how many results had it, its percentage: best margin first."""
    par: tuple[int, str | None] | None
    """The computer players' own margin and contract from the seat."""


class _FieldChangedError(Exception):
    """Closing: the field changed since it was scored (the claim is rolled back)."""


class StandingStore:
    """The tournaments' standings in the store's database (the store's ``standings``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def close(
        self,
        tournament_id: str,
        *,
        now: datetime,
        rank: Callable[[ClosingField], Ranked],
    ) -> bool:
        """Close the tournament if it is due (``closes_at`` past at ``now``) and not closed:
        its field read, ``rank`` (the scoring) asked for the standings, those written — every
        deal's ``matchpoints``, every entry's ``percent``, ``ranked`` and ``place`` — and
        ``closed_at`` set. ``False``, nothing written: unknown, not yet due, or closed
        already, by an earlier call or by another process closing it at the same moment.

        The field is read and scored outside the writing transaction, which is short (on
        SQLite, the database's one writer waits for no scoring): it claims the tournament
        (the conditional ``UPDATE`` of ``closed_at``, which holds the row until it ends:
        of two processes, the second finds it closed and writes nothing), checks that the
        field is still what was scored (a result that came meanwhile: read and score
        again) and writes. After :data:`OPTIMISTIC_TRIES` changed fields, the last try
        reads, scores and writes in one transaction."""
        for _ in range(OPTIMISTIC_TRIES):
            with unavailable(), self.engine.connect() as connection:
                field = _read(connection, tournament_id, now)
            if field is None:
                return False
            ranked = rank(field)
            try:
                with unavailable(), self.engine.begin() as connection:
                    if not _claim(connection, tournament_id, now):
                        return False
                    if _fingerprint(connection, tournament_id) != field.fingerprint:
                        raise _FieldChangedError
                    _write(connection, tournament_id, ranked)
                    return True
            except _FieldChangedError:
                continue  # rolled back: read again
        with unavailable(), self.engine.begin() as connection:
            if not _claim(connection, tournament_id, now):
                return False
            field = _read(connection, tournament_id, now, claimed=True)
            assert field is not None
            _write(connection, tournament_id, rank(field))
        return True

    def ranking(
        self, tournament_id: str, *, offset: int, limit: int
    ) -> tuple[int, list[RankingLine]]:
        """How many ranked entries the tournament has, and ``limit`` of them from the
        ``offset``-th (from 0), in the ranking's order: by place, then by player id (after
        closing only: before, no entry has a place)."""
        ranked = and_(EntryRow.tournament_id == tournament_id, EntryRow.place.is_not(None))
        with unavailable(), self.engine.connect() as connection:
            total = connection.scalar(select(func.count()).select_from(EntryRow).where(ranked))
            # The page's entries first (by the place's index), then their players' names.
            page = (
                select(EntryRow.place, EntryRow.player_id, EntryRow.percent)
                .where(ranked)
                .order_by(EntryRow.place, EntryRow.player_id)
                .offset(offset)
                .limit(limit)
                .subquery()
            )
            # A deleted player's entry stays, under an id that names nobody (no player row).
            rows = connection.execute(
                select(page, PlayerRow.id.label("alive"), PlayerRow.name, PlayerRow.hidden_name)
                .join(PlayerRow, PlayerRow.id == page.c.player_id, isouter=True)
                .order_by(page.c.place, page.c.player_id)
            ).all()
            deals = connection.scalar(
                select(TournamentRow.deals).where(TournamentRow.id == tournament_id)
            )
            # Found by the unique (tournament, number, player): the page's players' own rows.
            counts = dict(
                connection.execute(
                    select(DealPlayedRow.player_id, func.count(DealPlayedRow.margin))
                    .where(
                        DealPlayedRow.tournament_id == tournament_id,
                        DealPlayedRow.number.in_(range(1, (deals or 0) + 1)),
                        DealPlayedRow.player_id.in_([row.player_id for row in rows]),
                    )
                    .group_by(DealPlayedRow.player_id)
                ).all()
            )
        lines = [
            RankingLine(
                int(row.place),
                str(row.player_id),
                None if row.name == row.hidden_name else row.name,
                float(row.percent or 0.0),
                int(counts.get(row.player_id, 0)),
                former=row.alive is None,
            )
            for row in rows
        ]
        return int(total or 0), lines

    def standing(self, tournament_id: str, player_id: str) -> tuple[EntryStanding, int] | None:
        """The player's entry as closing wrote it, and how many ranked entries come before
        it in the ranking's order (``None``: no entry, or not yet closed)."""
        with unavailable(), self.engine.connect() as connection:
            row = connection.execute(
                select(EntryRow.percent, EntryRow.ranked, EntryRow.place).where(
                    EntryRow.tournament_id == tournament_id, EntryRow.player_id == player_id
                )
            ).first()
            if row is None or row.percent is None:
                return None
            before = 0
            if row.place is not None:
                entries = EntryRow.tournament_id == tournament_id
                ahead = connection.scalar(
                    select(func.count()).where(entries, EntryRow.place < row.place)
                )
                # Among equals, in the ranking's order (the database's, whatever its collation).
                tied = connection.scalars(
                    select(EntryRow.player_id)
                    .where(entries, EntryRow.place == row.place)
                    .order_by(EntryRow.player_id)
                ).all()
                before = int(ahead or 0) + list(tied).index(player_id)
        entry = EntryStanding(player_id, float(row.percent), bool(row.ranked), row.place)
        return entry, before

    def field(self, tournament_id: str, number: int) -> StoredField:
        """Deal ``number``'s finished results (at any time: the percentages only after
        closing; whom to show them to is the caller's to say)."""
        deal = and_(
            DealPlayedRow.tournament_id == tournament_id,
            DealPlayedRow.number == number,
            DealPlayedRow.margin.is_not(None),
        )
        with unavailable(), self.engine.connect() as connection:
            # One pass over the deal's results: each (margin, contract) counted.
            groups = connection.execute(
                select(
                    DealPlayedRow.margin,
                    DealPlayedRow.contract,
                    func.count(),
                    func.max(DealPlayedRow.matchpoints),
                )
                .where(deal)
                .group_by(DealPlayedRow.margin, DealPlayedRow.contract)
            ).all()
            par = connection.execute(
                select(ParRow.margin, ParRow.contract).where(
                    ParRow.tournament_id == tournament_id, ParRow.number == number
                )
            ).first()
        contracts: Counter[str] = Counter()
        margins: Counter[int] = Counter()
        percents: dict[int, float | None] = {}
        for margin, contract, count, percent in groups:
            contracts[contract or "pass"] += count
            margins[margin or 0] += count
            percents[margin or 0] = None if percent is None else float(percent)
        return StoredField(
            margins.total(),
            tuple(sorted(contracts.items(), key=lambda item: (-item[1], item[0]))),
            tuple((margin, margins[margin], percents[margin]) for margin in sorted(margins)[::-1]),
            None if par is None else (int(par.margin), par.contract),
        )

    def best(self, tournament_id: str, number: int, limit: int) -> list[str]:
        """The game ids of deal ``number``'s ``limit`` best results among the ranked
        entries (a guest's table stays theirs), best margin first, the first finished first
        among equals (after closing only: before, no entry is ranked)."""
        with unavailable(), self.engine.connect() as connection:
            return list(
                connection.scalars(
                    select(DealPlayedRow.game_id)
                    .join(
                        EntryRow,
                        and_(
                            EntryRow.tournament_id == DealPlayedRow.tournament_id,
                            EntryRow.player_id == DealPlayedRow.player_id,
                        ),
                    )
                    .where(
                        DealPlayedRow.tournament_id == tournament_id,
                        DealPlayedRow.number == number,
                        DealPlayedRow.margin.is_not(None),
                        EntryRow.ranked.is_(True),
                    )
                    .order_by(
                        DealPlayedRow.margin.desc(),
                        DealPlayedRow.finished_at,
                        DealPlayedRow.id,
                    )
                    .limit(limit)
                ).all()
            )


def _claim(connection: Connection, tournament_id: str, now: datetime) -> bool:
    """In a writing transaction: set the tournament's ``closed_at`` if it is due and not
    closed; whether it was (the row is then this transaction's until it ends)."""
    claimed = connection.execute(
        update(TournamentRow)
        .where(
            TournamentRow.id == tournament_id,
            TournamentRow.closed_at.is_(None),
            TournamentRow.closes_at <= now,
        )
        .values(closed_at=now)
    )
    return claimed.rowcount == 1


def _read(
    connection: Connection, tournament_id: str, now: datetime, *, claimed: bool = False
) -> ClosingField | None:
    """The field of a tournament due at ``now`` and not closed (``claimed``: closed by
    this transaction), in bulk; ``None`` for any other."""
    due = connection.execute(
        select(TournamentRow.deals, TournamentRow.closed_at, TournamentRow.opens_at).where(
            TournamentRow.id == tournament_id, TournamentRow.closes_at <= now
        )
    ).first()
    if due is None or (due.closed_at is not None) != claimed:
        return None
    results = connection.execute(
        select(DealPlayedRow.player_id, DealPlayedRow.number, DealPlayedRow.margin).where(
            DealPlayedRow.tournament_id == tournament_id, DealPlayedRow.margin.is_not(None)
        )
    )
    entries = connection.scalars(
        select(EntryRow.player_id).where(EntryRow.tournament_id == tournament_id)
    )
    # Ranked: a passkey that existed when the tournament opened (a second account made for
    # it, after a first one scouted its deals, plays unranked).
    keyed = connection.scalars(
        select(PasskeyRow.player_id)
        .distinct()
        .join(EntryRow, EntryRow.player_id == PasskeyRow.player_id)
        .where(EntryRow.tournament_id == tournament_id, PasskeyRow.created_at <= due.opens_at)
    )
    return ClosingField(
        int(due.deals),
        cast("tuple[tuple[str, int, int], ...]", tuple(results.all())),
        tuple(entries),
        frozenset(keyed),
    )


def _fingerprint(connection: Connection, tournament_id: str) -> tuple[int, int, int]:
    """What the tournament's field is as read now: its finished deals, the sum of their
    margins, its entries (results are written once: a new one changes the count)."""
    finished, total = connection.execute(
        select(
            func.count(DealPlayedRow.margin), func.coalesce(func.sum(DealPlayedRow.margin), 0)
        ).where(DealPlayedRow.tournament_id == tournament_id)
    ).one()
    entries = connection.scalar(
        select(func.count()).select_from(EntryRow).where(EntryRow.tournament_id == tournament_id)
    )
    return int(finished), int(total or 0), int(entries or 0)


def _write(connection: Connection, tournament_id: str, ranked: Ranked) -> None:
    """In the closing's transaction: every deal's matchpoints (one ``UPDATE`` per margin
    of a deal, one for the unfinished deals) and every entry's standing."""
    points = [
        {"t": tournament_id, "n": number, "m": margin, "p": percent}
        for number, margins in ranked.deals.items()
        for margin, percent in margins.items()
    ]
    if points:
        connection.execute(
            update(DealPlayedRow)
            .where(
                DealPlayedRow.tournament_id == bindparam("t"),
                DealPlayedRow.number == bindparam("n"),
                DealPlayedRow.margin == bindparam("m"),
            )
            .values(matchpoints=bindparam("p")),
            points,
        )
    connection.execute(
        update(DealPlayedRow)
        .where(DealPlayedRow.tournament_id == tournament_id, DealPlayedRow.margin.is_(None))
        .values(matchpoints=ranked.unfinished)
    )
    standings = [
        {
            "t": tournament_id,
            "who": entry.player_id,
            "pc": entry.percent,
            "rk": entry.ranked,
            "pl": entry.place,
        }
        for entry in ranked.entries
    ]
    if standings:
        connection.execute(
            update(EntryRow)
            .where(
                EntryRow.tournament_id == bindparam("t"),
                EntryRow.player_id == bindparam("who"),
            )
            .values(percent=bindparam("pc"), ranked=bindparam("rk"), place=bindparam("pl")),
            standings,
        )


__all__ = [
    "ClosingField",
    "EntryStanding",
    "Ranked",
    "RankingLine",
    "StandingStore",
    "StoredField",
]
