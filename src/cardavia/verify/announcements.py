"""Announcements: sequences and carrés, their value, the best set and the comparison.

docs/rules.md 7 and docs/rules-decisions.md "Announcements". Belote-rebelote is not an
announcement (docs/rules.md 6) and lives with the scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from cardavia.verify.cards import (
    RANKS,
    SUITS,
    TEAMS,
    check_cards,
    check_contract,
    check_seat,
    rank_of,
    suit_of,
    team_of,
)

# docs/rules.md 7: carré values. rules-decisions.md: carrés of 7s and 8s are worth 0 and cannot be
# announced, so they are left out of this table on purpose.
CARRE_POINTS: dict[str, int] = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}

# The strength of one announcement, compared as a tuple (rules-decisions.md "Comparison"):
# (points, 1 for a carré / 0 for a sequence, then for a sequence: length, highest card in
# sequence order, 1 if in trump; for a carré: its rank in sequence order, 0, 0).
Strength = tuple[int, int, int, int, int]


def sequence_points(length: int) -> int:
    """docs/rules.md 7: tierce (3 cards) 20, cinquante (4) 50, cent (5 or more) 100."""
    if length >= 5:
        return 100
    if length == 4:
        return 50
    if length == 3:
        return 20
    raise ValueError(f"a sequence has at least three cards, got {length}")


def is_carre(cards: list[str]) -> bool:
    """docs/rules.md 7: the four cards of one rank."""
    return len(cards) == 4 and len({rank_of(card) for card in cards}) == 1


def is_sequence(cards: list[str]) -> bool:
    """docs/rules.md 7: three or more cards of one suit in a row in sequence order 7 8
    9 T J Q K A."""
    if len(cards) < 3 or len({suit_of(card) for card in cards}) != 1:
        return False
    places = sorted(RANKS.index(rank_of(card)) for card in cards)
    return places == list(range(places[0], places[0] + len(places)))


def announcement_value(cards: Iterable[str], contract: str) -> tuple[str, int]:
    """Classify one declared announcement: ("sequence", points) or ("carre", points).

    Raises ValueError when the cards are neither a sequence nor a carré that may be announced
    (a carré of 7s or 8s may not: rules-decisions.md).
    """
    check_contract(contract)
    listed = check_cards(cards)
    if is_carre(listed):
        rank = rank_of(listed[0])
        if rank not in CARRE_POINTS:
            raise ValueError(f"a carré of {rank}s is worth 0 and cannot be announced")
        return ("carre", CARRE_POINTS[rank])  # docs/rules.md 7
    if is_sequence(listed):
        return ("sequence", sequence_points(len(listed)))  # docs/rules.md 7
    raise ValueError(f"{listed} is neither a sequence nor a carré")


def announcement_strength(cards: Iterable[str], contract: str) -> Strength:
    """The comparison key of one announcement (docs/rules.md 7, rules-decisions.md).

    More points first; equal points, a carré beats a sequence; two sequences: the longer, then
    the higher top card in sequence order, then the one in trump (which separates nothing in
    no-trump or all-trump); two carrés: the higher rank in sequence order.
    """
    listed = check_cards(cards)
    kind, points = announcement_value(listed, contract)
    if kind == "carre":
        return (points, 1, RANKS.index(rank_of(listed[0])), 0, 0)
    top = max(RANKS.index(rank_of(card)) for card in listed)
    in_trump = 1 if suit_of(listed[0]) == contract else 0
    return (points, 0, len(listed), top, in_trump)


def _runs(cards: set[str]) -> list[frozenset[str]]:
    """The maximal runs of three or more cards of one suit (rules-decisions.md: never split)."""
    runs: list[frozenset[str]] = []
    for suit in SUITS:
        run: list[str] = []
        for rank in RANKS:
            card = rank + suit
            if card in cards:
                run.append(card)
                continue
            if len(run) >= 3:
                runs.append(frozenset(run))
            run = []
        if len(run) >= 3:
            runs.append(frozenset(run))
    return runs


def _option_key(option: list[frozenset[str]], contract: str) -> tuple[int, list[Strength]]:
    """How good a set of announcements is: total points, then its announcements' strengths.

    rules-decisions.md: the most points; equal totals, the strongest best single announcement.
    Beyond that (not in the docs) the next strongest, and so on.
    """
    strengths = sorted((announcement_strength(cards, contract) for cards in option), reverse=True)
    return (sum(strength[0] for strength in strengths), strengths)


def best_announcements(hand: Iterable[str], contract: str) -> tuple[list[frozenset[str]], int]:
    """The best set of announcements a hand can declare, and its total points.

    rules-decisions.md: try every choice of announceable carrés; the cards left form maximal
    sequences; keep the choice with the most points (then the strongest best announcement).
    A card serves in one announcement only (docs/rules.md 7). ([], 0) when the hand has none.
    The announcements are listed strongest first.
    """
    check_contract(contract)
    cards = set(check_cards(hand))
    full_ranks = [rank for rank in CARRE_POINTS if all(rank + suit in cards for suit in SUITS)]
    best: list[frozenset[str]] = []
    best_key = _option_key(best, contract)
    for count in range(len(full_ranks) + 1):
        for chosen in combinations(full_ranks, count):
            carres = [frozenset(rank + suit for suit in SUITS) for rank in chosen]
            left = cards - {card for carre in carres for card in carre}
            option = carres + _runs(left)
            key = _option_key(option, contract)
            if key > best_key:
                best, best_key = option, key
    best.sort(key=lambda cards_: announcement_strength(cards_, contract), reverse=True)
    return (best, best_key[0])


def announcement_winner(
    contract: str, declared: Mapping[str, Sequence[Iterable[str]]]
) -> str | None:
    """The team whose announcements count, "NS" or "EW", or None (docs/rules.md 7).

    Each team's single best announcement is compared; a team that alone announced wins; nobody
    announcing, or a complete tie, gives None: no announcement counts.
    """
    check_contract(contract)
    best: dict[str, Strength] = {}
    for seat, announcements in declared.items():
        check_seat(seat)
        team = team_of(seat)
        for cards in announcements:
            key = announcement_strength(cards, contract)
            if team not in best or key > best[team]:
                best[team] = key
    if not best:
        return None
    if len(best) == 1:
        return next(iter(best))  # docs/rules.md 7: a team that alone announced wins
    ns, ew = (best[team] for team in TEAMS)
    if ns == ew:
        return None  # docs/rules.md 7.5: a complete tie, nothing counts
    return "NS" if ns > ew else "EW"
