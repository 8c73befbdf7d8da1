"""Announcements: sequences and carrés, the best set a hand can declare, and the comparison
at the second trick (docs/rules.md 7, seed 002); belote–rebelote (docs/rules.md 6).

>>> from cardavia.belote.cards import CardSet
>>> best = best_announcements(CardSet.parse("KS KH KD KC QH JH TH 7C").mask, Strain.HEARTS)
>>> [(a.kind, a.points) for a in best]
[('carre', 100), ('sequence', 20)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final, Literal

from cardavia.belote.cards import SUIT_MASKS, Card, CardSet, Rank, Team
from cardavia.belote.play import Strain

# docs/rules.md 7: a sequence of 3 is worth 20, of 4 50, of 5 or more 100.
SEQUENCE_POINTS: Final = {3: 20, 4: 50}
LONG_SEQUENCE_POINTS: Final = 100
# docs/rules.md 7: carrés by rank in sequence order (7 8 9 10 J Q K A): jacks 200, nines 150,
# aces, tens, kings, queens 100, eights and sevens 0.
CARRE_POINTS: Final = (0, 0, 150, 100, 200, 100, 100, 100)
_RUN_STARTS: Final = 0x3F3F3F3F
"""The cards a run of three may start from within its suit (7 to Q)."""
_SCORING_RANKS: Final = (2, 3, 4, 5, 6, 7)
RANK_MASKS: Final = tuple(sum(1 << (suit * 8 + rank) for suit in range(4)) for rank in range(8))

Kind = Literal["sequence", "carre"]


@dataclass(frozen=True, slots=True, order=False)
class Announcement:
    """One declared combination: a sequence or a carré, its cards and its points."""

    kind: Kind
    cards: int
    """The mask of its cards."""
    points: int
    strength: tuple[int, ...]
    """The key of the comparison (docs/rules.md 7): greater is stronger; equal keys tie."""

    @property
    def card_set(self) -> CardSet:
        """Its cards as a :class:`CardSet`."""
        return CardSet(self.cards)

    @property
    def length(self) -> int:
        """The number of cards."""
        return self.cards.bit_count()

    @property
    def name(self) -> str:
        """The table's word for it: tierce, cinquante, cent, carré."""
        if self.kind == "carre":
            return "carré"
        return {3: "tierce", 4: "cinquante"}.get(self.length, "cent")

    def __str__(self) -> str:
        return f"{self.name} ({self.points}): {self.card_set}"


def sequence(cards: int, strain: Strain) -> Announcement:
    """A sequence of the given cards (one suit, in a row; docs/rules.md 7)."""
    length = cards.bit_count()
    suit = (cards & -cards).bit_length() - 1 >> 3
    high = cards.bit_length() - 1
    points = SEQUENCE_POINTS.get(length, LONG_SEQUENCE_POINTS)
    in_trump = int(strain == suit) if strain.is_suit else 0
    # docs/rules.md 7.3: equal points: the longer, then the higher end card, then the one in trump.
    return Announcement("sequence", cards, points, (points, 0, length, high & 7, in_trump))


def carre(rank: int) -> Announcement:
    """The carré of a rank (docs/rules.md 7)."""
    points = CARRE_POINTS[rank]
    # docs/rules.md 7.2 and 7.4: a carré beats a sequence of equal points; two carrés:
    # the higher rank.
    return Announcement("carre", RANK_MASKS[rank], points, (points, 1, 4, rank, 0))


def _runs(hand: int) -> list[int]:
    """The maximal runs of three or more cards of one suit, in sequence order."""
    runs = []
    for suit in range(4):
        bits = (hand & SUIT_MASKS[suit]) >> (8 * suit)
        rank = 0
        while rank < 8:
            if bits >> rank & 1:
                start = rank
                while rank < 8 and bits >> rank & 1:
                    rank += 1
                if rank - start >= 3:
                    runs.append(((1 << (rank - start)) - 1) << (8 * suit + start))
            else:
                rank += 1
    return runs


@lru_cache(maxsize=4096)
def best_announcements(hand: int, strain: Strain) -> tuple[Announcement, ...]:
    """The set of announcements worth most that ``hand`` can declare (docs/rules.md 7).

    A card serves in one announcement only: each choice of carrés leaves its sequences (the
    maximal runs of the cards left, never split: docs/rules-decisions.md); the choice worth
    most wins, and on equal totals the one whose announcements, strongest first, are
    stronger. Carrés of 7s and 8s are worth nothing and are not announced. The strongest
    comes first.
    """
    # Most hands have nothing: three cards in a row of a suit (a start at ranks 7 to Q) or a
    # carré worth something is needed.
    if not hand & (hand >> 1) & (hand >> 2) & _RUN_STARTS and not any(
        hand & RANK_MASKS[rank] == RANK_MASKS[rank] for rank in _SCORING_RANKS
    ):
        return ()
    carres = [
        rank
        for rank in range(8)
        if CARRE_POINTS[rank] and hand & RANK_MASKS[rank] == RANK_MASKS[rank]
    ]
    best: tuple[Announcement, ...] = ()
    best_key: tuple[int, tuple[tuple[int, ...], ...]] = (0, ())
    for count in range(len(carres) + 1):
        for chosen in combinations(carres, count):
            used = 0
            found = [carre(rank) for rank in chosen]
            for item in found:
                used |= item.cards
            found += [sequence(run, strain) for run in _runs(hand & ~used)]
            found.sort(key=lambda a: a.strength, reverse=True)
            key = (sum(a.points for a in found), tuple(a.strength for a in found))
            if key > best_key:
                best, best_key = tuple(found), key
    return best


def classify(cards: Iterable[Card], strain: Strain) -> Announcement:
    """The announcement made of exactly these cards; ``ValueError`` if they make none."""
    mask = CardSet(cards).mask
    for rank in range(8):
        if mask == RANK_MASKS[rank]:
            return carre(rank)
    if mask.bit_count() >= 3 and _runs(mask) == [mask]:
        return sequence(mask, strain)
    raise ValueError(f"{CardSet(mask)} is neither a sequence nor a carré")


def team_best(announcements: Iterable[Announcement]) -> tuple[int, ...] | None:
    """The strength of the best of a team's announcements, or ``None`` if it has none."""
    keys = [a.strength for a in announcements]
    return max(keys) if keys else None


def comparison_winner(declared: Sequence[Sequence[Announcement]]) -> Team | None:
    """The team whose best announcement wins the comparison (docs/rules.md 7).

    ``declared[seat]`` is what each seat declared. A team that alone announced wins; a
    complete tie between the two best gives nobody anything.
    """
    ns = team_best([*declared[0], *declared[2]])
    ew = team_best([*declared[1], *declared[3]])
    if ns is None and ew is None:
        return None
    if ew is None or (ns is not None and ns > ew):
        return Team.NS
    if ns is None or ew > ns:
        return Team.EW
    return None  # docs/rules.md 7.5: a complete tie: no announcement counts.


def belote_pairs(hand: int, strain: Strain, *, in_all_trump: bool) -> int:
    """The mask of the trump K and Q that the hand holds together (docs/rules.md 6).

    In all-trump, with ``in_all_trump``, every suit's K–Q pair counts; in no-trump none.
    """
    if strain < 4:
        pair = _PAIRS[strain]
        return pair if hand & pair == pair else 0
    if strain == Strain.NO_TRUMP or not in_all_trump:
        return 0
    return sum(pair for pair in _PAIRS if hand & pair == pair)


_PAIRS: Final = tuple(
    (1 << (suit * 8 + Rank.KING)) | (1 << (suit * 8 + Rank.QUEEN)) for suit in range(4)
)


BELOTE_POINTS: Final = 20
