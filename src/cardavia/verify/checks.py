"""Checking that a deal record was played by the rules, card by card.

:func:`score_deal` counts a record as given; :func:`deal_problems` says what in it breaks the
rules: a trick led by the wrong seat, a card that was not legal, an announcement that is not
the hand's best set, a "belote" said by a seat that did not hold it. Each seat's hand is
rebuilt from the cards it played.
"""

from __future__ import annotations

from collections.abc import Mapping

from cardavia.verify.announcements import best_announcements
from cardavia.verify.cards import SEATS
from cardavia.verify.knobs import knob_choice, knob_flag
from cardavia.verify.play import legal_cards
from cardavia.verify.scoring import (
    belote_holders,
    belote_suits,
    read_announcements,
    read_belote_declared,
    read_contract,
    read_tricks,
)


def deal_problems(knobs: Mapping[str, object], deal: Mapping[str, object]) -> list[str]:
    """Every rule the record breaks, in words; an empty list for a clean deal.

    A record whose shape is wrong (not 8 tricks of 4 cards, not the 32 cards) raises
    ValueError instead, as in :func:`score_deal`.
    """
    contract = read_contract(deal)
    trump = contract.trump
    tricks = read_tricks(deal, trump)
    problems: list[str] = []

    # Each seat's hand is the eight cards it played.
    hands: dict[str, set[str]] = {seat: set() for seat in SEATS}
    for trick in tricks:
        for seat, card in trick.plays:
            hands[seat].add(card)
    dealt = {seat: frozenset(cards) for seat, cards in hands.items()}
    for seat, cards in dealt.items():
        if len(cards) != 8:
            problems.append(f"{seat} played {len(cards)} cards, not 8")

    for number, trick in enumerate(tricks, start=1):
        # docs/rules.md 5.5: the winner of a trick leads the next one.
        if number > 1 and trick.plays[0][0] != tricks[number - 2].winner:
            problems.append(
                f"trick {number} is led by {trick.plays[0][0]}, "
                f"but {tricks[number - 2].winner} won trick {number - 1}"
            )
        for position, (seat, card) in enumerate(trick.plays):
            before = list(trick.plays[:position])
            allowed = legal_cards(knobs, trump, before, seat, hands[seat])
            if card not in allowed:
                problems.append(f"trick {number}: {seat} played {card}, allowed {sorted(allowed)}")
            hands[seat].discard(card)

    # rules-decisions.md "Announcements": the best set or nothing, and only where played.
    declared = read_announcements(deal)
    playing_announcements = knob_flag(knobs, "announcements")
    for seat, announcements in declared.items():
        if not announcements:
            continue
        if not playing_announcements:
            problems.append(f"{seat} announced, but this rule set has no announcements")
            continue
        best, _ = best_announcements(dealt[seat], trump)
        said = sorted(sorted(cards) for cards in announcements)
        if said != sorted(sorted(cards) for cards in best):
            problems.append(f"{seat} announced {said}, not its best set {best}")

    # docs/rules.md 6: only the holder of the belote can say "belote".
    if knob_choice(knobs, "belote_declaration", ("automatic", "declared")) == "declared":
        holders = set(belote_holders(knobs, trump, tricks))
        pair_cards = {
            rank + suit for _, suit in belote_suits(knobs, trump, tricks) for rank in "KQ"
        }
        for entry in sorted(read_belote_declared(deal) - holders - pair_cards):
            problems.append(f"{entry} said belote without holding the trump K and Q")
    return problems
