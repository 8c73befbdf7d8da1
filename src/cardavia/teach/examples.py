"""The worked examples of the rules pages: positions as data, computed by the engine and
checked a second time by :mod:`cardavia.verify` (seeds 000–003: "every example is computed by
the app's engine and verified a second time by the site").

An example is only data: a rule set, a contract, the cards. Everything a page says about it
(which cards are legal, who wins, what a trick or a deal is worth, which announcement counts)
is computed by the engine (:mod:`cardavia.belote`) and recomputed by the second check, which
shares nothing with it but the card codes. :func:`legal_results`,
:func:`announcement_results` and :func:`scoring_results` answer both, with ``verified`` true
only when they agree; a page shows the "verified" mark only then, and logs the disagreement
otherwise. The sentences that explain an example are generated from the same data
(:mod:`cardavia.teach.explain`), so the text cannot say something the example does not show.

>>> first = legal_results()[0]
>>> first.example.hand, first.legal, first.verified
(('KS', '7S', 'JH', '9C', 'TD'), ('KS', '7S'), True)
>>> last = legal_results()[-1]
>>> last.winner, last.card_points, last.points
('E', (11, 10, 0, 20), 41)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Final, Literal

from cardavia import verify
from cardavia.belote import (
    Announcement,
    CardSet,
    Contract,
    DealScore,
    DealState,
    Play,
    Rules,
    Seat,
    Strain,
    Team,
    belote_pairs,
    best_announcements,
    card_choice,
    card_code,
    classify,
    comparison_winner,
    find_rules,
    parse_card,
    parse_seat,
    trick_points,
    trick_winner,
    values_for,
)
from cardavia.verify.announcements import announcement_strength
from cardavia.verify.scoring import (
    read_contract,
    read_tricks,
    team_announcements,
    team_belote,
    team_card_points,
)

log = logging.getLogger(__name__)

SEAT_CODES: Final = "NESW"


def _codes(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# -- "Which card may I play?" (docs/rules.md 5 and 11) ------------------------------------------


@dataclass(frozen=True, slots=True)
class LegalExample:
    """A position of docs/rules.md 11: whose turn it is, with what hand, on which trick.

    ``lesson`` names the explanation (:mod:`cardavia.teach.explain`) and ``rule`` the
    engine's reason code that the lesson is about (:func:`cardavia.belote.card_choice`):
    a test requires the engine to decide the position by that very rule, so that the text
    explains what really happens. ``play`` is the card then put down, to show who wins.
    """

    number: int
    lesson: str
    rule: str
    rules: str
    contract: str
    trick: tuple[tuple[str, str], ...]
    seat: str
    hand: tuple[str, ...]
    play: str | None = None

    @property
    def deck(self) -> str:
        """The deck the rule set shows (docs/rules.md 1)."""
        return find_rules(self.rules).deck


# docs/rules.md 11: the nine worked examples of the reference pages (seeds 000, 001, 003), in
# their order. Trick cards are in play order.
LEGAL_EXAMPLES: Final = (
    LegalExample(1, "follow", "must_follow", "maison", "H", (("W", "AS"),), "N",
                 _codes("KS 7S JH 9C TD")),
    LegalExample(2, "overtrump_partner", "must_overtrump", "maison", "D",
                 (("N", "8D"), ("E", "9C")), "S", _codes("QS 9D 7D TH")),
    LegalExample(3, "must_trump", "must_trump", "maison", "H", (("E", "AC"),), "S",
                 _codes("8H QH KS 9D 7S")),
    LegalExample(4, "partner_master", "free", "maison", "H", (("N", "AC"), ("E", "7C")), "S",
                 _codes("8H QH KS 9D")),
    LegalExample(5, "overtrump", "must_overtrump", "maison", "S", (("W", "AD"), ("N", "8S")),
                 "E", _codes("7S 9S KH")),
    LegalExample(6, "undertrump", "must_undertrump", "maison", "S",
                 (("W", "AD"), ("N", "JS")), "E", _codes("7S 9S KH QC")),
    LegalExample(7, "undertrump_optional", "free", "coinche", "S",
                 (("W", "AD"), ("N", "JS")), "E", _codes("7S 9S KH QC")),
    LegalExample(8, "no_trump", "must_follow", "maison", "NT", (("S", "KD"),), "W",
                 _codes("7D AS AC")),
    LegalExample(9, "winner", "must_trump", "maison", "H",
                 (("S", "AS"), ("W", "TS"), ("N", "7S")), "E", _codes("JH KD"), play="JH"),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class LegalResult:
    """An example as the engine computes it, and whether the second check agrees."""

    example: LegalExample
    legal: tuple[str, ...]
    """The legal cards, in the order of the hand."""
    rule: str
    """The engine's reason code for the position (``must_follow`` …)."""
    master: str | None
    """The seat whose card wins the trick so far (docs/rules.md 5.5), before the player's card."""
    master_card: str | None
    winner: str | None = None
    """With ``play``: the seat that wins the completed trick."""
    card_points: tuple[int, ...] = ()
    """With ``play``: each card's points, in play order (docs/rules.md 1)."""
    points: int | None = None
    problems: tuple[str, ...] = ()
    """Where the engine and the second check disagree (empty when verified)."""

    @property
    def verified(self) -> bool:
        """Both implementations of the rules agree on everything the example shows."""
        return not self.problems


def _engine_legal(example: LegalExample) -> LegalResult:
    rules = find_rules(example.rules)
    strain = Strain.parse(example.contract)
    values = values_for(rules, strain)
    trick = [(parse_seat(seat), parse_card(card)) for seat, card in example.trick]
    seat = parse_seat(example.seat)
    choice = card_choice(rules, strain, trick, seat, CardSet.parse(example.hand))
    legal = tuple(code for code in example.hand if parse_card(code) in choice.allowed)
    master_seat = trick_winner(values, trick) if trick else None
    master_card = dict(trick)[master_seat] if master_seat is not None else None
    result = LegalResult(
        example,
        legal,
        choice.reason.code,
        master_seat.name if master_seat is not None else None,
        card_code(master_card) if master_card is not None else None,
    )
    if example.play is None:
        return result
    full = [*trick, (seat, parse_card(example.play))]
    cards = [card for _, card in full]
    return LegalResult(
        example,
        legal,
        choice.reason.code,
        result.master,
        result.master_card,
        winner=trick_winner(values, full).name,
        card_points=tuple(values.points[card] for card in cards),
        points=trick_points(values, cards),
    )


def _check_legal(example: LegalExample, engine: LegalResult) -> list[str]:
    """The second check of one example: every fact the page shows, recomputed."""
    knobs = find_rules(example.rules).as_dict()
    problems = []
    legal = verify.legal_cards(knobs, example.contract, example.trick, example.seat, example.hand)
    if set(engine.legal) != legal:
        problems.append(f"legal cards: engine {sorted(engine.legal)}, check {sorted(legal)}")
    if example.trick:
        master_seat = verify.trick_winner(example.contract, example.trick)
        if master_seat != engine.master:
            problems.append(f"master: engine {engine.master}, check {master_seat}")
    if example.play is not None:
        if example.play not in legal:
            problems.append(f"the card played, {example.play}, is not legal")
        full = [*example.trick, (example.seat, example.play)]
        winner = verify.trick_winner(example.contract, full)
        if winner != engine.winner:
            problems.append(f"winner: engine {engine.winner}, check {winner}")
        points = tuple(verify.card_points(knobs, example.contract, card) for _, card in full)
        if points != engine.card_points or sum(points) != engine.points:
            problems.append(f"points: engine {engine.card_points}, check {points}")
    return problems


@cache
def legal_results() -> tuple[LegalResult, ...]:
    """The nine examples of docs/rules.md 11, computed and verified (once per process)."""
    results = []
    for example in LEGAL_EXAMPLES:
        engine = _engine_legal(example)
        problems = tuple(_check_legal(example, engine))
        if problems:
            log.error("legal-cards example %d is unverified: %s", example.number, problems)
        results.append(
            LegalResult(
                example,
                engine.legal,
                engine.rule,
                engine.master,
                engine.master_card,
                engine.winner,
                engine.card_points,
                engine.points,
                problems,
            )
        )
    return tuple(results)


# -- Announcements (docs/rules.md 6 and 7, seed 002) ---------------------------------------------

Criterion = Literal["alone", "points", "carre", "length", "top", "trump", "rank", "tie", "none"]
"""What decided a comparison (docs/rules.md 7): a team alone announced; more points; a carré over
a sequence of equal points; the longer sequence; the higher end card; the sequence in trump;
the higher carré; a complete tie; nobody announced."""


@dataclass(frozen=True, slots=True)
class AnnouncementExample:
    """Hands of some seats (each announces its best set) under a rule set and a contract.

    With one seat the example is about choosing the best set (docs/rules.md 7: a card serves in
    one announcement only; ``options`` are the ways its cards could be used, each shown with
    its points); with seats of both teams it is a comparison, decided by ``criterion``.
    """

    key: str
    rules: str
    contract: str
    hands: tuple[tuple[str, tuple[str, ...]], ...]
    criterion: Criterion
    options: tuple[tuple[str, ...], ...] = ()

    @property
    def deck(self) -> str:
        """The deck the rule set shows (docs/rules.md 1)."""
        return find_rules(self.rules).deck


ANNOUNCEMENT_EXAMPLES: Final = (
    # Seed 002: a carré of 12s and the sequence 10-11-12 of oros share the 12 of oros: only
    # one can be announced; the carré brings more points.
    AnnouncementExample("choose", "maghreb", "D", (("N", _codes("KS KH KD KC JD QD 7H AC")),),
                        "alone", options=(_codes("KS KH KD KC"), _codes("JD QD KD"))),
    # docs/rules.md 7: five in a row is a "cent"; another suit's tierce counts as well.
    AnnouncementExample("two", "maghreb", "S", (("E", _codes("9S TS JS QS KS 7H 8H 9H")),),
                        "alone"),
    # docs/rules.md 7.1: more points wins; the winners score their partner's weaker tierce too.
    AnnouncementExample("points", "maison", "H", (
        ("N", _codes("7S 8S 9S KH 7D 8C AH TC")),
        ("E", _codes("9D TD JD QD 7H JS 9C QS")),
        ("W", _codes("QC KC AC 8H TH 8D KD AS")),
    ), "points"),
    # docs/rules.md 7.2: 100 against 100: the carré beats the sequence.
    AnnouncementExample("carre", "maghreb", "D", (
        ("N", _codes("AS AH AD AC 7S 9H 8D QC")),
        ("E", _codes("7C 8C 9C TC JC 7H 8S KD")),
    ), "carre"),
    # docs/rules.md 7.3: two tierces: the one ending on the higher card.
    AnnouncementExample("top", "maison", "S", (
        ("N", _codes("8H 9H TH 7S KS 7C 8D QC")),
        ("E", _codes("QD KD AD 8S AS 9C JH 7H")),
    ), "top"),
    # docs/rules.md 7.3: the same length and end card: the one in trump.
    AnnouncementExample("trump", "maghreb", "D", (
        ("N", _codes("9C TC JC 7S AS QH 7D 8H")),
        ("E", _codes("9D TD JD KS 8C AH 7H KC")),
    ), "trump"),
    # docs/rules.md 7.4: two carrés of 100: the higher rank in sequence order (1 beats 12).
    AnnouncementExample("rank", "maghreb", "C", (
        ("N", _codes("KS KH KD KC 7S 9D 8H TC")),
        ("E", _codes("AS AH AD AC 8S TD 7H 9C")),
    ), "rank"),
    # docs/rules.md 7.5: a complete tie: nothing counts.
    AnnouncementExample("tie", "maison", "S", (
        ("N", _codes("7H 8H 9H AS JC QD KC 9S")),
        ("E", _codes("7D 8D 9D KH AC 8S TS QC")),
    ), "tie"),
    # docs/rules.md 7: the carré of sotas (the jacks) is the strongest announcement, 200.
    AnnouncementExample("alone", "maghreb", "H", (
        ("W", _codes("JS JH JD JC 7S 9D 8C AH")),
    ), "alone"),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Declared:
    """One announcement of a seat: its kind, cards (codes, in sequence order) and points."""

    seat: str
    kind: str
    """``tierce``, ``cinquante``, ``cent`` or ``carre`` (docs/rules.md 7)."""
    cards: tuple[str, ...]
    points: int
    strength: tuple[int, ...] = ()
    """The engine's comparison key (docs/rules.md 7): greater is stronger."""


@dataclass(frozen=True, slots=True)
class AnnouncementResult:
    """An announcement example as the engine computes it, and whether the check agrees."""

    example: AnnouncementExample
    declared: tuple[Declared, ...]
    """Every seat's best set, strongest first within a seat."""
    options: tuple[Declared, ...]
    """``example.options`` valued one by one."""
    winner: str | None
    """The team whose announcements count (``NS``/``EW``), or ``None``."""
    criterion: Criterion
    team_points: int
    """What the winning team scores for its announcements (all of them, docs/rules.md 7)."""
    belote: tuple[str, ...] = ()
    """The trump K and Q held together by one seat (docs/rules.md 6: they may also serve in an
    announcement)."""
    problems: tuple[str, ...] = ()

    @property
    def verified(self) -> bool:
        """Both implementations of the rules agree on everything the example shows."""
        return not self.problems

    def seat_declared(self, seat: str) -> tuple[Declared, ...]:
        """The announcements of one seat."""
        return tuple(item for item in self.declared if item.seat == seat)


def _kind(announcement: Announcement) -> str:
    if announcement.kind == "carre":
        return "carre"
    return {3: "tierce", 4: "cinquante"}.get(announcement.length, "cent")


def _declared(seat: str, announcement: Announcement) -> Declared:
    return Declared(
        seat,
        _kind(announcement),
        tuple(announcement.card_set.codes()),
        announcement.points,
        announcement.strength,
    )


def _criterion(first: Sequence[int], second: Sequence[int]) -> Criterion:
    """Which step of docs/rules.md 7 separates two comparison keys (points, carré, then for
    sequences length, end card, trump; for carrés the rank) — the same layout in the engine's
    ``Announcement.strength`` and the check's ``announcement_strength``."""
    if first[0] != second[0]:
        return "points"
    if first[1] != second[1]:
        return "carre"
    if first == second or (first[1] == 1 and first[2:] == second[2:]):
        return "tie"
    if first[1] == 1:
        return "rank"
    steps: tuple[Criterion, ...] = ("length", "top", "trump")
    for index, step in enumerate(steps, start=2):
        if first[index] != second[index]:
            return step
    return "tie"


def _engine_announcements(example: AnnouncementExample) -> AnnouncementResult:
    strain = Strain.parse(example.contract)
    declared: list[tuple[Announcement, ...]] = [(), (), (), ()]
    items: list[Declared] = []
    belote: list[str] = []
    for seat, hand in example.hands:
        mask = CardSet.parse(hand).mask
        best = best_announcements(mask, strain)
        declared[parse_seat(seat)] = best
        items += [_declared(seat, item) for item in best]
        # docs/rules.md 6: the trump K and Q held together are a belote as well.
        if belote_pairs(mask, strain, in_all_trump=False):
            belote.append(seat)
    options = tuple(_declared("", classify(CardSet.parse(o), strain)) for o in example.options)
    winner = comparison_winner(declared) if any(declared) else None
    bests = [
        max((a.strength for s in team.seats for a in declared[s]), default=None) for team in Team
    ]
    if bests[0] is None or bests[1] is None:
        criterion: Criterion = "none" if bests[0] == bests[1] else "alone"
    else:
        criterion = _criterion(bests[0], bests[1])
    points = 0
    if winner is not None:
        points = sum(a.points for s in winner.seats for a in declared[s])
    return AnnouncementResult(
        example,
        tuple(items),
        options,
        winner.name if winner is not None else None,
        criterion,
        points,
        tuple(belote),
    )


def _check_announcements(example: AnnouncementExample, engine: AnnouncementResult) -> list[str]:
    problems = []
    contract = example.contract
    declared: dict[str, list[list[str]]] = {}
    for seat, hand in example.hands:
        best, total = verify.best_announcements(hand, contract)
        declared[seat] = [sorted(cards) for cards in best]
        mine = engine.seat_declared(seat)
        if sorted(sorted(d.cards) for d in mine) != sorted(declared[seat]):
            problems.append(f"{seat}'s best set: engine {mine}, check {best}")
        if sum(d.points for d in mine) != total:
            problems.append(f"{seat}'s points: engine {sum(d.points for d in mine)}, check {total}")
    for option, valued in zip(example.options, engine.options, strict=True):
        kind, points = verify.announcement_value(option, contract)
        if points != valued.points or (kind == "carre") != (valued.kind == "carre"):
            problems.append(f"option {option}: engine {valued}, check {kind} {points}")
    winner = verify.announcement_winner(contract, declared)
    if winner != engine.winner:
        problems.append(f"comparison: engine {engine.winner}, check {winner}")
    strengths: dict[str, list[tuple[int, ...]]] = {"NS": [], "EW": []}
    for seat, sets in declared.items():
        team = "NS" if seat in "NS" else "EW"
        strengths[team] += [announcement_strength(cards, contract) for cards in sets]
    if strengths["NS"] and strengths["EW"]:
        criterion = _criterion(max(strengths["NS"]), max(strengths["EW"]))
    else:
        criterion = "alone" if strengths["NS"] or strengths["EW"] else "none"
    if criterion != engine.criterion:
        problems.append(f"decided by: engine {engine.criterion}, check {criterion}")
    if winner is not None:
        points = sum(
            verify.announcement_value(cards, contract)[1]
            for seat, sets in declared.items()
            if (seat in "NS") == (winner == "NS")
            for cards in sets
        )
        if points != engine.team_points:
            problems.append(f"team points: engine {engine.team_points}, check {points}")
    return problems


@cache
def announcement_results() -> tuple[AnnouncementResult, ...]:
    """The announcement examples, computed and verified (once per process)."""
    results = []
    for example in ANNOUNCEMENT_EXAMPLES:
        engine = _engine_announcements(example)
        problems = tuple(_check_announcements(example, engine))
        if problems:
            log.error("announcement example %r is unverified: %s", example.key, problems)
        results.append(
            AnnouncementResult(
                example,
                engine.declared,
                engine.options,
                engine.winner,
                engine.criterion,
                engine.team_points,
                engine.belote,
                problems,
            )
        )
    return tuple(results)


# -- Scoring (docs/rules.md 8) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoringExample:
    """A whole deal: the contract and its eight tricks, each written ``"N: AS 7S 8S JS"``
    (the leader, then the four cards in play order). The seats in ``announce`` announce
    their best set with their first card (docs/rules.md 7); those in ``belote`` say "belote" with
    the first of their trump K and Q where the rules want it said (docs/rules.md 6).

    The deals were played by Cardavia's own computer players and written down here.
    """

    key: str
    rules: str
    taker: str
    contract: str
    tricks: tuple[str, ...]
    bid: int | None = None
    coinche: int = 0
    announce: tuple[str, ...] = ()
    belote: tuple[str, ...] = ()

    @property
    def deck(self) -> str:
        """The deck the rule set shows (docs/rules.md 1)."""
        return find_rules(self.rules).deck

    def plays(self) -> list[tuple[str, str, str]]:
        """Every card in order as (leader of its trick, seat, card)."""
        out = []
        for trick in self.tricks:
            leader, _, cards = trick.partition(":")
            seat = SEAT_CODES.index(leader.strip())
            for card in cards.split():
                out.append((leader.strip(), SEAT_CODES[seat], card))
                seat = (seat + 1) % 4
        return out

    def hands(self) -> dict[str, tuple[str, ...]]:
        """Each seat's eight cards, read from the tricks."""
        hands: dict[str, list[str]] = {seat: [] for seat in SEAT_CODES}
        for _, seat, card in self.plays():
            hands[seat].append(card)
        return {seat: tuple(cards) for seat, cards in hands.items()}


SCORING_EXAMPLES: Final = (
    # docs/rules.md 8, classic table (Maison): made; the defenders win the announcements.
    ScoringExample("classic_made", "maison", "E", "D", (
        "N: AS QD JS 8S", "E: AH QH 8H 9H", "E: AC JC 7C 8C", "E: 7H KH 7D 7S",
        "W: 9S QS KD TS", "E: JH TH 8D 9C", "W: AD KS TD JD", "S: KC 9D TC QC",
    ), announce=("N", "W"), belote=("E",)),
    # Failed: the defenders take 162 and every announcement; the takers keep their belote.
    ScoringExample("classic_failed", "maison", "N", "H", (
        "N: 9C AC 8C 7C", "E: AD 8D QD KD", "E: 7D 8H 9D TD", "S: KC JH JC QC",
        "W: AS QS 7S 8S", "W: TS KS 9S QH", "S: KH JS 9H 7H", "N: TC AH TH JD",
    ), announce=("N",), belote=("S",)),
    # Litige: equal totals; the takers' points wait for the next deal.
    ScoringExample("classic_litige", "maison", "E", "D", (
        "N: AH 7H QH JH", "N: AC 8C 7C KC", "N: 9H 8H 7S TH", "W: 9D TD JD 8S",
        "E: 9C 9S TC QC", "W: 7D AD QD AS", "N: JS QS KS 8D", "W: KD KH JC TS",
    ), announce=("S", "W")),
    # Capot: all eight tricks, 252.
    ScoringExample("classic_capot", "maison", "E", "C", (
        "N: AS 8C 7S QS", "E: JC 7C AC KC", "E: 9C 8H KD TC", "E: AD JD QD 7H",
        "E: TD 9S 8D 8S", "E: 7D JS 9D 9H", "W: AH JH TH QH", "W: TS KH QC KS",
    )),
    # Coinche, made: the points and the bid, rounded to the nearest ten.
    ScoringExample("coinche_made", "coinche", "N", "H", (
        "N: AS 7S 8S JS", "N: TS 9S KD QS", "N: 7D AD 9D QD", "E: 8C AC 9C KC",
        "S: 7C QH AH JC", "N: 8D 8H KH JD", "S: TH JH 7H TC", "W: KS TD QC 9H",
    ), bid=100),
    # Coinche, failed: the defenders score 160 + the bid; the takers keep their belote.
    ScoringExample("coinche_failed", "coinche", "N", "H", (
        "N: 7H JH TH 8H", "E: AS JS QS 7S", "E: AD 8D KC 7D", "E: TS KS 8S 9S",
        "E: QD 9D 8C KD", "N: 9C JC QC AC", "W: AH QH 7C JD", "W: 9H KH TC TD",
    ), bid=120, belote=("N",)),
    # Coinched and made: (160 + bid) × 2.
    ScoringExample("coinche_coinched", "coinche", "N", "H", (
        "N: AD 8D QD 7D", "N: 9D QH JD TD", "E: AC TH 9C KC", "S: JH 7H 9H KH",
        "S: AH 8H TS 7C", "S: AS JS 8S 9S", "S: KS QS QC 8C", "S: 7S KD JC TC",
    ), bid=90, coinche=1, belote=("E",)),
    # Surcoinched and failed: (160 + bid) × 4 to the defenders.
    ScoringExample("coinche_surcoinched", "coinche", "N", "H", (
        "N: AD 8D KD QH", "W: 9S 8S JS 7S", "E: QS 7H KH 7D", "W: 7C TC QC 8C",
        "N: AC TH AH 9C", "S: 9D 9H JD AS", "W: KC JC KS 8H", "S: QD JH TD TS",
    ), bid=110, coinche=2, belote=("W",)),
    # The Cardavia table (seed 004), made: the belote is automatic.
    ScoringExample("cardavia_made", "cardavia", "S", "H", (
        "N: JH 7C QH 7H", "N: 9C AC KH 8C", "S: 9D JD 7D AD", "E: AS 9S 7S QS",
        "E: 8S TS 8H KS", "W: 8D TD QC KD", "N: JC KC AH TC", "S: QD 9H TH JS",
    )),
    # The Cardavia table, failed: the takers' belote goes to the defenders.
    ScoringExample("cardavia_failed", "cardavia", "W", "D", (
        "N: AS 8S QS 7D", "W: QD 7C 9D JD", "S: AH 8H QH 9H", "S: 7H TH JH KH",
        "W: QC AC JC JS", "N: 8C TC AD KC", "S: 7S KD TS KS", "W: TD 9C 8D 9S",
    )),
    # The Maghreb table with the Spanish-suited deck (seed 002): made, announcements, belote.
    ScoringExample("maghreb_made", "maghreb", "N", "D", (
        "N: JD 8D QD 7C", "N: 7D QC KD 9H", "S: AH JH JC TH", "S: 9D 9C TD JS",
        "S: 7S 9S 8S AS", "E: QS 7H KC AD", "N: AC KS 8C QH", "N: TC TS 8H KH",
    ), announce=("E", "W"), belote=("S",)),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class TrickLine:
    """One trick of a scoring example: who led, the cards, who won, its card points."""

    leader: str
    cards: tuple[str, ...]
    winner: str
    points: int


@dataclass(frozen=True, slots=True)
class ScoringResult:
    """A deal as the engine scores it, and whether the second check agrees."""

    example: ScoringExample
    rules: Rules
    tricks: tuple[TrickLine, ...]
    score: DealScore
    declared: tuple[Declared, ...]
    """What each announcing seat announced (its best set)."""
    belote_seats: tuple[str, ...]
    """The seats whose belote–rebelote counted."""
    problems: tuple[str, ...] = field(default=())

    @property
    def verified(self) -> bool:
        """Both implementations of the rules agree on everything the example shows."""
        return not self.problems

    @property
    def takers(self) -> str:
        """The takers' team, ``NS`` or ``EW``."""
        return "NS" if self.example.taker in "NS" else "EW"


def _engine_deal(example: ScoringExample) -> tuple[DealState, list[Play]]:
    rules = find_rules(example.rules)
    contract = Contract(
        parse_seat(example.taker), Strain.parse(example.contract), example.bid, example.coinche
    )
    hands = example.hands()
    first = parse_seat(example.plays()[0][0])
    state = DealState.from_position(
        rules,
        contract=contract,
        hands=[CardSet.parse(hands[seat]) for seat in SEAT_CODES],
        leader=first,
    )
    played: set[str] = set()
    plays = []
    for _, seat_code, code in example.plays():
        seat = parse_seat(seat_code)
        card = parse_card(code)
        # docs/rules.md 7: announcements are made with one's first card;
        # docs/rules.md 6: "belote" is
        # said with the first of the trump K and Q.
        announce = seat_code in example.announce and seat_code not in played
        belote = (
            seat_code in example.belote
            and bool(state.belote_mask >> card & 1)
            and bool(state.hands[seat] & state.belote_mask & ~(1 << card))
        )
        played.add(seat_code)
        action = Play(seat, card, announce=announce, belote=belote)
        plays.append(action)
        state = state.apply(action)
    return state, plays


def _check_deal(example: ScoringExample, state: DealState, plays: list[Play]) -> list[str]:
    """The second check of a deal: its record scored by :func:`cardavia.verify.score_deal`,
    checked card by card by :func:`cardavia.verify.deal_problems`, and its parts compared."""
    rules = find_rules(example.rules)
    knobs = rules.as_dict()
    score = state.result
    assert score is not None
    hands = example.hands()
    record: dict[str, object] = {
        "contract": {
            "taker": example.taker,
            "trump": example.contract,
            "bid": example.bid,
            "coinche": example.coinche,
        },
        "tricks": [
            {"leader": t.partition(":")[0].strip(), "cards": t.partition(":")[2].split()}
            for t in example.tricks
        ],
        "announcements": {
            seat: [sorted(c) for c in verify.best_announcements(hands[seat], example.contract)[0]]
            for seat in example.announce
        },
        "belote_declared": [card_code(p.card) for p in plays if p.belote],
    }
    problems = [f"second check: {p}" for p in verify.deal_problems(knobs, record)]
    checked = verify.score_deal(knobs, record)
    made = score.made
    if (checked["NS"], checked["EW"]) != score.scores:
        problems.append(f"scores: engine {score.scores}, check {checked['NS']}, {checked['EW']}")
    if checked["made"] != made:
        problems.append(f"made: engine {made}, check {checked['made']}")
    if checked["reserve"] != score.reserve:
        problems.append(f"reserve: engine {score.reserve}, check {checked['reserve']}")
    capot = score.capot.name if score.capot is not None else None
    if checked["capot"] != capot:
        problems.append(f"capot: engine {capot}, check {checked['capot']}")
    contract = read_contract(record)
    tricks = read_tricks(record, contract.trump)
    for number, (mine, theirs) in enumerate(zip(state.tricks, tricks, strict=True), start=1):
        points = verify.trick_points(knobs, example.contract, [c for _, c in theirs.plays])
        if mine.winner.name != theirs.winner or mine.points != points:
            problems.append(f"trick {number}: engine {mine}, check {theirs.winner} {points}")
    declared = {seat: [list(c) for c in sets] for seat, sets in _as_lists(record).items()}
    parts = {
        "card points": team_card_points(knobs, contract.trump, tricks),
        "announcements": team_announcements(knobs, contract.trump, tricks, declared),
        "belote": team_belote(knobs, contract.trump, tricks, set(_belote_said(record))),
    }
    engine_parts = {
        "card points": score.card_points,
        "announcements": score.announcements,
        "belote": score.belote,
    }
    for name, theirs_part in parts.items():
        if (theirs_part["NS"], theirs_part["EW"]) != engine_parts[name]:
            problems.append(f"{name}: engine {engine_parts[name]}, check {theirs_part}")
    return problems


def _as_lists(record: Mapping[str, object]) -> dict[str, list[list[str]]]:
    raw = record["announcements"]
    assert isinstance(raw, dict)
    return {str(seat): [list(cards) for cards in sets] for seat, sets in raw.items()}


def _belote_said(record: Mapping[str, object]) -> list[str]:
    raw = record["belote_declared"]
    assert isinstance(raw, list)
    return [str(card) for card in raw]


@cache
def scoring_results() -> tuple[ScoringResult, ...]:
    """The scoring examples, played through the engine and verified (once per process)."""
    results = []
    for example in SCORING_EXAMPLES:
        state, plays = _engine_deal(example)
        assert state.result is not None
        problems = tuple(_check_deal(example, state, plays))
        if problems:
            log.error("scoring example %r is unverified: %s", example.key, problems)
        declared = tuple(
            _declared(seat.name, item)
            for seat in Seat
            for item in state.declared[seat]
            if seat.name in example.announce
        )
        belote_seats = tuple(
            sorted({e.seat.name for e in state.belote_events if e.word == "rebelote"})
        )
        tricks = tuple(
            TrickLine(t.leader.name, tuple(card_code(c) for c in t.cards), t.winner.name, t.points)
            for t in state.tricks
        )
        results.append(
            ScoringResult(
                example,
                find_rules(example.rules),
                tricks,
                state.result,
                declared,
                belote_seats,
                problems,
            )
        )
    return tuple(results)


def all_verified() -> bool:
    """Whether the engine and the second check agree on every example of every page."""
    return (
        all(r.verified for r in legal_results())
        and all(r.verified for r in announcement_results())
        and all(r.verified for r in scoring_results())
    )
