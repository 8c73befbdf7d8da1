"""The lobby (docs/players.md, "The lobby"): how many people are playing now, the public tables
being played — quick-play rooms under way, their rules, players (a reported name as "a
player"), score, rating, and whether they may be watched, the top-rated first — and a "Play
now" for each preset.

Each process tells the :class:`~cardavia.live.presence.Presence` every few seconds who plays on
it and the quick-play tables it holds in memory (the rooms with a connection open here: every
table under way has one somewhere); the lobby reads the site's sum, kept a moment so that many
people polling make one read.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, Final

from cardavia.belote import PRESETS, Seat
from cardavia.live.display_names import shown_name
from cardavia.live.presence import Presence
from cardavia.live.room import HIDDEN_NAME, Room
from cardavia.live.room_state import ComputerSeat, PersonSeat
from cardavia.live.rooms import RoomService
from cardavia.live.tables import TableService
from cardavia.players.ratings import NEWCOMER, Skill, family_of
from cardavia.store.ratings import RatingStore
from cardavia.words import N_, Wording

log = logging.getLogger(__name__)

HEARTBEAT: Final = 5.0
"""Seconds between two heartbeats of this process (:meth:`Presence.beat`)."""
KEPT: Final = 2.0
"""Seconds the lobby's figures are kept before they are read again."""
MAX_TABLES: Final = 50
"""The most tables the lobby lists (the top-rated first, then those furthest on)."""

Waiting = Callable[[], Iterable[str]]
"""Who waits in quick play on this process now: one member each (``queue:<player>``)."""


def table_entry(room: Room, scores: tuple[int, int], deals: int) -> dict[str, Any]:
    """A quick-play room under way as the lobby publishes it: nothing but what everyone may
    see (no token, no player id): rules, seats (a name, or a computer player), the score."""
    seats: dict[str, dict[str, Any]] = {}
    for seat, entry in room.state.items():
        person = isinstance(entry, PersonSeat) or (isinstance(entry, ComputerSeat) and entry.name)
        name = entry.name if isinstance(entry, PersonSeat | ComputerSeat) else None
        hidden = isinstance(entry, PersonSeat | ComputerSeat) and entry.hidden
        seats[seat.name] = {
            "name": name if person and not hidden else None,
            "hidden": bool(person and hidden),
            "computer": not person,
        }
    settings = room.settings
    return {
        "code": room.code,
        "rules": settings.rules,
        "target": settings.target,
        "level": settings.level,
        "watchers": settings.watchers,
        "deal": deals,
        "scores": list(scores),
        "seats": seats,
    }


def table_rating(people: Iterable[Skill]) -> int | None:
    """A table's rating: the mean of its people's shown ratings (a newcomer's for someone
    never rated in the family); ``None`` for a table of no person. Its computer players do not
    count: the list ranks the people one would watch.

    >>> table_rating([Skill(27.5, 3.0), NEWCOMER]), table_rating([])
    (1550, None)
    """
    shown = [skill.display for skill in people]
    return round(sum(shown) / len(shown)) if shown else None


def ranked(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tables in the lobby's order: the top-rated first (a table of no person's rating
    last), then those furthest on, then by code (one order on every process)."""
    return sorted(
        tables,
        key=lambda entry: (
            entry.get("rating") is None,
            -(entry.get("rating") or 0),
            -entry["deal"],
            entry["code"],
        ),
    )


class TableRatings:
    """The rating of each public table (:func:`table_rating`), read from the store once per
    table and deal (ratings change only when a deal is over), and kept for the tables still
    listed."""

    def __init__(self, ratings: RatingStore) -> None:
        self.ratings = ratings
        self._kept: dict[tuple[str, int], int | None] = {}

    def read(self, tables: dict[str, dict[str, Any]]) -> dict[str, int | None]:
        """Each table's rating, by code (blocking: a worker thread)."""
        found: dict[tuple[str, int], int | None] = {}
        for code, entry in tables.items():
            key = (code, entry["deal"])
            if key not in self._kept:
                self._kept[key] = self._rating(code, entry)
            found[key] = self._kept[key]
        self._kept = found
        return {code: found[(code, entry["deal"])] for code, entry in tables.items()}

    def _rating(self, code: str, entry: dict[str, Any]) -> int | None:
        people = {seat for seat, shown in entry["seats"].items() if not shown["computer"]}
        players = {
            player for seat, player in self.ratings.room_players(code).items() if seat in people
        }
        known = self.ratings.of_players(players, family_of(entry["rules"])) if players else {}
        skills = [Skill(known[p].mu, known[p].sigma) if p in known else NEWCOMER for p in players]
        return table_rating(skills)


COMPUTER_NAME: Final = N_("Computer player")
"""How the lobby names a computer player's seat (its level is the table's, said apart)."""


def worded(entry: dict[str, Any], wording: Wording, lang: str) -> dict[str, Any]:
    """A published table in ``wording``'s language: its rules' name, each seat's name (a
    hidden one "a player", a computer player "Computer player"), the links."""
    seats = {}
    for code, seat in entry["seats"].items():
        if seat["computer"]:
            # Said as a computer, never as a person's name ("Joueur de club" read as one).
            name = wording.gettext(COMPUTER_NAME)
        elif seat["hidden"] or not seat["name"]:
            name = wording.gettext(HIDDEN_NAME)
        else:
            name = shown_name(seat["name"], wording)  # a generated name in the reader's words
        seats[code] = {"name": name, "computer": seat["computer"]}
    return {
        "code": entry["code"],
        "rules": entry["rules"],
        "rules_name": wording.preset(entry["rules"], entry["target"])[0],
        "deal": entry["deal"],
        "rating": entry.get("rating"),
        "scores": {"NS": entry["scores"][0], "EW": entry["scores"][1]},
        "seats": seats,
        "watch": f"/{lang}/room/{entry['code']}?watch" if entry["watchers"] else None,
    }


class Lobby:
    """The lobby's figures: counted here, summed for the site by the presence."""

    def __init__(
        self,
        tables: TableService,
        rooms: RoomService,
        presence: Presence,
        ratings: RatingStore,
        *,
        waiting: Waiting = frozenset,
        kept: float = KEPT,
    ) -> None:
        self.tables = tables
        self.rooms = rooms
        self.presence = presence
        self.ratings = TableRatings(ratings)
        self.kept = kept
        """Seconds the figures are kept (:data:`KEPT`; tests: 0)."""
        self.waiting = waiting
        """Who waits in quick play here (:meth:`cardavia.live.quickplay.QuickPlay.waiting_here`)."""
        self._kept: tuple[float, int, list[dict[str, Any]]] | None = None

    def here(self) -> tuple[set[str], dict[str, dict[str, Any]]]:
        """Who plays in this process now (the presence's members), and the quick-play
        tables under way whose game it holds."""
        members: set[str] = set()
        held = self.tables.held()
        for game_id, table in held.items():
            if table.token_seat is not None and table.listeners:
                members.add(f"table:{game_id}")
        public: dict[str, dict[str, Any]] = {}
        for room in list(self.rooms.rooms.values()):
            seats = {listener.seat for listener in room.connections}
            members.update(f"room:{room.code}:{seat.name}" for seat in seats if seat is not None)
            game = held.get(room.game_id) if room.game_id else None
            if game is None or game.match.is_over or not room.settings.quick:
                continue
            if room.connections:
                public[room.code] = table_entry(room, game.match.scores, len(game.match.deals))
        members.update(self.waiting())
        return members, public

    async def beat(self) -> None:
        """Tell the presence who plays here and its public tables, each with its rating (one
        heartbeat)."""
        members, public = self.here()
        ratings = await asyncio.to_thread(self.ratings.read, public)
        for code, entry in public.items():
            entry["rating"] = ratings[code]
        await self.presence.beat(members, public)

    async def run(self) -> None:
        """The heartbeats, every :data:`HEARTBEAT` seconds, for the process's life."""
        while True:
            try:
                await self.beat()
            except Exception:
                log.warning("the lobby's heartbeat failed", exc_info=True)
            await asyncio.sleep(HEARTBEAT)

    async def figures(self) -> tuple[int, list[dict[str, Any]]]:
        """How many play now, and the tables (kept :data:`KEPT` seconds)."""
        now = time.monotonic()
        if self._kept is None or now - self._kept[0] >= self.kept:
            await self.beat()
            count = await self.presence.count()
            tables = ranked(await self.presence.tables())
            self._kept = (now, count, tables[:MAX_TABLES])
        return self._kept[1], self._kept[2]

    async def answer(self, wording: Wording, lang: str) -> dict[str, Any]:
        """``GET /api/lobby``: ``playing``, ``tables`` and ``presets`` (each one's "Play
        now" link), in ``lang``."""
        count, tables = await self.figures()
        presets = [
            {
                "key": key,
                "name": wording.preset(key, rules.target)[0],
                "play": f"/{lang}/quick/{key}",
            }
            for key, rules in PRESETS.items()
        ]
        return {
            "playing": count,
            "tables": [worded(entry, wording, lang) for entry in tables],
            "presets": presets,
            "seats": [seat.name for seat in Seat],
        }


__all__ = [
    "HEARTBEAT",
    "KEPT",
    "MAX_TABLES",
    "Lobby",
    "TableRatings",
    "Waiting",
    "ranked",
    "table_entry",
    "table_rating",
    "worded",
]
