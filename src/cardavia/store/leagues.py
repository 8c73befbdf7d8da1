"""The players' performance from tournament deals (each closed tournament's change of it, for
the profile's chart) and the weekly leagues: each season's divisions and groups, their
members' points, places and movements (docs/tournaments.md, "Performance", "Leagues")."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import (
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    and_,
    bindparam,
    case,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, unavailable, utc
from cardavia.store.players import PlayerRow
from cardavia.store.tournaments import DealPlayedRow, EntryRow, TournamentRow

HISTORY_LIMIT: Final = 200
"""The most performance changes a player's history answers (the latest)."""


class PerformanceChangeRow(Base):
    """A player's performance in a rules family after a closed tournament."""

    __tablename__ = "performance_changes"
    __table_args__ = (
        UniqueConstraint(
            "player_id", "family", "tournament_id", name="uq_performance_changes_tournament"
        ),
        Index("ix_performance_changes_player", "player_id", "family", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(16))
    tournament_id: Mapped[str] = mapped_column(String(40))
    value: Mapped[float] = mapped_column(Float)
    """The performance after that tournament, over the rolling window."""
    deals: Mapped[int] = mapped_column(Integer)
    """How many deals the window held."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeasonRow(Base):
    """A league season: seven days."""

    __tablename__ = "league_seasons"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    """The ISO week, ``2026-W49``."""
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MemberRow(Base):
    """A player in a season's division and group."""

    __tablename__ = "league_members"
    __table_args__ = (
        Index("ix_league_members_group", "season_id", "division", "group_number", "points"),
        Index("ix_league_members_player", "player_id"),
    )

    season_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("league_seasons.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    division: Mapped[int] = mapped_column(Integer)
    """1 is the top division."""
    group_number: Mapped[int] = mapped_column(Integer)
    """The group of about thirty within the division."""
    points: Mapped[float] = mapped_column(Float)
    tournaments: Mapped[int] = mapped_column(Integer)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The place in the group at the season's end."""
    movement: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """``up``, ``down``, ``stay`` or ``out`` (no tournament played in the lowest division:
    not in the next season), at the season's end."""


@dataclass(frozen=True, slots=True)
class TournamentFacts:
    """What the performance needs of a tournament: its preset (the rules family), when it
    closes, and when it was ranked (``None``: not yet)."""

    preset: str
    closes_at: datetime
    closed_at: datetime | None


@dataclass(frozen=True, slots=True)
class DealMark:
    """One deal of a closed tournament as one player played it, ranked: its row, the deal's
    number, the player and the matchpoints (percent)."""

    id: int
    number: int
    player_id: str
    matchpoints: float


@dataclass(frozen=True, slots=True)
class PastWindow:
    """A player's deal performances before a tournament, in its family and window: the sum
    and count of the latest ``window`` (their performance before it, :attr:`value`) and of
    the latest ``window`` less the tournament's own deals (what stays in the window once
    those are added)."""

    total: float
    count: int
    kept_sum: float
    kept_count: int

    @property
    def value(self) -> float:
        """The performance before the tournament (the mean of the window)."""
        return self.total / self.count if self.count else 0.0


@dataclass(frozen=True, slots=True)
class PerformanceWrite:
    """What a closed tournament's performance writes: each deal row's performance and each
    player's new performance (player, value, deals in the window)."""

    tournament_id: str
    family: str
    deals: tuple[tuple[int, float], ...]
    players: tuple[tuple[str, float, int], ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class PerformancePoint:
    """A player's performance after a closed tournament, as kept."""

    family: str
    tournament_id: str
    value: float
    deals: int
    at: datetime


@dataclass(frozen=True, slots=True)
class Season:
    """A league season: its ISO week and its bounds; ``closed_at`` once its places and
    movements are written."""

    id: str
    starts_at: datetime
    ends_at: datetime
    closed_at: datetime | None


@dataclass(frozen=True, slots=True)
class Member:
    """A player in a season: their division (1 the top) and group, points and tournaments
    counted, and, once the season closed, their place and movement."""

    player_id: str
    division: int
    group: int
    points: float
    tournaments: int
    place: int | None = None
    movement: str | None = None


@dataclass(frozen=True, slots=True)
class NamedMember:
    """A member with the name others see: ``None`` when they gave none, ``hidden`` when
    their name was reported (docs/players.md, "Safety")."""

    member: Member
    name: str | None
    hidden: bool


@dataclass(frozen=True, slots=True)
class Winner:
    """A group's winner in the top division of a closed season: the hall of fame."""

    season_id: str
    group: int
    player_id: str
    name: str | None
    hidden: bool
    points: float


def _member(row: MemberRow) -> Member:
    return Member(
        row.player_id,
        row.division,
        row.group_number,
        row.points,
        row.tournaments,
        row.place,
        row.movement,
    )


def _season(row: SeasonRow) -> Season:
    closed = None if row.closed_at is None else utc(row.closed_at)
    return Season(row.id, utc(row.starts_at), utc(row.ends_at), closed)


class LeagueStore:
    """The performance history and the leagues in the store's database (the store's
    ``leagues``; each method one short transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.scored: dict[str, tuple[int, datetime | None]] = {}
        """The :meth:`week_mark` each season was last scored at by this process: a season
        whose week saw no tournament ranked since is not scored again."""

    # -- performance --

    def tournament_facts(self, tournament_id: str) -> TournamentFacts | None:
        """The tournament's preset and times (``None``: no such tournament)."""
        with unavailable(), Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                return None
            closed = None if row.closed_at is None else utc(row.closed_at)
            return TournamentFacts(row.preset, utc(row.closes_at), closed)

    def deal_marks(self, tournament_id: str) -> list[DealMark]:
        """The tournament's deals played that were ranked (matchpoints set)."""
        query = (
            select(
                DealPlayedRow.id,
                DealPlayedRow.number,
                DealPlayedRow.player_id,
                DealPlayedRow.matchpoints,
            )
            .where(
                DealPlayedRow.tournament_id == tournament_id,
                DealPlayedRow.matchpoints.is_not(None),
            )
            .order_by(DealPlayedRow.id)
        )
        with unavailable(), Session(self.engine) as session:
            return [
                DealMark(int(ident), int(number), str(player), float(points or 0.0))
                for ident, number, player, points in session.execute(query)
            ]

    def past_windows(
        self, tournament_id: str, *, presets: Collection[str], since: datetime, window: int
    ) -> dict[str, PastWindow]:
        """For each player who has a ranked deal in the tournament: their deal performances
        from other tournaments of ``presets`` that closed from ``since`` on, the latest
        first, summed over the latest ``window`` and over the latest ``window`` less their
        deals in this tournament (one query, whatever the field's size). A player with none
        is left out."""
        mine = (
            select(DealPlayedRow.player_id, func.count().label("k"))
            .where(
                DealPlayedRow.tournament_id == tournament_id,
                DealPlayedRow.matchpoints.is_not(None),
            )
            .group_by(DealPlayedRow.player_id)
            .subquery()
        )
        latest = func.row_number().over(
            partition_by=DealPlayedRow.player_id,
            order_by=(TournamentRow.closes_at.desc(), DealPlayedRow.id.desc()),
        )
        past = (
            select(
                DealPlayedRow.player_id,
                DealPlayedRow.performance,
                latest.label("n"),
                mine.c.k,
            )
            .join(TournamentRow, TournamentRow.id == DealPlayedRow.tournament_id)
            .join(mine, mine.c.player_id == DealPlayedRow.player_id)
            .where(
                DealPlayedRow.tournament_id != tournament_id,
                DealPlayedRow.performance.is_not(None),
                TournamentRow.preset.in_(list(presets)),
                TournamentRow.closes_at >= since,
            )
            .subquery()
        )
        within = past.c.n <= window
        kept = past.c.n <= window - past.c.k
        query = (
            select(
                past.c.player_id,
                func.sum(case((within, past.c.performance), else_=0.0)),
                func.sum(case((within, 1), else_=0)),
                func.sum(case((kept, past.c.performance), else_=0.0)),
                func.sum(case((kept, 1), else_=0)),
            )
            .where(within)
            .group_by(past.c.player_id)
        )
        with unavailable(), Session(self.engine) as session:
            return {
                str(player): PastWindow(float(total), int(count), float(kept_sum), int(kept_n))
                for player, total, count, kept_sum, kept_n in session.execute(query)
            }

    def record_performance(self, write: PerformanceWrite) -> bool:
        """Write a closed tournament's performances in one transaction: each deal row's, and
        a ``performance_changes`` row per player. ``False`` (nothing written): they were
        written already — the unique (player, family, tournament) refused them, whoever wrote
        them first. A deleted player's deals (kept under an id that names nobody) have their
        performance written, and no change of a player."""
        if not write.players:
            return False
        try:
            with unavailable(), self.engine.begin() as connection:
                named = [player for player, _value, _deals in write.players]
                alive = set(connection.scalars(select(PlayerRow.id).where(PlayerRow.id.in_(named))))
                changes = [
                    {
                        "player_id": player,
                        "family": write.family,
                        "tournament_id": write.tournament_id,
                        "value": value,
                        "deals": deals,
                        "at": write.at,
                    }
                    for player, value, deals in write.players
                    if player in alive
                ]
                if changes:
                    connection.execute(insert(PerformanceChangeRow), changes)
                if write.deals:
                    connection.execute(
                        update(DealPlayedRow)
                        .where(DealPlayedRow.id == bindparam("row"))
                        .values(performance=bindparam("value")),
                        [{"row": row, "value": value} for row, value in write.deals],
                    )
        except IntegrityError:
            return False
        return True

    def performance(self, player_id: str, family: str) -> PerformancePoint | None:
        """The player's latest performance in ``family`` (``None``: none yet)."""
        history = self.performance_history(player_id, family, limit=1)
        return history[-1] if history else None

    def performance_history(
        self, player_id: str, family: str | None = None, *, limit: int = HISTORY_LIMIT
    ) -> list[PerformancePoint]:
        """The player's latest ``limit`` performances (in ``family``; ``None``: every
        family), oldest first."""
        query = select(PerformanceChangeRow).where(PerformanceChangeRow.player_id == player_id)
        if family is not None:
            query = query.where(PerformanceChangeRow.family == family)
        query = query.order_by(PerformanceChangeRow.id.desc()).limit(limit)
        with unavailable(), Session(self.engine) as session:
            return [
                PerformancePoint(row.family, row.tournament_id, row.value, row.deals, utc(row.at))
                for row in reversed(session.scalars(query).all())
            ]

    def kept_about(self, player_id: str) -> dict[str, list[dict[str, object]]]:
        """The player's performance after each tournament and their places in the leagues,
        for the export."""
        with unavailable(), Session(self.engine) as session:
            changes = session.scalars(
                select(PerformanceChangeRow)
                .where(PerformanceChangeRow.player_id == player_id)
                .order_by(PerformanceChangeRow.id)
            ).all()
            members = session.scalars(
                select(MemberRow)
                .where(MemberRow.player_id == player_id)
                .order_by(MemberRow.season_id)
            ).all()
            return {
                "performance_changes": [
                    {
                        "family": row.family,
                        "tournament": row.tournament_id,
                        "value": row.value,
                        "deals": row.deals,
                        "at": utc(row.at).isoformat(),
                    }
                    for row in changes
                ],
                "league_seasons": [
                    {
                        "season": row.season_id,
                        "division": row.division,
                        "group": row.group_number,
                        "points": row.points,
                        "tournaments": row.tournaments,
                        "place": row.place,
                        "movement": row.movement,
                    }
                    for row in members
                ],
            }

    # -- leagues --

    def season(self, season_id: str) -> Season | None:
        """The season ``season_id`` (``None``: not opened)."""
        with unavailable(), Session(self.engine) as session:
            row = session.get(SeasonRow, season_id)
            return None if row is None else _season(row)

    def due_seasons(self, moment: datetime) -> list[Season]:
        """The seasons over at ``moment`` and not closed yet, oldest first."""
        query = (
            select(SeasonRow)
            .where(SeasonRow.ends_at <= moment, SeasonRow.closed_at.is_(None))
            .order_by(SeasonRow.starts_at)
        )
        with unavailable(), Session(self.engine) as session:
            return [_season(row) for row in session.scalars(query)]

    def last_closed(self, before: datetime) -> Season | None:
        """The latest season closed that started before ``before``."""
        query = (
            select(SeasonRow)
            .where(SeasonRow.closed_at.is_not(None), SeasonRow.starts_at < before)
            .order_by(SeasonRow.starts_at.desc())
            .limit(1)
        )
        with unavailable(), Session(self.engine) as session:
            row = session.scalars(query).first()
            return None if row is None else _season(row)

    def open_season(self, season: Season) -> bool:
        """Make the season (no member yet); ``False``: it was made already."""
        try:
            with unavailable(), self.engine.begin() as connection:
                _insert_season(connection, season)
        except IntegrityError:
            return False
        return True

    def week_mark(self, starts_at: datetime, ends_at: datetime) -> tuple[int, datetime | None]:
        """How many tournaments closing within the week are ranked, and when the latest was:
        what changes when the week's points may."""
        query = select(func.count(), func.max(TournamentRow.closed_at)).where(
            TournamentRow.closed_at.is_not(None),
            TournamentRow.closes_at >= starts_at,
            TournamentRow.closes_at < ends_at,
        )
        with unavailable(), Session(self.engine) as session:
            count, latest = session.execute(query).one()
        return int(count), None if latest is None else utc(latest)

    def members(self, season_id: str) -> list[Member]:
        """Everyone in the season."""
        query = select(MemberRow).where(MemberRow.season_id == season_id)
        with unavailable(), Session(self.engine) as session:
            return [_member(row) for row in session.scalars(query)]

    def week_results(self, starts_at: datetime, ends_at: datetime) -> dict[str, list[float]]:
        """The ranked players' tournament percentages of the tournaments ranked that close
        within the week (``starts_at`` included, ``ends_at`` not)."""
        query = (
            select(EntryRow.player_id, EntryRow.percent)
            .join(TournamentRow, TournamentRow.id == EntryRow.tournament_id)
            .where(
                TournamentRow.closed_at.is_not(None),
                TournamentRow.closes_at >= starts_at,
                TournamentRow.closes_at < ends_at,
                EntryRow.ranked.is_(True),
                EntryRow.percent.is_not(None),
            )
        )
        results: dict[str, list[float]] = defaultdict(list)
        with unavailable(), Session(self.engine) as session:
            for player, percent in session.execute(query):
                results[str(player)].append(float(percent or 0.0))
        return dict(results)

    def score(self, season_id: str, scores: Sequence[tuple[str, float, int]]) -> int:
        """Write members' points and tournaments counted (player, points, tournaments) in the
        open season ``season_id``; answers how many changed."""
        if not scores:
            return 0
        statement = (
            update(MemberRow)
            .where(
                MemberRow.season_id == season_id,
                MemberRow.player_id == bindparam("player"),
            )
            .values(points=bindparam("score"), tournaments=bindparam("count"))
        )
        # By player, as every writer of the members goes: two processes never wait on each
        # other's rows in opposite orders.
        rows = [{"player": p, "score": points, "count": n} for p, points, n in sorted(scores)]
        with unavailable(), self.engine.begin() as connection:
            connection.execute(statement, rows)
        return len(rows)

    def enrol(self, season_id: str, placed: Sequence[tuple[str, int, int]]) -> int:
        """Put players in the open season (player, division, group) with no points yet; those
        in it already are left where they are. Answers how many were put; 0 when another
        process put one of them meanwhile (its call does the rest)."""
        if not placed:
            return 0
        try:
            with unavailable(), self.engine.begin() as connection:
                return _insert_members(connection, season_id, placed)
        except IntegrityError:
            return 0

    def close_season(
        self,
        season_id: str,
        outcomes: Sequence[Member],
        *,
        following: Season,
        placed: Sequence[tuple[str, int, int]],
        at: datetime,
    ) -> bool:
        """Close the season in one transaction: each member's points, place and movement,
        then the following season opened (if it is not) with ``placed`` members (player,
        division, group). ``False`` (nothing written): it was closed already, here or by
        another process."""
        try:
            with unavailable(), self.engine.begin() as connection:
                done = connection.execute(
                    update(SeasonRow)
                    .where(SeasonRow.id == season_id, SeasonRow.closed_at.is_(None))
                    .values(closed_at=at)
                )
                if not done.rowcount:
                    return False
                if outcomes:
                    connection.execute(
                        update(MemberRow)
                        .where(
                            MemberRow.season_id == season_id,
                            MemberRow.player_id == bindparam("player"),
                        )
                        .values(
                            points=bindparam("score"),
                            tournaments=bindparam("count"),
                            place=bindparam("rank"),
                            movement=bindparam("move"),
                        ),
                        [
                            {
                                "player": one.player_id,
                                "score": one.points,
                                "count": one.tournaments,
                                "rank": one.place,
                                "move": one.movement,
                            }
                            for one in sorted(outcomes, key=lambda one: one.player_id)
                        ],
                    )
                exists = connection.scalar(select(SeasonRow.id).where(SeasonRow.id == following.id))
                if exists is None:
                    _insert_season(connection, following)
                _insert_members(connection, following.id, placed)
        except IntegrityError:
            return False
        return True

    def membership(self, season_id: str, player_id: str) -> Member | None:
        """The player's place in the season (``None``: not in it)."""
        with unavailable(), Session(self.engine) as session:
            row = session.get(MemberRow, (season_id, player_id))
            return None if row is None else _member(row)

    def group(self, season_id: str, division: int, group: int) -> list[NamedMember]:
        """A group's members with their names (unordered: the standings order them)."""
        query = (
            select(MemberRow, PlayerRow.name, PlayerRow.hidden_name)
            .join(PlayerRow, PlayerRow.id == MemberRow.player_id)
            .where(
                MemberRow.season_id == season_id,
                MemberRow.division == division,
                MemberRow.group_number == group,
            )
        )
        with unavailable(), Session(self.engine) as session:
            return [
                NamedMember(_member(row), name, name is not None and name == hidden)
                for row, name, hidden in session.execute(query)
            ]

    def hall_of_fame(self, limit: int = 20) -> list[Winner]:
        """The winners of the top division's groups, the latest seasons first."""
        query = (
            select(MemberRow, PlayerRow.name, PlayerRow.hidden_name)
            .join(PlayerRow, PlayerRow.id == MemberRow.player_id)
            .join(SeasonRow, SeasonRow.id == MemberRow.season_id)
            .where(
                and_(
                    SeasonRow.closed_at.is_not(None),
                    MemberRow.division == 1,
                    MemberRow.place == 1,
                )
            )
            .order_by(SeasonRow.starts_at.desc(), MemberRow.group_number)
            .limit(limit)
        )
        with unavailable(), Session(self.engine) as session:
            return [
                Winner(
                    row.season_id,
                    row.group_number,
                    row.player_id,
                    name,
                    name is not None and name == hidden,
                    row.points,
                )
                for row, name, hidden in session.execute(query)
            ]


def _insert_season(connection: Connection, season: Season) -> None:
    connection.execute(
        insert(SeasonRow),
        {"id": season.id, "starts_at": season.starts_at, "ends_at": season.ends_at},
    )


def _insert_members(
    connection: Connection, season_id: str, placed: Sequence[tuple[str, int, int]]
) -> int:
    """In ``connection``'s transaction: ``placed`` members put in the season, but those who
    are in it already (or no longer players)."""
    players = [player for player, _division, _group in placed]
    present = set(
        connection.scalars(
            select(MemberRow.player_id).where(
                MemberRow.season_id == season_id, MemberRow.player_id.in_(players)
            )
        )
    )
    alive = set(connection.scalars(select(PlayerRow.id).where(PlayerRow.id.in_(players))))
    rows = [
        {
            "season_id": season_id,
            "player_id": player,
            "division": division,
            "group_number": group,
            "points": 0.0,
            "tournaments": 0,
        }
        for player, division, group in placed
        if player not in present and player in alive
    ]
    if rows:
        connection.execute(insert(MemberRow), rows)
    return len(rows)


__all__ = [
    "HISTORY_LIMIT",
    "DealMark",
    "LeagueStore",
    "Member",
    "MemberRow",
    "NamedMember",
    "PastWindow",
    "PerformanceChangeRow",
    "PerformancePoint",
    "PerformanceWrite",
    "Season",
    "SeasonRow",
    "TournamentFacts",
    "Winner",
]
