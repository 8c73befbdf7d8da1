"""Where the unseen cards lie: a small network's estimate, from what one seat has seen.

A strong player does not hold every deal that agrees with the table as equally likely: the
defender who led a small trump, the partner who discarded a 10 on a trick it was winning,
the opponent who never led the suit it was thought long in all say where the cards are.
Skat's best programs learned this from games played (Solinas et al. 2019: a network
predicting where each unseen card lies, the worlds searched drawn from it); so does this
one, from the project's own self-play (``training/``: ``self_play.py`` plays the deals,
``card_location.py`` fits the network and writes its weights, :data:`WEIGHTS`).

The network reads the play as a seat has seen it, turned to a fixed frame — the seats
counted from the observer (0 itself, 1 the next to play, 2 its partner, 3 the last), the
trump suit put first (:func:`features`): its hand, each card played and how (leading,
to its partner's trick, to the opponents' without taking it, taking it), what each seat is
known to hold or to lack, the contract. Not the bids: the expert reads them already, by
the simulation bidding's reading (:class:`cardavia.ai.expert.Reading`), and a network
that read them too would count them twice (docs/strength.md has the measure). Through
one hidden layer it gives for each of the 32 cards how likely each of the three other
seats is to hold it (:meth:`LocationModel.estimate`). A
world's likelihood (:meth:`Locations.likelihood`) is then the product, over the hidden
cards, of the estimate for the seat the world gives it, each card's estimate shared among
the seats that may hold it (not known void of it, with room left).

The weights are numbers only (numpy's ``.npz``, no pickled objects); reading a seat's table
and the estimate take numpy alone.

>>> import random
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(5))
>>> features(state.observation(Seat.S)).shape == (FEATURES,)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from cardavia.ai.worlds import Hands, excluded_cards, known_cards
from cardavia.belote import Observation, values_for
from cardavia.belote.search import FULL_MASK, winning_index

WEIGHTS: Final = Path(__file__).with_name("card_location.npz")
"""The trained network (``training/card_location.py`` writes it)."""

_BLOCKS: Final = (
    ("hand", 32),
    ("played", 4 * 32),
    ("led", 3 * 32),
    ("context", 3 * 3 * 32),
    ("known", 3 * 32),
    ("excluded", 3 * 32),
    ("turned", 32),
    ("strain", 3),
    ("taker", 4),
    ("coinche", 3),
    ("bid", 2),
    ("belote", 4),
    ("sizes", 3),
    ("progress", 1),
)
"""The parts of the feature vector, in order, with their sizes."""
FEATURES: Final = sum(size for _, size in _BLOCKS)
"""The length of :func:`features`' vector."""
_AT: Final = {
    name: end - size
    for (name, size), end in zip(_BLOCKS, accumulate(size for _, size in _BLOCKS), strict=True)
}
"""Where each part starts."""

Floats = npt.NDArray[np.float32]


def block(name: str) -> slice:
    """Where the part ``name`` of the features lies (``KeyError`` for an unknown one): the
    training leaves a part out to measure what it brings.

    >>> block("hand"), block("played")
    (slice(0, 32, None), slice(32, 160, None))
    """
    return slice(_AT[name], _AT[name] + dict(_BLOCKS)[name])


def suit_order(observation: Observation) -> tuple[int, int, int, int]:
    """Where each suit goes in the frame: under a suit contract the trump suit first and the
    others after it in their order; otherwise (no contract yet, no-trump, all-trump) as
    they are."""
    contract = observation.contract
    if contract is None or contract.strain >= 4:
        return (0, 1, 2, 3)
    trump = int(contract.strain)
    others = [s for s in range(4) if s != trump]
    order = [0, 0, 0, 0]  # the trump suit's place: 0
    for place, suit in enumerate(others, start=1):
        order[suit] = place
    return (order[0], order[1], order[2], order[3])


def _framed(mask: int, order: tuple[int, int, int, int]) -> list[int]:
    """The frame's indices of the cards of ``mask``."""
    return [order[c >> 3] * 8 + (c & 7) for c in range(32) if mask >> c & 1]


def constraints(observation: Observation) -> tuple[Hands, Hands]:
    """The cards each seat is known to hold and those it cannot hold
    (:func:`cardavia.ai.worlds.known_cards`, :func:`~cardavia.ai.worlds.excluded_cards`)."""
    contract = observation.contract
    known = known_cards(observation)
    if contract is None:
        return known, (0, 0, 0, 0)
    return known, excluded_cards(observation, values_for(observation.rules, contract.strain))


def hidden_cards(observation: Observation, known: Hands) -> int:
    """The cards whose place is unknown to the seat: neither played nor known to be held
    by anyone (``known``: :func:`constraints`' first half), as a mask."""
    return ~(observation.played.mask | known[0] | known[1] | known[2] | known[3]) & FULL_MASK


def features(observation: Observation, table: tuple[Hands, Hands] | None = None) -> Floats:
    """What the network reads of ``observation``, in the observer's frame (zeros and ones,
    and a few fractions); ``table``: its :func:`constraints`, if already worked out."""
    known, excluded = table or constraints(observation)
    x = np.zeros(FEATURES, dtype=np.float32)
    me = int(observation.seat)
    order = suit_order(observation)

    def put(part: str, index: int, mask: int, value: float = 1.0) -> None:
        start = _AT[part] + 32 * index
        for place in _framed(mask, order):
            x[start + place] = value

    put("hand", 0, observation.hand.mask)
    played = [0, 0, 0, 0]
    led = [0, 0, 0, 0]
    # The cards each seat played after the lead: to its partner's trick, to the opponents'
    # without taking it, and taking it.
    context = [[0, 0, 0] for _ in range(4)]
    tricks = [trick.plays for trick in observation.tricks]
    if observation.trick:
        tricks.append(observation.trick)
    contract = observation.contract
    values = values_for(observation.rules, contract.strain) if contract is not None else None
    for plays in tricks:
        cards = [card for _, card in plays]
        for index, (seat, card) in enumerate(plays):
            relative = (seat - me) % 4
            played[relative] |= 1 << card
            if index == 0:
                led[relative] |= 1 << card
            elif values is not None:
                winner = plays[winning_index(values, cards[:index])][0]
                if winning_index(values, cards[: index + 1]) == index:
                    context[relative][2] |= 1 << card
                else:
                    context[relative][0 if (winner - seat) % 2 == 0 else 1] |= 1 << card
    for relative in range(4):
        put("played", relative, played[relative])
    for relative in range(1, 4):
        for kind in range(3):
            put("context", 3 * (relative - 1) + kind, context[relative][kind])
    for relative in range(1, 4):
        other = (me + relative) % 4
        put("led", relative - 1, led[relative])
        put("known", relative - 1, known[other])
        put("excluded", relative - 1, excluded[other])
        x[_AT["sizes"] + relative - 1] = observation.hand_sizes[other] / 8
    if observation.turned_card is not None:
        put("turned", 0, 1 << observation.turned_card)
    if contract is not None:
        x[_AT["strain"] + (0 if contract.strain < 4 else int(contract.strain) - 3)] = 1
        x[_AT["taker"] + (contract.taker - me) % 4] = 1
        x[_AT["coinche"] + contract.coinche] = 1
        x[_AT["bid"]] = (contract.bid or 0) / 250
        x[_AT["bid"] + 1] = float(contract.bid is None)
    for event in observation.belote_events:
        if event.word == "belote":
            x[_AT["belote"] + (event.seat - me) % 4] = 1
    x[_AT["progress"]] = len(observation.tricks) / 8
    return x


def read_network(path: Path, outputs: int) -> tuple[Floats, Floats, Floats, Floats, float]:
    """A one-hidden-layer network saved by ``training/`` (numbers only, no pickles): its two
    layers' weights and biases and its calibrated power; ``ValueError`` if it does not read
    :func:`features` or does not give ``outputs`` scores."""
    with np.load(path, allow_pickle=False) as saved:
        hidden_weights, hidden_bias, out_weights, out_bias = (
            saved[name].astype(np.float32)
            for name in ("hidden_weights", "hidden_bias", "out_weights", "out_bias")
        )
        power = float(saved["power"]) if "power" in saved else 1.0
    if hidden_weights.shape[0] != FEATURES or out_weights.shape[1] != outputs:
        raise ValueError(f"{path} does not fit this version's features")
    return hidden_weights, hidden_bias, out_weights, out_bias, power


@dataclass(frozen=True, slots=True)
class LocationModel:
    """The network: one hidden layer (rectified), then for each card of the frame and each
    other seat a score (:meth:`estimate` makes them probabilities)."""

    hidden_weights: Floats
    hidden_bias: Floats
    out_weights: Floats
    out_bias: Floats
    power: float = 1.0
    """The power each score is raised to before they are shared among the seats: the
    calibration found on deals kept apart from the training (temperature scaling)."""

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> LocationModel:
        """The network saved at ``path`` (``ValueError`` if it does not fit :func:`features`)."""
        return cls(*read_network(path, outputs=96))

    def scores(self, x: Floats) -> Floats:
        """For each card of the frame (rows) and each other seat counted from the observer
        (columns: next, partner, last), how likely it holds the card, as the network says it
        on its own (a number in (0, 1) each), from the :func:`features` ``x``."""
        hidden = np.maximum(x @ self.hidden_weights + self.hidden_bias, 0)
        logits = hidden @ self.out_weights + self.out_bias
        chances: Floats = (1 / (1 + np.exp(-logits))).astype(np.float32)
        return chances.reshape(32, 3)

    def estimate(self, observation: Observation) -> Locations:
        """Each hidden card's chances at each seat (:class:`Locations`)."""
        table = constraints(observation)
        known, excluded = table
        scores = self.scores(features(observation, table))
        me = int(observation.seat)
        order = suit_order(observation)
        hidden = hidden_cards(observation, known)
        chances: dict[int, tuple[float, float, float, float]] = {}
        for card in range(32):
            if not hidden >> card & 1:
                continue
            row = scores[order[card >> 3] * 8 + (card & 7)]
            share = [0.0, 0.0, 0.0, 0.0]
            for relative in range(1, 4):
                seat = (me + relative) % 4
                if observation.hand_sizes[seat] > known[seat].bit_count() and not (
                    excluded[seat] >> card & 1
                ):
                    share[seat] = float(row[relative - 1]) ** self.power
            total = sum(share)
            if total > 0:
                chances[card] = (
                    share[0] / total,
                    share[1] / total,
                    share[2] / total,
                    share[3] / total,
                )
        return Locations(chances)


@dataclass(frozen=True, slots=True)
class Locations:
    """Each hidden card's chances at each seat (absolute seats), from one observation."""

    chances: dict[int, tuple[float, float, float, float]]

    def likelihood(self, world: Hands) -> float:
        """How likely ``world`` is under the estimate (relative to the other worlds): the
        product of each hidden card's chance at the seat the world gives it."""
        value = 1.0
        for card, chance in self.chances.items():
            bit = 1 << card
            for seat in range(4):
                if world[seat] & bit:
                    value *= chance[seat]
                    break
        return value


@cache
def trained() -> LocationModel:
    """The network trained for this version (:data:`WEIGHTS`), read once."""
    return LocationModel.load()


__all__ = [
    "FEATURES",
    "WEIGHTS",
    "LocationModel",
    "Locations",
    "constraints",
    "features",
    "read_network",
    "suit_order",
    "trained",
]
