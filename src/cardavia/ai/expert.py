"""The ``expert`` level: ``strong``'s search with inference, aimed at the score, and more
search where the choice is close.

``strong`` (:mod:`cardavia.ai.strong`) draws the hidden cards uniformly among the deals that
agree with what its seat has seen, and plays the card that takes most card points on
average. ``expert`` changes three things, as the programs that play Skat and bridge best do
(Kermit's and GIB's inference, GIB's scoring of each double-dummy result):

1. **Inference.** Not every consistent deal is as likely. Many more are drawn than are
   solved, and each is weighed by how likely the others' bids and plays make it
   (:func:`world_likelihood`): their bids by the same reading as the simulation bidding
   (:func:`cardavia.ai.bidding.likelihood`: a player who passed the turned card rarely
   holds its jack, a partner's 120 hearts says it holds hearts), and their plays by the
   first rule of defence, never to give the opponents points one need not (a player who
   dropped a 10 on a trick its opponents were winning likely had nothing cheaper to play:
   :func:`gift_likelihood`). The deals solved are drawn from them in proportion to their
   weights (:func:`cardavia.ai.resampling.systematic`). A version may also weigh them by
   what was learned from self-play: where the hidden cards lie
   (:mod:`cardavia.ai.card_location`: ``expert-2026-12b``, the level's) and how each seat
   chooses its card (:mod:`cardavia.ai.play_policy`).
2. **The score, not the points.** A contract is made or failed at a threshold, and a point
   on the wrong side of it is worth a whole contract. Each world's exact result of each card
   is turned into the deal's score margin for the seat's team (:func:`score_margin`, by
   :func:`cardavia.belote.scoring.score_deal`, with the belote and announcements known so
   far), plus a little of the card points, which hedges against the worlds that were not
   drawn.
3. **More search where it matters.** When the two best cards are closer than the
   simulation's own noise can tell apart, more worlds are solved (up to twice as many, with
   a second node budget), until one of them is clearly ahead or the budget is spent.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from functools import partial
from math import sqrt
from typing import Final

from cardavia.ai.bidding import likelihood
from cardavia.ai.card_location import trained
from cardavia.ai.play_policy import PlayPolicyReading
from cardavia.ai.play_reading import PlayReading, tempered
from cardavia.ai.resampling import systematic
from cardavia.ai.spread import in_order
from cardavia.ai.strong import StrongPlayer, root_values, worlds_for
from cardavia.ai.worlds import Hands, enumerate_worlds, sample_worlds
from cardavia.belote import (
    Action,
    Announcement,
    Card,
    Observation,
    Play,
    Seat,
    Team,
    belote_pairs,
    capot_value,
    deal_points,
    values_for,
)
from cardavia.belote.search import (
    BELOTE_POINTS,
    constraint,
    score_deal,
    winning_index,
)

GIFT_LIKELIHOOD: Final = 0.3
"""How likely a player is to give the opponents' trick more points than it had to: rarely
(the club player never does, a double-dummy player only when the card would be lost
anyway), so a deal in which it did is worth this much of one in which it had to."""

BELIEF: Final = 0.5
"""How much the reading of the bids and plays is believed: a world's weight is its
likelihood to this power. The reading is the club player's, and the others do not all bid
as it does; believed fully, it lets a handful of the worlds drawn carry all the weight."""

CLASSIC_SUBSETS: Final = 6
"""At classic tables a player bid on five cards, and which five of the eight it holds now is
not known: its bids are read on this many of the possible fives, and the reading averaged."""


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
    # The deal's total and the capot follow the contract's point scale (docs/rules.md 8).
    total = deal_points(rules, contract.strain)
    capot_points = capot_value(rules, contract.strain)
    if final_points >= capot_points:
        cards = {me: capot_points, me.other: 0}
        won = {me: 8, me.other: 0}
    elif final_points <= 0:
        cards = {me: 0, me.other: capot_points}
        won = {me: 0, me.other: 8}
    else:
        cards = {me: final_points, me.other: total - final_points}
        won = {me: 4, me.other: 4}
    capot = 8 in won.values()
    # The last trick's 10 go to a team that can carry them (only the totals matter here).
    last = me if cards[me] >= 10 else me.other
    trick_points = {t: cards[t] - (10 if t == last and not capot else 0) for t in Team}
    if capot:
        trick_points = {t: (total - 10 if cards[t] else 0) for t in Team}
    result = score_deal(
        rules,
        contract,
        trick_points=(trick_points[Team.NS], trick_points[Team.EW]),
        tricks_won=(won[Team.NS], won[Team.EW]),
        last_trick=last,
        taker_tricks=won[contract.team],
        belote=belote,
        declared=declared,
    )
    return (
        result.scores[me]
        - result.scores[me.other]
        + (result.reserve if result.made is None and contract.team != me else 0)
    )


# -- inference ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Gift:
    """A card another player gave to a trick its opponents took, without taking the lead."""

    seat: Seat
    before: tuple[tuple[Seat, Card], ...]
    """The trick as it was when the card was played."""
    held_since: tuple[int, int, int, int]
    """The cards each seat has played from that trick on: with a world's hands, each hand
    as it was then."""
    cheaper: int
    """The cards with fewer points that would not have taken the lead either (or, for a
    card of no points, the lower ones of its suit)."""
    likelihood: float = GIFT_LIKELIHOOD
    """How likely the card is in a world where the player held one of them."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What the others' bids and plays say, read once from an observation and then asked
    of each world (:meth:`likelihood`)."""

    observation: Observation
    bids: dict[Seat, list[tuple[int, Action]]]
    """The other seats' bidding actions, with their place in the history."""
    played: tuple[int, int, int, int]
    """The cards each seat has played so far."""
    gifts: tuple[_Gift, ...]

    @classmethod
    def of(cls, observation: Observation, *, low_card: float = 1.0) -> Reading:
        """The reading of ``observation``; with ``low_card`` below 1, a card of no points
        played to a trick the opponents took, above a lower one of its suit that would have
        lost the trick as well, is that likely (a player who cannot win plays its lowest
        card: the search levels break their ties so, and so do most people)."""
        bids: dict[Seat, list[tuple[int, Action]]] = {}
        for index, action in enumerate(observation.history):
            if action.seat != observation.seat and not isinstance(action, Play):
                bids.setdefault(action.seat, []).append((index, action))
        since = [0, 0, 0, 0]
        for seat, card in observation.trick:
            since[seat] |= 1 << card
        gifts: list[_Gift] = []
        contract = observation.contract
        values = values_for(observation.rules, contract.strain) if contract is not None else None
        # Back from the last trick, so that ``since`` holds the cards played from each trick on.
        for trick in reversed(observation.tricks):
            plays = trick.plays
            for seat, card in plays:
                since[seat] |= 1 << card
            if values is None:
                continue
            points = values.points
            for index, (seat, card) in enumerate(plays):
                if seat == observation.seat or trick.winner.team == seat.team:
                    continue
                if not points[card] and low_card >= 1:
                    continue
                before = plays[:index]
                cards = [c for _, c in before]
                if winning_index(values, [*cards, card]) == index:
                    continue  # it took the lead: it meant to win the trick
                held = (since[0], since[1], since[2], since[3])
                if not points[card]:
                    order = values.order
                    lower = sum(
                        1 << other
                        for other in range(card & ~7, (card & ~7) + 8)
                        if not points[other]
                        and order[other] < order[card]
                        and winning_index(values, [*cards, other]) != index
                    )
                    if lower:
                        gifts.append(_Gift(seat, before, held, lower, low_card))
                    continue
                cheaper = sum(
                    1 << other
                    for other in range(32)
                    if points[other] < points[card]
                    and winning_index(values, [*cards, other]) != index
                )
                gifts.append(_Gift(seat, before, held, cheaper))
        return cls(observation, bids, (since[0], since[1], since[2], since[3]), tuple(gifts))

    def of_bids(self, seat: Seat, dealt: int) -> float:
        """How likely ``seat``'s bids are had it been dealt ``dealt`` (its eight cards: those
        it holds in the world and those it has played), by the simulation bidding's reading
        (:func:`cardavia.ai.bidding.likelihood`). At classic tables it bid on five of them
        (the taker's eight hold the turned card and two from the stock besides): the reading
        is averaged over :data:`CLASSIC_SUBSETS` fives drawn from them (by a generator seeded
        by the hand, so that a decision stays reproducible)."""
        observation = self.observation
        acts = self.bids.get(seat, [])
        history = observation.history

        def product(hand: int) -> float:
            value = 1.0
            for index, action in acts:
                value *= likelihood(observation, hand, history[:index], action)
            return value

        if observation.rules.bidding != "classic":
            return product(dealt)
        turned = observation.turned_card
        contract = observation.contract
        if turned is not None and contract is not None and seat == contract.taker:
            dealt &= ~(1 << turned)
        cards = [c for c in range(32) if dealt >> c & 1]
        if len(cards) <= 5:
            return product(dealt)
        draw = random.Random(dealt)
        fives = [sum(1 << c for c in draw.sample(cards, 5)) for _ in range(CLASSIC_SUBSETS)]
        return statistics.fmean(product(five) for five in fives)

    def of_gifts(self, world: Hands) -> float:
        """How likely the others' plays to the tricks taken by their opponents are in
        ``world``: :data:`GIFT_LIKELIHOOD` for each card that gave such a trick more points
        than another legal card would have, without taking the lead of the trick (the player
        had that other card in this world), 1 for every other play."""
        observation = self.observation
        contract = observation.contract
        assert contract is not None
        values = values_for(observation.rules, contract.strain)
        value = 1.0
        for gift in self.gifts:
            hand = world[gift.seat] | gift.held_since[gift.seat]
            allowed = constraint(observation.rules, values, gift.before, gift.seat, hand).allowed
            if allowed & gift.cheaper:
                value *= gift.likelihood
        return value

    def likelihood(self, world: Hands) -> float:
        """How likely the others' bids and plays make ``world`` (relative to the other
        worlds consistent with the observation)."""
        value = 1.0
        for seat in self.bids:
            value *= self.of_bids(seat, world[seat] | self.played[seat])
        return value * self.of_gifts(world)


def bidding_likelihood(observation: Observation, seat: Seat, dealt: int) -> float:
    """:meth:`Reading.of_bids` of ``observation``."""
    return Reading.of(observation).of_bids(seat, dealt)


def gift_likelihood(observation: Observation, world: Hands) -> float:
    """:meth:`Reading.of_gifts` of ``observation``."""
    return Reading.of(observation).of_gifts(world)


def world_likelihood(observation: Observation, world: Hands) -> float:
    """:meth:`Reading.likelihood` of ``observation``."""
    return Reading.of(observation).likelihood(world)


def is_clear(outcomes: Sequence[dict[Card, float]]) -> bool:
    """Whether the best card is ahead of the second by more than twice the standard error of
    their difference over the worlds solved (or there is no second)."""
    if len(outcomes) < 2:
        return False
    cards = list(outcomes[0])
    if len(cards) < 2:
        return True
    means = {card: statistics.fmean(o[card] for o in outcomes) for card in cards}
    best, second = sorted(cards, key=lambda c: -means[c])[:2]
    differences = [o[best] - o[second] for o in outcomes]
    error = statistics.stdev(differences) / sqrt(len(differences))
    return means[best] - means[second] > 2 * error


@dataclass
class ExpertPlayer(StrongPlayer):
    """Search over worlds weighed by the bids and plays, scored as the deal is scored."""

    worlds: int = 20
    node_budget: int = 6_000_000
    close_budget: int = 6_000_000
    """The solver's further work, in nodes, for a decision that is not clear after the
    first :attr:`node_budget`."""
    candidates: int = 256
    """Consistent worlds drawn and weighed for a decision (at least four for each world
    solved)."""
    hedge: float = 0.1
    """The card points' share of a world's value, beside the score margin."""
    belief: float = BELIEF
    """The power of a world's likelihood in its weight (:data:`BELIEF`; 0: every
    consistent world alike, as ``strong`` draws them)."""
    read_plays: int = 0
    """Worlds weighed by the others' cards too (:mod:`cardavia.ai.play_reading`), drawn from
    the candidates by their weight so far; 0: the cards are read for the gifts only."""
    low_card: float = 1.0
    """How likely a card of no points played to the opponents' trick is in a world where
    its player held a lower one of its suit that would have lost the trick as well
    (:meth:`Reading.of`); 1: not read."""
    locations: float = 0.0
    """How much the card-location network (:mod:`cardavia.ai.card_location`) is believed:
    each candidate world's weight is also multiplied by its likelihood under the network's
    estimate to this power (and less if a handful of worlds would carry all the weight:
    :func:`cardavia.ai.play_reading.tempered`); 0: not asked."""
    policy: float = 0.0
    """How much the learned way of playing (:mod:`cardavia.ai.play_policy`) is believed:
    each candidate world's weight is also multiplied by how likely it makes every card the
    others have played under the play-policy network, to this power (tempered with the
    card-location network's); 0: not asked."""
    exact_worlds: int = 0
    """When at most this many worlds agree with what the seat has seen, every one of them is
    solved and weighed, instead of a sample (:func:`cardavia.ai.worlds.enumerate_worlds`);
    0: never."""

    def play_values(self, observation: Observation, rng: random.Random) -> dict[Card, float]:
        """The mean value (score margin and a little of the card points) of each legal card
        over worlds drawn by their likelihood, more of them when the choice is close; or
        over every world, weighed, when few agree with what the seat has seen."""
        reading = Reading.of(observation, low_card=self.low_card)
        value = self._valuation(observation)
        if self.exact_worlds:
            every = enumerate_worlds(observation, self.exact_worlds)
            if every:
                return self._exact_values(observation, reading, every, value)
        count = worlds_for(8 - len(observation.tricks), self.worlds)
        drawn = sample_worlds(observation, rng, max(self.candidates, 4 * count))
        if not drawn:
            return {}
        weights = [
            reading.likelihood(world) ** self.belief if self.belief else 1.0 for world in drawn
        ]
        weights = self._located(observation, drawn, weights)
        if self.read_plays:
            plays = PlayReading.of(observation)
            if plays.moments:
                drawn = systematic(drawn, weights, self.read_plays, rng)
                weights, _ = tempered([plays.likelihood(world) for world in drawn])
        # Drawn by weight, then shuffled: the first worlds solved are as likely as the rest.
        worlds = systematic(drawn, weights, 2 * count, rng)
        rng.shuffle(worlds)
        solved: dict[Hands, dict[Card, float]] = {}
        outcomes: list[dict[Card, float]] = []
        nodes = 0
        # Each distinct world solved once, in order, ahead of time on the decision pool's
        # spare cores (:func:`cardavia.ai.spread.in_order`: the same result as alone).
        distinct = list(dict.fromkeys(worlds))
        solve = partial(root_values, observation, order=self.order)
        with closing(in_order(solve, distinct)) as results:
            for index, world in enumerate(worlds):
                # Past the first worlds or the first budget, go on only while it is close.
                spent = len(outcomes) >= 2 and nodes >= self.node_budget
                if (index >= count or spent) and (
                    is_clear(outcomes) or nodes >= self.node_budget + self.close_budget
                ):
                    break
                if world not in solved:
                    points, work = next(results)
                    nodes += work
                    solved[world] = {card: value(p) for card, p in points.items()}
                outcomes.append(solved[world])
        return {card: statistics.fmean(o[card] for o in outcomes) for card in outcomes[0]}

    def _located(
        self, observation: Observation, worlds: Sequence[Hands], weights: list[float]
    ) -> list[float]:
        """``weights`` multiplied by each world's likelihood under the card-location
        network (:attr:`locations`) and the play-policy network (:attr:`policy`), tempered;
        as they are when neither is asked."""
        if not (self.locations or self.policy) or observation.contract is None:
            return weights
        located = list(weights)
        if self.locations:
            estimate = trained().estimate(observation)
            for index, world in enumerate(worlds):
                located[index] *= estimate.likelihood(world) ** self.locations
        if self.policy:
            played = PlayPolicyReading.of(observation).likelihoods(worlds)
            for index, chance in enumerate(played):
                located[index] *= chance**self.policy
        return tempered(located)[0]

    def _valuation(self, observation: Observation) -> Callable[[int], float]:
        """What the seat's side making ``points`` more card points from here is worth: the
        deal's score margin and a little of the card points."""
        me = observation.seat & 1
        already = observation.points[me]
        belote = belote_points(observation)
        declared = known_announcements(observation)
        margins: dict[int, float] = {}

        def value(points: int) -> float:
            final = already + points
            if final not in margins:
                margin = score_margin(observation, final, belote, declared)
                margins[final] = margin + self.hedge * final
            return margins[final]

        return value

    def _exact_values(
        self,
        observation: Observation,
        reading: Reading,
        worlds: Sequence[Hands],
        value: Callable[[int], float],
    ) -> dict[Card, float]:
        """The weighted mean value of each card over every world that agrees with what the
        seat has seen, each weighed by how likely the others' bids and plays make it."""
        weights = [reading.likelihood(w) ** self.belief if self.belief else 1.0 for w in worlds]
        weights = self._located(observation, worlds, weights)
        if self.read_plays:
            plays = PlayReading.of(observation)
            if plays.moments:
                read, _ = tempered([plays.likelihood(world) for world in worlds])
                weights = [w * r for w, r in zip(weights, read, strict=True)]
        total = sum(weights)
        if total <= 0:
            weights, total = [1.0] * len(worlds), float(len(worlds))
        sums: dict[Card, float] = {}
        solve = partial(root_values, observation, order=self.order)
        with closing(in_order(solve, worlds)) as results:
            for weight, (points, _) in zip(weights, results, strict=True):
                for card, p in points.items():
                    sums[card] = sums.get(card, 0.0) + weight * value(p)
        return {card: amount / total for card, amount in sums.items()}


def expert_2026_12() -> ExpertPlayer:
    """The expert as it played in December 2026 (version ``expert-2026-12``): the site's
    until ``expert-2026-12b``, kept for the tournaments made before it and the games played
    with it, and to measure the next one against (``cardavia arena --b expert-2026-12``)."""
    return ExpertPlayer()


def expert_2026_12b() -> ExpertPlayer:
    """The site's expert (version ``expert-2026-12b``, the level ``expert``): every
    candidate world also weighed by where the card-location network, trained on the
    project's self-play, puts the hidden cards after the play so far
    (:mod:`cardavia.ai.card_location`; docs/strength.md: what it adds). Its network's
    weights are part of the version: new weights make a new version."""
    return ExpertPlayer(locations=1.0)


def next_expert() -> ExpertPlayer:
    """The next expert, measured against the level's before it becomes the level's (version
    ``expert-next``; for now the same player as :func:`expert_2026_12b`, which it was)."""
    return expert_2026_12b()


__all__ = [
    "ExpertPlayer",
    "Reading",
    "bidding_likelihood",
    "expert_2026_12",
    "expert_2026_12b",
    "gift_likelihood",
    "next_expert",
    "score_margin",
    "world_likelihood",
]
