"""Reading the others' cards: each past card weighed under the club player's way of playing,
tempered so that a few worlds never carry all the weight; and the next expert that reads
them, with its endgame solved over every world."""

from __future__ import annotations

import random
import statistics

import pytest

from cardavia.ai.club import ClubPlayer
from cardavia.ai.expert import ExpertPlayer, expert_2026_12, next_expert
from cardavia.ai.play_reading import AGREES, PlayReading, effective_size, tempered
from cardavia.ai.strong import root_values
from cardavia.ai.worlds import enumerate_worlds
from cardavia.belote import DealState, Phase, Seat, find_rules


def club_deal(preset: str, seed: int, played: int) -> DealState | None:
    """A deal played by club players until ``played`` cards are down (``None`` if nobody
    took)."""
    state = DealState.deal(find_rules(preset), dealer=Seat(seed & 3), rng=random.Random(seed))
    club, rng = ClubPlayer(), random.Random(seed)
    while state.phase is not Phase.PLAYING or len(state.observation(Seat.S).played) < played:
        if state.is_over:
            return None
        state = state.apply(club.decide(state.observation(state.to_move), rng))
    return state


@pytest.mark.parametrize("preset", ["coinche", "cardavia", "maghreb"])
def test_when_the_others_play_as_the_club_player_the_real_deal_reads_best(preset: str) -> None:
    """Deals played by club players: among every world that agrees with the table, the real
    one is among the most likely (a world where more of the cards were forced can read a
    little better: a forced card counts 1, the club player's own choice :data:`AGREES`)."""
    checked = 0
    below = []
    for seed in range(12):
        state = club_deal(preset, seed, 20)
        if state is None or state.to_move is None:
            continue
        observation = state.observation(state.to_move)
        worlds = enumerate_worlds(observation, 5_000)
        if not worlds or len(worlds) < 3:
            continue
        reading = PlayReading.of(observation)
        truth = reading.likelihood(tuple(state.hands))
        others = [reading.likelihood(world) for world in worlds]
        assert statistics.fmean(value <= truth for value in others) >= 0.95
        below.append(statistics.fmean(value < truth for value in others))
        checked += 1
    assert checked >= 8 and statistics.fmean(below) > 0.8


def test_a_seat_s_own_cards_and_forced_cards_say_nothing() -> None:
    """Only the other seats' cards are read, and a card that was the only legal one counts
    1; a card the club player would have played counts :data:`AGREES`."""
    state = club_deal("coinche", 6, 20)
    assert state is not None
    observation = state.observation(Seat.S)
    reading = PlayReading.of(observation)
    assert reading.moments and all(moment.seat != Seat.S for moment in reading.moments)
    world = tuple(state.hands)
    values = {
        reading.of_moment(i, world[m.seat] | m.held_since) for i, m in enumerate(reading.moments)
    }
    assert values <= {1.0, AGREES}


def test_tempering_keeps_the_effective_sample_size() -> None:
    """Weights that leave a fair share of the worlds in play are kept as they are; weights
    where one world outweighs the others by millions are flattened until at least the floor's
    share counts, and never to all alike."""
    spread = [0.9, 0.7, 0.8, 1.0, 0.6]
    assert tempered(spread) == (spread, 1.0)
    steep = [1.0] + [1e-9] * 19
    weights, power = tempered(steep, floor=0.3)
    assert power < 1 and effective_size(weights) >= 0.3 * 20
    assert weights[0] > weights[1]


def test_the_endgame_is_the_mean_over_every_world() -> None:
    """With the reading switched off, the exact endgame's value of each card is the plain
    mean of its value over every world that agrees with the table."""
    state = club_deal("coinche", 6, 24)
    assert state is not None and state.to_move is not None
    observation = state.observation(state.to_move)
    worlds = enumerate_worlds(observation, 1_000)
    assert worlds and len(worlds) > 2
    player = ExpertPlayer(exact_worlds=1_000, belief=0.0, read_plays=0)
    value = player._valuation(observation)
    expected: dict[int, float] = {}
    for world in worlds:
        points, _ = root_values(observation, world)
        for card, p in points.items():
            expected[card] = expected.get(card, 0.0) + value(p) / len(worlds)
    got = player.play_values(observation, random.Random(1))
    assert got.keys() == expected.keys()
    assert all(got[card] == pytest.approx(expected[card]) for card in got)


def test_the_next_expert_is_reproducible_and_the_kept_one_is_today_s() -> None:
    """The next expert decides the same under the same seed, a legal card; the kept
    version is the expert level as it is."""
    assert expert_2026_12() == ExpertPlayer()
    assert next_expert() != ExpertPlayer()
    for played in (8, 21, 25):
        state = club_deal("coinche", 4, played)
        assert state is not None and state.to_move is not None
        observation = state.observation(state.to_move)
        one = next_expert().decide(observation, random.Random(2))
        assert one == next_expert().decide(observation, random.Random(2))
        assert one in observation.legal_actions
