"""The play-policy network: each world's likelihood computed at once is the one its features
give card by card, its training samples are sound, and it knows more than chance."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

import numpy as np
import pytest

from cardavia.ai.card_location import FEATURES, features
from cardavia.ai.levels import find_player
from cardavia.ai.play_policy import PlayPolicyReading, PolicyModel, framed_bits, framing, trained
from cardavia.ai.play_reading import PlayReading
from cardavia.ai.worlds import sample_worlds
from cardavia.belote import CardSet, Observation
from cardavia.belote.search import constraint

from .test_card_location import _club_record, _played, _script


def _chance_card_by_card(
    reading: PlayPolicyReading, view: Observation, world: tuple[int, ...], index: int
) -> float:
    """The chance of moment ``index``'s card in ``world``, from the features of the seat's
    observation then (``view``), filled with the hand the world gives it (the slow way)."""
    moment = reading.moments[index]
    hand = world[moment.seat] | moment.held_since
    filled = dataclasses.replace(view, hand=CardSet(hand))
    model = reading.model
    assert reading.values is not None
    allowed = constraint(reading.rules, reading.values, moment.before, moment.seat, hand).allowed
    chances = model.chances(
        model.hidden(features(filled)[None, :]), framed_bits([allowed], reading.frame)
    )
    return float(chances[0, moment.place])


def test_a_world_s_likelihood_is_the_product_of_its_cards_chances() -> None:
    """The likelihoods computed for all the worlds at once (the first layer split into the
    table's part and the hand's) are those of the network read card by card from each
    seat's observation then, filled with the world's hand."""
    checked = 0
    for seed in range(4):
        state = _played("coinche" if seed % 2 else "cardavia", seed, 14)
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        reading = PlayPolicyReading.of(observation)
        # The seats' observations then, with the hand sizes of that moment.
        views = []
        for moment in PlayReading.of(observation).moments:
            sizes = [8 - len(moment.view.tricks)] * 4
            for other, _ in moment.before:
                sizes[other] -= 1
            views.append(
                dataclasses.replace(
                    moment.view, hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3])
                )
            )
        worlds = [tuple(state.hands), *sample_worlds(observation, random.Random(seed), 6)]
        fast = reading.likelihoods(worlds)
        for world, value in zip(worlds, fast, strict=True):
            slow = math.prod(
                _chance_card_by_card(reading, views[i], world, i) for i in range(len(views))
            )
            assert math.isclose(value, slow, rel_tol=1e-4)
            assert 0 < value <= 1
            checked += 1
    assert checked == 28


def test_the_training_samples_are_the_cards_played_among_the_legal_ones() -> None:
    fitting = _script("play_policy")
    x, cards, legal = fitting.samples(_club_record())
    assert x.shape[1] == FEATURES and len(x) == len(cards) == len(legal) > 0
    assert (legal[np.arange(len(cards)), cards] == 1).all()  # the card played was legal
    assert (legal.sum(axis=1) >= 2).all()  # only choices
    # Each sample's hand (the features' first part) holds the card played.
    assert (x[np.arange(len(cards)), cards] == 1).all()
    score, right = fitting.judged(legal / legal.sum(axis=1, keepdims=True), cards)
    assert score < 0 and 0 <= right <= 1


def test_weights_that_do_not_fit_the_features_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "small.npz"
    np.savez(
        path,
        hidden_weights=np.zeros((10, 4), np.float32),
        hidden_bias=np.zeros(4, np.float32),
        out_weights=np.zeros((4, 32), np.float32),
        out_bias=np.zeros(32, np.float32),
        power=np.array(1.0, np.float32),
    )
    with pytest.raises(ValueError, match="does not fit"):
        PolicyModel.load(path)
    assert trained().hidden_weights.shape == (FEATURES, trained().out_weights.shape[0])


def test_the_network_knows_more_than_chance() -> None:
    """On deals it never saw (club players, both families), the card really played is
    likelier under the trained network than under every legal card alike."""
    network, alike = [], []
    for seed in range(100, 106):
        state = _played("coinche" if seed % 2 else "cardavia", seed, 0)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            observation = state.observation(seat)
            action = find_player("club").decide(observation, random.Random(seed))
            allowed = state.legal_cards().mask
            if allowed.bit_count() > 1:
                frame = framing(observation)
                model = trained()
                chances = model.chances(
                    model.hidden(features(observation)[None, :]), framed_bits([allowed], frame)
                )
                network.append(math.log(chances[0, frame[action.card]]))
                alike.append(-math.log(allowed.bit_count()))
            state = state.apply(action)
    assert len(network) > 60
    assert sum(network) / len(network) > sum(alike) / len(alike) + 0.05
