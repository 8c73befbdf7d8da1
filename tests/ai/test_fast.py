"""The fast level (:mod:`cardavia.ai.fast`): legal bids and cards from the seat's observation
alone, the same for the same observation and seed, from small weights of numbers only; its training
samples (``training/fast.py``) are the choices made among the legal ones, in other suits
too, and its fitting learns."""

from __future__ import annotations

import random

import numpy as np

from cardavia.ai.card_location import FEATURES
from cardavia.ai.fast import (
    BID_CLASSES,
    BID_FEATURES,
    WEIGHTS,
    FastModel,
    FastPlayer,
    bid_class,
    bid_features,
)
from cardavia.ai.levels import find_player, find_version
from cardavia.belote import DealState, Observation, Phase, Seat, find_rules

from .test_card_location import _club_record, _script


def test_the_fast_player_bids_and_plays_legal_actions_the_same_for_the_same_view() -> None:
    fast = find_version("fast-2026-12")
    assert isinstance(fast, FastPlayer)
    seen = {Phase.BIDDING: 0, Phase.PLAYING: 0}
    for number in range(8):
        rng = random.Random(number)
        preset = ("coinche", "cardavia")[number % 2]
        state = DealState.deal(find_rules(preset), dealer=Seat(number % 4), rng=rng)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            observation = state.observation(seat)
            action = fast.decide(observation, random.Random(len(state.history)))
            assert action in observation.legal_actions
            assert fast.decide(observation, random.Random(len(state.history))) == action
            if len(observation.tricks) < 8 - fast.endgame_tricks:  # the network alone
                assert fast.decide(observation, random.Random(99)) == action
            if len(observation.legal_actions) > 1:
                seen[observation.phase] += 1
            state = state.apply(action)
    assert min(seen.values()) >= 20


def _bidding_views(count: int) -> list[Observation]:
    """Bidding turns of club players' deals, both bidding systems."""
    club, views = find_player("club"), []
    for number in range(count):
        rng = random.Random(number)
        preset = ("coinche", "cardavia")[number % 2]
        state = DealState.deal(find_rules(preset), dealer=Seat(number % 4), rng=rng)
        while state.phase is Phase.BIDDING:
            views.append(state.observation(state.to_move))
            state = state.apply(club.decide(views[-1], rng))
    return views


def test_every_bidding_action_has_a_class_of_its_own_in_every_order_of_the_suits() -> None:
    for view in _bidding_views(12):
        for order in ((0, 1, 2, 3), (2, 0, 3, 1)):
            classes = [bid_class(action, order) for action in view.legal_actions]
            assert None not in classes
            assert len(set(classes)) == len(classes)
            assert all(0 <= c < BID_CLASSES for c in classes if c is not None)
        assert bid_features(view).shape == (BID_FEATURES,)


def test_the_weights_are_small_numbers_that_fit_the_features() -> None:
    assert WEIGHTS.stat().st_size < 2_000_000
    with np.load(WEIGHTS, allow_pickle=False) as saved:  # numbers only: no pickle read
        assert all(saved[name].dtype.kind in "fU" for name in saved.files)
    model = FastModel.load()
    assert model.play.weights[0].shape[0] == FEATURES
    assert model.bid.weights[-1].shape[1] == BID_CLASSES


def test_the_training_samples_are_choices_among_the_legal_ones_in_other_suits_too() -> None:
    fitting = _script("fast")
    reader = fitting.Reader(None, {})
    (x, y, legal), (bx, by, blegal) = reader.samples((_club_record(), False))
    (ax, ay, alegal), (abx, aby, ablegal) = reader.samples((_club_record(), True))
    assert x.shape[1] == FEATURES and bx.shape[1] == BID_FEATURES
    assert len(ax) == 3 * len(x) > 0 and len(abx) == 4 * len(bx) > 0
    for chosen, allowed in ((y, legal), (by, blegal), (ay, alegal), (aby, ablegal)):
        assert (allowed[np.arange(len(chosen)), chosen] == 1).all()
    # The copy in other suits holds the same cards, moved.
    assert (ax[::3] == x).all() and (ax.sum(axis=1) == np.repeat(x.sum(axis=1), 3)).all()


def test_the_fitting_learns_the_choices_it_is_shown() -> None:
    fitting = _script("fast")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((512, 20)).astype(np.float32)
    y = (x[:, :5].argmax(axis=1)).astype(np.int64)  # the largest of the first five
    legal = np.zeros((512, 8), np.float32)
    legal[:, :5] = 1
    trainer = fitting.Trainer([20, 32, 8], seed=0, rate=0.01, alpha=0.0)
    before = fitting.judged(trainer.network(), (x, y, legal))
    for _ in range(60):
        for rows in fitting.batches(512, 64, rng):
            trainer.step(x[rows], y[rows], legal[rows])
    after = fitting.judged(trainer.network(), (x, y, legal))
    assert after[0] > before[0] and after[1] > 0.9
