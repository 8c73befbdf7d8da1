"""Computer players: the :class:`Player` protocol, and what every level shares (a play that
says its announcements, a player told the match score, a deal played out). The levels are
found by name in :mod:`cardavia.ai.levels`, which stands above them.

A player is asked for one action at a time and is given only an
:class:`~cardavia.belote.Observation` (its own hand and what the table has seen), never a
:class:`~cardavia.belote.DealState`: whatever it knows it has worked out like a person would.
Randomness comes in through ``rng`` so that a seeded game is repeatable.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from cardavia.belote import Action, Card, DealState, Observation, Play, card_code


@runtime_checkable
class Player(Protocol):
    """Anything that chooses an action from what one seat may see."""

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        """One of ``observation.legal_actions``."""
        ...


PlayerFactory = Callable[[], Player]
"""Makes a player of a level (called once per :func:`cardavia.ai.levels.find_player`)."""


def told_the_score(player: Player, scores: tuple[int, int]) -> Player:
    """``player`` for a deal of a match standing at ``scores`` (N–S, E–W) before it.

    The match score is public: the levels that bid by it (a ``match_scores`` field:
    ``strong`` and ``expert``, which take more risk when far behind near the target) get a
    copy that knows it; the others are returned as they are.

    >>> from cardavia.ai.levels import find_player
    >>> told_the_score(find_player("strong"), (500, 820)).match_scores
    (500, 820)
    >>> told_the_score(find_player("club"), (500, 820)) is not None
    True
    """
    if (
        dataclasses.is_dataclass(player)
        and not isinstance(player, type)
        and any(field.name == "match_scores" for field in dataclasses.fields(player))
    ):
        return dataclasses.replace(player, match_scores=scores)
    return player


def with_declarations(observation: Observation, card: Card) -> Action:
    """The legal play of ``card`` that says the most: with the announcements and "belote"
    whenever the rules let this seat say them (docs/rules.md 6 and 7: announcing costs nothing,
    and undeclared belote is worth nothing)."""
    best: Play | None = None
    for action in observation.legal_actions:
        if (
            isinstance(action, Play)
            and action.card == card
            and (best is None or action.announce + action.belote > best.announce + best.belote)
        ):
            best = action
    if best is None:
        raise ValueError(f"playing the {card_code(card)} is not allowed now")
    return best


def play_deal(state: DealState, players: Sequence[Player], rng: random.Random) -> DealState:
    """Play ``state`` to its end, each seat's action chosen by ``players[seat]`` from that
    seat's observation only."""
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = state.apply(players[seat].decide(state.observation(seat), rng))
    return state
