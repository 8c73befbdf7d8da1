"""The ``fast`` level: the expert's choices distilled into two small networks, and the
last tricks solved exactly: a decision in a millisecond or less (median 0.15 ms).

The expert searches (a tenth of a second a decision on average, seconds at worst); the
fast player mostly does not. It was taught by the expert's own decisions in self-play
(``training/self_play.py --player expert``: every card of every deal, and the bids of the
deals the expert bid), as Colver's network player was taught by its search player (it tied
it at a fiftieth of the cost): ``training/fast.py`` fits the networks and writes their
weights, :data:`WEIGHTS` (numbers only; numpy alone reads them and runs them).

- **Card play.** The play network reads the seat's observation as the card-location network
  reads it (:func:`cardavia.ai.card_location.features`: its hand, each card played and how,
  what each seat is known to hold or lack, the contract; the trump suit first) and scores
  each of the 32 cards; the legal card scored highest is played, with every announcement and
  belote the rules let it say (:func:`~cardavia.ai.player.with_declarations`).
- **The endgame.** From :attr:`FastPlayer.endgame_tricks` tricks left, where the solver
  answers in a millisecond or less, the card is ``strong``'s: the best mean over a few
  worlds consistent with what the seat has seen, each solved exactly (the network's choice
  among the cards as good). The network alone lost 12 card points a deal to the club
  player; with the last six tricks solved it gains some (docs/strength.md).
- **Bidding.** The bid network reads the seat's hand, the turned card and the auction so far
  (:func:`bid_features`) and scores each bid (:data:`BID_CLASSES`: pass, take a strain, a
  value in a strain, coinche, surcoinche): a pass if it is the likelier half of the legal
  chances, else the likeliest other bid.

Only the endgame's worlds are drawn from the generator: a decision is the same for the same
observation and seed, as every level's.

>>> import random
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(5))
>>> observation = state.observation(state.to_move)
>>> FastPlayer().decide(observation, random.Random(0)) in observation.legal_actions
True
>>> bid_features(observation).shape == (BID_FEATURES,)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from cardavia.ai.card_location import FEATURES, features, suit_order
from cardavia.ai.player import with_declarations
from cardavia.ai.strong import card_values
from cardavia.ai.worlds import sample_worlds
from cardavia.belote import (
    Action,
    Bid,
    Card,
    Coinche,
    Observation,
    Pass,
    Phase,
    Play,
    Strain,
    Surcoinche,
    Take,
)

WEIGHTS: Final = Path(__file__).with_name("fast.npz")
"""The trained networks (``training/fast.py`` writes them)."""

BID_VALUES: Final = (*range(80, 190, 10), 250, 500)
"""The values a bid class names: 80 to 180, capot and générale."""
_TAKE: Final = 1
_BID: Final = _TAKE + 6
_COINCHE: Final = _BID + 6 * len(BID_VALUES)
BID_CLASSES: Final = _COINCHE + 2
"""The bidding actions the bid network scores: pass; take in each of the 6 strains (classic
bidding); each value of :data:`BID_VALUES` in each strain; coinche; surcoinche."""

_BID_BLOCKS: Final = (
    ("hand", 32),
    ("turned", 32),
    ("last_bid", 4 * 7),
    ("passes", 4),
    ("took", 4),
    ("best", 7),
    ("best_by", 4),
    ("coinche", 2),
    ("dealer", 4),
    ("system", 2),
    ("turn", 1),
)
"""The parts of :func:`bid_features`' vector, in order, with their sizes."""
BID_FEATURES: Final = sum(size for _, size in _BID_BLOCKS)
"""The length of :func:`bid_features`' vector."""
_AT: Final = {
    name: sum(size for _, size in _BID_BLOCKS[:index])
    for index, (name, _) in enumerate(_BID_BLOCKS)
}

Floats = npt.NDArray[np.float32]
SuitOrder = tuple[int, int, int, int]
"""Where each suit goes in a network's frame (the training reorders the suits of a sample to
learn from it as from the same hand in other suits)."""
NATURAL: Final[SuitOrder] = (0, 1, 2, 3)


def bid_class(action: Action, order: SuitOrder = NATURAL) -> int | None:
    """The class of a bidding action in the bid network's output (suits placed by
    ``order``), or ``None`` for a card or a bid of a value it does not name."""
    if isinstance(action, Pass):
        return 0
    if isinstance(action, Take):
        return _TAKE + _strain(action.strain, order)
    if isinstance(action, Bid):
        if action.value not in BID_VALUES:
            return None
        return _BID + 6 * BID_VALUES.index(action.value) + _strain(action.strain, order)
    if isinstance(action, Coinche):
        return _COINCHE
    if isinstance(action, Surcoinche):
        return _COINCHE + 1
    return None


def _strain(strain: Strain, order: SuitOrder) -> int:
    return order[strain] if strain < 4 else int(strain)


def _cards(mask: int, order: SuitOrder) -> list[int]:
    return [order[card >> 3] * 8 + (card & 7) for card in range(32) if mask >> card & 1]


def bid_features(observation: Observation, order: SuitOrder = NATURAL) -> Floats:
    """What the bid network reads of a seat's observation in the bidding: its hand and the
    turned card (suits placed by ``order``), each seat's last bid, passes and take (seats
    counted from the observer), the best bid so far and who made it, its coinche, the dealer,
    the bidding system, how far the auction has gone."""
    x = np.zeros(BID_FEATURES, dtype=np.float32)
    me = int(observation.seat)
    for place in _cards(observation.hand.mask, order):
        x[_AT["hand"] + place] = 1
    if observation.turned_card is not None:
        x[_AT["turned"] + _cards(1 << observation.turned_card, order)[0]] = 1
    best: Bid | Take | None = None
    coinche = 0
    for action in observation.history:
        relative = (action.seat - me) % 4
        if isinstance(action, Pass):
            x[_AT["passes"] + relative] += 0.5
        elif isinstance(action, Bid | Take):
            at = _AT["last_bid"] + 7 * relative
            x[at : at + 7] = 0
            x[at + _strain(action.strain, order)] = 1
            x[at + 6] = action.value / 250 if isinstance(action, Bid) else 1
            x[_AT["took"] + relative] = float(isinstance(action, Take))
            best, coinche = action, 0
        elif isinstance(action, Coinche):
            coinche = 1
        elif isinstance(action, Surcoinche):
            coinche = 2
    if best is not None:
        x[_AT["best"] + _strain(best.strain, order)] = 1
        x[_AT["best"] + 6] = best.value / 250 if isinstance(best, Bid) else 1
        x[_AT["best_by"] + (best.seat - me) % 4] = 1
    if coinche:
        x[_AT["coinche"] + coinche - 1] = 1
    x[_AT["dealer"] + (observation.dealer - me) % 4] = 1
    x[_AT["system"] + (observation.rules.bidding == "auction")] = 1
    x[_AT["turn"]] = len(observation.history) / 12
    return x


@dataclass(frozen=True, slots=True)
class Network:
    """Layers of a multi-layer perceptron (rectified between them): each a weight matrix and
    a bias."""

    weights: tuple[Floats, ...]
    biases: tuple[Floats, ...]

    def scores(self, x: Floats) -> Floats:
        """The output layer's scores for the features ``x`` (one sample or rows of them)."""
        values = x
        last = len(self.weights) - 1
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            values = values @ weight + bias
            if index < last:
                values = np.maximum(values, 0)
        return values


@dataclass(frozen=True, slots=True)
class FastModel:
    """The two networks: the play network (:func:`~cardavia.ai.card_location.features` to
    the 32 cards of its frame) and the bid network (:func:`bid_features` to
    :data:`BID_CLASSES`)."""

    play: Network
    bid: Network

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> FastModel:
        """The networks saved at ``path`` (numbers only, no pickles); ``ValueError`` if they
        do not fit this version's features."""
        with np.load(path, allow_pickle=False) as saved:
            play, bid = (_network(saved, name) for name in ("play", "bid"))
        if play.weights[0].shape[0] != FEATURES or play.weights[-1].shape[1] != 32:
            raise ValueError(f"{path}: the play network does not fit this version's features")
        if bid.weights[0].shape[0] != BID_FEATURES or bid.weights[-1].shape[1] != BID_CLASSES:
            raise ValueError(f"{path}: the bid network does not fit this version's features")
        return cls(play, bid)

    def save(self, path: Path, **notes: str) -> None:
        """Write the networks to ``path`` (``.npz``, compressed, half precision), with
        ``notes`` (what they were trained on)."""
        arrays: dict[str, npt.NDArray[np.generic]] = {}
        for name, network in (("play", self.play), ("bid", self.bid)):
            for index, (weight, bias) in enumerate(
                zip(network.weights, network.biases, strict=True)
            ):
                arrays[f"{name}_weights_{index}"] = weight.astype(np.float16)
                arrays[f"{name}_bias_{index}"] = bias.astype(np.float16)
        for key, text in notes.items():
            arrays[f"note_{key}"] = np.array(text)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def _network(saved: np.lib.npyio.NpzFile, name: str) -> Network:
    weights: list[Floats] = []
    biases: list[Floats] = []
    while f"{name}_weights_{len(weights)}" in saved:
        weights.append(saved[f"{name}_weights_{len(weights)}"].astype(np.float32))
        biases.append(saved[f"{name}_bias_{len(biases)}"].astype(np.float32))
    if not weights:
        raise ValueError(f"no {name} network")
    return Network(tuple(weights), tuple(biases))


@cache
def trained() -> FastModel:
    """The networks trained for this version (:data:`WEIGHTS`), read once."""
    return FastModel.load()


@dataclass(frozen=True, slots=True)
class FastPlayer:
    """The ``fast`` level (see the module)."""

    model: FastModel | None = None
    """The networks (the trained ones, :func:`trained`, if none)."""
    endgame_tricks: int = 6
    """From this many tricks left, the card is chosen by search rather than by the play
    network: the endgame is solved exactly in :attr:`endgame_worlds` worlds (a millisecond
    or so each with six tricks left, a fraction of one later; 0: never)."""
    endgame_worlds: int = 8
    """The worlds drawn for an endgame decision (consistent with the seat's view, alike)."""

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        model = self.model or trained()
        if observation.phase is Phase.BIDDING:
            return self._bid(model, observation)
        order = suit_order(observation)
        scores = model.play.scores(features(observation)).tolist()
        cards = sorted({action.card for action in legal if isinstance(action, Play)})
        means: dict[Card, float] = {}
        if len(cards) > 1 and 8 - len(observation.tricks) <= self.endgame_tricks:
            worlds = sample_worlds(observation, rng, self.endgame_worlds)
            means = card_values(observation, worlds, order="masters")
        # The best mean in the endgame; the network's choice among the cards as good, and
        # before the endgame.
        card = max(
            cards,
            key=lambda c: (round(means.get(c, 0.0), 6), scores[order[c >> 3] * 8 + (c & 7)]),
        )
        return with_declarations(observation, card)

    @staticmethod
    def _bid(model: FastModel, observation: Observation) -> Action:
        """Pass if the network thinks the expert would pass more likely than not; else its
        likeliest other bid. (Its likeliest class would be a pass far more often than the
        expert's: the chance of bidding is shared among dozens of bids.)"""
        legal = observation.legal_actions
        named = [(index, action) for action in legal if (index := bid_class(action)) is not None]
        if not named:
            return legal[0]
        scores = model.bid.scores(bid_features(observation))
        chosen = np.array([index for index, _ in named])
        chances = np.exp(scores[chosen] - scores[chosen].max())
        chances /= chances.sum()
        passes = [place for place, (_, action) in enumerate(named) if isinstance(action, Pass)]
        if passes and (len(named) == 1 or chances[passes[0]] >= 0.5):
            return named[passes[0]][1]
        others = [place for place in range(len(named)) if place not in passes]
        return named[max(others, key=lambda place: chances[place])][1]


def fast_2026_12() -> FastPlayer:
    """The fast level's first version (``fast-2026-12``): networks fitted on the expert's
    self-play of December 2026 (their weights are the version: new weights, a new
    version)."""
    return FastPlayer()


__all__ = [
    "BID_CLASSES",
    "BID_FEATURES",
    "BID_VALUES",
    "WEIGHTS",
    "FastModel",
    "FastPlayer",
    "Network",
    "bid_class",
    "bid_features",
    "fast_2026_12",
    "trained",
]
