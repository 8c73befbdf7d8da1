"""Tests of the second check, :mod:`cardavia.verify`, against the numbers of docs/rules.md.

Every expected number here is worked out by hand in the comments, from docs/rules.md and
docs/rules-decisions.md; the rule sets are written out knob by knob (docs/rules.md 10).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import pairwise

import pytest

from cardavia.verify import (
    announcement_value,
    announcement_winner,
    auction_moves,
    best_announcements,
    card_points,
    deal_problems,
    legal_cards,
    score_deal,
    trick_points,
    trick_winner,
)

# ---------------------------------------------------------------------------------------------
# The presets, knob by knob (docs/rules.md 10 and docs/rules-decisions.md)
# ---------------------------------------------------------------------------------------------

COMMON: dict[str, object] = {
    "first_packets": "3-2",
    "auction_packets": "3-2-3",
    "round2_contracts": False,
    "auction_contracts": False,
    "top_bids": "capot",
    "coinche_any_time": False,
    "overtrump_partner_on_trump_lead": True,
    "must_trump_partner": False,
    "overtrump_when_trumping_partner": True,
    "no_trump_points": "scaled",
    "all_trump_points": "scaled",
    "belote_counts_for_contract": True,
    "belote_in_all_trump": False,
    "capot_points": 252,
    "failed_base": 160,
    "outbid_after_coinche": False,  # docs/rules.md 10: "—" but the coinche preset; never read
    "contract_must_beat_defence": True,  # by a classic table
}

CARDAVIA: dict[str, object] = {
    **COMMON,
    "name": "cardavia",
    "deck": "french",
    "bidding": "classic",
    "undertrump": "required",
    "announcements": False,
    "belote_declaration": "automatic",
    "belote_on_failure": "to_defenders",
    "tie": "made",
    "rounding": "exact",
    "target": None,
}

MAISON: dict[str, object] = {
    **COMMON,
    "name": "maison",
    "deck": "french",
    "bidding": "classic",
    "undertrump": "required",
    "announcements": True,
    "belote_declaration": "declared",
    "belote_on_failure": "kept",
    "tie": "litige",
    "rounding": "exact",
    "target": 1000,
}

COINCHE: dict[str, object] = {
    **COMMON,
    "name": "coinche",
    "deck": "french",
    "bidding": "auction",
    "overtrump_when_trumping_partner": False,  # FFB contrée 2016, 5.2.3
    "capot_points": 250,  # FFB: "250 points si capot réalisé, même non demandé"
    "undertrump": "optional",
    "announcements": False,
    "belote_declaration": "declared",
    "belote_on_failure": "kept",
    "tie": "litige",  # docs/rules.md 10: "—", classic tables only; never read by an auction
    "rounding": "nearest_ten",
    "target": 2000,
}

MAGHREB: dict[str, object] = {**MAISON, "name": "maghreb", "deck": "spanish"}

PRESETS = {"cardavia": CARDAVIA, "maison": MAISON, "coinche": COINCHE, "maghreb": MAGHREB}

ALL_CARDS = [rank + suit for rank in "789TJQKA" for suit in "SHDC"]


def knobs(preset: Mapping[str, object], **changes: object) -> dict[str, object]:
    """A preset with some knobs changed."""
    return {**preset, **changes}


def deal(
    tricks: list[tuple[str, str]],
    taker: str,
    trump: str,
    bid: int | str | None = None,
    coinche: int = 0,
    announcements: Mapping[str, list[list[str]]] | None = None,
    belote_declared: list[str] | None = None,
) -> dict[str, object]:
    """A deal record; each trick written as (leader, "C1 C2 C3 C4")."""
    return {
        "contract": {"taker": taker, "trump": trump, "bid": bid, "coinche": coinche},
        "tricks": [{"leader": leader, "cards": cards.split()} for leader, cards in tricks],
        "announcements": dict(announcements or {}),
        "belote_declared": list(belote_declared or []),
    }


# ---------------------------------------------------------------------------------------------
# docs/rules.md 11: the nine worked examples
# ---------------------------------------------------------------------------------------------

WORKED_EXAMPLES = [
    # (#, rules, trump, trick so far, player, hand, legal)
    (1, "maison", "H", "W AS", "N", "KS 7S JH 9C TD", "KS 7S"),
    (2, "maison", "D", "N 8D, E 9C", "S", "QS 9D 7D TH", "9D"),
    (3, "maison", "H", "E AC", "S", "8H QH KS 9D 7S", "8H QH"),
    (4, "maison", "H", "N AC, E 7C", "S", "8H QH KS 9D", "8H QH KS 9D"),
    (5, "maison", "S", "W AD, N 8S", "E", "7S 9S KH", "9S"),
    (6, "maison", "S", "W AD, N JS", "E", "7S 9S KH QC", "7S 9S"),
    (7, "coinche", "S", "W AD, N JS", "E", "7S 9S KH QC", "7S 9S KH QC"),
    (8, "maison", "NT", "S KD", "W", "7D AS AC", "7D"),
    (9, "maison", "H", "S AS, W TS, N 7S", "E", "JH KD", "JH"),
]


def parse_trick(text: str) -> list[tuple[str, str]]:
    """ "W AD, N 8S" -> [("W", "AD"), ("N", "8S")]."""
    plays = [part.split() for part in text.split(",")]
    return [(seat, card) for seat, card in plays]


@pytest.mark.parametrize(
    ("number", "rules", "trump", "trick", "seat", "hand", "legal"), WORKED_EXAMPLES
)
def test_worked_examples(
    number: int, rules: str, trump: str, trick: str, seat: str, hand: str, legal: str
) -> None:
    """docs/rules.md 11: each example's legal cards, exactly."""
    got = legal_cards(PRESETS[rules], trump, parse_trick(trick), seat, hand.split())
    assert got == frozenset(legal.split()), f"example {number}"


def test_worked_example_9_winner_and_points() -> None:
    """docs/rules.md 11 #9: East trumps with JH, wins, and the trick is worth 11 + 10 + 0 + 20."""
    trick = [*parse_trick("S AS, W TS, N 7S"), ("E", "JH")]
    assert trick_winner("H", trick) == "E"
    assert trick_points(MAISON, "H", [card for _, card in trick]) == 41


# ---------------------------------------------------------------------------------------------
# docs/rules.md 5: more legal-card cases, knob by knob
# ---------------------------------------------------------------------------------------------


def test_leader_plays_anything() -> None:
    """docs/rules.md 5: the first card of a trick is free."""
    assert legal_cards(MAISON, "H", [], "N", ["7S", "JH"]) == {"7S", "JH"}


def test_trump_lead_overtrump_partner_knob() -> None:
    """docs/rules.md 5.1: on a trump lead, overtrump even the partner, unless the knob is off."""
    trick = [("N", "9H"), ("E", "7H")]  # N (partner of S) is master with the 9
    hand = ["JH", "8H", "AS"]
    assert legal_cards(MAISON, "H", trick, "S", hand) == {"JH"}
    off = knobs(MAISON, overtrump_partner_on_trump_lead=False)
    assert legal_cards(off, "H", trick, "S", hand) == {"JH", "8H"}
    # cannot beat the 9: any trump, never a side card
    assert legal_cards(MAISON, "H", trick, "S", ["AH", "8H", "AS"]) == {"AH", "8H"}


def test_opponent_master_must_overtrump() -> None:
    """docs/rules.md 5.2, an opponent master by trump: trump higher if you can."""
    trick = [("N", "AD"), ("E", "8S"), ("S", "9S")]  # S trumped over E: S is master
    assert legal_cards(MAISON, "S", trick, "W", ["7S", "JS", "KH"]) == {"JS"}


def test_partner_master_trumping_must_overtrump() -> None:
    """docs/rules.md 5.2, partner master: any card, but a trump over a trump must beat it if it can
    (knob overtrump_when_trumping_partner); must_trump_partner makes trumping compulsory."""
    trick = [("N", "AD"), ("E", "QS"), ("S", "7D")]  # E (partner of W) trumped: E is master
    hand = ["KS", "8S", "KH"]
    assert legal_cards(MAISON, "S", trick, "W", hand) == {"KS", "KH"}
    off = knobs(MAISON, overtrump_when_trumping_partner=False)
    assert legal_cards(off, "S", trick, "W", hand) == {"KS", "8S", "KH"}
    forced = knobs(MAISON, must_trump_partner=True)
    assert legal_cards(forced, "S", trick, "W", hand) == {"KS"}
    # cannot beat the partner's trump: any card, a lower trump included
    assert legal_cards(MAISON, "S", trick, "W", ["8S", "KH"]) == {"8S", "KH"}


def test_partner_master_with_no_trump_down() -> None:
    """docs/rules.md 5.2: partner master with a plain card: any card, trumps included."""
    trick = [("N", "AC"), ("E", "7C")]  # as example 4
    assert legal_cards(MAISON, "H", trick, "S", ["8H", "9D"]) == {"8H", "9D"}


def test_no_trump_held() -> None:
    """docs/rules.md 5.2: no card of the suit led and no trump: any card."""
    trick = [("E", "AC")]
    assert legal_cards(MAISON, "H", trick, "S", ["KS", "9D"]) == {"KS", "9D"}


def test_all_trump_must_beat_the_suit_led() -> None:
    """docs/rules.md 5.4: follow and beat the highest card of the suit led (trump
    order) if you can."""
    trick = [("N", "AS"), ("E", "9S")]  # in all-trump the 9 beats the ace
    assert legal_cards(MAISON, "AT", trick, "S", ["JS", "TS", "KH"]) == {"JS"}
    assert legal_cards(MAISON, "AT", trick, "S", ["TS", "7S", "KH"]) == {"TS", "7S"}
    assert legal_cards(MAISON, "AT", trick, "S", ["JH", "KD"]) == {"JH", "KD"}
    assert trick_winner("AT", [*trick, ("S", "JH"), ("W", "7S")]) == "E"


def test_no_trump_winner_is_the_highest_of_the_suit_led() -> None:
    """docs/rules.md 5.3, 5.5: in no-trump, plain order, and only the suit led wins."""
    trick = [("S", "KD"), ("W", "JD"), ("N", "AS"), ("E", "TD")]
    assert trick_winner("NT", trick) == "E"
    assert trick_winner("S", trick) == "N"  # with spades trump, the ace of spades cuts


def test_partial_trick_winner() -> None:
    """docs/rules.md 5.5: the master of a trick in progress."""
    assert trick_winner("H", [("W", "AD")]) == "W"
    assert trick_winner("H", [("W", "AD"), ("N", "7H")]) == "N"


def test_refuses_bad_input() -> None:
    """Wrong turn, unknown cards, a card both in hand and trick: ValueError."""
    with pytest.raises(ValueError, match="turn"):
        legal_cards(MAISON, "H", [("W", "AS")], "S", ["KS"])
    with pytest.raises(ValueError, match="card code"):
        legal_cards(MAISON, "H", [], "N", ["10S"])
    with pytest.raises(ValueError, match="both"):
        legal_cards(MAISON, "H", [("W", "AS")], "N", ["AS"])
    with pytest.raises(ValueError, match="contract"):
        trick_winner("X", [("W", "AS")])
    with pytest.raises(ValueError, match="empty"):
        trick_winner("H", [])


# ---------------------------------------------------------------------------------------------
# docs/rules.md 1: card points
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "changes", "total", "with_last_trick"),
    [
        ("S", {}, 152, 162),
        ("H", {}, 152, 162),
        ("D", {}, 152, 162),
        ("C", {}, 152, 162),
        ("NT", {"no_trump_points": "scaled"}, 152, 162),
        ("NT", {"no_trump_points": "plain"}, 120, 130),  # docs/rules.md 1: "120 + 10"
        ("AT", {"all_trump_points": "scaled"}, 152, 162),
        ("AT", {"all_trump_points": "trump"}, 248, 258),  # docs/rules.md 1: "248 + 10"
    ],
)
def test_card_points_sum(
    contract: str, changes: dict[str, object], total: int, with_last_trick: int
) -> None:
    """docs/rules.md 1: the points in the 32 cards of each contract kind and points knob, and with
    the last trick's 10 (as score_deal counts a deal of eight tricks)."""
    rules = knobs(MAISON, **changes)
    assert sum(card_points(rules, contract, card) for card in ALL_CARDS) == total
    assert trick_points(rules, contract, ALL_CARDS) == total
    # A deal played at random, with no announcement nor belote counted: the team that made
    # its contract and the other share the card points and the last trick's 10.
    rules = knobs(rules, announcements=False, tie="made")
    tricks = random_tricks(1, rules, contract)
    scores = [score_deal(rules, deal(tricks, taker, contract)) for taker in ("N", "E")]
    made = next(scored for scored in scores if scored["made"])
    assert made["capot"] is None
    assert number(made, "NS") + number(made, "EW") == with_last_trick


def test_card_points_values() -> None:
    """docs/rules.md 1: a few values read off the tables."""
    assert card_points(MAISON, "H", "JH") == 20
    assert card_points(MAISON, "H", "9H") == 14
    assert card_points(MAISON, "H", "JS") == 2
    assert card_points(MAISON, "NT", "AS") == 19
    assert card_points(knobs(MAISON, no_trump_points="plain"), "NT", "AS") == 11
    assert card_points(MAISON, "AT", "JS") == 14
    assert card_points(MAISON, "AT", "9S") == 9
    assert card_points(knobs(MAISON, all_trump_points="trump"), "AT", "9S") == 14


# ---------------------------------------------------------------------------------------------
# docs/rules.md 7: announcements
# ---------------------------------------------------------------------------------------------


def test_announcement_values() -> None:
    """docs/rules.md 7: tierce 20, cinquante 50, cent 100; carrés J 200, 9 150, A T K Q 100."""
    assert announcement_value(["7H", "8H", "9H"], "S") == ("sequence", 20)
    assert announcement_value(["TD", "JD", "QD", "KD"], "S") == ("sequence", 50)
    assert announcement_value(["9C", "TC", "JC", "QC", "KC", "AC"], "S") == ("sequence", 100)
    assert announcement_value(["JS", "JH", "JD", "JC"], "S") == ("carre", 200)
    assert announcement_value(["9S", "9H", "9D", "9C"], "S") == ("carre", 150)
    assert announcement_value(["QS", "QH", "QD", "QC"], "NT") == ("carre", 100)


@pytest.mark.parametrize(
    "cards",
    [
        ["7S", "7H", "7D", "7C"],  # rules-decisions.md: worth 0, cannot be announced
        ["8S", "8H", "8D", "8C"],
        ["7H", "8H", "TH"],  # a gap
        ["7H", "8H", "9S"],  # two suits
        ["7H", "8H"],  # too short
        ["KS", "KH", "KD"],  # three of a kind is nothing
    ],
)
def test_not_announcements(cards: list[str]) -> None:
    """Cards that are neither a sequence nor an announceable carré: ValueError."""
    with pytest.raises(ValueError, match=r"cannot be announced|neither"):
        announcement_value(cards, "H")


def test_spanish_example_carre_of_kings_over_the_sequence() -> None:
    """Seed 002 (Spanish deck: 12 = king, 11 = queen, 10 = jack, oros = diamonds): a carré of
    12s and 10-11-12 of oros share the 12 of oros; choose the most points: the carré, 100."""
    hand = ["KS", "KH", "KD", "KC", "QD", "JD", "7S", "8C"]
    assert best_announcements(hand, "S") == ([frozenset({"KS", "KH", "KD", "KC"})], 100)


def test_carre_and_the_rest_of_the_run() -> None:
    """9 10 J Q K of diamonds (cent, 100) or the carré of kings (100) + 9 10 J Q (50): 150."""
    hand = ["KS", "KH", "KC", "KD", "9D", "TD", "JD", "QD"]
    carre = frozenset({"KS", "KH", "KD", "KC"})
    assert best_announcements(hand, "H") == ([carre, frozenset({"9D", "TD", "JD", "QD"})], 150)


def test_sevens_carre_leaves_its_cards_to_sequences() -> None:
    """rules-decisions.md: a carré of 7s is not announced, so 7 8 9 of spades is a tierce."""
    hand = ["7S", "7H", "7D", "7C", "8S", "9S", "KH", "AD"]
    assert best_announcements(hand, "H") == ([frozenset({"7S", "8S", "9S"})], 20)


def test_eight_in_a_row_is_one_cent() -> None:
    """rules-decisions.md: a run is never split: eight hearts in a row is one cent, 100."""
    hand = [rank + "H" for rank in "789TJQKA"]
    assert best_announcements(hand, "H") == ([frozenset(hand)], 100)


def test_two_carres() -> None:
    """Two carrés, strongest first: jacks 200 + nines 150."""
    hand = ["JS", "JH", "JD", "JC", "9S", "9H", "9D", "9C"]
    jacks = frozenset({"JS", "JH", "JD", "JC"})
    nines = frozenset({"9S", "9H", "9D", "9C"})
    assert best_announcements(hand, "NT") == ([jacks, nines], 350)


def test_nothing_to_announce() -> None:
    """([], 0) when the hand has no sequence nor carré."""
    assert best_announcements(["7S", "9S", "JS", "KS", "7H", "9H", "JH", "KH"], "S") == ([], 0)


TIERCE_TO_K_SPADES = ["JS", "QS", "KS"]
TIERCE_TO_K_HEARTS = ["JH", "QH", "KH"]
TIERCE_TO_Q_DIAMONDS = ["TD", "JD", "QD"]
CENT_CLUBS = ["8C", "9C", "TC", "JC", "QC"]
SIX_DIAMONDS = ["7D", "8D", "9D", "TD", "JD", "QD"]
CARRE_QUEENS = ["QS", "QH", "QD", "QC"]
CARRE_ACES = ["AS", "AH", "AD", "AC"]
CARRE_KINGS = ["KS", "KH", "KD", "KC"]


def test_comparison_more_points() -> None:
    """docs/rules.md 7.1: more points wins, whatever else; the partner's announcements help."""
    declared = {"N": [TIERCE_TO_K_SPADES], "E": [["7D", "8D", "9D", "TD"]]}
    assert announcement_winner("S", declared) == "EW"


def test_comparison_carre_beats_cent() -> None:
    """docs/rules.md 7.2: 100 against 100, the carré beats the sequence."""
    assert announcement_winner("C", {"N": [CENT_CLUBS], "W": [CARRE_QUEENS]}) == "EW"


def test_comparison_longer_sequence() -> None:
    """docs/rules.md 7.3: two sequences of 100, the longer wins (even ending lower,
    not in trump)."""
    assert announcement_winner("C", {"S": [SIX_DIAMONDS], "E": [CENT_CLUBS]}) == "NS"


def test_comparison_higher_top_then_trump() -> None:
    """docs/rules.md 7.3: equal tierces: the higher end card, then the one in trump."""
    assert announcement_winner("S", {"N": [TIERCE_TO_Q_DIAMONDS], "E": [TIERCE_TO_K_HEARTS]}) == (
        "EW"
    )
    declared = {"N": [TIERCE_TO_K_SPADES], "E": [TIERCE_TO_K_HEARTS]}
    assert announcement_winner("S", declared) == "NS"  # spades are trump
    assert announcement_winner("H", declared) == "EW"  # hearts are trump


@pytest.mark.parametrize("contract", ["D", "NT", "AT"])
def test_comparison_complete_tie(contract: str) -> None:
    """docs/rules.md 7.5: equal tierces, neither in trump: nobody's announcements count.

    rules-decisions.md: in no-trump and all-trump "in trump" separates nothing.
    """
    declared = {"N": [TIERCE_TO_K_SPADES], "E": [TIERCE_TO_K_HEARTS]}
    assert announcement_winner(contract, declared) is None


def test_comparison_carres_of_equal_points() -> None:
    """docs/rules.md 7.4: two carrés of 100, the higher rank in sequence order (A > K > Q > 10)."""
    assert announcement_winner("H", {"N": [CARRE_KINGS], "W": [CARRE_ACES]}) == "EW"
    assert announcement_winner("H", {"N": [CARRE_KINGS], "W": [CARRE_QUEENS]}) == "NS"


def test_comparison_each_team_single_best() -> None:
    """docs/rules.md 7: each team's best announcement is compared, whoever in the team holds it."""
    declared = {
        "N": [TIERCE_TO_Q_DIAMONDS],
        "S": [CARRE_KINGS],
        "E": [CENT_CLUBS, TIERCE_TO_K_HEARTS],
    }
    assert announcement_winner("H", declared) == "NS"


def test_comparison_alone_and_nobody() -> None:
    """docs/rules.md 7: a team that alone announced wins; nobody announcing gives None."""
    assert announcement_winner("H", {"W": [TIERCE_TO_Q_DIAMONDS], "N": []}) == "EW"
    assert announcement_winner("H", {}) is None
    assert announcement_winner("H", {"N": [], "E": []}) is None


# ---------------------------------------------------------------------------------------------
# docs/rules.md 8: scoring whole deals
# ---------------------------------------------------------------------------------------------

# Deal A, hearts trump. Hands as dealt:
#   N 7C 8S 9D 9S JD KC QS TD    tierce 9 10 J of diamonds (20)
#   E 7S 8C 8D 8H 9H AH KS TH    tierce 8 9 10 of hearts (20, in trump)
#   S 7H AC AD JH KD QC QD TS    tierce Q K A of diamonds (20): the best, ends on the ace
#   W 7D 9C AS JC JS KH QH TC    tierce 9 10 J of clubs (20); belote (K and Q of hearts)
# The comparison: NS's best (Q K A) beats EW's best (8 9 10 of hearts: the end card comes
# before trump), so NS scores N's and S's tierces: 40; EW scores none.
DEAL_A = [
    ("N", "KC 8C AC 9C"),  # S wins with AC: 4 + 0 + 11 + 0 = 15          NS 15
    ("S", "AD 7D JD 8D"),  # S: 11 + 0 + 2 + 0 = 13                       NS 28
    ("S", "QC JC 7C 9H"),  # E trumps: 3 + 2 + 0 + 14 = 19                EW 19
    ("E", "AH JH KH TD"),  # S with JH: 11 + 20 + 4 + 10 = 45             NS 73
    ("S", "KD QH 9D TH"),  # W trumps, E overtrumps: 4 + 3 + 0 + 10 = 17  EW 36
    ("E", "8H 7H AS 9S"),  # E: 0 + 0 + 11 + 0 = 11                       EW 47
    ("E", "KS TS JS 8S"),  # S with TS: 4 + 10 + 2 + 0 = 16               NS 89
    ("S", "QD TC QS 7S"),  # S: 3 + 10 + 3 + 0 = 16, + 10 last trick      NS 115
]
DEAL_A_ANNOUNCEMENTS = {
    "N": [["9D", "TD", "JD"]],
    "E": [["8H", "9H", "TH"]],
    "S": [["QD", "KD", "AD"]],
    "W": [["9C", "TC", "JC"]],
}

# Deal B, spades trump. Hands as dealt:
#   N 8H 9C 9D AC AS QD QH TC
#   E 7S 8D 8S 9S AD JS QC TH    tierce 7 8 9 of spades (20)
#   S 7D 7H 8C JC KC KH KS QS    belote (K and Q of spades)
#   W 7C 9H AH JD JH KD TD TS
DEAL_B = [
    ("N", "9D AD 7D TD"),  # E: 0 + 11 + 0 + 10 = 21                      EW 21
    ("E", "8S QS TS AS"),  # N with AS: 0 + 3 + 10 + 11 = 24              NS 24
    ("N", "AC QC KC 7C"),  # N: 11 + 3 + 4 + 0 = 18                       NS 42
    ("N", "9C 7S JC KD"),  # E trumps: 0 + 0 + 2 + 4 = 6                  EW 27
    ("E", "9S KS AH QH"),  # E: 14 + 4 + 11 + 3 = 32                      EW 59
    ("E", "JS 8C JD 8H"),  # E: 20 + 0 + 2 + 0 = 22                       EW 81
    ("E", "8D KH JH QD"),  # N with QD: 0 + 4 + 2 + 3 = 9                 NS 51
    ("N", "TC TH 7H 9H"),  # N: 10 + 10 + 0 + 0 = 20, + 10 last trick     NS 81
]
DEAL_B_ANNOUNCEMENTS = {"E": [["7S", "8S", "9S"]]}

# Deal C, hearts trump: N holds all eight hearts and leads them one by one; NS takes all
# eight tricks (capot). N's hearts are a cent (100) and a belote.
DEAL_C = [
    ("N", "JH 7S 8S 8D"),
    ("N", "9H 9S TS TD"),
    ("N", "AH JS QS QD"),
    ("N", "TH KS AS AD"),
    ("N", "KH 7D 8C 7C"),
    ("N", "QH 9D TC 9C"),
    ("N", "8H JD QC JC"),
    ("N", "7H KD AC KC"),
]
DEAL_C_ANNOUNCEMENTS = {"N": [["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]]}


def result(
    ns: int, ew: int, made: bool | None, reserve: int = 0, capot: str | None = None
) -> dict[str, object]:
    """The expected answer of score_deal."""
    return {"NS": ns, "EW": ew, "made": made, "reserve": reserve, "capot": capot}


@pytest.mark.parametrize(
    ("rules", "record"),
    [
        (MAISON, deal(DEAL_A, "N", "H", None, 0, DEAL_A_ANNOUNCEMENTS, ["W"])),
        (MAISON, deal(DEAL_B, "N", "S", None, 0, DEAL_B_ANNOUNCEMENTS, ["S"])),
        (MAISON, deal(DEAL_C, "N", "H", None, 0, DEAL_C_ANNOUNCEMENTS, ["N"])),
        (CARDAVIA, deal(DEAL_A, "W", "H")),
        (COINCHE, deal(DEAL_A, "N", "H", 110, 1, None, ["W"])),
    ],
)
def test_fixture_deals_are_played_by_the_rules(
    rules: Mapping[str, object], record: Mapping[str, object]
) -> None:
    """The deals below are legal, card by card, and their announcements are the best sets."""
    assert deal_problems(rules, record) == []


def test_deal_problems_finds_breaches() -> None:
    """A wrong leader, an illegal card, a wrong announcement and a false belote are reported."""
    tricks = list(DEAL_A)
    tricks[1] = ("N", "JD 8D AD 7D")  # the same cards, but S won trick 1 and should lead
    record = deal(tricks, "N", "H", None, 0, {"N": [["9D", "TD", "JD"]], "S": []}, ["E"])
    assert deal_problems(MAISON, record) == [
        "trick 2 is led by N, but S won trick 1",
        "E said belote without holding the trump K and Q",
    ]
    record = deal(DEAL_A, "N", "H", None, 0, {"S": [["QD", "KD", "AD"]]})
    assert deal_problems(CARDAVIA, record) == [
        "S announced, but this rule set has no announcements"
    ]
    tricks = list(DEAL_A)
    tricks[2] = ("S", "QC JC 7C KS")  # E holds trumps (9H, 8H, ...): a discard is illegal
    tricks[6] = ("E", "9H TS JS 8S")
    problems = deal_problems(MAISON, deal(tricks, "N", "H"))
    assert problems[0] == "trick 3: E played KS, allowed ['8H', '9H', 'AH', 'TH']"


def test_classic_made() -> None:
    """docs/rules.md 8 classic, made: NS (taker N) 115 + 40 announcements = 155 against
    EW 47 + 20 belote = 67; each team scores its total."""
    record = deal(DEAL_A, "N", "H", None, 0, DEAL_A_ANNOUNCEMENTS, ["W"])
    assert score_deal(MAISON, record) == result(155, 67, True)
    assert score_deal(MAGHREB, record) == result(155, 67, True)  # the deck is presentation


def test_classic_belote_not_declared() -> None:
    """docs/rules.md 6, declared: without "belote" the K-Q is worth 0."""
    record = deal(DEAL_A, "N", "H", None, 0, DEAL_A_ANNOUNCEMENTS, [])
    assert score_deal(MAISON, record) == result(155, 47, True)


def test_classic_failed() -> None:
    """docs/rules.md 8 classic, failed: taker E, EW 47 + 20 = 67 < NS 155. The takers keep their
    belote (20); the defenders score 162 + every accepted announcement (40)."""
    record = deal(DEAL_A, "E", "H", None, 0, DEAL_A_ANNOUNCEMENTS, ["W"])
    assert score_deal(MAISON, record) == result(202, 20, False)
    to_defenders = knobs(MAISON, belote_on_failure="to_defenders")
    assert score_deal(to_defenders, record) == result(222, 0, False)


def test_classic_failed_announcements_won_by_takers_go_to_defenders() -> None:
    """docs/rules.md 8: on failure the defenders score every accepted announcement, the takers' too.

    Taker E. First N's tierce (ends on the jack) beats E's (ends on the 10, in trump: the end
    card comes first): NS's 20 counts; EW 47 + 20 belote < NS 115 + 20: failed, NS scores
    162 + 20, EW keeps its belote. Then E alone announces and wins the comparison: EW
    47 + 20 + 20 = 87 < 115, failed: E's tierce goes to the defenders, 162 + 20 again.
    """
    announcements = {"N": [["9D", "TD", "JD"]], "E": [["8H", "9H", "TH"]]}
    record = deal(DEAL_A, "E", "H", None, 0, announcements, ["W"])
    assert score_deal(MAISON, record) == result(182, 20, False)
    # E alone announcing wins the comparison; the failed takers' 20 goes to the defenders.
    record = deal(DEAL_A, "E", "H", None, 0, {"E": [["8H", "9H", "TH"]]}, ["W"])
    assert score_deal(MAISON, record) == result(182, 20, False)


def test_litige() -> None:
    """docs/rules.md 8, tie = litige: NS (taker N) 81 + 20 belote = 101, EW 81 + 20 tierce = 101.
    The defenders score their 101; the takers' 81 go into reserve, their belote 20 is not
    put in reserve: it stays with them."""
    record = deal(DEAL_B, "N", "S", None, 0, DEAL_B_ANNOUNCEMENTS, ["S"])
    assert score_deal(MAISON, record) == result(20, 101, None, reserve=81)
    assert score_deal(knobs(MAISON, tie="made"), record) == result(101, 101, True)
    # tie = failed: NS keeps its belote, EW scores 162 + 20 (its tierce)
    assert score_deal(knobs(MAISON, tie="failed"), record) == result(20, 182, False)


def test_belote_left_out_of_the_test() -> None:
    """rules-decisions.md: with belote_counts_for_contract off, 81 against 101: failed."""
    record = deal(DEAL_B, "N", "S", None, 0, DEAL_B_ANNOUNCEMENTS, ["S"])
    rules = knobs(MAISON, belote_counts_for_contract=False)
    assert score_deal(rules, record) == result(20, 182, False)


@pytest.mark.parametrize(("capot_points", "ns"), [(252, 372), (250, 370)])
def test_classic_capot(capot_points: int, ns: int) -> None:
    """docs/rules.md 8: all eight tricks: 252 (or 250) + the cent 100 + belote 20; EW 0."""
    record = deal(DEAL_C, "N", "H", None, 0, DEAL_C_ANNOUNCEMENTS, ["N"])
    rules = knobs(MAISON, capot_points=capot_points)
    assert score_deal(rules, record) == result(ns, 0, True, capot="NS")


def test_classic_defenders_capot() -> None:
    """rules-decisions.md: failed, the defenders took all eight tricks: the capot value."""
    record = deal(DEAL_C, "E", "H", None, 0, DEAL_C_ANNOUNCEMENTS, ["N"])
    assert score_deal(MAISON, record) == result(372, 0, False, capot="NS")
    assert score_deal(knobs(MAISON, capot_points=250), record) == result(370, 0, False, capot="NS")


def test_cardavia_made() -> None:
    """docs/rules.md 8 Cardavia: NS (taker N) 115 against EW 47 + 20 (automatic belote)."""
    assert score_deal(CARDAVIA, deal(DEAL_A, "N", "H")) == result(115, 67, True)


def test_cardavia_failed_belote_to_defenders() -> None:
    """docs/rules.md 8 Cardavia, failed: taker W, EW 47 + 20 = 67 < 115; EW scores 0 and NS gets
    162 + both teams' belote (EW's 20)."""
    assert score_deal(CARDAVIA, deal(DEAL_A, "W", "H")) == result(182, 0, False)


def test_cardavia_tie_is_made() -> None:
    """docs/rules.md 8 Cardavia: card points plus belote at least the opponents': 101 = 81 + 20."""
    # Deal B without announcements: NS 81 + 20 belote = 101, EW 81: made by NS
    assert score_deal(CARDAVIA, deal(DEAL_B, "N", "S")) == result(101, 81, True)
    # taker E: EW 81 against 101: failed; NS 162 + 20
    assert score_deal(CARDAVIA, deal(DEAL_B, "E", "S")) == result(182, 0, False)


def test_cardavia_capot() -> None:
    """docs/rules.md 8: capot 252 + belote 20 (Cardavia plays no announcements)."""
    record = deal(DEAL_C, "N", "H", None, 0, DEAL_C_ANNOUNCEMENTS)
    assert score_deal(CARDAVIA, record) == result(272, 0, True, capot="NS")


EXACT_COINCHE = knobs(COINCHE, rounding="exact")


def test_coinche_made() -> None:
    """docs/rules.md 8 coinche, made: NS (taker N, bid 110) reach 115: NS 115 + 110 = 225,
    EW 47 + 20 belote = 67 (exact); rounded 230 (5 upward) and 70."""
    record = deal(DEAL_A, "N", "H", 110, 0, None, ["W"])
    assert score_deal(EXACT_COINCHE, record) == result(225, 67, True)
    assert score_deal(COINCHE, record) == result(230, 70, True)


def test_coinche_failed() -> None:
    """docs/rules.md 8 coinche, failed: bid 120, NS 115 < 120 (rounding never decides: 115 does not
    become 120). NS 0; EW 160 + 120 + its belote 20 = 300."""
    record = deal(DEAL_A, "N", "H", 120, 0, None, ["W"])
    assert score_deal(COINCHE, record) == result(0, 300, False)
    assert score_deal(knobs(COINCHE, failed_base=162), record) == result(0, 300, False)
    exact_162 = knobs(EXACT_COINCHE, failed_base=162)
    assert score_deal(exact_162, record) == result(0, 302, False)


def test_coinche_failed_takers_keep_belote() -> None:
    """Taker W bids 80: EW 47 + 20 = 67 < 80. EW keeps its belote 20; NS 160 + 80 = 240."""
    record = deal(DEAL_A, "W", "H", 80, 0, None, ["W"])
    assert score_deal(COINCHE, record) == result(240, 20, False)
    to_defenders = knobs(COINCHE, belote_on_failure="to_defenders")
    assert score_deal(to_defenders, record) == result(260, 0, False)


def test_coinche_belote_counts_for_the_bid() -> None:
    """docs/rules.md 6, 8: deal B, spades, taker S bids 100: 81 + 20 belote = 101 reach it."""
    record = deal(DEAL_B, "S", "S", 100, 0, None, ["S"])
    assert score_deal(EXACT_COINCHE, record) == result(201, 81, True)
    rules = knobs(EXACT_COINCHE, belote_counts_for_contract=False)
    assert score_deal(rules, record) == result(20, 260, False)  # 81 < 100: 160 + 100


def test_coinched() -> None:
    """docs/rules.md 8: coinched (x2), made: NS (160 + 110) x 2 = 540; EW keeps its belote 20.
    Failed (bid 120): EW (160 + 120) x 2 + 20 = 580; NS nothing."""
    made = deal(DEAL_A, "N", "H", 110, 1, None, ["W"])
    assert score_deal(COINCHE, made) == result(540, 20, True)
    failed = deal(DEAL_A, "N", "H", 120, 1, None, ["W"])
    assert score_deal(COINCHE, failed) == result(0, 580, False)


def test_surcoinched() -> None:
    """docs/rules.md 8: surcoinched (x4), made: NS (160 + 110) x 4 = 1080; EW its belote 20.
    Failed (bid 120): EW (160 + 120) x 4 + 20 = 1140."""
    made = deal(DEAL_A, "N", "H", 110, 2, None, ["W"])
    assert score_deal(COINCHE, made) == result(1080, 20, True)
    failed = deal(DEAL_A, "N", "H", 120, 2, None, ["W"])
    assert score_deal(COINCHE, failed) == result(0, 1140, False)


def test_coinche_80_making_81_against_81() -> None:
    """docs/rules.md 8, contract_must_beat_defence (FFB contrée 10.1.1): deal B, taker N bids 80,
    belote not said: NS 81 reach 80 but are not more than EW's 81: failed, EW 160 + 80 =
    240. With EW's tierce: 81 < 101, EW 160 + 80 + 20 = 260."""
    record = deal(DEAL_B, "N", "S", 80, 0, DEAL_B_ANNOUNCEMENTS, [])
    assert score_deal(COINCHE, record) == result(0, 240, False)
    assert score_deal(knobs(COINCHE, announcements=True), record) == result(0, 260, False)


def test_coinche_rounding() -> None:
    """docs/rules.md 8, rounding nearest_ten, 5 upward: deal B, taker N bids 80, belote not said,
    reaching the bid enough (contract_must_beat_defence off): NS 81 + 80 = 161 -> 160;
    EW 81 -> 80. With EW's tierce (announcements on): 101 -> 100."""
    record = deal(DEAL_B, "N", "S", 80, 0, DEAL_B_ANNOUNCEMENTS, [])
    house = knobs(COINCHE, contract_must_beat_defence=False)
    assert score_deal(house, record) == result(160, 80, True)
    with_announcements = knobs(house, announcements=True)
    assert score_deal(with_announcements, record) == result(160, 100, True)
    assert score_deal(knobs(with_announcements, rounding="exact"), record) == result(161, 101, True)


def test_coinche_capot_and_generale() -> None:
    """rules-decisions.md: capot (250) needs all eight tricks for the team, générale (500) all
    eight for the taker alone. Deal C: N takes all: 250 + 20 belote + 250 = 520."""
    record = deal(DEAL_C, "N", "H", "capot", 0, None, ["N"])
    assert score_deal(COINCHE, record) == result(520, 0, True, capot="NS")
    generale = knobs(COINCHE, top_bids="generale")
    record = deal(DEAL_C, "N", "H", "generale", 0, None, ["N"])
    assert score_deal(generale, record) == result(770, 0, True, capot="NS")  # 250 + 20 + 500
    # S bids générale: N took the tricks, not S: failed, EW 160 + 500 = 660; NS keeps 20
    record = deal(DEAL_C, "S", "H", "generale", 0, None, ["N"])
    assert score_deal(generale, record) == result(20, 660, False, capot="NS")
    # capot bid on deal A (NS took 5 tricks): failed, EW 160 + 250 + 20 = 430
    record = deal(DEAL_A, "N", "H", "capot", 0, None, ["W"])
    assert score_deal(COINCHE, record) == result(0, 430, False)


def test_bad_records() -> None:
    """A record that is not a whole deal, or a bid the rule set has not: ValueError."""
    with pytest.raises(ValueError, match="8 tricks"):
        score_deal(MAISON, deal(DEAL_A[:7], "N", "H"))
    with pytest.raises(ValueError, match="32 cards"):
        score_deal(MAISON, deal([*DEAL_A[:7], ("S", "QD TC QS 7C")], "N", "H"))
    with pytest.raises(ValueError, match="not a bid"):
        score_deal(COINCHE, deal(DEAL_A, "N", "H", 85))
    with pytest.raises(ValueError, match="not a bid"):
        score_deal(COINCHE, deal(DEAL_A, "N", "H", "generale"))
    with pytest.raises(ValueError, match="classic"):
        score_deal(MAISON, deal(DEAL_A, "N", "H", 100))
    with pytest.raises(ValueError, match="did not hold"):
        score_deal(MAISON, deal(DEAL_A, "N", "H", None, 0, {"N": [["QD", "KD", "AD"]]}))


def test_knobs_are_checked() -> None:
    """A knob outside its documented values is refused, a missing one named."""
    with pytest.raises(ValueError, match="undertrump"):
        legal_cards(
            knobs(MAISON, undertrump="sometimes"), "S", parse_trick("W AD, N JS"), "E", ["7S", "KH"]
        )
    rules = dict(MAISON)
    del rules["rounding"]
    with pytest.raises(KeyError, match="rounding"):
        score_deal(rules, deal(DEAL_A, "N", "H"))


def test_play_order_is_counterclockwise() -> None:
    """docs/rules.md 2: N -> E -> S -> W; a trick out of order is refused."""
    seats = ["N", "E", "S", "W", "N"]
    assert all(trick_winner("H", [(a, "7S"), (b, "8S")]) == b for a, b in pairwise(seats))
    with pytest.raises(ValueError, match="turn order"):
        trick_winner("H", [("N", "7S"), ("W", "8S")])


# ---------------------------------------------------------------------------------------------
# Random legal deals: the points add up
# ---------------------------------------------------------------------------------------------


def random_tricks(seed: int, rules: Mapping[str, object], trump: str) -> list[tuple[str, str]]:
    """A whole deal played at random, each card drawn among the legal ones (seeded)."""
    rng = random.Random(seed)
    deck = sorted(ALL_CARDS)
    rng.shuffle(deck)
    seats = ["N", "E", "S", "W"]
    hands = {seat: set(deck[8 * i : 8 * i + 8]) for i, seat in enumerate(seats)}
    leader = rng.choice(seats)
    tricks: list[tuple[str, str]] = []
    for _ in range(8):
        plays: list[tuple[str, str]] = []
        seat = leader
        for _ in range(4):
            card = rng.choice(sorted(legal_cards(rules, trump, plays, seat, hands[seat])))
            hands[seat].remove(card)
            plays.append((seat, card))
            seat = seats[(seats.index(seat) + 1) % 4]
        tricks.append((leader, " ".join(card for _, card in plays)))
        leader = trick_winner(trump, plays)
    return tricks


def number(scored: Mapping[str, object], key: str) -> int:
    """One of the numbers of a score_deal answer."""
    value = scored[key]
    assert isinstance(value, int)
    return value


@pytest.mark.parametrize("seed", range(60))
def test_random_deals_add_up(seed: int) -> None:
    """Whatever the outcome, a classic deal hands out 162 (or the capot value) + the belotes
    (Cardavia), + the accepted announcements (Maison, belote not said); a litige's reserve
    included. The deals are legal by construction: deal_problems finds nothing."""
    trump = ["S", "H", "D", "C", "NT", "AT"][seed % 6]
    taker = "NESW"[seed % 4]
    tricks = random_tricks(seed, MAISON, trump)

    record = deal(tricks, taker, trump)
    assert deal_problems(CARDAVIA, record) == []
    scored = score_deal(CARDAVIA, record)
    base = 252 if scored["capot"] else 162
    hands: dict[str, list[str]] = {seat: [] for seat in "NESW"}
    for leader, cards in tricks:
        seat = leader
        for card in cards.split():
            hands[seat].append(card)
            seat = "NESW"[("NESW".index(seat) + 1) % 4]
    holds_belote = trump in ("S", "H", "D", "C") and any(
        {"K" + trump, "Q" + trump} <= set(hand) for hand in hands.values()
    )
    belote = 20 if holds_belote else 0
    assert number(scored, "NS") + number(scored, "EW") == base + belote

    best = {seat: best_announcements(hand, trump)[0] for seat, hand in hands.items()}
    declared = {seat: [sorted(cards) for cards in sets] for seat, sets in best.items()}
    record = deal(tricks, taker, trump, None, 0, declared)
    assert deal_problems(MAISON, record) == []
    winner = announcement_winner(trump, declared)
    accepted = sum(
        announcement_value(cards, trump)[1]
        for seat, sets in declared.items()
        for cards in sets
        if winner is not None and seat in winner
    )
    scored = score_deal(MAISON, record)
    total = number(scored, "NS") + number(scored, "EW") + number(scored, "reserve")
    assert total == base + accepted


# ---------------------------------------------------------------------------------------------
# The capot, announcements on a capot, the fixed totals under other scales (docs/rules.md 8)
# ---------------------------------------------------------------------------------------------

# Deal D, hearts trump: N holds all eight hearts and leads them; NS take every trick. E holds a
# tierce 7 8 9 of spades (20), the only announcement made: EW win the comparison. N holds the
# belote.
DEAL_D = [
    ("N", "JH 7S TS KS"),
    ("N", "9H 8S QS TD"),
    ("N", "AH 9S AS QD"),
    ("N", "TH JS 8D AD"),
    ("N", "KH 7D 8C 7C"),
    ("N", "QH 9D TC 9C"),
    ("N", "8H JD QC JC"),
    ("N", "7H KD AC KC"),
]
DEAL_D_ANNOUNCEMENTS = {"E": [["7S", "8S", "9S"]]}


def test_fixture_deal_d_is_played_by_the_rules() -> None:
    """Deal D is legal and E's tierce is its best set."""
    record = deal(DEAL_D, "N", "H", None, 0, DEAL_D_ANNOUNCEMENTS, ["N"])
    assert deal_problems(MAISON, record) == []


def test_capot_takes_the_capotted_teams_announcements() -> None:
    """docs/rules.md 8 (FFB): on a capot the capotted team's announcements change hands. Taker N,
    made: NS 252 + E's tierce 20 + belote 20 = 292, EW 0. Taker E, failed: the same."""
    record = deal(DEAL_D, "N", "H", None, 0, DEAL_D_ANNOUNCEMENTS, ["N"])
    assert score_deal(MAISON, record) == result(252 + 20 + 20, 0, True, capot="NS")
    record = deal(DEAL_D, "E", "H", None, 0, DEAL_D_ANNOUNCEMENTS, ["N"])
    assert score_deal(MAISON, record) == result(252 + 20 + 20, 0, False, capot="NS")


@pytest.mark.parametrize(
    ("bid", "coinche", "ns"),
    [
        (80, 0, 250 + 80 + 20 + 20),  # 370: 250 + the bid, bid or not
        (80, 1, (250 + 80) * 2 + 20 + 20),  # 700
        (80, 2, (250 + 80) * 4 + 20 + 20),  # 1360
        ("capot", 2, (250 + 250) * 4 + 20 + 20),  # a capot surcoinched: 2040
    ],
)
def test_coinche_capot(bid: int | str, coinche: int, ns: int) -> None:
    """docs/rules.md 8 (FFB: "250 points si capot réalisé, même non demandé"): a capot made by
    the takers scores 250 + the bid, (250 + bid) x 2 coinched, x 4 surcoinched; E's tierce
    changes hands; N's belote stays with NS."""
    record = deal(DEAL_D, "N", "H", bid, coinche, DEAL_D_ANNOUNCEMENTS, ["N"])
    rules = knobs(EXACT_COINCHE, announcements=True)
    assert score_deal(rules, record) == result(ns, 0, True, capot="NS")


def test_coinche_defenders_capot() -> None:
    """docs/rules.md 8: the defenders' capot is a failed contract: 160 + the bid (x 2 coinched),
    + the announcements; the takers keep their belote (none here)."""
    record = deal(DEAL_D, "E", "H", 80, 1, DEAL_D_ANNOUNCEMENTS, ["N"])
    rules = knobs(EXACT_COINCHE, announcements=True)
    assert score_deal(rules, record) == result((160 + 80) * 2 + 20 + 20, 0, False, capot="NS")


@pytest.mark.parametrize(
    ("trump", "scale", "total"),
    [
        ("NT", {}, 162),
        ("NT", {"no_trump_points": "plain"}, 120 + 10),
        ("AT", {"all_trump_points": "trump"}, 248 + 10),
    ],
)
def test_fixed_totals_follow_the_scale(trump: str, scale: dict[str, str], total: int) -> None:
    """docs/rules.md 8: a failed classic contract gives the defenders the scale's total; the capot
    keeps its bonus over it (rules-decisions.md "Scoring": 252 - 162 + total)."""
    rules = knobs(MAISON, round2_contracts=True, **scale)
    failed = deal(DEAL_A, "E", trump)  # EW take fewer points on every scale
    assert score_deal(rules, failed) == result(total, 0, False)
    capot = deal(DEAL_C, "E", trump) if trump == "NT" else None
    if capot is not None:  # in no-trump N's hearts still take every trick
        assert score_deal(rules, capot) == result(252 - 162 + total, 0, False, capot="NS")


def test_coinche_failed_base_follows_the_scale() -> None:
    """rules-decisions.md "Scoring": failed_base stands for the deal's 162: in a plain
    no-trump (130) a failed 80 gives the defenders 160 - 162 + 130 + 80 = 208."""
    rules = knobs(EXACT_COINCHE, auction_contracts=True, no_trump_points="plain")
    assert score_deal(rules, deal(DEAL_A, "E", "NT", 80)) == result(128 + 80, 0, False)


# ---------------------------------------------------------------------------------------------
# The coinche auction (docs/rules.md 4)
# ---------------------------------------------------------------------------------------------


def test_auction_opening() -> None:
    """docs/rules.md 4: the dealer's next speaks first: pass or any bid; nothing to coinche yet."""
    moves = auction_moves(COINCHE, "W", [])
    assert ("N", "pass") in moves and ("N", "bid", 80, "S") in moves
    assert ("N", "bid", "capot", "C") in moves and ("N", "bid", "generale", "C") not in moves
    assert len(moves) == 1 + 10 * 4
    assert not any(move[1] == "coinche" for move in moves)


def test_auction_a_coinche_freezes_the_contract() -> None:
    """docs/rules.md 4 (FFB: "le fait de coincher fige le contrat"): after E coinches N's 80,
    nobody bids; S and N may surcoinche or pass, W only pass; three passes end it."""
    said = [("N", "bid", 80, "H"), ("E", "coinche")]
    assert auction_moves(COINCHE, "W", said) == {("S", "pass"), ("S", "surcoinche")}
    said.append(("S", "pass"))
    assert auction_moves(COINCHE, "W", said) == {("W", "pass")}
    said.append(("W", "pass"))
    assert auction_moves(COINCHE, "W", said) == {("N", "pass"), ("N", "surcoinche")}
    assert auction_moves(COINCHE, "W", [*said, ("N", "pass")]) == set()
    assert auction_moves(COINCHE, "W", [*said, ("N", "surcoinche")]) == set()


def test_auction_outbid_after_coinche() -> None:
    """docs/rules.md 4, outbid_after_coinche (house tables): after a coinche any player may still
    bid higher, which cancels the coinche: W may coinche S's 90 again."""
    rules = knobs(COINCHE, outbid_after_coinche=True)
    said: list[tuple[object, ...]] = [("N", "bid", 80, "H"), ("E", "coinche")]
    moves = auction_moves(rules, "W", said)
    assert ("S", "bid", 90, "S") in moves and ("S", "bid", 80, "S") not in moves
    assert ("S", "surcoinche") in moves
    said.append(("S", "bid", 90, "S"))
    assert ("W", "coinche") in auction_moves(rules, "W", said)


def test_auction_coinche_any_time_and_the_end() -> None:
    """docs/rules.md 4: with coinche_any_time both opponents may coinche, in turn or not; four
    passes and no bid end the auction."""
    rules = knobs(COINCHE, coinche_any_time=True)
    moves = auction_moves(rules, "W", [("N", "bid", 80, "H")])
    assert {("E", "coinche"), ("W", "coinche")} <= moves
    assert ("S", "coinche") not in moves
    passes: list[tuple[object, ...]] = [(seat, "pass") for seat in "NESW"]
    assert auction_moves(COINCHE, "W", passes) == set()
