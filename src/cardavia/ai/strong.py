"""The ``strong`` level (and the base of ``expert``, :mod:`cardavia.ai.expert`):
information-set double-dummy search.

As the best programs of card games do (bridge's GIB, Skat's Kermit): deal the hidden cards
many times consistently with everything the seat has seen (:mod:`cardavia.ai.worlds`),
solve each world exactly with the double-dummy solver (:mod:`cardavia.ai.solver`), and play
the card whose average is best. The player never sees the deal, only its observation.

``expert`` adds inference: each world is weighted by how likely the other players' bids and
plays make it (a player who passed on the turned card rarely holds its jack), and it spends
more worlds where the choice is close.

Both levels bid by simulation too (:mod:`cardavia.ai.bidding`): each action is tried on
sampled deals, the bidding finished by the club player's rules and the play valued by the
solver's random playouts, and the action worth most to the team is chosen, with the match
score taken into account. The club player bids whatever the simulation leaves aside.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from functools import partial

from cardavia.ai.bidding import EXPERT_BIDDING, STRONG_BIDDING, BiddingBudget, bid_by_simulation
from cardavia.ai.club import ClubPlayer
from cardavia.ai.player import Player, with_declarations
from cardavia.ai.solver import Order, Position, kernel_stats, solve_root
from cardavia.ai.spread import in_order
from cardavia.ai.worlds import sample_worlds
from cardavia.belote import Action, Card, Observation, Phase, Play, values_for


def worlds_for(tricks_left: int, base: int) -> int:
    """How many worlds to solve: fewer early, when each solve costs most."""
    if tricks_left >= 7:
        return base
    if tricks_left >= 5:
        return base * 2
    return base * 4


def tricks_won(observation: Observation) -> tuple[int, int]:
    """The tricks each side has taken so far."""
    ns = sum(1 for trick in observation.tricks if trick.winner & 1 == 0)
    return ns, len(observation.tricks) - ns


def legal_cards(observation: Observation) -> list[Card]:
    """The distinct cards among the observation's legal actions, in order."""
    cards: list[Card] = []
    for action in observation.legal_actions:
        if isinstance(action, Play) and action.card not in cards:
            cards.append(action.card)
    return cards


def root_values(
    observation: Observation, world: tuple[int, int, int, int], *, order: Order = "masters"
) -> tuple[dict[Card, int], int]:
    """The points the seat's side makes from here with each legal card in one world, under
    best play afterwards (exact: :func:`~cardavia.ai.solver.solve_root`), and the solver's
    nodes it took (searching in ``order``)."""
    contract = observation.contract
    assert contract is not None
    leader = observation.trick[0][0] if observation.trick else observation.seat
    position = Position.from_rules(
        observation.rules, contract.strain, world,
        trick=observation.trick, leader=leader, tricks_won=tricks_won(observation),
    )  # fmt: skip
    values = solve_root(position, order=order)
    return values, kernel_stats()[0]


def card_values(
    observation: Observation,
    worlds: Sequence[tuple[int, int, int, int]],
    *,
    node_budget: int | None = None,
    min_worlds: int = 2,
    order: Order,
) -> dict[Card, float]:
    """The mean, over the worlds, of the points the seat's side makes with each legal card
    under best play afterwards.

    With ``node_budget``, worlds are solved in order until the solver has visited that many
    nodes (at least ``min_worlds``): a budget in work rather than in time, so that a decision
    stays quick on hard deals and is still the same on every machine, and on any number of
    cores (:func:`cardavia.ai.spread.in_order`). The nodes are those of the search's
    ``order``, part of what the decision is.
    """
    totals: dict[Card, float] = {}
    nodes = solved = 0
    # Solved in order, ahead of time on the decision pool's spare cores (the same result).
    with closing(in_order(partial(root_values, observation, order=order), worlds)) as results:
        for values, work in results:
            if node_budget is not None and solved >= min_worlds and nodes >= node_budget:
                break
            for card, value in values.items():
                totals[card] = totals.get(card, 0.0) + value
            nodes += work
            solved += 1
    return {card: total / solved for card, total in totals.items()} if solved else {}


@dataclass
class StrongPlayer:
    """Samples worlds, solves each exactly, plays the best card on average."""

    worlds: int = 10
    """Worlds sampled for a decision early in the deal (more later, when solving is cheaper)."""
    node_budget: int = 2_500_000
    """The solver's work for one decision, in nodes (about 0.3 s on the development machine):
    once spent, the worlds left are not solved."""
    bidding: BiddingBudget | None = None
    """The work of a bidding decision (:mod:`cardavia.ai.bidding`); by default the
    ``strong`` budget, or the ``expert`` one for a player searching 5 million nodes or more
    a card (:meth:`bidding_budget`)."""
    match_scores: tuple[int, int] | None = None
    """The match score (N–S, E–W) before this deal, when the table tells it: the bidding
    takes more risk when far behind near the target (:func:`~cardavia.ai.bidding.risk_appetite`).
    ``None``: bid for the deal's score alone."""
    bidder: Player = field(default_factory=ClubPlayer)
    """Bids where the simulation has nothing to say."""
    order: Order = "simple"
    """The solver's order of search, in the card play and the bidding: with the same node
    budget, the faster ``masters`` solves more worlds, so the order is part of what the
    level's decisions are (``simple`` for the versions of December 2026)."""

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        """The action of this seat (card play by search, bidding by simulation)."""
        if observation.phase is Phase.BIDDING:
            action = bid_by_simulation(
                observation, rng, self.bidding_budget(), match_scores=self.match_scores
            )
            if action is not None and action in observation.legal_actions:
                return action
        if observation.phase is not Phase.PLAYING:
            return self.bidder.decide(observation, rng)
        cards = legal_cards(observation)
        if len(cards) == 1:
            return with_declarations(observation, cards[0])
        means = self.play_values(observation, rng)
        if not means:
            return with_declarations(observation, cards[0])
        values = values_for(observation.rules, observation.contract.strain)  # type: ignore[union-attr]
        # The best average; on a tie, keep the card worth fewer points and weaker.
        best = max(
            cards, key=lambda c: (round(means.get(c, -1.0), 6), -values.points[c], -values.order[c])
        )
        return with_declarations(observation, best)

    def bidding_budget(self) -> BiddingBudget:
        """The bidding's budget: :attr:`bidding`, or the level's by the card play's."""
        budget = self.bidding
        if budget is None:
            budget = EXPERT_BIDDING if self.node_budget >= 5_000_000 else STRONG_BIDDING
        return budget if budget.order == self.order else replace(budget, order=self.order)

    def play_values(self, observation: Observation, rng: random.Random) -> dict[Card, float]:
        """What each legal card is worth at this level: the mean card points over worlds
        drawn uniformly among those consistent with the observation."""
        count = worlds_for(8 - len(observation.tricks), self.worlds)
        worlds = sample_worlds(observation, rng, count)
        return card_values(observation, worlds, node_budget=self.node_budget, order=self.order)


__all__ = ["StrongPlayer", "card_values", "root_values", "worlds_for"]
