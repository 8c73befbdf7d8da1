"""The card-location network: what it reads, what it says, and that its training data and
weights are sound."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from cardavia.ai.card_location import (
    FEATURES,
    LocationModel,
    constraints,
    features,
    suit_order,
    trained,
)
from cardavia.ai.levels import find_player
from cardavia.ai.worlds import sample_worlds
from cardavia.belote import DealState, Play, Seat, find_rules
from cardavia.belote.game import Phase
from cardavia.belote.search import FULL_MASK

TRAINING = Path(__file__).parents[2] / "training"


def _script(name: str) -> ModuleType:
    """A script of ``training/`` as a module."""
    spec = importlib.util.spec_from_file_location(f"training_{name}", TRAINING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _played(preset: str, seed: int, cards: int) -> DealState:
    """A deal of club players, ``cards`` cards into the play."""
    club, rng = find_player("club"), random.Random(seed)
    while True:
        state = DealState.deal(find_rules(preset), dealer=Seat(seed % 4), rng=rng)
        while not state.is_over and (
            state.phase is Phase.BIDDING or len(state.history) - _bids(state) < cards
        ):
            state = state.apply(club.decide(state.observation(state.to_move), rng))
        if state.phase is Phase.PLAYING:
            return state


def _club_record() -> str:
    """The first deal of club players' self-play that someone took, as its record's line."""
    self_play = _script("self_play")
    number = 0
    while (line := self_play.SelfPlay("club").play(number)) is None:
        number += 1
    return line


def _bids(state: DealState) -> int:
    return sum(1 for a in state.history if not isinstance(a, Play))


def test_the_frame_puts_the_trump_suit_first() -> None:
    """Under a hearts contract hearts become the frame's first suit, the others following
    in their order; without a suit contract nothing moves."""
    state = _played("coinche", 3, 0)
    observation = state.observation(Seat.N)
    assert observation.contract is not None
    trump = int(observation.contract.strain)
    order = suit_order(observation)
    if trump < 4:
        assert order[trump] == 0
        assert sorted(order) == [0, 1, 2, 3]
        others = [s for s in range(4) if s != trump]
        assert [order[s] for s in others] == [1, 2, 3]
    x = features(observation)
    assert x.shape == (FEATURES,) and x.dtype == np.float32
    hand = x[:32]
    assert hand.sum() == 8
    for card in observation.hand:
        assert hand[order[card >> 3] * 8 + (card & 7)] == 1


def test_the_estimate_shares_each_hidden_card_among_the_seats_that_may_hold_it() -> None:
    """Each card hidden from the seat has chances summing to one, none at the seat itself,
    none at a seat known void of it; the seat's own and the played cards have none."""
    checked = 0
    for seed in range(6):
        state = _played("coinche" if seed % 2 else "cardavia", seed, 13)
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        known, excluded = constraints(observation)
        estimate = trained().estimate(observation)
        hidden = ~(observation.played.mask | known[0] | known[1] | known[2] | known[3])
        assert set(estimate.chances) == {c for c in range(32) if (hidden & FULL_MASK) >> c & 1}
        for card, chances in estimate.chances.items():
            assert math.isclose(sum(chances), 1.0, rel_tol=1e-6)
            assert chances[seat] == 0
            for other in range(4):
                if excluded[other] >> card & 1:
                    assert chances[other] == 0
            checked += 1
        # A world's likelihood is the product of its cards' chances.
        world = tuple(state.hands)
        expected = math.prod(
            chances[next(s for s in range(4) if world[s] >> card & 1)]
            for card, chances in estimate.chances.items()
        )
        assert math.isclose(estimate.likelihood(world), expected, rel_tol=1e-9)
        assert all(
            estimate.likelihood(w) > 0 for w in sample_worlds(observation, random.Random(1), 5)
        )
    assert checked > 50


def test_weights_that_do_not_fit_the_features_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "small.npz"
    np.savez(
        path,
        hidden_weights=np.zeros((10, 4), np.float32),
        hidden_bias=np.zeros(4, np.float32),
        out_weights=np.zeros((4, 96), np.float32),
        out_bias=np.zeros(96, np.float32),
    )
    with pytest.raises(ValueError, match="does not fit"):
        LocationModel.load(path)
    assert trained().hidden_weights.shape[0] == FEATURES


def test_the_training_records_replay_and_label_every_hidden_card() -> None:
    """A self-play record (club players) replays; each sample of it gives each card hidden
    from the seat exactly one true seat, one with room for it."""
    x, y, room = _script("card_location").samples(_club_record())
    assert x.shape == (4 * 32, FEATURES)
    assert y.shape == room.shape == (4 * 32, 96)
    cards = y.reshape(-1, 32, 3)
    assert ((cards.sum(axis=2) == 1) | (cards.sum(axis=2) == 0)).all()
    assert (room.reshape(-1, 32, 3)[cards == 1] > 0).all()
    # The first moment, seen from a seat, hides the 24 cards of the three others.
    assert cards[0].sum() == 24
    score, right = _script("card_location").judged(room, y, room)
    assert score < 0 and 0 < right < 1


def test_the_network_knows_more_than_the_room_left() -> None:
    """On deals it never saw (club players, both families), the trained network gives each
    hidden card's true seat a higher mean log-likelihood than sharing by the room left."""
    fitting = _script("card_location")
    self_play = _script("self_play")
    model = trained()
    ours, room_only = [], []
    for number in range(10**9, 10**9 + 12):
        line = self_play.SelfPlay("club").play(number)
        if line is None:
            continue
        x, y, room = fitting.samples(line)
        chances = np.stack([model.scores(row).reshape(96) for row in x])
        ours.append(fitting.judged(chances, y, room)[0])
        room_only.append(fitting.judged(room, y, room)[0])
    assert len(ours) >= 8
    assert np.mean(ours) > np.mean(room_only) + 0.02
