"""Cards, suits, ranks, seats and CardSet (docs/rules.md 1 and 2).

Card numbering: ``suit * 8 + rank``, ranks in sequence order (7 8 9 10 J Q K A), suits in
code order (S H D C); so 7S is 0, AS is 7, 7H is 8, JH is 12, AC is 31.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from cardavia.belote import (
    FRENCH,
    SPANISH,
    CardSet,
    InvalidCardError,
    Rank,
    Seat,
    Suit,
    Team,
    card_code,
    parse_card,
)
from cardavia.belote.cards import (
    ALL_CARDS,
    DECKS,
    make_card,
    parse_seat,
    parse_suit,
    rank_of,
    suit_of,
)

# ---------------------------------------------------------------------------------------------
# Codes (docs/rules.md 1: rank then suit, ranks 7 8 9 T J Q K A, suits S H D C)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "card"),
    [("7S", 0), ("AS", 7), ("7H", 8), ("JH", 12), ("TD", 19), ("9C", 26), ("AC", 31)],
)
def test_parse_and_print_codes(code: str, card: int) -> None:
    """docs/rules.md 1: a card is written rank then suit; numbering is suit * 8 + rank."""
    assert parse_card(code) == card
    assert card_code(card) == code


def test_every_card_round_trips() -> None:
    """docs/rules.md 1: 32 cards, each with its own two-character code."""
    codes = [card_code(card) for card in ALL_CARDS]
    assert len(set(codes)) == 32
    assert all(parse_card(code) == card for card, code in zip(ALL_CARDS, codes, strict=True))


@pytest.mark.parametrize(
    ("text", "code"), [("jh", "JH"), (" td ", "TD"), ("10D", "TD"), ("10s", "TS")]
)
def test_parse_is_lenient_on_case_spaces_and_10(text: str, code: str) -> None:
    """docs/rules.md 1: lower case, surrounding spaces and ``10`` for ``T`` are accepted."""
    assert card_code(parse_card(text)) == code


@pytest.mark.parametrize("bad", ["", "J", "JX", "1H", "11H", "JHH", "XH", "H J", "♥J", "10"])
def test_unknown_card_codes_raise(bad: str) -> None:
    """docs/rules.md 1: anything but a rank and a suit is refused, with InvalidCardError."""
    with pytest.raises(InvalidCardError) as info:
        parse_card(bad)
    assert isinstance(info.value, ValueError)
    assert info.value.code == bad
    assert "unknown card code" in str(info.value)


@pytest.mark.parametrize("bad", [None, 12, b"JH"])
def test_parse_card_rejects_non_strings(bad: object) -> None:
    """A card code must be text."""
    with pytest.raises(InvalidCardError):
        parse_card(bad)  # type: ignore[arg-type]


def test_suit_rank_helpers() -> None:
    """docs/rules.md 1: a card's rank and suit, and back."""
    jh = parse_card("JH")
    assert suit_of(jh) is Suit.HEARTS
    assert rank_of(jh) is Rank.JACK
    assert make_card(Rank.JACK, Suit.HEARTS) == jh
    assert [s.code for s in Suit] == ["S", "H", "D", "C"]
    assert [r.code for r in Rank] == ["7", "8", "9", "T", "J", "Q", "K", "A"]
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert parse_suit(" h ") is Suit.HEARTS
    assert parse_seat("w") is Seat.W
    with pytest.raises(ValueError, match="unknown suit"):
        parse_suit("X")
    with pytest.raises(ValueError, match="unknown seat"):
        parse_seat("NE")


# ---------------------------------------------------------------------------------------------
# Seats and teams (docs/rules.md 2)
# ---------------------------------------------------------------------------------------------


def test_turn_order_is_n_e_s_w() -> None:
    """docs/rules.md 2: N → E → S → W → N; each player's next is the one on their right."""
    assert [s.next for s in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]


def test_partners_and_teams() -> None:
    """docs/rules.md 2: partners N–S and E–W."""
    assert Seat.N.partner is Seat.S and Seat.E.partner is Seat.W
    assert Seat.S.partner is Seat.N and Seat.W.partner is Seat.E
    assert Seat.N.team is Team.NS and Seat.S.team is Team.NS
    assert Seat.E.team is Team.EW and Seat.W.team is Team.EW
    assert Team.NS.other is Team.EW and Team.EW.other is Team.NS
    assert Team.NS.seats == (Seat.N, Seat.S)
    assert Team.EW.seats == (Seat.E, Seat.W)


# ---------------------------------------------------------------------------------------------
# CardSet: the frozenset API on a 32-bit mask
# ---------------------------------------------------------------------------------------------


def test_cardset_parse_len_contains() -> None:
    """A set of cards from codes; ``in`` and ``len`` as for a frozenset."""
    hand = CardSet.parse("KS 7S JH 9C TD")
    assert len(hand) == 5 and hand.count() == 5
    assert parse_card("JH") in hand
    assert parse_card("JS") not in hand
    assert "JH" not in hand  # codes are not cards: cards are ints
    assert 40 not in hand and -1 not in hand
    assert CardSet.parse(["KS", "7S"]) == CardSet.parse("7S KS")
    assert bool(hand) and not CardSet()


def test_cardset_iterates_in_a_stable_order() -> None:
    """Iteration: by suit (S H D C), then by rank in sequence order, whatever the input
    order."""
    hand = CardSet.parse("AC JH 7S TD KS 9C")
    assert hand.codes() == ["7S", "KS", "JH", "TD", "9C", "AC"]
    assert list(hand) == sorted(hand)
    assert [card_code(c) for c in reversed(hand)] == ["AC", "9C", "TD", "JH", "KS", "7S"]
    assert CardSet.parse("9C AC 7S").codes() == CardSet.parse("7S 9C AC").codes()


def test_cardset_repr_and_str() -> None:
    """The printed forms use card codes in iteration order."""
    hand = CardSet.parse("JH AS 7S")
    assert repr(hand) == "CardSet('7S AS JH')"
    assert str(hand) == "7S AS JH"
    assert repr(CardSet()) == "CardSet('')"


def test_cardset_operators() -> None:
    """|, &, -, ^, ~ and the comparisons, as for frozensets."""
    a = CardSet.parse("7S 8S JH")
    b = CardSet.parse("8S JH AC")
    assert a | b == CardSet.parse("7S 8S JH AC")
    assert a & b == CardSet.parse("8S JH")
    assert a - b == CardSet.parse("7S")
    assert a ^ b == CardSet.parse("7S AC")
    assert len(~a) == 29 and not (~a & a)
    assert CardSet.parse("8S") <= a and CardSet.parse("8S") < a
    assert a <= a and not a < a
    assert a >= CardSet.parse("7S JH") and a > CardSet.parse("7S JH")
    assert not a >= b
    # The other operand may be any iterable of cards.
    assert a | {parse_card("AC")} == CardSet.parse("7S 8S JH AC")
    assert {parse_card("AC")} | a == CardSet.parse("7S 8S JH AC")
    assert a & [parse_card("JH")] == CardSet.parse("JH")


def test_cardset_named_methods() -> None:
    """union, intersection, difference (several arguments), symmetric_difference and the
    subset tests."""
    a = CardSet.parse("7S 8S JH")
    b = CardSet.parse("8S JH AC")
    c = CardSet.parse("JH QD")
    assert a.union(b, c) == CardSet.parse("7S 8S JH AC QD")
    assert a.intersection(b, c) == CardSet.parse("JH")
    assert a.difference(b, c) == CardSet.parse("7S")
    assert a.symmetric_difference(b) == CardSet.parse("7S AC")
    assert CardSet.parse("8S").issubset(a)
    assert a.issuperset(CardSet.parse("8S JH"))
    assert a.isdisjoint(CardSet.parse("AC QD"))
    assert not a.isdisjoint(b)
    assert a.copy() is a


def test_cardset_add_remove_discard_return_new_sets() -> None:
    """The set is immutable: add/remove/discard answer a new set and leave the old one."""
    a = CardSet.parse("7S 8S")
    jh = parse_card("JH")
    assert a.add(jh) == CardSet.parse("7S 8S JH")
    assert a.remove(parse_card("7S")) == CardSet.parse("8S")
    assert a.discard(jh) == a
    assert a.discard(parse_card("8S")) == CardSet.parse("7S")
    assert a == CardSet.parse("7S 8S")
    with pytest.raises(KeyError):
        a.remove(jh)


def test_cardset_is_immutable_and_hashable() -> None:
    """No attribute can be set; equal sets hash alike and can key a dict."""
    a = CardSet.parse("7S 8S")
    with pytest.raises(AttributeError):
        a.mask = 0  # type: ignore[misc]
    assert hash(a) == hash(CardSet.parse("8S 7S"))
    assert {a: 1}[CardSet.parse("8S 7S")] == 1


def test_cardset_survives_pickle_and_deepcopy() -> None:
    """Values of the engine (an Observation holds a CardSet) can be copied and pickled."""
    a = CardSet.parse("7S 8S")
    assert copy.deepcopy(a) == a
    assert pickle.loads(pickle.dumps(a)) == a


def test_cardset_equality_with_frozensets() -> None:
    """A CardSet equals the frozenset (or set) of the same cards."""
    a = CardSet.parse("7S JH")
    assert a == frozenset({0, 12})
    assert a == {0, 12}
    assert a != {0}
    assert a != {"7S", "JH"}
    assert a != "7S JH"


def test_cardset_equality_with_a_set_of_non_cards_is_false() -> None:
    """``==`` never raises: a set holding a number that is no card is simply not equal."""
    assert CardSet() != {40}


def test_cardset_masks_and_constructors() -> None:
    """A CardSet wraps a 32-bit mask: ``int()`` gives it back; ``suit()`` and ``full()``."""
    assert int(CardSet.parse("7S AS")) == 0b1000_0001
    assert CardSet(0b1000_0001) == CardSet.parse("7S AS")
    assert CardSet.suit(Suit.HEARTS).codes() == [r + "H" for r in "789TJQKA"]
    assert len(CardSet.full()) == 32
    assert CardSet.full() == CardSet(range(32))
    with pytest.raises(ValueError, match="out of range"):
        CardSet(1 << 32)
    with pytest.raises(ValueError, match="not a card"):
        CardSet([32])
    with pytest.raises(InvalidCardError):
        CardSet.parse("7S XX")


# ---------------------------------------------------------------------------------------------
# The two decks (docs/rules.md 1: French and Spanish-suited, names only)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "french", "spanish"),
    [
        ("JH", "jack of hearts", "sota de copas"),
        ("9S", "nine of spades", "seis de espadas"),
        ("QD", "queen of diamonds", "caballo de oros"),
        ("KC", "king of clubs", "rey de bastos"),
        ("AD", "ace of diamonds", "as de oros"),
        ("7C", "seven of clubs", "cuatro de bastos"),
        ("8H", "eight of hearts", "cinco de copas"),
        ("TS", "ten of spades", "siete de espadas"),
    ],
)
def test_card_names(code: str, french: str, spanish: str) -> None:
    """docs/rules.md 1: the Spanish ranks 4 5 6 7 10 11 12 1 are 7 8 9 10 J Q K A, and oros,
    copas, espadas, bastos are D, H, S, C."""
    card = parse_card(code)
    assert FRENCH.name(card) == french
    assert SPANISH.name(card) == spanish


def test_card_labels_and_sequence_order() -> None:
    """docs/rules.md 1: printed labels, and the printed sequence order of each deck."""
    jh, ts = parse_card("JH"), parse_card("TS")
    assert FRENCH.label(jh) == "J♥"
    assert FRENCH.label(ts) == "10♠"
    assert SPANISH.label(jh) == "10 copas"
    assert SPANISH.label(ts) == "7 espadas"
    assert FRENCH.sequence_labels() == ("7", "8", "9", "10", "J", "Q", "K", "A")
    assert SPANISH.sequence_labels() == ("4", "5", "6", "7", "10", "11", "12", "1")
    assert DECKS == {"french": FRENCH, "spanish": SPANISH}


def test_decks_are_frozen() -> None:
    """A deck's presentation is an immutable value."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        FRENCH.key = "x"  # type: ignore[misc]
