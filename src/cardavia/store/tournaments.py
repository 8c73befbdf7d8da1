"""The duplicate tournaments as kept: each tournament (its preset, its computer players'
level and version, its window, its deals' seeds — secret until it closes — and their
published SHA-256), the players who entered it, every deal each of them played (one attempt
per deal: a unique row) and the computer players' own result on each deal, the par
(docs/tournaments.md).

The rows are the schema of revisions ``0008_tournaments`` and ``0010_tournament_fairness``;
:class:`TournamentStore` (the store's ``tournaments``) writes and reads tournaments, entries
and the deals played; :mod:`cardavia.store.standings` ranks them when a tournament closes.

An entry and a deal played name their player without a foreign key: a deleted player's
results stay in the field and the standings, under an id that names nobody
(:func:`forget_player`: "a former player").
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    column,
    delete,
    func,
    insert,
    select,
    table,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, unavailable, utc

PENDING: Final = ""
"""The game of a deal's row taken and not yet dealt (:meth:`TournamentStore.claim_deal`): no
game has this id."""


def _player_key(*, primary_key: bool = False) -> Mapped[str]:
    """A player's id, kept when the player is deleted (renamed by :func:`forget_player`)."""
    return mapped_column(String(32), primary_key=primary_key)


def _tournament_key(*, primary_key: bool = False) -> Mapped[str]:
    return mapped_column(
        String(40), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=primary_key
    )


class TournamentRow(Base):
    """A tournament: its deals dealt from seeds drawn when it was made."""

    __tablename__ = "tournaments"
    __table_args__ = (
        Index("ix_tournaments_closes_at", "closes_at"),
        Index("ix_tournaments_opens_at", "opens_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    """Readable and unique for its kind and window (``daily-coinche-20261202``): two
    processes making the same tournament make one."""
    kind: Mapped[str] = mapped_column(String(8))
    """``daily``, ``short`` or ``weekly``."""
    preset: Mapped[str] = mapped_column(String(16))
    level: Mapped[str] = mapped_column(String(16))
    """The computer players' level at every table of the tournament."""
    version: Mapped[str] = mapped_column(String(32))
    """That level's version: the same decisions for the same deal and history."""
    deals: Mapped[int] = mapped_column(Integer)
    opens_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closes_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seeds: Mapped[str] = mapped_column(Text)
    """The deals' seeds, a JSON list of hexadecimal strings: never shown before closing."""
    commitments: Mapped[str] = mapped_column(Text)
    """Their SHA-256, a JSON list of hexadecimal strings: published from the start."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When it was ranked: its results, seeds and records are public from then."""


class EntryRow(Base):
    """A player's entry in a tournament; ranked at closing."""

    __tablename__ = "tournament_entries"
    __table_args__ = (
        Index("ix_tournament_entries_place", "tournament_id", "place"),
        Index("ix_tournament_entries_player", "player_id"),
    )

    tournament_id: Mapped[str] = _tournament_key(primary_key=True)
    player_id: Mapped[str] = _player_key(primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ranked: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    """Set at closing: whether the player held a passkey then (guests play unranked)."""
    percent: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The tournament's score at closing: the mean of the deals' matchpoints (an unplayed
    deal 25 %)."""
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The place among the ranked entries at closing (ties share a place)."""


class DealPlayedRow(Base):
    """One deal of a tournament as one player played it (one attempt: a unique row)."""

    __tablename__ = "tournament_deals"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", "player_id", name="uq_tournament_deal"),
        Index("ix_tournament_deals_field", "tournament_id", "number", "margin"),
        Index("ix_tournament_deals_player", "player_id", "id"),
        Index("ix_tournament_deals_game", "game_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = _tournament_key()
    number: Mapped[int] = mapped_column(Integer)
    """The deal's number in the tournament, from 1."""
    player_id: Mapped[str] = _player_key()
    game_id: Mapped[str] = mapped_column(String(32))
    """The table it is played at (a single-deal game of the store)."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    margin: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The player's team's deal score less the opponents' (``deal_outcome``), once over."""
    score_us: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score_them: Mapped[int | None] = mapped_column(Integer, nullable=True)
    contract: Mapped[str | None] = mapped_column(String(48), nullable=True)
    """The final contract, in :func:`cardavia.tournaments.deals.contract_code`'s form."""
    matchpoints: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The deal's matchpoints against the field, in percent (set at closing)."""
    performance: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The deal's field-adjusted score (set at closing, :mod:`cardavia.tournaments.performance`)."""
    client: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """Who the deal was started from, as the limits count clients (an address, an IPv6 /64):
    for the fair-play screen's accounts of one client; erased with the player."""


class ParRow(Base):
    """The computer players' own result on a deal, from the tournament's seat: the datum."""

    __tablename__ = "tournament_pars"

    tournament_id: Mapped[str] = _tournament_key(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    margin: Mapped[int] = mapped_column(Integer)
    contract: Mapped[str | None] = mapped_column(String(48), nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament as the database holds it (``seeds`` secret until ``closed_at``)."""

    id: str
    kind: str
    preset: str
    level: str
    version: str
    deals: int
    opens_at: datetime
    closes_at: datetime
    seeds: str
    commitments: str
    closed_at: datetime | None

    @classmethod
    def of(cls, row: TournamentRow) -> StoredTournament:
        """The value of a row (times in UTC)."""
        closed = None if row.closed_at is None else utc(row.closed_at)
        return cls(
            row.id,
            row.kind,
            row.preset,
            row.level,
            row.version,
            row.deals,
            utc(row.opens_at),
            utc(row.closes_at),
            row.seeds,
            row.commitments,
            closed,
        )


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """A player's entry in a tournament."""

    tournament_id: str
    player_id: str
    started_at: datetime
    finished_at: datetime | None
    ranked: bool | None
    percent: float | None
    place: int | None


@dataclass(frozen=True, slots=True)
class StoredDeal:
    """One deal of a tournament as one player played it (its result once over)."""

    tournament_id: str
    number: int
    player_id: str
    game_id: str
    started_at: datetime
    finished_at: datetime | None
    margin: int | None
    score_us: int | None
    score_them: int | None
    contract: str | None
    matchpoints: float | None

    @classmethod
    def of(cls, row: DealPlayedRow) -> StoredDeal:
        """The value of a row (times in UTC)."""
        finished = None if row.finished_at is None else utc(row.finished_at)
        return cls(
            row.tournament_id,
            row.number,
            row.player_id,
            row.game_id,
            utc(row.started_at),
            finished,
            row.margin,
            row.score_us,
            row.score_them,
            row.contract,
            row.matchpoints,
        )


@dataclass(frozen=True, slots=True)
class StoredPar:
    """The computer players' own result on a deal, from the tournament's seat."""

    number: int
    margin: int
    contract: str | None
    game_id: str | None


class TournamentStore:
    """The tournaments, their entries and deals played, in the store's database (each
    method one short transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- tournaments --

    def create(self, values: dict[str, object]) -> bool:
        """Make a tournament (``values``: the columns of :class:`TournamentRow`); ``False``
        when one of that id exists already (another process made it: it stands)."""
        try:
            with unavailable(), self.engine.begin() as connection:
                connection.execute(insert(TournamentRow), values)
        except IntegrityError:
            return False
        return True

    def load(self, tournament_id: str) -> StoredTournament | None:
        """The tournament of that id, or ``None``."""
        if not isinstance(tournament_id, str) or not 0 < len(tournament_id) <= 40:
            return None
        with unavailable(), Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            return None if row is None else StoredTournament.of(row)

    def existing(self, ids: list[str]) -> set[str]:
        """Which of ``ids`` are tournaments already."""
        with unavailable(), Session(self.engine) as session:
            return set(session.scalars(select(TournamentRow.id).where(TournamentRow.id.in_(ids))))

    def open_at(self, moment: datetime) -> list[StoredTournament]:
        """The tournaments open at ``moment`` (opened, not yet closing nor closed), closing
        first."""
        return self._list(
            (
                TournamentRow.opens_at <= moment,
                TournamentRow.closes_at > moment,
                TournamentRow.closed_at.is_(None),
            ),
            TournamentRow.closes_at,
        )

    def entered_not_closed(self, limit: int = 100) -> list[StoredTournament]:
        """The tournaments not yet closed that someone has entered, opening first."""
        entered = select(EntryRow.tournament_id).where(EntryRow.tournament_id == TournamentRow.id)
        return self._list(
            (TournamentRow.closed_at.is_(None), entered.exists()), TournamentRow.opens_at, limit
        )

    def closing_for(
        self, player_id: str, moment: datetime, within: timedelta
    ) -> list[StoredTournament]:
        """The tournaments ``player_id`` entered and has not finished that close within
        ``within`` of ``moment`` (not yet closed), closing first."""
        return self._list(
            (
                TournamentRow.closed_at.is_(None),
                TournamentRow.closes_at > moment,
                TournamentRow.closes_at <= moment + within,
                self._unfinished_entry(player_id).exists(),
            ),
            TournamentRow.closes_at,
        )

    def playing(self, player_id: str) -> bool:
        """Whether ``player_id`` has an entry not finished in a tournament not yet closed."""
        found = self._list(
            (TournamentRow.closed_at.is_(None), self._unfinished_entry(player_id).exists()),
            TournamentRow.closes_at,
            1,
        )
        return bool(found)

    @staticmethod
    def _unfinished_entry(player_id: str) -> Any:
        return select(EntryRow.tournament_id).where(
            EntryRow.tournament_id == TournamentRow.id,
            EntryRow.player_id == player_id,
            EntryRow.finished_at.is_(None),
        )

    def closed_lately(self, limit: int = 10) -> list[StoredTournament]:
        """The ``limit`` tournaments closed last, the latest first."""
        return self._list(
            (TournamentRow.closed_at.is_not(None),), TournamentRow.closes_at.desc(), limit
        )

    def _list(
        self, where: tuple[object, ...], order: object, limit: int = 100
    ) -> list[StoredTournament]:
        with unavailable(), Session(self.engine) as session:
            rows = session.scalars(
                select(TournamentRow)
                .where(*where)  # type: ignore[arg-type]
                .order_by(order, TournamentRow.id)  # type: ignore[arg-type]
                .limit(limit)
            ).all()
            return [StoredTournament.of(row) for row in rows]

    def due(self, moment: datetime) -> list[str]:
        """The tournaments whose window is over at ``moment`` and not yet closed."""
        with unavailable(), Session(self.engine) as session:
            return list(
                session.scalars(
                    select(TournamentRow.id)
                    .where(TournamentRow.closes_at <= moment, TournamentRow.closed_at.is_(None))
                    .order_by(TournamentRow.closes_at)
                )
            )

    # -- entries and deals played --

    def enter(self, tournament_id: str, player_id: str, moment: datetime) -> None:
        """Enter the player in the tournament (once: entering again changes nothing)."""
        row = {"tournament_id": tournament_id, "player_id": player_id, "started_at": moment}
        try:
            with unavailable(), self.engine.begin() as connection:
                connection.execute(insert(EntryRow), row)
        except IntegrityError:
            pass

    def entry(self, tournament_id: str, player_id: str) -> StoredEntry | None:
        """The player's entry in the tournament, or ``None``."""
        with unavailable(), Session(self.engine) as session:
            row = session.get(EntryRow, (tournament_id, player_id))
            if row is None:
                return None
            finished = None if row.finished_at is None else utc(row.finished_at)
            return StoredEntry(
                row.tournament_id,
                row.player_id,
                utc(row.started_at),
                finished,
                row.ranked,
                row.percent,
                row.place,
            )

    def entries(self, tournament_id: str) -> int:
        """How many players entered the tournament."""
        with unavailable(), Session(self.engine) as session:
            count = session.scalar(
                select(func.count()).where(EntryRow.tournament_id == tournament_id)
            )
        return int(count or 0)

    def start_deal(
        self, tournament_id: str, number: int, player_id: str, game_id: str, moment: datetime
    ) -> StoredDeal:
        """Note that the player started deal ``number`` at the game ``game_id``; should they
        have started it already (one attempt per deal: a unique row), the deal as it was
        started first."""
        row = {
            "tournament_id": tournament_id,
            "number": number,
            "player_id": player_id,
            "game_id": game_id,
            "started_at": moment,
        }
        try:
            with unavailable(), self.engine.begin() as connection:
                connection.execute(insert(DealPlayedRow), row)
        except IntegrityError:
            pass
        found = self.deal(tournament_id, number, player_id)
        assert found is not None
        return found

    def claim_deal(
        self, tournament_id: str, number: int, player_id: str, moment: datetime, client: str = ""
    ) -> bool:
        """Take the player's row of deal ``number`` before its game is dealt (the row's game
        :data:`PENDING` until :meth:`deal_claimed`): ``True`` when taken here, ``False`` when
        the row exists — the deal started before, or being dealt by another request (one
        attempt per deal: the unique row decides, whatever the processes). ``client``: who
        starts it, as the limits count clients (kept for the fair-play screen)."""
        row = {
            "tournament_id": tournament_id,
            "number": number,
            "player_id": player_id,
            "game_id": PENDING,
            "started_at": moment,
            "client": client[:64] or None,
        }
        try:
            with unavailable(), self.engine.begin() as connection:
                connection.execute(insert(DealPlayedRow), row)
        except IntegrityError:
            return False
        return True

    def retake_claim(
        self,
        tournament_id: str,
        number: int,
        player_id: str,
        *,
        stale_before: datetime,
        moment: datetime,
    ) -> bool:
        """Take over a claim still :data:`PENDING` that was made before ``stale_before`` (its
        request died while dealing): ``True`` when taken here (only one request can)."""
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                update(DealPlayedRow)
                .where(
                    *_the_deal(tournament_id, number, player_id),
                    DealPlayedRow.game_id == PENDING,
                    DealPlayedRow.started_at < stale_before,
                )
                .values(started_at=moment)
            )
        return bool(result.rowcount)

    def deal_claimed(
        self, tournament_id: str, number: int, player_id: str, game_id: str
    ) -> StoredDeal:
        """The game dealt for a claim: the row names it now. Answers the row as it stands
        (naming another game only if a request that took the claim over dealt first)."""
        with unavailable(), self.engine.begin() as connection:
            connection.execute(
                update(DealPlayedRow)
                .where(
                    *_the_deal(tournament_id, number, player_id),
                    DealPlayedRow.game_id == PENDING,
                )
                .values(game_id=game_id)
            )
        found = self.deal(tournament_id, number, player_id)
        assert found is not None
        return found

    def release_claim(self, tournament_id: str, number: int, player_id: str) -> None:
        """Give back a claim whose game could not be dealt (the deal may be started again)."""
        with unavailable(), self.engine.begin() as connection:
            connection.execute(
                delete(DealPlayedRow).where(
                    *_the_deal(tournament_id, number, player_id),
                    DealPlayedRow.game_id == PENDING,
                )
            )

    def deal(self, tournament_id: str, number: int, player_id: str) -> StoredDeal | None:
        """Deal ``number`` as the player played it, or ``None`` (not started)."""
        with unavailable(), Session(self.engine) as session:
            row = session.scalars(
                select(DealPlayedRow).where(
                    DealPlayedRow.tournament_id == tournament_id,
                    DealPlayedRow.number == number,
                    DealPlayedRow.player_id == player_id,
                )
            ).first()
            return None if row is None else StoredDeal.of(row)

    def deals_of(self, tournament_id: str, player_id: str) -> list[StoredDeal]:
        """The deals the player started in the tournament, by number."""
        return self._deals(
            DealPlayedRow.tournament_id == tournament_id, DealPlayedRow.player_id == player_id
        )

    def finished_of(self, tournament_id: str, number: int) -> list[StoredDeal]:
        """Deal ``number`` of the tournament as each player who finished it played it."""
        return self._deals(
            DealPlayedRow.tournament_id == tournament_id,
            DealPlayedRow.number == number,
            DealPlayedRow.finished_at.is_not(None),
        )

    def unfinished(self, tournament_id: str) -> list[StoredDeal]:
        """The tournament's deals started and not yet over (by anyone)."""
        return self._deals(
            DealPlayedRow.tournament_id == tournament_id, DealPlayedRow.finished_at.is_(None)
        )

    def of_game(self, game_id: str) -> StoredDeal | None:
        """The tournament deal played at the game ``game_id``, or ``None`` (not one)."""
        found = self._deals(DealPlayedRow.game_id == game_id)
        return found[0] if found else None

    def _deals(self, *where: object) -> list[StoredDeal]:
        with unavailable(), Session(self.engine) as session:
            rows = session.scalars(
                select(DealPlayedRow)
                .where(*where)  # type: ignore[arg-type]
                .order_by(DealPlayedRow.number, DealPlayedRow.id)
            ).all()
            return [StoredDeal.of(row) for row in rows]

    def finish_deal(
        self,
        game_id: str,
        *,
        margin: int,
        score_us: int,
        score_them: int,
        contract: str,
        moment: datetime,
    ) -> bool:
        """Write the result of the tournament deal played at ``game_id`` (once: ``False``
        when it was written already, or its tournament has closed — a result is never
        written after closing, in the same statement that writes it); the entry is finished
        with its last deal."""
        still_open = (
            select(TournamentRow.id)
            .where(
                TournamentRow.id == DealPlayedRow.tournament_id,
                TournamentRow.closed_at.is_(None),
            )
            .exists()
        )
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                update(DealPlayedRow)
                .where(
                    DealPlayedRow.game_id == game_id,
                    DealPlayedRow.finished_at.is_(None),
                    still_open,
                )
                .values(
                    finished_at=moment,
                    margin=margin,
                    score_us=score_us,
                    score_them=score_them,
                    contract=contract,
                )
            )
            if not result.rowcount:
                return False
            found = connection.execute(
                select(DealPlayedRow.tournament_id, DealPlayedRow.player_id).where(
                    DealPlayedRow.game_id == game_id
                )
            ).one()
            tournament_id, player_id = found
            played = connection.scalar(
                select(func.count()).where(
                    DealPlayedRow.tournament_id == tournament_id,
                    DealPlayedRow.player_id == player_id,
                    DealPlayedRow.finished_at.is_not(None),
                )
            )
            deals = connection.scalar(
                select(TournamentRow.deals).where(TournamentRow.id == tournament_id)
            )
            if played == deals:
                connection.execute(
                    update(EntryRow)
                    .where(
                        EntryRow.tournament_id == tournament_id,
                        EntryRow.player_id == player_id,
                        EntryRow.finished_at.is_(None),
                    )
                    .values(finished_at=moment)
                )
        return True

    def key_seat(self, game_id: str, token_hash: str) -> None:
        """Give the game ``game_id`` the seat token whose hash is ``token_hash`` (a
        tournament deal's seat is keyed to its player: :mod:`cardavia.tournaments.service`)."""
        with unavailable(), self.engine.begin() as connection:
            connection.execute(
                update(_GAMES).where(_GAMES.c.id == game_id).values(token_hash=token_hash)
            )

    # -- the par --

    def set_par(
        self,
        tournament_id: str,
        number: int,
        *,
        margin: int,
        contract: str | None,
        game_id: str | None,
        moment: datetime,
    ) -> None:
        """Keep the par of deal ``number`` (once: a second one is ignored)."""
        row = {
            "tournament_id": tournament_id,
            "number": number,
            "margin": margin,
            "contract": contract,
            "game_id": game_id,
            "computed_at": moment,
        }
        try:
            with unavailable(), self.engine.begin() as connection:
                connection.execute(insert(ParRow), row)
        except IntegrityError:
            pass

    def pars(self, tournament_id: str) -> dict[int, StoredPar]:
        """The pars of the tournament's deals computed so far, by number."""
        with unavailable(), Session(self.engine) as session:
            rows = session.scalars(
                select(ParRow).where(ParRow.tournament_id == tournament_id)
            ).all()
            return {
                row.number: StoredPar(row.number, row.margin, row.contract, row.game_id)
                for row in rows
            }

    def kept_about(self, player_id: str) -> dict[str, list[dict[str, object]]]:
        """The player's tournament entries and every tournament deal they played, for the
        export (the deals' records are in "My games")."""

        def moment(at: datetime | None) -> str | None:
            return None if at is None else utc(at).isoformat()

        with unavailable(), Session(self.engine) as session:
            entries = session.scalars(
                select(EntryRow)
                .where(EntryRow.player_id == player_id)
                .order_by(EntryRow.started_at)
            ).all()
            deals = session.scalars(
                select(DealPlayedRow)
                .where(DealPlayedRow.player_id == player_id)
                .order_by(DealPlayedRow.id)
            ).all()
            return {
                "tournament_entries": [
                    {
                        "tournament": row.tournament_id,
                        "started_at": moment(row.started_at),
                        "finished_at": moment(row.finished_at),
                        "ranked": row.ranked,
                        "percent": row.percent,
                        "place": row.place,
                    }
                    for row in entries
                ],
                "tournament_deals": [
                    {
                        "tournament": row.tournament_id,
                        "number": row.number,
                        "game": row.game_id,
                        "started_at": moment(row.started_at),
                        "finished_at": moment(row.finished_at),
                        "contract": row.contract,
                        "margin": row.margin,
                        "score_us": row.score_us,
                        "score_them": row.score_them,
                        "matchpoints": row.matchpoints,
                        "performance": row.performance,
                        "client": row.client,
                    }
                    for row in deals
                ],
            }


FORMER_PLAYER: Final = "former-"
"""How the id that a deleted player's tournament rows are kept under begins (followed by
random characters: it names nobody, and no player's id begins so)."""


def forget_player(connection: Connection, player_id: str) -> None:
    """In a player's deletion (its transaction): their tournament entries and deals played
    kept under a new id that names nobody (:data:`FORMER_PLAYER`: "a former player" in the
    standings), the clients they played from erased. A deleted player's results stay in the
    field and the closed standings, and deleting cannot wipe a bad result for a fresh start."""
    former = FORMER_PLAYER + secrets.token_urlsafe(12)
    connection.execute(
        update(EntryRow).where(EntryRow.player_id == player_id).values(player_id=former)
    )
    connection.execute(
        update(DealPlayedRow)
        .where(DealPlayedRow.player_id == player_id)
        .values(player_id=former, client=None)
    )


def _the_deal(tournament_id: str, number: int, player_id: str) -> tuple[Any, ...]:
    """The conditions that find one player's row of one deal (the unique one)."""
    return (
        DealPlayedRow.tournament_id == tournament_id,
        DealPlayedRow.number == number,
        DealPlayedRow.player_id == player_id,
    )


_GAMES = table("games", column("id", String), column("token_hash", String))
"""The games' table as far as keying a tournament deal's seat goes."""


__all__ = [
    "FORMER_PLAYER",
    "PENDING",
    "DealPlayedRow",
    "EntryRow",
    "ParRow",
    "StoredDeal",
    "StoredEntry",
    "StoredPar",
    "StoredTournament",
    "TournamentRow",
    "TournamentStore",
    "forget_player",
]
