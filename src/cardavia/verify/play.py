"""Playing a trick: who wins it, and which cards a player may put down (docs/rules.md 5).

Written as a person checks it at the table: look at the suit led, at who is master, at the
trumps already down, then at what is in the hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

from cardavia.verify.cards import (
    ALL_TRUMP,
    NO_TRUMP,
    beats,
    check_card,
    check_cards,
    check_contract,
    check_seat,
    is_trump,
    next_seat,
    strength,
    suit_of,
    team_of,
)
from cardavia.verify.knobs import knob_choice, knob_flag

Trick = Sequence[tuple[str, str]]


def check_trick(trick: Trick) -> None:
    """Refuse a trick that is not up to four distinct cards played in turn order
    (docs/rules.md 2)."""
    if len(trick) > 4:
        raise ValueError(f"a trick has at most four cards, got {len(trick)}")
    check_cards(card for _, card in trick)
    for seat, _ in trick:
        check_seat(seat)
    for (seat, _), (later, _) in pairwise(trick):
        if later != next_seat(seat):
            raise ValueError(f"{later} cannot play after {seat}: turn order is N, E, S, W")


def trick_winner(contract: str, trick: Trick) -> str:
    """The seat whose card wins a trick, complete or not (docs/rules.md 5.5).

    The highest trump if a trump of a suit contract was played, otherwise the highest card of
    the suit led. In no-trump and all-trump only the suit led can win (docs/rules.md 5.3, 5.4).
    """
    check_contract(contract)
    if not trick:
        raise ValueError("an empty trick has no winner")
    check_trick(trick)
    led = suit_of(trick[0][1])
    trumps = [(seat, card) for seat, card in trick if is_trump(contract, card)]
    # docs/rules.md 5.5: any trump played -> the highest trump; otherwise the highest
    # of the suit led.
    candidates = trumps or [(seat, card) for seat, card in trick if suit_of(card) == led]
    best_seat, _ = max(candidates, key=lambda played: strength(contract, played[1]))
    return best_seat


def _higher_than_all(contract: str, cards: list[str], others: list[str]) -> list[str]:
    """The cards among ``cards`` that beat every card of ``others`` (same suit)."""
    return [card for card in cards if all(beats(contract, card, other) for other in others)]


def _no_trump_legal(hand: list[str], led: str) -> list[str]:
    """docs/rules.md 5.3: follow the suit led if you can, otherwise any card; nobody trumps."""
    following = [card for card in hand if suit_of(card) == led]
    return following or hand


def _all_trump_legal(hand: list[str], trick: Trick, led: str) -> list[str]:
    """docs/rules.md 5.4: follow the suit led and beat its highest card if you can; else any card.

    docs/rules.md 5.4 asks to beat the highest card of the suit led whoever holds it, partner too.
    """
    following = [card for card in hand if suit_of(card) == led]
    if not following:
        return hand
    led_cards = [card for _, card in trick if suit_of(card) == led]
    higher = _higher_than_all(ALL_TRUMP, following, led_cards)
    return higher or following


def _suit_contract_legal(
    knobs: Mapping[str, object], trump: str, hand: list[str], trick: Trick, seat: str
) -> list[str]:
    """docs/rules.md 5.1 and 5.2: a contract with one trump suit."""
    led = suit_of(trick[0][1])
    master = trick_winner(trump, trick)
    partner_is_master = team_of(master) == team_of(seat)
    my_trumps = [card for card in hand if suit_of(card) == trump]
    my_plain = [card for card in hand if suit_of(card) != trump]
    trumps_down = [card for _, card in trick if suit_of(card) == trump]
    my_higher_trumps = _higher_than_all(trump, my_trumps, trumps_down)

    if led == trump:
        if not my_trumps:
            return hand  # docs/rules.md 5.2: no card of the suit led (and no trump): any card
        # docs/rules.md 5.1: trump led: overtrump every trump down if you can, partner's included
        # (knob overtrump_partner_on_trump_lead); otherwise any trump.
        if partner_is_master and not knob_flag(knobs, "overtrump_partner_on_trump_lead"):
            return my_trumps
        return my_higher_trumps or my_trumps

    following = [card for card in hand if suit_of(card) == led]
    if following:
        return following  # docs/rules.md 5.1: you hold the suit led: you must play it
    if not my_trumps:
        return hand  # docs/rules.md 5.2: you hold no trump: any card

    if partner_is_master and not knob_flag(knobs, "must_trump_partner"):
        # docs/rules.md 5.2, partner master: any card; but whoever chooses to trump over a trump
        # already down must beat it if they can (knob overtrump_when_trumping_partner).
        if trumps_down and my_higher_trumps and knob_flag(knobs, "overtrump_when_trumping_partner"):
            return my_plain + my_higher_trumps
        return hand

    # docs/rules.md 5.2, an opponent is master (or must_trump_partner): trump,
    # overtrumping if you can.
    if my_higher_trumps:
        return my_higher_trumps
    # docs/rules.md 5.2: cannot overtrump: knob undertrump decides ("pisser" or any card).
    if knob_choice(knobs, "undertrump", ("required", "optional")) == "required":
        return my_trumps
    return hand


def legal_cards(
    knobs: Mapping[str, object],
    contract: str,
    trick: Trick,
    seat: str,
    hand: Iterable[str],
) -> frozenset[str]:
    """The cards of ``hand`` that ``seat`` may play on the current trick (docs/rules.md 5).

    ``trick`` holds the cards already down in this trick, in play order, as (seat, card);
    ``seat`` must be the next player. The leader of a trick may play any card.
    """
    check_contract(contract)
    check_seat(seat)
    check_trick(trick)
    cards = check_cards(hand)
    if not cards:
        raise ValueError("an empty hand has no card to play")
    if len(trick) == 4:
        raise ValueError("the trick is complete")
    if trick and seat != next_seat(trick[-1][0]):
        raise ValueError(f"it is {next_seat(trick[-1][0])}'s turn, not {seat}'s")
    down = {card for _, card in trick}
    if down & set(cards):
        raise ValueError(f"cards {sorted(down & set(cards))} are both in the hand and the trick")

    if not trick:
        return frozenset(cards)  # docs/rules.md 5: the leader plays any card
    led = suit_of(check_card(trick[0][1]))
    if contract == NO_TRUMP:
        return frozenset(_no_trump_legal(cards, led))
    if contract == ALL_TRUMP:
        return frozenset(_all_trump_legal(cards, trick, led))
    return frozenset(_suit_contract_legal(knobs, contract, cards, trick, seat))
