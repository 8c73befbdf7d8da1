"""Safety among strangers (docs/players.md, "Safety"): a player blocks another (quick play
never seats them together again) or reports their display name (hidden from everyone else,
shown as "a player", until its owner changes it), from the room where they met — naming the
room and the seat only: the server finds the player behind the seat, and no player's id is
ever shown to another. Both are limited per player and per hour.

A name reported is hidden in the rooms its player sat in under it (the seat's
:attr:`~cardavia.live.room_state.PersonSeat.hidden`, saved with the room: every process shows
it so), and again in any room they take a seat in under it (:meth:`Safety.arrived`), where a
quick-play room also stops taking watchers if that player does not allow them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from cardavia.belote import Seat
from cardavia.live.limits import Counters, Limits, SiteLimiter
from cardavia.live.protocol import ClientError, check_fields, require, seat_field
from cardavia.live.room import HIDDEN_NAME, Room
from cardavia.live.room_state import ComputerSeat, PersonSeat, RoomState, normal_code
from cardavia.live.rooms import RoomService
from cardavia.players import Player, Players
from cardavia.store.db import GameStore, StoreUnavailableError
from cardavia.words import Wording

FIELDS: Final = frozenset({"room", "seat", "lang"})
"""What ``POST /api/blocks`` and ``POST /api/reports`` say: the room's code and the seat."""
KEY_LENGTH: Final = 24
"""Hex characters of a block's key (:func:`block_key`)."""
ROOMS_SWEPT: Final = 50
"""The most rooms (the latest) a reported name is hidden in at once."""


def block_key(player_id: str, blocked_id: str) -> str:
    """The key of a block as its blocker sees it: an HMAC of the blocked player's id keyed by
    the blocker's (which nobody but the site knows), so that the list names nobody's id and
    nobody can make another's key.

    >>> block_key("one", "two") == block_key("one", "two") != block_key("two", "two")
    True
    """
    mac = hmac.new(player_id.encode(), blocked_id.encode(), hashlib.sha256)
    return mac.hexdigest()[:KEY_LENGTH]


@dataclass(frozen=True, slots=True)
class Target:
    """Who a block or a report is about: a person seated in a room, and their player."""

    room: Room
    seat: Seat
    player_id: str
    name: str


class Safety:
    """Blocks and reports, from the rooms' seats to the store."""

    def __init__(
        self,
        store: GameStore,
        rooms: RoomService,
        players: Players,
        counters: Counters,
        limits: Limits,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.players = players
        per_hour = limits.blocks_per_hour
        self.blocks: SiteLimiter = counters.limiter(
            "blocks", per_hour / 3600.0, max(1, int(per_hour))
        )
        """Blocks (and unblocks) per player, site-wide."""
        per_hour = limits.reports_per_hour
        self.reports: SiteLimiter = counters.limiter(
            "reports", per_hour / 3600.0, max(1, int(per_hour))
        )
        """Reports per player, site-wide."""

    async def target(self, player: Player, data: dict[str, Any]) -> Target:
        """The person in the room and seat ``data`` names: ``not_in_room`` (403) unless
        ``player`` took a seat in that room, ``not_a_person`` for a seat no person took,
        ``yourself`` for their own."""
        check_fields(data, FIELDS)
        require(data, "room", "seat")
        seat = seat_field(data["seat"])
        code = normal_code(data["room"])
        seated = code is not None and await asyncio.to_thread(
            self.store.safety.seated_in, player.id, code
        )
        if code is None or not seated:
            raise ClientError("not_in_room")
        room = await self.rooms.open(code)
        entry = room.state[seat]
        if not isinstance(entry, PersonSeat | ComputerSeat) or not entry.name:
            raise ClientError("not_a_person")
        behind = await asyncio.to_thread(self.store.safety.player_behind, code, seat.name)
        if behind is None:
            raise ClientError("not_a_person")
        if behind == player.id:
            raise ClientError("yourself")
        return Target(room, seat, behind, entry.name)

    @staticmethod
    async def _take(limiter: SiteLimiter, player: Player) -> None:
        """A request that would act counts against the player's allowance (``rate_limited``
        past it); one refused for what it names does not."""
        if await limiter.take(player.id):
            raise ClientError("rate_limited")

    async def block(self, player: Player, data: dict[str, Any]) -> None:
        """``player`` blocks the person in ``data``'s room and seat."""
        target = await self.target(player, data)
        await self._take(self.blocks, player)
        await asyncio.to_thread(self.store.safety.block, player.id, target.player_id)
        # A block ends a friendship, and an asking either way.
        await asyncio.to_thread(self.store.friends.end, player.id, target.player_id)

    async def unblock(self, player: Player, key: str) -> None:
        """``player`` no longer blocks the player of the key (``not_found``: none of theirs)."""
        await self._take(self.blocks, player)
        for blocked in await asyncio.to_thread(self.store.safety.blocked_by, player.id):
            if hmac.compare_digest(block_key(player.id, blocked.id), key):
                await asyncio.to_thread(self.store.safety.unblock, player.id, blocked.id)
                return
        raise ClientError("not_found")

    async def blocked(self, player: Player, wording: Wording) -> list[dict[str, Any]]:
        """The players ``player`` blocked, as their profile lists them: a key, the name."""
        found = await asyncio.to_thread(self.store.safety.blocked_by, player.id)
        return [
            {
                "id": block_key(player.id, blocked.id),
                "name": blocked.name or wording.gettext(HIDDEN_NAME),
                "hidden": blocked.name is None,
                "since": blocked.since.isoformat(),
            }
            for blocked in found
        ]

    async def report(self, player: Player, data: dict[str, Any]) -> None:
        """``player`` reports the display name of the person in ``data``'s room and seat: it
        is hidden there at once, then in the other rooms its player sat in under it."""
        target = await self.target(player, data)
        await self._take(self.reports, player)
        await asyncio.to_thread(self.store.safety.report, player.id, target.player_id, target.name)
        await self._hide(target.room, target.seat, target.name)
        seats = await asyncio.to_thread(self.store.players.rooms_of, target.player_id)
        for code, seat in seats[-ROOMS_SWEPT:]:
            if code == target.room.code:
                continue
            with contextlib.suppress(ClientError):
                await self._hide(await self.rooms.open(code), Seat[seat], target.name)

    async def _hide(self, room: Room, seat: Seat, name: str) -> None:
        entry = room.state[seat]
        if isinstance(entry, PersonSeat | ComputerSeat) and entry.name == name and not entry.hidden:
            await self._change(room, functools.partial(_hidden, seat=seat, name=name))

    async def _change(self, room: Room, change: Callable[[RoomState], RoomState]) -> None:
        """A change of the room, tried again if another process changed it meanwhile."""
        for _attempt in range(3):
            try:
                await self.rooms.change(room, change)
                return
            except ClientError as error:
                if error.code != "stale":
                    raise

    async def standing(self, player: Player) -> dict[str, Any]:
        """What the player's profile says of their name: ``hidden`` (their name now was
        reported: the others see "a player" until they change it)."""
        hidden = await asyncio.to_thread(self.store.safety.hidden_name, player.id)
        return {"hidden": hidden is not None and hidden == player.name, "name": player.name}

    async def arrived(self, room: Room, seat: Seat, token: str | None) -> None:
        """The person of the player ``token`` names opened their seat in ``room``: a name of
        theirs that was reported is hidden there too, and a quick-play room takes no more
        watchers if they do not allow them (the setting ``watchable``). A database that
        cannot answer leaves the seat as it is: this never keeps anyone from their seat."""
        with contextlib.suppress(StoreUnavailableError):
            await self._arrived(room, seat, token)

    async def _arrived(self, room: Room, seat: Seat, token: str | None) -> None:
        player = await self.players.identify(token)
        entry = room.state[seat]
        if player is None or not isinstance(entry, PersonSeat):
            return
        if not entry.hidden and await asyncio.to_thread(
            self.store.safety.is_hidden, player.id, entry.name
        ):
            await self._change(room, functools.partial(_hidden, seat=seat, name=entry.name))
        refuses = player.settings.get("watchable", True) is False
        if room.settings.quick and room.settings.watchers and refuses:
            await self._change(room, without_watchers)


def hide(state: RoomState, seat: Seat) -> RoomState:
    """The room's state with the name in ``seat`` hidden: the others see "a player"
    (unchanged if there is no name there, or it is hidden already)."""
    entry = state[seat]
    if not isinstance(entry, PersonSeat | ComputerSeat) or not entry.name or entry.hidden:
        return state
    seats = list(state.seats)
    seats[seat] = replace(entry, hidden=True)
    one, two, three, four = seats
    return replace(state, seats=(one, two, three, four))


def without_watchers(state: RoomState) -> RoomState:
    """The room's state taking no watchers any more (a seated person does not allow it)."""
    if not state.settings.watchers:
        return state
    return replace(state, settings=replace(state.settings, watchers=False))


def _hidden(state: RoomState, *, seat: Seat, name: str) -> RoomState:
    """The room's state with ``seat``'s name hidden, if it is still ``name``."""
    entry = state[seat]
    if isinstance(entry, PersonSeat | ComputerSeat) and entry.name == name:
        return hide(state, seat)
    return state


__all__ = ["FIELDS", "Safety", "Target", "block_key", "hide", "without_watchers"]
