"""What tests read back from the store about a room's game, as saved."""

from __future__ import annotations

from cardavia.belote import Seat
from cardavia.belote.notation import Record
from cardavia.store.db import GameStore


def actions_of(store: GameStore, code: str, seat: str) -> int:
    """How many actions ``seat`` made in the room's game, as saved."""
    room = store.load_room(code)
    assert room is not None and room.game_id is not None
    stored = store.load(room.game_id)
    assert stored is not None
    played = 0
    for deal in Record.from_json(stored.record).replay().deals:
        state = deal.initial()
        for action in deal.history:
            played += state.to_move == Seat[seat]
            state = state.apply(action)
    return played
