"""The levels of the computer players, found by name (:func:`find_player`) or by version
(:func:`find_version`): ``beginner``, ``club``, ``strong``, ``expert``, each with the version of
its decisions, and the past and next versions kept beside them.

This registry stands above the players it names (a layer of the import contracts): each
level's factory imports its player when it is first asked for, so that a heavy player costs
nothing until then, and the arrow is one the contracts and the circle test see. A new level is
one factory in :data:`LEVELS`, or a call to :func:`register_player`.

>>> import random
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("maison"), dealer=Seat.W, rng=random.Random(2))
>>> action = find_player("club").decide(state.observation(Seat.N), random.Random(0))
>>> action in state.legal_actions
True
"""

from __future__ import annotations

from cardavia.ai.player import Player, PlayerFactory


def _beginner() -> Player:
    from cardavia.ai.beginner import BeginnerPlayer

    return BeginnerPlayer()


def _club() -> Player:
    from cardavia.ai.club import ClubPlayer

    return ClubPlayer()


def _strong() -> Player:
    from cardavia.ai.strong import StrongPlayer

    return StrongPlayer()


def _expert_2026_12() -> Player:
    from cardavia.ai.expert import expert_2026_12

    return expert_2026_12()


def _expert_2026_12b() -> Player:
    from cardavia.ai.expert import expert_2026_12b

    return expert_2026_12b()


def _next_expert() -> Player:
    from cardavia.ai.expert import next_expert

    return next_expert()


def _fast_2026_12() -> Player:
    from cardavia.ai.fast import fast_2026_12

    return fast_2026_12()


LEVELS: dict[str, PlayerFactory] = {
    "beginner": _beginner,
    "club": _club,
    "strong": _strong,
    "expert": _expert_2026_12b,
}
"""The levels by name, weakest first, each with its factory: each imports its player when it
is first asked for (a heavy player costs nothing until then), an import the import contracts
and the circle test see."""


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

VERSIONS: dict[str, PlayerFactory] = {
    "expert-2026-12": _expert_2026_12,
    "expert-2026-12b": _expert_2026_12b,
    "expert-next": _next_expert,
    "fast-2026-12": _fast_2026_12,
}
"""Players by version, beside the levels (:func:`find_version`): a level's past versions,
kept for as long as a tournament or a game played with them may still be played or replayed
(a tournament keeps the version it was made with to its close), and to measure the next one
against in the arena (``cardavia arena``); and the next one, measured before it becomes its
level's. A level's current version (:data:`LEVEL_VERSIONS`) is found by its name too."""

_PLAYER_CLASSES: set[type] = set()
"""The classes already seen to make players: checking the protocol (dear: every method of it
looked up) once per class rather than at every decision."""


def register_player(level: str, factory: PlayerFactory) -> None:
    """Add (or replace) a level made by ``factory`` (a test's, a benchmark's)."""
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


def _made(level: str, factory: PlayerFactory) -> Player:
    """A player from its factory, checked to be one (once per class)."""
    player = factory()
    if type(player) not in _PLAYER_CLASSES:
        if not isinstance(player, Player):
            raise TypeError(f"level {level!r} made {player!r}, which is not a Player")
        _PLAYER_CLASSES.add(type(player))
    return player


__all__ = [
    "LEVELS",
    "LEVEL_VERSIONS",
    "VERSIONS",
    "find_player",
    "find_version",
    "level_version",
    "player_levels",
    "register_player",
    "version_level",
    "version_of",
]
