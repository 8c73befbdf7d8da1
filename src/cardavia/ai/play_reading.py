"""What the others' cards say: how likely a world makes every card another seat has played,
under a model of how that seat plays.

A strong player reads the table from the cards as much as from the bids: a defender who
led a small heart instead of cashing an ace likely has no ace to cash. Skat's strongest
programs weigh each sampled world by how likely it makes the actions already seen under a
model of play (policy-based inference, Rebstock et al. 2019). Here the model is the club
player (:mod:`cardavia.ai.club`): in a world, each past card of another seat is put back in
the hand that seat then held (its cards now in the world and those it played since), the
club player is asked what it would have played from that hand with the table as it then
was, and the card actually played counts :data:`AGREES` if it is the club player's and
:data:`DIFFERS` of that if not (a seat with a single legal card then says nothing).

No model of play is right for every opponent, and a product over twenty cards lets a
handful of worlds carry all the weight. So the likelihoods are tempered (:func:`tempered`):
raised to the largest power, among 1, 1/2, 1/4…, that keeps the weighted worlds' effective
sample size (Kish: (Σw)² / Σw²) at least :data:`ESS_FLOOR` of their number.

>>> import random
>>> from cardavia.ai.club import ClubPlayer
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(6))
>>> club, rng = ClubPlayer(), random.Random(0)
>>> while len(state.observation(Seat.S).played) < 20:  # five tricks played by club players
...     state = state.apply(club.decide(state.observation(state.to_move), rng))
>>> reading = PlayReading.of(state.observation(Seat.S))
>>> len(reading.moments)  # the cards the three others played
15
>>> reading.likelihood(tuple(state.hands)) == AGREES ** sum(  # the club player agrees
...     reading.of_moment(i, tuple(state.hands)[m.seat] | m.held_since) != 1
...     for i, m in enumerate(reading.moments))
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Final

from cardavia.ai.club import choose_card, read_table
from cardavia.ai.worlds import Hands
from cardavia.belote import (
    Card,
    CardSet,
    CardValues,
    Observation,
    Phase,
    Play,
    Seat,
    mask_cards,
    values_for,
)
from cardavia.belote.search import constraint

AGREES: Final = 0.75
"""How likely a seat is to play the card the club player would have played in its place."""
DIFFERS: Final = 0.25
"""How likely it is to play another one, shared among its other legal cards."""
ESS_FLOOR: Final = 0.3
"""The least effective sample size tempering keeps, as a share of the worlds weighed."""


@dataclass(frozen=True, slots=True)
class _Moment:
    """One card another seat played, with the table as that seat then saw it."""

    seat: Seat
    card: Card
    before: tuple[tuple[Seat, Card], ...]
    """The trick as it was when the card was played."""
    held_since: int
    """The cards this seat played from that moment on (this card included): with a world's
    hand, the hand it then held."""
    view: Observation
    """The seat's observation then, its hand and legal cards left to fill in per world."""


@dataclass(frozen=True, slots=True)
class PlayReading:
    """The others' past cards, read once from an observation, then asked of each world."""

    values: CardValues | None
    """The cards' values in the contract (``None`` before it is known)."""
    moments: tuple[_Moment, ...]
    _known: dict[tuple[int, int], float] = field(default_factory=dict, compare=False)
    """Likelihoods already worked out, by moment and the hand then held (worlds share
    hands, late in the deal most of them)."""

    @classmethod
    def of(cls, observation: Observation) -> PlayReading:
        """The reading of ``observation`` (no moment before the contract is known)."""
        contract = observation.contract
        if contract is None:
            return cls(None, ())
        values = values_for(observation.rules, contract.strain)
        tricks = [trick.plays for trick in observation.tricks]
        tricks.append(observation.trick)
        since = [0, 0, 0, 0]
        moments: list[_Moment] = []
        first_play = next(
            (i for i, a in enumerate(observation.history) if isinstance(a, Play)),
            len(observation.history),
        )
        # Back from the last card, so that ``since`` holds each seat's cards from then on.
        order = [(t, i) for t, plays in enumerate(tricks) for i in range(len(plays))]
        for number in range(len(order) - 1, -1, -1):
            t, i = order[number]
            seat, card = tricks[t][i]
            since[seat] |= 1 << card
            if seat == observation.seat:
                continue
            before = tricks[t][:i]
            played = 0
            for plays in tricks[:t]:
                for _, c in plays:
                    played |= 1 << c
            for _, c in before:
                played |= 1 << c
            view = dataclasses.replace(
                observation,
                seat=seat,
                phase=Phase.PLAYING,
                to_move=seat,
                history=observation.history[: first_play + number],
                trick=before,
                tricks=observation.tricks[:t],
                revealed=observation.revealed if t >= 1 else (),
                belote_events=tuple(e for e in observation.belote_events if played >> e.card & 1),
                own_announcements=(),
                result=None,
            )
            moments.append(_Moment(seat, card, before, since[seat], view))
        return cls(values, tuple(moments))

    def of_moment(self, index: int, hand: int) -> float:
        """How likely the card of moment ``index`` is from ``hand`` (the seat's then)."""
        key = (index, hand)
        known = self._known.get(key)
        if known is not None:
            return known
        moment = self.moments[index]
        view = moment.view
        assert self.values is not None
        allowed = constraint(view.rules, self.values, moment.before, moment.seat, hand).allowed
        choices = allowed.bit_count()
        if not allowed >> moment.card & 1:
            value = 0.0  # not a world this play could come from
        elif choices == 1:
            value = 1.0
        else:
            filled = dataclasses.replace(
                view,
                hand=CardSet(hand),
                legal_actions=tuple(Play(moment.seat, c) for c in mask_cards(allowed)),
            )
            chosen = choose_card(filled, read_table(filled))
            value = AGREES if chosen == moment.card else DIFFERS / (choices - 1)
        self._known[key] = value
        return value

    def likelihood(self, world: Hands) -> float:
        """How likely the others' past cards are in ``world`` under the club player's way
        of playing (relative to the other worlds)."""
        value = 1.0
        for index, moment in enumerate(self.moments):
            value *= self.of_moment(index, world[moment.seat] | moment.held_since)
        return value


def effective_size(weights: list[float]) -> float:
    """Kish's effective sample size of weighted samples: (Σw)² / Σw².

    >>> effective_size([1.0, 1.0, 1.0, 1.0]), effective_size([1.0, 0.0, 0.0, 0.0])
    (4.0, 1.0)
    """
    total = sum(weights)
    squares = sum(w * w for w in weights)
    return total * total / squares if squares else 0.0


def tempered(likelihoods: list[float], floor: float = ESS_FLOOR) -> tuple[list[float], float]:
    """The likelihoods raised to the largest power among 1, 1/2, 1/4… (down to 1/64) whose
    effective sample size is at least ``floor`` of their number, and that power.

    >>> tempered([1.0, 1.0, 0.01, 0.01])
    ([1.0, 1.0, 0.01, 0.01], 1.0)
    >>> weights, power = tempered([1.0, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6])
    >>> power < 1 and effective_size(weights) >= 0.3 * 6
    True
    """
    power = 1.0
    while True:
        weights = [value**power for value in likelihoods]
        if power <= 1 / 64 or effective_size(weights) >= floor * len(weights):
            return weights, power
        power /= 2


__all__ = ["AGREES", "DIFFERS", "ESS_FLOOR", "PlayReading", "effective_size", "tempered"]
