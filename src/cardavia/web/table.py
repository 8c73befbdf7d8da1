"""The table service: games where South is a person and the other three seats are computer
players, played through the engine on the server (docs/web.md).

- :func:`build_view` is what the browser is sent: South's :class:`Observation` and the
  match's public score, nothing of the other hands until the deal is over.
- :func:`parse_action` turns a client's JSON into an engine action for South; anything
  malformed is a :class:`ClientError` with a code the player's language words.
- :class:`TableService` creates and loads games, applies South's actions (checked by the
  engine, saved, then sent to every open connection of the game), and plays the computer
  seats one action at a time with a short pause, their decisions made in a worker thread so
  that the server never freezes. Actions on one game are serialised by its lock; an error in
  one game is reported to that game's players only.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
import random
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from cardavia.ai.player import Player, find_player, player_levels
from cardavia.ai.pool import DecisionPool
from cardavia.belote import (
    CAPOT,
    DECKS,
    GENERALE,
    PRESETS,
    Action,
    Bid,
    Coinche,
    CompletedTrick,
    DealState,
    Match,
    Observation,
    Pass,
    Play,
    Reason,
    Record,
    Seat,
    Strain,
    Surcoinche,
    Take,
    best_announcements,
    card_code,
    deck_from_seed,
    find_rules,
    parse_bid_value,
    parse_card,
    seed_hash,
)
from cardavia.belote import parse_action as parse_notation
from cardavia.store.db import (
    Append,
    GameStore,
    StaleGameError,
    StoredGame,
    StoreUnavailableError,
    action_event,
    deal_event,
    new_token,
    token_matches,
)
from cardavia.web.bus import LocalBus
from cardavia.web.computer import computer_decision
from cardavia.web.i18n import Catalogs, Wording, is_language
from cardavia.web.limits import Limits, WorkBudget
from cardavia.web.turns import PeopleFirst
from cardavia.web.writer import GameWriter

log = logging.getLogger(__name__)

HUMAN: Final = Seat.S
"""The person's seat: South, at the bottom of the table (docs/rules.md 2)."""
SEAT_CODES: Final = ("N", "E", "S", "W")
TEAM_CODES: Final = ("NS", "EW")
BID_VALUE_CODES: Final = {CAPOT: "capot", GENERALE: "generale"}
DEFAULT_AI_DELAY: Final = (0.4, 0.9)
"""The computer players' pause before each action, in seconds (a range: it varies)."""
MAX_MESSAGE_BYTES: Final = 4096
"""The longest client message accepted; a real one is under 200 bytes."""
FAIR_ALGORITHM: Final = "cardavia-deck/1"
"""How a deck is derived from its seed (docs/fair-deals.md)."""
SEED_BYTES: Final = 32
ACTION_KINDS: Final = ("pass", "take", "bid", "coinche", "surcoinche", "play")
_ACTION_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "pass": frozenset({"kind"}),
    "coinche": frozenset({"kind"}),
    "surcoinche": frozenset({"kind"}),
    "take": frozenset({"kind", "strain"}),
    "bid": frozenset({"kind", "value", "strain"}),
    "play": frozenset({"kind", "card", "announce", "belote"}),
}
_REQUIRED_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "take": ("strain",),
    "bid": ("value", "strain"),
    "play": ("card",),
}


class ClientError(Exception):
    """A message refused: a code (see :data:`cardavia.web.i18n.ERRORS` and
    :data:`~cardavia.web.i18n.REASONS`) and its arguments, worded in the player's language
    when it is sent. Nothing has changed when one is raised."""

    def __init__(
        self,
        code: str,
        args: Mapping[str, str | int] | None = None,
        *,
        reason: Reason | None = None,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.args_ = dict(args or {})
        self.reason = reason

    @classmethod
    def refused(cls, reason: Reason) -> ClientError:
        """The engine's refusal of an action."""
        return cls(reason.code, dict(reason.args), reason=reason)

    def message(self, wording: Wording, deck: str) -> dict[str, Any]:
        """The ``error`` message of the protocol, in ``wording``'s language."""
        if self.reason is not None:
            text = wording.reason(self.reason, deck)
        else:
            text = wording.error(self.code, self.args_)
        return {"type": "error", "code": self.code, "message": text, "args": self.args_}


_SURROGATES: Final = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` with every lone surrogate (which UTF-8 cannot encode) replaced by U+FFFD, so
    that whatever a client sent can be echoed back."""
    return _SURROGATES.sub("\ufffd", text)


def _short(value: object, limit: int = 24) -> str:
    """A client's value, cut short, to be echoed in an error message (always encodable)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def dump_message(message: Mapping[str, Any]) -> str:
    """A message as JSON text that UTF-8 can always encode: should a lone surrogate have
    slipped into it, it is written as a ``\\u`` escape rather than fail. Written by orjson
    (a view in 2 µs rather than the standard library's 20: every change of every table is
    written once per language and seat), the standard library being the fallback."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError: a lone surrogate, a key that is not text
        return json.dumps(message, separators=(",", ":"))


# -- reading the client's messages -----------------------------------------------------------


def decode_message(text: str | bytes, *, limit: int = MAX_MESSAGE_BYTES) -> dict[str, Any]:
    """A client message as a JSON object: ``too_large`` past ``limit`` bytes, ``bad_json``
    if it is not JSON, ``not_an_object`` if it is JSON but not an object."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise ClientError("too_large", {"count": limit})
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ClientError("bad_json") from None
    if not isinstance(data, dict):
        raise ClientError("not_an_object")
    return data


def _check_fields(data: Mapping[str, Any], allowed: frozenset[str]) -> None:
    for key in data:
        if key not in allowed:
            raise ClientError("unknown_field", {"field": _short(key)})


def _strain(value: object) -> Strain:
    if not isinstance(value, str):
        raise ClientError("unknown_strain", {"strain": _short(value)})
    try:
        return Strain.parse(value)
    except ValueError:
        raise ClientError("unknown_strain", {"strain": _short(value)}) from None


def _bid_value(value: object) -> int:
    if isinstance(value, bool):
        raise ClientError("bad_bid_value", {"value": _short(value)})
    if isinstance(value, int):
        return value
    if isinstance(value, str) and len(value) <= 12:
        try:
            return parse_bid_value(value)
        except ValueError:
            pass
    raise ClientError("bad_bid_value", {"value": _short(value)})


def _flag(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise ClientError("bad_field", {"field": name})
    return value


def parse_action(data: object, *, seat: Seat = HUMAN) -> Action:
    """The engine action of the protocol's ``action`` object, for ``seat`` (the token's seat:
    the client never names one). Whether the action is allowed is the engine's business; this
    only reads it."""
    if not isinstance(data, dict):
        raise ClientError("bad_field", {"field": "action"})
    kind = data.get("kind")
    if kind is None:
        raise ClientError("missing_field", {"field": "kind"})
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise ClientError("unknown_kind", {"kind": _short(kind)})
    _check_fields(data, _ACTION_FIELDS[kind])
    for name in _REQUIRED_FIELDS.get(kind, ()):
        if name not in data:
            raise ClientError("missing_field", {"field": name})
    if kind == "pass":
        return Pass(seat)
    if kind == "coinche":
        return Coinche(seat)
    if kind == "surcoinche":
        return Surcoinche(seat)
    if kind == "take":
        return Take(seat, _strain(data["strain"]))
    if kind == "bid":
        return Bid(seat, _bid_value(data["value"]), _strain(data["strain"]))
    code = data["card"]
    if not isinstance(code, str) or len(code) > 4:
        raise ClientError("unknown_card", {"card": _short(code)})
    try:
        card = parse_card(code)
    except ValueError:
        raise ClientError("unknown_card", {"card": _short(code)}) from None
    return Play(seat, card, announce=_flag(data, "announce"), belote=_flag(data, "belote"))


# -- what the browser is sent ----------------------------------------------------------------


def _bid_value_json(value: int | None) -> int | str | None:
    if value is None:
        return None
    return BID_VALUE_CODES.get(value, value)


def encode_action(action: Action) -> dict[str, Any]:
    """An action as the protocol writes it (the seat left out: it is the token's)."""
    if isinstance(action, Play):
        item: dict[str, Any] = {"kind": "play", "card": card_code(action.card)}
        if action.announce:
            item["announce"] = True
        if action.belote:
            item["belote"] = True
        return item
    if isinstance(action, Take):
        return {"kind": "take", "strain": action.strain.code}
    if isinstance(action, Bid):
        return {"kind": "bid", "value": _bid_value_json(action.value), "strain": action.strain.code}
    if isinstance(action, Coinche):
        return {"kind": "coinche"}
    if isinstance(action, Surcoinche):
        return {"kind": "surcoinche"}
    return {"kind": "pass"}


def _by_team(values: tuple[int, int] | list[int]) -> dict[str, int]:
    return {"NS": values[0], "EW": values[1]}


def _plays(plays: tuple[tuple[Seat, int], ...]) -> list[dict[str, str]]:
    return [{"seat": SEAT_CODES[seat], "card": card_code(card)} for seat, card in plays]


def _trick(trick: CompletedTrick) -> dict[str, Any]:
    return {
        "leader": SEAT_CODES[trick.leader],
        "cards": _plays(trick.plays),
        "winner": SEAT_CODES[trick.winner],
        "points": trick.points,
    }


def _bid_entry(action: Action, wording: Wording, deck: str) -> dict[str, Any]:
    entry = {"seat": SEAT_CODES[action.seat], **encode_action(action)}
    strain = entry.get("strain")
    value = action.value if isinstance(action, Bid) else None
    entry["text"] = wording.bid(entry["kind"], strain=strain, value=value, deck=deck)
    return entry


def refusals(observation: Observation, wording: Wording) -> dict[str, dict[str, Any]]:
    """Why each card of the hand that may not be played now is refused, when it is this
    seat's turn to play; worked out from the observation alone (the seat's hand and the trick
    on the table) by :meth:`~cardavia.belote.Observation.card_choice`."""
    if not observation.is_my_turn_to_play:
        return {}
    choice = observation.card_choice()
    reason = choice.reason
    return {
        card_code(card): {
            "code": reason.code,
            "message": wording.reason(reason, observation.rules.deck),
            "args": dict(reason.args),
        }
        for card in choice.refused
    }


def _result(observation: Observation, wording: Wording) -> dict[str, Any] | None:
    result = observation.result
    if result is None:
        return None
    names = iter(observation.revealed)
    lines = []
    for line in result.lines:
        args: dict[str, object] = {}
        if line.code == "capot":
            # The capot team's card points: the capot under the contract's scale.
            args["points"] = result.card_points[result.capot] if result.capot is not None else 0
        elif line.code == "announcement":
            seat, item = next(names, (None, None))
            if seat is not None and item is not None:
                args = {"name": wording.announcement(item.name), "seat": wording.seat(seat.name)}
        elif line.code == "multiplier":
            args["multiplier"] = result.multiplier
        elif line.code == "reserve":
            args["points"] = result.reserve
        lines.append(
            {
                "code": line.code,
                "text": wording.score_line(line.code, line.text, **args),
                "NS": line.ns,
                "EW": line.ew,
            }
        )
    return {
        "scores": _by_team(result.scores),
        "made": result.made,
        "card_points": _by_team(result.card_points),
        "belote": _by_team(result.belote),
        "announcements": _by_team(result.announcements),
        "capot": TEAM_CODES[result.capot] if result.capot is not None else None,
        "multiplier": result.multiplier,
        "reserve": result.reserve,
        "lines": lines,
    }


def _deal_outcome(deal: DealState) -> dict[str, Any]:
    if deal.result is None:
        return {"NS": 0, "EW": 0, "outcome": "cancelled"}
    verdict = {True: "made", False: "failed", None: "litige"}[deal.result.made]
    return {**_by_team(deal.result.scores), "outcome": verdict}


def _match(match: Match) -> dict[str, Any]:
    """The score sheet: public, so it is read from the match rather than an observation."""
    return {
        "scores": _by_team(match.scores),
        "target": match.rules.target,
        "reserve": match.reserve,
        "deals": [_deal_outcome(deal) for deal in match.deals if deal.is_over],
        "winner": TEAM_CODES[match.winner] if match.winner is not None else None,
        "over": match.is_over,
    }


def _replay(deal: DealState) -> dict[str, Any] | None:
    """Every hand as dealt and every trick: shown only once the deal is over."""
    if not deal.is_over:
        return None
    hands = deal.dealt_hands()
    return {
        "hands": {SEAT_CODES[seat]: hands[seat].codes() for seat in Seat},
        "tricks": [_trick(trick) for trick in deal.tricks],
    }


@dataclass(frozen=True, slots=True)
class Commitment:
    """How a deal was shuffled (docs/fair-deals.md): its secret seed and the seed's hash,
    shown before the deal; the seed is shown once the deal is over."""

    seed: str
    """The seed, in hexadecimal: never sent before the deal is over."""
    hash: str


def new_commitment(seed: bytes) -> tuple[Commitment, tuple[int, ...]]:
    """The commitment of a seed and the deck it deals."""
    return Commitment(seed.hex(), seed_hash(seed)), deck_from_seed(seed)


def event_seed(text: str) -> str | None:
    """The seed a deal event of the store carries (events of games saved before deals were
    seeded carry none)."""
    try:
        seed = json.loads(text).get("seed")
    except (ValueError, AttributeError):
        return None
    return seed if isinstance(seed, str) else None


def commitment_of(seed: str) -> Commitment:
    """The commitment of a seed kept in hexadecimal."""
    return Commitment(seed, seed_hash(bytes.fromhex(seed)))


def _fair(deal: DealState, commitment: Commitment | None) -> dict[str, Any] | None:
    """The view's ``fair``: the hash of the deal's seed from the start; the seed and the deck
    as dealt once the deal is over, for the player to check; ``None`` for a deal dealt
    before the site committed to its shuffles."""
    if commitment is None:
        return None
    over = deal.is_over
    return {
        "algorithm": FAIR_ALGORITHM,
        "hash": commitment.hash,
        "seed": commitment.seed if over else None,
        "deck": [card_code(card) for card in deal.deck] if over else None,
    }


def build_view(
    match: Match,
    wording: Wording,
    *,
    seat: Seat = HUMAN,
    game_id: str = "",
    level: str = "",
    commitment: Commitment | None = None,
) -> dict[str, Any]:
    """The ``View`` of docs/web.md: what ``seat`` may know of the current deal, built from
    :meth:`DealState.observation` only, plus the match's public score sheet, the hash of the
    deal's shuffle and, once the deal is over, its replay and seed."""
    deal = match.deal
    observation = deal.observation(seat)
    return view_of(observation, wording, game_id=game_id, level=level) | {
        "match": _match(match),
        "deal_number": len(match.deals),
        "next_deal": deal.is_over and not match.is_over,
        "replay": _replay(deal),
        "fair": _fair(deal, commitment),
    }


def view_of(
    observation: Observation, wording: Wording, *, game_id: str = "", level: str = ""
) -> dict[str, Any]:
    """The part of the view that is one seat's observation of the deal."""
    obs = observation
    rules = obs.rules
    deck = rules.deck
    contract = obs.contract
    tricks_won = [0, 0]
    for trick in obs.tricks:
        tricks_won[trick.winner & 1] += 1
    my_turn_to_announce = any(isinstance(a, Play) and a.announce for a in obs.legal_actions)
    proposed = (
        best_announcements(obs.hand.mask, contract.strain)
        if my_turn_to_announce and contract is not None
        else ()
    )
    return {
        "game": game_id,
        "level": level,
        "lang": wording.lang,
        "seat": SEAT_CODES[obs.seat],
        # The preset: a deck other than the preset's is a presentation choice ("maison+").
        "rules": rules.name.rstrip("+"),
        "deck": deck,
        "phase": obs.phase.value,
        "step": len(obs.history),
        "dealer": SEAT_CODES[obs.dealer],
        "to_move": SEAT_CODES[obs.to_move] if obs.to_move is not None else None,
        "hand": obs.hand.codes(),
        "hand_sizes": {SEAT_CODES[s]: obs.hand_sizes[s] for s in Seat},
        "turned": card_code(obs.turned_card) if obs.turned_card is not None else None,
        "bids": [_bid_entry(a, wording, deck) for a in obs.history if not isinstance(a, Play)],
        "contract": (
            {
                "taker": SEAT_CODES[contract.taker],
                "strain": contract.strain.code,
                "strain_name": wording.strain(contract.strain.code, deck),
                "bid": _bid_value_json(contract.bid),
                "coinche": contract.coinche,
            }
            if contract is not None
            else None
        ),
        "trick": _plays(obs.trick),
        "last_trick": _trick(obs.tricks[-1]) if obs.tricks else None,
        "tricks_won": _by_team(tricks_won),
        "points": _by_team(obs.points),
        "declarations": [
            {
                "seat": SEAT_CODES[d.seat],
                "name": d.name,
                "text": wording.announcement(d.name),
                "points": d.points,
            }
            for d in obs.declarations
        ],
        "revealed": [
            {
                "seat": SEAT_CODES[s],
                "name": a.name,
                "text": wording.announcement(a.name),
                "cards": a.card_set.codes(),
                "points": a.points,
            }
            for s, a in obs.revealed
        ],
        "announced": [
            {"name": a.name, "cards": a.card_set.codes(), "points": a.points}
            for a in obs.own_announcements
        ],
        "announce": [
            {
                "name": a.name,
                "text": wording.announcement(a.name),
                "cards": a.card_set.codes(),
                "points": a.points,
            }
            for a in proposed
        ],
        "belote": [
            {
                "seat": SEAT_CODES[e.seat],
                "card": card_code(e.card),
                "word": e.word,
                "text": wording.belote(e.word),
            }
            for e in obs.belote_events
        ],
        "legal": [encode_action(a) for a in obs.legal_actions],
        "refusals": refusals(obs, wording),
        "result": _result(obs, wording),
    }


def state_message(view: Mapping[str, Any]) -> dict[str, Any]:
    """The protocol's ``state`` message."""
    return {"type": "state", "view": view}


# -- games in play ---------------------------------------------------------------------------


CLOSE: Final = ""
"""What a connection's queue holds last when it must be closed (it could not keep up)."""


@dataclass(slots=True, eq=False)
class Listener:
    """One open connection to a game: its language and the queue of messages to send it (a
    single writer per connection keeps them in order). The queue is bounded: a connection
    that lets it fill (too slow, or not reading) is sent ``too_slow`` and closed, rather than
    have its messages pile up in the server's memory."""

    wording: Wording
    limit: int = 256
    client: str = ""
    seat: Seat | None = HUMAN
    """The seat this connection plays (its token's); ``None``: a watcher, sent only what is
    public."""
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    close_code: int = 4408
    """The WebSocket close code sent when :data:`CLOSE` is reached (4408: too slow)."""

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message for this connection."""
        self.send_text(dump_message(message))

    def send_text(self, text: str) -> None:
        """Queue a message already written as JSON (:func:`dump_message`)."""
        if self.dropped:
            return
        if self.limit > 0 and self.queue.qsize() >= self.limit:
            self.drop()
            return
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """Give up on this connection: what it has not been sent is forgotten; it is sent
        ``too_slow``, then closed."""
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(dump_message(ClientError("too_slow").message(self.wording, "")))
        self.queue.put_nowait(CLOSE)

    def close(self, code: int) -> None:
        """Close the connection once what is queued has been sent."""
        self.close_code = code
        self.queue.put_nowait(CLOSE)


class TableSeats:
    """Who plays a table's seats, and what each view adds about them: a room's
    (:class:`cardavia.web.rooms.Room`) for a table of several people."""

    def human_plays(self, seat: Seat) -> bool:
        """Whether a person plays ``seat`` now (present, or away for less than the grace
        period); otherwise a computer player plays it."""
        return seat == HUMAN

    def decorate(self, view: dict[str, Any], seat: Seat | None) -> dict[str, Any]:
        """The view of ``seat`` (``None``: a watcher's) with what the room adds to it."""
        return view

    def changed(self, table: Table) -> None:
        """Called after every change of the table's game sent to its connections."""


PRIVATE_FIELDS: Final = ("hand", "legal", "refusals", "announced", "announce")
"""The fields of a seat's view that only that seat may see (a watcher's view leaves them
empty)."""


def public_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """What a watcher may see of a view: everything public, no hand, no choice of action."""
    public = dict(view)
    public["seat"] = None
    for name in PRIVATE_FIELDS:
        public[name] = {} if name == "refusals" else []
    return public


@dataclass(eq=False)
class Table:
    """A game in play on this server: the match, the lock that serialises its actions, the
    connections watching it and the task playing its computer seats. Mutable on purpose:
    it is the one place where the game moves on, under :attr:`lock`."""

    game_id: str
    level: str
    lang: str
    token_hash: str
    match: Match
    revision: int
    players: Mapping[Seat, Player]
    rng: random.Random
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    runner: asyncio.Task[None] | None = None
    commitments: dict[int, Commitment] = field(default_factory=dict)
    """Each deal's shuffle, by the deal's number (1 the first)."""
    client: str = ""
    """Whose work the computer players' decisions count against (:class:`WorkBudget`): the
    client that created the game, or last connected to it."""
    seats: TableSeats | None = None
    """Who plays which seat, for a room's table (:mod:`cardavia.web.rooms`); ``None``: South
    is the person, the others computer players."""
    remembered: int = 0
    """When the service last opened it (its count of tables opened): the latest stay."""

    def human_plays(self, seat: Seat) -> bool:
        """Whether a person plays ``seat`` now (else a computer player does)."""
        if self.seats is None:
            return seat == HUMAN
        return self.seats.human_plays(seat)

    @property
    def commitment(self) -> Commitment | None:
        """The current deal's shuffle (``None``: dealt before deals were committed to)."""
        return self.commitments.get(len(self.match.deals))

    @property
    def deck(self) -> str:
        """The deck whose names the table uses."""
        return self.match.rules.deck

    def token_matches(self, token: str | None) -> bool:
        """Whether ``token`` is this game's seat token."""
        return token_matches(self.token_hash, token)

    @property
    def is_idle(self) -> bool:
        """Nobody watching, nothing running: the table may be dropped from memory."""
        running = self.runner is not None and not self.runner.done()
        return not self.listeners and not running and not self.lock.locked()


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game just created: its id and the seat token that lets its player act (given once,
    never stored)."""

    game_id: str
    token: str
    seat: str = "S"


def apply_event(match: Match, text: str) -> Match:
    """The match after one event of the store (:func:`~cardavia.store.db.action_event`,
    :func:`~cardavia.store.db.deal_event`), checked by the engine."""
    event = json.loads(text)
    if "deal" in event:
        deal = event["deal"]
        if match.deal.dealer.next.name != deal["dealer"]:
            raise ValueError(f"the dealer is not {deal['dealer']}")
        return match.next_deal_from_deck([parse_card(code) for code in deal["deck"]])
    action = parse_notation(event["action"])
    reason = match.deal.refusal(action)
    if reason is not None:
        raise ValueError(f"{action} refused: {reason.code}")
    return match.apply(action)


def record_json(match: Match) -> str:
    """The record of a match as saved: JSON of :mod:`cardavia.belote.notation`."""
    return Record.from_match(match).to_json()


def restore_match(text: str) -> Match:
    """The match of a saved record, replayed through the engine."""
    return Record.from_json(text).replay()


class TableService:
    """The games of this server process: created, loaded from the store, played."""

    def __init__(
        self,
        store: GameStore,
        catalogs: Catalogs,
        *,
        ai_delay: tuple[float, float] = DEFAULT_AI_DELAY,
        seed: int | None = None,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        cache_size: int = 256,
        limits: Limits | None = None,
        bus: LocalBus | None = None,
        decisions: DecisionPool | None = None,
    ) -> None:
        self.store = store
        self.catalogs = catalogs
        self.ai_delay = (max(0.0, ai_delay[0]), max(0.0, ai_delay[0], ai_delay[1]))
        self.max_message_bytes = max_message_bytes
        self.cache_size = cache_size
        self.limits = limits or Limits()
        self.bus = bus or LocalBus()
        """How the other web processes of the site hear of this one's changes."""
        self.writer = GameWriter(store)
        """The thread that saves the games, every action in a group commit: apart from the
        computer players' decisions, so that a move is never saved behind a queue of them."""
        self.ai_budget = WorkBudget(self.limits.ai_per_client)
        self.decisions = decisions
        """Where the search levels think (every core, or the AI workers); ``None``: a thread."""
        self._seeds: random.Random | None = random.Random(seed) if seed is not None else None
        self.hints: Callable[[Table, str, Seat], Awaitable[dict[str, Any]]] | None = None
        """What answers a ``hint`` message (:meth:`cardavia.web.learn.Learning.hint`)."""
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._remembered = 0
        self._closed = False
        self.people_first = PeopleFirst()
        """The computer players' moves wait while a person's action is handled."""

    # -- randomness --

    def new_rng(self) -> random.Random:
        """The randomness of a new game: the system's in play, a seeded one in tests."""
        if self._seeds is None:
            return secrets.SystemRandom()
        return random.Random(self._seeds.getrandbits(64))

    def new_seed(self, rng: random.Random) -> bytes:
        """The secret seed of a deal's shuffle: the system's secure generator in play,
        ``rng`` (seeded) in tests."""
        if self._seeds is None:
            return secrets.token_bytes(SEED_BYTES)
        return rng.randbytes(SEED_BYTES)

    def _commitments(self, stored: StoredGame, deals: int) -> dict[int, Commitment]:
        """The shuffles of a game of ``deals`` deals: the first deal's seed kept with the
        game, the later ones' in their events (blocking: a thread)."""
        found: dict[int, Commitment] = {}
        if stored.first_seed:
            found[1] = commitment_of(stored.first_seed)
        events = [json.loads(text) for _seq, text in self.store.events_since(stored.id, 0)]
        dealt = [event for event in events if isinstance(event, dict) and "deal" in event]
        for number, event in enumerate(dealt, start=deals - len(dealt) + 1):
            seed = event.get("seed")
            if isinstance(seed, str):
                found[number] = commitment_of(seed)
        return found

    # -- creating and opening games --

    async def create_game(
        self,
        rules: object,
        level: object,
        lang: object,
        deck: object = None,
        *,
        client: str = "",
        target: int | str | None = "preset",
        seats: TableSeats | None = None,
    ) -> NewGame:
        """Start a game: the rules (a preset's name), the computer players' level, the
        language, the deck its cards are named and drawn in (``None``: the preset's; kept in
        the record's rules, docs/rules.md 1); shuffled and saved. Raises :class:`ClientError` for
        an unknown value."""
        if not isinstance(rules, str) or rules not in PRESETS:
            raise ClientError("unknown_rules", {"rules": _short(rules)})
        if not isinstance(level, str) or level not in player_levels():
            raise ClientError("unknown_level", {"level": _short(level)})
        if not is_language(lang):
            raise ClientError("unknown_language", {"lang": _short(lang)})
        assert isinstance(lang, str)
        chosen = find_rules(rules)
        if deck is not None:
            if not isinstance(deck, str) or deck not in DECKS:
                raise ClientError("unknown_deck", {"deck": _short(deck)})
            chosen = chosen.replace(deck=deck)
        if target != "preset":
            # A room's choice: a single deal (None) or another match target.
            chosen = chosen.replace(target=target)
        rng = self.new_rng()
        dealer = rng.choice(tuple(Seat))
        commitment, deck = new_commitment(self.new_seed(rng))
        match = Match.from_deck(chosen, dealer=dealer, deck=deck)
        token = new_token()
        try:
            stored = await self.writer.call(
                functools.partial(
                    self.store.create,
                    rules=rules,
                    level=level,
                    lang=lang,
                    token=token,
                    record=record_json(match),
                    first_seed=commitment.seed,
                )
            )
        except StoreUnavailableError:
            log.warning("a game could not be created: the database is unavailable", exc_info=True)
            raise ClientError("unavailable") from None
        table = self._table(stored, match, rng)
        table.commitments[1] = commitment
        table.client = client
        table.seats = seats
        self._remember(table)
        return NewGame(stored.id, token)

    def _table(self, stored: StoredGame, match: Match, rng: random.Random) -> Table:
        # Every seat has its computer player: in a room, any seat may be handed to one.
        players: dict[Seat, Player] = {seat: find_player(stored.level) for seat in Seat}
        return Table(
            game_id=stored.id,
            level=stored.level,
            lang=stored.lang,
            token_hash=stored.token_hash,
            match=match,
            revision=stored.revision,
            players=players,
            rng=rng,
        )

    async def open(
        self, game_id: str, token: str | None, *, seats: TableSeats | None = None
    ) -> Table:
        """The game of that id, for the holder of its seat token: from memory, or loaded from
        the store and replayed (after a restart). :class:`ClientError` ``game_not_found``,
        ``missing_token`` or ``bad_token``. ``seats``: a room's game, whose seat tokens the
        room has checked (the game's own token is then not asked for)."""
        table = self._tables.get(game_id)
        if table is None:
            try:
                stored = await asyncio.to_thread(self.store.load, game_id)
            except StoreUnavailableError:
                log.warning("game %s: the database is unavailable", game_id, exc_info=True)
                raise ClientError("unavailable") from None
            if stored is None:
                raise ClientError("game_not_found")
            if seats is None:
                self._check_token(stored.token_matches, token)
            table = self._tables.get(game_id)  # loaded meanwhile by another request?
            if table is None:
                try:
                    match = await asyncio.to_thread(restore_match, stored.record)
                    loaded = self._table(stored, match, self.new_rng())
                    loaded.commitments = await asyncio.to_thread(
                        self._commitments, stored, len(match.deals)
                    )
                except Exception:
                    log.exception("game %s cannot be restored", game_id)
                    raise ClientError("internal") from None
                table = self._tables.get(game_id) or loaded
        elif self.bus.distributed:
            # Another process may have moved it on since (its message still on the way).
            async with table.lock:
                if await self._catch_up(table):
                    self.broadcast(table)
        if seats is None:
            self._check_token(table.token_matches, token)
        else:
            table.seats = seats
        self._remember(table)
        return table

    async def on_remote_change(self, game_id: str, revision: int) -> None:
        """Another process saved a game at ``revision``: if this one has it in memory, bring
        it up to date from the store and send it to its connections."""
        table = self._tables.get(game_id)
        if table is None or revision <= table.revision:
            return
        if table.is_idle:
            # Nobody watches it here: forget it rather than follow it (it is loaded afresh,
            # as it stands, when asked for).
            if self._tables.get(game_id) is table:
                del self._tables[game_id]
            return
        async with table.lock:
            changed = await self._catch_up(table)
        if changed:
            self.broadcast(table)
            self.ensure_runner(table)

    async def resync(self) -> None:
        """Bring every table watched here up to date from the store (changes may have been
        missed while the bus was out of reach)."""
        for table in list(self._tables.values()):
            if not table.listeners:
                continue
            async with table.lock:
                changed = await self._catch_up(table)
            if changed:
                self.broadcast(table)
                self.ensure_runner(table)

    async def _catch_up(self, table: Table) -> bool:
        """Apply the events saved since the table's revision (by another process); reload the
        whole game should they not follow on. Answers whether anything changed."""
        try:
            events = await asyncio.to_thread(self.store.events_since, table.game_id, table.revision)
        except StoreUnavailableError:
            log.warning("game %s: the database is unavailable", table.game_id, exc_info=True)
            return False
        if not events:
            return False
        match, revision = table.match, table.revision
        try:
            for seq, text in events:
                if seq != revision + 1:
                    raise ValueError(f"event {seq} after revision {revision}")
                match = apply_event(match, text)
                revision = seq
                seed = event_seed(text)
                if seed is not None:
                    table.commitments[len(match.deals)] = commitment_of(seed)
        except Exception:
            log.warning("game %s: reloaded whole", table.game_id, exc_info=True)
            stored = await asyncio.to_thread(self.store.load, table.game_id)
            if stored is None:
                return False
            match = await asyncio.to_thread(restore_match, stored.record)
            revision = stored.revision
            table.commitments = await asyncio.to_thread(self._commitments, stored, len(match.deals))
        table.match, table.revision = match, revision
        return True

    @staticmethod
    def _check_token(matches: Callable[[str | None], bool], token: str | None) -> None:
        if not token:
            raise ClientError("missing_token")
        if not matches(token):
            raise ClientError("bad_token")

    def _remember(self, table: Table) -> None:
        """Keep the table in memory (most recent last), dropping idle ones past the cache
        size: they are saved, and load again when asked for. The ``cache_size`` tables
        remembered last are kept, and only the oldest 16 are looked at, a table in play going
        to the back: with more tables in play than the cache holds, looking at every one on
        each open cost O(tables), and dropped the games just created (idle until their page
        connects), loaded again from the store at once."""
        self._remembered += 1
        table.remembered = self._remembered
        self._tables[table.game_id] = table
        self._tables.move_to_end(table.game_id)
        excess = len(self._tables) - self.cache_size
        for game_id, old in list(itertools.islice(self._tables.items(), max(0, min(excess, 16)))):
            if not old.is_idle:
                self._tables.move_to_end(game_id)  # in play: not one to drop
            elif old.remembered > self._remembered - self.cache_size:
                break  # remembered lately (a game just created): kept
            else:
                del self._tables[game_id]

    # -- views and connections --

    def wording(self, lang: str) -> Wording:
        """The words of a language."""
        return self.catalogs.wording(lang)

    def view(self, table: Table, lang: str, seat: Seat | None = HUMAN) -> dict[str, Any]:
        """The view of ``seat`` (South by default; ``None``: a watcher's, public only), in
        ``lang``."""
        view = build_view(
            table.match,
            self.wording(lang),
            seat=HUMAN if seat is None else seat,
            game_id=table.game_id,
            level=table.level,
            commitment=table.commitment,
        )
        if seat is None:
            view = public_view(view)
        if table.seats is not None:
            view = table.seats.decorate(view, seat)
        return view

    def listen(
        self, table: Table, lang: str, *, client: str = "", seat: Seat | None = HUMAN
    ) -> Listener:
        """Open a connection to a game: it is sent the current state at once, then every
        change. :class:`ClientError` ``too_many_sockets`` past the limit of connections to
        one game."""
        limit = self.limits.sockets_per_game
        if limit > 0 and len(table.listeners) >= limit:
            raise ClientError("too_many_sockets")
        listener = Listener(
            self.wording(lang), limit=self.limits.queue_messages, client=client, seat=seat
        )
        if client:
            table.client = client
        table.listeners.add(listener)
        listener.send(state_message(self.view(table, lang, seat)))
        return listener

    def unlisten(self, table: Table, listener: Listener) -> None:
        """Close a connection to a game."""
        table.listeners.discard(listener)

    def broadcast(self, table: Table) -> None:
        """Send the new state to every connection: each language's view built and written
        as JSON once per change, whatever the number of connections."""
        texts: dict[tuple[str, Seat | None], str] = {}
        for listener in list(table.listeners):
            key = (listener.wording.lang, listener.seat)
            if key not in texts:
                texts[key] = dump_message(state_message(self.view(table, *key)))
            listener.send_text(texts[key])
        if table.seats is not None:
            table.seats.changed(table)

    # -- messages --

    async def handle_text(self, table: Table, listener: Listener, text: str | bytes) -> None:
        """Handle one client message: an error goes back to that connection only, and
        leaves the game as it was."""
        try:
            data = decode_message(text, limit=self.max_message_bytes)
            kind = data.get("type")
            if kind == "action":
                _check_fields(data, frozenset({"type", "action"}))
                if "action" not in data:
                    raise ClientError("missing_field", {"field": "action"})
                if listener.seat is None:
                    raise ClientError("watching")
                await self.act(table, parse_action(data["action"], seat=listener.seat))
            elif kind == "next_deal":
                _check_fields(data, frozenset({"type"}))
                await self.next_deal(table)
            elif kind == "hint":
                _check_fields(data, frozenset({"type"}))
                if self.hints is None or listener.seat is None:
                    # No hints without the learning routes, nor for a watcher (no seat).
                    raise ClientError("unknown_type", {"type": "hint"})
                listener.send(await self.hints(table, listener.wording.lang, listener.seat))
            elif kind == "sync":
                _check_fields(data, frozenset({"type"}))
                lang = listener.wording.lang
                listener.send(state_message(self.view(table, lang, listener.seat)))
                self.ensure_runner(table)  # the computer players stopped on an error?
            elif kind is None:
                raise ClientError("missing_field", {"field": "type"})
            else:
                raise ClientError("unknown_type", {"type": _short(kind)})
        except ClientError as error:
            listener.send(error.message(listener.wording, table.deck))
        except Exception:
            log.exception("game %s: a message failed", table.game_id)
            listener.send(ClientError("internal").message(listener.wording, table.deck))

    async def act(self, table: Table, action: Action) -> None:
        """Apply a player's action if the engine allows it: save, tell every connection, then
        let the computer players answer. :class:`ClientError` with the engine's reason
        otherwise."""
        with self.people_first.person_acting():
            async with table.lock:
                reason = table.match.deal.refusal(action)
                if reason is not None:
                    raise ClientError.refused(reason)
                match, event = table.match.apply(action), action_event(str(action))
                await self._commit(table, match, event, person=True)
        self.ensure_runner(table)

    async def next_deal(self, table: Table) -> None:
        """Deal the next deal of a match (or a new one after a cancelled single deal)."""
        with self.people_first.person_acting():
            async with table.lock:
                match = table.match
                if not match.deal.is_over:
                    raise ClientError("deal_not_over")
                if match.is_over:
                    raise ClientError("match_over")
                commitment, deck = new_commitment(self.new_seed(table.rng))
                number = len(match.deals) + 1
                match = match.next_deal_from_deck(deck)
                deal = match.deal
                event = deal_event(
                    deal.dealer.name, [card_code(card) for card in deal.deck], commitment.seed
                )
                table.commitments[number] = commitment
                try:
                    await self._commit(table, match, event, person=True)
                except ClientError:
                    if table.commitments.get(number) is commitment:
                        del table.commitments[number]
                    raise
        self.ensure_runner(table)

    async def _commit(
        self, table: Table, match: Match, event: str, *, person: bool = False
    ) -> None:
        """Append the event that made the new match to the game's record (one short
        transaction: the record is not rewritten), then make it the table's and send it. If
        the save fails nothing changes; if another server moved the game on, it is
        reloaded. ``person``: a person's action, saved ahead of the computer players'."""
        try:
            revision = await self.writer.append(
                Append(table.game_id, event, table.revision, finished=match.is_over),
                first=person,
            )
        except StoreUnavailableError:
            log.warning("game %s: the database is unavailable", table.game_id, exc_info=True)
            raise ClientError("unavailable") from None
        except StaleGameError:
            if await self._catch_up(table):
                self.broadcast(table)
            raise ClientError("stale") from None
        table.match = match
        table.revision = revision
        self.broadcast(table)
        await self.bus.publish(table.game_id, revision)

    # -- the computer players --

    def ensure_runner(self, table: Table) -> None:
        """Make sure the computer seats play if it is their turn (after an action, a new
        deal, a connection, a restart)."""
        if self._closed or (table.runner is not None and not table.runner.done()):
            return
        if _computer_to_move(table) is None:
            return
        table.runner = asyncio.get_running_loop().create_task(self._run(table))

    def _pause(self, table: Table) -> float:
        low, high = self.ai_delay
        return low if high <= low else table.rng.uniform(low, high)

    async def _run(self, table: Table) -> None:
        """Play the computer seats until it is South's turn or the deal is over: each action
        after a short pause, its decision made from the seat's observation only (the search
        levels' on the pool's cores), after any person's action under way (people first)."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with table.lock:
                    match = table.match
                    seat = _computer_to_move(table)
                    if seat is None:
                        return
                    observation = match.deal.observation(seat)
                if not await self.bus.claim(table.game_id):
                    # Another process plays this table's computer seats: its changes arrive
                    # by the bus; should it die, its lease runs out and this one takes over.
                    await asyncio.sleep(self.bus.retry_seconds)
                    continue
                started = loop.time()
                # People first: under load, a person's action goes ahead of this move (the
                # wait is part of the pause).
                await self.people_first.computer_turn()
                action = await self._decide(table, seat, observation)
                await asyncio.sleep(max(0.0, self._pause(table) - (loop.time() - started)))
                async with table.lock:
                    if table.match is not match or table.human_plays(seat):
                        continue  # the game moved on meanwhile (or its player is back)
                    try:
                        await self._commit(table, match.apply(action), action_event(str(action)))
                    except ClientError as error:
                        if error.code != "stale":
                            raise
                        continue  # moved on by another process: caught up, think again
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("game %s: the computer players stopped", table.game_id)
            code = error.code if isinstance(error, ClientError) else "internal"
            for listener in list(table.listeners):
                listener.send(ClientError(code).message(listener.wording, table.deck))
        finally:
            # Stopped: a new runner may start at once, while this one gives its lease up.
            if table.runner is asyncio.current_task():
                table.runner = None
            if self.bus.distributed:
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.bus.release(table.game_id))

    async def _decide(self, table: Table, seat: Seat, observation: Observation) -> Action:
        """The computer player's action; should it fail or choose something illegal, the
        first legal action instead (logged), so that the game never stalls."""
        try:
            async with self.ai_budget.slot(table.client):
                action = await computer_decision(
                    self.decisions,
                    table.level,
                    table.players[seat],
                    observation,
                    table.rng,
                    match_scores=table.match.scores,
                )
        except Exception:
            log.exception("game %s: the %s player failed", table.game_id, seat.name)
            action = None
        if action is None or action not in observation.legal_actions:
            if action is not None:
                log.error("game %s: the %s player chose %s", table.game_id, seat.name, action)
            action = observation.legal_actions[0]
        return action

    async def close(self) -> None:
        """Stop every computer player (the games are saved after each action)."""
        self._closed = True
        runners = [t.runner for t in self._tables.values() if t.runner and not t.runner.done()]
        for runner in runners:
            runner.cancel()
        for runner in runners:
            with contextlib.suppress(BaseException):
                await runner
        self.writer.shutdown()
        if self.decisions is not None:
            await self.decisions.close()


def _computer_to_move(table: Table) -> Seat | None:
    """The computer seat to act now, or ``None`` (a person's turn, or the deal is over)."""
    deal = table.match.deal
    if deal.is_over or deal.to_move is None or table.human_plays(deal.to_move):
        return None
    return deal.to_move


__all__ = [
    "HUMAN",
    "ClientError",
    "Listener",
    "NewGame",
    "Table",
    "TableSeats",
    "TableService",
    "build_view",
    "decode_message",
    "encode_action",
    "parse_action",
    "public_view",
    "refusals",
    "view_of",
]
