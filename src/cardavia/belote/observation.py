"""What one seat may know of a deal: its own hand and everything public, nothing else.

Players (people in the browser, the computer players) are given an :class:`Observation`,
never a :class:`~cardavia.belote.game.DealState`: the deck and the other hands are not in it.
Public are the bids, the contract, every card played, the kind and value of each
announcement when it is made, the cards of the announcements that win the comparison
(RULES.md 7), belote and rebelote as they are said, and the turned card of classic tables.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardavia.belote.actions import Action
from cardavia.belote.announcements import Announcement
from cardavia.belote.auction import Contract
from cardavia.belote.cards import Card, CardSet, Seat, Team
from cardavia.belote.rules import Rules
from cardavia.belote.scoring import DealScore

if TYPE_CHECKING:
    from cardavia.belote.game import BeloteEvent, CompletedTrick, DealState, Phase


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
    """After the first trick: the winning team's announcements, cards shown (RULES.md 7)."""
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

    def sample_worlds(self, rng: random.Random, count: int) -> list[tuple[int, int, int, int]]:
        """``count`` deals of the hidden cards consistent with everything this seat has seen
        (:mod:`cardavia.belote.worlds`), as the four hands' masks."""
        from cardavia.belote.worlds import sample_worlds

        return sample_worlds(self, rng, count)

    @property
    def unseen(self) -> CardSet:
        """The cards this seat has not seen: neither in its hand nor played."""
        return ~(self.hand | self.played)


def observe(state: DealState, seat: Seat) -> Observation:
    """The observation of ``state`` from ``seat``."""
    declarations = tuple(
        Declaration(Seat(s), item.name, item.points) for s in range(4) for item in state.declared[s]
    )
    winner = state.announcement_winner
    revealed: tuple[tuple[Seat, Announcement], ...] = ()
    if winner is not None:
        revealed = tuple((s, item) for s in winner.seats for item in state.declared[s])
    is_classic = state.rules.bidding == "classic"
    legal = state.legal_actions
    mine = tuple(a for a in legal if a.seat == seat)
    return Observation(
        seat=Seat(seat),
        rules=state.rules,
        dealer=state.dealer,
        phase=state.phase,
        to_move=state.to_move,
        hand=CardSet(state.hands[seat]),
        hand_sizes=(
            state.hands[0].bit_count(),
            state.hands[1].bit_count(),
            state.hands[2].bit_count(),
            state.hands[3].bit_count(),
        ),
        turned_card=state.turned_card if is_classic else None,
        history=state.history,
        contract=state.contract,
        trick=state.trick,
        tricks=state.tricks,
        points=state.points,
        declarations=declarations,
        revealed=revealed,
        announcement_winner=winner,
        own_announcements=state.declared[seat],
        belote_events=state.belote_events,
        legal_actions=mine,
        result=state.result,
    )
