"""How the seating sees a player who waits in quick play (docs/players.md, "Quick play"), read
from the store in one call: their skill in the preset's family (their rating blended with
their tournament performance), whom they are kept apart from, and how much longer they wait —
the longer of what their own completion rate and that of every player seen joining from their
client lately make it (the abandonment penalty follows the client)."""

from __future__ import annotations

from collections.abc import Sequence

from cardavia.players.matching import Waiting, extra_wait, seating_skill
from cardavia.players.ratings import Family
from cardavia.store.db import GameStore


def waiting_player(
    store: GameStore,
    player: str,
    *,
    family: Family,
    lang: str,
    since: float,
    client: str,
    players: Sequence[str],
) -> Waiting:
    """``player`` as the seating sees them, waiting since ``since`` in a preset of ``family``
    in ``lang``, from ``client``, whose ``players`` are the ones seen joining from it lately
    (their games summed). Blocking: a worker thread."""
    rating = store.ratings.current(player, family)
    performance = store.leagues.performance(player, family)
    own = store.quick.completion(player)
    clients = store.quick.completion_of(players)
    slower = max(
        extra_wait(own.finished, own.abandoned),
        extra_wait(clients.finished, clients.abandoned),
    )
    return Waiting(
        player,
        skill=seating_skill(
            None if rating is None else rating.mu,
            0 if rating is None else rating.deals,
            None if performance is None else performance.value,
            0 if performance is None else performance.deals,
        ),
        lang=lang,
        since=since,
        apart=store.safety.kept_apart(player),
        slower=slower,
        client=client,
    )


__all__ = ["waiting_player"]
