"""Computer players. Each sees only an :class:`~cardavia.belote.Observation`; levels are
found by name with :func:`find_player` (``beginner``, ``club``, and more as they come)."""

from cardavia.ai.player import (
    LEVELS,
    Player,
    find_player,
    play_deal,
    player_levels,
    register_player,
    with_declarations,
)

__all__ = [
    "LEVELS",
    "Player",
    "find_player",
    "play_deal",
    "player_levels",
    "register_player",
    "with_declarations",
]
