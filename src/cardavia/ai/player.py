"""Computer players: the :class:`Player` protocol and the registry of levels.

A player is asked for one action at a time and is given only an
:class:`~cardavia.belote.Observation` (its own hand and what the table has seen), never a
:class:`~cardavia.belote.DealState`: whatever it knows it has worked out like a person would.
Randomness comes in through ``rng`` so that a seeded game is repeatable.

Levels are found by name. A new level is one line in :data:`LEVELS` (a lazy ``module:attr``
reference, so that heavy players cost nothing until asked for) or a call to
:func:`register_player`.

>>> import random
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("maison"), dealer=Seat.W, rng=random.Random(2))
>>> action = find_player("club").decide(state.observation(Seat.N), random.Random(0))
>>> action in state.legal_actions
True
"""

from __future__ import annotations

import dataclasses
import importlib
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
"""Makes a player of a level (called once per :func:`find_player`)."""

LEVELS: dict[str, str | PlayerFactory] = {
    "beginner": "cardavia.ai.beginner:BeginnerPlayer",
    "club": "cardavia.ai.club:ClubPlayer",
    "strong": "cardavia.ai.strong:StrongPlayer",
    "expert": "cardavia.ai.expert:expert_2026_12b",
}
"""The levels by name, weakest first: a ``"module:attr"`` path to a factory (imported on
first use) or the factory itself."""


LEVEL_VERSIONS: dict[str, str] = {
    "beginner": "beginner-2026-12",
    "club": "club-2026-12",
    "strong": "strong-2026-12",
    "expert": "expert-2026-12b",
}
"""Each level's version: the name of what its decisions are, given the same observation and
seed. A change to a level that can change one of its decisions (its code, its budgets, the
solver's order of search) gives it a new version: a tournament keeps the version its tables
played, and every table of it seeds its computer players' decisions with it
(:func:`cardavia.ai.decisions.decision_seed`)."""

VERSIONS: dict[str, str | PlayerFactory] = {
    "expert-2026-12": "cardavia.ai.expert:expert_2026_12",
    "expert-2026-12b": "cardavia.ai.expert:expert_2026_12b",
    "expert-next": "cardavia.ai.expert:next_expert",
    "fast-2026-12": "cardavia.ai.fast:fast_2026_12",
}
"""Players by version, beside the levels (:func:`find_version`): a level's past versions,
kept for as long as a tournament or a game played with them may still be played or replayed
(a tournament keeps the version it was made with to its close), and to measure the next one
against in the arena (``cardavia arena``); and the next one, measured before it becomes its
level's. A level's current version (:data:`LEVEL_VERSIONS`) is found by its name too."""

_PLAYER_CLASSES: set[type] = set()
"""The classes already seen to make players: checking the protocol (dear: every method of it
looked up) once per class rather than at every decision."""


def register_player(level: str, factory: str | PlayerFactory) -> None:
    """Add (or replace) a level: ``factory`` is a ``"module:attr"`` path or a callable."""
    LEVELS[level.strip().lower()] = factory


def level_version(level: str) -> str:
    """The version of ``level``'s decisions (:data:`LEVEL_VERSIONS`; a level registered
    without one is ``<level>-unversioned``); ``ValueError`` for an unknown level.

    >>> level_version("Expert")
    'expert-2026-12b'
    """
    key = level.strip().lower()
    if key not in LEVELS:
        known = ", ".join(LEVELS)
        raise ValueError(f"unknown level {level!r}: expected one of {known}")
    return LEVEL_VERSIONS.get(key, f"{key}-unversioned")


def player_levels() -> tuple[str, ...]:
    """The names of the levels, weakest first."""
    return tuple(LEVELS)


def find_player(level: str) -> Player:
    """A new player of that level (case-insensitive); ``ValueError`` for an unknown one."""
    key = level.strip().lower() if isinstance(level, str) else ""
    try:
        factory = LEVELS[key]
    except KeyError:
        known = ", ".join(LEVELS)
        raise ValueError(f"unknown level {level!r}: expected one of {known}") from None
    return _made(level, factory)


def find_version(name: str) -> Player:
    """A new player of a level or of a version (:data:`VERSIONS`), case-insensitive;
    ``ValueError`` for an unknown one.

    >>> type(find_version("expert-2026-12")).__name__, type(find_version("Club")).__name__
    ('ExpertPlayer', 'ClubPlayer')
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in VERSIONS:
        return _made(name, VERSIONS[key])
    return find_player(version_level(key))


def version_level(name: str) -> str:
    """The level a level or a version belongs to (case-insensitive): the level itself, the
    level whose current version it is, or the level its name starts with
    (``expert-2026-12``: ``expert``); ``ValueError`` for an unknown name. The site's lanes
    and cheap-level rules go by it.

    >>> version_level("expert-2026-12"), version_level("club-2026-12"), version_level("Club")
    ('expert', 'club', 'club')
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in LEVELS:
        return key
    for level in LEVELS:
        if key == level_version(level):  # a level registered without one's included
            return level
    family = key.partition("-")[0]
    if key in VERSIONS and family in LEVELS:
        return family
    known = ", ".join([*LEVELS, *VERSIONS])
    raise ValueError(f"unknown level or version {name!r}: expected one of {known}")


def version_of(name: str) -> str:
    """The version a level or a version decides as: a level's current version
    (:func:`level_version`), a version itself; ``ValueError`` for an unknown name.

    >>> version_of("expert-2026-12"), version_of("Expert")
    ('expert-2026-12', 'expert-2026-12b')
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in VERSIONS:
        return key
    level = version_level(key)
    return key if key != level else level_version(level)


def _made(level: str, factory: str | PlayerFactory) -> Player:
    """A player from its factory, checked to be one (once per class)."""
    if isinstance(factory, str):
        module_name, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module_name), attr)
        assert callable(factory)
    player = factory()
    if type(player) not in _PLAYER_CLASSES:
        if not isinstance(player, Player):
            raise TypeError(f"level {level!r} made {player!r}, which is not a Player")
        _PLAYER_CLASSES.add(type(player))
    return player


def told_the_score(player: Player, scores: tuple[int, int]) -> Player:
    """``player`` for a deal of a match standing at ``scores`` (N–S, E–W) before it.

    The match score is public: the levels that bid by it (a ``match_scores`` field:
    ``strong`` and ``expert``, which take more risk when far behind near the target) get a
    copy that knows it; the others are returned as they are.

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
