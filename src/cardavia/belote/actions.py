"""The actions of a deal, each naming the seat that acts, with their text form.

>>> parse_action("E bid 90 H")
Bid(seat=<Seat.E: 1>, value=90, strain=<Strain.HEARTS: 1>)
>>> str(parse_action("s  kh  +belote"))
'S KH +belote'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardavia.belote.cards import Card, Seat, card_code, parse_card, parse_seat
from cardavia.belote.play import Strain

CAPOT: Final = 250
"""The value of a capot bid (docs/rules-decisions.md)."""
GENERALE: Final = 500
"""The value of a générale bid (docs/rules-decisions.md)."""
_BID_WORDS: Final = {CAPOT: "capot", GENERALE: "generale"}


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass, in either bidding system."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat.name} pass"


@dataclass(frozen=True, slots=True)
class Take:
    """Classic bidding: take, with the turned card's suit (round 1) or another strain (round 2)."""

    seat: Seat
    strain: Strain

    def __str__(self) -> str:
        return f"{self.seat.name} take {self.strain.code}"


@dataclass(frozen=True, slots=True)
class Bid:
    """Coinche auction: a value (80 … 180, capot 250, générale 500) and a strain."""

    seat: Seat
    value: int
    strain: Strain

    def __str__(self) -> str:
        value = _BID_WORDS.get(self.value, str(self.value))
        return f"{self.seat.name} bid {value} {self.strain.code}"


@dataclass(frozen=True, slots=True)
class Coinche:
    """Coinche auction: double the opponents' bid."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat.name} coinche"


@dataclass(frozen=True, slots=True)
class Surcoinche:
    """Coinche auction: redouble after a coinche; ends the auction."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat.name} surcoinche"


@dataclass(frozen=True, slots=True)
class Play:
    """Put down a card. In the first trick ``announce`` declares the hand's best announcements
    (docs/rules.md 7); ``belote`` says "belote" with the first of the trump K and Q when the rules
    want it declared (docs/rules.md 6)."""

    seat: Seat
    card: Card
    announce: bool = False
    belote: bool = False

    def __str__(self) -> str:
        flags = (" +announce" if self.announce else "") + (" +belote" if self.belote else "")
        return f"{self.seat.name} {card_code(self.card)}{flags}"


Action = Pass | Take | Bid | Coinche | Surcoinche | Play
"""Any action of a deal."""


_SHAPES: Final = {
    "pass": "'N pass'",
    "coinche": "'N coinche'",
    "surcoinche": "'N surcoinche'",
    "take": "'N take H' (a suit, NT or AT)",
    "bid": "'N bid 90 H' (a value or capot/generale, then a suit, NT or AT)",
}


class InvalidActionError(ValueError):
    """Text that does not describe an action."""


def parse_bid_value(text: str) -> int:
    """A bid's value: a number, ``capot`` or ``generale``."""
    word = text.strip().lower().replace("é", "e")
    for value, name in _BID_WORDS.items():
        if word == name:
            return value
    if not word.isdigit():
        raise InvalidActionError(f"not a bid value: {text!r}")
    return int(word)


def parse_action(text: str) -> Action:
    """The action of its text form: ``N pass``, ``E take H``, ``S bid 90 NT``, ``W coinche``,
    ``N surcoinche``, ``E JH``, ``E JH +announce +belote``."""
    words = text.split()
    if len(words) < 2:
        raise InvalidActionError(f"not an action: {text!r}")
    try:
        seat = parse_seat(words[0])
    except ValueError as error:
        raise InvalidActionError(f"{error} in {text!r}") from None
    verb, rest = words[1].lower(), words[2:]
    try:
        if verb == "pass" and not rest:
            return Pass(seat)
        if verb == "coinche" and not rest:
            return Coinche(seat)
        if verb == "surcoinche" and not rest:
            return Surcoinche(seat)
        if verb == "take" and len(rest) == 1:
            return Take(seat, Strain.parse(rest[0]))
        if verb == "bid" and len(rest) == 2:
            return Bid(seat, parse_bid_value(rest[0]), Strain.parse(rest[1]))
        if verb in _SHAPES:
            raise InvalidActionError(f"{verb!r} is written {_SHAPES[verb]}, not {text!r}")
        card = parse_card(words[1])
        flags = {flag.lower() for flag in rest}
        if not flags <= {"+announce", "+belote"} or len(flags) != len(rest):
            raise InvalidActionError(f"unknown flags {' '.join(rest)!r} in {text!r}")
        return Play(seat, card, "+announce" in flags, "+belote" in flags)
    except InvalidActionError:
        raise
    except ValueError as error:
        raise InvalidActionError(f"{error} in {text!r}") from None
