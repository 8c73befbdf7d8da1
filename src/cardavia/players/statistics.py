"""A player's statistics (docs/players.md, "My statistics"): per rules family and over a
chosen period, what their finished deals say — deals played, contracts taken and made,
contracts defended and beaten, the average deal score, belotes, announcements, capots,
coinches and how they ended, the analysis's mistakes where an analysis exists — and their
rating's and tournament performance's curves.

Whose statistics one may read is one rule (:func:`may_see`): a player's own, and a friend's
who agreed to show them to their friends (the setting :data:`SHOWN_TO_FRIENDS`). A
deal still in play is never counted (nor shown): only deals over are read, so nothing of a
deal's hidden cards reaches the page. A deleted player's games, ratings and performances go
with them, and their statistics with those.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Final

from cardavia.belote import DealState, Record, Seat
from cardavia.players.ratings import FAMILIES, Family, Skill, family_of
from cardavia.players.settings import read_settings
from cardavia.store.db import GameStore
from cardavia.store.players import Played

PERIODS: Final[Mapping[str, int | None]] = {"7": 7, "30": 30, "all": None}
"""The periods one may choose, by their code in the page's address: the last 7 days, the
last 30, or all (``None``: no start)."""
DEFAULT_PERIOD: Final = "30"
HISTORY: Final = 500
"""The most points of a rating's or a performance's curve read (the latest)."""

Reviewed = Callable[[str, int], Mapping[str, Any] | None]
"""The analysis data of a game's deal if one exists (``None``: never analysed), without
computing one: :meth:`cardavia.live.learn.Learning.known`."""


class StatisticsRefusedError(Exception):
    """Another player's statistics, asked by someone :func:`may_see` refuses."""


SHOWN_TO_FRIENDS: Final = "friendsSeeStatistics"
"""The setting by which a player lets their friends read their statistics (off unless they
turn it on)."""


def may_see(
    viewer_id: str | None, owner_id: str, *, friends: bool = False, agreed: bool = False
) -> bool:
    """Whether the player ``viewer_id`` may read the statistics of ``owner_id``: their own, or
    a friend's (``friends``: the two are friends) who agreed to show them (``agreed``: the
    owner's setting :data:`SHOWN_TO_FRIENDS`). The one rule every reading of statistics goes
    through.

    >>> may_see("p1", "p1"), may_see("p2", "p1"), may_see(None, "p1")
    (True, False, False)
    >>> may_see("p2", "p1", friends=True), may_see("p2", "p1", friends=True, agreed=True)
    (False, True)
    """
    if viewer_id is None:
        return False
    return viewer_id == owner_id or (friends and agreed)


@dataclass(frozen=True, slots=True)
class DealLine:
    """One finished, played deal (a contract was taken) from a player's seat: the figures
    the statistics add up. ``ours``: the player's side."""

    family: Family
    at: datetime
    ours: int
    theirs: int
    took: bool
    """The player themselves took the contract."""
    defended: bool
    """The opponents took it."""
    made: bool | None
    """Whether the contract was made (``None``: a litige)."""
    belote: bool
    """The player's side scored the belote."""
    announced: int
    """The points of the player's side's accepted announcements."""
    capot_ours: bool
    capot_theirs: bool
    coinched: bool
    """The player's side coinched the opponents' contract."""
    mistakes: int | None = None
    """The player's mistakes by the deal's analysis (``None``: not analysed)."""
    cost: float = 0.0
    """What those cards cost, in deal points from the player's view."""


def deal_line(deal: DealState, seat: Seat, *, family: Family, at: datetime) -> DealLine | None:
    """The figures of one deal from ``seat``: ``None`` for a deal in play or one everybody
    passed (no contract: nothing was played)."""
    result = deal.result
    if not deal.is_over or result is None:
        return None
    us, contract = seat.team, result.contract
    return DealLine(
        family=family,
        at=at,
        ours=result.scores[us],
        theirs=result.scores[us.other],
        took=contract.taker == seat,
        defended=contract.team != us,
        made=result.made,
        belote=result.belote[us] > 0,
        announced=result.announcements[us],
        capot_ours=result.capot == us,
        capot_theirs=result.capot == us.other,
        coinched=contract.team != us and contract.coinche >= 1,
    )


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """A point of a curve: a number, and when."""

    at: datetime
    value: int


@dataclass(frozen=True, slots=True)
class Figures:
    """A family's statistics over the period."""

    family: Family
    deals: int = 0
    taken: int = 0
    taken_made: int = 0
    defended: int = 0
    defeated: int = 0
    """Contracts the opponents took and failed."""
    points_ours: int = 0
    points_theirs: int = 0
    belotes: int = 0
    announcements: int = 0
    """Deals where the player's side's announcements were accepted."""
    announcement_points: int = 0
    capots_made: int = 0
    capots_suffered: int = 0
    coinches: int = 0
    coinches_won: int = 0
    """Coinched contracts that then failed."""
    analysed: int = 0
    mistakes: int = 0
    mistake_cost: float = 0.0
    ratings: tuple[CurvePoint, ...] = ()
    performances: tuple[CurvePoint, ...] = ()

    @property
    def average_ours(self) -> float | None:
        """The player's side's mean score per deal (``None``: no deal)."""
        return self.points_ours / self.deals if self.deals else None

    @property
    def average_theirs(self) -> float | None:
        return self.points_theirs / self.deals if self.deals else None

    @property
    def mistakes_per_deal(self) -> float | None:
        """Mistakes per analysed deal (``None``: none analysed)."""
        return self.mistakes / self.analysed if self.analysed else None

    @property
    def cost_per_deal(self) -> float | None:
        return self.mistake_cost / self.analysed if self.analysed else None


def add_up(family: Family, lines: Sequence[DealLine]) -> Figures:
    """The figures of a family's deals."""
    mine = [line for line in lines if line.family == family]
    reviewed = [line for line in mine if line.mistakes is not None]
    return Figures(
        family=family,
        deals=len(mine),
        taken=sum(line.took for line in mine),
        taken_made=sum(line.took and line.made is True for line in mine),
        defended=sum(line.defended for line in mine),
        defeated=sum(line.defended and line.made is False for line in mine),
        points_ours=sum(line.ours for line in mine),
        points_theirs=sum(line.theirs for line in mine),
        belotes=sum(line.belote for line in mine),
        announcements=sum(line.announced > 0 for line in mine),
        announcement_points=sum(line.announced for line in mine),
        capots_made=sum(line.capot_ours for line in mine),
        capots_suffered=sum(line.capot_theirs for line in mine),
        coinches=sum(line.coinched for line in mine),
        coinches_won=sum(line.coinched and line.made is False for line in mine),
        analysed=len(reviewed),
        mistakes=sum(line.mistakes or 0 for line in reviewed),
        mistake_cost=round(sum(line.cost for line in reviewed), 6),
    )


class Statistics:
    """The players' statistics, read from the store (blocking: call it in a thread)."""

    def __init__(self, store: GameStore, *, reviewed: Reviewed | None = None) -> None:
        self.store = store
        self.reviewed = reviewed

    def _between(self, viewer_id: str | None, owner_id: str) -> dict[str, bool]:
        """What :func:`may_see` asks of two players: whether they are friends, and whether
        the owner agreed to show their statistics to their friends."""
        if viewer_id is None or viewer_id == owner_id:
            return {}
        if not self.store.friends.are_friends(viewer_id, owner_id):
            return {}
        owner = self.store.players.load(owner_id)
        agreed = owner is not None and read_settings(owner.settings).get(SHOWN_TO_FRIENDS) is True
        return {"friends": True, "agreed": agreed}

    def of(
        self, viewer_id: str | None, owner_id: str, *, period: str, now: datetime
    ) -> tuple[Figures, ...]:
        """The statistics of ``owner_id`` over ``period`` (a key of :data:`PERIODS`), for
        ``viewer_id``: :class:`StatisticsRefusedError` unless :func:`may_see` allows it;
        :class:`ValueError` for a period that is none of :data:`PERIODS`. One
        :class:`Figures` per family the player played in the period (rated or not)."""
        if not may_see(viewer_id, owner_id, **self._between(viewer_id, owner_id)):
            raise StatisticsRefusedError(owner_id)
        if period not in PERIODS:
            raise ValueError(f"unknown period {period!r}")
        days = PERIODS[period]
        since = None if days is None else now - timedelta(days=days)
        lines = [
            line
            for played in self.store.players.played(owner_id)
            for line in self._lines(played)
            if since is None or line.at >= since
        ]
        shown = []
        for family in FAMILIES:
            figures = add_up(family, lines)
            ratings = self._ratings(owner_id, family, since)
            performances = self._performances(owner_id, family, since)
            if figures.deals or ratings or performances:
                shown.append(_with_curves(figures, ratings, performances))
        return tuple(shown)

    def _lines(self, played: Played) -> list[DealLine]:
        """The finished, played deals of one game the player sat at, from their seat."""
        stored = self.store.load(played.game_id)
        if stored is None:
            return []
        match = Record.from_json(stored.record).replay()
        seat = Seat[played.seat or stored.seat or "S"]
        family = family_of(stored.rules)
        lines = []
        for number, deal in enumerate(match.deals, start=1):
            # As My games dates them: the first deal when they sat down, later ones at the
            # game's last change.
            at = played.at if number == 1 else stored.updated_at
            line = deal_line(deal, seat, family=family, at=at)
            if line is None:
                continue
            review = None if self.reviewed is None else self.reviewed(stored.id, number)
            seats = None if review is None else review.get("seats")
            if isinstance(seats, Mapping) and seat.name in seats:
                own = seats[seat.name]
                line = _reviewed(line, int(own["mistakes"]), float(own["seat_view_cost"]))
            lines.append(line)
        return lines

    def _ratings(
        self, owner_id: str, family: Family, since: datetime | None
    ) -> tuple[CurvePoint, ...]:
        changes = self.store.ratings.history(owner_id, family, limit=HISTORY)
        return tuple(
            CurvePoint(change.at, Skill(change.mu, change.sigma).display)
            for change in changes
            if since is None or change.at >= since
        )

    def _performances(
        self, owner_id: str, family: Family, since: datetime | None
    ) -> tuple[CurvePoint, ...]:
        points = self.store.leagues.performance_history(owner_id, family, limit=HISTORY)
        return tuple(
            CurvePoint(point.at, round(point.value))
            for point in points
            if since is None or point.at >= since
        )


def _reviewed(line: DealLine, mistakes: int, cost: float) -> DealLine:
    return replace(line, mistakes=mistakes, cost=cost)


def _with_curves(
    figures: Figures, ratings: tuple[CurvePoint, ...], performances: tuple[CurvePoint, ...]
) -> Figures:
    return replace(figures, ratings=ratings, performances=performances)


__all__ = [
    "DEFAULT_PERIOD",
    "PERIODS",
    "SHOWN_TO_FRIENDS",
    "CurvePoint",
    "DealLine",
    "Figures",
    "Reviewed",
    "Statistics",
    "StatisticsRefusedError",
    "add_up",
    "deal_line",
    "may_see",
]
