"""The exact double-dummy solver: with all four hands known, the card points each side makes
under best play, and random playouts; a compiled kernel with a readable reference.

The value of a position for a side is the card points that side takes from here to the end
of the deal, the trick on the table included, when it plays to take as many as it can and
the other side to leave it as few as it can. The last trick adds 10; a side that takes all
eight tricks of the deal has ``capot_points`` for the deal instead of its card points and
the 10 (docs/rules.md 1 and 8), so a position knows the tricks each side has taken. Belote and
announcements are not part of the value.

Two implementations answer every query: the C kernel :mod:`cardavia.ai._dds`
(``backend="c"``, the default) and the pure-Python reference :class:`_Search` in this module
(``backend="python"``). They are the same search: zero-window alpha-beta ("does the side take
N points?", fail-soft) with a transposition table at trick boundaries, equivalent cards
tried once, the same move ordering, and MTD(f) on top for the exact value. The legal cards
come from the engine's card values (:func:`cardavia.belote.play.constraint` in Python, the same
cases in C). The tests hold both to the same values, and to a brute-force minimax over the
engine's :class:`~cardavia.belote.game.DealState`.

Hearts are trump, West leads the last two tricks. Its jack and queen of diamonds are next to
each other in strength, but not worth the same (2 and 3 points), so both are solved:

>>> from cardavia.belote import CardSet, Seat, Team, card_code, find_rules
>>> hands = [CardSet.parse(h) for h in ("AD KC", "QH KD", "9S QS", "JD QD")]
>>> position = Position.from_rules(find_rules("cardavia"), Strain.HEARTS, hands, leader=Seat.W)
>>> {card_code(card): value for card, value in solve_root(position).items()}
{'JD': 20, 'QD': 19}
>>> solve(position), solve(position, backend="python"), solve(position, side=Team.NS)
(20, 20, 20)
>>> reaches(position, 20), reaches(position, 21)
(True, False)
"""

from __future__ import annotations

import importlib
import struct
from dataclasses import dataclass, field
from functools import cache
from typing import Final, Literal, Protocol, cast

from cardavia.belote import (
    LAST_TRICK_BONUS,
    Card,
    CardSet,
    CardValues,
    Position,
    Rules,
    Seat,
    Strain,
    Team,
    values_for,
)
from cardavia.belote.search import SUIT_MASKS, USUAL_DEAL_TOTAL, constraint, winning_index

__all__ = [
    "Backend",
    "KernelMissingError",
    "Order",
    "Position",
    "kernel_legal_mask",
    "kernel_stats",
    "playouts",
    "reaches",
    "solve",
    "solve_root",
]

Backend = Literal["c", "python"]
"""Which implementation answers: the compiled kernel or the pure-Python reference."""

Order = Literal["masters", "simple"]
"""The order the search tries the cards in (:meth:`_Search.score`): the values are the same,
the nodes visited are not. ``masters`` (the default) reads who holds the masters and who
can still beat a card, and visits about a quarter fewer nodes than ``simple``, the order of
December 2026, kept for the levels whose decisions are budgeted in nodes (a level's version
is the same decisions: :data:`cardavia.ai.levels.LEVEL_VERSIONS`)."""

_MASK64: Final = (1 << 64) - 1


# -- the card values both implementations search with --------------------------------------


@dataclass(frozen=True, slots=True)
class _Game:
    """The engine's card values of one contract kind, and what the search derives from them."""

    rules: Rules
    values: CardValues
    bonus: int
    """:attr:`~cardavia.belote.position.Position.capot_bonus`."""
    above: tuple[tuple[Card, ...], ...]
    """``above[card]``: the cards of its suit that beat it, weakest first."""
    runs: tuple[tuple[Card, ...], ...]
    """The runs of two or more cards of a suit adjacent in strength with equal points (the
    7 8 9 of a plain suit, the 7 8 of trump), weakest first."""
    run_cards: int
    """The mask of the cards of the runs."""
    search_order: Order
    """The order the search tries the cards in."""
    params: bytes = field(repr=False)
    """The card values packed for the C kernel (``_dds.c`` reads them)."""


_PARAMS: Final = struct.Struct("<32B32B32IIBBh")


@cache
def _game(rules: Rules, strain: Strain, search_order: Order = "masters") -> _Game:
    values = values_for(rules, strain)
    bonus = rules.capot_points - USUAL_DEAL_TOTAL  # docs/rules.md 8: the same under every scale
    order, points = values.order, values.points
    above = tuple(
        tuple(sorted(CardSet(values.beats[card]), key=lambda c: order[c])) for card in range(32)
    )
    runs: list[tuple[Card, ...]] = []
    for suit in range(4):
        by_strength = sorted(range(suit * 8, suit * 8 + 8), key=lambda c: order[c])
        run = [by_strength[0]]
        for card in [*by_strength[1:], -1]:
            if card >= 0 and points[card] == points[run[0]]:
                run.append(card)
                continue
            if len(run) >= 2:
                runs.append(tuple(run))
            run = [card]
    knobs = (
        (1 if rules.undertrump == "required" else 0)
        | (2 if rules.must_trump_partner else 0)
        | (4 if rules.overtrump_partner_on_trump_lead else 0)
        | (8 if rules.overtrump_when_trumping_partner else 0)
        | (16 if search_order == "simple" else 0)
    )
    params = _PARAMS.pack(*order, *points, *values.beats, values.trump_mask, strain, knobs, bonus)
    run_cards = sum(1 << card for run in runs for card in run)
    return _Game(rules, values, bonus, above, tuple(runs), run_cards, search_order, params)


def _game_of(position: Position, order: Order = "masters") -> _Game:
    if order not in ("masters", "simple"):
        raise ValueError(f"unknown order of search {order!r}: 'masters' or 'simple'")
    return _game(position.rules, position.strain, order)


# -- the compiled kernel ---------------------------------------------------------------------


_Packed = tuple[int, int, int, int, bytes, int, int]
"""A position as the kernel reads it: the four hands, the trick's cards, the leader, the
capot bits (1: N–S has every trick so far, 2: E–W)."""


class _Kernel(Protocol):
    """The functions of :mod:`cardavia.ai._dds` (``_dds.c``)."""

    def legal_mask(self, params: bytes, hand: int, trick: bytes, /) -> int: ...
    def solve(self, params: bytes, position: _Packed, side: int, /) -> int: ...
    def reaches(self, params: bytes, position: _Packed, side: int, target: int, /) -> bool: ...
    def solve_root(self, params: bytes, position: _Packed, /) -> list[tuple[int, int]]: ...
    def playouts(
        self, params: bytes, position: _Packed, n: int, seed: int, /
    ) -> tuple[int, int]: ...
    def stats(self) -> tuple[int, int]: ...


class KernelMissingError(ImportError):
    """The compiled kernel :mod:`cardavia.ai._dds` is not built, and ``backend="c"`` asked
    for it (there is no silent fallback to the slow reference)."""


_kernel_module: list[_Kernel] = []


def _kernel() -> _Kernel:
    if not _kernel_module:
        try:
            module = importlib.import_module("cardavia.ai._dds")
        except ImportError as error:
            raise KernelMissingError(
                "the compiled solver cardavia.ai._dds is not built: run `uv sync` (or "
                "`uv pip install -e .`) with a C compiler, or pass backend='python'"
            ) from error
        _kernel_module.append(cast(_Kernel, module))
    return _kernel_module[0]


def _packed(position: Position) -> _Packed:
    ns, ew = position.capot_open
    h = position.hands
    trick = bytes(c for _, c in position.trick)
    return (h[0], h[1], h[2], h[3], trick, position.leader, int(ns) | int(ew) << 1)


def kernel_legal_mask(position: Position) -> int:
    """The C kernel's legal cards for the seat to move (the tests hold it to the engine's)."""
    trick = bytes(c for _, c in position.trick)
    hand = position.hands[position.to_move]
    return _kernel().legal_mask(_game_of(position).params, hand, trick)


def kernel_stats() -> tuple[int, int]:
    """The nodes the C kernel's last search in this thread visited, and how many
    transposition-table entries of that search it had to overwrite (for the node budgets,
    the benchmark and the tests). The kernel keeps its table per thread and releases the
    GIL while it searches, so searches in several threads run in parallel."""
    return _kernel().stats()


# -- the queries -----------------------------------------------------------------------------


def _side(position: Position, side: Team | None) -> int:
    return int(position.side_to_move if side is None else Team(side))


def _check(backend: str) -> None:
    if backend not in ("c", "python"):
        raise ValueError(f"unknown backend {backend!r}: 'c' or 'python'")


def solve(
    position: Position,
    *,
    side: Team | None = None,
    backend: Backend = "c",
    order: Order = "masters",
) -> int:
    """The card points ``side`` (by default the side to move) takes from here under best
    play by both sides (the same under either :data:`Order`).

    >>> from cardavia.belote import CardSet, Seat, Team, find_rules
    >>> hands = [CardSet.parse(h) for h in ("AS", "TS", "7S", "KS")]
    >>> p = Position.from_rules(find_rules("maison"), Strain.NO_TRUMP, hands, leader=Seat.N)
    >>> solve(p), solve(p, side=Team.EW)
    (43, 0)
    """
    _check(backend)
    game = _game_of(position, order)
    if backend == "c":
        return _kernel().solve(game.params, _packed(position), _side(position, side))
    search = _Search(game, position, _side(position, side))
    return search.exact(search.upper_bound() // 2)


def reaches(
    position: Position,
    target: int,
    *,
    side: Team | None = None,
    backend: Backend = "c",
    order: Order = "masters",
) -> bool:
    """Whether ``side`` (by default the side to move) takes at least ``target`` points from
    here whatever the other side does: one zero-window search."""
    _check(backend)
    game = _game_of(position, order)
    if backend == "c":
        return _kernel().reaches(game.params, _packed(position), _side(position, side), target)
    search = _Search(game, position, _side(position, side))
    return search.search(target) >= target


def solve_root(
    position: Position, *, backend: Backend = "c", order: Order = "masters"
) -> dict[Card, int]:
    """For each legal card, the points the side to move takes from here (this trick
    included) if it plays that card and both sides play best afterwards."""
    _check(backend)
    game = _game_of(position, order)
    if backend == "c":
        return dict(_kernel().solve_root(game.params, _packed(position)))
    search = _Search(game, position, int(position.side_to_move))
    return search.root_values()


def playouts(
    position: Position, n: int, seed: int, *, backend: Backend = "c"
) -> tuple[float, float]:
    """The mean points N–S and E–W take from here over ``n`` random playouts to the end of
    the deal, each card drawn uniformly among the legal ones. ``seed`` makes the draws
    reproducible, and both backends draw the same cards from the same seed.

    >>> from cardavia.belote import CardSet, Seat, find_rules
    >>> hands = [CardSet.parse(h) for h in ("AS", "TS", "7S", "KS")]
    >>> p = Position.from_rules(find_rules("maison"), Strain.NO_TRUMP, hands, leader=Seat.N)
    >>> playouts(p, 100, seed=1)
    (43.0, 0.0)
    """
    _check(backend)
    if n <= 0:
        raise ValueError("n must be positive")
    seed &= _MASK64
    if backend == "c":
        ns, ew = _kernel().playouts(_game_of(position).params, _packed(position), n, seed)
    else:
        ns, ew = _Search(_game_of(position), position, 0).playouts(n, seed)
    return ns / n, ew / n


# -- the reference search --------------------------------------------------------------------


_INFINITY: Final = 1 << 20

_Undo = tuple[int, Card, int, int, tuple[Card, ...], tuple[bool, bool], int]
"""What :meth:`_Search.back` restores: the seat, its card, the leader, the best card's index,
the trick, the capot flags, the points in the hands."""


class _Search:
    """The search, readable; ``_dds.c`` is this class function for function.

    The position changes in place (:meth:`step`, :meth:`back`). Values are the points of
    ``side`` from the current position on: that side maximizes, the other minimizes. The
    transposition table maps a position at a trick boundary (:meth:`key`) to the bounds
    proved on its value and the card that last proved one.
    """

    def __init__(self, game: _Game, position: Position, side: int) -> None:
        self.game = game
        self.values = game.values
        self.points = game.values.points
        self.side = side
        self.hands = list(position.hands)
        self.trick: list[Card] = [card for _, card in position.trick]
        self.leader = int(position.leader)
        self.best = winning_index(self.values, self.trick) if self.trick else 0
        """The index in the trick of the card that wins it so far."""
        self.capot = position.capot_open
        """Whether N–S, E–W have taken every trick of the deal so far."""
        self.held = sum(self.points[c] for hand in self.hands for c in CardSet(hand))
        """The points of the cards in the hands."""
        self.tt: dict[tuple[int, int, int, int, int], tuple[int, int, int]] = {}
        self.nodes = 0

    # -- the position ---------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        """The seat to move."""
        return (self.leader + len(self.trick)) & 3

    @property
    def cards(self) -> int:
        """The cards in the hands."""
        return sum(hand.bit_count() for hand in self.hands)

    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not self.trick and not any(self.hands)

    def legal(self) -> int:
        """The legal cards of the seat to move, by the engine's rule (docs/rules.md 5)."""
        seat = self.seat
        trick = [(Seat((self.leader + i) & 3), c) for i, c in enumerate(self.trick)]
        return constraint(self.game.rules, self.values, trick, Seat(seat), self.hands[seat]).allowed

    def step(self, card: Card) -> tuple[int, int, _Undo]:
        """Play ``card``. If that completes the trick, its winner takes it and leads the
        next: answer the winner's side (-1 if the trick goes on), the points it takes (with
        the last trick's 10 and the capot's bonus), and what :meth:`back` needs."""
        seat = self.seat
        undo = (seat, card, self.leader, self.best, tuple(self.trick), self.capot, self.held)
        self.hands[seat] ^= 1 << card
        self.held -= self.points[card]
        if self.trick:
            best = self.trick[self.best]
            if card >> 3 == best >> 3:
                if self.values.order[card] > self.values.order[best]:
                    self.best = len(self.trick)
            elif self.values.trump_mask >> card & 1:
                self.best = len(self.trick)
        self.trick.append(card)
        if len(self.trick) < 4:
            return -1, 0, undo
        winner = (self.leader + self.best) & 3
        side = winner & 1
        points = sum(self.points[c] for c in self.trick)
        capot = (self.capot[0] and side == 0, self.capot[1] and side == 1)
        if not any(self.hands):
            points += LAST_TRICK_BONUS
            if capot[side]:
                points += self.game.bonus
        self.leader, self.best, self.trick, self.capot = winner, 0, [], capot
        return side, points, undo

    def back(self, undo: _Undo) -> None:
        """Undo a :meth:`step`."""
        seat, card, self.leader, self.best, trick, self.capot, self.held = undo
        self.trick = list(trick)
        self.hands[seat] |= 1 << card

    def remaining(self) -> int:
        """The cards not yet gathered in a trick: in the hands and on the table."""
        mask = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        for card in self.trick:
            mask |= 1 << card
        return mask

    def key(self) -> tuple[int, int, int, int, int]:
        """The transposition table's key of a position at a trick boundary: the hands, with
        the cards of each run of equal points moved down to its weakest places in the same
        order (the 8 and 9 left from a suit's 7 8 9 play as the 7 and 8 would: every
        comparison and every count of points is the same), the leader, and whether the
        capot is still open for the side."""
        canonical = [hand & ~self.game.run_cards for hand in self.hands]
        for run in self.game.runs:
            places = iter(run)
            for card in run:
                for owner in range(4):
                    if self.hands[owner] >> card & 1:
                        canonical[owner] |= 1 << next(places)
                        break
        meta = self.leader << 1 | self.capot[self.side]
        return (canonical[0], canonical[1], canonical[2], canonical[3], meta)

    # -- choosing the cards to try --------------------------------------------------------------

    def moves(self, legal: int, hint: int) -> list[Card]:
        """The legal cards worth trying, best first.

        Two cards of one hand adjacent in strength among the cards not yet gathered, and of
        equal points, are equivalent (every comparison with another card gives the same
        answer, and they count the same): only the stronger is tried. Adjacent cards of
        different points (the trump K and Q, the plain J and 9) are both tried. The order:
        the table's ``hint`` first, then by :meth:`score`, then by card."""
        remaining = self.remaining()
        points = self.points
        kept = []
        for card in CardSet(legal):
            above = next((c for c in self.game.above[card] if remaining >> c & 1), -1)
            if above >= 0 and legal >> above & 1 and points[above] == points[card]:
                continue
            kept.append(card)
        kept.sort(key=lambda c: (-self.score(c, remaining), c))
        if hint in kept:
            kept.remove(hint)
            kept.insert(0, hint)
        return kept

    def beaters(self, hand: int, lead: int, card: Card) -> int:
        """The cards of ``hand`` that beat ``card``, the one winning a trick led in the suit
        ``lead`` so far: following suit, the stronger cards of the suit; void in it, the
        trumps that beat it."""
        values = self.values
        if hand & SUIT_MASKS[lead]:
            return hand & values.beats[card] if card >> 3 == lead else 0
        if values.trump_mask >> card & 1:
            return hand & values.beats[card]
        return hand & values.trump_mask

    def simple_score(self, card: Card, remaining: int) -> int:
        """How promising a card looks in the ``simple`` order, higher first. Leading: a card
        no other hand can beat in its suit, the most points first, then the cheapest.
        Following: a card that takes the lead (last to play, the one with the most points;
        earlier, the weakest); then, under a partner who is master, the most points; then
        the cheapest."""
        points, order, beats = self.points, self.values.order, self.values.beats
        n = len(self.trick)
        if n == 0:
            others = remaining & ~self.hands[self.seat]
            return 50 - points[card] if others & beats[card] else 100 + points[card]
        best = self.trick[self.best]
        if card >> 3 == best >> 3:
            wins = order[card] > order[best]
        else:
            wins = bool(self.values.trump_mask >> card & 1)
        if wins:
            return 1000 + points[card] if n == 3 else 800 - order[card]
        if self.best == n - 2:
            return 600 + points[card]
        return 400 - points[card]

    def score(self, card: Card, remaining: int) -> int:
        """How promising a card looks in the ``masters`` order, higher first.

        Leading: a master (no opponent holds a stronger card of its suit, nor, for a plain
        card, is void in it with a trump), the most points first; then a card of a suit whose
        master the partner holds; then a plain card of a suit the partner can trump; then the
        rest; each the cheapest first. Following: a card that takes the lead (last to
        play, the one with the most points; earlier, one the next hand cannot beat, the
        weakest and then the points, before one it can); then, under a partner who is
        master (at the third hand, of a card the last cannot beat), the most points; then
        the cheapest."""
        if self.game.search_order == "simple":
            return self.simple_score(card, remaining)
        points, order, beats = self.points, self.values.order, self.values.beats
        trumps = self.values.trump_mask
        seat, n = self.seat, len(self.trick)
        if n == 0:
            suit = SUIT_MASKS[card >> 3]
            plain = not trumps >> card & 1
            opponents = remaining & (self.hands[(seat + 1) & 3] | self.hands[(seat + 3) & 3])
            master = not opponents & beats[card]
            for other in ((seat + 1) & 3, (seat + 3) & 3):
                hand = self.hands[other]
                if master and plain and not hand & suit and hand & trumps:
                    master = False
            if master:
                return 100 + points[card]
            mate = self.hands[(seat + 2) & 3]
            if plain and not mate & suit and mate & trumps:
                return 60 - points[card]
            if any(not opponents & beats[c] for c in CardSet(mate & suit)):
                return 70 - points[card]
            return 50 - points[card]
        best, lead = self.trick[self.best], self.trick[0] >> 3
        wins = order[card] > order[best] if card >> 3 == best >> 3 else bool(trumps >> card & 1)
        after = self.hands[(seat + 1) & 3]
        if wins:
            if n == 3:
                return 1000 + points[card]
            if self.beaters(after, lead, card):
                return 800 - order[card]
            return 900 - order[card] + points[card]
        if self.best == n - 2:
            if n == 2 and self.beaters(after, lead, best):
                return 400 - points[card]
            return 600 + points[card]
        return 400 - points[card]

    # -- the search ----------------------------------------------------------------------------

    def upper_bound(self) -> int:
        """The most the side could still take: every card left, the last trick, a capot."""
        on_table = sum(self.points[c] for c in self.trick)
        bonus = max(self.game.bonus, 0) if self.capot[self.side] else 0
        return self.held + on_table + LAST_TRICK_BONUS + bonus

    def last_trick(self) -> int:
        """The value of the last trick, which plays itself (one card in each hand)."""
        undos = []
        side = points = -1
        while side < 0:
            side, points, undo = self.step(self.hands[self.seat].bit_length() - 1)
            undos.append(undo)
        for undo in reversed(undos):
            self.back(undo)
        return points if side == self.side else 0

    def search(self, beta: int) -> int:
        """Zero-window search: a value ``v >= beta`` if the side takes at least ``beta``
        points from here (then at least ``v``), ``v < beta`` if not (then at most ``v``)."""
        self.nodes += 1
        if self.cards + len(self.trick) == 4:
            return self.last_trick()
        hint = -1
        key = None
        if not self.trick:
            key = self.key()
            low, high = 0, self.upper_bound()
            entry = self.tt.get(key)
            if entry is not None:
                low, high, hint = max(low, entry[0]), min(high, entry[1]), entry[2]
            if low >= beta:
                return low
            if high < beta:
                return high
        maximizing = self.seat & 1 == self.side
        best_value = -_INFINITY if maximizing else _INFINITY
        best_card = hint
        for card in self.moves(self.legal(), hint):
            side, points, undo = self.step(card)
            gain = points if side == self.side else 0
            value = gain if self.is_over() else gain + self.search(beta - gain)
            self.back(undo)
            if maximizing and value > best_value:
                best_value, best_card = value, card
                if value >= beta:
                    break
            elif not maximizing and value < best_value:
                best_value, best_card = value, card
                if value < beta:
                    break
        if key is not None:
            low, high, _ = self.tt.get(key, (0, _INFINITY, -1))
            if best_value >= beta:
                low = max(low, best_value)
            else:
                high = min(high, best_value)
            self.tt[key] = (low, high, best_card)
        return best_value

    def exact(self, guess: int) -> int:
        """The exact value from here by MTD(f): zero-window searches that move the lower or
        the upper bound until they meet, the first at ``guess``, the step doubling while
        the bound moves the same way."""
        if self.is_over():
            return 0
        low, high = 0, self.upper_bound()
        stride, direction = 1, 0
        while low < high:
            if direction > 0:
                beta = low + stride
            elif direction < 0:
                beta = high + 1 - stride
            else:
                beta = guess
            beta = min(max(beta, low + 1), high)
            value = self.search(beta)
            if value >= beta:
                low = value
                stride, direction = (stride * 2 if direction > 0 else 1), 1
            else:
                high = value
                stride, direction = (stride * 2 if direction < 0 else 1), -1
        return low

    def root_values(self) -> dict[Card, int]:
        """The exact value of each legal card of the seat to move, each search starting
        from the previous card's value; a card left out as equivalent takes the value of the
        stronger card it goes with."""
        legal = self.legal()
        remaining = self.remaining()
        values: dict[Card, int] = {}
        guess = self.upper_bound() // 2
        for card in self.moves(legal, -1):
            side, points, undo = self.step(card)
            gain = points if side == self.side else 0
            values[card] = gain + self.exact(guess - gain)
            self.back(undo)
            guess = values[card]
        for card in sorted(CardSet(legal), key=lambda c: -self.values.order[c]):
            if card not in values:
                above = next(c for c in self.game.above[card] if remaining >> c & 1)
                values[card] = values[above]
        return dict(sorted(values.items()))

    # -- random playouts -----------------------------------------------------------------------

    def playouts(self, n: int, seed: int) -> tuple[int, int]:
        """The total points of N–S and E–W over ``n`` random playouts. The cards are drawn
        as the C kernel draws them: SplitMix64, a draw only when there is a choice, and the
        ``(draw >> 32) * count >> 32``-th legal card counted from the lowest code."""
        totals = [0, 0]
        state = seed
        for _ in range(n):
            undos = []
            while not self.is_over():
                legal = self.legal()
                count = legal.bit_count()
                if count > 1:
                    state = (state + 0x9E3779B97F4A7C15) & _MASK64
                    for _ in range((_splitmix(state) >> 32) * count >> 32):
                        legal &= legal - 1
                side, points, undo = self.step((legal & -legal).bit_length() - 1)
                undos.append(undo)
                if side >= 0:
                    totals[side] += points
            for undo in reversed(undos):
                self.back(undo)
        return totals[0], totals[1]


def _splitmix(state: int) -> int:
    """The SplitMix64 output of a state (Steele, Lea and Flood 2014)."""
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)
