"""The facts of a deal that a state and an observation share: its phase, the finished
tricks, belote said, and why an action or a card is refused.

They sit below :mod:`cardavia.belote.game` and :mod:`cardavia.belote.observation` so that
both can use them without importing each other.

>>> from cardavia.belote.rules import find_rules
>>> trick = ((Seat.W, parse_card("AS")),)
>>> hand = CardSet.parse("KS 7S JH 9C TD")
>>> choice = card_choice(find_rules("maison"), Strain.HEARTS, trick, Seat.N, hand)
>>> choice.allowed, choice.refused
(CardSet('7S KS'), CardSet('JH TD 9C'))
>>> choice.refusal(parse_card("JH")).message
'you must follow suit: spades'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from cardavia.belote.cards import FRENCH, Card, CardSet, Seat, card_code, parse_card
from cardavia.belote.play import REFUSAL_MESSAGES, Constraint, Strain, Trick, constraint, values_for
from cardavia.belote.rules import Rules


class Phase(StrEnum):
    """The phases of a deal."""

    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"
    CANCELLED = "cancelled"


MESSAGES: Final[Mapping[str, str]] = {
    **REFUSAL_MESSAGES,
    "wrong_phase": "that cannot be done now: the deal is {phase}",
    "not_your_turn": "it is {to_move}'s turn, not {seat}'s",
    "not_in_hand": "the {card} is not in {seat}'s hand",
    "not_an_action": "not an action: {action}",
    "must_take_turned_suit": "in the first round one may only take the turned suit ({suit})",
    "strain_not_allowed": "{strain} cannot be named in this round",
    "bid_too_low": "a bid must be higher than {value}",
    "bid_not_allowed": "{value} {strain} is not a bid of these rules",
    "cannot_coinche": "only an opponent of the last bidder may coinche, once",
    "cannot_surcoinche": "only the bidding team may surcoinche, after a coinche",
    "contract_frozen": "the coinche froze the contract: surcoinche or pass",
    "no_announcement": "{seat} has no announcement to make",
    "announce_too_late": "announcements are made with one's first card only",
    "no_announcements_in_rules": "these rules have no announcements",
    "belote_automatic": "belote is announced automatically at this table",
    "belote_not_held": "belote is said with the first of the trump king and queen held together",
}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an action is refused: a code and its arguments (card and suit codes, seats), so
    that the site can word it in the player's language; :attr:`message` words it in English."""

    code: str
    args: Mapping[str, str] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The reason in English."""
        args = dict(self.args)
        if "suit" in args and len(args["suit"]) == 1:
            args["suit"] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}.get(
                args["suit"], args["suit"]
            )
        if "card" in args:
            try:
                args["card"] = FRENCH.name(parse_card(args["card"]))
            except ValueError:
                pass
        return MESSAGES.get(self.code, self.code).format_map(_Default(args))

    def __str__(self) -> str:
        return self.message


class _Default(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class IllegalActionError(ValueError):
    """An action that the rules refuse in this state, with its :class:`Reason`."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class CompletedTrick:
    """A finished trick: who led, the four cards in play order, who won it, its card points."""

    leader: Seat
    cards: tuple[Card, Card, Card, Card]
    winner: Seat
    points: int

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The cards with the seat that played each."""
        return tuple((Seat((self.leader + i) & 3), card) for i, card in enumerate(self.cards))

    def __str__(self) -> str:
        cards = " ".join(card_code(c) for c in self.cards)
        return f"{self.leader.name}: {cards} → {self.winner.name} ({self.points})"


@dataclass(frozen=True, slots=True)
class BeloteEvent:
    """A player saying "belote" or "rebelote" as they put down a trump K or Q (docs/rules.md 6)."""

    seat: Seat
    card: Card
    word: str


@dataclass(frozen=True, slots=True)
class CardChoice:
    """Which cards of a hand may be played now, and why not the others (docs/rules.md 5): the
    one answer that the table, the terminal, the rules oracle and the lessons all show."""

    seat: Seat
    """The seat to play."""
    hand: CardSet
    """Its cards."""
    allowed: CardSet
    """The cards the rules allow."""
    reason: Reason
    """The rule that decided (code ``free`` when any card of the hand may be played); every
    card of the hand outside :attr:`allowed` is refused for this reason."""

    @classmethod
    def from_constraint(cls, rule: Constraint, seat: Seat, hand: int) -> CardChoice:
        """The choice that the engine's :func:`~cardavia.belote.play.constraint` made."""
        return cls(
            Seat(seat), CardSet(hand), CardSet(rule.allowed), Reason(rule.code, rule.reason_args())
        )

    @property
    def refused(self) -> CardSet:
        """The cards of the hand that may not be played now."""
        return self.hand - self.allowed

    def refusal(self, card: Card) -> Reason | None:
        """Why ``card`` may not be played now, or ``None`` if it may."""
        if card not in self.hand:
            return Reason("not_in_hand", {"card": card_code(card), "seat": self.seat.name})
        if card in self.allowed:
            return None
        return self.reason


def card_choice(
    rules: Rules, strain: Strain, trick: Trick, seat: Seat, hand: CardSet | int
) -> CardChoice:
    """Which cards of ``hand`` ``seat`` may play to ``trick`` under a contract of ``strain``,
    and why not the others (docs/rules.md 5)."""
    mask = hand.mask if isinstance(hand, CardSet) else int(hand)
    rule = constraint(rules, values_for(rules, strain), trick, seat, mask)
    return CardChoice.from_constraint(rule, seat, mask)
