"""The ratings of the tables between people (docs/players.md, "Ratings"): one skill estimate
per player and rules family, updated after each deal of a quick-play table by the deal's
score, with ``openskill``'s Plackett-Luce model (Weng-Lin: a mean ``mu`` and an uncertainty
``sigma`` per player, two teams of two).

- **The margin.** The model is told who won the deal (a tie is a draw); the change of each
  player's mean is then weighed by the deal's margin (:func:`margin_weight`: 0.5 for a tie
  up to 1.5 for a margin of a whole spread of the family's deal scores or more). openskill's
  own ``scores=`` is not used: its margin moves the winners' effective mean by their lead
  over the losers, so between equal ratings — every newcomer — a rout counts no more than
  a narrow win.
- **The people.** A table's change is weighed by how many of its seats were people
  (:func:`people_weight`: people / 4, on the mean's change and on the uncertainty's): a deal
  beside three computer players tells a quarter of what a deal among four people does.
- **The computer players** hold fixed ratings (:data:`COMPUTER_RATINGS`, version
  :data:`COMPUTER_RATINGS_VERSION`), measured from the arena's ladder, and are never
  updated.
- **Provisional** for the first :data:`PROVISIONAL_DEALS` rated deals: shown as such; the
  mean is the skill estimate from the first deal on (quick play seats by it).

>>> family_of("coinche"), family_of("maison")
('coinche', 'classic')
>>> table = (COMPUTER, NEWCOMER, COMPUTER, NEWCOMER)
>>> after = rate_deal(table, "classic", scores=(0, 162), people=(1, 3), level="club")
>>> after[1].mu > NEWCOMER.mu, after[0] == computer_rating("club", "classic")
(True, True)
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from openskill.models import PlackettLuce

from cardavia.belote import Rules, find_rules
from cardavia.store.ratings import RatingChange, RatingStore, StoredChange, StoredRating

Family = Literal["classic", "coinche"]
FAMILIES: Final[tuple[Family, ...]] = ("classic", "coinche")
"""The rules families rated apart: the coinche auction, and the classic bidding (two rounds
with a turned card: the Cardavia, house and Maghreb presets)."""
MU: Final = 25.0
"""A newcomer's mean (openskill's scale): the club level's."""
SIGMA: Final = 25.0 / 3.0
"""A newcomer's uncertainty."""
BETA: Final[Mapping[Family, float]] = {"classic": 74.15, "coinche": 21.72}
"""How much one deal's outcome varies around the players' skills, per family: derived with
the computer players' ratings (:data:`COMPUTER_RATINGS`) so that the arena's ladder, from
beginner to expert, spans two newcomer uncertainties (``2 * SIGMA``). A deal of the classic
bidding is much more luck than a coinche deal (club beats beginner in 54% of classic deals,
62% of coinche ones)."""
MARGIN_SPREAD: Final[Mapping[Family, float]] = {"classic": 110.0, "coinche": 200.0}
"""The spread (standard deviation) of a deal's margin between the teams, per family, as
measured between club and beginner (1,200 duplicate pairs): a margin this wide or wider
weighs 1.5."""
PROVISIONAL_DEALS: Final = 10
"""Rated deals before a rating stops being provisional."""
DISPLAY_CENTER: Final = 1500
"""The display number of a newcomer (``MU``), a familiar middle."""
DISPLAY_SCALE: Final = 40.0
"""Display points per point of the mean: the arena's ladder shows as about 1160 (beginner)
to 1830 (expert) at classic, 1220 to 1890 at coinche."""
COMPUTER_RATINGS_VERSION: Final = "ladder-2026-11-30"
"""The version of :data:`COMPUTER_RATINGS`: the arena's ladder they were derived from (the
docs/strength.md, 500 duplicate pairs a rung) and the derivation (docs/players.md)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: the model's mean and uncertainty."""

    mu: float
    sigma: float

    @property
    def display(self) -> int:
        """The number shown: the mean on a familiar scale (1500 a newcomer's).

        >>> NEWCOMER.display, Skill(27.5, 3.0).display
        (1500, 1600)
        """
        return round(DISPLAY_CENTER + DISPLAY_SCALE * (self.mu - MU))


NEWCOMER: Final = Skill(MU, SIGMA)
"""The rating of a player never rated in a family."""
COMPUTER: Final = Skill(MU, SIGMA)
"""A placeholder for a computer seat in :func:`rate_deal` (replaced by its level's)."""

COMPUTER_RATINGS: Final[Mapping[str, Mapping[Family, Skill]]] = {
    "beginner": {"classic": Skill(16.55, 1.0), "coinche": Skill(18.09, 1.0)},
    "club": {"classic": Skill(25.0, 1.0), "coinche": Skill(25.0, 1.0)},
    "strong": {"classic": Skill(31.49, 1.0), "coinche": Skill(32.54, 1.0)},
    "expert": {"classic": Skill(33.22, 1.01), "coinche": Skill(34.76, 1.07)},
}
"""Each computer level's fixed rating per family (version :data:`COMPUTER_RATINGS_VERSION`).
From the arena's mean margins per deal between neighbouring levels: a margin ``m`` is a deal
won with probability ``Φ(m / s)`` (``s`` measured: 252 classic, 227 coinche, from club
against beginner's margins and win rate), which in the model between two teams of two is a
difference of means of ``c · logit(P) / 2``; club sits at a newcomer's mean; the uncertainty
is the ladder's (its confidence intervals), at least 1."""


def family_of(rules: str | Rules) -> Family:
    """The rules family of a preset (its name or its rules): ``coinche`` for the coinche
    auction, ``classic`` for the others."""
    found = find_rules(rules) if isinstance(rules, str) else rules
    return "coinche" if found.bidding == "auction" else "classic"


def computer_rating(level: str, family: Family) -> Skill:
    """The fixed rating of a computer level (a level not in the table: the weakest's)."""
    return COMPUTER_RATINGS.get(level, COMPUTER_RATINGS["beginner"])[family]


def nearest_level(mu: float, family: Family) -> str:
    """The computer level whose rating is nearest to a skill ``mu`` (to seat computer
    players of a level near the people's).

    >>> nearest_level(25.4, "classic"), nearest_level(40.0, "coinche")
    ('club', 'expert')
    """
    return min(COMPUTER_RATINGS, key=lambda level: abs(COMPUTER_RATINGS[level][family].mu - mu))


def is_provisional(deals: int) -> bool:
    """Whether a rating made of ``deals`` rated deals is still provisional."""
    return deals < PROVISIONAL_DEALS


def margin_weight(scores: tuple[int, int], family: Family) -> float:
    """How much a deal's margin weighs its change: 0.5 for a tie, up to 1.5 for a margin of
    :data:`MARGIN_SPREAD` or more.

    >>> margin_weight((81, 81), "classic"), margin_weight((0, 252), "classic")
    (0.5, 1.5)
    """
    margin = abs(scores[0] - scores[1])
    return 0.5 + min(margin, MARGIN_SPREAD[family]) / MARGIN_SPREAD[family]


def people_weight(people: int) -> float:
    """How much a table's change weighs, by how many of its four seats were people."""
    return max(0, min(people, 4)) / 4


def rate_deal(
    table: Sequence[Skill],
    family: Family,
    *,
    scores: tuple[int, int],
    people: Collection[int],
    level: str,
) -> tuple[Skill, Skill, Skill, Skill]:
    """The four seats' ratings after a deal (``table`` in seat order N, E, S, W; N–S one
    team), its ``scores`` (N–S, E–W); ``people``: the seats of people — the others are
    computer players of ``level``, whose fixed rating is used and given back unchanged."""
    seats = [
        skill if seat in people else computer_rating(level, family)
        for seat, skill in enumerate(table)
    ]
    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA[family])
    ratings = [model.rating(mu=skill.mu, sigma=skill.sigma) for skill in seats]
    ranks = [1.0, 1.0] if scores[0] == scores[1] else [1.0, 2.0]
    if scores[0] < scores[1]:
        ranks = [2.0, 1.0]
    north, east, south, west = ratings
    (new_north, new_south), (new_east, new_west) = model.rate(
        [[north, south], [east, west]], ranks=ranks
    )
    rated = (new_north, new_east, new_south, new_west)
    share = people_weight(len(people))
    margin = margin_weight(scores, family)
    after = [
        Skill(
            old.mu + (new.mu - old.mu) * share * margin,
            max(old.sigma + (new.sigma - old.sigma) * share, 0.0),
        )
        if seat in people
        else old
        for seat, (old, new) in enumerate(zip(seats, rated, strict=True))
    ]
    return after[0], after[1], after[2], after[3]


@dataclass(frozen=True, slots=True)
class RatedDeal:
    """A finished deal of a quick-play table, as the ratings read it: the room and game, the
    deal's number in it, the family, the computer players' level, who sat in each seat (N, E,
    S, W: a player's id, ``""`` for a person without a player, ``None`` for a computer
    player), the deal's scores (N–S, E–W), and the seat whose change alone is kept
    (``only``: a deal left for good mid-way, rated for its leaver alone; ``None``: every
    player's)."""

    room_code: str
    game_id: str
    deal: int
    family: Family
    level: str
    seats: tuple[str | None, str | None, str | None, str | None]
    scores: tuple[int, int]
    only: int | None = None


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in a family as the profile shows it."""

    family: Family
    skill: Skill
    deals: int

    @property
    def provisional(self) -> bool:
        """Whether it is still provisional (too few rated deals)."""
        return is_provisional(self.deals)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """One point of a rating's history: the rating after a rated deal, and when."""

    skill: Skill
    at: datetime
    """In UTC."""

    @classmethod
    def of(cls, change: StoredChange) -> RatingPoint:
        """The point of a kept change."""
        return cls(Skill(change.mu, change.sigma), change.at)


class Ratings:
    """The players' ratings in the store: a finished deal rated (once), a player's ratings
    and history read. Each call one short transaction, on a worker thread."""

    def __init__(self, store: RatingStore) -> None:
        self.store = store

    def _rate(self, deal: RatedDeal) -> bool:
        players = [player for player in deal.seats if player]
        if not players:
            return False
        kept = self.store.of_players(players, deal.family)
        table = [_skill(kept.get(player)) if player else NEWCOMER for player in deal.seats]
        people = [seat for seat, player in enumerate(deal.seats) if player is not None]
        after = rate_deal(table, deal.family, scores=deal.scores, people=people, level=deal.level)
        changes = [
            RatingChange(player, skill.mu, skill.sigma)
            for seat, (player, skill) in enumerate(zip(deal.seats, after, strict=True))
            if player and deal.only in (None, seat)
        ]
        return self.store.record(
            changes,
            family=deal.family,
            room_code=deal.room_code,
            game_id=deal.game_id,
            deal=deal.deal,
        )

    async def rate(self, deal: RatedDeal) -> bool:
        """Rate a finished deal: each player's rating changed and the change kept; ``False``
        when it was counted already (by this process or another) or has no player."""
        return await asyncio.to_thread(self._rate, deal)

    async def room_players(self, room_code: str) -> dict[str, str]:
        """Who holds each seat of a room (the seat's name, ``N`` to ``W``: its player)."""
        return await asyncio.to_thread(self.store.room_players, room_code)

    async def of_player(self, player_id: str) -> list[Rating]:
        """The player's rating in each family they were rated in (in :data:`FAMILIES`
        order)."""
        kept = await asyncio.to_thread(self.store.of_player, player_id)
        return [
            Rating(family, _skill(kept[family]), kept[family].deals)
            for family in FAMILIES
            if family in kept
        ]

    async def history(self, player_id: str, family: Family) -> list[RatingPoint]:
        """The player's latest changes in ``family``, oldest first."""
        changes = await asyncio.to_thread(self.store.history, player_id, family)
        return [RatingPoint.of(change) for change in changes]


def _skill(stored: StoredRating | None) -> Skill:
    return NEWCOMER if stored is None else Skill(stored.mu, stored.sigma)


def skill_of(stored: StoredRating | None) -> float:
    """The skill estimate to seat a player by: their mean, a newcomer's when never rated
    (usable from the first deal, provisional or not)."""
    return MU if stored is None else stored.mu


__all__ = [
    "BETA",
    "COMPUTER",
    "COMPUTER_RATINGS",
    "COMPUTER_RATINGS_VERSION",
    "DISPLAY_CENTER",
    "DISPLAY_SCALE",
    "FAMILIES",
    "MARGIN_SPREAD",
    "MU",
    "NEWCOMER",
    "PROVISIONAL_DEALS",
    "SIGMA",
    "Family",
    "RatedDeal",
    "Rating",
    "RatingPoint",
    "Ratings",
    "Skill",
    "computer_rating",
    "family_of",
    "is_provisional",
    "margin_weight",
    "nearest_level",
    "people_weight",
    "rate_deal",
    "skill_of",
]
