"""The beginner: plays like someone who has just learned the rules.

It takes or bids with a decent hand (the trump jack, or the nine with length), never
coinches, and in play follows a few simple habits (win the trick with its highest card when
an opponent holds it, play low when the partner does) with now and then a card picked at
random. It always says its announcements and belote, since the rules let it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from cardavia.ai.player import with_declarations
from cardavia.belote import (
    Action,
    Bid,
    Card,
    Observation,
    Pass,
    Phase,
    Play,
    Rank,
    Strain,
    Take,
    values_for,
)
from cardavia.belote.search import SUIT_MASKS, auction_status, winning_index

RANDOM_PLAY: Final = 0.25
"""How often the beginner plays a legal card at random."""


def _count_trumps(hand: int, strain: Strain) -> tuple[int, bool, bool]:
    """The number of trumps, and whether the hand holds the trump jack and nine."""
    if not strain.is_suit:
        jacks = sum(1 for s in range(4) if hand >> (s * 8 + Rank.JACK) & 1)
        return jacks, jacks >= 2, jacks >= 3
    trumps = hand & SUIT_MASKS[strain]
    base = int(strain) * 8
    return (
        trumps.bit_count(),
        bool(trumps >> (base + Rank.JACK) & 1),
        bool(trumps >> (base + Rank.NINE) & 1),
    )


def _decent(hand: int, strain: Strain) -> bool:
    """A decent hand for ``strain``: the jack and another trump, or the nine and two more."""
    count, jack, nine = _count_trumps(hand, strain)
    if strain == Strain.NO_TRUMP:
        return sum(1 for s in range(4) if hand >> (s * 8 + Rank.ACE) & 1) >= 3
    return (jack and count >= 2) or (nine and count >= 3) or count >= 5


@dataclass(frozen=True, slots=True)
class BeginnerPlayer:
    """Simple habits and some randomness (see the module's docstring)."""

    random_play: float = RANDOM_PLAY

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        """The beginner's action (one of ``observation.legal_actions``)."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError("it is not this seat's turn")
        if observation.phase == Phase.BIDDING:
            return self._bid(observation, rng)
        plays = [a.card for a in legal if isinstance(a, Play)]
        if rng.random() < self.random_play:
            card = rng.choice(plays)
        else:
            card = self._habit(observation, plays)
        return with_declarations(observation, card)

    def _bid(self, obs: Observation, rng: random.Random) -> Action:
        legal = obs.legal_actions
        hand = obs.hand.mask
        if obs.turned_card is not None:
            hand |= 1 << obs.turned_card
        if obs.rules.bidding == "classic":
            takes = [a for a in legal if isinstance(a, Take) and _decent(hand, a.strain)]
            return rng.choice(takes) if takes else Pass(obs.seat)
        if auction_status(obs.history).best is not None:
            return Pass(obs.seat)  # a beginner only opens
        bids = [a for a in legal if isinstance(a, Bid) and a.value == 80]
        good = [b for b in bids if _decent(hand, b.strain)]
        return rng.choice(good) if good else Pass(obs.seat)

    @staticmethod
    def _habit(obs: Observation, plays: list[Card]) -> Card:
        contract = obs.contract
        assert contract is not None
        values = values_for(obs.rules, contract.strain)

        def strength(card: Card) -> tuple[int, int]:
            return (bool(values.trump_mask >> card & 1), values.order[card])

        if not obs.trick:
            plain = [c for c in plays if not values.trump_mask >> c & 1]
            return max(plain or plays, key=lambda c: values.order[c])
        cards = [c for _, c in obs.trick]
        best_index = winning_index(values, cards)
        if obs.trick[best_index][0] == obs.seat.partner:
            return min(plays, key=lambda c: (values.points[c], strength(c)))
        winners = [c for c in plays if winning_index(values, [*cards, c]) == len(cards)]
        if winners:
            return max(winners, key=strength)
        return min(plays, key=lambda c: (values.points[c], strength(c)))
