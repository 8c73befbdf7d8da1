"""What one seat may know of a deal: its own hand and everything public, nothing else.

Players (people in the browser and the terminal, the computer players) are given an
:class:`Observation`, never a ``DealState`` (:mod:`cardavia.belote.game` builds the one from
the other): the deck and the other hands are not in it.
Public are the bids, the contract, every card played, the kind and value of each
announcement when it is made, the cards of the announcements that win the comparison
(docs/rules.md 7), belote and rebelote as they are said, and the turned card of classic tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardavia.belote.actions import Action
from cardavia.belote.announcements import Announcement
from cardavia.belote.auction import Contract
from cardavia.belote.cards import Card, CardSet, Seat, Team
from cardavia.belote.deal import BeloteEvent, CardChoice, CompletedTrick, Phase, card_choice
from cardavia.belote.rules import Rules
from cardavia.belote.scoring import DealScore


@dataclass(frozen=True, slots=True)
class Declaration:
    """An announcement as the table hears it when it is made: its kind and value only."""

    seat: Seat
    name: str
    points: int


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a deal."""

    seat: Seat
    rules: Rules
    dealer: Seat
    phase: Phase
    to_move: Seat | None
    hand: CardSet
    """This seat's cards now."""
    hand_sizes: tuple[int, int, int, int]
    turned_card: Card | None
    """Classic tables: the card turned face up (it goes to the taker)."""
    history: tuple[Action, ...]
    """Every action so far: bids and plays are public."""
    contract: Contract | None
    trick: tuple[tuple[Seat, Card], ...]
    tricks: tuple[CompletedTrick, ...]
    points: tuple[int, int]
    declarations: tuple[Declaration, ...]
    """Each announcement made so far, kind and value only."""
    revealed: tuple[tuple[Seat, Announcement], ...]
    """After the first trick: the winning team's announcements, cards shown (docs/rules.md 7)."""
    announcement_winner: Team | None
    own_announcements: tuple[Announcement, ...]
    """This seat's own declared announcements (it knows its cards)."""
    belote_events: tuple[BeloteEvent, ...]
    legal_actions: tuple[Action, ...]
    """What this seat may do now (empty when it is not its turn)."""
    result: DealScore | None
    """The score, once the deal is over."""

    @property
    def played(self) -> CardSet:
        """Every card played so far, in finished tricks and the current one."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for _, card in self.trick:
            mask |= 1 << card
        return CardSet(mask)

    @property
    def is_my_turn_to_play(self) -> bool:
        """Whether this seat is to put down a card now."""
        return (
            self.phase == Phase.PLAYING and self.to_move == self.seat and self.contract is not None
        )

    def card_choice(self) -> CardChoice:
        """Which cards this seat may put down now, and why not the others, read off its own
        hand and the trick on the table (``ValueError`` when it is not its turn to play)."""
        if not self.is_my_turn_to_play or self.contract is None:
            raise ValueError(f"{self.seat.name} is not to play a card now")
        return card_choice(self.rules, self.contract.strain, self.trick, self.seat, self.hand)

    @property
    def unseen(self) -> CardSet:
        """The cards this seat has not seen: neither in its hand nor played."""
        return ~(self.hand | self.played)
