"""Playing a trick: which card may I play, who wins, what it is worth (docs/rules.md 1 and 5).

The work is done on 32-bit masks with card values computed once per contract kind, because the
same questions are asked millions of times by the AI; :class:`Strain` is the contract's
trump (a suit, no-trump or all-trump) and :class:`CardValues` what each card is worth under
it (strength and points), computed once.

>>> from cardavia.belote.cards import CardSet, Seat, parse_card
>>> from cardavia.belote.rules import find_rules
>>> trick = ((Seat.W, parse_card("AS")),)
>>> hand = CardSet.parse("KS 7S JH 9C TD")
>>> CardSet(legal_mask(find_rules("maison"), Strain.HEARTS, trick, Seat.N, hand.mask))
CardSet('7S KS')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from typing import Final, NamedTuple

from cardavia.belote.cards import SUIT_MASKS, SUITS, Card, Seat, Suit, card_code
from cardavia.belote.rules import Rules


class Strain(IntEnum):
    """What a contract makes trump: one suit, none (``NT``) or every suit (``AT``)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    NO_TRUMP = 4
    ALL_TRUMP = 5

    @property
    def code(self) -> str:
        """``S H D C NT AT``, as in the records and the query language."""
        return STRAIN_CODES[self]

    @property
    def suit(self) -> Suit | None:
        """The trump suit, or ``None`` for no-trump and all-trump."""
        return Suit(self) if self < 4 else None

    @property
    def is_suit(self) -> bool:
        """Whether one suit is trump."""
        return self < 4

    @classmethod
    def parse(cls, code: str) -> Strain:
        """The strain of a code: a suit letter, ``NT`` or ``AT`` (also ``SA``/``TA``)."""
        text = code.strip().upper() if isinstance(code, str) else ""
        text = {"SA": "NT", "TA": "AT", "NONE": "NT"}.get(text, text)
        if text not in STRAIN_CODES:
            raise ValueError(f"unknown contract {code!r}: expected S, H, D, C, NT or AT")
        return cls(STRAIN_CODES.index(text))


STRAIN_CODES: Final = ("S", "H", "D", "C", "NT", "AT")
# For :func:`constraint`, asked at every card: a member read through its enum class goes
# through the metaclass, several times slower than a global.
_NO_TRUMP: Final = Strain.NO_TRUMP
_ALL_TRUMP: Final = Strain.ALL_TRUMP

# docs/rules.md 1: strength, weakest first, indexed by rank in sequence order (7 8 9 10 J Q K A).
TRUMP_ORDER: Final = (0, 1, 6, 4, 7, 2, 3, 5)  # trump: J 9 A 10 K Q 8 7
PLAIN_ORDER: Final = (0, 1, 2, 6, 3, 4, 5, 7)  # plain: A 10 K Q J 9 8 7
# docs/rules.md 1: card points by rank in sequence order.
TRUMP_POINTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)
NO_TRUMP_SCALED_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 19)
ALL_TRUMP_SCALED_POINTS: Final = (0, 0, 9, 5, 14, 1, 3, 6)
LAST_TRICK_BONUS: Final = 10


@dataclass(frozen=True, slots=True)
class CardValues:
    """What each card is worth under one contract kind and point scale: its strength within
    its suit, its points, the cards that beat it (computed once, then shared)."""

    strain: Strain
    order: tuple[int, ...]
    """``order[card]``: the card's strength within its suit in this contract."""
    points: tuple[int, ...]
    """``points[card]``: the card's points in this contract."""
    beats: tuple[int, ...]
    """``beats[card]``: the mask of the cards of its suit that beat it."""
    trump_mask: int
    """The cards that beat any card of another suit (the trump suit; none in NT and AT)."""
    ranked_as_trump: int = field(default=0)
    """The cards ranked in trump order (the trump suit; every card in AT)."""

    @property
    def total_points(self) -> int:
        """The points in the 32 cards (152 for every scale but the plain/trump ones)."""
        return sum(self.points)


@cache
def strain_values(
    strain: Strain, *, no_trump_points: str = "scaled", all_trump_points: str = "scaled"
) -> CardValues:
    """The card values of a contract kind (docs/rules.md 1)."""
    order: list[int] = []
    points: list[int] = []
    ranked_as_trump = 0
    for card in range(32):
        suit, rank = card >> 3, card & 7
        is_trump_ranked = strain == Strain.ALL_TRUMP or suit == strain
        if is_trump_ranked:
            ranked_as_trump |= 1 << card
        order.append(TRUMP_ORDER[rank] if is_trump_ranked else PLAIN_ORDER[rank])
        if strain == Strain.NO_TRUMP:
            scale = NO_TRUMP_SCALED_POINTS if no_trump_points == "scaled" else PLAIN_POINTS
        elif strain == Strain.ALL_TRUMP:
            scale = ALL_TRUMP_SCALED_POINTS if all_trump_points == "scaled" else TRUMP_POINTS
        else:
            scale = TRUMP_POINTS if suit == strain else PLAIN_POINTS
        points.append(scale[rank])
    beats = tuple(
        sum(
            1 << other
            for other in range(32)
            if other >> 3 == card >> 3 and order[other] > order[card]
        )
        for card in range(32)
    )
    trump_mask = SUIT_MASKS[strain] if strain < 4 else 0
    return CardValues(strain, tuple(order), tuple(points), beats, trump_mask, ranked_as_trump)


def values_for(rules: Rules, strain: Strain) -> CardValues:
    """The card values of a contract kind under a rule set's point scales."""
    return strain_values(
        strain, no_trump_points=rules.no_trump_points, all_trump_points=rules.all_trump_points
    )


Trick = Sequence[tuple[Seat, Card]]
"""The cards of a trick so far, in play order, each with the seat that played it."""


def winning_index(values: CardValues, cards: Sequence[Card]) -> int:
    """The position in ``cards`` of the card that wins (so far): docs/rules.md 5.5, the highest
    trump if any trump was played, otherwise the highest card of the suit led."""
    best = cards[0]
    best_index = 0
    order, trump_mask = values.order, values.trump_mask
    for index in range(1, len(cards)):
        card = cards[index]
        if card >> 3 == best >> 3:
            if order[card] > order[best]:
                best, best_index = card, index
        elif trump_mask >> card & 1:
            best, best_index = card, index
    return best_index


def trick_winner(values: CardValues, trick: Trick) -> Seat:
    """The seat whose card wins the trick (so far)."""
    return trick[winning_index(values, [card for _, card in trick])][0]


def trick_points(values: CardValues, cards: Sequence[Card]) -> int:
    """The points of the cards of a trick, without the last-trick bonus."""
    return sum(map(values.points.__getitem__, cards))


class Constraint(NamedTuple):
    """What the rules require of the next card, and why (docs/rules.md 5).

    ``allowed`` is the mask of the legal cards in the hand; ``code`` names the rule that
    narrowed the choice (``free`` when any card may be played) and ``card``/``suit`` give
    its argument, so that a refusal can be worded in any language.
    """

    allowed: int
    code: str
    suit: Suit | None = None
    card: Card | None = None

    def reason_args(self) -> dict[str, str]:
        """The arguments of the rule, as card and suit codes."""
        args: dict[str, str] = {}
        if self.suit is not None:
            args["suit"] = self.suit.code
        if self.card is not None:
            args["card"] = card_code(self.card)
        return args


def master(values: CardValues, trick: Trick) -> tuple[Seat, Card]:
    """The seat whose card wins the (non-empty) trick so far, and that card (docs/rules.md 5.5)."""
    master_seat, best = trick[0]
    order, trump_mask = values.order, values.trump_mask
    for seat, card in trick[1:]:
        if card >> 3 == best >> 3:
            if order[card] > order[best]:
                master_seat, best = seat, card
        elif trump_mask >> card & 1:
            master_seat, best = seat, card
    return master_seat, best


def constraint(rules: Rules, values: CardValues, trick: Trick, seat: Seat, hand: int) -> Constraint:
    """The rule that decides which cards of ``hand`` ``seat`` may play to ``trick``.

    The cases follow docs/rules.md 5 one by one; who is master is only worked out when it matters.
    """
    if not trick:
        return Constraint(hand, "free")
    led = trick[0][1] >> 3
    following = hand & SUIT_MASKS[led]
    strain = values.strain

    if strain is _NO_TRUMP:
        # docs/rules.md 5.3: follow the suit led if you can; otherwise any card.
        if following:
            return Constraint(following, "must_follow", suit=SUITS[led])
        return Constraint(hand, "free")

    if strain is _ALL_TRUMP:
        # docs/rules.md 5.4: follow and beat the highest card of the suit led if you can.
        if not following:
            return Constraint(hand, "free")
        best = master(values, trick)[1]
        higher = following & values.beats[best]
        if higher:
            return Constraint(higher, "must_beat", card=best)
        return Constraint(following, "must_follow", suit=SUITS[led])

    trump = int(strain)
    if led == trump:
        # docs/rules.md 5.1: trump led: follow with a higher trump than every trump in the trick
        # if you have one, even over the partner's (overtrump_partner_on_trump_lead).
        if not following:
            return Constraint(hand, "free")
        master_seat, best = master(values, trick)
        partner_is_master = master_seat == (seat + 2) & 3
        if partner_is_master and not rules.overtrump_partner_on_trump_lead:
            return Constraint(following, "must_follow", suit=SUITS[led])
        higher = following & values.beats[best]
        if higher:
            return Constraint(higher, "must_overtrump", card=best)
        return Constraint(following, "must_follow", suit=SUITS[led])

    if following:
        # docs/rules.md 5.1: you hold the suit led: you must play it.
        return Constraint(following, "must_follow", suit=SUITS[led])
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        # docs/rules.md 5.2: no card of the suit led and no trump: any card.
        return Constraint(hand, "free")
    master_seat, best = master(values, trick)
    trump_in_trick = best >> 3 == trump
    if master_seat == (seat + 2) & 3 and not rules.must_trump_partner:
        # docs/rules.md 5.2: the partner is master: any card; but choosing to trump over a trump,
        # overtrump if you can (overtrump_when_trumping_partner, seed 004).
        if trump_in_trick and rules.overtrump_when_trumping_partner:
            higher = trumps & values.beats[best]
            if higher and higher != trumps:
                return Constraint((hand & ~trumps) | higher, "overtrump_if_trumping", card=best)
        return Constraint(hand, "free")
    # docs/rules.md 5.2: an opponent is master: trump, higher than every trump in the
    # trick if you can.
    if not trump_in_trick:
        return Constraint(trumps, "must_trump", suit=SUITS[trump])
    higher = trumps & values.beats[best]
    if higher:
        return Constraint(higher, "must_overtrump", card=best)
    if rules.undertrump == "required":
        # docs/rules.md 5.2, undertrump required (Maison, Cardavia, Maghreb): a lower trump anyway.
        return Constraint(trumps, "must_undertrump", card=best, suit=SUITS[trump])
    # docs/rules.md 5.2, undertrump optional (coinche, official rules): any card.
    return Constraint(hand, "free")


def legal_mask(rules: Rules, strain: Strain, trick: Trick, seat: Seat, hand: int) -> int:
    """The mask of the cards of ``hand`` that ``seat`` may play to ``trick``."""
    return constraint(rules, values_for(rules, strain), trick, seat, hand).allowed


REFUSAL_MESSAGES: Final[Mapping[str, str]] = {
    "must_follow": "you must follow suit: {suit}",
    "must_overtrump": "you must play a trump higher than the {card}",
    "must_beat": "you must play higher than the {card}",
    "must_trump": "you must trump ({suit})",
    "must_undertrump": "you cannot beat the {card}, but you must still play a trump ({suit})",
    "overtrump_if_trumping": "if you trump, you must play higher than the {card}",
}
