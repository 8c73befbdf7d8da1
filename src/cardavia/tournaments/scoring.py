"""A duplicate tournament's scoring (docs/tournaments.md, "Scoring"): each deal's results
matchpointed against everyone who played that deal, a tournament's score the mean of its
deals', and the places.

- **Matchpoints.** A result scores 1 for each other result of the deal it beats (a greater
  margin: the team's deal score less the opponents'), ½ for each it ties, as a percentage of
  the results it is compared with (the Laws of Duplicate Bridge, Law 78A).
- **Neuberg's correction.** A deal with fewer results ``n`` than the tournament's largest
  field ``N`` is scored as if each of its results had happened ``N / n`` times:
  ``MP' = (MP + ½) · N / n − ½`` on the scale of a top of ``N − 1`` (Gérard Neuberg's
  formula, with which the WBF's, the EBL's and the EBU's pairs events are scored; Max
  Bavin's *The Neuberg Formula*, EBU Laws & Ethics): a top among few results is worth less
  than a top among many, and a result alone on its deal scores 50 %.
- **A deal not played** (or not finished when the tournament closes) scores 25 %.
- **The tournament's score** is the mean of its deals' percentages; **places** go by it,
  best first, and equal scores share a place (1, 2, 2, 4). The arithmetic is exact
  (fractions, and whole units for the sums of a large field): two equal scores are equal
  whatever the order their deals were added in.
- **The par**, a second view: the computer players' own result on the deal from the same
  seat; a result's margin against it (:func:`against_par`) says what the player did better
  or worse than the robots would have.

>>> percentages([100, 20, 20, -50])
{100: Fraction(100, 1), 20: Fraction(50, 1), -50: Fraction(0, 1)}
>>> float(percentages([100, -50], field=4)[100])
83.33333333333333
>>> score([Fraction(100), Fraction(50), None], deals=3)
Fraction(175, 3)
>>> places({"ana": Fraction(60), "bob": Fraction(55), "eve": Fraction(60)})
{'ana': 1, 'eve': 1, 'bob': 3}
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, NamedTuple, TypeVar

UNPLAYED: Final = Fraction(25)
"""The percentage of a deal not played (nor finished) when the tournament closes."""
ALONE: Final = Fraction(50)
"""The percentage of a result with nothing to be compared with (a field of one)."""

Key = TypeVar("Key", bound=Hashable)


def matchpoints(margin: int, others: Iterable[int]) -> Fraction:
    """A result's raw matchpoints: 1 for each of ``others`` (the deal's other margins) it
    beats, ½ for each it ties.

    >>> matchpoints(20, [100, 20, -50])
    Fraction(3, 2)
    """
    return sum(
        (Fraction(int(margin > other) * 2 + int(margin == other), 2) for other in others),
        Fraction(0),
    )


def neuberg(points: Fraction, *, results: int, field: int) -> Fraction:
    """Matchpoints on a deal of ``results`` results, factored up to a ``field`` of results:
    ``(points + ½) · field / results − ½``, on a top of ``field − 1``. Unchanged when the
    deal has the whole field.

    The English Bridge Union's example: a top among 10 results where 11 were expected is
    worth 9.95 of 10 (19.9 of 20 in its half-points).

    >>> neuberg(Fraction(9), results=10, field=11)
    Fraction(199, 20)
    >>> neuberg(Fraction(3, 2), results=4, field=4)
    Fraction(3, 2)
    """
    if not 0 < results <= field:
        raise ValueError(f"{results} results on a field of {field}")
    return (points + Fraction(1, 2)) * field / results - Fraction(1, 2)


def percentages(margins: Sequence[int], *, field: int | None = None) -> dict[int, Fraction]:
    """Each margin's percentage on a deal whose results are ``margins`` (one per player),
    best margin first; ``field``: the tournament's largest field (Neuberg's correction
    when the deal has fewer results; ``None``: this deal's own). A field of one scores
    :data:`ALONE`.

    >>> percentages([10, 10])
    {10: Fraction(50, 1)}
    >>> percentages([30], field=3)
    {30: Fraction(50, 1)}
    """
    results = len(margins)
    field = results if field is None else field
    if field <= 1:
        return dict.fromkeys(sorted(set(margins), reverse=True), ALONE)
    counts = Counter(margins)
    scored: dict[int, Fraction] = {}
    below = 0
    for margin in sorted(counts):
        points = below + Fraction(counts[margin] - 1, 2)
        scored[margin] = neuberg(points, results=results, field=field) * 100 / (field - 1)
        below += counts[margin]
    return dict(sorted(scored.items(), reverse=True))


def score(deals_percentages: Iterable[Fraction | None], *, deals: int) -> Fraction:
    """A tournament's score: the mean of its ``deals`` deals' percentages, those given
    (``None``: not finished) and :data:`UNPLAYED` for each deal missing or unfinished.

    >>> score([], deals=12)
    Fraction(25, 1)
    """
    given = [UNPLAYED if percent is None else percent for percent in deals_percentages]
    if len(given) > deals:
        raise ValueError(f"{len(given)} deals' results in a tournament of {deals}")
    return (sum(given, Fraction(0)) + UNPLAYED * (deals - len(given))) / deals


def places(scores: Mapping[Key, Fraction | int]) -> dict[Key, int]:
    """Each one's place by score, best first; equal scores share a place and the next
    place is counted past them (1, 2, 2, 4). Equal scores keep ``scores``' order."""
    placed: dict[Key, int] = {}
    place, last = 0, None
    for position, key in enumerate(sorted(scores, key=lambda key: -scores[key]), start=1):
        if scores[key] != last:
            place, last = position, scores[key]
        placed[key] = place
    return placed


def against_par(margin: int, par: int) -> int:
    """A result against the par (the computer players' own margin from the same seat):
    positive when the player did better than the robots.

    >>> against_par(40, 62), against_par(62, 62)
    (-22, 0)
    """
    return margin - par


class Result(NamedTuple):
    """One player's finished deal: its number in the tournament and its margin (a tuple:
    a field's results come by the hundred thousand, as the store's rows)."""

    player_id: str
    number: int
    margin: int


@dataclass(frozen=True, slots=True)
class Standing:
    """An entry's standing at closing: its score, and its place when it is ranked."""

    player_id: str
    percent: Fraction
    ranked: bool
    """Whether the player is ranked (held at closing a passkey made before the tournament
    opened): guests, and accounts keyed since, keep their score, without a place."""
    place: int | None


@dataclass(frozen=True, slots=True)
class Standings:
    """A closed tournament's standings: each deal's percentage for each of its margins,
    and each entry's standing, best first."""

    deals: Mapping[int, Mapping[int, Fraction]]
    """Deal number → margin → percentage (with Neuberg's correction)."""
    entries: tuple[Standing, ...]
    field: int
    """The tournament's largest field: the most results any of its deals had."""


def standings(
    deals: int,
    results: Iterable[tuple[str, int, int]],
    entries: Iterable[str],
    ranked: Collection[str],
) -> Standings:
    """A tournament of ``deals`` deals closed: every deal's ``results`` (:class:`Result`:
    player, deal number, margin) scored against the others of that deal, each of
    ``entries`` (the players who entered) scored over every deal, and those of them in
    ``ranked`` (the players with a passkey) placed among themselves. A player's deal not
    in ``results`` scores :data:`UNPLAYED`.

    >>> table = standings(
    ...     2,
    ...     [Result("ana", 1, 40), Result("bob", 1, 10), Result("bob", 2, 0)],
    ...     ["ana", "bob", "guest"],
    ...     ranked={"ana", "bob"},
    ... )
    >>> [(s.player_id, float(s.percent), s.place) for s in table.entries]
    [('ana', 62.5, 1), ('bob', 25.0, 2), ('guest', 25.0, None)]
    """
    if deals < 1:
        raise ValueError(f"a tournament of {deals} deals")
    results = list(results)
    by_deal: dict[int, list[int]] = {}
    for _, number, margin in results:
        by_deal.setdefault(number, []).append(margin)
    field = max((len(margins) for margins in by_deal.values()), default=0)
    scored = {
        number: percentages(margins, field=field) for number, margins in sorted(by_deal.items())
    }
    # The scores summed exactly in whole units of 1/unit of 100 %: every deal's percentages
    # (with the tournament's field) and 25 % are whole numbers of them.
    unit = math.lcm(4, *(2 * len(margins) * max(1, field - 1) for margins in by_deal.values()))
    units = {
        number: {margin: _whole(percent * unit / 100) for margin, percent in margins.items()}
        for number, margins in scored.items()
    }
    unplayed = _whole(UNPLAYED * unit / 100)
    totals = dict.fromkeys(entries, unplayed * deals)
    for player, number, margin in results:
        if player in totals:
            totals[player] += units[number][margin] - unplayed
    placed = places({player: total for player, total in totals.items() if player in ranked})
    ordered = sorted(totals, key=lambda player: (-totals[player], player not in placed, player))
    return Standings(
        scored,
        tuple(
            Standing(
                player,
                Fraction(100 * totals[player], unit * deals),
                player in placed,
                placed.get(player),
            )
            for player in ordered
        ),
        field,
    )


def _whole(value: Fraction) -> int:
    """``value``, known to be a whole number."""
    if value.denominator != 1:
        raise ArithmeticError(f"{value} is not whole")
    return value.numerator


__all__ = [
    "ALONE",
    "UNPLAYED",
    "Result",
    "Standing",
    "Standings",
    "against_par",
    "matchpoints",
    "neuberg",
    "percentages",
    "places",
    "score",
    "standings",
]
