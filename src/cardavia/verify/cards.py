"""Cards, seats, contracts, card strength and card points, written out as tables.

A card is a two-character code, rank then suit (docs/rules.md 1): ranks ``7 8 9 T J Q K A``, suits
``S H D C``. Everything here is spelled out the way a person reads it off the rules page, so
that each line can be checked against docs/rules.md by eye.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cardavia.verify.knobs import knob_choice

# docs/rules.md 1: the ranks, in sequence order (used by announcements), and the four suits.
RANKS: tuple[str, ...] = ("7", "8", "9", "T", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

# docs/rules.md 1: all 32 cards.
DECK: frozenset[str] = frozenset(rank + suit for rank in RANKS for suit in SUITS)

# docs/rules.md 1: strength, written from the weakest to the strongest card.
TRUMP_ORDER: tuple[str, ...] = ("7", "8", "Q", "K", "T", "A", "9", "J")  # J 9 A 10 K Q 8 7
PLAIN_ORDER: tuple[str, ...] = ("7", "8", "9", "J", "Q", "K", "T", "A")  # A 10 K Q J 9 8 7

# docs/rules.md 1: card points.
TRUMP_POINTS: dict[str, int] = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS: dict[str, int] = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
# docs/rules.md 1, no-trump with no_trump_points = scaled (with plain: PLAIN_POINTS).
NT_POINTS: dict[str, int] = {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
# docs/rules.md 1, all-trump with all_trump_points = scaled (with trump: TRUMP_POINTS).
AT_POINTS: dict[str, int] = {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0}

# rules-decisions.md "Contracts": a suit is trump, or no trump, or all trump.
NO_TRUMP = "NT"
ALL_TRUMP = "AT"
CONTRACTS: tuple[str, ...] = (*SUITS, NO_TRUMP, ALL_TRUMP)

# docs/rules.md 2: seats in turn order N -> E -> S -> W -> N; partners N-S and E-W.
SEATS: tuple[str, ...] = ("N", "E", "S", "W")
TEAMS: tuple[str, ...] = ("NS", "EW")


def check_card(card: str) -> str:
    """Return ``card`` unchanged if it is one of the 32 codes, else raise ValueError."""
    if card not in DECK:
        raise ValueError(f"{card!r} is not a card code (rank 7 8 9 T J Q K A, suit S H D C)")
    return card


def check_cards(cards: Iterable[str]) -> list[str]:
    """The cards as a list, each checked, refusing a card given twice."""
    listed = [check_card(card) for card in cards]
    if len(set(listed)) != len(listed):
        raise ValueError(f"a card is given twice in {listed}")
    return listed


def check_contract(contract: str) -> str:
    """Return ``contract`` if it is S, H, D, C, NT or AT (rules-decisions.md), else raise."""
    if contract not in CONTRACTS:
        raise ValueError(f"{contract!r} is not a contract, expected one of {CONTRACTS}")
    return contract


def check_seat(seat: str) -> str:
    """Return ``seat`` if it is N, E, S or W, else raise ValueError."""
    if seat not in SEATS:
        raise ValueError(f"{seat!r} is not a seat, expected one of {SEATS}")
    return seat


def rank_of(card: str) -> str:
    """The rank of a card code: ``rank_of("TD") == "T"``."""
    return card[0]


def suit_of(card: str) -> str:
    """The suit of a card code: ``suit_of("TD") == "D"``."""
    return card[1]


def next_seat(seat: str) -> str:
    """The player after ``seat`` in turn order (docs/rules.md 2: N -> E -> S -> W -> N)."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def team_of(seat: str) -> str:
    """The team of a seat (docs/rules.md 2: partners N-S and E-W)."""
    return "NS" if seat in ("N", "S") else "EW"


def other_team(team: str) -> str:
    """The opposing team."""
    return "EW" if team == "NS" else "NS"


def ranks_as_trump(contract: str, card: str) -> bool:
    """Whether the card ranks in the trump order: its suit is trump, or all trump
    (docs/rules.md 1)."""
    return contract == ALL_TRUMP or suit_of(card) == contract


def is_trump(contract: str, card: str) -> bool:
    """Whether the card is a trump of a suit contract, the kind that can cut another suit.

    In all-trump every suit ranks as trump but no card cuts another suit (docs/rules.md 5.4); in
    no-trump nothing is trump (docs/rules.md 5.3).
    """
    return suit_of(card) == contract


def strength(contract: str, card: str) -> int:
    """The card's place in its suit's strength order, 0 the weakest (docs/rules.md 1).

    Only meaningful to compare two cards of the same suit.
    """
    order = TRUMP_ORDER if ranks_as_trump(contract, card) else PLAIN_ORDER
    return order.index(rank_of(card))


def beats(contract: str, card: str, other: str) -> bool:
    """Whether ``card`` is stronger than ``other``, both of the same suit (docs/rules.md 1)."""
    return strength(contract, card) > strength(contract, other)


def card_points(knobs: Mapping[str, object], contract: str, card: str) -> int:
    """Points of one card in this contract (docs/rules.md 1, knobs no_trump_points,
    all_trump_points).

    Suit contract: trump values for the trump suit, plain values for the others (152 in all).
    No-trump: ``scaled`` (A 19, 152 in all) or ``plain`` (A 11, 120 in all). All-trump:
    ``scaled`` (J 14, 152 in all) or ``trump`` (J 20, 248 in all).
    """
    check_contract(contract)
    check_card(card)
    rank = rank_of(card)
    if contract == NO_TRUMP:
        scale = knob_choice(knobs, "no_trump_points", ("scaled", "plain"))
        return NT_POINTS[rank] if scale == "scaled" else PLAIN_POINTS[rank]
    if contract == ALL_TRUMP:
        scale = knob_choice(knobs, "all_trump_points", ("scaled", "trump"))
        return AT_POINTS[rank] if scale == "scaled" else TRUMP_POINTS[rank]
    if suit_of(card) == contract:
        return TRUMP_POINTS[rank]
    return PLAIN_POINTS[rank]


def trick_points(knobs: Mapping[str, object], contract: str, cards: Iterable[str]) -> int:
    """Sum of the card points of some cards, without the last-trick 10 (docs/rules.md 1)."""
    return sum(card_points(knobs, contract, card) for card in check_cards(cards))
