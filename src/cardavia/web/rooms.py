"""Rooms: a table of several people (docs/web.md, "Rooms").

A room is found by a short code (five letters without look-alikes) and a link. Whoever
creates it chooses the rules, a match target or a single deal, the computer players' level
and the deck, takes a seat and gets a seat token; friends open the link, type a display name
and take a free seat, each with a token of their own (only its SHA-256 is kept). Before the
first deal the creator may swap seats, free them, remove a player; at the start the empty
seats go to computer players.

The game itself is a game of :class:`~cardavia.web.table.TableService`, played, saved and
shared between processes the same way; the room is what tells the service who plays which
seat (:class:`Room`, a :class:`~cardavia.web.table.TableSeats`): a person present, or away
for less than the grace period, plays their seat; otherwise a computer player does, and gives
the seat back when its person returns with their token. The room's own state (seats, names,
who is away or ready, the last quick phrases) is one JSON row of ``rooms``, rewritten at each
change under a revision check and announced on the bus (``room:<code>``) like a game's.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
import unicodedata
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from cardavia.ai.player import player_levels
from cardavia.belote import DECKS, PRESETS, Seat
from cardavia.store.db import (
    RoomCodeTakenError,
    StaleGameError,
    StoredRoom,
    StoreUnavailableError,
    hash_token,
    new_token,
    token_matches,
)
from cardavia.web.i18n import N_, Wording
from cardavia.web.limits import RateLimiter
from cardavia.web.protocol import SEAT_CODES, ClientError, decode_message, state_message
from cardavia.web.table import Listener, Table, TableSeats, TableService

log = logging.getLogger(__name__)

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ"
"""The letters of a room's code: no I, L or O (read as 1 or 0)."""
CODE_LENGTH: Final = 5
"""23⁵ ≈ 6.4 million codes; guessing is slowed by the limit on lookups per client."""
MAX_NAME: Final = 24
"""The longest display name, in characters."""
DEFAULT_GRACE: Final = 60.0
"""Seconds an away player keeps their seat before a computer player plays it for them."""
DEFAULT_NEXT_DELAY: Final = 30.0
"""Seconds after a deal of a match before the next one is dealt, if not everyone is ready."""
ROOM_SOCKETS: Final = 24
"""Connections open on one room at once (four players' tabs, the watchers)."""
KEPT_PHRASES: Final = 8
PHRASES: Final[Mapping[str, str]] = {
    "hello": N_("Hello!"),
    "good_luck": N_("Good luck!"),
    "well_played": N_("Well played!"),
    "thanks": N_("Thanks!"),
    "sorry": N_("Sorry!"),
    "oops": N_("Oops!"),
    "hurry_up": N_("Hurry up, please!"),
    "bye": N_("Goodbye!"),
}
"""The quick phrases, by code: the only things players say to each other (no free text)."""
ROOM_MESSAGES: Final = frozenset(
    {"start", "swap", "free", "remove", "sit", "leave", "ready", "phrase", "next_deal"}
)
GAME_MESSAGES: Final = frozenset({"action", "sync", "hint"})
_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "start": frozenset({"type"}),
    "swap": frozenset({"type", "seats"}),
    "free": frozenset({"type", "seat"}),
    "remove": frozenset({"type", "seat"}),
    "sit": frozenset({"type", "seat"}),
    "leave": frozenset({"type"}),
    "ready": frozenset({"type"}),
    "next_deal": frozenset({"type"}),
    "phrase": frozenset({"type", "code"}),
}
CREATE_FIELDS: Final = frozenset(
    {"rules", "level", "deck", "target", "lang", "name", "seat", "grace", "watchers", "next_delay"}
)
JOIN_FIELDS: Final = frozenset({"name", "seat", "lang"})


def new_code() -> str:
    """A fresh room code (``secrets``)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: object) -> str | None:
    """A code as typed (any case, spaces or dashes) in its stored form, or ``None``.

    >>> normal_code(" kq-7 ") is None, normal_code("kqrst")
    (True, 'KQRST')
    """
    if not isinstance(text, str) or len(text) > 16:
        return None
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def clean_name(value: object) -> str:
    """A display name as shown: normalised (NFC), control and format characters removed,
    spaces collapsed, 1 to :data:`MAX_NAME` characters (``bad_name`` otherwise). It is text,
    never markup: the page writes it with ``textContent``.

    >>> clean_name("  Zo\\u00e9\\u200b  la  reine ")
    'Zoé la reine'
    """
    if not isinstance(value, str) or len(value) > 4 * MAX_NAME:
        raise ClientError("bad_name", {"count": MAX_NAME})
    text = unicodedata.normalize("NFC", value)
    text = "".join(c for c in text if unicodedata.category(c)[0] != "C")
    text = " ".join(text.split())
    if not 0 < len(text) <= MAX_NAME:
        raise ClientError("bad_name", {"count": MAX_NAME})
    return text


def _seat(value: object, field: str = "seat") -> Seat:
    if not isinstance(value, str) or value not in SEAT_CODES:
        raise ClientError("bad_field", {"field": field})
    return Seat[value]


def _number(data: Mapping[str, Any], name: str, default: float, low: float, high: float) -> float:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ClientError("bad_field", {"field": name})
    return float(value)


def room_settings(data: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A new room's settings from the creation request (each refused with a clear error)."""
    rules = data.get("rules", "cardavia")
    if not isinstance(rules, str) or rules not in PRESETS:
        raise ClientError("unknown_rules", {"rules": str(rules)[:24]})
    level = data.get("level", "club")
    if not isinstance(level, str) or level not in player_levels():
        raise ClientError("unknown_level", {"level": str(level)[:24]})
    deck = data.get("deck", PRESETS[rules].deck)
    if not isinstance(deck, str) or deck not in DECKS:
        raise ClientError("unknown_deck", {"deck": str(deck)[:24]})
    target = data.get("target", PRESETS[rules].target)
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or not 100 <= target <= 10000
    ):
        raise ClientError("bad_field", {"field": "target"})
    watchers = data.get("watchers", False)
    if not isinstance(watchers, bool):
        raise ClientError("bad_field", {"field": "watchers"})
    return {
        "rules": rules,
        "level": level,
        "deck": deck,
        "target": target,
        "lang": lang,
        "grace": _number(data, "grace", DEFAULT_GRACE, 0.0, 3600.0),
        "next_delay": _number(data, "next_delay", DEFAULT_NEXT_DELAY, 0.0, 3600.0),
        "watchers": watchers,
    }


def _open_seat() -> dict[str, Any]:
    return {"kind": "open", "name": None, "token": None, "away": None}


class Room(TableSeats):
    """A room in this process's memory: its state as last saved (or heard of), and the
    connections open on it here (shared with its table once the game is dealt)."""

    def __init__(self, service: RoomService, stored: StoredRoom) -> None:
        self.service = service
        self.code = stored.code
        self.state: dict[str, Any] = json.loads(stored.state)
        self.revision = stored.revision
        self.game_id = stored.game_id
        self.listeners: set[Listener] = set()
        self.tokens: dict[Listener, str] = {}
        """The hash of each connection's token (its seat may move: a swap)."""
        self.lock = asyncio.Lock()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.phrase_seen = int(self.state.get("phrase_n", 0))

    # -- reading the state --

    @property
    def settings(self) -> dict[str, Any]:
        """Rules, level, deck, target, grace, next_delay, watchers."""
        settings: dict[str, Any] = self.state["settings"]
        return settings

    @property
    def seats(self) -> dict[str, dict[str, Any]]:
        """Each seat: ``kind`` (open, human, computer), ``name``, ``token`` (hash),
        ``away`` (since when, seconds since the epoch, or ``None``)."""
        seats: dict[str, dict[str, Any]] = self.state["seats"]
        return seats

    @property
    def started(self) -> bool:
        """Whether the first deal has been dealt."""
        return bool(self.state["started"])

    def seat_of(self, token_hash: str | None) -> Seat | None:
        """The seat of a token's hash, or ``None``."""
        if token_hash is None:
            return None
        for code, entry in self.seats.items():
            if entry["kind"] == "human" and entry["token"] == token_hash:
                return Seat[code]
        return None

    def seat_of_token(self, token: str | None) -> Seat | None:
        """The seat of a token (compared in constant time), or ``None``."""
        for code, entry in self.seats.items():
            if entry["kind"] == "human" and token_matches(entry["token"] or "", token):
                return Seat[code]
        return None

    def is_creator(self, token_hash: str | None) -> bool:
        """Whether the token is the room's creator's."""
        return token_hash is not None and token_hash == self.state["creator"]

    def human_plays(self, seat: Seat) -> bool:
        entry = self.seats[SEAT_CODES[seat]]
        if entry["kind"] != "human":
            return False
        away = entry["away"]
        return away is None or time.time() - away < self.settings["grace"]

    def humans_here(self) -> list[str]:
        """The seats of the people present now (a connection open somewhere)."""
        return [c for c, e in self.seats.items() if e["kind"] == "human" and e["away"] is None]

    # -- what the connections are sent --

    def seats_json(self) -> dict[str, dict[str, Any]]:
        """Each seat as every player and watcher may see it: no token."""
        ready = set(self.state.get("ready", ()))
        return {
            code: {
                "kind": entry["kind"],
                "name": entry["name"],
                "away": entry["away"] is not None,
                "computer": entry["kind"] == "computer"
                or (entry["kind"] == "human" and not self.human_plays(Seat[code])),
                "ready": code in ready,
            }
            for code, entry in self.seats.items()
        }

    def decorate(self, view: dict[str, Any], seat: Seat | None) -> dict[str, Any]:
        bottom = seat if seat is not None else Seat.S
        screen = {
            "bottom": SEAT_CODES[bottom],
            "right": SEAT_CODES[bottom.next],
            "top": SEAT_CODES[bottom.next.next],
            "left": SEAT_CODES[bottom.next.next.next],
        }
        return view | {
            "room": self.code,
            "names": self.seats_json(),
            "screen": screen,
            "ready": sorted(self.state.get("ready", ())),
        }

    def info(self, wording: Wording) -> dict[str, Any]:
        """The ``room`` message's object, the same for every connection but ``you`` and
        ``creator`` (added per connection)."""
        settings = self.settings
        return {
            "code": self.code,
            "rules": settings["rules"],
            "rules_name": wording.preset(settings["rules"], settings["target"])[0],
            "level": settings["level"],
            "level_name": wording.level(settings["level"]),
            "deck": settings["deck"],
            "target": settings["target"],
            "grace": settings["grace"],
            "next_delay": settings["next_delay"],
            "watchers": settings["watchers"],
            "started": self.started,
            "game": self.game_id is not None,
            "seats": self.seats_json(),
        }

    def send_room(self) -> None:
        """Send every connection the room as it stands."""
        bases: dict[str, dict[str, Any]] = {}
        for listener in list(self.listeners):
            lang = listener.wording.lang
            if lang not in bases:
                bases[lang] = self.info(listener.wording)
            token = self.tokens.get(listener)
            you = SEAT_CODES[listener.seat] if listener.seat is not None else None
            room = bases[lang] | {"you": you, "creator": self.is_creator(token)}
            listener.send({"type": "room", "room": room})

    def send_new_phrases(self) -> None:
        """Send the quick phrases said since this process last sent them."""
        for said in self.state.get("phrases", ()):
            if said["n"] <= self.phrase_seen:
                continue
            for listener in list(self.listeners):
                listener.send(self.phrase_message(said, listener.wording))
        self.phrase_seen = int(self.state.get("phrase_n", 0))

    def phrase_message(self, said: Mapping[str, Any], wording: Wording) -> dict[str, Any]:
        """The ``phrase`` message, in the connection's language."""
        entry = self.seats[said["seat"]]
        return {
            "type": "phrase",
            "seat": said["seat"],
            "name": entry["name"],
            "code": said["code"],
            "text": wording.gettext(PHRASES[said["code"]]),
        }

    def changed(self, table: Table) -> None:
        self.service.game_changed(self, table)


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat just taken: the room's code, the seat and its token (given once, never
    stored)."""

    code: str
    token: str
    seat: str


class RoomService:
    """The rooms of this process: created, joined, opened, their messages handled."""

    def __init__(
        self,
        tables: TableService,
        *,
        rooms_per_client: int = 10,
        rooms_per_minute: float = 10.0,
        lookups_per_minute: float = 30.0,
        idle_days: float = 1.0,
    ) -> None:
        self.tables = tables
        self.store = tables.store
        self.rooms: dict[str, Room] = {}
        self.rooms_per_client = rooms_per_client
        self.idle_days = idle_days
        self.creation = RateLimiter(rooms_per_minute / 60.0, max(1, int(rooms_per_minute)))
        self.lookups = RateLimiter(lookups_per_minute / 60.0, max(1, int(lookups_per_minute)))
        """Failed code lookups per client: guessing codes is slow."""
        self.phrases = RateLimiter(0.5, 3)
        """Quick phrases per seat of a room: one every two seconds, three at once."""
        self._tasks: set[asyncio.Task[Any]] = set()

    def _background(self, job: Any) -> None:
        """Run a coroutine on its own (kept until it ends; its failure logged)."""
        task = asyncio.ensure_future(job)
        self._tasks.add(task)

        def done(task: asyncio.Task[Any]) -> None:
            self._tasks.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error("a room's task failed", exc_info=task.exception())

        task.add_done_callback(done)

    # -- the store --

    async def _store(self, call: Any, *args: Any, **kwargs: Any) -> Any:
        """A call of the store, in the thread that writes the site's games (SQLite lets one
        connection write at a time: two writing threads would wait on each other)."""
        try:
            return await self.tables.writer.call(functools.partial(call, *args, **kwargs))
        except StoreUnavailableError:
            log.warning("rooms: the database is unavailable", exc_info=True)
            raise ClientError("unavailable") from None

    async def _save(self, room: Room, state: dict[str, Any], *, human: bool = True) -> None:
        """Save the room's new state (under its lock), then send it and tell the other
        processes; ``stale`` if another process changed it meanwhile (caught up, sent)."""
        text = json.dumps(state, ensure_ascii=False)
        try:
            revision = await self._store(
                self.store.save_room,
                room.code,
                text,
                revision=room.revision,
                game_id=room.game_id,
                human=human,
            )
        except StaleGameError:
            await self._reload(room)
            raise ClientError("stale") from None
        room.state, room.revision = state, revision
        await self._after_change(room)
        await self.tables.bus.publish("room:" + room.code, revision)

    async def _reload(self, room: Room) -> None:
        stored = await self._store(self.store.load_room, room.code)
        if stored is None:
            # Closed (nobody there for a day): forgotten here too.
            self.rooms.pop(room.code, None)
            raise ClientError("room_not_found")
        room.state, room.revision = json.loads(stored.state), stored.revision
        room.game_id = stored.game_id
        await self._after_change(room)

    async def _after_change(self, room: Room) -> None:
        """Follow the room's new state: connections of removed players closed, seats of
        swapped ones moved, the table opened once dealt, everyone sent the room, the new
        phrases and the views (names, away, ready), the grace timers set."""
        for listener, token in list(room.tokens.items()):
            seat = room.seat_of(token)
            if seat is None:
                listener.send(ClientError("removed").message(listener.wording, ""))
                listener.close(4403)
                listener.seat = None
                room.tokens.pop(listener, None)
            else:
                listener.seat = seat
        room.send_room()
        room.send_new_phrases()
        table = await self.table(room)
        if table is not None:
            self.tables.broadcast(table)
            self.tables.ensure_runner(table)
        for code, entry in room.seats.items():
            if entry["kind"] == "human" and entry["away"] is not None:
                left = entry["away"] + room.settings["grace"] - time.time()
                if left > 0:
                    self._timer(
                        room,
                        "grace:" + code,
                        left + 0.05,
                        functools.partial(self._grace_over, room),
                    )

    def _timer(
        self, room: Room, key: str, delay: float, job: Callable[[], Coroutine[Any, Any, None]]
    ) -> None:
        old = room.timers.pop(key, None)
        if old is not None:
            old.cancel()

        def run() -> None:
            room.timers.pop(key, None)
            self._background(job())

        room.timers[key] = asyncio.get_running_loop().call_later(delay, run)

    async def _grace_over(self, room: Room) -> None:
        """A grace period ran out: the seat is shown played by a computer player, which
        plays it if it is its turn."""
        room.send_room()
        table = await self.table(room)
        if table is not None:
            self.tables.broadcast(table)
            self.tables.ensure_runner(table)

    # -- creating, joining, opening --

    async def create(self, data: Mapping[str, Any], lang: str, *, client: str) -> Joined:
        """A new room, its creator seated (``seat``, South by default) under ``name``."""
        for key in data:
            if key not in CREATE_FIELDS:
                raise ClientError("unknown_field", {"field": str(key)[:24]})
        settings = room_settings(data, lang)
        name = clean_name(data.get("name"))
        seat = _seat(data.get("seat", "S"))
        if not self.creation.allow(client):
            raise ClientError("too_many_rooms")
        if self.rooms_per_client > 0:
            count = await self._store(self.store.rooms_of, client)
            if count >= self.rooms_per_client:
                raise ClientError("too_many_rooms")
        token = new_token()
        seats = {code: _open_seat() for code in SEAT_CODES}
        seats[seat.name] = {"kind": "human", "name": name, "token": hash_token(token), "away": None}
        state = {
            "settings": settings,
            "creator": hash_token(token),
            "seats": seats,
            "started": False,
            "ready": [],
            "phrases": [],
            "phrase_n": 0,
        }
        text = json.dumps(state, ensure_ascii=False)
        for _ in range(8):
            code = new_code()
            try:
                stored = await self._store(self.store.create_room, code, text, client=client)
                break
            except RoomCodeTakenError:
                continue
        else:
            raise ClientError("internal")
        self.rooms[code] = Room(self, stored)
        return Joined(code, token, seat.name)

    async def open(self, code: object, *, client: str = "") -> Room:
        """The room of a code, from memory or the store; ``room_not_found`` (counted against
        the client's lookups: ``too_many_attempts`` past them)."""
        normal = normal_code(code)
        room = self.rooms.get(normal) if normal else None
        if room is not None:
            if self.tables.bus.distributed:
                async with room.lock:
                    await self._reload(room)
            return room
        stored = await self._store(self.store.load_room, normal) if normal else None
        if stored is None:
            if not self.lookups.allow(client):
                raise ClientError("too_many_attempts")
            raise ClientError("room_not_found")
        room = self.rooms.get(stored.code)
        if room is None:
            room = self.rooms[stored.code] = Room(self, stored)
            await self._after_change(room)
        return room

    async def table(self, room: Room) -> Table | None:
        """The room's table once dealt (its connections are the room's)."""
        if room.game_id is None:
            return None
        table = await self.tables.open(room.game_id, None, seats=room)
        if table.listeners is not room.listeners:
            table.listeners = room.listeners
        return table

    async def join(self, code: object, data: Mapping[str, Any], *, client: str) -> Joined:
        """Take a seat (``seat``, or the first free one) under a display name."""
        for key in data:
            if key not in JOIN_FIELDS:
                raise ClientError("unknown_field", {"field": str(key)[:24]})
        name = clean_name(data.get("name"))
        wanted = _seat(data["seat"]) if data.get("seat") is not None else None
        room = await self.open(code, client=client)
        async with room.lock:
            if room.started:
                raise ClientError("already_started")
            state = json.loads(json.dumps(room.state))
            seats = state["seats"]
            free = [c for c in SEAT_CODES if seats[c]["kind"] == "open"]
            if not free:
                raise ClientError("room_full")
            seat = wanted.name if wanted is not None else free[0]
            if seat not in free:
                raise ClientError("seat_taken", {"seat": seat})
            token = new_token()
            seats[seat] = {"kind": "human", "name": name, "token": hash_token(token), "away": None}
            await self._save(room, state)
        return Joined(room.code, token, seat)

    # -- connections --

    def connect(self, room: Room, token: str | None, wording: Wording, *, client: str) -> Listener:
        """A connection to a room: a player's (their token's seat) or a watcher's (no token,
        if the room allows them)."""
        if token:
            seat = room.seat_of_token(token)
            if seat is None:
                raise ClientError("bad_token")
        elif room.settings["watchers"]:
            seat = None
        else:
            raise ClientError("missing_token")
        if len(room.listeners) >= ROOM_SOCKETS:
            raise ClientError("too_many_sockets")
        listener = Listener(
            wording, limit=self.tables.limits.queue_messages, client=client, seat=seat
        )
        room.listeners.add(listener)
        if token and seat is not None:
            room.tokens[listener] = hash_token(token)
        return listener

    async def arrive(self, room: Room, listener: Listener) -> None:
        """A connection opened: it is sent the room (and its view of the game); a player
        back from away takes their seat back."""
        seat = listener.seat
        async with room.lock:
            if seat is not None and room.seats[seat.name]["away"] is not None:
                state = json.loads(json.dumps(room.state))
                state["seats"][seat.name]["away"] = None
                with contextlib.suppress(ClientError):
                    await self._save(room, state)
        room.send_room()
        table = await self.table(room)
        if table is not None:
            if client := listener.client:
                table.client = client
            view = self.tables.view(table, listener.wording.lang, listener.seat)
            listener.send(state_message(view))
            self.tables.ensure_runner(table)

    def depart(self, room: Room, listener: Listener) -> None:
        """A connection closed: when it was its player's last one here, they are away (a
        computer player takes the seat after the grace period). Saved in a task of its own:
        the connection's task may be cancelled as it closes."""
        room.listeners.discard(listener)
        token = room.tokens.pop(listener, None)
        seat = room.seat_of(token)
        if seat is None or any(other.seat == seat for other in room.listeners):
            return
        self._background(self._away(room, seat))

    async def _away(self, room: Room, seat: Seat) -> None:
        if any(other.seat == seat for other in room.listeners):
            return
        async with room.lock:
            entry = room.seats[seat.name]
            if entry["kind"] != "human" or entry["away"] is not None:
                return
            state = json.loads(json.dumps(room.state))
            state["seats"][seat.name]["away"] = time.time()
            with contextlib.suppress(ClientError):
                await self._save(room, state)

    # -- messages --

    async def handle_text(self, room: Room, listener: Listener, text: str | bytes) -> None:
        """One message of a room's connection: the game's (``action``, ``sync``) go to the
        table service; the room's are handled here. An error goes back to this connection
        only and changes nothing."""
        try:
            data = decode_message(text, limit=self.tables.max_message_bytes)
            kind = data.get("type")
            if kind in GAME_MESSAGES:
                table = await self.table(room)
                if table is None:
                    if kind == "sync":
                        room.send_room()
                        return
                    raise ClientError("not_started")
                await self.tables.handle_text(table, listener, text)
                return
            if kind is None:
                raise ClientError("missing_field", {"field": "type"})
            if not isinstance(kind, str) or kind not in ROOM_MESSAGES:
                raise ClientError("unknown_type", {"type": str(kind)[:24]})
            for key in data:
                if key not in _FIELDS[kind]:
                    raise ClientError("unknown_field", {"field": str(key)[:24]})
            if listener.seat is None:
                raise ClientError("watching")
            await self._room_message(room, listener, kind, data)
        except ClientError as error:
            listener.send(error.message(listener.wording, room.settings["deck"]))
        except Exception:
            log.exception("room %s: a message failed", room.code)
            listener.send(ClientError("internal").message(listener.wording, ""))

    async def _room_message(
        self, room: Room, listener: Listener, kind: str, data: Mapping[str, Any]
    ) -> None:
        seat = listener.seat
        assert seat is not None
        creator = room.is_creator(room.tokens.get(listener))
        if kind in ("ready", "next_deal"):
            await self.ready(room, seat)
            return
        if kind == "phrase":
            said = data.get("code")
            if said is None:
                raise ClientError("missing_field", {"field": "code"})
            if not isinstance(said, str) or said not in PHRASES:
                raise ClientError("unknown_phrase", {"value": str(said)[:24]})
            if not self.phrases.allow(f"{room.code} {seat.name}"):
                raise ClientError("rate_limited")
        if kind in ("start", "swap", "free", "remove") and not creator:
            raise ClientError("not_creator")
        if kind in ("start", "swap", "free", "sit") and room.started:
            raise ClientError("already_started")
        for name in {
            "swap": ("seats",),
            "free": ("seat",),
            "remove": ("seat",),
            "sit": ("seat",),
        }.get(kind, ()):
            if name not in data:
                raise ClientError("missing_field", {"field": name})
        async with room.lock:
            state = json.loads(json.dumps(room.state))
            seats = state["seats"]
            if kind == "start":
                await self._start(room, state)
                return
            if kind == "phrase":
                state["phrase_n"] = number = int(state.get("phrase_n", 0)) + 1
                entry = {"n": number, "seat": seat.name, "code": data["code"]}
                state["phrases"] = [*state.get("phrases", ()), entry][-KEPT_PHRASES:]
            elif kind == "swap":
                pair = data["seats"]
                if not isinstance(pair, list) or len(pair) != 2:
                    raise ClientError("bad_field", {"field": "seats"})
                one, two = _seat(pair[0], "seats").name, _seat(pair[1], "seats").name
                seats[one], seats[two] = seats[two], seats[one]
            elif kind == "sit":
                target = _seat(data["seat"]).name
                if seats[target]["kind"] != "open":
                    raise ClientError("seat_taken", {"seat": target})
                seats[target], seats[seat.name] = seats[seat.name], _open_seat()
            elif kind in ("free", "remove"):
                target = _seat(data["seat"]).name
                if seats[target]["token"] == state["creator"]:
                    raise ClientError("bad_field", {"field": "seat"})
                seats[target] = _open_seat() if not room.started else _computer(seats[target])
            elif kind == "leave":
                seats[seat.name] = _open_seat() if not room.started else _computer(seats[seat.name])
                if room.is_creator(room.tokens.get(listener)):
                    # The room passes to the next person seated, if any.
                    others = [e["token"] for e in seats.values() if e["kind"] == "human"]
                    state["creator"] = others[0] if others else None
            state["ready"] = [c for c in state.get("ready", ()) if seats[c]["kind"] == "human"]
            await self._save(room, state)

    async def _start(self, room: Room, state: dict[str, Any]) -> None:
        """Deal the first deal: the open seats go to computer players."""
        for code, entry in state["seats"].items():
            if entry["kind"] == "open":
                state["seats"][code] = {
                    "kind": "computer",
                    "name": None,
                    "token": None,
                    "away": None,
                }
        settings = state["settings"]
        game = await self.tables.create_game(
            settings["rules"],
            settings["level"],
            settings["lang"],
            settings["deck"],
            target=settings["target"],
            seats=room,
        )
        state["started"] = True
        room.game_id = game.game_id
        try:
            await self._save(room, state)
        except ClientError:
            room.game_id = None
            raise

    async def ready(self, room: Room, seat: Seat) -> None:
        """A player is ready for the next deal: dealt when every person present is."""
        table = await self.table(room)
        if table is None:
            raise ClientError("not_started")
        if not table.match.deal.is_over:
            raise ClientError("deal_not_over")
        if table.match.is_over:
            raise ClientError("match_over")
        async with room.lock:
            state = json.loads(json.dumps(room.state))
            ready = set(state.get("ready", ())) | {seat.name}
            state["ready"] = sorted(ready)
            await self._save(room, state)
        if set(room.humans_here()) <= set(room.state["ready"]):
            await self.next_deal(room)

    async def next_deal(self, room: Room) -> None:
        """Deal the next deal of the match (whoever asks first: the others find it dealt)."""
        table = await self.table(room)
        if table is None:
            return
        try:
            await self.tables.next_deal(table)
        except ClientError as error:
            if error.code not in ("deal_not_over", "match_over", "stale"):
                raise

    def game_changed(self, room: Room, table: Table) -> None:
        """After each change of the room's game: once a deal of the match is over, the next
        one is dealt after the room's delay (if someone is there); once a new deal starts,
        nobody is ready any more."""
        match = table.match
        key = "next_deal"
        if match.deal.is_over and not match.is_over:
            if key not in room.timers and room.humans_here():
                self._timer(
                    room, key, room.settings["next_delay"], functools.partial(self.next_deal, room)
                )
        else:
            timer = room.timers.pop(key, None)
            if timer is not None:
                timer.cancel()
            if room.state.get("ready") and not match.deal.is_over:
                self._background(self._clear_ready(room))

    async def _clear_ready(self, room: Room) -> None:
        async with room.lock:
            if not room.state.get("ready"):
                return
            state = json.loads(json.dumps(room.state))
            state["ready"] = []
            with contextlib.suppress(ClientError):
                await self._save(room, state, human=False)

    async def on_remote_change(self, key: str, revision: int) -> None:
        """Another process saved a room at ``revision``: follow it if it is open here."""
        room = self.rooms.get(key.removeprefix("room:"))
        if room is None or revision <= room.revision:
            return
        async with room.lock:
            await self._reload(room)
            # Still connected here? Then not away (a second tab on another process left).
            back = [
                s.name
                for s in {listener.seat for listener in room.listeners if listener.seat}
                if room.seats[s.name]["away"] is not None
            ]
            if back:
                state = json.loads(json.dumps(room.state))
                for code in back:
                    state["seats"][code]["away"] = None
                with contextlib.suppress(ClientError):
                    await self._save(room, state)

    async def purge(self) -> int:
        """Close the rooms nobody has been at for :attr:`idle_days`."""
        if self.idle_days <= 0:
            return 0
        count: int = await self._store(self.store.purge_rooms, timedelta(days=self.idle_days))
        return count

    def close(self) -> None:
        """Cancel the timers."""
        for room in self.rooms.values():
            for timer in room.timers.values():
                timer.cancel()
            room.timers.clear()
        for task in list(self._tasks):
            task.cancel()


def _computer(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A seat given to a computer player for good (its person left or was removed): the
    name stays on the score sheet, the token no longer opens it."""
    return {"kind": "computer", "name": entry.get("name"), "token": None, "away": None}


def is_room_key(key: str) -> bool:
    """Whether a bus key names a room (``room:<code>``) rather than a game."""
    return key.startswith("room:")


__all__ = [
    "CODE_ALPHABET",
    "PHRASES",
    "Joined",
    "Room",
    "RoomService",
    "clean_name",
    "new_code",
    "normal_code",
    "room_settings",
]
