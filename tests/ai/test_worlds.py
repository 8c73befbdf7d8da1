"""Sampling the hidden cards: sound (the real deal is always possible), consistent, and blind
to what the seat may not see."""

from __future__ import annotations

import itertools
import random

import pytest

from cardavia.ai.club import ClubPlayer
from cardavia.ai.worlds import (
    enumerate_worlds,
    excluded_cards,
    is_consistent,
    known_cards,
    sample_worlds,
)
from cardavia.belote import PRESETS, DealState, IllegalActionError, Phase, Seat


def positions(preset: str, seed: int, count: int) -> list[DealState]:
    """States met along random deals, each with someone to move."""
    rng = random.Random(seed)
    rules = PRESETS[preset].replace(round2_contracts=True, auction_contracts=True)
    found = []
    deal = 0
    while len(found) < count:
        state = DealState.deal(rules, dealer=Seat(deal & 3), rng=rng)
        deal += 1
        while not state.is_over:
            if rng.random() < 0.25:
                found.append(state)
            state = state.apply(rng.choice(state.legal_actions))
    return found[:count]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_real_deal_is_always_possible(preset: str) -> None:
    """What the sampler rules out never includes a card the seat really holds."""
    for state in positions(preset, seed=11, count=150):
        if state.phase is not Phase.PLAYING:
            continue
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        assert state.values is not None
        excluded = excluded_cards(observation, state.values)
        known = known_cards(observation)
        for other in Seat:
            assert not excluded[other] & state.hands[other], (state, other)
            assert known[other] & ~state.hands[other] == 0
        assert is_consistent(observation, state.values, state.hands)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_worlds_agree_with_the_observation(preset: str) -> None:
    """Every world keeps the seat's own hand, the hand sizes, and explains every card played."""
    rng = random.Random(3)
    for state in positions(preset, seed=5, count=120):
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        worlds = sample_worlds(observation, rng, 4)
        assert len(worlds) == 4
        for world in worlds:
            assert world[seat] == state.hands[seat]
            if state.phase is Phase.PLAYING:
                assert [h.bit_count() for h in world] == [h.bit_count() for h in state.hands]
                assert state.values is not None
                assert is_consistent(observation, state.values, world)
                played = observation.played.mask
                assert not any(h & played for h in world)


def swapped(state: DealState, rng: random.Random) -> DealState | None:
    """The same deal with two unplayed cards of two hidden hands exchanged in the deck and the
    same actions replayed, or ``None`` if the actions are no longer legal."""
    seat = state.to_move
    assert seat is not None
    others = [s for s in Seat if s != seat and state.hands[s]]
    if len(others) < 2:
        return None
    first, second = rng.sample(others, 2)
    a = rng.choice(list(state.hand(first)))
    b = rng.choice(list(state.hand(second)))
    deck = [b if c == a else a if c == b else c for c in state.deck]
    try:
        return DealState.from_deck(state.rules, dealer=state.dealer, deck=deck).replay(
            state.history
        )
    except IllegalActionError:
        return None


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_hidden_cards_change_nothing_a_seat_sees(preset: str) -> None:
    """Two deals that differ only in cards a seat cannot see give it the same observation and,
    under the same seed, the same worlds: the sampler cannot peek."""
    rng = random.Random(8)
    compared = 0
    for state in positions(preset, seed=9, count=150):
        if state.phase is not Phase.PLAYING or not state.deck:
            continue
        other = swapped(state, rng)
        if other is None or other.hands == state.hands:
            continue
        seat = state.to_move
        assert seat is not None
        # The swapped cards may have been known to the seat (the turned card, a belote, an
        # announcement shown): then the observations differ, as they should.
        if state.observation(seat) != other.observation(seat):
            continue
        assert sample_worlds(state.observation(seat), random.Random(1), 3) == sample_worlds(
            other.observation(seat), random.Random(1), 3
        )
        compared += 1
    assert compared > 20


def every_consistent_world(state: DealState, seat: Seat) -> set[tuple[int, int, int, int]]:
    """Every deal of the cards ``seat`` cannot see to the others, kept where it agrees with
    the observation: counted the slow way, with nothing but the engine's own check."""
    observation = state.observation(seat)
    assert state.values is not None
    known = known_cards(observation)
    hidden = [
        c
        for c in range(32)
        if not (observation.hand.mask | observation.played.mask | sum(known)) >> c & 1
    ]
    need = [observation.hand_sizes[s] - known[s].bit_count() for s in Seat]
    found = set()
    for places in itertools.product(range(4), repeat=len(hidden)):
        if [places.count(s) for s in range(4)] != need:
            continue
        hands = list(known)
        for card, place in zip(hidden, places, strict=True):
            hands[place] |= 1 << card
        world = (hands[0], hands[1], hands[2], hands[3])
        if is_consistent(observation, state.values, world):
            found.add(world)
    return found


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_endgame_worlds_are_every_consistent_one(preset: str) -> None:
    """Late in the deal every world that agrees with the observation is enumerated, each
    once, the real one among them; past the limit, none."""
    checked = 0
    for state in positions(preset, seed=21, count=400):
        if state.phase is not Phase.PLAYING or len(state.tricks) < 6:
            continue
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        worlds = enumerate_worlds(observation, 10_000)
        assert worlds is not None
        assert len(set(worlds)) == len(worlds)
        assert set(worlds) == every_consistent_world(state, seat)
        assert tuple(state.hands) in worlds
        if len(worlds) > 1:
            assert enumerate_worlds(observation, len(worlds) - 1) is None
        checked += 1
    assert checked > 20


def test_no_worlds_are_counted_early_or_in_the_auction() -> None:
    """At the start of the play there are far too many worlds to count; in the auction,
    before a contract, none are."""
    state = DealState.deal(PRESETS["coinche"], dealer=Seat.W, rng=random.Random(6))
    club, rng = ClubPlayer(), random.Random(0)
    while state.phase is Phase.BIDDING:
        assert enumerate_worlds(state.observation(state.to_move), 10**9) is None
        state = state.apply(club.decide(state.observation(state.to_move), rng))
    assert state.phase is Phase.PLAYING
    assert enumerate_worlds(state.observation(state.to_move), 10**9) is None
