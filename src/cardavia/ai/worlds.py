"""Worlds: the other hands, dealt at random consistently with everything one seat has seen.

A computer player that must not peek reasons about the hidden cards by sampling them (the
OpenSpiel/GIB way): every world it draws agrees with the observation — the hand sizes, the
turned card gone to the taker, the cards of the announcements shown, the K or Q a "belote"
announced, and every card played being legal from the hand its player had then (voids shown,
a failure to overtrump, a discard instead of a trump…).

>>> import random
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(5))
>>> worlds = sample_worlds(state.observation(Seat.S), random.Random(1), 3)
>>> all(w[Seat.S] == state.hands[Seat.S] for w in worlds)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.belote import Card, CardValues, Observation, Seat, mask_cards, values_for
from cardavia.belote.search import FULL_MASK, constraint

Hands = tuple[int, int, int, int]
"""The four hands of a world, as masks, indexed by seat."""

_ATTEMPTS = 200
_SEATS = tuple(Seat)
_COUNTED = 5_000
"""The most ways of dealing the hidden cards (before the exclusions) that
:func:`enumerate_worlds` goes through."""


def _past_plays(observation: Observation) -> list[tuple[tuple[tuple[Seat, Card], ...], Seat, Card]]:
    """Every card played so far with the trick as it was before it: (trick, seat, card)."""
    plays = []
    for trick in observation.tricks:
        seen = trick.plays
        for index, (seat, card) in enumerate(seen):
            plays.append((seen[:index], seat, card))
    for index, (seat, card) in enumerate(observation.trick):
        plays.append((observation.trick[:index], seat, card))
    return plays


def known_cards(observation: Observation) -> tuple[int, int, int, int]:
    """The unplayed cards each seat is known to hold: the observer's hand, the turned card
    with the taker, the cards of the announcements shown, the other half of a belote."""
    known = [0, 0, 0, 0]
    played = observation.played.mask
    known[observation.seat] = observation.hand.mask
    contract = observation.contract
    if observation.turned_card is not None and contract is not None:
        known[contract.taker] |= 1 << observation.turned_card
    for seat, item in observation.revealed:
        known[seat] |= item.cards
    for event in observation.belote_events:
        if event.word == "belote":
            rank = event.card & 7
            other = event.card - rank + 11 - rank  # the queen (5) for the king (6), and back
            known[event.seat] |= 1 << other
    return (
        known[0] & ~played,
        known[1] & ~played,
        known[2] & ~played,
        known[3] & ~played,
    )


def excluded_cards(observation: Observation, values: CardValues) -> tuple[int, int, int, int]:
    """The cards each seat cannot hold now, read off its plays (docs/rules.md 5).

    A card ``u`` is excluded for a seat if holding it would have made one of the seat's
    plays illegal: the rules only ever add obligations with more cards in hand, so the test
    with the hand {played card, u} is sound (it never excludes a card the seat may hold).
    This finds every void and every cap on a suit ("could not overtrump the 9").
    """
    rules = observation.rules
    unknown = ~(observation.hand.mask | observation.played.mask) & FULL_MASK
    excluded = [0, 0, 0, 0]
    for trick, seat, card in _past_plays(observation):
        if seat == observation.seat:
            continue
        for other in mask_cards(unknown & ~excluded[seat]):
            hand = (1 << card) | (1 << other)
            if not constraint(rules, values, trick, seat, hand).allowed >> card & 1:
                excluded[seat] |= 1 << other
    return (excluded[0], excluded[1], excluded[2], excluded[3])


def is_consistent(observation: Observation, values: CardValues, hands: Sequence[int]) -> bool:
    """Whether every card played would have been legal from these (current) hands plus the
    cards each seat played since."""
    plays = _plays_by_seat(observation)
    return all(_plays_legal(observation, values, plays[seat], seat, hands[seat]) for seat in Seat)


_OwnPlays = list[tuple[tuple[tuple[Seat, Card], ...], Card]]
"""One seat's cards played, in order, each with the trick as it was before it."""


def _plays_by_seat(observation: Observation) -> tuple[_OwnPlays, _OwnPlays, _OwnPlays, _OwnPlays]:
    """Every card played so far, by the seat that played it (a seat's plays depend on its
    own hand alone)."""
    by_seat: tuple[_OwnPlays, _OwnPlays, _OwnPlays, _OwnPlays] = ([], [], [], [])
    for trick, seat, card in _past_plays(observation):
        by_seat[seat].append((trick, card))
    return by_seat


def _plays_legal(
    observation: Observation, values: CardValues, plays: _OwnPlays, seat: Seat, hand: int
) -> bool:
    """Whether each of ``seat``'s ``plays`` was legal from ``hand`` (now) plus the cards it
    played since."""
    held = hand
    for _, card in plays:
        held |= 1 << card
    for trick, card in plays:
        if not constraint(observation.rules, values, trick, seat, held).allowed >> card & 1:
            return False
        held &= ~(1 << card)
    return True


@dataclass(frozen=True, slots=True)
class _Frame:
    """What a world must honour: the cards each seat is known to hold, the cards each cannot
    hold, the cards left to deal and how many each seat needs."""

    values: CardValues | None
    known: tuple[int, int, int, int]
    excluded: tuple[int, int, int, int]
    pool: list[Card]
    need: list[int]

    @classmethod
    def of(cls, observation: Observation) -> _Frame:
        contract = observation.contract
        known = known_cards(observation)
        values = values_for(observation.rules, contract.strain) if contract is not None else None
        excluded = excluded_cards(observation, values) if values is not None else (0, 0, 0, 0)
        unknown = ~(observation.played.mask | known[0] | known[1] | known[2] | known[3])
        unknown &= FULL_MASK
        # The cards still to be dealt to the others, and how many each needs.
        need = [observation.hand_sizes[s] - known[s].bit_count() for s in range(4)]
        if observation.turned_card is not None and contract is None:
            # Classic bidding: the turned card and the rest of the deck are nobody's yet.
            unknown &= ~(1 << observation.turned_card)
        pool = [c for c in range(32) if unknown >> c & 1]
        return cls(values, known, excluded, pool, need)


def sample_worlds(observation: Observation, rng: random.Random, count: int) -> list[Hands]:
    """``count`` worlds (the four current hands) consistent with ``observation``.

    Fewer come back only if the observation admits none (which a real deal never does).
    """
    frame = _Frame.of(observation)
    values = frame.values
    worlds: list[Hands] = []
    for _ in range(count * _ATTEMPTS):
        hands = _deal(frame.pool, frame.need, frame.known, frame.excluded, rng)
        if hands is None:
            continue
        if values is None or is_consistent(observation, values, hands):
            worlds.append(hands)
            if len(worlds) == count:
                break
    return worlds


def enumerate_worlds(observation: Observation, limit: int) -> list[Hands] | None:
    """Every world consistent with ``observation`` during the play, in a fixed order, if
    there are at most ``limit`` of them; ``None`` if there are more (or the hidden cards
    are too many to count them quickly: more than :data:`_COUNTED` ways to deal them before
    the exclusions).

    >>> import random
    >>> from cardavia.ai.club import ClubPlayer
    >>> from cardavia.belote import DealState, Seat, find_rules
    >>> state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(6))
    >>> club, rng = ClubPlayer(), random.Random(0)
    >>> while len(state.observation(Seat.S).played) < 20:  # five tricks played by club players
    ...     state = state.apply(club.decide(state.observation(state.to_move), rng))
    >>> worlds = enumerate_worlds(state.observation(Seat.S), 1000)
    >>> len(worlds), tuple(state.hands) in worlds
    (560, True)
    >>> enumerate_worlds(state.observation(Seat.S), 500) is None
    True
    """
    if observation.contract is None:
        return None
    frame = _Frame.of(observation)
    values = frame.values
    assert values is not None
    need = frame.need
    if sum(need) != len(frame.pool) or min(need) < 0:
        return None
    ways = math.factorial(len(frame.pool))
    for count in need:
        ways //= math.factorial(count)
    if ways > _COUNTED:
        return None
    # The most constrained cards first, each to every seat that may still take it.
    options = {
        card: [s for s in range(4) if need[s] > 0 and not frame.excluded[s] >> card & 1]
        for card in frame.pool
    }
    order = sorted(frame.pool, key=lambda card: (len(options[card]), card))
    worlds: list[Hands] = []
    hands = list(frame.known)
    room = list(need)
    plays = _plays_by_seat(observation)
    # A world is consistent when each seat's plays were legal from its own hand: checked
    # once per seat and hand, which many worlds share.
    checked: dict[tuple[int, int], bool] = {}

    def fits(seat: int, hand: int) -> bool:
        key = (seat, hand)
        if key not in checked:
            checked[key] = _plays_legal(observation, values, plays[seat], _SEATS[seat], hand)
        return checked[key]

    def place(index: int) -> bool:
        """Deal the cards from ``order[index]`` on; ``False`` once past the limit."""
        if index == len(order):
            if all(fits(seat, hands[seat]) for seat in range(4)):
                worlds.append((hands[0], hands[1], hands[2], hands[3]))
            return len(worlds) <= limit
        card = order[index]
        for seat in options[card]:
            if room[seat]:
                room[seat] -= 1
                hands[seat] |= 1 << card
                going = place(index + 1)
                hands[seat] &= ~(1 << card)
                room[seat] += 1
                if not going:
                    return False
        return True

    return worlds if place(0) else None


def _deal(
    pool: list[Card],
    need: list[int],
    known: Sequence[int],
    excluded: Sequence[int],
    rng: random.Random,
) -> Hands | None:
    """One random deal of ``pool`` honouring the counts and the exclusions (the most
    constrained cards first); ``None`` on a dead end. Cards beyond the counts (the rest of a
    classic deck during the bidding) go to a fifth place, the stock."""
    room = [*need, len(pool) - sum(need)]
    hands = [*known, 0]
    excluded = [*excluded, 0]
    options = {
        card: [s for s in range(5) if room[s] > 0 and not excluded[s] >> card & 1] for card in pool
    }
    order = sorted(pool, key=lambda card: (len(options[card]), rng.random()))
    for card in order:
        seats = [s for s in options[card] if room[s] > 0]
        if not seats:
            return None
        weights = [room[s] for s in seats]
        seat = rng.choices(seats, weights)[0]
        hands[seat] |= 1 << card
        room[seat] -= 1
    if any(room):
        return None
    return (hands[0], hands[1], hands[2], hands[3])
