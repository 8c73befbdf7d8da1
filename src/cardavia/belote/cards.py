"""Cards, suits, ranks, seats, sets of cards and the two decks (docs/rules.md 1 and 2).

A card is an ``int`` from 0 to 31: ``suit * 8 + rank``, ranks counted in sequence order
(7 8 9 10 J Q K A), suits in the order of their codes (S H D C). A set of cards is a 32-bit
mask, wrapped by :class:`CardSet` with the ``frozenset`` API.

>>> parse_card("JH")
12
>>> card_code(12)
'JH'
>>> CardSet.parse("AS 7S JH")
CardSet('7S AS JH')
>>> FRENCH.name(parse_card("JH")), SPANISH.name(parse_card("JH"))
('jack of hearts', 'sota de copas')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

Card = int
"""A card: ``suit * 8 + rank``, 0 to 31."""


class Suit(IntEnum):
    """The four suits, in the order of their codes (docs/rules.md 1)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def code(self) -> str:
        """The one-letter code: ``S H D C``."""
        return SUIT_CODES[self]

    @property
    def symbol(self) -> str:
        """The printed symbol of the French deck."""
        return "♠♥♦♣"[self]


class Rank(IntEnum):
    """The eight ranks, numbered in sequence order (docs/rules.md 1: 7 8 9 10 J Q K A)."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def code(self) -> str:
        """The one-character code: ``7 8 9 T J Q K A``."""
        return RANK_CODES[self]


class Seat(IntEnum):
    """The four seats in turn order: N → E → S → W → N (docs/rules.md 2, counterclockwise)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def next(self) -> Seat:
        """The player on this one's right, who plays next."""
        return SEATS[(self + 1) & 3]

    @property
    def partner(self) -> Seat:
        """The partner, sitting opposite."""
        return SEATS[(self + 2) & 3]

    @property
    def team(self) -> Team:
        """The team: N–S or E–W."""
        return TEAMS[self & 1]


class Team(IntEnum):
    """The two partnerships (docs/rules.md 2)."""

    NS = 0
    EW = 1

    @property
    def other(self) -> Team:
        """The opposing team."""
        return TEAMS[self ^ 1]

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of the team."""
        return (SEATS[self], SEATS[self + 2])


SUIT_CODES: Final = "SHDC"
RANK_CODES: Final = "789TJQKA"
SUITS: Final = tuple(Suit)
RANKS: Final = tuple(Rank)
SEATS: Final = tuple(Seat)
"""The seats in turn order, ``SEATS[i]`` the seat of index ``i`` (a lookup: the hot paths
turn ints into seats without calling the enum)."""
TEAMS: Final = tuple(Team)
"""The two teams, ``TEAMS[i]`` the team of index ``i``."""
ALL_CARDS: Final = tuple(range(32))
FULL_MASK: Final = (1 << 32) - 1
SUIT_MASKS: Final = tuple(0xFF << (8 * s) for s in range(4))
"""``SUIT_MASKS[suit]``: the mask of the eight cards of a suit."""


def make_card(rank: Rank | int, suit: Suit | int) -> Card:
    """The card of that rank and suit."""
    return int(suit) * 8 + int(rank)


def suit_of(card: Card) -> Suit:
    """The suit of a card."""
    return Suit(card >> 3)


def rank_of(card: Card) -> Rank:
    """The rank of a card."""
    return Rank(card & 7)


def card_code(card: Card) -> str:
    """The two-character code of a card: rank then suit, ``JH``, ``TD``."""
    return RANK_CODES[card & 7] + SUIT_CODES[card >> 3]


_CODE_TO_CARD: Final = {card_code(c): c for c in ALL_CARDS}


def parse_card(code: str) -> Card:
    """The card of a code such as ``JH`` or ``td`` (a ``10`` is accepted for ``T``).

    Raises :class:`InvalidCardError` for anything else.

    >>> card_code(parse_card("10d"))
    'TD'
    """
    text = code.strip().upper() if isinstance(code, str) else ""
    if text.startswith("10"):
        text = "T" + text[2:]
    try:
        return _CODE_TO_CARD[text]
    except KeyError:
        raise InvalidCardError(code) from None


class InvalidCardError(ValueError):
    """A card code that names no card."""

    def __init__(self, code: object) -> None:
        super().__init__(
            f"unknown card code {code!r}: expected a rank (7 8 9 T J Q K A) "
            "and a suit (S H D C), such as 'JH'"
        )
        self.code = code


def parse_suit(code: str) -> Suit:
    """The suit of a one-letter code (``S H D C``)."""
    text = code.strip().upper() if isinstance(code, str) else ""
    if len(text) != 1 or text not in SUIT_CODES:
        raise ValueError(f"unknown suit {code!r}: expected one of S H D C")
    return Suit(SUIT_CODES.index(text))


def parse_seat(code: str) -> Seat:
    """The seat of a one-letter code (``N E S W``)."""
    text = code.strip().upper() if isinstance(code, str) else ""
    if len(text) != 1 or text not in "NESW":
        raise ValueError(f"unknown seat {code!r}: expected one of N E S W")
    return Seat("NESW".index(text))


def mask_cards(mask: int) -> Iterator[Card]:
    """The cards of a mask, lowest code first: the one loop over set bits of the project.

    >>> list(mask_cards(0b1010_0001))
    [0, 5, 7]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CardSet:
    """An immutable set of cards held as a 32-bit mask, with the ``frozenset`` API.

    Made from cards, a mask, or a string of codes (so that its repr reads back).

    Iteration is in a stable order: by suit (S H D C), then by rank in sequence order.

    >>> hand = CardSet.parse("KS 7S JH 9C TD")
    >>> len(hand), parse_card("JH") in hand
    (5, True)
    >>> hand & CardSet.suit(Suit.SPADES)
    CardSet('7S KS')
    >>> str(hand - CardSet.parse("JH"))
    '7S KS TD 9C'
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card] | int | str = 0) -> None:
        if isinstance(cards, str):
            mask = CardSet.parse(cards).mask
        elif isinstance(cards, int):
            if not 0 <= cards <= FULL_MASK:
                raise ValueError(f"card mask out of range: {cards:#x}")
            mask = cards
        else:
            mask = 0
            for card in cards:
                if not isinstance(card, int) or not 0 <= card < 32:
                    raise ValueError(f"not a card: {card!r}")
                mask |= 1 << card
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """The set of the codes in a space-separated string or an iterable of codes."""
        codes = text.split() if isinstance(text, str) else text
        return cls(parse_card(code) for code in codes)

    @classmethod
    def suit(cls, suit: Suit | int) -> CardSet:
        """The eight cards of a suit."""
        return cls(SUIT_MASKS[suit])

    @classmethod
    def full(cls) -> CardSet:
        """All 32 cards."""
        return cls(FULL_MASK)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 32 and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        return mask_cards(self.mask)

    def __reversed__(self) -> Iterator[Card]:
        return iter(sorted(mask_cards(self.mask), reverse=True))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __hash__(self) -> int:
        # Equal to a frozenset of the same cards, so it must hash as one.
        return hash(frozenset(mask_cards(self.mask)))

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (self.mask,))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset)):
            if not all(isinstance(c, int) and 0 <= c < 32 for c in other):
                return False
            return self.mask == CardSet(other).mask
        return NotImplemented

    def __int__(self) -> int:
        return self.mask

    def _other(self, other: Iterable[Card] | int) -> int:
        return other.mask if isinstance(other, CardSet) else CardSet(other).mask

    def __or__(self, other: Iterable[Card]) -> CardSet:
        return CardSet(self.mask | self._other(other))

    def __and__(self, other: Iterable[Card]) -> CardSet:
        return CardSet(self.mask & self._other(other))

    def __sub__(self, other: Iterable[Card]) -> CardSet:
        return CardSet(self.mask & ~self._other(other))

    def __xor__(self, other: Iterable[Card]) -> CardSet:
        return CardSet(self.mask ^ self._other(other))

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __invert__(self) -> CardSet:
        return CardSet(FULL_MASK & ~self.mask)

    def __le__(self, other: Iterable[Card]) -> bool:
        return self.mask & ~self._other(other) == 0

    def __lt__(self, other: Iterable[Card]) -> bool:
        return self <= other and self.mask != self._other(other)

    def __ge__(self, other: Iterable[Card]) -> bool:
        return self._other(other) & ~self.mask == 0

    def __gt__(self, other: Iterable[Card]) -> bool:
        return self >= other and self.mask != self._other(other)

    def union(self, *others: Iterable[Card]) -> CardSet:
        """The cards in this set or any of the others."""
        mask = self.mask
        for other in others:
            mask |= self._other(other)
        return CardSet(mask)

    def intersection(self, *others: Iterable[Card]) -> CardSet:
        """The cards in this set and all of the others."""
        mask = self.mask
        for other in others:
            mask &= self._other(other)
        return CardSet(mask)

    def difference(self, *others: Iterable[Card]) -> CardSet:
        """The cards in this set and in none of the others."""
        mask = self.mask
        for other in others:
            mask &= ~self._other(other)
        return CardSet(mask)

    def symmetric_difference(self, other: Iterable[Card]) -> CardSet:
        """The cards in exactly one of the two sets."""
        return self ^ other

    def issubset(self, other: Iterable[Card]) -> bool:
        """Whether every card of this set is in the other."""
        return self <= other

    def issuperset(self, other: Iterable[Card]) -> bool:
        """Whether every card of the other is in this set."""
        return self >= other

    def isdisjoint(self, other: Iterable[Card]) -> bool:
        """Whether the two sets share no card."""
        return not self.mask & self._other(other)

    def copy(self) -> CardSet:
        """The set itself: it is immutable."""
        return self

    def add(self, card: Card) -> CardSet:
        """A new set with the card added."""
        return CardSet(self.mask | 1 << card)

    def remove(self, card: Card) -> CardSet:
        """A new set without the card; ``KeyError`` if it is not there."""
        if card not in self:
            raise KeyError(card)
        return CardSet(self.mask & ~(1 << card))

    def discard(self, card: Card) -> CardSet:
        """A new set without the card, if it was there."""
        return CardSet(self.mask & ~(1 << card)) if 0 <= card < 32 else self

    def count(self) -> int:
        """The number of cards (as ``len``)."""
        return self.mask.bit_count()

    def codes(self) -> list[str]:
        """The card codes, in iteration order."""
        return [card_code(c) for c in self]

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck's presentation: the names and printed labels of its ranks and suits.

    The Spanish-suited deck of the Maghreb tables maps one to one onto the French one
    (docs/rules.md 1): ranks ``4 5 6 7 10 11 12 1`` are ``7 8 9 10 J Q K A``; oros, copas,
    espadas, bastos are diamonds, hearts, spades, clubs. Only the names differ.
    """

    key: str
    rank_labels: tuple[str, ...]
    rank_names: tuple[str, ...]
    suit_names: tuple[str, ...]
    suit_symbols: tuple[str, ...]
    name_format: str

    def label(self, card: Card) -> str:
        """The short printed label of a card: ``J♥`` or ``10 copas``."""
        rank, suit = card & 7, card >> 3
        if self.key == "french":
            return f"{self.rank_labels[rank]}{self.suit_symbols[suit]}"
        return f"{self.rank_labels[rank]} {self.suit_names[suit]}"

    def parse(self, text: str) -> Card:
        """The card a person typed: its code (``JD``, ``10d``) or this deck's printed label
        (``J♦``, ``j♦``; ``10 copas``), whatever the case and the spaces, so that a player can
        type what the table shows. Raises :class:`InvalidCardError` for anything else.

        >>> card_code(FRENCH.parse("j♦")), card_code(SPANISH.parse("10 Copas"))
        ('JD', 'JH')
        """
        typed = (
            "".join(text.split()).replace("\ufe0f", "").casefold() if isinstance(text, str) else ""
        )
        for card in ALL_CARDS:
            if typed == "".join(self.label(card).split()).casefold():
                return card
        return parse_card(text)

    def name(self, card: Card) -> str:
        """The full name of a card in the deck's own words."""
        return self.name_format.format(
            rank=self.rank_names[card & 7], suit=self.suit_names[card >> 3]
        )

    def sequence_labels(self) -> tuple[str, ...]:
        """The printed sequence order: ``7 8 9 10 J Q K A`` or ``4 5 6 7 10 11 12 1``."""
        return self.rank_labels


FRENCH: Final = Deck(
    key="french",
    rank_labels=("7", "8", "9", "10", "J", "Q", "K", "A"),
    rank_names=("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"),
    suit_names=("spades", "hearts", "diamonds", "clubs"),
    suit_symbols=("♠", "♥", "♦", "♣"),
    name_format="{rank} of {suit}",
)
SPANISH: Final = Deck(
    key="spanish",
    rank_labels=("4", "5", "6", "7", "10", "11", "12", "1"),
    rank_names=("cuatro", "cinco", "seis", "siete", "sota", "caballo", "rey", "as"),
    suit_names=("espadas", "copas", "oros", "bastos"),
    suit_symbols=("⚔", "🏆", "🪙", "🪵"),
    name_format="{rank} de {suit}",
)
DECKS: Final = {"french": FRENCH, "spanish": SPANISH}
