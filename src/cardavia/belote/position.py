"""A position of the play with all four hands known: the one value that the engine
(:meth:`DealState.from_position <cardavia.belote.game.DealState.from_position>`,
:meth:`DealState.position <cardavia.belote.game.DealState.position>`), the double-dummy
solver and the rules oracle share, built and checked here only.

>>> from cardavia.belote.cards import parse_card
>>> from cardavia.belote.rules import find_rules
>>> hands = [CardSet.parse(h) for h in ("AS", "TS", "7S", "KS")]
>>> position = Position.from_rules(find_rules("maison"), Strain.NO_TRUMP, hands, leader=Seat.N)
>>> position.to_move, position.legal_cards(), position.remaining_points
(<Seat.N: 0>, CardSet('AS'), 33)
>>> position.play(parse_card("AS")).trick
((<Seat.N: 0>, 7),)
>>> Position.from_rules(find_rules("maison"), Strain.NO_TRUMP, [hands[0]] * 4, leader=Seat.N)
Traceback (most recent call last):
...
ValueError: the hands must be disjoint sets of cards
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.belote.cards import Card, CardSet, Seat, Team, card_code
from cardavia.belote.deal import Reason
from cardavia.belote.play import (
    CardValues,
    Strain,
    constraint,
    values_for,
    winning_index,
)
from cardavia.belote.rules import Rules
from cardavia.belote.scoring import USUAL_DEAL_TOTAL


@dataclass(frozen=True, slots=True)
class Position:
    """A position of the play with all four hands known, under its rules.

    ``hands``: each seat's cards as a mask; ``trick``: the cards on the table in play order,
    each with its seat; ``leader``: the seat that led the trick (or leads it, if the table is
    empty); ``tricks_won``: the tricks N–S and E–W have taken, for the capot. The hands hold
    what is left of whole tricks: the seats still to play to the trick one card more than
    the others. Every check is made when the value is built.
    """

    rules: Rules
    strain: Strain
    hands: tuple[int, int, int, int]
    trick: tuple[tuple[Seat, Card], ...] = ()
    leader: Seat = Seat.N
    tricks_won: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        if not isinstance(self.rules, Rules):
            raise TypeError(f"a position's rules must be Rules, not {self.rules!r}")
        hands = tuple(h.mask if isinstance(h, CardSet) else int(h) for h in self.hands)
        if len(hands) != 4:
            raise ValueError("a position needs four hands")
        setattr_(self, "strain", Strain(self.strain))
        setattr_(self, "leader", Seat(self.leader))
        setattr_(self, "hands", hands)
        setattr_(self, "trick", tuple((Seat(s), int(c)) for s, c in self.trick))
        setattr_(self, "tricks_won", (int(self.tricks_won[0]), int(self.tricks_won[1])))
        seen = 0
        for mask in self.hands:
            if not 0 <= mask < 1 << 32 or mask & seen:
                raise ValueError("the hands must be disjoint sets of cards")
            seen |= mask
        if len(self.trick) > 3:
            raise ValueError("a trick in progress holds at most three cards")
        for index, (seat, card) in enumerate(self.trick):
            if seat != (self.leader + index) & 3:
                raise ValueError("the trick's cards are not in turn order from the leader")
            if not 0 <= card < 32:
                raise ValueError(f"card {card} is not a card")
            for holder in Seat:
                if self.hands[holder] >> card & 1:
                    raise ValueError(
                        f"the {card_code(card)} is both in {holder.name}'s hand and in the trick"
                    )
            seen |= 1 << card
        to_move = self.to_move
        left = self.hands[to_move].bit_count()
        if left == 0:
            raise ValueError(f"{to_move.name} is to play but holds no card")
        for offset in range(4):
            seat = Seat((self.leader + offset) & 3)
            expected = left - 1 if offset < len(self.trick) else left
            count = self.hands[seat].bit_count()
            if count != expected:
                raise ValueError(
                    f"{seat.name} holds {_cards(count)}, not {expected}: {to_move.name}, to "
                    f"play, holds {_cards(left)}, and each seat one fewer once it has played to "
                    "the trick"
                )
        if left > 8:
            raise ValueError(f"{to_move.name} holds {left} cards: more than eight")
        taken = self.tricks_won[0] + self.tricks_won[1]
        if min(self.tricks_won) < 0 or taken + left > 8:
            raise ValueError(
                f"{taken} tricks taken and {left} to play: more than eight in the deal"
            )

    @classmethod
    def from_rules(
        cls,
        rules: Rules,
        strain: Strain,
        hands: Sequence[CardSet | int],
        *,
        trick: Sequence[tuple[Seat, Card]] = (),
        leader: Seat | None = None,
        tricks_won: tuple[int, int] = (0, 0),
    ) -> Position:
        """A position under ``rules``; the leader is the trick's first seat if cards are on
        the table (``leader``, if given too, must be that seat)."""
        masks = tuple(h.mask if isinstance(h, CardSet) else int(h) for h in hands)
        if len(masks) != 4:
            raise ValueError("a position needs four hands")
        if trick and leader is not None and Seat(leader) != trick[0][0]:
            raise ValueError(
                f"the leader is {Seat(leader).name}, but {trick[0][0].name} led the trick"
            )
        first = trick[0][0] if trick else leader
        if first is None:
            raise ValueError("an empty table needs a leader")
        return cls(
            rules=rules,
            strain=strain,
            hands=(masks[0], masks[1], masks[2], masks[3]),
            trick=tuple(trick),
            leader=Seat(first),
            tricks_won=tricks_won,
        )

    @property
    def values(self) -> CardValues:
        """The card values of the contract kind under the rules' point scales."""
        return values_for(self.rules, self.strain)

    @property
    def to_move(self) -> Seat:
        """The seat that plays next."""
        return Seat((self.leader + len(self.trick)) & 3)

    @property
    def side_to_move(self) -> Team:
        """The side of the seat that plays next."""
        return self.to_move.team

    @property
    def tricks_left(self) -> int:
        """The tricks still to complete, the one on the table included."""
        return (sum(h.bit_count() for h in self.hands) + len(self.trick) + 3) // 4

    @property
    def remaining_points(self) -> int:
        """The card points still to take: those in the hands and on the table."""
        points = self.values.points
        held = sum(points[c] for hand in self.hands for c in CardSet(hand))
        return held + sum(points[c] for _, c in self.trick)

    @property
    def capot_open(self) -> tuple[bool, bool]:
        """Whether N–S, E–W have taken every trick of the deal so far (so that the rest
        would make capot): never in an endgame that does not count the earlier tricks."""
        full = sum(self.tricks_won) + self.tricks_left == 8
        ns, ew = self.tricks_won
        return (full and ew == 0, full and ns == 0)

    @property
    def capot_bonus(self) -> int:
        """What a capot adds to the points of the cards and the last trick (docs/rules.md 8:
        ``capot_points`` in place of the 152 + 10 of the usual scales; the capot follows the
        scale in force, so the bonus is the same under every scale,
        :func:`cardavia.belote.scoring.capot_value`)."""
        return self.rules.capot_points - USUAL_DEAL_TOTAL

    def trick_refusal(self) -> tuple[Seat, Card, Reason] | None:
        """The first card of the trick on the table that its seat could not have played from
        the hand it holds now (plus that card), with the rule's reason; ``None`` if each was
        legal (docs/rules.md 5). The solver does not need it; a position given by a person does."""
        values = self.values
        for index, (seat, card) in enumerate(self.trick):
            hand = self.hands[seat] | 1 << card
            rule = constraint(self.rules, values, self.trick[:index], seat, hand)
            if not rule.allowed >> card & 1:
                return seat, card, Reason(rule.code, rule.reason_args())
        return None

    def legal_cards(self) -> CardSet:
        """The cards the seat to move may play (the engine's rule, docs/rules.md 5)."""
        seat = self.to_move
        rule = constraint(self.rules, self.values, self.trick, seat, self.hands[seat])
        return CardSet(rule.allowed)

    def play(self, card: Card) -> Position:
        """The position after the seat to move plays ``card`` (checked); ``ValueError`` if
        it is the deal's last card."""
        if card not in self.legal_cards():
            raise ValueError(f"the {card_code(card)} may not be played now")
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] ^= 1 << card
        trick = (*self.trick, (seat, card))
        leader, won = self.leader, self.tricks_won
        if len(trick) == 4:
            if not any(hands):
                raise ValueError("that card ends the deal")
            leader = trick[winning_index(self.values, [c for _, c in trick])][0]
            won = (won[0] + 1, won[1]) if leader.team == Team.NS else (won[0], won[1] + 1)
            trick = ()
        return dataclasses.replace(
            self,
            hands=(hands[0], hands[1], hands[2], hands[3]),
            trick=trick,
            leader=leader,
            tricks_won=won,
        )

    def __str__(self) -> str:
        hands = " / ".join(f"{Seat(s).name}: {CardSet(h)}" for s, h in enumerate(self.hands))
        trick = " ".join(card_code(c) for _, c in self.trick) or "-"
        return f"{self.strain.code} {hands} | {self.leader.name} led: {trick}"


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"
