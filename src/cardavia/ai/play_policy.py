"""How a seat plays, learned: how likely a world makes every card the others have played.

The club player is a poor model of a searching player's cards (docs/strength.md): a
world's weight by the others' plays (policy-based inference, Rebstock et al. 2019) needs a
model of how the players at the table really choose. This one is learned from the
project's own self-play (``training/play_policy.py``): a small network that reads a seat's
observation as the card-location network reads it (:func:`cardavia.ai.card_location.features`:
its hand, each card played and how, what each seat is known to hold or lack, the contract)
and gives a score to each of the 32 cards; among the cards the rules allow, the scores make
the chance of each (a softmax, its temperature calibrated on deals kept apart:
:attr:`PolicyModel.power`).

A world's likelihood (:meth:`PlayPolicyReading.likelihood`) is then the product, over every
card another seat played, of its chance from the hand that seat held then in that world
(its cards now and the ones it played since), with the table as it then was. Only the
seat's hand and what it could see the others lack change from one world to the next, and
the network's first layer is linear: each past moment is read once
(:meth:`PlayPolicyReading.of`), and each world then costs a sum of rows of the first
layer's weights, computed for all the worlds together.

>>> import random
>>> from cardavia.ai.club import ClubPlayer
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(6))
>>> club, rng = ClubPlayer(), random.Random(0)
>>> while len(state.observation(Seat.S).played) < 12:  # three tricks played by club players
...     state = state.apply(club.decide(state.observation(state.to_move), rng))
>>> reading = PlayPolicyReading.of(state.observation(Seat.S))
>>> len(reading.moments)  # the cards the three others played
9
>>> 0 < reading.likelihoods([tuple(state.hands)])[0] <= 1
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from cardavia.ai.card_location import block, features, read_network, suit_order
from cardavia.ai.play_reading import PlayReading
from cardavia.ai.worlds import Hands
from cardavia.belote import CardSet, CardValues, Observation, Rules, Seat
from cardavia.belote.search import constraint

WEIGHTS: Final = Path(__file__).with_name("play_policy.npz")
"""The trained network (``training/play_policy.py`` writes it)."""

Floats = npt.NDArray[np.float32]
_BITS: Final = np.arange(32, dtype=np.uint32)


def framing(observation: Observation) -> npt.NDArray[np.intp]:
    """For each card (by its number), its place in the frame of
    :func:`~cardavia.ai.card_location.features` (the trump suit first)."""
    order = suit_order(observation)
    return np.array([order[card >> 3] * 8 + (card & 7) for card in range(32)], dtype=np.intp)


def framed_bits(masks: Sequence[int], frame: npt.NDArray[np.intp]) -> Floats:
    """Card masks as rows of zeros and ones in the frame's order."""
    cards = np.array(masks, dtype=np.uint32)
    bits = ((cards[:, None] >> _BITS) & 1).astype(np.float32)
    framed = np.zeros_like(bits)
    framed[:, frame] = bits
    return framed


@dataclass(frozen=True, slots=True)
class PolicyModel:
    """The network: one hidden layer (rectified), then a score for each card of the frame."""

    hidden_weights: Floats
    hidden_bias: Floats
    out_weights: Floats
    out_bias: Floats
    power: float = 1.0
    """The scores' inverse temperature: the calibration found on deals kept apart."""

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> PolicyModel:
        """The network saved at ``path`` (``ValueError`` if it does not fit the features)."""
        return cls(*read_network(path, outputs=32))

    def chances(self, hidden: Floats, legal: Floats) -> Floats:
        """Each card's chance of being played (rows: samples; columns: the frame), from the
        hidden layer's values and the cards the rules allow (ones)."""
        logits = (hidden @ self.out_weights + self.out_bias) * self.power
        logits = np.where(legal > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        chances: Floats = weights / weights.sum(axis=1, keepdims=True)
        return chances

    def hidden(self, x: Floats) -> Floats:
        """The hidden layer's values for features ``x`` (rows: samples)."""
        values: Floats = np.maximum(x @ self.hidden_weights + self.hidden_bias, 0)
        return values


@dataclass(frozen=True, slots=True)
class _Moment:
    """One card another seat played, read once: the first layer's value from all but the
    seat's hand, and what each card of a hand adds to it."""

    seat: Seat
    place: int
    """The card played, its place in the frame."""
    before: tuple[tuple[Seat, int], ...]
    held_since: int
    base: Floats
    step: Floats
    """For each card of the frame (rows), what holding it adds to the first layer: its row
    of the hand's weights, less its rows of the others' exclusions where it was excluded
    (a seat does not count its own cards among those another cannot hold)."""


@dataclass(frozen=True, slots=True)
class PlayPolicyReading:
    """The others' past cards, read once from an observation, then asked of many worlds."""

    model: PolicyModel
    rules: Rules
    values: CardValues | None
    frame: npt.NDArray[np.intp]
    moments: tuple[_Moment, ...]

    @classmethod
    def of(cls, observation: Observation, model: PolicyModel | None = None) -> PlayPolicyReading:
        """The reading of ``observation`` by ``model`` (the trained one if none)."""
        model = model or trained()
        reading = PlayReading.of(observation)
        frame = framing(observation)
        played_by = _played_by(observation)
        rows = model.hidden_weights
        hand_rows = rows[block("hand")]
        excluded = block("excluded")
        moments = []
        for moment in reading.moments:
            view = moment.view
            earlier = _played_by(view)
            sizes = tuple(observation.hand_sizes[s] + played_by[s] - earlier[s] for s in range(4))
            view = dataclasses.replace(
                view, hand=CardSet(), hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3])
            )
            x = features(view)
            step = hand_rows.copy()
            for relative in range(3):
                part = slice(excluded.start + 32 * relative, excluded.start + 32 * relative + 32)
                step -= x[part, None] * rows[part]
            moments.append(
                _Moment(
                    moment.seat,
                    int(frame[moment.card]),
                    moment.before,
                    moment.held_since,
                    x @ rows + model.hidden_bias,
                    step,
                )
            )
        return cls(model, observation.rules, reading.values, frame, tuple(moments))

    def likelihoods(self, worlds: Sequence[Hands]) -> list[float]:
        """How likely each world makes the others' past cards under the learned way of
        playing (relative to the other worlds)."""
        values = self.values
        total = np.ones(len(worlds))
        if values is None:
            return total.tolist()
        for moment in self.moments:
            hands = [world[moment.seat] | moment.held_since for world in worlds]
            distinct = list(dict.fromkeys(hands))
            allowed = [
                constraint(self.rules, values, moment.before, moment.seat, hand).allowed
                for hand in distinct
            ]
            held = framed_bits(distinct, self.frame)
            hidden = np.maximum(moment.base + held @ moment.step, 0)
            chances = self.model.chances(hidden, framed_bits(allowed, self.frame))
            chance = dict(zip(distinct, chances[:, moment.place].tolist(), strict=True))
            total *= np.array([chance[hand] for hand in hands])
        return total.tolist()


def _played_by(observation: Observation) -> tuple[int, int, int, int]:
    """How many cards each seat has played so far."""
    counts = [0, 0, 0, 0]
    for trick in observation.tricks:
        for seat, _ in trick.plays:
            counts[seat] += 1
    for seat, _ in observation.trick:
        counts[seat] += 1
    return (counts[0], counts[1], counts[2], counts[3])


@cache
def trained() -> PolicyModel:
    """The network trained for this version (:data:`WEIGHTS`), read once."""
    return PolicyModel.load()


__all__ = ["WEIGHTS", "PlayPolicyReading", "PolicyModel", "framed_bits", "framing", "trained"]
