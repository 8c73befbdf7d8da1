"""The messages of the site's WebSocket protocol and API (docs/web.md, "Protocol"): read once,
checked once, refused one way.

- :class:`ClientError`: the one error a client is sent (a code, its arguments), worded in the
  player's language when it is sent; nothing has changed when one is raised.
- :func:`decode_message` reads a client's text once; :class:`Message` is the result, a kind
  and its fields, checked against the fields that kind allows (:func:`check_fields`).
- :func:`echo` is the one way a client's value is written back in an error.
- :func:`parse_action` and :func:`encode_action`: an engine action from and to the protocol.
- :class:`Dispatcher`: which handler answers each kind of a connection's messages. The
  table's kinds (``action``, ``next_deal``, ``hint``, ``sync``) are one dispatcher; a room
  builds its own on them (:meth:`Dispatcher.include`) and adds its kinds, so that a room's
  message too is decoded once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

import orjson

from cardavia.belote import (
    CAPOT,
    GENERALE,
    Action,
    Bid,
    Coinche,
    Pass,
    Play,
    Reason,
    Seat,
    Strain,
    Surcoinche,
    Take,
    card_code,
    parse_bid_value,
    parse_card,
)
from cardavia.live.limits import MAX_MESSAGE_BYTES
from cardavia.metrics import refused
from cardavia.words import Wording

ECHO_LENGTH: Final = 24
"""The most characters of a client's value written back in an error message."""
SEAT_CODES: Final = ("N", "E", "S", "W")
"""The seats as the protocol writes them, in the engine's order."""
BID_VALUE_CODES: Final = {CAPOT: "capot", GENERALE: "generale"}
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
        """The ``error`` message of the protocol, in ``wording``'s language (counted as
        refused: :func:`cardavia.metrics.refused`)."""
        refused(self.code)
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


def echo(value: object, limit: int = ECHO_LENGTH) -> str:
    """A client's value as an error message writes it back: text as it is, anything else as
    JSON, always encodable, cut short past ``limit`` characters.

    >>> echo("spades"), echo(12), echo("x" * 30)
    ('spades', '12', 'xxxxxxxxxxxxxxxxxxxxxxx…')
    """
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


def check_fields(data: Mapping[str, Any], allowed: Iterable[str]) -> None:
    """The one field check: ``unknown_field`` for the first key of ``data`` not ``allowed``."""
    known = frozenset(allowed)
    for key in data:
        if key not in known:
            raise ClientError("unknown_field", {"field": echo(key)})


def require(data: Mapping[str, Any], *names: str) -> None:
    """``missing_field`` for the first of ``names`` that ``data`` lacks."""
    for name in names:
        if name not in data:
            raise ClientError("missing_field", {"field": name})


def seat_field(value: object, name: str = "seat") -> Seat:
    """A seat the client named (``"N"``…), ``bad_field`` otherwise."""
    if not isinstance(value, str) or value not in SEAT_CODES:
        raise ClientError("bad_field", {"field": name})
    return Seat[value]


def _strain(value: object) -> Strain:
    if not isinstance(value, str):
        raise ClientError("unknown_strain", {"strain": echo(value)})
    try:
        return Strain.parse(value)
    except ValueError:
        raise ClientError("unknown_strain", {"strain": echo(value)}) from None


def _bid_value(value: object) -> int:
    if isinstance(value, bool):
        raise ClientError("bad_bid_value", {"value": echo(value)})
    if isinstance(value, int):
        return value
    if isinstance(value, str) and len(value) <= 12:
        try:
            return parse_bid_value(value)
        except ValueError:
            pass
    raise ClientError("bad_bid_value", {"value": echo(value)})


def _flag(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise ClientError("bad_field", {"field": name})
    return value


def parse_action(data: object, *, seat: Seat) -> Action:
    """The engine action of the protocol's ``action`` object, for ``seat`` (the token's seat:
    the client never names one). Whether the action is allowed is the engine's business; this
    only reads it."""
    if not isinstance(data, dict):
        raise ClientError("bad_field", {"field": "action"})
    kind = data.get("kind")
    if kind is None:
        raise ClientError("missing_field", {"field": "kind"})
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise ClientError("unknown_kind", {"kind": echo(kind)})
    check_fields(data, _ACTION_FIELDS[kind])
    require(data, *_REQUIRED_FIELDS.get(kind, ()))
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
        raise ClientError("unknown_card", {"card": echo(code)})
    try:
        card = parse_card(code)
    except ValueError:
        raise ClientError("unknown_card", {"card": echo(code)}) from None
    return Play(seat, card, announce=_flag(data, "announce"), belote=_flag(data, "belote"))


def bid_value_json(value: int | None) -> int | str | None:
    """A bid's value as the protocol writes it (``"capot"``, ``"generale"``, a number)."""
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
        return {"kind": "bid", "value": bid_value_json(action.value), "strain": action.strain.code}
    if isinstance(action, Coinche):
        return {"kind": "coinche"}
    if isinstance(action, Surcoinche):
        return {"kind": "surcoinche"}
    return {"kind": "pass"}


def state_message(view: Mapping[str, Any]) -> dict[str, Any]:
    """The protocol's ``state`` message."""
    return {"type": "state", "view": view}


# -- one dispatcher of a connection's messages -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Message:
    """A client's message, decoded and checked: its ``type`` and its fields (``type``
    included)."""

    kind: str
    data: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        """A field the kind requires (``missing_field`` if absent)."""
        require(self.data, name)
        return self.data[name]

    def get(self, name: str, default: Any = None) -> Any:
        """A field, or ``default``."""
        return self.data.get(name, default)


C = TypeVar("C")
"""What a handler is given with the message: the connection and what it is connected to."""
D = TypeVar("D")
Handler = Callable[[C, Message], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class _Kind(Generic[C]):
    fields: frozenset[str]
    required: tuple[str, ...]
    handler: Callable[[C, Message], Awaitable[None]]


class Dispatcher(Generic[C]):
    """The kinds of message a connection may send and the handler of each: a message is
    decoded once (:func:`decode_message`), its ``type`` looked up (``missing_field``,
    ``unknown_type``), its fields checked (:func:`check_fields`, then the required ones),
    then given to its handler with the connection's context ``C``."""

    def __init__(self, *, limit: int = MAX_MESSAGE_BYTES) -> None:
        self.limit = limit
        self._kinds: dict[str, _Kind[C]] = {}

    @property
    def kinds(self) -> frozenset[str]:
        """The kinds answered."""
        return frozenset(self._kinds)

    def on(
        self,
        kind: str,
        handler: Callable[[C, Message], Awaitable[None]],
        *,
        fields: Iterable[str] = (),
        required: Iterable[str] = (),
    ) -> None:
        """Answer ``kind`` with ``handler``; its message may carry ``fields`` besides
        ``type`` and must carry ``required``. A later ``on`` for a kind replaces it."""
        needed = tuple(required)
        allowed = frozenset({"type", *fields, *needed})
        self._kinds[kind] = _Kind(allowed, needed, handler)

    def include(self, other: Dispatcher[D], context: Callable[[C], Awaitable[D]]) -> None:
        """Answer ``other``'s kinds too, each handler given the context ``context`` turns
        this dispatcher's into (a room's connection into its table's, say: it may raise
        :class:`ClientError`, ``not_started``). Each is ``other``'s handler of the moment:
        one given there later (a tournament's ``next_deal``) answers here too."""
        for kind, entry in other._kinds.items():
            self._kinds[kind] = _Kind(entry.fields, entry.required, _via(other, kind, context))

    def guard(self, kinds: Iterable[str], check: Callable[[C, Message], Awaitable[None]]) -> None:
        """Have ``check`` look at each message of ``kinds`` before the handler each has now:
        ``check`` refuses one by raising :class:`ClientError`, and that handler is not asked
        (a tournament's table refuses actions once it has closed)."""
        for kind in kinds:
            entry = self._kinds[kind]
            handler = _checked(check, entry.handler)
            self._kinds[kind] = _Kind(entry.fields, entry.required, handler)

    def read(self, text: str | bytes) -> Message:
        """A message decoded and checked (:class:`ClientError` otherwise)."""
        data = decode_message(text, limit=self.limit)
        kind = data.get("type")
        if kind is None:
            raise ClientError("missing_field", {"field": "type"})
        entry = self._kinds.get(kind) if isinstance(kind, str) else None
        if entry is None:
            raise ClientError("unknown_type", {"type": echo(kind)})
        check_fields(data, entry.fields)
        require(data, *entry.required)
        return Message(kind, data)

    async def dispatch(self, context: C, text: str | bytes) -> None:
        """Read one message and have its handler answer it (errors raised as they come)."""
        message = self.read(text)
        await self._kinds[message.kind].handler(context, message)


def _checked(
    check: Callable[[C, Message], Awaitable[None]], handler: Callable[[C, Message], Awaitable[None]]
) -> Callable[[C, Message], Awaitable[None]]:
    async def handle(context: C, message: Message) -> None:
        await check(context, message)
        await handler(context, message)

    return handle


def _via(
    other: Dispatcher[D], kind: str, context: Callable[[C], Awaitable[D]]
) -> Callable[[C, Message], Awaitable[None]]:
    async def handle(outer: C, message: Message) -> None:
        await other._kinds[kind].handler(await context(outer), message)

    return handle


__all__ = [
    "ACTION_KINDS",
    "SEAT_CODES",
    "ClientError",
    "Dispatcher",
    "Handler",
    "Message",
    "bid_value_json",
    "check_fields",
    "decode_message",
    "dump_message",
    "echo",
    "encode_action",
    "parse_action",
    "printable",
    "require",
    "seat_field",
    "state_message",
]
