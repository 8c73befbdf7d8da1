"""A room open in this process (docs/web.md, "Rooms"): its state as last saved or heard of,
and the connections open on it here, whose one owner it is (the room's table does not hold
them); and what those connections are sent about the room — the ``room`` message, the quick
phrases, what the room adds to each view of its game.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Final

from cardavia.belote import Seat
from cardavia.live.display_names import shown_name
from cardavia.live.outbox import Listener
from cardavia.live.protocol import ClientError
from cardavia.live.room_state import (
    PHRASES,
    ComputerSeat,
    OpenSeat,
    PersonSeat,
    RoomSeat,
    RoomSettings,
    RoomState,
    Said,
)
from cardavia.store.db import StoredRoom, token_matches
from cardavia.words import N_, Wording

HIDDEN_NAME: Final = N_("a player")
"""What the others see instead of a reported name (docs/players.md, "Safety")."""


class Room:
    """A room in this process's memory: its state as last saved (or heard of), and the
    connections open on it here (their one owner: the room's table does not hold them)."""

    def __init__(self, stored: StoredRoom) -> None:
        self.code = stored.code
        self.state = RoomState.from_json(json.loads(stored.state))
        self.revision = stored.revision
        self.game_id = stored.game_id
        self.connections: dict[Listener, str | None] = {}
        """Each connection, with its token's hash (``None``: a watcher). Its seat is the
        token's, and may move (a swap)."""
        self.lock = asyncio.Lock()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.phrase_seen = self.state.phrase_n
        self.over = False
        self.deal_told: tuple[str | None, int] | None = None
        """The last deal (the game, the number of deals played in it) whose end the deal
        listeners were told of (:attr:`RoomService.deal_listeners`)."""
        """Whether the room's game (a single deal, or a match) is over, as last heard: the
        players may then play again."""

    @property
    def settings(self) -> RoomSettings:
        """Rules, level, deck, target, grace, next delay, watchers."""
        return self.state.settings

    def seat_of_token(self, token: str | None) -> Seat | None:
        """The seat of a token (compared in constant time), or ``None``."""
        for seat, entry in self.state.items():
            if isinstance(entry, PersonSeat) and token_matches(entry.token, token):
                return seat
        return None

    def let_watchers_go(self) -> None:
        """No one may watch any more (a seated person does not allow it): the watchers'
        connections here are told and closed."""
        if self.settings.watchers:
            return
        for listener in [one for one, token in self.connections.items() if token is None]:
            if listener.seat is None:
                listener.send(ClientError("no_watchers").message(listener.wording, ""))
                listener.close(4403)
                self.connections.pop(listener, None)

    def is_connected(self, seat: Seat) -> bool:
        """Whether a connection of ``seat``'s player is open here."""
        return any(listener.seat == seat for listener in self.connections)

    # -- what the connections are sent --

    def seats_json(
        self, wording: Wording | None = None, viewer: Seat | None = None
    ) -> dict[str, dict[str, Any]]:
        """Each seat as every player and watcher may see it: no token. ``takeover``: for a
        person away whose seat they still keep, the seconds left before a computer player
        plays it for them (``None`` otherwise), so that the table can count them down.
        ``away`` too: the action clock ran out on them twice in a row (a quick-play table;
        a computer player plays for them until they act or say they are back); ``left``: its
        person left for good (a computer player plays the seat under their name). A reported
        name is "a player" in ``wording``'s language (and ``hidden`` is there), but to its
        own seat (``viewer``)."""
        seating = self.state.seating()
        now = time.time()
        return {
            seat.name: {
                "kind": _kind(entry),
                "name": self.shown_name(seat, wording, viewer),
                "away": isinstance(entry, PersonSeat) and (entry.away is not None or entry.idle),
                "computer": isinstance(entry, ComputerSeat)
                or (isinstance(entry, PersonSeat) and not seating.person_plays(seat, now)),
                "takeover": None
                if self.settings.quick
                else _takeover(entry, self.settings.grace, now),
                "ready": seat in self.state.ready,
                "left": isinstance(entry, ComputerSeat) and entry.name is not None,
            }
            | ({"hidden": True} if getattr(entry, "hidden", False) and seat != viewer else {})
            for seat, entry in self.state.items()
        }

    def shown_name(
        self, seat: Seat, wording: Wording | None = None, viewer: Seat | None = None
    ) -> str | None:
        """The name in ``seat`` as ``viewer`` sees it, in ``wording``'s language (a reported
        one: "a player"; a generated one: "Joueur 4821", :func:`~cardavia.live.display_names.
        shown_name`)."""
        entry = self.state[seat]
        if isinstance(entry, OpenSeat):
            return None
        if entry.hidden and seat != viewer and entry.name:
            return wording.gettext(HIDDEN_NAME) if wording is not None else None
        if entry.name is None or wording is None:
            return entry.name
        return shown_name(entry.name, wording)

    def view_fields(
        self,
        revision: int | None = None,
        wording: Wording | None = None,
        viewer: Seat | None = None,
    ) -> dict[str, Any]:
        """What a room adds to each view of its table (at ``revision``): its code, the
        seats' names and presence (:meth:`seats_json`, as ``viewer`` sees them), who is
        ready, and the action clock of a quick-play table (``{"seat", "ends_in", "of"}``:
        the seconds left — so that a device whose own clock is wrong counts right — of
        ``of``; ``None`` when no clock runs)."""
        clock = self.state.clock
        if clock is not None and (
            clock.lapsed or revision is None or not clock.waits_for(self.game_id, revision)
        ):
            clock = None
        return {
            "room": self.code,
            "names": self.seats_json(wording, viewer),
            "ready": sorted(seat.name for seat in self.state.ready),
            "clock": None
            if clock is None
            else {
                "seat": clock.seat.name,
                "ends_in": round(max(0.0, clock.ends - time.time()), 1),
                "of": self.settings.clock,
            },
        }

    def info(self, wording: Wording, viewer: Seat | None = None) -> dict[str, Any]:
        """The ``room`` message's object, the same for every connection but ``you`` and
        ``creator`` (added per connection) and the names (as ``viewer`` sees them)."""
        settings = self.settings
        return {
            "code": self.code,
            "rules": settings.rules,
            "rules_name": wording.preset(settings.rules, settings.target)[0],
            "level": settings.level,
            "level_name": wording.level(settings.level),
            "deck": settings.deck,
            "target": settings.target,
            "grace": settings.grace,
            "next_delay": settings.next_delay,
            "watchers": settings.watchers,
            "quick": settings.quick,
            "clock": settings.clock,
            "started": self.state.started,
            "game": self.game_id is not None,
            "over": self.over,
            "seats": self.seats_json(wording, viewer),
            "offers": sorted(seat.name for seat in self.state.offers),
            "declined": None if self.state.declined is None else self.state.declined.name,
        }

    def send_room(self) -> None:
        """Send every connection the room as it stands."""
        bases: dict[tuple[str, Seat | None], dict[str, Any]] = {}
        for listener, token in list(self.connections.items()):
            key = (listener.wording.lang, listener.seat)
            if key not in bases:
                bases[key] = self.info(listener.wording, listener.seat)
            you = listener.seat.name if listener.seat is not None else None
            room = bases[key] | {"you": you, "creator": self.state.is_creator(token)}
            listener.send({"type": "room", "room": room})

    def send_new_phrases(self) -> None:
        """Send the quick phrases said since this process last sent them."""
        for said in self.state.phrases:
            if said.n <= self.phrase_seen:
                continue
            for listener in list(self.connections):
                listener.send(self.phrase_message(said, listener.wording, listener.seat))
        self.phrase_seen = self.state.phrase_n

    def phrase_message(
        self, said: Said, wording: Wording, viewer: Seat | None = None
    ) -> dict[str, Any]:
        """The ``phrase`` message, in the connection's language."""
        return {
            "type": "phrase",
            "seat": said.seat.name,
            "name": self.shown_name(said.seat, wording, viewer),
            "code": said.code,
            "text": wording.gettext(PHRASES[said.code]),
        }


def _takeover(entry: RoomSeat, grace: float, now: float) -> float | None:
    """The seconds before a computer player takes over the seat of a person away (``None``:
    not away, or taken over already), to the tenth."""
    if not isinstance(entry, PersonSeat) or entry.away is None:
        return None
    left = entry.away + grace - now
    return round(left, 1) if left > 0 else None


def _kind(entry: RoomSeat) -> str:
    if isinstance(entry, PersonSeat):
        return "human"
    return "computer" if isinstance(entry, ComputerSeat) else "open"


__all__ = ["HIDDEN_NAME", "Room"]
