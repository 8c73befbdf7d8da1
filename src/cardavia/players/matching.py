"""Quick play's seating (docs/players.md, "Quick play"): who of the people waiting for a
rules preset sit down together, where, and with which computer players.

Pure: given the people waiting (:class:`Waiting`: their hidden skill, language, when they
came, whom they are kept apart from, how much longer they wait) and the time, answer the
tables to form (:class:`Formed`). The queue itself (memory or Redis) and the rooms made of
these tables are :mod:`cardavia.live.quickplay`'s.

- A table of four people forms as soon as four compatible people wait: the longest waiting
  first, with the three others closest to them in language first, then in skill.
- After :data:`DEFAULT_WAIT` seconds (a setting) the longest waiting sits down with whoever
  else is waiting and compatible (one to three people), computer players in the empty seats,
  of the level whose fixed rating is nearest the people's skill
  (:data:`cardavia.players.ratings.COMPUTER_RATINGS`, in the preset's family).
- The four are placed so that the teams are balanced: the two partnerships' skills as equal
  as they can be (people partnered together when it makes no difference).
- Two people kept apart (a block, either way) are never at one table.
- Two entries of one client (the address, or its IPv6 /64, that the fair-use limits count:
  :func:`cardavia.web.http_helpers.client_of`) are never at one table: a rated table is
  made of people who are not one person's several guests.
- A player who abandons often waits longer (:func:`extra_wait`) before being matched.

>>> a, b, c, d = (Waiting(str(n), skill=25.0 + n, lang="fr", since=0.0) for n in range(4))
>>> [table.people_count for table in form_tables([a, b, c, d], now=0.0)]
[4]
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from cardavia.belote import Seat
from cardavia.players.ratings import MU, Family, computer_rating, nearest_level

DEFAULT_SKILL: Final = MU
"""The skill of a player never rated: the rating model's default mean (openskill's mu)."""
DEFAULT_WAIT: Final = 20.0
"""Seconds before the people waiting sit down with computer players (``CARDAVIA_QUICK_WAIT``)."""
FULL_TABLE: Final = 4
SLOWER_FROM: Final = 5
"""Games a player must have ended before their completion rate slows their matching."""
SLOWER_BELOW: Final = 0.8
"""The completion rate under which a player waits longer."""
SLOWER_STEP: Final = 10.0
"""Seconds more for each 10 points of completion rate under :data:`SLOWER_BELOW`."""
SLOWER_CAP: Final = 60.0
"""The most seconds a player's completion rate adds to their wait."""
LANGUAGE_WEIGHT: Final = 1000.0
"""What a table's each person of another language costs, against skill points: language
first, skill second."""
CANDIDATES: Final = 12
"""The people looked at as the longest waiting's table companions (the closest in language
and skill): the choice of three among them is then made in full."""
PARTNERS: Final = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))
"""The three ways four players make two partnerships."""
PERFORMANCE_SCALE: Final = 0.4
"""Rating points (the model's mean) per point of tournament performance away from 50: a
player whose deals score 70 % against the field seats as 33 (about the expert computer
player), one at 30 % as 17 (about the beginner)."""
BLEND_DEALS: Final = 20
"""The deals a performance must be made of to weigh as much as a rating of as many deals
plus these: a first tournament moves a player's skill, a season of them more."""


def seating_skill(
    mu: float | None, rated_deals: int, performance: float | None, performance_deals: int
) -> float:
    """The hidden skill quick play seats a player by (docs/tournaments.md, "Performance"):
    their rating's mean (``None``: never rated, :data:`DEFAULT_SKILL`) blended with their
    tournament performance (percent; ``None``: none) turned to the rating's scale
    (:data:`PERFORMANCE_SCALE`), each weighed by the deals it is made of.

    >>> seating_skill(27.0, 40, None, 0), seating_skill(None, 0, 60.0, 12)
    (27.0, 26.5)
    """
    base = DEFAULT_SKILL if mu is None else mu
    if performance is None or performance_deals <= 0:
        return base
    share = performance_deals / (performance_deals + rated_deals + BLEND_DEALS)
    from_deals = DEFAULT_SKILL + (performance - 50.0) * PERFORMANCE_SCALE
    return (1 - share) * base + share * from_deals


def extra_wait(finished: int, abandoned: int) -> float:
    """How many seconds more a player waits before being matched, from how their quick-play
    games ended: none before :data:`SLOWER_FROM` games or at :data:`SLOWER_BELOW` and above;
    else :data:`SLOWER_STEP` for each 10 points (begun) under 80 %, at most
    :data:`SLOWER_CAP`.

    >>> extra_wait(1, 3), extra_wait(8, 2), extra_wait(7, 3), extra_wait(3, 7), extra_wait(0, 9)
    (0.0, 0.0, 10.0, 50.0, 60.0)
    """
    ended = finished + abandoned
    if ended < SLOWER_FROM:
        return 0.0
    short = SLOWER_BELOW - finished / ended
    if short <= 1e-9:
        return 0.0
    return min(SLOWER_CAP, SLOWER_STEP * math.ceil(round(short * 10, 6)))


@dataclass(frozen=True, slots=True)
class Waiting:
    """A person waiting for a table: their player's id, hidden skill (their rating's mean for
    the preset's family), language, when they came (seconds since the epoch), the players
    they are kept apart from, the seconds more they wait (:func:`extra_wait`), and the
    client they joined from (``""``: unknown, kept apart from nobody)."""

    player: str
    skill: float = DEFAULT_SKILL
    lang: str = "en"
    since: float = 0.0
    apart: frozenset[str] = frozenset()
    slower: float = 0.0
    client: str = ""

    def ready(self, now: float) -> bool:
        """Whether they may be matched now (their extra wait over)."""
        return now >= self.since + self.slower

    def waited_out(self, now: float, wait: float) -> bool:
        """Whether they have waited long enough to sit down with computer players."""
        return now >= self.since + self.slower + wait

    def compatible(self, other: Waiting) -> bool:
        """Whether the two may sit at one table: neither keeps the other apart, and they did
        not join from one client (one person's two guests would rate each other)."""
        if self.client and self.client == other.client:
            return False
        return other.player not in self.apart and self.player not in other.apart


@dataclass(frozen=True, slots=True)
class Formed:
    """A table to form: who sits in each seat (a person, or a computer player of ``level``),
    and the table's language (the people's most common, the longest waiting's on a tie)."""

    seats: Mapping[Seat, Waiting | None]
    level: str
    lang: str

    @property
    def people(self) -> dict[Seat, Waiting]:
        """The people's seats."""
        return {seat: who for seat, who in self.seats.items() if who is not None}

    @property
    def people_count(self) -> int:
        """How many people sit at the table."""
        return len(self.people)


def _cost(first: Waiting, others: Sequence[Waiting]) -> float:
    """How far a group is from one table of one language and one skill."""
    group = (first, *others)
    languages = Counter(who.lang for who in group)
    strangers = len(group) - max(languages.values())
    skills = [who.skill for who in group]
    return LANGUAGE_WEIGHT * strangers + (max(skills) - min(skills))


def _companions(first: Waiting, pool: Sequence[Waiting], size: int) -> tuple[Waiting, ...] | None:
    """The ``size`` people of ``pool`` to sit with ``first``: compatible with them and with
    each other, the group nearest one language and one skill; ``None`` if none can."""
    near = sorted(
        (who for who in pool if who.compatible(first)),
        key=lambda who: (who.lang != first.lang, abs(who.skill - first.skill), who.since),
    )[:CANDIDATES]
    best: tuple[float, tuple[Waiting, ...]] | None = None
    for group in itertools.combinations(near, size):
        if not all(one.compatible(two) for one, two in itertools.combinations(group, 2)):
            continue
        cost = _cost(first, group)
        if best is None or cost < best[0]:
            best = (cost, group)
    return None if best is None else best[1]


def seat_table(people: Sequence[Waiting], level: str, family: Family = "classic") -> Formed:
    """Seat people (one to four) and computer players of ``level`` (their fixed rating in
    ``family``) so that the partnerships are balanced: North–South's skill as near
    East–West's as can be, people partnered with people when that makes no difference."""
    computer = computer_rating(level, family).mu
    players: list[Waiting | None] = [*people, *([None] * (FULL_TABLE - len(people)))]

    def skill(who: Waiting | None) -> float:
        return computer if who is None else who.skill

    def imbalance(pairs: tuple[tuple[int, int], tuple[int, int]]) -> tuple[float, int]:
        (a, b), (c, d) = pairs
        gap = abs(skill(players[a]) + skill(players[b]) - skill(players[c]) - skill(players[d]))
        mixed = sum((players[x] is None) != (players[y] is None) for x, y in pairs)
        return round(gap, 6), mixed

    (a, b), (c, d) = min(PARTNERS, key=imbalance)
    order = (players[a], players[c], players[b], players[d])  # N, E, S, W
    seats = dict(zip(Seat, order, strict=True))
    languages = Counter(who.lang for who in people)
    top = max(languages.values())
    lang = next(
        who.lang for who in sorted(people, key=lambda w: w.since) if languages[who.lang] == top
    )
    return Formed(seats, level, lang)


def level_for(people: Iterable[Waiting], family: Family = "classic") -> str:
    """The computer level whose rating in ``family`` is nearest the people's mean skill."""
    skills = [who.skill for who in people]
    return nearest_level(sum(skills) / len(skills), family)


def form_tables(
    waiting: Sequence[Waiting],
    *,
    now: float,
    wait: float = DEFAULT_WAIT,
    family: Family = "classic",
) -> list[Formed]:
    """The tables to form now from the people ``waiting`` for one preset: full tables of
    four first, the longest waiting first; then, for whoever has waited ``wait`` seconds, a
    table with the others compatible and computer players in the empty seats. The people not
    seated stay waiting. ``family``: the preset's rules family (the computer players'
    ratings in it)."""
    pool = sorted((who for who in waiting if who.ready(now)), key=lambda who: who.since)
    tables: list[Formed] = []
    for first in list(pool):
        if first not in pool or len(pool) < FULL_TABLE:
            continue
        others = [who for who in pool if who is not first]
        group = _companions(first, others, FULL_TABLE - 1)
        if group is not None:
            four = (first, *group)
            tables.append(seat_table(four, level_for(four, family), family))
            pool = [who for who in pool if who not in four]
    for first in list(pool):
        if first not in pool or not first.waited_out(now, wait):
            continue
        others = [who for who in pool if who is not first]
        people: tuple[Waiting, ...] = (first,)
        for size in range(min(FULL_TABLE - 1, len(others)), 0, -1):
            group = _companions(first, others, size)
            if group is not None:
                people = (first, *group)
                break
        tables.append(seat_table(people, level_for(people, family), family))
        pool = [who for who in pool if who not in people]
    return tables


__all__ = [
    "BLEND_DEALS",
    "DEFAULT_SKILL",
    "DEFAULT_WAIT",
    "PERFORMANCE_SCALE",
    "Formed",
    "Waiting",
    "extra_wait",
    "form_tables",
    "level_for",
    "seat_table",
    "seating_skill",
]
