"""The ``expert`` level: ``strong``'s search, aimed at the score rather than the card points.

``strong`` plays the card that takes most card points on average over the sampled worlds. But
a deal is not won by points: the contract is made or failed at a threshold (the defenders'
total, or the coinche bid), and a point more or less on the wrong side of it is worth a whole
contract. ``expert`` turns each world's exact outcome of each card into the deal's score for
both teams (:func:`cardavia.belote.scoring.score_deal`, with the belote and the announcements
known so far) and plays the card with the best average score margin; worlds are weighted by
how well the bidding explains them, and it solves more of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.ai.solver import Position, kernel_stats, solve_root
from cardavia.ai.strong import StrongPlayer, bid_passes, tricks_won, trump_strength
from cardavia.belote.announcements import BELOTE_POINTS, Announcement, belote_pairs
from cardavia.belote.cards import Card, Seat, Team
from cardavia.belote.observation import Observation
from cardavia.belote.scoring import score_deal

USUAL_TOTAL = 162
"""The card points of a deal without capot (152 in the cards and the last trick)."""


def belote_points(observation: Observation) -> tuple[int, int]:
    """The belote points each team has, as far as this seat knows: what has been said, and
    its own K–Q of trump still to be played (automatic, or said by this seat when it plays)."""
    points = [0, 0]
    for event in observation.belote_events:
        if event.word == "belote":
            points[event.seat & 1] += BELOTE_POINTS
    contract = observation.contract
    if contract is not None:
        mine = belote_pairs(
            observation.hand.mask,
            contract.strain,
            in_all_trump=observation.rules.belote_in_all_trump,
        )
        points[observation.seat & 1] += BELOTE_POINTS * (mine.bit_count() // 2)
    return points[0], points[1]


def known_announcements(observation: Observation) -> tuple[tuple[Announcement, ...], ...]:
    """The announcements that count, as far as this seat knows: once the comparison is made,
    the winners' (shown to all); before it, only its own."""
    declared: list[tuple[Announcement, ...]] = [(), (), (), ()]
    if observation.revealed:
        for seat, item in observation.revealed:
            declared[seat] = (*declared[seat], item)
    elif not observation.tricks:
        declared[observation.seat] = observation.own_announcements
    return tuple(declared)


def score_margin(
    observation: Observation,
    final_points: int,
    belote: tuple[int, int],
    declared: Sequence[Sequence[Announcement]],
) -> int:
    """The deal's score margin for this seat's team if its team ends with ``final_points``
    card points (last trick or capot included)."""
    contract = observation.contract
    assert contract is not None
    rules = observation.rules
    me = Team(observation.seat & 1)
    if final_points >= rules.capot_points:
        cards = {me: rules.capot_points, me.other: 0}
        won = {me: 8, me.other: 0}
    elif final_points <= 0:
        cards = {me: 0, me.other: rules.capot_points}
        won = {me: 0, me.other: 8}
    else:
        cards = {me: final_points, me.other: USUAL_TOTAL - final_points}
        won = {me: 4, me.other: 4}
    capot = 8 in won.values()
    # The last trick's 10 go to a team that can carry them (only the totals matter here).
    last = me if cards[me] >= 10 else me.other
    trick_points = {t: cards[t] - (10 if t == last and not capot else 0) for t in Team}
    if capot:
        trick_points = {t: (152 if cards[t] else 0) for t in Team}
    taker_tricks = won[contract.team]
    result = score_deal(
        rules,
        contract,
        trick_points=(trick_points[Team.NS], trick_points[Team.EW]),
        tricks_won=(won[Team.NS], won[Team.EW]),
        last_trick=last,
        taker_tricks=taker_tricks,
        belote=belote,
        declared=declared,
    )
    return (
        result.scores[me]
        - result.scores[me.other]
        + (result.reserve if result.made is None and contract.team != me else 0)
    )


@dataclass
class ExpertPlayer(StrongPlayer):
    """Search over sampled worlds, weighted by the bidding, scored as the deal is scored."""

    worlds: int = 16
    node_budget: int = 5_000_000

    def card_scores(
        self,
        observation: Observation,
        worlds: Sequence[tuple[int, int, int, int]],
        weights: Sequence[float] | None,
    ) -> dict[Card, float]:
        """The weighted mean score margin of each legal card over the worlds."""
        contract = observation.contract
        assert contract is not None
        leader = observation.trick[0][0] if observation.trick else observation.seat
        won = tricks_won(observation)
        me = observation.seat & 1
        already = observation.points[me]
        belote = belote_points(observation)
        declared = known_announcements(observation)
        totals: dict[Card, float] = {}
        weight_sum = 0.0
        nodes = solved = 0
        margins: dict[int, int] = {}
        for index, world in enumerate(worlds):
            if solved >= 2 and nodes >= self.node_budget:
                break
            weight = 1.0 if weights is None else weights[index]
            if weight <= 0:
                continue
            position = Position.from_rules(
                observation.rules, contract.strain, world,
                trick=observation.trick, leader=leader, tricks_won=won,
            )  # fmt: skip
            for card, value in solve_root(position).items():
                final = already + value
                if final not in margins:
                    margins[final] = score_margin(observation, final, belote, declared)
                totals[card] = totals.get(card, 0.0) + weight * margins[final]
            nodes += kernel_stats()[0]
            solved += 1
            weight_sum += weight
        return {card: total / weight_sum for card, total in totals.items()} if weight_sum else {}

    def evaluate(
        self,
        observation: Observation,
        worlds: Sequence[tuple[int, int, int, int]],
        weights: Sequence[float] | None,
    ) -> dict[Card, float]:
        """Score margins rather than card points."""
        return self.card_scores(observation, worlds, weights)

    def weigh(
        self, observation: Observation, worlds: Sequence[tuple[int, int, int, int]]
    ) -> list[float] | None:
        """A world is less likely where a player who passed on the turned suit is strong in
        it, or where the taker holds little in the trump suit."""
        contract = observation.contract
        if contract is None or not contract.strain.is_suit:
            return None
        passed = bid_passes(observation)
        trump = int(contract.strain)
        weights = []
        for world in worlds:
            weight = 1.0
            for seat in Seat:
                if seat == observation.seat:
                    continue
                strength = trump_strength(world[seat], trump)
                if seat == contract.taker:
                    weight *= 0.4 + 0.15 * min(strength, 4)
                elif seat in passed.get(trump, ()):
                    weight *= 1.0 / (1.0 + 0.5 * strength)
            weights.append(weight)
        return weights
