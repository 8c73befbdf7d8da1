"""The ``strong`` level (and the base of ``expert``, :mod:`cardavia.ai.expert`):
information-set double-dummy search.

As the best programs of card games do (bridge's GIB, Skat's Kermit): deal the hidden cards
many times consistently with everything the seat has seen (:mod:`cardavia.belote.worlds`),
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
from dataclasses import dataclass, field

from cardavia.ai.bidding import EXPERT_BIDDING, STRONG_BIDDING, BiddingBudget, bid_by_simulation
from cardavia.ai.club import ClubPlayer
from cardavia.ai.player import Player, with_declarations
from cardavia.ai.solver import Position, kernel_stats, solve_root
from cardavia.belote.actions import Action, Pass, Play, Take
from cardavia.belote.cards import SUIT_MASKS, Card, Rank, Seat
from cardavia.belote.game import Phase
from cardavia.belote.observation import Observation
from cardavia.belote.play import table_for


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


def card_values(
    observation: Observation,
    worlds: Sequence[tuple[int, int, int, int]],
    weights: Sequence[float] | None = None,
    *,
    node_budget: int | None = None,
    min_worlds: int = 2,
) -> dict[Card, float]:
    """The weighted mean, over the worlds, of the points the seat's side makes with each
    legal card under best play afterwards.

    With ``node_budget``, worlds are solved in order until the solver has visited that many
    nodes (at least ``min_worlds``): a budget in work rather than in time, so that a decision
    stays quick on hard deals and is still the same on every machine.
    """
    contract = observation.contract
    assert contract is not None
    leader = observation.trick[0][0] if observation.trick else observation.seat
    won = tricks_won(observation)
    totals: dict[Card, float] = {}
    weight_sum = 0.0
    nodes = solved = 0
    for index, world in enumerate(worlds):
        if node_budget is not None and solved >= min_worlds and nodes >= node_budget:
            break
        weight = 1.0 if weights is None else weights[index]
        if weight <= 0:
            continue
        position = Position.from_rules(
            observation.rules, contract.strain, world,
            trick=observation.trick, leader=leader, tricks_won=won,
        )  # fmt: skip
        for card, value in solve_root(position).items():
            totals[card] = totals.get(card, 0.0) + weight * value
        nodes += kernel_stats()[0]
        solved += 1
        weight_sum += weight
    return {card: total / weight_sum for card, total in totals.items()} if weight_sum else {}


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
        count = worlds_for(8 - len(observation.tricks), self.worlds)
        worlds = observation.sample_worlds(rng, count)
        weights = self.weigh(observation, worlds)
        values = self.evaluate(observation, worlds, weights)
        if not values:
            return with_declarations(observation, cards[0])
        table = table_for(observation.rules, observation.contract.strain)  # type: ignore[union-attr]
        # The best average; on a tie, keep the card worth fewer points and weaker.
        best = max(
            cards, key=lambda c: (round(values.get(c, -1.0), 6), -table.points[c], -table.order[c])
        )
        return with_declarations(observation, best)

    def bidding_budget(self) -> BiddingBudget:
        """The bidding's budget: :attr:`bidding`, or the level's by the card play's."""
        if self.bidding is not None:
            return self.bidding
        return EXPERT_BIDDING if self.node_budget >= 5_000_000 else STRONG_BIDDING

    def evaluate(
        self,
        observation: Observation,
        worlds: Sequence[tuple[int, int, int, int]],
        weights: Sequence[float] | None,
    ) -> dict[Card, float]:
        """What each legal card is worth over the worlds: card points at this level."""
        return card_values(observation, worlds, weights, node_budget=self.node_budget)

    def weigh(
        self, observation: Observation, worlds: Sequence[tuple[int, int, int, int]]
    ) -> list[float] | None:
        """Every world counts the same at this level."""
        return None


def trump_strength(hand: int, trump: int) -> int:
    """A rough count of what a hand holds in a suit as trump: the jack and nine count double."""
    suit = hand & SUIT_MASKS[trump]
    jack = 1 << (trump * 8 + Rank.JACK)
    nine = 1 << (trump * 8 + Rank.NINE)
    return suit.bit_count() + (2 if suit & jack else 0) + (1 if suit & nine else 0)


def bid_passes(observation: Observation) -> dict[int, tuple[Seat, ...]]:
    """For each suit, the seats that passed when they could have taken it (classic round 1:
    the turned suit)."""
    if observation.turned_card is None:
        return {}
    suit = observation.turned_card >> 3
    seats: list[Seat] = []
    for action in observation.history[:4]:
        if isinstance(action, Take):
            break
        if isinstance(action, Pass):
            seats.append(action.seat)
    return {suit: tuple(seats)}


__all__ = ["StrongPlayer", "card_values", "worlds_for"]
