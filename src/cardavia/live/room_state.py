"""A room's state as typed values (docs/web.md, "Rooms"): its settings, who sits where, who
is ready, the last quick phrases said, and its creator.

Every value is frozen; a change is a method that answers a new :class:`RoomState` (``sit``,
``swap``, ``free``, ``leave``, ``start``, …), refusing with a :class:`ClientError` and
changing nothing when the change is not allowed. The state is saved as one JSON object
(:meth:`RoomState.to_json`), the shape rooms have always been saved in, so that a room saved
before these types existed still loads (:meth:`RoomState.from_json`).

Also here: what a client sends to make a room or take a seat, checked (:func:`clean_name`,
from :mod:`cardavia.live.display_names`; :meth:`RoomSettings.from_request`;
:func:`normal_code`, from :mod:`cardavia.live.room_codes`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from cardavia.ai.levels import player_levels
from cardavia.belote import DECKS, PRESETS, Seat
from cardavia.live.display_names import MAX_NAME, clean_name
from cardavia.live.protocol import ClientError, echo
from cardavia.live.room_codes import (
    CODE_ALPHABET,
    KEPT_PHRASES,
    PHRASES,
    new_code,
    normal_code,
    number_field,
    phrase_code,
)
from cardavia.live.seating import Computer, Person, Seating

DEFAULT_GRACE: Final = 60.0
"""Seconds an away player keeps their seat before a computer player plays it for them."""
QUICK_GRACE: Final = 5.0
"""A quick-play table's grace period: the seconds a person just seated has to open the table
before a computer player plays their seat until they come (one who came and lost their
connection is played for at once: docs/players.md, "Leaving")."""
IDLE_MISSES: Final = 2
"""Clock expiries in a row after which a quick-play table's player is away: a computer
player plays their seat until they act or say they are back."""
DEFAULT_NEXT_DELAY: Final = 30.0
"""Seconds after a deal of a match before the next one is dealt, if not everyone is ready."""
AGAIN_TARGET: Final = 1000
"""The match a room plays when it asks for one after a single deal of rules whose own game is
a single deal."""


# -- the values ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """What the creator chose: the rules, the computer players' level, the deck, the match
    target (``None``: a single deal), the room's language, the grace period and the delay
    before the next deal (seconds), and whether watchers may come in.

    A table formed by quick play is a room too (``quick``: its seats given by the queue,
    rated, its leavers counted), with a clock for each action (``clock`` seconds; ``0``: no
    clock, a friends' room's way)."""

    rules: str
    level: str
    deck: str
    target: int | None
    lang: str
    grace: float = DEFAULT_GRACE
    next_delay: float = DEFAULT_NEXT_DELAY
    watchers: bool = False
    quick: bool = False
    clock: float = 0.0

    @classmethod
    def from_request(cls, data: Mapping[str, Any], lang: str) -> RoomSettings:
        """A new room's settings from the creation request (each refused clearly)."""
        rules = data.get("rules", "cardavia")
        if not isinstance(rules, str) or rules not in PRESETS:
            raise ClientError("unknown_rules", {"rules": echo(rules)})
        level = data.get("level", "club")
        if not isinstance(level, str) or level not in player_levels():
            raise ClientError("unknown_level", {"level": echo(level)})
        deck = data.get("deck", PRESETS[rules].deck)
        if not isinstance(deck, str) or deck not in DECKS:
            raise ClientError("unknown_deck", {"deck": echo(deck)})
        target = data.get("target", PRESETS[rules].target)
        if target is not None and (
            isinstance(target, bool) or not isinstance(target, int) or not 100 <= target <= 10000
        ):
            raise ClientError("bad_field", {"field": "target"})
        watchers = data.get("watchers", False)
        if not isinstance(watchers, bool):
            raise ClientError("bad_field", {"field": "watchers"})
        return cls(
            rules=rules,
            level=level,
            deck=deck,
            target=target,
            lang=lang,
            grace=number_field(data, "grace", DEFAULT_GRACE, 0.0, 3600.0),
            next_delay=number_field(data, "next_delay", DEFAULT_NEXT_DELAY, 0.0, 3600.0),
            watchers=watchers,
        )

    def to_json(self) -> dict[str, Any]:
        """The settings as saved (a friends' room's without the quick play's two fields, as
        before they were)."""
        saved = {
            "rules": self.rules,
            "level": self.level,
            "deck": self.deck,
            "target": self.target,
            "lang": self.lang,
            "grace": self.grace,
            "next_delay": self.next_delay,
            "watchers": self.watchers,
        }
        if self.quick or self.clock:
            saved |= {"quick": self.quick, "clock": self.clock}
        return saved

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoomSettings:
        """The settings as saved (:meth:`to_json`)."""
        return cls(
            rules=str(data["rules"]),
            level=str(data["level"]),
            deck=str(data["deck"]),
            target=None if data.get("target") is None else int(data["target"]),
            lang=str(data["lang"]),
            grace=float(data.get("grace", DEFAULT_GRACE)),
            next_delay=float(data.get("next_delay", DEFAULT_NEXT_DELAY)),
            watchers=bool(data.get("watchers", False)),
            quick=bool(data.get("quick", False)),
            clock=float(data.get("clock", 0.0)),
        )


@dataclass(frozen=True, slots=True)
class OpenSeat:
    """A seat nobody has taken: a person may sit there, else a computer player once started."""


@dataclass(frozen=True, slots=True)
class PersonSeat:
    """A seat taken by a person: their display name, the SHA-256 of their seat token (the
    token itself is never kept), since when they are away (seconds since the epoch;
    ``None``: a connection of theirs is open), how many times in a row the action clock
    ran out on them (:data:`IDLE_MISSES` of them: away, though connected), and whether they
    have yet to come (``arriving``: seated by quick play, no connection of theirs opened)."""

    name: str
    token: str
    away: float | None = None
    misses: int = 0
    hidden: bool = False
    arriving: bool = False

    @property
    def idle(self) -> bool:
        """Whether the clock ran out on them too often in a row: a computer player plays
        for them until they act or say they are back."""
        return self.misses >= IDLE_MISSES


@dataclass(frozen=True, slots=True)
class ComputerSeat:
    """A seat a computer player plays for good: an open seat at the start, or a person's
    who left or was removed (their ``name`` stays on the score sheet; no token opens it)."""

    name: str | None = None
    hidden: bool = False


RoomSeat = OpenSeat | PersonSeat | ComputerSeat
"""Who sits in one seat of a room."""


@dataclass(frozen=True, slots=True)
class Clock:
    """A quick-play table's action clock: the seat whose turn it times, the action of the
    room's game it waits for (the game, and its revision: the number of events saved
    before that action), until when (seconds since the epoch), and whether it ran out
    (``lapsed``: a computer player makes that one action for the seat)."""

    seat: Seat
    game: str
    revision: int
    ends: float
    lapsed: bool = False

    def waits_for(self, game: str | None, revision: int) -> bool:
        """Whether the clock times the action the game ``game`` waits for at
        ``revision``."""
        return self.game == game and self.revision == revision

    def to_json(self) -> dict[str, Any]:
        """The clock as saved with the room."""
        return {
            "seat": self.seat.name,
            "game": self.game,
            "revision": self.revision,
            "ends": self.ends,
            "lapsed": self.lapsed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Clock | None:
        """The clock as saved (:meth:`to_json`; ``None``: none)."""
        if data is None:
            return None
        return cls(
            Seat[data["seat"]],
            str(data["game"]),
            int(data["revision"]),
            float(data["ends"]),
            bool(data.get("lapsed", False)),
        )


def _seat_to_json(entry: RoomSeat) -> dict[str, Any]:
    hidden = {"hidden": True} if getattr(entry, "hidden", False) else {}
    if isinstance(entry, PersonSeat):
        saved = {"kind": "human", "name": entry.name, "token": entry.token, "away": entry.away}
        saved |= {"arriving": True} if entry.arriving else {}
        return saved | ({"misses": entry.misses} if entry.misses else {}) | hidden
    if isinstance(entry, ComputerSeat):
        return {"kind": "computer", "name": entry.name, "token": None, "away": None} | hidden
    return {"kind": "open", "name": None, "token": None, "away": None}


def _seat_from_json(data: Mapping[str, Any]) -> RoomSeat:
    kind = data["kind"]
    if kind == "human":
        away = data.get("away")
        return PersonSeat(
            str(data["name"]),
            str(data["token"]),
            None if away is None else float(away),
            int(data.get("misses", 0)),
            bool(data.get("hidden", False)),
            bool(data.get("arriving", False)),
        )
    if kind == "computer":
        return ComputerSeat(data.get("name"), bool(data.get("hidden", False)))
    return OpenSeat()


@dataclass(frozen=True, slots=True)
class Said:
    """A quick phrase said: its number in the room (1 the first), who said it, its code."""

    n: int
    seat: Seat
    code: str


@dataclass(frozen=True, slots=True)
class RoomState:
    """Everything a room saves: its settings, the four seats (in :class:`Seat` order), the
    SHA-256 of the creator's token (``None``: the creator left and nobody is seated), whether
    the first deal is dealt, the seats ready for the next deal, the last quick phrases and
    how many were ever said, a quick-play table's action clock (:class:`Clock`), and the
    offer of a new game once the game is over: the seats that offered or accepted it, the
    length asked by the first (a match ``True``, a single deal ``False``, as before ``None``),
    and who declined the last one."""

    settings: RoomSettings
    seats: tuple[RoomSeat, RoomSeat, RoomSeat, RoomSeat]
    creator: str | None
    started: bool = False
    ready: frozenset[Seat] = frozenset()
    phrases: tuple[Said, ...] = ()
    phrase_n: int = 0
    clock: Clock | None = None
    offers: frozenset[Seat] = frozenset()
    offer_match: bool | None = None
    declined: Seat | None = None

    @classmethod
    def new(cls, settings: RoomSettings, seat: Seat, *, name: str, token: str) -> RoomState:
        """A new room: its creator (``token``: their token's hash) in ``seat``."""
        open_seats = (OpenSeat(), OpenSeat(), OpenSeat(), OpenSeat())
        state = cls(settings, open_seats, creator=token)
        return state._with_seat(seat, PersonSeat(name, token))

    # -- reading --

    def __getitem__(self, seat: Seat) -> RoomSeat:
        return self.seats[seat]

    def items(self) -> Iterator[tuple[Seat, RoomSeat]]:
        """Each seat and who sits there, in turn order from North."""
        return zip(Seat, self.seats, strict=True)

    def seat_of(self, token: str | None) -> Seat | None:
        """The seat of a token's hash, or ``None``."""
        if token is None:
            return None
        for seat, entry in self.items():
            if isinstance(entry, PersonSeat) and entry.token == token:
                return seat
        return None

    def is_creator(self, token: str | None) -> bool:
        """Whether the token's hash is the room's creator's."""
        return token is not None and token == self.creator

    def open_seats(self) -> list[Seat]:
        """The seats nobody has taken, in turn order from North."""
        return [seat for seat, entry in self.items() if isinstance(entry, OpenSeat)]

    def people_here(self) -> frozenset[Seat]:
        """The seats of the people present now (a connection of theirs open somewhere)."""
        return frozenset(
            seat
            for seat, entry in self.items()
            if isinstance(entry, PersonSeat) and entry.away is None
        )

    def seating(self) -> Seating:
        """Who plays each seat of the room's table: a person (present, or away since when,
        within the room's grace period), or a computer player of the room's level (an open
        seat too: nobody sits there before the start). At a quick-play table a computer
        player plays at once for a person away, idle, or whose clock ran out on this
        action."""
        players: list[Person | Computer] = []
        lapsed = self.clock.seat if self.clock is not None and self.clock.lapsed else None
        for seat, entry in self.items():
            if isinstance(entry, PersonSeat):
                idle = entry.idle or seat == lapsed
                idle = idle or (
                    self.settings.quick and entry.away is not None and not entry.arriving
                )
                players.append(Person(entry.name, away_since=entry.away, idle=idle))
            else:
                players.append(Computer(self.settings.level))
        return Seating(tuple(players), grace=self.settings.grace)

    # -- changes --

    def _with_seat(self, seat: Seat, entry: RoomSeat) -> RoomState:
        seats = list(self.seats)
        seats[seat] = entry
        one, two, three, four = seats
        return self._settled(replace(self, seats=(one, two, three, four)))

    @staticmethod
    def _settled(state: RoomState) -> RoomState:
        """Only people are ready, or offer a new game."""
        ready = frozenset(s for s in state.ready if isinstance(state.seats[s], PersonSeat))
        offers = frozenset(s for s in state.offers if isinstance(state.seats[s], PersonSeat))
        if (ready, offers) == (state.ready, state.offers):
            return state
        return replace(state, ready=ready, offers=offers)

    def _gone(self, seat: Seat) -> RoomSeat:
        """What a person's seat becomes when they leave it: open before the start, a
        computer player's (their name kept) after."""
        if not self.started:
            return OpenSeat()
        entry = self.seats[seat]
        return ComputerSeat(getattr(entry, "name", None), getattr(entry, "hidden", False))

    def take(self, seat: Seat | None, *, name: str, token: str) -> tuple[RoomState, Seat]:
        """A person takes ``seat`` (``None``: the first open one); ``already_started``,
        ``room_full``, ``seat_taken``."""
        if self.started:
            raise ClientError("already_started")
        free = self.open_seats()
        if not free:
            raise ClientError("room_full")
        chosen = free[0] if seat is None else seat
        if chosen not in free:
            raise ClientError("seat_taken", {"seat": chosen.name})
        return self._with_seat(chosen, PersonSeat(name, token)), chosen

    def sit(self, seat: Seat, target: Seat) -> RoomState:
        """The person in ``seat`` moves to the open seat ``target`` (before the start)."""
        if not isinstance(self.seats[target], OpenSeat):
            raise ClientError("seat_taken", {"seat": target.name})
        moved = self._with_seat(target, self.seats[seat])
        return moved._with_seat(seat, OpenSeat())

    def swap(self, one: Seat, two: Seat) -> RoomState:
        """Whoever sits in ``one`` and ``two`` change places (the creator, before the
        start)."""
        first, second = self.seats[one], self.seats[two]
        return self._with_seat(one, second)._with_seat(two, first)

    def free(self, seat: Seat) -> RoomState:
        """The creator frees ``seat`` (before the start) or removes its player (after: a
        computer player takes it over); never the creator's own seat."""
        entry = self.seats[seat]
        if isinstance(entry, PersonSeat) and self.is_creator(entry.token):
            raise ClientError("bad_field", {"field": "seat"})
        return self._with_seat(seat, self._gone(seat))

    def leave(self, seat: Seat) -> RoomState:
        """The person in ``seat`` leaves for good; if they created the room, it passes to
        the next person seated, if any."""
        entry = self.seats[seat]
        state = self._with_seat(seat, self._gone(seat))
        if isinstance(entry, PersonSeat) and self.is_creator(entry.token):
            people = [e.token for e in state.seats if isinstance(e, PersonSeat)]
            state = replace(state, creator=people[0] if people else None)
        return state

    def start(self) -> RoomState:
        """The first deal: the open seats go to computer players."""
        if self.started:
            raise ClientError("already_started")
        seats = tuple(ComputerSeat() if isinstance(e, OpenSeat) else e for e in self.seats)
        one, two, three, four = seats
        return replace(self, seats=(one, two, three, four), started=True)

    def again(self, match: bool | None = None) -> RoomState:
        """The room playing again, its game over: the same people in the same seats, nobody
        ready; ``match``: a match to the rules' target (:data:`AGAIN_TARGET` where the rules
        are a single deal), ``False``: a single deal, ``None``: as before."""
        if not self.started:
            raise ClientError("not_started")
        settings = self.settings
        if match is not None:
            target = (PRESETS[settings.rules].target or AGAIN_TARGET) if match else None
            settings = replace(settings, target=target)
        return replace(
            self,
            settings=settings,
            ready=frozenset(),
            offers=frozenset(),
            offer_match=None,
            declined=None,
        )

    def offer(self, seat: Seat, match: bool | None = None) -> RoomState:
        """The person in ``seat`` offers a new game once the game is over, or accepts the
        offer made (its length is the first offer's, ``match`` as :meth:`again` reads it)."""
        if not self.started:
            raise ClientError("not_started")
        first = not self.offers
        return self._settled(
            replace(
                self,
                offers=self.offers | {seat},
                offer_match=match if first else self.offer_match,
                declined=None,
            )
        )

    @property
    def offer_accepted(self) -> bool:
        """Whether every person present offered or accepted a new game (computer seats
        accept): it is dealt."""
        return bool(self.offers) and self.people_here() <= self.offers

    def decline(self, seat: Seat) -> RoomState:
        """The person in ``seat`` declines the new game offered: the offer is withdrawn,
        and the others are told who declined (unchanged when nothing is offered)."""
        if not self.offers:
            return self
        return replace(self, offers=frozenset(), offer_match=None, declined=seat)

    def say(self, seat: Seat, code: str) -> RoomState:
        """A quick phrase said from ``seat`` (``code`` checked by :func:`phrase_code`; the
        room keeps the last few)."""
        number = self.phrase_n + 1
        phrases = (*self.phrases, Said(number, seat, code))[-KEPT_PHRASES:]
        return replace(self, phrases=phrases, phrase_n=number)

    def mark_ready(self, seat: Seat) -> RoomState:
        """The person in ``seat`` is ready for the next deal."""
        return self._settled(replace(self, ready=self.ready | {seat}))

    def nobody_ready(self) -> RoomState:
        """A new deal began: nobody is ready for the next one any more."""
        return replace(self, ready=frozenset())

    def away(self, seat: Seat, since: float) -> RoomState:
        """The person in ``seat`` has no connection open since ``since`` (unchanged if
        they were already away)."""
        entry = self.seats[seat]
        if not isinstance(entry, PersonSeat) or entry.away is not None:
            return self
        return self._with_seat(seat, replace(entry, away=since))

    def back(self, seat: Seat) -> RoomState:
        """The person in ``seat`` has a connection open again."""
        entry = self.seats[seat]
        if not isinstance(entry, PersonSeat) or entry.away is None:
            return self
        return self._with_seat(seat, replace(entry, away=None, arriving=False))

    def awake(self, seat: Seat) -> RoomState:
        """The person in ``seat`` connected again, or says they are back: not away, and
        the clock's expiries count from none."""
        entry = self.seats[seat]
        if not isinstance(entry, PersonSeat) or (entry.away is None and not entry.misses):
            return self
        return self._with_seat(seat, replace(entry, away=None, misses=0, arriving=False))

    def acted(self, seat: Seat) -> RoomState:
        """The person in ``seat`` acted themselves: the clock's expiries count from none."""
        entry = self.seats[seat]
        if not isinstance(entry, PersonSeat) or not entry.misses:
            return self
        return self._with_seat(seat, replace(entry, misses=0))

    def timed(self, clock: Clock | None) -> RoomState:
        """The action clock set (a person's turn began) or cleared (``None``)."""
        return self if clock == self.clock else replace(self, clock=clock)

    def lapse(self, clock: Clock) -> RoomState:
        """``clock`` ran out: a computer player makes that action for its seat, one more
        expiry in a row for its person (unchanged if the room's clock is another, or ran
        out already: another process saw it first)."""
        if self.clock != clock or clock.lapsed:
            return self
        state = replace(self, clock=replace(clock, lapsed=True))
        entry = self.seats[clock.seat]
        if isinstance(entry, PersonSeat):
            state = state._with_seat(clock.seat, replace(entry, misses=entry.misses + 1))
        return state

    # -- saved --

    def to_json(self) -> dict[str, Any]:
        """The state as saved: one JSON object (``seats`` by seat code, each with its
        ``kind`` — open, human, computer —, ``name``, ``token``, ``away``)."""
        return (
            {
                "settings": self.settings.to_json(),
                "creator": self.creator,
                "seats": {seat.name: _seat_to_json(entry) for seat, entry in self.items()},
                "started": self.started,
                "ready": sorted(seat.name for seat in self.ready),
                "phrases": [
                    {"n": said.n, "seat": said.seat.name, "code": said.code}
                    for said in self.phrases
                ],
                "phrase_n": self.phrase_n,
            }
            | self._offer_json()
            | ({"clock": self.clock.to_json()} if self.clock else {})
        )

    def _offer_json(self) -> dict[str, Any]:
        """The offer of a new game, saved only while there is one (or a decline to tell)."""
        offers = {"offers": sorted(s.name for s in self.offers), "offer_match": self.offer_match}
        declined = {"declined": self.declined.name} if self.declined is not None else {}
        return (offers if self.offers else {}) | declined

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoomState:
        """The state as saved (:meth:`to_json`; the fields added over time may be
        missing)."""
        seats = data["seats"]
        one, two, three, four = (_seat_from_json(seats[seat.name]) for seat in Seat)
        return cls(
            settings=RoomSettings.from_json(data["settings"]),
            seats=(one, two, three, four),
            creator=data.get("creator"),
            started=bool(data.get("started", False)),
            ready=frozenset(Seat[code] for code in data.get("ready", ())),
            phrases=tuple(
                Said(int(said["n"]), Seat[said["seat"]], str(said["code"]))
                for said in data.get("phrases", ())
            ),
            phrase_n=int(data.get("phrase_n", 0)),
            clock=Clock.from_json(data.get("clock")),
            offers=frozenset(Seat[code] for code in data.get("offers", ())),
            offer_match=data.get("offer_match"),
            declined=Seat[data["declined"]] if data.get("declined") else None,
        )


__all__ = [
    "AGAIN_TARGET",
    "CODE_ALPHABET",
    "IDLE_MISSES",
    "KEPT_PHRASES",
    "MAX_NAME",
    "PHRASES",
    "QUICK_GRACE",
    "Clock",
    "ComputerSeat",
    "OpenSeat",
    "PersonSeat",
    "RoomSeat",
    "RoomSettings",
    "RoomState",
    "Said",
    "clean_name",
    "new_code",
    "normal_code",
    "phrase_code",
]
