"""Computer players. Each sees only an :class:`~cardavia.belote.Observation`; levels are
found by name with :func:`find_player`: ``beginner``, ``club``, ``strong``, ``expert``."""

from cardavia.ai.player import (
    LEVELS,
    Player,
    find_player,
    play_deal,
    player_levels,
    register_player,
    told_the_score,
    with_declarations,
)

__all__ = [
    "LEVELS",
    "Player",
    "find_player",
    "play_deal",
    "player_levels",
    "register_player",
    "told_the_score",
    "with_declarations",
]
