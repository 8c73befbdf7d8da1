"""The deal as a state machine (docs/rules.md 3–8): deal, bid, play eight tricks, score.

A :class:`DealState` is an immutable value. ``state.legal_actions`` lists what the player to
move may do, ``state.check(action)`` raises :class:`IllegalActionError` with a reason that
the site can word in any language, and ``state.apply(action)`` returns the next state.
``state.observation(seat)`` is what one seat may know.

>>> import random
>>> from cardavia.belote.rules import find_rules
>>> state = DealState.deal(find_rules("cardavia"), dealer=Seat.W, rng=random.Random(7))
>>> state.phase, state.to_move
(<Phase.BIDDING: 'bidding'>, <Seat.N: 0>)
>>> while not state.is_over:
...     state = state.apply(state.legal_actions[-1])
>>> sum(state.result.card_points) if state.result else "cancelled"
162
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any, Final, NamedTuple

from cardavia.belote.actions import Action, Bid, Coinche, Pass, Play, Surcoinche, Take
from cardavia.belote.announcements import (
    BELOTE_POINTS,
    Announcement,
    belote_pairs,
    best_announcements,
    comparison_winner,
)
from cardavia.belote.auction import (
    AuctionStatus,
    Contract,
    auction_status,
    auction_strains,
    bid_values,
    can_outbid,
    classic_status,
    classic_strains,
)
from cardavia.belote.cards import (
    ALL_CARDS,
    SEATS,
    SUITS,
    Card,
    CardSet,
    Seat,
    Suit,
    Team,
    card_code,
    mask_cards,
)
from cardavia.belote.deal import (
    MESSAGES,
    BeloteEvent,
    CardChoice,
    CompletedTrick,
    IllegalActionError,
    Phase,
    Reason,
)
from cardavia.belote.observation import Declaration, Observation
from cardavia.belote.play import (
    CardValues,
    Constraint,
    Strain,
    constraint,
    trick_points,
    values_for,
    winning_index,
)
from cardavia.belote.position import Position
from cardavia.belote.rules import Rules
from cardavia.belote.scoring import DealScore, score_deal

__all__ = [
    "MESSAGES",
    "BeloteEvent",
    "CardChoice",
    "CompletedTrick",
    "DealState",
    "IllegalActionError",
    "Phase",
    "Reason",
    "cut_and_shuffle",
    "deal_packets",
]


def _new_state(fields: tuple[Any, ...]) -> DealState:
    """A state from the tuple of its fields in declaration order (no checks: the hot path)."""
    return _tuple_new(DealState, fields)


_tuple_new: Final = tuple.__new__
# The phases as module names for the hot paths: reading a member through its enum class
# (``Phase.PLAYING``) goes through the metaclass, several times slower than a global, and a
# simulation asks for the phase at every card.
_BIDDING: Final = Phase.BIDDING
_PLAYING: Final = Phase.PLAYING
_OVER: Final = Phase.OVER
_CANCELLED: Final = Phase.CANCELLED
_PLAYS: Final = tuple(tuple(Play(seat, card) for card in ALL_CARDS) for seat in Seat)
_PASSES: Final = tuple(Pass(seat) for seat in Seat)
_COINCHES: Final = tuple(Coinche(seat) for seat in Seat)
_SURCOINCHES: Final = tuple(Surcoinche(seat) for seat in Seat)
_PLAYS_BY_BYTE: Final = tuple(
    tuple(
        tuple(
            tuple(_PLAYS[seat][suit * 8 + r] for r in range(8) if byte >> r & 1)
            for byte in range(256)
        )
        for suit in range(4)
    )
    for seat in Seat
)
"""``_PLAYS_BY_BYTE[seat][suit][byte]``: the plays of the cards of one suit in a mask's byte."""


@cache
def _bids_above(
    seat: Seat, floor: int, values: tuple[int, ...], strains: tuple[Strain, ...]
) -> tuple[Bid, ...]:
    """The bids ``seat`` may make over ``floor`` (made once, then shared)."""
    return tuple(
        Bid(seat, value, strain) for value in values if value > floor for strain in strains
    )


def cut_and_shuffle(rng: random.Random) -> tuple[Card, ...]:
    """A shuffled deck, then cut at a random point leaving at least three cards in each part
    (docs/rules.md 3; docs/rules-decisions.md)."""
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    cut = rng.randint(3, 29)
    return tuple(deck[cut:] + deck[:cut])


def deal_packets(
    dealer: Seat, deck: Sequence[Card], packets: Sequence[int], *, start: int = 0
) -> tuple[list[int], int]:
    """Deal ``packets`` (sizes) to each player in turn from the dealer's next, from
    ``deck[start]``; answers the four hands' masks and the index of the next card."""
    hands = [0, 0, 0, 0]
    index = start
    for size in packets:
        for offset in range(1, 5):
            seat = (dealer + offset) & 3
            for card in deck[index : index + size]:
                hands[seat] |= 1 << card
            index += size
    return hands, index


class DealState(NamedTuple):
    """One deal, from the distribution to the score. Immutable: :meth:`apply` returns a new one.

    A named tuple rather than a frozen dataclass: making a new state is the hot path of every
    simulation, and a tuple is built in C, several times faster (bench/deals.py).
    """

    rules: Rules
    dealer: Seat
    deck: tuple[Card, ...]
    """The 32 cards in the order they are dealt (the record keeps it)."""
    phase: Phase
    to_move: Seat | None
    hands: tuple[int, int, int, int]
    """Each seat's hand as a mask; see :meth:`hand`."""
    bids: tuple[Action, ...] = ()
    contract: Contract | None = None
    trick: tuple[tuple[Seat, Card], ...] = ()
    """The cards of the trick being played."""
    tricks: tuple[CompletedTrick, ...] = ()
    points: tuple[int, int] = (0, 0)
    """The card points each team has taken so far (without the last trick)."""
    declared: tuple[tuple[Announcement, ...], ...] = ((), (), (), ())
    """What each seat announced (docs/rules.md 7)."""
    belote_events: tuple[BeloteEvent, ...] = ()
    history: tuple[Action, ...] = ()
    result: DealScore | None = None
    values: CardValues | None = None
    """What the cards are worth under the contract (strength, points), once there is one."""
    belote_mask: int = 0
    """The trump K and Q held together by one player when the play began (docs/rules.md 6)."""
    rule: Constraint | None = None
    """While playing: the rule that decides the next card (:func:`play.constraint`)."""

    # -- making a deal -------------------------------------------------------------------

    @classmethod
    def deal(cls, rules: Rules, *, dealer: Seat = Seat.W, rng: random.Random) -> DealState:
        """A new deal: shuffle and cut with ``rng``, then deal (docs/rules.md 3)."""
        return cls.from_deck(rules, dealer=dealer, deck=cut_and_shuffle(rng))

    @classmethod
    def from_deck(cls, rules: Rules, *, dealer: Seat, deck: Sequence[Card]) -> DealState:
        """The deal of a deck in a known order (as a record gives it)."""
        deck = tuple(deck)
        if sorted(deck) != list(ALL_CARDS):
            raise ValueError("a deck must hold each of the 32 cards once")
        if rules.bidding == "classic":
            packets = [int(n) for n in rules.first_packets.split("-")]
        else:
            packets = [int(n) for n in rules.auction_packets.split("-")]
        dealer = Seat(dealer)
        hands, _ = deal_packets(dealer, deck, packets)
        return cls(
            rules=rules,
            dealer=dealer,
            deck=deck,
            phase=Phase.BIDDING,
            to_move=dealer.next,
            hands=(hands[0], hands[1], hands[2], hands[3]),
        )

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        *,
        contract: Contract,
        hands: Sequence[CardSet | int],
        trick: Sequence[tuple[Seat, Card]] = (),
        leader: Seat | None = None,
        tricks: Sequence[CompletedTrick] = (),
        dealer: Seat = Seat.W,
    ) -> DealState:
        """A position in the middle of the play, for analysis and tests: the cards each
        seat holds, the trick on the table (or its ``leader`` if it is empty) and the
        tricks already played. Such a state has no deck (``deck == ()``) and no bids, and
        no announcement or belote is said before it. The hands may be short (an endgame):
        the deal then ends when they are empty, and its score counts only what is played.
        """
        plays = tuple((Seat(s), c) for s, c in trick)
        first = plays[0][0] if plays else (leader if leader is not None else dealer.next)
        won = sum(1 for t in tricks if t.winner.team == Team.NS)
        position = Position.from_rules(
            rules,
            contract.strain,
            hands,
            trick=plays,
            leader=first,
            tricks_won=(won, len(tricks) - won),
        )
        masks = position.hands
        # The tricks listed, if any, account for every card not held or on the table.
        seen = masks[0] | masks[1] | masks[2] | masks[3]
        for _, card in plays:
            seen |= 1 << card
        for completed in tricks:
            for card in completed.cards:
                if seen >> card & 1:
                    raise ValueError(f"the {card_code(card)} is both held and played")
                seen |= 1 << card
        if tricks and position.tricks_left != 8 - len(tricks):
            raise ValueError("the hands do not match the tricks played")
        to_move = position.to_move
        values = values_for(rules, contract.strain)
        points = [0, 0]
        for completed in tricks:
            points[completed.winner & 1] += completed.points
        in_all_trump = rules.belote_in_all_trump
        belote_mask = 0
        for mask in masks:
            belote_mask |= belote_pairs(mask, contract.strain, in_all_trump=in_all_trump)
        return cls(
            rules=rules,
            dealer=dealer,
            deck=(),
            phase=Phase.PLAYING,
            to_move=to_move,
            hands=masks,
            contract=contract,
            trick=position.trick,
            tricks=tuple(tricks),
            points=(points[0], points[1]),
            values=values,
            belote_mask=belote_mask,
            rule=constraint(rules, values, position.trick, to_move, masks[to_move]),
        )

    def position(self) -> Position:
        """The position of a deal being played, every hand known (for the solver)."""
        if self.contract is None or self.to_move is None or self.phase is not Phase.PLAYING:
            raise ValueError("the deal is not in its play")
        return Position.from_rules(
            self.rules,
            self.contract.strain,
            self.hands,
            trick=self.trick,
            leader=self.trick[0][0] if self.trick else self.to_move,
            tricks_won=self.tricks_won,
        )

    # -- what can be seen ----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the deal is finished (scored or cancelled)."""
        return self.phase is _OVER or self.phase is _CANCELLED

    @property
    def turned_card(self) -> Card | None:
        """Classic tables: the card turned face up after the first distribution
        (docs/rules.md 3)."""
        return self.deck[20] if self.rules.bidding == "classic" and self.deck else None

    @property
    def strain(self) -> Strain | None:
        """The contract's strain, once the bidding is over."""
        return self.contract.strain if self.contract else None

    def hand(self, seat: Seat) -> CardSet:
        """The cards a seat holds now."""
        return CardSet(self.hands[seat])

    @property
    def strain_values(self) -> CardValues:
        """What the cards are worth under the contract's strain (once there is a contract)."""
        if self.values is None:
            raise ValueError("there is no contract yet")
        return self.values

    @property
    def team_points(self) -> tuple[int, int]:
        """The card points each team has taken so far (without the last trick)."""
        return self.points

    @property
    def tricks_won(self) -> tuple[int, int]:
        """The number of tricks each team has taken."""
        ns = sum(1 for t in self.tricks if t.winner & 1 == 0)
        return ns, len(self.tricks) - ns

    @property
    def announcement_winner(self) -> Team | None:
        """The team whose announcements count, once the first trick is over (docs/rules.md 7)."""
        if not self.rules.announcements or not self.tricks:
            return None
        return comparison_winner(self.declared)

    def best_announcements(self, seat: Seat) -> tuple[Announcement, ...]:
        """What the engine proposes that ``seat`` announce with its first card (docs/rules.md 7)."""
        if not self.rules.announcements or self.contract is None:
            return ()
        return best_announcements(self.hands[seat], self.contract.strain)

    def observation(self, seat: Seat) -> Observation:
        """What ``seat`` may know: its own hand and everything public, nothing else."""
        declarations = tuple(
            Declaration(Seat(s), item.name, item.points)
            for s in range(4)
            for item in self.declared[s]
        )
        winner = self.announcement_winner
        revealed: tuple[tuple[Seat, Announcement], ...] = ()
        if winner is not None:
            revealed = tuple((s, item) for s in winner.seats for item in self.declared[s])
        is_classic = self.rules.bidding == "classic"
        mine = tuple(a for a in self.legal_actions if a.seat == seat)
        hands = self.hands
        return Observation(
            seat=Seat(seat),
            rules=self.rules,
            dealer=self.dealer,
            phase=self.phase,
            to_move=self.to_move,
            hand=CardSet(hands[seat]),
            hand_sizes=(
                hands[0].bit_count(),
                hands[1].bit_count(),
                hands[2].bit_count(),
                hands[3].bit_count(),
            ),
            turned_card=self.turned_card if is_classic else None,
            history=self.history,
            contract=self.contract,
            trick=self.trick,
            tricks=self.tricks,
            points=self.points,
            declarations=declarations,
            revealed=revealed,
            announcement_winner=winner,
            own_announcements=self.declared[seat],
            belote_events=self.belote_events,
            legal_actions=mine,
            result=self.result,
        )

    # -- the rules of the next action -----------------------------------------------------

    def constraint(self) -> Constraint:
        """The rule that decides the next card (playing phase)."""
        if self.rule is None:
            raise ValueError(f"no card is played now: the deal is {self.phase.value}")
        return self.rule

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """Everything the rules allow now, for the player to move (and, with
        ``coinche_any_time``, the coinches of the other opponents)."""
        if self.phase is _PLAYING:
            return self._legal_plays()
        if self.phase is _BIDDING:
            return self._legal_bids()
        return ()

    def legal_cards(self) -> CardSet:
        """The cards the player to move may put down."""
        if self.phase is not _PLAYING:
            return CardSet()
        return CardSet(self.constraint().allowed)

    def card_choice(self) -> CardChoice:
        """Which cards the player to move may put down, and why not the others (playing
        phase; ``ValueError`` otherwise)."""
        rule = self.constraint()
        seat = self.to_move
        assert seat is not None
        return CardChoice.from_constraint(rule, seat, self.hands[seat])

    def _legal_plays(self) -> tuple[Action, ...]:
        seat, rule = self.to_move, self.rule
        assert seat is not None and rule is not None  # while playing, there is always a rule
        allowed = rule.allowed
        by_byte = _PLAYS_BY_BYTE[seat]
        actions: tuple[Action, ...] = (
            by_byte[0][allowed & 0xFF]
            + by_byte[1][allowed >> 8 & 0xFF]
            + by_byte[2][allowed >> 16 & 0xFF]
            + by_byte[3][allowed >> 24]
        )
        announce = not self.tricks and self._may_announce(seat)
        belote_cards = (
            self._belote_firsts(seat) & allowed
            if self.belote_mask & self.hands[seat] and self._declares_belote
            else 0
        )
        if announce or belote_cards:
            extra: list[Action] = []
            for card in mask_cards(allowed):
                if announce:
                    extra.append(Play(seat, card, announce=True))
                if belote_cards >> card & 1:
                    extra.append(Play(seat, card, belote=True))
                    if announce:
                        extra.append(Play(seat, card, announce=True, belote=True))
            actions += tuple(extra)
        return actions

    def _may_announce(self, seat: Seat) -> bool:
        # docs/rules.md 7: with one's first card, so with all eight in hand (an analysis position
        # that starts later has no announcements).
        return bool(
            self.rules.announcements
            and not self.tricks
            and self.hands[seat].bit_count() == 8
            and self.best_announcements(seat)
        )

    @property
    def _declares_belote(self) -> bool:
        return self.rules.belote_declaration == "declared"

    def _belote_firsts(self, seat: Seat) -> int:
        """Declared belote: the cards with which ``seat`` may say "belote" now."""
        if self.rules.belote_declaration != "declared" or self.contract is None:
            return 0
        return belote_pairs(
            self.hands[seat], self.contract.strain, in_all_trump=self.rules.belote_in_all_trump
        )

    def _legal_bids(self) -> tuple[Action, ...]:
        seat = self.to_move
        assert seat is not None
        actions: list[Action] = [_PASSES[seat]]
        if self.rules.bidding == "classic":
            status = classic_status(self.bids)
            turned = self.turned_card
            assert turned is not None
            actions += [
                Take(seat, strain)
                for strain in classic_strains(self.rules, status.round, SUITS[turned >> 3])
            ]
            return tuple(actions)
        auction = auction_status(self.bids)
        floor = auction.best.value if auction.best else 0
        strains = auction_strains(self.rules)
        if can_outbid(self.rules, auction):
            actions += _bids_above(seat, floor, bid_values(self.rules), strains)
        if auction.best is not None:
            if auction.coinche == 0:
                # In turn, or any opponent with coinche_any_time (docs/rules.md 4).
                coinchers = SEATS if self.rules.coinche_any_time else (seat,)
                actions += [_COINCHES[s] for s in coinchers if s.team != auction.best.seat.team]
            elif auction.coinche == 1 and seat.team == auction.best.seat.team:
                actions.append(_SURCOINCHES[seat])
        return tuple(actions)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with the reason if ``action`` is not allowed now."""
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalActionError(reason)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is allowed now."""
        return self.refusal(action) is None

    def refusal(self, action: object) -> Reason | None:
        """The reason ``action`` is refused now, or ``None`` if it is allowed."""
        if not isinstance(action, (Pass, Take, Bid, Coinche, Surcoinche, Play)):
            return Reason("not_an_action", {"action": repr(action)[:40]})
        if not isinstance(action.seat, Seat):
            return Reason("not_an_action", {"action": repr(action)[:40]})
        if self.phase is _PLAYING and isinstance(action, Play):
            return self._play_refusal(action)
        if self.phase is _BIDDING and not isinstance(action, Play):
            return self._bid_refusal(action)
        return Reason("wrong_phase", {"phase": self.phase.value})

    def _turn_refusal(self, seat: Seat) -> Reason | None:
        if seat != self.to_move:
            return Reason(
                "not_your_turn",
                {
                    "seat": seat.name,
                    "to_move": self.to_move.name if self.to_move is not None else "-",
                },
            )
        return None

    def _play_refusal(self, action: Play) -> Reason | None:
        seat, card = action.seat, action.card
        if seat.__class__ is not Seat:
            return Reason("not_an_action", {"action": repr(action)[:40]})
        turn = self._turn_refusal(seat)
        if turn:
            return turn
        if not isinstance(card, int) or not 0 <= card < 32:
            return Reason("not_an_action", {"action": repr(action)[:40]})
        if not self.hands[seat] >> card & 1:
            return Reason("not_in_hand", {"card": card_code(card), "seat": seat.name})
        rule = self.constraint()
        if not rule.allowed >> card & 1:
            return Reason(rule.code, rule.reason_args())
        if action.announce:
            if not self.rules.announcements:
                return Reason("no_announcements_in_rules")
            if self.tricks or self.hands[seat].bit_count() != 8:
                return Reason("announce_too_late")
            if not self.best_announcements(seat):
                return Reason("no_announcement", {"seat": seat.name})
        if action.belote:
            if self.rules.belote_declaration != "declared":
                return Reason("belote_automatic")
            if not self._belote_firsts(seat) >> card & 1:
                return Reason("belote_not_held")
        return None

    def _bid_refusal(self, action: Action) -> Reason | None:
        rules = self.rules
        if isinstance(action, Coinche) and rules.coinche_any_time and rules.bidding == "auction":
            pass  # an opponent may coinche out of turn
        else:
            turn = self._turn_refusal(action.seat)
            if turn:
                return turn
        if isinstance(action, Pass):
            return None
        if rules.bidding == "classic":
            if not isinstance(action, Take):
                return Reason("wrong_phase", {"phase": "classic bidding"})
            round_ = classic_status(self.bids).round
            turned = self.turned_card
            assert turned is not None
            if action.strain not in classic_strains(rules, round_, SUITS[turned >> 3]):
                if round_ == 1:
                    return Reason("must_take_turned_suit", {"suit": Suit(turned >> 3).code})
                return Reason("strain_not_allowed", {"strain": Strain(action.strain).code})
            return None
        auction = auction_status(self.bids)
        if isinstance(action, Bid):
            if action.value not in bid_values(rules) or action.strain not in auction_strains(rules):
                return Reason(
                    "bid_not_allowed",
                    {
                        "value": str(action.value),
                        "strain": str(getattr(action.strain, "code", action.strain)),
                    },
                )
            if not can_outbid(rules, auction):
                return Reason("contract_frozen")
            if auction.best is not None and action.value <= auction.best.value:
                return Reason("bid_too_low", {"value": str(auction.best.value)})
            return None
        if isinstance(action, Coinche):
            if (
                auction.best is None
                or auction.coinche
                or action.seat.team == auction.best.seat.team
            ):
                return Reason("cannot_coinche")
            return None
        if isinstance(action, Surcoinche):
            if (
                auction.best is None
                or auction.coinche != 1
                or action.seat.team != auction.best.seat.team
            ):
                return Reason("cannot_surcoinche")
            return None
        return Reason("wrong_phase", {"phase": "auction"})

    # -- moving on ------------------------------------------------------------------------

    def apply(self, action: Action) -> DealState:
        """The state after ``action``; :class:`IllegalActionError` if it is not allowed."""
        if action.__class__ is Play and self.phase is _PLAYING:
            card, rule = action.card, self.rule
            if (
                action.seat is self.to_move
                and card.__class__ is int
                and 0 <= card < 32
                and rule is not None
                and rule.allowed >> card & 1
                and action.announce is False
                and action.belote is False
            ):
                # The common case, checked in one go: the player to move puts down a card
                # the rule allows (so one in hand) and says nothing.
                return self._play(action)
            reason = self._play_refusal(action)
            if reason is not None:
                raise IllegalActionError(reason)
            return self._play(action)
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalActionError(reason)
        if isinstance(action, Play):
            return self._play(action)
        return self._bid(action)

    def _bid(self, action: Action) -> DealState:
        bids = (*self.bids, action)
        history = (*self.history, action)
        seat = action.seat
        if self.rules.bidding == "classic":
            status = classic_status(bids)
            if status.contract is not None:
                return self._start_play(status.contract, bids, history)
            if status.cancelled:
                return self._evolve(bids=bids, history=history, phase=Phase.CANCELLED, to_move=None)
            return self._evolve(bids=bids, history=history, to_move=seat.next)
        auction: AuctionStatus = auction_status(bids)
        if auction.contract is not None:
            return self._start_play(auction.contract, bids, history)
        if auction.cancelled:
            return self._evolve(bids=bids, history=history, phase=Phase.CANCELLED, to_move=None)
        # An out-of-turn coinche (coinche_any_time) does not take the turn of the player due.
        following = seat.next if seat == self.to_move else self.to_move
        return self._evolve(bids=bids, history=history, to_move=following)

    def _start_play(
        self, contract: Contract, bids: tuple[Action, ...], history: tuple[Action, ...]
    ) -> DealState:
        hands = list(self.hands)
        if self.rules.bidding == "classic":
            # docs/rules.md 3: the taker gets the turned card and 2 more, the others 3, from the
            # dealer's next.
            index = 21
            hands[contract.taker] |= 1 << self.deck[20]
            for offset in range(1, 5):
                seat = (self.dealer + offset) & 3
                count = 2 if seat == contract.taker else 3
                for card in self.deck[index : index + count]:
                    hands[seat] |= 1 << card
                index += count
        in_all_trump = self.rules.belote_in_all_trump
        belote_mask = 0
        for hand in hands:
            belote_mask |= belote_pairs(hand, contract.strain, in_all_trump=in_all_trump)
        return self._evolve(
            bids=bids,
            history=history,
            contract=contract,
            belote_mask=belote_mask,
            hands=(hands[0], hands[1], hands[2], hands[3]),
            phase=Phase.PLAYING,
            to_move=self.dealer.next,
            values=values_for(self.rules, contract.strain),
        )

    def _play(self, action: Play) -> DealState:
        # The hot path of every simulation: the state is unpacked in one step and the next
        # one built straight from a tuple of its fields, in declaration order.
        (rules, dealer, deck, _, _, hands, bids, contract, trick, tricks, points, declared,
         events, history, _, values, belote_mask, _) = self  # fmt: skip
        seat, card = action.seat, action.card
        bit = 1 << card
        if seat == 0:
            hands = (hands[0] ^ bit, hands[1], hands[2], hands[3])
        elif seat == 1:
            hands = (hands[0], hands[1] ^ bit, hands[2], hands[3])
        elif seat == 2:
            hands = (hands[0], hands[1], hands[2] ^ bit, hands[3])
        else:
            hands = (hands[0], hands[1], hands[2], hands[3] ^ bit)
        assert values is not None and contract is not None
        if action.announce:
            best = best_announcements(self.hands[seat], contract.strain)
            declared = tuple(best if s == seat else d for s, d in enumerate(declared))
        if bit & belote_mask:
            events = self._belote(seat, card, action.belote, events)
        trick = (*trick, (seat, card))
        history = (*history, action)
        if len(trick) < 4:
            following = SEATS[(seat + 1) & 3]
            rule = constraint(rules, values, trick, following, hands[following])
            return _new_state((rules, dealer, deck, _PLAYING, following, hands, bids,
                               contract, trick, tricks, points, declared, events, history,
                               None, values, belote_mask, rule))  # fmt: skip
        cards = (trick[0][1], trick[1][1], trick[2][1], trick[3][1])
        winner = trick[winning_index(values, cards)][0]
        value = trick_points(values, cards)
        tricks = (*tricks, CompletedTrick(trick[0][0], cards, winner, value))
        ns, ew = points
        points = (ns, ew + value) if winner & 1 else (ns + value, ew)
        if not any(hands):
            done = _new_state((rules, dealer, deck, _PLAYING, None, hands, bids, contract,
                               (), tricks, points, declared, events, history, None, values,
                               belote_mask, None))  # fmt: skip
            return done._finish()
        rule = constraint(rules, values, (), winner, hands[winner])
        return _new_state((rules, dealer, deck, _PLAYING, winner, hands, bids, contract,
                           (), tricks, points, declared, events, history, None, values,
                           belote_mask, rule))  # fmt: skip

    def _belote(
        self, seat: Seat, card: Card, said: bool, events: tuple[BeloteEvent, ...]
    ) -> tuple[BeloteEvent, ...]:
        """docs/rules.md 6: the first of the pair says "belote" (automatically or when declared),
        the second "rebelote" if the first was said."""
        assert self.contract is not None
        pairs = belote_pairs(
            self.hands[seat], self.contract.strain, in_all_trump=self.rules.belote_in_all_trump
        )
        played_pairs = 0
        for event in events:
            if event.seat == seat and event.word == "belote":
                played_pairs |= 1 << event.card
        if pairs >> card & 1:
            # Both cards of the pair are still in hand: this is the first one.
            if self.rules.belote_declaration == "automatic" or said:
                return (*events, BeloteEvent(seat, card, "belote"))
            return events
        rank = card & 7
        partner_card = card - rank + 11 - rank if rank in (5, 6) else -1  # Q (5) ↔ K (6)
        if partner_card >= 0 and played_pairs >> partner_card & 1:
            return (*events, BeloteEvent(seat, card, "rebelote"))
        return events

    def _finish(self) -> DealState:
        """Score the finished deal (docs/rules.md 8)."""
        contract, values = self.contract, self.values
        assert contract is not None and values is not None
        belote = [0, 0]
        for event in self.belote_events:
            if event.word == "rebelote":
                belote[event.seat & 1] += BELOTE_POINTS
        taker_tricks = sum(1 for t in self.tricks if t.winner == contract.taker)
        result = score_deal(
            self.rules,
            contract,
            trick_points=self.points,
            tricks_won=self.tricks_won,
            last_trick=self.tricks[-1].winner.team,
            taker_tricks=taker_tricks,
            belote=(belote[0], belote[1]),
            declared=self.declared if self.rules.announcements else ((), (), (), ()),
        )
        return self._evolve(phase=_OVER, to_move=None, result=result)

    def _evolve(self, **changes: Any) -> DealState:
        """A copy with some fields changed, and the rule of the next card worked out anew."""
        state = self._replace(**changes)
        if state.phase is _PLAYING and state.values is not None and state.to_move is not None:
            seat = state.to_move
            rule = constraint(state.rules, state.values, state.trick, seat, state.hands[seat])
            return state._replace(rule=rule)
        return state if state.rule is None else state._replace(rule=None)

    # -- reading back -----------------------------------------------------------------------

    def replay(self, actions: Sequence[Action]) -> DealState:
        """The state after applying ``actions`` in order (each checked)."""
        state = self
        for action in actions:
            state = state.apply(action)
        return state

    def initial(self) -> DealState:
        """The state of this deal before any action."""
        return DealState.from_deck(self.rules, dealer=self.dealer, deck=self.deck)

    def dealt_hands(self) -> tuple[CardSet, ...]:
        """Each seat's eight cards once the deal is complete (the second distribution of
        classic tables included), or the hands as dealt if the bidding is not over."""
        start = self.initial()
        if self.contract is None:
            return tuple(CardSet(m) for m in start.hands)
        taken = start._start_play(self.contract, self.bids, self.history[: len(self.bids)])
        return tuple(CardSet(m) for m in taken.hands)
