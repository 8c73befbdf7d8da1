"""Scoring one deal from its record: tricks, announcements, belote (docs/rules.md 6-8).

A deal is plain JSON-like data (see :func:`score_deal`). Everything is recounted from the
cards played: who won each trick, who held the belote, what each team's announcements are
worth. Nothing is taken from the engine but the record itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardavia.verify.announcements import announcement_value, announcement_winner
from cardavia.verify.cards import (
    ALL_TRUMP,
    DECK,
    NO_TRUMP,
    SUITS,
    TEAMS,
    check_card,
    check_contract,
    check_seat,
    next_seat,
    other_team,
    team_of,
)
from cardavia.verify.cards import card_points as _card_points
from cardavia.verify.knobs import knob_choice, knob_flag, knob_number
from cardavia.verify.play import trick_winner

# docs/rules.md 8: the points of the last trick ("dix de der"), and the points of a deal under the
# usual scales (152 in the cards + 10), against which 162, 160 and the capot are written.
LAST_TRICK_BONUS = 10
USUAL_DEAL_POINTS = 162
# docs/rules.md 6: belote-rebelote is worth 20.
BELOTE_POINTS = 20
# rules-decisions.md "Auction": the values of the capot and générale bids.
BID_VALUES: dict[str, int] = {"capot": 250, "generale": 500}
# docs/rules.md 8 "Coinche tables": coinched x2, surcoinched x4.
COINCHE_MULTIPLIER: dict[int, int] = {0: 1, 1: 2, 2: 4}


@dataclass(frozen=True)
class PlayedTrick:
    """One trick of the record: its cards as (seat, card) in play order, and its winner."""

    plays: tuple[tuple[str, str], ...]
    winner: str


@dataclass(frozen=True)
class Contract:
    """The contract of the record: taker seat, trump, bid (None in classic) and coinche level."""

    taker: str
    trump: str
    bid: int | str | None
    coinche: int


# ---------------------------------------------------------------------------------------------
# Reading the record
# ---------------------------------------------------------------------------------------------


def _field(mapping: Mapping[str, object], name: str) -> object:
    """A required field of the record."""
    if name not in mapping:
        raise ValueError(f"the deal record has no {name!r}")
    return mapping[name]


def _as_mapping(value: object, what: str) -> Mapping[str, object]:
    """The value as a mapping with string keys, or ValueError."""
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise ValueError(f"{what} should be a mapping, got {value!r}")
    return value


def _as_list(value: object, what: str) -> list[object]:
    """The value as a list (a JSON array), or ValueError."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ValueError(f"{what} should be a list, got {value!r}")
    return list(value)


def _as_cards(value: object, what: str) -> list[str]:
    """The value as a list of card codes, or ValueError."""
    cards = _as_list(value, what)
    for card in cards:
        if not isinstance(card, str):
            raise ValueError(f"{what}: {card!r} is not a card code")
        check_card(card)
    return [str(card) for card in cards]


def read_contract(deal: Mapping[str, object]) -> Contract:
    """The record's contract, checked field by field."""
    raw = _as_mapping(_field(deal, "contract"), "contract")
    taker = _field(raw, "taker")
    trump = _field(raw, "trump")
    if not isinstance(taker, str) or not isinstance(trump, str):
        raise ValueError(f"contract taker and trump should be strings, got {raw!r}")
    bid = raw.get("bid")
    if not (bid is None or isinstance(bid, str) or type(bid) is int):
        raise ValueError(f"contract bid should be null, a number or a word, got {bid!r}")
    coinche = raw.get("coinche", 0)
    if type(coinche) is not int or coinche not in COINCHE_MULTIPLIER:
        raise ValueError(f"contract coinche should be 0, 1 or 2, got {coinche!r}")
    return Contract(check_seat(taker), check_contract(trump), bid, coinche)


def read_tricks(deal: Mapping[str, object], contract: str) -> list[PlayedTrick]:
    """The eight tricks, each card given to its seat in turn order from the leader.

    Checks that there are 8 tricks of 4 cards and that the 32 cards are the whole deck.
    """
    raw_tricks = _as_list(_field(deal, "tricks"), "tricks")
    if len(raw_tricks) != 8:
        raise ValueError(f"a deal has 8 tricks, got {len(raw_tricks)}")
    tricks: list[PlayedTrick] = []
    for number, raw in enumerate(raw_tricks, start=1):
        trick = _as_mapping(raw, f"trick {number}")
        leader = _field(trick, "leader")
        if not isinstance(leader, str):
            raise ValueError(f"trick {number}: leader should be a seat, got {leader!r}")
        cards = _as_cards(_field(trick, "cards"), f"trick {number} cards")
        if len(cards) != 4:
            raise ValueError(f"trick {number} has {len(cards)} cards, not 4")
        seat = check_seat(leader)
        plays: list[tuple[str, str]] = []
        for card in cards:
            plays.append((seat, card))
            seat = next_seat(seat)  # docs/rules.md 2: play turns N -> E -> S -> W
        tricks.append(PlayedTrick(tuple(plays), trick_winner(contract, plays)))
    all_cards = [card for trick in tricks for _, card in trick.plays]
    if sorted(all_cards) != sorted(DECK):
        raise ValueError("the eight tricks do not hold the 32 cards exactly once each")
    return tricks


def read_announcements(deal: Mapping[str, object]) -> dict[str, list[list[str]]]:
    """What each seat declared (missing seats: nothing)."""
    raw = _as_mapping(deal.get("announcements") or {}, "announcements")
    declared: dict[str, list[list[str]]] = {}
    for seat, announcements in raw.items():
        check_seat(seat)
        declared[seat] = [
            _as_cards(cards, f"announcement of {seat}")
            for cards in _as_list(announcements, f"announcements of {seat}")
        ]
    return declared


def read_belote_declared(deal: Mapping[str, object]) -> set[str]:
    """The seats, or the cards, with which "belote" was said (only read with
    belote_declaration = declared)."""
    entries = _as_list(deal.get("belote_declared") or [], "belote_declared")
    for entry in entries:
        if not isinstance(entry, str):
            raise ValueError(f"belote_declared: {entry!r} is not a seat or a card")
        if entry not in ("KS", "QS", "KH", "QH", "KD", "QD", "KC", "QC"):
            check_seat(entry)
    return {str(entry) for entry in entries}


# ---------------------------------------------------------------------------------------------
# Counting
# ---------------------------------------------------------------------------------------------


def played_by(tricks: list[PlayedTrick]) -> dict[str, str]:
    """Who played each card: card -> seat."""
    return {card: seat for trick in tricks for seat, card in trick.plays}


def capot_team(tricks: list[PlayedTrick]) -> str | None:
    """The team that took all eight tricks, if any (docs/rules.md 8)."""
    teams = {team_of(trick.winner) for trick in tricks}
    return teams.pop() if len(teams) == 1 else None


def deal_points(knobs: Mapping[str, object], contract: str) -> int:
    """All the points of a deal in this contract: every card's points + 10 for the last trick
    (162 with the usual scales, 130 in a plain no-trump, 258 in a trump all-trump)."""
    return sum(_card_points(knobs, contract, card) for card in DECK) + LAST_TRICK_BONUS


def capot_points(knobs: Mapping[str, object], contract: str) -> int:
    """What a team with all eight tricks has instead of its card points (docs/rules.md 8):
    capot_points (252 or 250) with the usual scales; under another scale the capot follows
    the scale, keeping the same bonus over the deal's points (rules-decisions.md "Scoring")."""
    capot = knob_number(knobs, "capot_points", (252, 250))
    return capot - USUAL_DEAL_POINTS + deal_points(knobs, contract)


def team_card_points(
    knobs: Mapping[str, object], contract: str, tricks: list[PlayedTrick]
) -> dict[str, int]:
    """Each team's card points: its tricks' cards + 10 for the last trick; the capot's points
    for a team with all eight tricks, 0 for the other (docs/rules.md 8, rules-decisions.md
    "Scoring")."""
    capot = capot_team(tricks)
    if capot is not None:
        return {capot: capot_points(knobs, contract), other_team(capot): 0}
    points = dict.fromkeys(TEAMS, 0)
    for trick in tricks:
        team = team_of(trick.winner)
        points[team] += sum(_card_points(knobs, contract, card) for _, card in trick.plays)
    points[team_of(tricks[-1].winner)] += LAST_TRICK_BONUS  # docs/rules.md 1: "dix de der"
    return points


def belote_holders(
    knobs: Mapping[str, object], contract: str, tricks: list[PlayedTrick]
) -> list[str]:
    """The seat of each belote-rebelote of the deal (one entry per K-Q pair).

    rules-decisions.md: the seat that played both the trump K and Q. No-trump: none
    (docs/rules.md 6). All-trump: each suit's K-Q pair played by one seat, with the knob
    belote_in_all_trump only.
    """
    if contract == NO_TRUMP:
        return []
    if contract == ALL_TRUMP:
        if not knob_flag(knobs, "belote_in_all_trump"):
            return []
        suits: tuple[str, ...] = SUITS
    else:
        suits = (contract,)
    seat_of = played_by(tricks)
    return [seat_of["K" + suit] for suit in suits if seat_of["K" + suit] == seat_of["Q" + suit]]


def belote_suits(
    knobs: Mapping[str, object], contract: str, tricks: list[PlayedTrick]
) -> list[tuple[str, str]]:
    """Each belote-rebelote of the deal as (seat, suit of its K-Q pair)."""
    suits = SUITS if contract == ALL_TRUMP else (contract,)
    seat_of = played_by(tricks)
    holders = belote_holders(knobs, contract, tricks)
    pairs = [(seat_of["K" + suit], suit) for suit in suits if suit in SUITS]
    return [(seat, suit) for seat, suit in pairs if seat == seat_of["Q" + suit] and seat in holders]


def team_belote(
    knobs: Mapping[str, object], contract: str, tricks: list[PlayedTrick], declared: set[str]
) -> dict[str, int]:
    """Each team's belote points (docs/rules.md 6, knob belote_declaration).

    ``automatic``: 20 per belote. ``declared``: 20 only if the holder said "belote". An
    entry of ``declared`` is a seat (its "belote" covers each of its pairs) or the code of
    the card with which "belote" was said (that card's pair only).
    """
    mode = knob_choice(knobs, "belote_declaration", ("automatic", "declared"))
    points = dict.fromkeys(TEAMS, 0)
    for seat, suit in belote_suits(knobs, contract, tricks):
        said = seat in declared or "K" + suit in declared or "Q" + suit in declared
        if mode == "automatic" or said:
            points[team_of(seat)] += BELOTE_POINTS
    return points


def team_announcements(
    knobs: Mapping[str, object],
    contract: str,
    tricks: list[PlayedTrick],
    declared: dict[str, list[list[str]]],
) -> dict[str, int]:
    """Each team's accepted announcement points (docs/rules.md 7): all the announcements of the
    team that wins the comparison, nothing for the other; nothing at all with the knob
    announcements off. Each declared card must have been played by the seat declaring it, and
    serve in one of its announcements only."""
    points = dict.fromkeys(TEAMS, 0)
    if not knob_flag(knobs, "announcements"):
        return points
    seat_of = played_by(tricks)
    for seat, announcements in declared.items():
        used = [card for cards in announcements for card in cards]
        if len(set(used)) != len(used):
            raise ValueError(f"{seat} uses a card in two announcements")  # docs/rules.md 7
        foreign = [card for card in used if seat_of[card] != seat]
        if foreign:
            raise ValueError(f"{seat} announced cards it did not hold: {foreign}")
    winner = announcement_winner(contract, declared)
    if winner is None:
        return points
    for seat, announcements in declared.items():
        if team_of(seat) == winner:
            points[winner] += sum(announcement_value(cards, contract)[1] for cards in announcements)
    return points


def round_score(knobs: Mapping[str, object], points: int) -> int:
    """Knob rounding: ``nearest_ten`` with 5 upward (85 -> 90, 84 -> 80), or ``exact``."""
    if knob_choice(knobs, "rounding", ("nearest_ten", "exact")) == "exact":
        return points
    return (points + 5) // 10 * 10


# ---------------------------------------------------------------------------------------------
# The two kinds of table
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """What each team has counted before the contract is judged."""

    cards: dict[str, int]
    announcements: dict[str, int]
    belote: dict[str, int]
    tricks: list[PlayedTrick]


def announcements_after_capot(tally: Tally) -> dict[str, int]:
    """Each team's announcements as they are scored: docs/rules.md 8 (FFB), on a capot the
    capotted team's announcements change hands and go to the team that made capot."""
    capot = capot_team(tally.tricks)
    if capot is None:
        return dict(tally.announcements)
    return {capot: sum(tally.announcements.values()), other_team(capot): 0}


def _classic_outcome(
    knobs: Mapping[str, object], contract: Contract, tally: Tally
) -> tuple[dict[str, int], bool | None, int]:
    """Classic tables (docs/rules.md 8 "Classic tables", "Cardavia"; rules-decisions.md).

    Returns (scores, made, reserve).
    """
    takers = team_of(contract.taker)
    defenders = other_team(takers)
    announcements = announcements_after_capot(tally)
    total = {team: tally.cards[team] + announcements[team] + tally.belote[team] for team in TEAMS}
    # rules-decisions.md: with belote_counts_for_contract off, belotes are left out of the test.
    test = dict(total)
    if not knob_flag(knobs, "belote_counts_for_contract"):
        test = {team: total[team] - tally.belote[team] for team in TEAMS}

    if test[takers] > test[defenders]:
        outcome = "made"
    elif test[takers] < test[defenders]:
        outcome = "failed"
    else:
        outcome = knob_choice(knobs, "tie", ("litige", "made", "failed"))

    if outcome == "made":
        return (total, True, 0)  # each team scores its total
    if outcome == "litige":
        # The defenders score their total; the takers' total waits in reserve, but not their
        # belote, which stays with them (docs/rules.md 8: the belote is not put in reserve).
        takers_belote = tally.belote[takers]
        return (
            {takers: takers_belote, defenders: total[defenders]},
            None,
            total[takers] - takers_belote,
        )

    # Failed: the defenders take all the deal's points, 162 with the usual scales (or the
    # capot's if they took all eight tricks) + every accepted announcement + their belote
    # (+ the takers' with belote_on_failure to_defenders). docs/rules.md 8: these totals follow the
    # point scale in force.
    base = deal_points(knobs, contract.trump)
    if capot_team(tally.tricks) == defenders:
        base = capot_points(knobs, contract.trump)
    kept = knob_choice(knobs, "belote_on_failure", ("kept", "to_defenders")) == "kept"
    all_announcements = sum(tally.announcements.values())
    defenders_score = base + all_announcements + tally.belote[defenders]
    takers_score = 0
    if kept:
        takers_score = tally.belote[takers]
    else:
        defenders_score += tally.belote[takers]
    return ({takers: takers_score, defenders: defenders_score}, False, 0)


def bid_value(knobs: Mapping[str, object], bid: int | str | None) -> int:
    """The value of an auction bid (rules-decisions.md "Auction").

    80, 90 ... 160 (170 and 180 with top_bids generale), capot 250, générale 500 (with
    top_bids generale).
    """
    top = knob_choice(knobs, "top_bids", ("capot", "generale"))
    highest = 180 if top == "generale" else 160
    if isinstance(bid, int) and 80 <= bid <= highest and bid % 10 == 0:
        return bid
    if bid == "capot" or (bid == "generale" and top == "generale"):
        return BID_VALUES[bid]
    raise ValueError(f"{bid!r} is not a bid of this rule set (top_bids {top!r})")


def _auction_made(
    knobs: Mapping[str, object],
    contract: Contract,
    points: dict[str, int],
    tally: Tally,
    value: int,
) -> bool:
    """Whether an auction contract is made (rules-decisions.md "Auction").

    Capot: the takers' team took all eight tricks. Générale: the taker alone took them all.
    A number: the takers' points reach it, and with contract_must_beat_defence they are also
    more than the defenders' points, counted the same way (docs/rules.md 8, FFB contrée 10.1.1).
    """
    if contract.bid == "capot":
        return capot_team(tally.tricks) == team_of(contract.taker)
    if contract.bid == "generale":
        return all(trick.winner == contract.taker for trick in tally.tricks)
    takers = team_of(contract.taker)
    if points[takers] < value:
        return False
    if knob_flag(knobs, "contract_must_beat_defence"):
        return points[takers] > points[other_team(takers)]
    return True


def _auction_outcome(
    knobs: Mapping[str, object], contract: Contract, tally: Tally
) -> tuple[dict[str, int], bool]:
    """Coinche tables (docs/rules.md 8 "Coinche tables", rules-decisions.md "Auction").

    Returns (scores, made).
    """
    takers = team_of(contract.taker)
    defenders = other_team(takers)
    value = bid_value(knobs, contract.bid)
    # failed_base (160 or 162) stands for the deal's 162: it follows the point scale too
    # (docs/rules.md 8, rules-decisions.md "Scoring").
    failed_base = knob_number(knobs, "failed_base", (160, 162))
    failed_base += deal_points(knobs, contract.trump) - USUAL_DEAL_POINTS
    kept = knob_choice(knobs, "belote_on_failure", ("kept", "to_defenders")) == "kept"
    belote = tally.belote
    announcements = announcements_after_capot(tally)
    all_announcements = sum(announcements.values())

    # Each side's points for the contract: cards + announcements (+ belote, with the knob).
    points = {team: tally.cards[team] + announcements[team] for team in TEAMS}
    if knob_flag(knobs, "belote_counts_for_contract"):
        points = {team: points[team] + belote[team] for team in TEAMS}
    made = _auction_made(knobs, contract, points, tally, value)
    multiplier = COINCHE_MULTIPLIER[contract.coinche]
    takers_made_capot = made and capot_team(tally.tricks) == takers

    if multiplier == 1 and made:
        # takers: their points + the bid, belote always included; defenders: their own total.
        # A capot is in the takers' card points: 250 + the bid, bid or not (docs/rules.md 8).
        return (
            {
                takers: tally.cards[takers] + announcements[takers] + belote[takers] + value,
                defenders: tally.cards[defenders] + announcements[defenders] + belote[defenders],
            },
            True,
        )
    if multiplier == 1:
        prize = failed_base + value + all_announcements  # the defenders' prize on failure
    elif takers_made_capot:
        # coinched or surcoinched capot: (250 + bid) x multiplier + every announcement
        prize = (tally.cards[takers] + value) * multiplier + all_announcements
    else:
        # coinched or surcoinched: (failed_base + bid) x multiplier + every accepted announcement
        prize = (failed_base + value) * multiplier + all_announcements
    if made:
        return ({takers: prize + belote[takers], defenders: belote[defenders]}, True)
    takers_score = belote[takers] if kept else 0
    defenders_score = prize + belote[defenders] + (0 if kept else belote[takers])
    return ({takers: takers_score, defenders: defenders_score}, False)


def score_deal(knobs: Mapping[str, object], deal: Mapping[str, object]) -> dict[str, object]:
    """Score one deal from its record (docs/rules.md 8 as refined by rules-decisions.md).

    ``deal`` holds ``contract`` ({taker, trump, bid, coinche}), ``tricks`` (8 of
    {leader, cards}), ``announcements`` (seat -> list of card lists) and ``belote_declared``
    (seats). Returns {"NS", "EW": final points of the deal after multipliers and rounding,
    "made": bool or None for a litige, "reserve": points put in reserve by a litige,
    "capot": the team that took all eight tricks or None}.
    """
    contract = read_contract(deal)
    tricks = read_tricks(deal, contract.trump)
    declared = read_announcements(deal)
    belote_said = read_belote_declared(deal)
    tally = Tally(
        cards=team_card_points(knobs, contract.trump, tricks),
        announcements=team_announcements(knobs, contract.trump, tricks, declared),
        belote=team_belote(knobs, contract.trump, tricks, belote_said),
        tricks=tricks,
    )

    bidding = knob_choice(knobs, "bidding", ("classic", "auction"))
    made: bool | None
    reserve = 0
    if bidding == "classic":
        if contract.bid is not None or contract.coinche != 0:
            raise ValueError("a classic contract has no bid and no coinche")
        scores, made, reserve = _classic_outcome(knobs, contract, tally)
    else:
        scores, made = _auction_outcome(knobs, contract, tally)

    return {
        "NS": round_score(knobs, scores["NS"]),
        "EW": round_score(knobs, scores["EW"]),
        "made": made,
        "reserve": round_score(knobs, reserve),
        "capot": capot_team(tricks),
    }
