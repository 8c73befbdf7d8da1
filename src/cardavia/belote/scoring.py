"""Scoring a deal (RULES.md 8, docs/rules-decisions.md), with a breakdown a person can read.

:func:`score_deal` takes the facts of a finished deal (the contract, the card points each team
took, the belotes, the announcements) and answers a :class:`DealScore`: both teams' points and
every line that made them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from cardavia.belote.announcements import Announcement, comparison_winner
from cardavia.belote.auction import Contract
from cardavia.belote.cards import Team
from cardavia.belote.play import LAST_TRICK_BONUS
from cardavia.belote.rules import Rules

USUAL_CARD_TOTAL: Final = 152
"""The points in the cards under the usual scales; ``capot_points`` are written against it."""


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
    """Whether the contract was made; ``None`` for a litige (RULES.md 8)."""
    card_points: tuple[int, int]
    """Each team's card points, last trick or capot included."""
    belote: tuple[int, int]
    announcements: tuple[int, int]
    """The accepted announcements' points of each team, before a failure moves them."""
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


def round_score(points: int, rounding: str) -> int:
    """A score rounded as the rules say (RULES.md 8: to the nearest ten, 5 upward, or exact)."""
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
    takers = contract.team
    lines: list[ScoreLine] = []
    ns, ew = trick_points
    lines.append(ScoreLine("cards", "card points", ns, ew))

    # RULES.md 8: the last trick adds 10; a team with all eight tricks has capot_points instead.
    capot: Team | None = None
    for team in Team:
        if tricks_won[team] == 8:
            capot = team
    # RULES.md 8 gives the capot and the failed contract's points as fixed numbers (252 or
    # 250, and 162), whatever the scale of a no-trump or all-trump contract.
    capot_value = rules.capot_points
    if capot is None:
        cards = list(trick_points)
        cards[last_trick] += LAST_TRICK_BONUS
        lines.append(
            ScoreLine("last_trick", "last trick (dix de der)", *_pair(last_trick, LAST_TRICK_BONUS))
        )
    else:
        cards = list(_pair(capot, capot_value))
        lines.append(
            ScoreLine(
                "capot", f"capot ({capot_value})", *_pair(capot, capot_value - trick_points[capot])
            )
        )
    deal_total = USUAL_CARD_TOTAL + LAST_TRICK_BONUS

    # RULES.md 7: the winner of the comparison scores all its announcements, its partner's too.
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
    for team in Team:
        if belote[team]:
            lines.append(ScoreLine("belote", "belote–rebelote", *_pair(team, belote[team])))

    if rules.bidding == "classic":
        made, scores, reserve = _classic(
            rules, takers, cards, announcements, belote, deal_total, capot, capot_value
        )
        multiplier = 1
    else:
        made, scores, multiplier = _auction(
            rules, contract, cards, announcements, belote, capot, taker_tricks
        )
        reserve = 0
    verdict = {True: "made", False: "failed", None: "litige"}[made]
    lines.append(ScoreLine(f"contract_{verdict}", f"contract {contract}: {verdict}", *scores))
    if multiplier > 1:
        lines.append(ScoreLine("multiplier", f"multiplier ×{multiplier}", *scores))
    exact = (scores[0], scores[1])
    final = (round_score(scores[0], rules.rounding), round_score(scores[1], rules.rounding))
    if final != exact:
        lines.append(ScoreLine("rounding", "rounded to the nearest ten", *final))
    reserve = round_score(reserve, rules.rounding)
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


def _classic(
    rules: Rules,
    takers: Team,
    cards: list[int],
    announcements: list[int],
    belote: tuple[int, int],
    deal_total: int,
    capot: Team | None,
    capot_value: int,
) -> tuple[bool | None, tuple[int, int], int]:
    """RULES.md 8, classic tables and the Cardavia table: made, failed or litige."""
    defenders = takers.other
    totals = [cards[t] + announcements[t] + belote[t] for t in Team]
    # belote_counts_for_contract off: the belotes are left out of the comparison.
    compared = [totals[t] - (0 if rules.belote_counts_for_contract else belote[t]) for t in Team]
    made: bool | None
    if compared[takers] > compared[defenders]:
        made = True
    elif compared[takers] < compared[defenders]:
        made = False
    else:
        made = {"made": True, "failed": False, "litige": None}[rules.tie]
    scores = [0, 0]
    reserve = 0
    if made:
        scores = totals
    elif made is None:
        # Litige: the defenders score theirs, the takers' total waits for the next deal's winner.
        scores[defenders] = totals[defenders]
        reserve = totals[takers]
    else:
        # Failed: the defenders take all the card points and every accepted announcement.
        kept = rules.belote_on_failure == "kept"
        scores[takers] = belote[takers] if kept else 0
        scores[defenders] = (
            (capot_value if capot == defenders else deal_total)
            + announcements[0]
            + announcements[1]
            + belote[defenders]
            + (0 if kept else belote[takers])
        )
    return made, (scores[0], scores[1]), reserve


def _auction(
    rules: Rules,
    contract: Contract,
    cards: list[int],
    announcements: list[int],
    belote: tuple[int, int],
    capot: Team | None,
    taker_tricks: int,
) -> tuple[bool, tuple[int, int], int]:
    """RULES.md 8, coinche tables: the bid reached or not, the coinche multipliers."""
    takers, defenders = contract.team, contract.team.other
    bid = contract.bid or 0
    points = (
        cards[takers]
        + announcements[takers]
        + (belote[takers] if rules.belote_counts_for_contract else 0)
    )
    if contract.is_generale:
        made = taker_tricks == 8
    elif contract.is_capot:
        made = capot == takers
    else:
        made = points >= bid
    kept = rules.belote_on_failure == "kept"
    scores = [0, 0]
    multiplier = contract.multiplier
    if multiplier == 1:
        if made:
            scores[takers] = cards[takers] + announcements[takers] + belote[takers] + bid
            scores[defenders] = cards[defenders] + announcements[defenders] + belote[defenders]
        else:
            scores[takers] = belote[takers] if kept else 0
            scores[defenders] = (
                rules.failed_base
                + bid
                + announcements[0]
                + announcements[1]
                + belote[defenders]
                + (0 if kept else belote[takers])
            )
    else:
        winner = takers if made else defenders
        scores[winner] = (
            (rules.failed_base + bid) * multiplier + announcements[0] + announcements[1]
        )
        scores[defenders] += belote[defenders]
        if made or kept:
            scores[takers] += belote[takers]
        else:
            scores[defenders] += belote[takers]
    return made, (scores[0], scores[1]), multiplier
