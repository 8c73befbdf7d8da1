"""A match: a single deal, or deals until a team reaches the target (docs/rules.md 9).

>>> import random
>>> from cardavia.belote.rules import find_rules
>>> match = Match.start(find_rules("cardavia"), dealer=Seat.W, rng=random.Random(3))
>>> while not match.is_over:
...     if match.deal.is_over:
...         match = match.next_deal(rng=random.Random(4))
...     else:
...         match = match.apply(match.deal.legal_actions[-1])
>>> match.winner is not None or match.scores[0] == match.scores[1]
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.belote.actions import Action
from cardavia.belote.cards import Card, Seat, Team
from cardavia.belote.game import DealState, Phase
from cardavia.belote.rules import Rules


@dataclass(frozen=True, slots=True)
class Match:
    """The deals played so far, the one in play, and the running score."""

    rules: Rules
    deal: DealState
    """The deal in play (or just finished, until :meth:`next_deal`)."""
    finished: tuple[DealState, ...] = ()
    """The deals before it, scored or cancelled."""
    scores: tuple[int, int] = (0, 0)
    """Each team's total, the current deal included once it is over."""
    reserve: int = 0
    """Points of a litige waiting for the winner of the next deal (docs/rules.md 8)."""
    winner: Team | None = None

    @classmethod
    def start(cls, rules: Rules, *, dealer: Seat = Seat.W, rng: random.Random) -> Match:
        """A new match with its first deal shuffled by ``rng``."""
        return cls(rules, DealState.deal(rules, dealer=dealer, rng=rng))

    @classmethod
    def from_deck(cls, rules: Rules, *, dealer: Seat, deck: Sequence[Card]) -> Match:
        """A new match whose first deal is a known deck."""
        return cls(rules, DealState.from_deck(rules, dealer=dealer, deck=deck))

    @property
    def is_over(self) -> bool:
        """Whether the match is decided (a single deal: once it is scored)."""
        return self.winner is not None or (
            not self.rules.is_match and self.deal.phase == Phase.OVER
        )

    @property
    def deals(self) -> tuple[DealState, ...]:
        """Every deal of the match, the current one last."""
        return (*self.finished, self.deal)

    def apply(self, action: Action) -> Match:
        """The match after ``action`` in the current deal; the score is settled when the deal
        ends."""
        deal = self.deal.apply(action)
        if deal.phase != Phase.OVER or deal.result is None:
            return Match(self.rules, deal, self.finished, self.scores, self.reserve, self.winner)
        result = deal.result
        scores = [self.scores[0] + result.scores[0], self.scores[1] + result.scores[1]]
        reserve = self.reserve
        if result.made is None:
            reserve += result.reserve
        elif reserve:
            # docs/rules.md 8: a litige's reserve goes to the winner of the next deal.
            takers = result.contract.team
            scores[takers if result.made else takers.other] += reserve
            reserve = 0
        winner = None
        target = self.rules.target
        if target is None:
            winner = (
                Team.NS if scores[0] > scores[1] else Team.EW if scores[1] > scores[0] else None
            )
        elif max(scores) >= target and scores[0] != scores[1]:
            # docs/rules.md 9: the higher total wins; a tie at or above the target plays on.
            winner = Team.NS if scores[0] > scores[1] else Team.EW
        return Match(self.rules, deal, self.finished, (scores[0], scores[1]), reserve, winner)

    def next_deal(self, *, rng: random.Random) -> Match:
        """The next deal, shuffled by ``rng``, dealt by the dealer's next (docs/rules.md 9)."""
        return self._next(DealState.deal(self.rules, dealer=self.deal.dealer.next, rng=rng))

    def next_deal_from_deck(self, deck: Sequence[Card]) -> Match:
        """The next deal from a known deck."""
        return self._next(DealState.from_deck(self.rules, dealer=self.deal.dealer.next, deck=deck))

    def _next(self, deal: DealState) -> Match:
        if not self.deal.is_over:
            raise ValueError("the current deal is not over")
        if self.is_over:
            raise ValueError("the match is over")
        return Match(self.rules, deal, (*self.finished, self.deal), self.scores, self.reserve, None)
