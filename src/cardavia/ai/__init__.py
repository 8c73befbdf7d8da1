"""Computer players. Each sees only an :class:`~cardavia.belote.Observation`; levels are
found by name with :func:`find_player`: ``beginner``, ``club``, ``strong``, ``expert``.

The site asks :class:`cardavia.ai.decisions.Decisions` for every decision of a computer seat
(the lane, the cap per client, the deadline, always a legal action); ``cardavia ai-worker``
is :mod:`cardavia.ai.worker`. Both are imported from their modules, so that importing this
package stays light."""

from cardavia.ai.levels import (
    LEVELS,
    VERSIONS,
    find_player,
    find_version,
    player_levels,
    register_player,
)
from cardavia.ai.player import Player, play_deal, told_the_score, with_declarations

__all__ = [
    "LEVELS",
    "VERSIONS",
    "Player",
    "find_player",
    "find_version",
    "play_deal",
    "player_levels",
    "register_player",
    "told_the_score",
    "with_declarations",
]
