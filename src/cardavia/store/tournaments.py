"""The duplicate tournaments as kept: each tournament (its preset, its computer players'
level and version, its window, its deals' seeds — secret until it closes — and their
published SHA-256), the players who entered it, every deal each of them played (one attempt
per deal: a unique row) and the computer players' own result on each deal, the par
(docs/tournaments.md).

The rows are the schema of revision ``0008_tournaments``; :class:`TournamentStore` (the
store's ``tournaments``) writes and reads tournaments, entries and the deals played;
:mod:`cardavia.store.standings` ranks them when a tournament closes.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from cardavia.store.base import Base


def _player_key(*, primary_key: bool = False) -> Mapped[str]:
    return mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=primary_key
    )


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


class ParRow(Base):
    """The computer players' own result on a deal, from the tournament's seat: the datum."""

    __tablename__ = "tournament_pars"

    tournament_id: Mapped[str] = _tournament_key(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    margin: Mapped[int] = mapped_column(Integer)
    contract: Mapped[str | None] = mapped_column(String(48), nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentStore:
    """The tournaments, their entries and deals played, in the store's database (each
    method one short transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine


__all__ = ["DealPlayedRow", "EntryRow", "ParRow", "TournamentRow", "TournamentStore"]
