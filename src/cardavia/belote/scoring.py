"""Scoring a deal (docs/rules.md 8, docs/rules-decisions.md), with a breakdown a person can read.

:func:`deal_outcome` is the one rule of scoring: from the facts of a deal (the contract, each
team's card points, the capot, the belotes, the accepted announcements) it says whether the
contract is made and what each team scores, on whole points or on fractional ones (the
bidding simulation scores expected card points with it). :func:`score_deal` takes the facts
of a finished deal and answers a :class:`DealScore`: both teams' points and every line that
made them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Generic, TypeVar

from cardavia.belote.announcements import Announcement, comparison_winner
from cardavia.belote.auction import Contract
from cardavia.belote.cards import TEAMS, Team
from cardavia.belote.play import LAST_TRICK_BONUS, Strain, values_for
from cardavia.belote.rules import Rules

USUAL_CARD_TOTAL: Final = 152
"""The points in the cards under the usual scales; ``capot_points`` are written against it."""

USUAL_DEAL_TOTAL: Final = USUAL_CARD_TOTAL + LAST_TRICK_BONUS
"""The points of a deal under the usual scales, the last trick included: 162."""

Points = TypeVar("Points", int, float)
"""Card points: whole at a table, fractional in the bidding simulation's expectations."""


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a breakdown: what it is (a code and its words), and the points per team."""

    code: str
    text: str
    ns: int = 0
    ew: int = 0

    def points(self, team: Team) -> int:
        """The line's points for a team."""
        return self.ns if team == Team.NS else self.ew


@dataclass(frozen=True, slots=True)
class DealScore:
    """The score of a finished deal and how it was reached."""

    contract: Contract
    made: bool | None
    """Whether the contract was made; ``None`` for a litige (docs/rules.md 8)."""
    card_points: tuple[int, int]
    """Each team's card points, last trick or capot included."""
    belote: tuple[int, int]
    announcements: tuple[int, int]
    """The accepted announcements' points of each team, before a failure or a capot moves
    them."""
    announcement_winner: Team | None
    capot: Team | None
    multiplier: int
    exact: tuple[int, int]
    """The scores before rounding."""
    scores: tuple[int, int]
    """What each team scores for the deal."""
    reserve: int = 0
    """Points put in reserve by a litige, for the winner of the next deal."""
    lines: tuple[ScoreLine, ...] = field(default=())

    def score(self, team: Team) -> int:
        """A team's points for the deal."""
        return self.scores[team]

    def __str__(self) -> str:
        width = max(len(line.text) for line in self.lines)
        rows = [f"{'':{width}}  {'NS':>5} {'EW':>5}"]
        rows += [f"{line.text:{width}}  {line.ns:>5} {line.ew:>5}" for line in self.lines]
        return "\n".join(rows)


def deal_points(rules: Rules, strain: Strain) -> int:
    """The points of a deal in this contract, the last trick included: 162 under the usual
    scales, 130 with ``no_trump_points`` ``plain``, 258 with ``all_trump_points`` ``trump``
    (docs/rules.md 1). A failed classic contract gives the defenders this total
    (docs/rules.md 8)."""
    return values_for(rules, strain).total_points + LAST_TRICK_BONUS


def capot_value(rules: Rules, strain: Strain) -> int:
    """The card points of a team that takes all eight tricks (docs/rules.md 8): ``capot_points``
    under the usual scales (252: the last trick's 10 replaced by 100; or 250); under another
    scale, the capot follows it and keeps its bonus over the deal's total
    (docs/rules-decisions.md "Scoring": 220 in a plain no-trump, 348 in a trump all-trump)."""
    return rules.capot_points + deal_points(rules, strain) - USUAL_DEAL_TOTAL


@dataclass(frozen=True, slots=True)
class Outcome(Generic[Points]):
    """What the rules make of a deal's facts: whether the contract is made, and the scores."""

    made: bool | None
    """Whether the contract was made; ``None`` for a litige (docs/rules.md 8)."""
    scores: tuple[Points, Points]
    """What each team scores, before rounding."""
    reserve: Points
    """The takers' points put in reserve by a litige, for the winner of the next deal."""
    multiplier: int
    """×1, or ×2 / ×4 for a coinched / surcoinched contract."""
    announcements: tuple[int, int]
    """The accepted announcements as scored: on a capot, the capot team has both teams'."""


def deal_outcome(
    rules: Rules,
    contract: Contract,
    *,
    cards: tuple[Points, Points],
    capot: Team | None,
    belote: tuple[int, int],
    announcements: tuple[int, int],
    taker_alone: bool = False,
) -> Outcome[Points]:
    """Whether ``contract`` is made and what each team scores (docs/rules.md 8), before rounding.

    ``cards``: each team's card points, the last trick included, or :func:`capot_value` for
    a team with all eight tricks (``capot``); ``belote``: each team's belote points;
    ``announcements``: each team's accepted announcements (the comparison's winner only);
    ``taker_alone``: the taker alone took all eight tricks (a générale).
    """
    takers, defenders = contract.team, contract.team.other
    ann = list(announcements)
    if capot is not None:
        # docs/rules.md 8 (FFB): on a capot, the capotted team's announcements change hands.
        ann[capot] += ann[capot.other]
        ann[capot.other] = 0
    moved = (ann[0], ann[1])
    zero = cards[0] - cards[0]
    kept = rules.belote_on_failure == "kept"
    # docs/rules.md 8: the fixed totals (162 on failure, the capot) follow the scale in force.
    total = deal_points(rules, contract.strain)
    counted = [
        cards[t] + ann[t] + (belote[t] if rules.belote_counts_for_contract else 0) for t in TEAMS
    ]
    if rules.bidding == "classic":
        totals = [cards[t] + ann[t] + belote[t] for t in TEAMS]
        made: bool | None
        if counted[takers] > counted[defenders]:
            made = True
        elif counted[takers] < counted[defenders]:
            made = False
        else:
            made = {"made": True, "failed": False, "litige": None}[rules.tie]
        scores = [zero, zero]
        reserve = zero
        if made:
            scores = totals
        elif made is None:
            # Litige: the defenders score theirs, the takers' points wait for the next deal's
            # winner; the belote is not put in reserve (docs/rules.md 8; FFB: it is "imprenable").
            scores[defenders] = totals[defenders]
            scores[takers] = zero + belote[takers]
            reserve = totals[takers] - belote[takers]
        else:
            # Failed: the defenders take the deal's points (the capot's if they took all eight
            # tricks) and every accepted announcement; the takers keep their belote if `kept`.
            base = capot_value(rules, contract.strain) if capot == defenders else total
            scores[takers] = zero + (belote[takers] if kept else 0)
            scores[defenders] = (
                zero + base + ann[0] + ann[1] + belote[defenders] + (0 if kept else belote[takers])
            )
        return Outcome(made, (scores[0], scores[1]), reserve, 1, moved)

    bid = contract.bid or 0
    if contract.is_generale:
        made = taker_alone
    elif contract.is_capot:
        made = capot == takers
    else:
        # docs/rules.md 8 (FFB contrée 10.1.1): the bid reached, and with
        # contract_must_beat_defence more points than the defence, counted the same way.
        made = counted[takers] >= bid and (
            not rules.contract_must_beat_defence or counted[takers] > counted[defenders]
        )
    # A failed contract gives the defenders failed_base (160 or 162) + the bid; failed_base
    # follows the scale like the 162 it stands for (docs/rules-decisions.md).
    failed_base = rules.failed_base + total - USUAL_DEAL_TOTAL
    multiplier = contract.multiplier
    scores = [zero, zero]
    if multiplier == 1:
        if made:
            # A capot is in cards[takers]: 250 + the bid, bid or not (docs/rules.md 8, FFB).
            scores[takers] = cards[takers] + ann[takers] + belote[takers] + bid
            scores[defenders] = cards[defenders] + ann[defenders] + belote[defenders]
        else:
            scores[takers] = zero + (belote[takers] if kept else 0)
            scores[defenders] = (
                zero
                + failed_base
                + bid
                + ann[0]
                + ann[1]
                + belote[defenders]
                + (0 if kept else belote[takers])
            )
    else:
        # Coinched ×2, surcoinched ×4: the winning side scores (160 + bid) × multiplier, or
        # (250 + bid) × multiplier when the takers made capot (docs/rules.md 8, FFB), and every
        # accepted announcement; each side keeps its belote.
        winner = takers if made else defenders
        base = capot_value(rules, contract.strain) if made and capot == takers else failed_base
        scores[winner] = zero + (base + bid) * multiplier + ann[0] + ann[1]
        scores[defenders] += belote[defenders]
        if made or kept:
            scores[takers] += belote[takers]
        else:
            scores[defenders] += belote[takers]
    return Outcome(made, (scores[0], scores[1]), zero, multiplier, moved)


def round_score(points: int, rounding: str) -> int:
    """A score rounded as the rules say (docs/rules.md 8: to the nearest ten, 5
    upward, or exact)."""
    return (points + 5) // 10 * 10 if rounding == "nearest_ten" else points


def _pair(team: Team, value: int) -> tuple[int, int]:
    return (value, 0) if team == Team.NS else (0, value)


def score_deal(
    rules: Rules,
    contract: Contract,
    *,
    trick_points: tuple[int, int],
    tricks_won: tuple[int, int],
    last_trick: Team,
    taker_tricks: int,
    belote: tuple[int, int],
    declared: Sequence[Sequence[Announcement]],
) -> DealScore:
    """The score of a finished deal.

    ``trick_points``: the points of the cards each team took (without the last trick);
    ``tricks_won``: tricks per team; ``taker_tricks``: tricks taken by the taker alone (for a
    générale);
    ``belote``: belote points per team; ``declared[seat]``: the announcements each seat made.
    """
    lines: list[ScoreLine] = []
    ns, ew = trick_points
    lines.append(ScoreLine("cards", "card points", ns, ew))

    # docs/rules.md 8: the last trick adds 10; a team with all eight tricks has the capot instead.
    capot: Team | None = None
    for team in TEAMS:
        if tricks_won[team] == 8:
            capot = team
    if capot is None:
        cards = list(trick_points)
        cards[last_trick] += LAST_TRICK_BONUS
        lines.append(
            ScoreLine("last_trick", "last trick (dix de der)", *_pair(last_trick, LAST_TRICK_BONUS))
        )
    else:
        value = capot_value(rules, contract.strain)
        cards = list(_pair(capot, value))
        lines.append(
            ScoreLine("capot", f"capot ({value})", *_pair(capot, value - trick_points[capot]))
        )

    # docs/rules.md 7: the winner of the comparison scores all its announcements, its partner's too.
    winner = comparison_winner(declared) if rules.announcements else None
    announcements = [0, 0]
    if winner is not None:
        for seat in winner.seats:
            for item in declared[seat]:
                announcements[winner] += item.points
                lines.append(
                    ScoreLine(
                        "announcement",
                        f"{item.name} of {seat.name} ({item.card_set})",
                        *_pair(winner, item.points),
                    )
                )
    if capot is not None and announcements[capot.other]:
        # docs/rules.md 8: on a capot the capotted team's announcements change hands.
        moved = announcements[capot.other]
        lines.append(
            ScoreLine(
                "capot_announcements",
                "the capotted team's announcements go to the capot team",
                *(_pair(capot, moved)[t] - _pair(capot.other, moved)[t] for t in TEAMS),
            )
        )
    for team in TEAMS:
        if belote[team]:
            lines.append(ScoreLine("belote", "belote–rebelote", *_pair(team, belote[team])))

    outcome = deal_outcome(
        rules,
        contract,
        cards=(cards[0], cards[1]),
        capot=capot,
        belote=belote,
        announcements=(announcements[0], announcements[1]),
        taker_alone=taker_tricks == 8,
    )
    made, scores, multiplier = outcome.made, outcome.scores, outcome.multiplier
    verdict = {True: "made", False: "failed", None: "litige"}[made]
    lines.append(ScoreLine(f"contract_{verdict}", f"contract {contract}: {verdict}", *scores))
    if multiplier > 1:
        lines.append(ScoreLine("multiplier", f"multiplier ×{multiplier}", *scores))
    exact = scores
    final = (round_score(scores[0], rules.rounding), round_score(scores[1], rules.rounding))
    if final != exact:
        lines.append(ScoreLine("rounding", "rounded to the nearest ten", *final))
    reserve = round_score(outcome.reserve, rules.rounding)
    if reserve:
        lines.append(ScoreLine("reserve", f"litige: {reserve} in reserve", *final))
    lines.append(ScoreLine("total", "deal score", *final))
    return DealScore(
        contract=contract,
        made=made,
        card_points=(cards[0], cards[1]),
        belote=belote,
        announcements=(announcements[0], announcements[1]),
        announcement_winner=winner,
        capot=capot,
        multiplier=multiplier,
        exact=exact,
        scores=final,
        reserve=reserve,
        lines=tuple(lines),
    )
