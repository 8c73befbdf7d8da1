"""Scoring a deal (docs/rules.md 8, docs/rules-decisions.md "Scoring"), knob by knob.

Most cases call ``scoring.score_deal`` with explicit facts: the card points each team took
(without the last trick), who took the last trick, the belotes, the announcements. Every
expected number is written as its arithmetic. The last part plays complete deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from cardavia.belote import (
    CAPOT,
    GENERALE,
    Bid,
    CardSet,
    Coinche,
    Contract,
    DealState,
    Pass,
    Phase,
    Play,
    Rules,
    Seat,
    Strain,
    Take,
    Team,
    find_rules,
    parse_card,
)
from cardavia.belote.announcements import Announcement, classify
from cardavia.belote.auction import bid_values
from cardavia.belote.scoring import DealScore, round_score, score_deal

CARDAVIA = find_rules("cardavia")
MAISON = find_rules("maison")
COINCHE = find_rules("coinche")
NS, EW = Team.NS, Team.EW


def ann(cards: str, strain: Strain = Strain.HEARTS) -> Announcement:
    """The announcement made of exactly these cards (a sequence or a carré)."""
    return classify(CardSet.parse(cards), strain)


def score(
    rules: Rules,
    *,
    cards: tuple[int, int],
    last: Team,
    taker: Seat = Seat.N,
    strain: Strain = Strain.HEARTS,
    bid: int | None = None,
    coinche: int = 0,
    tricks: tuple[int, int] = (4, 4),
    taker_tricks: int | None = None,
    belote: tuple[int, int] = (0, 0),
    declared: Mapping[Seat, Sequence[Announcement]] | None = None,
) -> DealScore:
    """``score_deal`` with the facts spelt out; ``cards`` without the last trick."""
    assert sum(cards) == 152
    declared = declared or {}
    return score_deal(
        rules,
        Contract(taker, strain, bid, coinche),
        trick_points=cards,
        tricks_won=tricks,
        last_trick=last,
        taker_tricks=tricks[taker.team] // 2 if taker_tricks is None else taker_tricks,
        belote=belote,
        declared=tuple(tuple(declared.get(seat, ())) for seat in Seat),
    )


# ---------------------------------------------------------------------------------------------
# Classic tables (docs/rules.md 8): made, failed, litige
# ---------------------------------------------------------------------------------------------


def test_classic_made() -> None:
    """docs/rules.md 8: made when the takers' total is greater; each team scores its own total."""
    result = score(MAISON, cards=(90, 62), last=NS)
    assert result.made is True
    assert result.card_points == (90 + 10, 62)
    assert result.scores == (100, 62)  # NS 90 + 10 (last trick) > EW 62
    assert result.reserve == 0 and result.capot is None and result.multiplier == 1


def test_classic_made_by_east_west() -> None:
    """docs/rules.md 8: the same for a taker of the other team."""
    result = score(MAISON, cards=(62, 90), last=EW, taker=Seat.W)
    assert (result.made, result.scores) == (True, (62, 100))


def test_classic_failed() -> None:
    """docs/rules.md 8: failed: the takers score 0, the defenders 162."""
    result = score(MAISON, cards=(70, 82), last=EW)  # NS 70 < EW 82 + 10 = 92
    assert result.made is False
    assert result.card_points == (70, 92)
    assert result.scores == (0, 162)


def test_classic_litige() -> None:
    """docs/rules.md 8, tie = litige: the defenders score their total, the takers' total goes in
    reserve for the winner of the next deal."""
    result = score(MAISON, cards=(71, 81), last=NS)  # NS 71 + 10 = 81 = EW 81
    assert result.made is None
    assert result.scores == (0, 81)
    assert result.reserve == 81
    assert [line.code for line in result.lines][-3:] == ["contract_litige", "reserve", "total"]


def test_classic_litige_for_east_west_takers() -> None:
    """docs/rules.md 8: the litige keeps the takers' points, whichever team took."""
    result = score(MAISON, cards=(81, 71), last=EW, taker=Seat.E)  # EW 71 + 10 = 81 = NS 81
    assert (result.made, result.scores, result.reserve) == (None, (81, 0), 81)


@pytest.mark.parametrize(
    ("tie", "made", "scores", "reserve"),
    [
        ("litige", None, (0, 81), 81),
        ("made", True, (81, 81), 0),  # each its total
        ("failed", False, (0, 162), 0),  # the defenders take all
    ],
)
def test_classic_tie_knob(
    tie: str, made: bool | None, scores: tuple[int, int], reserve: int
) -> None:
    """docs/rules.md 8, knob tie: equal totals 81 = 81 are a litige, made or failed."""
    result = score(MAISON.replace(tie=tie), cards=(71, 81), last=NS)
    assert (result.made, result.scores, result.reserve) == (made, scores, reserve)


# ---------------------------------------------------------------------------------------------
# Capot (docs/rules.md 8: 252, knob capot_points 250)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("capot_points", [252, 250])
def test_capot_by_the_takers(capot_points: int) -> None:
    """docs/rules.md 8: all eight tricks: capot_points (the last-trick 10 replaced by 100)."""
    rules = MAISON.replace(capot_points=capot_points)
    result = score(rules, cards=(152, 0), last=NS, tricks=(8, 0))
    assert result.capot == NS
    assert result.card_points == (capot_points, 0)
    assert result.scores == (capot_points, 0)
    assert result.made is True


@pytest.mark.parametrize("capot_points", [252, 250])
def test_capot_by_the_defenders(capot_points: int) -> None:
    """docs/rules.md 8: the defenders take all eight tricks: the contract fails and they score the
    capot value instead of 162."""
    rules = MAISON.replace(capot_points=capot_points)
    result = score(rules, cards=(0, 152), last=EW, tricks=(0, 8))
    assert result.capot == EW
    assert (result.made, result.scores) == (False, (0, capot_points))


def test_capot_with_belote() -> None:
    """docs/rules.md 8: a capot and the takers' belote: 252 + 20."""
    result = score(CARDAVIA, cards=(152, 0), last=NS, tricks=(8, 0), belote=(20, 0))
    assert result.scores == (252 + 20, 0)


def test_seven_tricks_is_no_capot() -> None:
    """docs/rules.md 8: every card point but one trick to the other team: no capot, 152 + 10."""
    result = score(MAISON, cards=(152, 0), last=NS, tricks=(7, 1))
    assert result.capot is None
    assert result.scores == (162, 0)


# ---------------------------------------------------------------------------------------------
# Belote (docs/rules.md 6 and 8)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("knob", "scores"),
    [
        ("kept", (20, 162)),  # the takers keep their 20; the defenders 162
        ("to_defenders", (0, 162 + 20)),  # the defenders get the takers' belote too
    ],
)
def test_belote_on_failure(knob: str, scores: tuple[int, int]) -> None:
    """docs/rules.md 6, knob belote_on_failure: NS take with belote, 60 + 20 = 80 < EW 92 + 10 =
    102: failed."""
    rules = MAISON.replace(belote_on_failure=knob)
    result = score(rules, cards=(60, 92), last=EW, belote=(20, 0))
    assert result.made is False
    assert result.belote == (20, 0)
    assert result.scores == scores


def test_defenders_belote() -> None:
    """docs/rules.md 8: the defenders' belote is theirs: added to their total when the contract is
    made, to their 162 when it fails."""
    made = score(MAISON, cards=(100, 52), last=NS, belote=(0, 20))
    assert made.scores == (100 + 10, 52 + 20)
    failed = score(MAISON, cards=(70, 82), last=EW, belote=(0, 20))  # 70 < 82 + 10 + 20
    assert failed.scores == (0, 162 + 20)


def test_belote_counts_for_contract_on() -> None:
    """docs/rules.md 6, belote_counts_for_contract on: NS 76 + 20 = 96 > EW 76 + 10 = 86: made."""
    result = score(MAISON, cards=(76, 76), last=EW, belote=(20, 0))
    assert (result.made, result.scores) == (True, (96, 86))


def test_belote_counts_for_contract_off() -> None:
    """docs/rules-decisions.md: with the knob off, the belotes are left out of both totals for
    the test: NS 76 < EW 86: failed; NS keep their belote (kept), EW 162."""
    rules = MAISON.replace(belote_counts_for_contract=False)
    result = score(rules, cards=(76, 76), last=EW, belote=(20, 0))
    assert (result.made, result.scores) == (False, (20, 162))


def test_belote_counts_for_contract_off_ignores_the_defenders_belote_too() -> None:
    """docs/rules-decisions.md: NS 80 + 10 = 90 against EW 72 + 20 (belote) = 92: failed when
    the belote counts, made (90 > 72) when it does not; made, each scores its total."""
    on = score(MAISON, cards=(80, 72), last=NS, belote=(0, 20))
    assert (on.made, on.scores) == (False, (0, 162 + 20))
    off = score(
        MAISON.replace(belote_counts_for_contract=False), cards=(80, 72), last=NS, belote=(0, 20)
    )
    assert (off.made, off.scores) == (True, (90, 72 + 20))


# ---------------------------------------------------------------------------------------------
# Announcements (docs/rules.md 7 and 8)
# ---------------------------------------------------------------------------------------------


def test_announcements_accepted_and_refused() -> None:
    """docs/rules.md 7: E's cinquante (50) beats N's tierce (20): EW score 50, NS nothing.
    NS 100 + 10 = 110 > EW 52 + 50 = 102: made, each its total."""
    declared = {Seat.N: [ann("7S 8S 9S")], Seat.E: [ann("7D 8D 9D TD")]}
    result = score(MAISON, cards=(100, 52), last=NS, declared=declared)
    assert result.announcement_winner == EW
    assert result.announcements == (0, 50)
    assert (result.made, result.scores) == (True, (110, 102))


def test_announcements_can_make_the_contract_fail() -> None:
    """docs/rules.md 8: NS 90 + 10 = 100 < EW 62 + 50 = 112: failed; the defenders score
    162 + 50."""
    declared = {Seat.N: [ann("7S 8S 9S")], Seat.E: [ann("7D 8D 9D TD")]}
    result = score(MAISON, cards=(90, 62), last=NS, declared=declared)
    assert (result.made, result.scores) == (False, (0, 162 + 50))


def test_failed_takers_announcements_go_to_the_defenders() -> None:
    """docs/rules.md 8: on failure the defenders score 162 + every accepted announcement, those the
    takers won included; the winning team scores its partner's weaker one too (docs/rules.md 7).
    NS: N 50 + S 20 = 70 (E's 20 refused); NS 40 + 70 = 110 < EW 112 + 10 = 122."""
    declared = {
        Seat.N: [ann("7S 8S 9S TS")],
        Seat.S: [ann("7D 8D 9D")],
        Seat.E: [ann("7C 8C 9C")],
    }
    result = score(MAISON, cards=(40, 112), last=EW, declared=declared)
    assert result.announcements == (50 + 20, 0)
    assert (result.made, result.scores) == (False, (0, 162 + 70))


@pytest.mark.parametrize(
    ("north", "east", "winner"),
    [
        ("7S 8S 9S", "7D 8D 9D", None),  # 7.5: a complete tie, nobody scores
        ("7H 8H 9H", "7D 8D 9D", NS),  # 7.3: equal, the one in trump (hearts)
        ("7H 8H 9H", "QD KD AD", EW),  # 7.3: the higher end card before trump
        ("7S 8S 9S TS JS", "7D 8D 9D TD JD QD", EW),  # 7.3: two cents: the longer
        ("7S 8S 9S TS JS", "KS KH KD KC", EW),  # 7.2: carré beats a sequence of 100
        ("QS QH QD QC", "TS TH TD TC", NS),  # 7.4: two carrés of 100: the higher rank
        ("9S 9H 9D 9C", "AS AH AD AC", NS),  # 7.1: nines 150 beat aces 100
        ("JS JH JD JC", "9S 9H 9D 9C", NS),  # 7.1: jacks 200 beat nines 150
        ("7S 8S 9S TS", "", NS),  # a team that alone announced wins
    ],
)
def test_announcement_comparison(north: str, east: str, winner: Team | None) -> None:
    """docs/rules.md 7: the comparison of the two teams' best announcements."""
    declared = {Seat.N: [ann(north)]} | ({Seat.E: [ann(east)]} if east else {})
    result = score(MAISON, cards=(100, 52), last=NS, declared=declared)
    assert result.announcement_winner == winner
    expected = (
        (0, 0)
        if winner is None
        else ((ann(north).points, 0) if winner == NS else (0, ann(east).points))
    )
    assert result.announcements == expected


def test_announcements_ignored_by_rules_without_them() -> None:
    """docs/rules.md 8, the Cardavia table: no announcements, whatever is passed."""
    declared = {Seat.E: [ann("7D 8D 9D TD")]}
    result = score(CARDAVIA, cards=(90, 62), last=NS, declared=declared)
    assert result.announcement_winner is None
    assert result.scores == (100, 62)


# ---------------------------------------------------------------------------------------------
# The Cardavia single-deal table (docs/rules.md 8, seed 004)
# ---------------------------------------------------------------------------------------------


def test_cardavia_made() -> None:
    """docs/rules.md 8: NS 100 + 10 = 110 > EW 52: each team its total."""
    assert score(CARDAVIA, cards=(100, 52), last=NS).scores == (110, 52)


def test_cardavia_made_at_equality() -> None:
    """docs/rules.md 8: made when the takers' card points plus belote are at least the opponents'
    total: 71 + 20 = 91 against 81 + 10 = 91 is made."""
    result = score(CARDAVIA, cards=(71, 81), last=EW, belote=(20, 0))
    assert (result.made, result.scores) == (True, (91, 91))


def test_cardavia_failed_belote_to_the_defenders() -> None:
    """docs/rules.md 8: failed (60 + 20 = 80 < 92 + 10 = 102): the takers score 0, the defenders
    all card points and both teams' belote: 162 + 20."""
    result = score(CARDAVIA, cards=(60, 92), last=EW, belote=(20, 0))
    assert (result.made, result.scores) == (False, (0, 162 + 20))


def test_cardavia_failed_with_the_defenders_belote() -> None:
    """docs/rules.md 8: failed (70 < 82 + 10 + 20 = 112): the defenders 162 + their belote 20."""
    result = score(CARDAVIA, cards=(70, 82), last=EW, belote=(0, 20))
    assert (result.made, result.scores) == (False, (0, 162 + 20))


# ---------------------------------------------------------------------------------------------
# Coinche tables (docs/rules.md 8, docs/rules-decisions.md "Auction")
# ---------------------------------------------------------------------------------------------


def test_coinche_made() -> None:
    """docs/rules.md 8: 80 ♥ bid, 83 + 10 = 93 ≥ 80: the takers score 93 + 80 = 173, the
    defenders 69; rounded to the nearest ten: 170 and 70."""
    result = score(COINCHE, cards=(83, 69), last=NS, bid=80)
    assert result.made is True
    assert result.exact == (93 + 80, 69)
    assert result.scores == (170, 70)


def test_coinche_failed() -> None:
    """docs/rules.md 8: 100 bid, 93 < 100: the takers 0, the defenders 160 + 100 = 260."""
    result = score(COINCHE, cards=(83, 69), last=NS, bid=100)
    assert (result.made, result.scores) == (False, (0, 160 + 100))


@pytest.mark.parametrize(
    ("beat", "made", "scores"),
    [
        # 80 ≥ 80 but 80 < EW 82: failed; EW 160 + 80 = 240.
        (True, False, (0, 240)),
        # Reaching the bid is enough: 80 + 80 = 160; EW 82 → 80.
        (False, True, (160, 80)),
    ],
)
def test_coinche_made_exactly_the_bid(beat: bool, made: bool, scores: tuple[int, int]) -> None:
    """docs/rules.md 8: the takers' points "reach" the bid, 70 + 10 = 80 for 80; with
    contract_must_beat_defence (FFB contrée 10.1.1) they must also beat EW's 82."""
    rules = COINCHE.replace(contract_must_beat_defence=beat)
    result = score(rules, cards=(70, 82), last=NS, bid=80)
    assert (result.made, result.scores) == (made, scores)


@pytest.mark.parametrize(
    ("beat", "made", "scores"),
    [
        # 81 ≥ 80 but not greater than 81: failed; EW 160 + 80 = 240.
        (True, False, (0, 160 + 80)),
        # House practice: 81 ≥ 80 is made: 81 + 80 = 161 → 160; EW 81 → 80.
        (False, True, (160, 80)),
    ],
)
def test_coinche_80_making_81_against_81(beat: bool, made: bool, scores: tuple[int, int]) -> None:
    """docs/rules.md 8, knob contract_must_beat_defence (FFB contrée 10.1.1: the takers' total
    must be "supérieur à celui de la défense"): a contract of 80 that makes 71 + 10 = 81
    against 81."""
    rules = COINCHE.replace(contract_must_beat_defence=beat)
    result = score(rules, cards=(71, 81), last=NS, bid=80)
    assert (result.made, result.scores) == (made, scores)


@pytest.mark.parametrize(
    ("counts", "made", "scores"),
    [
        # Counted: NS 76 + 10 = 86 ≥ 80 but < EW 76 + 20 = 96: failed; EW 160 + 80 + 20.
        (True, False, (0, 160 + 80 + 20)),
        # Not counted on either side: 86 > 76: made: 86 + 80 = 166 → 170; EW 96 → 100.
        (False, True, (170, 100)),
    ],
)
def test_coinche_defence_counted_the_same_way(
    counts: bool, made: bool, scores: tuple[int, int]
) -> None:
    """docs/rules.md 8: the defenders' points are counted as the takers' are, their belote
    included when belote_counts_for_contract."""
    rules = COINCHE.replace(belote_counts_for_contract=counts)
    result = score(rules, cards=(76, 76), last=NS, bid=80, belote=(0, 20))
    assert (result.made, result.scores) == (made, scores)


@pytest.mark.parametrize(
    ("bid", "coinche", "made", "scores"),
    [
        (80, 1, True, ((160 + 80) * 2, 0)),  # coinched, made: 480
        (100, 1, False, (0, (160 + 100) * 2)),  # coinched, failed: 520
        (80, 2, True, ((160 + 80) * 4, 0)),  # surcoinched, made: 960
        (100, 2, False, (0, (160 + 100) * 4)),  # surcoinched, failed: 1040
    ],
)
def test_coinche_and_surcoinche(
    bid: int, coinche: int, made: bool, scores: tuple[int, int]
) -> None:
    """docs/rules.md 8: coinched, the winning side scores (160 + bid) × 2; surcoinched × 4; the
    other side nothing. Takers' points 83 + 10 = 93."""
    result = score(COINCHE, cards=(83, 69), last=NS, bid=bid, coinche=coinche)
    assert (result.made, result.scores) == (made, scores)
    assert result.multiplier == 2**coinche
    assert "multiplier" in [line.code for line in result.lines]


def test_coinched_belote_stays_with_its_holders() -> None:
    """docs/rules.md 8: coinched, each side keeps its belote (kept)."""
    # Made: NS (160 + 80) × 2 = 480; EW keep their belote 20.
    made = score(COINCHE, cards=(93, 59), last=NS, bid=80, coinche=1, belote=(0, 20))
    assert made.scores == (480, 20)
    # Failed (50 + 20 = 70 < 80): NS keep 20; EW (160 + 80) × 2 = 480.
    failed = score(COINCHE, cards=(50, 102), last=EW, bid=80, coinche=1, belote=(20, 0))
    assert (failed.made, failed.scores) == (False, (20, 480))
    # to_defenders: the takers' belote goes over on failure: 480 + 20 = 500.
    rules = COINCHE.replace(belote_on_failure="to_defenders")
    failed = score(rules, cards=(50, 102), last=EW, bid=80, coinche=1, belote=(20, 0))
    assert failed.scores == (0, 500)


def test_coinche_belote_when_not_coinched() -> None:
    """docs/rules-decisions.md: made: the takers score points + bid, their belote included;
    the defenders their points and belote. Failed: the takers their belote (kept) or 0
    (to_defenders)."""
    # Made 80: NS 83 + 10 + 80 = 173 → 170; EW 69 + 20 = 89 → 90.
    made = score(COINCHE, cards=(83, 69), last=NS, bid=80, belote=(0, 20))
    assert (made.exact, made.scores) == ((173, 89), (170, 90))
    # Failed 110: NS 70 + 10 + 20 = 100 < 110; kept: NS 20, EW 160 + 110 = 270.
    failed = score(COINCHE, cards=(70, 82), last=NS, bid=110, belote=(20, 0))
    assert (failed.made, failed.scores) == (False, (20, 270))
    rules = COINCHE.replace(belote_on_failure="to_defenders")
    failed = score(rules, cards=(70, 82), last=NS, bid=110, belote=(20, 0))
    assert failed.scores == (0, 270 + 20)


@pytest.mark.parametrize(
    ("counts", "made", "scores"),
    [
        # 65 + 10 + 20 = 95 ≥ 90: 95 + 90 = 185 → 190; EW 87 → 90.
        (True, True, (190, 90)),
        # 75 < 90: failed; NS keep 20, EW 160 + 90 = 250.
        (False, False, (20, 250)),
    ],
)
def test_coinche_belote_counts_for_contract(
    counts: bool, made: bool, scores: tuple[int, int]
) -> None:
    """docs/rules.md 8: the belote counts toward the bid when belote_counts_for_contract."""
    rules = COINCHE.replace(belote_counts_for_contract=counts)
    result = score(rules, cards=(65, 87), last=NS, bid=90, belote=(20, 0))
    assert (result.made, result.scores) == (made, scores)


def test_coinche_capot_bid() -> None:
    """docs/rules-decisions.md: capot is a bid worth 250 that needs all eight tricks."""
    # Made: 250 + 250 = 500 (capot_points 250 in the coinche preset).
    made = score(COINCHE, cards=(152, 0), last=NS, bid=CAPOT, tricks=(8, 0))
    assert (made.made, made.exact, made.scores) == (True, (500, 0), (500, 0))
    # Seven tricks and every point: failed; the defenders 160 + 250 = 410.
    failed = score(COINCHE, cards=(152, 0), last=NS, bid=CAPOT, tricks=(7, 1))
    assert (failed.made, failed.scores) == (False, (0, 410))


def test_coinche_capot_on_an_ordinary_bid() -> None:
    """docs/rules.md 8 (FFB: "250 points si capot réalisé, même non demandé"): a capot on an 80
    bid: 250 + 80 = 330; with capot_points 252, 252 + 80 = 332 → 330."""
    result = score(COINCHE, cards=(152, 0), last=NS, bid=80, tricks=(8, 0))
    assert (result.exact, result.scores) == ((330, 0), (330, 0))
    rules = COINCHE.replace(capot_points=252)
    result = score(rules, cards=(152, 0), last=NS, bid=80, tricks=(8, 0))
    assert (result.exact, result.scores) == ((332, 0), (330, 0))


@pytest.mark.parametrize(
    ("bid", "coinche", "scores"),
    [
        (80, 1, ((250 + 80) * 2, 0)),  # 660
        (80, 2, ((250 + 80) * 4, 0)),  # 1320
        (CAPOT, 1, ((250 + 250) * 2, 0)),  # 1000
        (CAPOT, 2, ((250 + 250) * 4, 0)),  # a capot surcoinched: 2000
    ],
)
def test_coinched_capot(bid: int, coinche: int, scores: tuple[int, int]) -> None:
    """docs/rules.md 8: coinched, a capot made by the takers scores (250 + bid) × 2 (not
    (160 + bid) × 2); surcoinched × 4; bid or not."""
    result = score(COINCHE, cards=(152, 0), last=NS, bid=bid, coinche=coinche, tricks=(8, 0))
    assert (result.made, result.capot, result.scores) == (True, NS, scores)


def test_coinche_capot_by_the_defenders() -> None:
    """docs/rules.md 8: the defenders' capot is a failed contract: 160 + the bid, × 2 coinched."""
    result = score(COINCHE, cards=(0, 152), last=EW, bid=80, tricks=(0, 8))
    assert (result.made, result.scores) == (False, (0, 160 + 80))
    result = score(COINCHE, cards=(0, 152), last=EW, bid=80, coinche=1, tricks=(0, 8))
    assert (result.made, result.scores) == (False, (0, (160 + 80) * 2))


def test_coinche_generale_bid() -> None:
    """docs/rules-decisions.md, top_bids generale: générale is worth 500 and needs all eight
    tricks for the taker alone."""
    rules = COINCHE.replace(top_bids="generale")
    assert bid_values(rules) == (
        80,
        90,
        100,
        110,
        120,
        130,
        140,
        150,
        160,
        170,
        180,
        CAPOT,
        GENERALE,
    )
    assert bid_values(COINCHE) == (80, 90, 100, 110, 120, 130, 140, 150, 160, CAPOT)
    # N takes all eight tricks: 250 + 500 = 750.
    made = score(rules, cards=(152, 0), last=NS, bid=GENERALE, tricks=(8, 0), taker_tricks=8)
    assert (made.made, made.exact, made.scores) == (True, (750, 0), (750, 0))
    # The partner took one: a capot for the team, but the générale fails: 160 + 500 = 660.
    failed = score(rules, cards=(152, 0), last=NS, bid=GENERALE, tricks=(8, 0), taker_tricks=7)
    assert (failed.made, failed.scores) == (False, (0, 660))


@pytest.mark.parametrize(
    ("base", "rounding", "coinche", "scores"),
    [
        (160, "exact", 0, (0, 160 + 100)),  # 260
        (162, "exact", 0, (0, 162 + 100)),  # 262
        (162, "nearest_ten", 0, (0, 260)),  # 262 → 260
        (160, "exact", 1, (0, (160 + 100) * 2)),  # 520
        (162, "exact", 1, (0, (162 + 100) * 2)),  # 524
        (162, "nearest_ten", 1, (0, 520)),  # 524 → 520
    ],
)
def test_failed_base(base: int, rounding: str, coinche: int, scores: tuple[int, int]) -> None:
    """docs/rules.md 8, knob failed_base: a failed 100 bid (93 < 100) gives the defenders
    failed_base + 100, times the coinche multiplier."""
    rules = COINCHE.replace(failed_base=base, rounding=rounding)
    result = score(rules, cards=(83, 69), last=NS, bid=100, coinche=coinche)
    assert result.scores == scores


@pytest.mark.parametrize(
    ("rounding", "scores"),
    [
        ("exact", (75 + 10 + 80, 77)),  # 165, 77
        ("nearest_ten", (170, 80)),  # 165 → 170 (5 upward), 77 → 80
    ],
)
def test_rounding(rounding: str, scores: tuple[int, int]) -> None:
    """docs/rules.md 8, knob rounding: to the nearest ten, 5 upward, or exact."""
    result = score(COINCHE.replace(rounding=rounding), cards=(75, 77), last=NS, bid=80)
    assert result.exact == (165, 77)
    assert result.scores == scores
    assert ("rounding" in [line.code for line in result.lines]) == (rounding == "nearest_ten")


def test_round_score() -> None:
    """docs/rules.md 8: nearest ten, 5 upward."""
    assert [round_score(n, "nearest_ten") for n in (0, 4, 5, 14, 15, 165, 174)] == [
        0, 0, 10, 10, 20, 170, 170,
    ]  # fmt: skip
    assert round_score(173, "exact") == 173


def test_rounding_never_decides_the_contract() -> None:
    """docs/rules.md 8: 69 + 10 = 79 for an 80 bid is failed although 79 rounds to 80."""
    result = score(COINCHE, cards=(69, 83), last=NS, bid=80)
    assert result.made is False
    assert result.scores == (0, 160 + 80)


def test_coinche_announcements_count_toward_the_bid() -> None:
    """docs/rules-decisions.md: takers' points = cards + belote + accepted announcements."""
    rules = COINCHE.replace(announcements=True)
    declared = {Seat.N: [ann("7S 8S 9S")]}
    # 65 + 10 + 20 = 95 ≥ 90: 95 + 90 = 185 → 190; EW 87 → 90.
    made = score(rules, cards=(65, 87), last=NS, bid=90, declared=declared)
    assert (made.made, made.scores) == (True, (190, 90))
    # 95 < 100: the defenders 160 + 100 + 20 (the takers' tierce) = 280.
    failed = score(rules, cards=(65, 87), last=NS, bid=100, declared=declared)
    assert (failed.made, failed.scores) == (False, (0, 280))
    # Coinched and made: (160 + 90) × 2 + 20 = 520.
    coinched = score(rules, cards=(65, 87), last=NS, bid=90, coinche=1, declared=declared)
    assert coinched.scores == (520, 0)


def test_breakdown_lines_add_up() -> None:
    """The breakdown: one line per fact, the last the deal's score."""
    result = score(MAISON, cards=(90, 62), last=NS, belote=(20, 0))
    codes = [line.code for line in result.lines]
    assert codes == ["cards", "last_trick", "belote", "contract_made", "total"]
    assert (result.lines[-1].ns, result.lines[-1].ew) == result.scores == (120, 62)
    assert "deal score" in str(result)


# ---------------------------------------------------------------------------------------------
# Complete deals (docs/rules.md 3-8 end to end)
# ---------------------------------------------------------------------------------------------

# A deal whose tricks split the points 81 / 81. North leads (the dealer is West); the tricks
# in play order, with their winner and points:
#   N: JH 7H 8H AH → N 31 | N: AS 7S 8S TS → N 21 | N: 7D 8D AD 9D → S 11
#   S: 8C AC 7C TC → W 21 | W: 9C KC QC JC → N 9  | N: KD TD JD QD → E 19
#   E: 9S KS QS JS → S 9  | S: KH 9H QH TH → W 31 + 10 (last trick)
# NS 31 + 21 + 11 + 9 + 9 = 81; EW 21 + 19 + 31 + 10 = 81.
TIE_HANDS = {
    Seat.N: "JH AS 7D 7C KC KD JS QH",
    Seat.E: "7H 7S 8D TC QC TD 9S TH",
    Seat.S: "8H 8S AD 8C JC JD KS KH",
    Seat.W: "AH TS 9D AC 9C QD QS 9H",
}
TIE_TRICKS = [
    "JH 7H 8H AH", "AS 7S 8S TS", "7D 8D AD 9D", "8C AC 7C TC",
    "9C KC QC JC", "KD TD JD QD", "9S KS QS JS", "KH 9H QH TH",
]  # fmt: skip

# A deal of 61 / 101, North leading:
#   N: JH 7H 8H AH → N 31 | N: AS 7S 8S TS → N 21 | N: 7D AD 8D 9D → E 11
#   E: AC 7C TC 8C → E 21 | E: KC QC JC 9C → E 9  | E: TD JD QD KD → E 19
#   E: 9S JS QS KS → N 9  | N: KH 9H QH TH → E 31 + 10
# NS 31 + 21 + 9 = 61; EW 11 + 21 + 9 + 19 + 31 + 10 = 101.
SPLIT_HANDS = {
    Seat.N: "JH AS 7D 8C 9C KD KS KH",
    Seat.E: "7H 7S AD AC KC TD 9S 9H",
    Seat.S: "8H 8S 8D 7C QC JD JS QH",
    Seat.W: "AH TS 9D TC JC QD QS TH",
}
SPLIT_TRICKS = [
    "JH 7H 8H AH", "AS 7S 8S TS", "7D AD 8D 9D", "AC 7C TC 8C",
    "KC QC JC 9C", "TD JD QD KD", "9S JS QS KS", "KH 9H QH TH",
]  # fmt: skip

# One suit each: whoever leads wins every trick but the first, which the trump holder takes.
ONE_SUIT_HANDS = {
    Seat.N: "7S 8S 9S TS JS QS KS AS",
    Seat.E: "7H 8H 9H TH JH QH KH AH",
    Seat.S: "7D 8D 9D TD JD QD KD AD",
    Seat.W: "7C 8C 9C TC JC QC KC AC",
}


def classic_deck(
    hands: Mapping[Seat, str], *, dealer: Seat, taker: Seat, turned: str, first: str = "3-2"
) -> list[int]:
    """The deck that deals ``hands`` at a classic table (docs/rules.md 3): the first packets from
    the dealer's next, the turned card, then the taker 2 and the others 3."""
    cards = {s: [parse_card(c) for c in hands[s].split() if c != turned] for s in Seat}
    assert parse_card(turned) not in cards[taker] and len(cards[taker]) == 7
    order = [Seat((dealer + i) & 3) for i in range(1, 5)]
    deck: list[int] = []
    for size in (int(n) for n in first.split("-")):
        for seat in order:
            deck += cards[seat][:size]
            cards[seat] = cards[seat][size:]
    deck.append(parse_card(turned))
    for seat in order:
        deck += cards[seat]
    return deck


def auction_deck(hands: Mapping[Seat, str], *, dealer: Seat, packets: str = "3-2-3") -> list[int]:
    """The deck that deals ``hands`` at a coinche table (docs/rules.md 3)."""
    cards = {s: [parse_card(c) for c in hands[s].split()] for s in Seat}
    deck: list[int] = []
    for size in (int(n) for n in packets.split("-")):
        for seat in (Seat((dealer + i) & 3) for i in range(1, 5)):
            deck += cards[seat][:size]
            cards[seat] = cards[seat][size:]
    return deck


def play_out(state: DealState, tricks: Sequence[str], belote: str | None = None) -> DealState:
    """Play the tricks' cards in order, each by the seat to move (``belote``: the card with
    which "belote" is said)."""
    for trick in tricks:
        for code in trick.split():
            assert state.to_move is not None
            state = state.apply(Play(state.to_move, parse_card(code), belote=code == belote))
    return state


def take_first_round(rules: Rules, hands: Mapping[Seat, str], turned: str) -> DealState:
    """West deals; North takes the turned card's suit at once."""
    deck = classic_deck(hands, dealer=Seat.W, taker=Seat.N, turned=turned)
    state = DealState.from_deck(rules, dealer=Seat.W, deck=deck)
    state = state.apply(Take(Seat.N, Strain.HEARTS))
    assert [state.hand(s) for s in Seat] == [CardSet.parse(hands[s]) for s in Seat]
    return state


@pytest.mark.parametrize(
    ("rules", "made", "scores", "reserve"),
    [
        (MAISON, None, (0, 81), 81),  # litige: EW 81, NS 81 in reserve
        (CARDAVIA, True, (81, 81), 0),  # tie = made
        (MAISON.replace(tie="failed"), False, (0, 162), 0),
    ],
)
def test_complete_deal_tie(
    rules: Rules, made: bool | None, scores: tuple[int, int], reserve: int
) -> None:
    """docs/rules.md 8: a dealt deck, North takes ♥ and the tricks split 81 / 81."""
    state = play_out(take_first_round(rules, TIE_HANDS, "JH"), TIE_TRICKS)
    assert state.phase == Phase.OVER
    assert [t.winner for t in state.tricks] == [
        Seat.N,
        Seat.N,
        Seat.S,
        Seat.W,
        Seat.N,
        Seat.E,
        Seat.S,
        Seat.W,
    ]
    assert [t.points for t in state.tricks] == [31, 21, 11, 21, 9, 19, 9, 31]
    assert state.result is not None
    assert state.result.card_points == (81, 81)
    assert (state.result.made, state.result.scores, state.result.reserve) == (
        made,
        scores,
        reserve,
    )


@pytest.mark.parametrize(
    ("taker", "made", "scores"),
    [
        (Seat.N, False, (0, 162)),  # 61 < 101
        (Seat.E, True, (61, 101)),
    ],
)
def test_complete_deal_split(taker: Seat, made: bool, scores: tuple[int, int]) -> None:
    """docs/rules.md 8: the same deal played from a position, North or East the taker."""
    hands = [CardSet.parse(SPLIT_HANDS[s]) for s in Seat]
    state = DealState.from_position(
        MAISON, contract=Contract(taker, Strain.HEARTS), hands=hands, leader=Seat.N
    )
    state = play_out(state, SPLIT_TRICKS)
    assert state.result is not None
    assert state.result.card_points == (61, 101)
    assert (state.result.made, state.result.scores) == (made, scores)


def test_complete_deal_capot_with_belote() -> None:
    """docs/rules.md 6 and 8: North holds all eight trumps and takes every trick: capot 252, plus
    the automatic belote at the Cardavia table: 272; in Maison (declared) only when North says
    "belote"."""
    hands = {
        Seat.N: ONE_SUIT_HANDS[Seat.E],  # all the hearts
        Seat.E: ONE_SUIT_HANDS[Seat.N],
        Seat.S: ONE_SUIT_HANDS[Seat.S],
        Seat.W: ONE_SUIT_HANDS[Seat.W],
    }
    tricks = [f"{r}H {r}S {r}D {r}C" for r in "789TJQKA"]
    for rules, belote, expected in (
        (CARDAVIA, None, 252 + 20),
        (MAISON, None, 252),
        (MAISON, "QH", 252 + 20),
    ):
        state = play_out(take_first_round(rules, hands, "JH"), tricks, belote=belote)
        assert state.result is not None
        assert state.result.capot == NS
        assert state.result.scores == (expected, 0)


def test_complete_deal_announcements() -> None:
    """docs/rules.md 7-8: each seat holds one suit, hearts trump: four "cents" of 100 ending on the
    ace; East's is in trump and wins the comparison, so E and W score 100 each. East trumps
    the first trick and takes every trick: a capot for EW. North took: failed, EW score
    252 + 100 + 100 (+ 20 when East says belote)."""
    hands = [CardSet.parse(ONE_SUIT_HANDS[s]) for s in Seat]
    state = DealState.from_position(
        MAISON, contract=Contract(Seat.N, Strain.HEARTS), hands=hands, leader=Seat.N
    )
    for seat, card in ((Seat.N, "7S"), (Seat.E, "7H"), (Seat.S, "7D"), (Seat.W, "7C")):
        state = state.apply(Play(seat, parse_card(card), announce=True))
    assert state.announcement_winner == EW
    for r in "89TJQKA":
        state = play_out(state, [f"{r}H {r}D {r}C {r}S"], belote="QH")
    assert state.result is not None
    assert state.result.announcements == (0, 200)
    assert state.result.capot == EW
    assert state.result.belote == (0, 20)
    assert (state.result.made, state.result.scores) == (False, (0, 252 + 100 + 100 + 20))


def test_complete_deal_announcements_complete_tie_in_no_trump() -> None:
    """docs/rules.md 7.5: in no-trump the four cents are equal: nobody's announcement counts.
    North leads spades and takes every trick: 252."""
    hands = [CardSet.parse(ONE_SUIT_HANDS[s]) for s in Seat]
    state = DealState.from_position(
        MAISON, contract=Contract(Seat.N, Strain.NO_TRUMP), hands=hands, leader=Seat.N
    )
    state = state.apply(Play(Seat.N, parse_card("7S"), announce=True))
    state = state.apply(Play(Seat.E, parse_card("7H"), announce=True))
    state = play_out(state, ["7D 7C"] + [f"{r}S {r}H {r}D {r}C" for r in "89TJQKA"])
    assert state.result is not None
    assert state.result.announcement_winner is None
    assert state.result.scores == (252, 0)


@pytest.mark.parametrize(
    ("bids", "made", "scores"),
    [
        # 81 reaches 80 but does not beat 81 (FFB contrée 10.1.1): EW 160 + 80 = 240.
        (["N bid 80 H", "E pass", "S pass", "W pass"], False, (0, 240)),
        # 81 < 90: EW 160 + 90 = 250.
        (["N bid 90 H", "E pass", "S pass", "W pass"], False, (0, 250)),
        # Coinched and failed: (160 + 80) × 2 = 480 to EW.
        (["N bid 80 H", "E coinche", "S pass", "W pass", "N pass"], False, (0, 480)),
        # Surcoinched and failed: (160 + 90) × 4 = 1000.
        (["N bid 90 H", "E coinche", "S surcoinche"], False, (0, 1000)),
    ],
)
def test_complete_coinche_deal(bids: list[str], made: bool, scores: tuple[int, int]) -> None:
    """docs/rules.md 4 and 8: a dealt coinche deck (3-2-3), an auction, the 81 / 81 tricks."""
    from cardavia.belote import parse_action

    deck = auction_deck(TIE_HANDS, dealer=Seat.W)
    state = DealState.from_deck(COINCHE, dealer=Seat.W, deck=deck)
    assert [state.hand(s) for s in Seat] == [CardSet.parse(TIE_HANDS[s]) for s in Seat]
    state = state.replay([parse_action(text) for text in bids])
    assert state.phase == Phase.PLAYING
    state = play_out(state, TIE_TRICKS)
    assert state.result is not None
    assert (state.result.made, state.result.scores) == (made, scores)
    assert isinstance(state.history[0], Bid)
    assert any(isinstance(a, (Pass, Coinche)) for a in state.history)


@pytest.mark.parametrize(
    ("strain", "knobs", "card_points", "made"),
    [
        # T1 N AS E KS S AD W 7S → N; T2 N 7H E AH S TH W 8H → E (+10).
        (Strain.NO_TRUMP, {}, (19 + 4 + 19, 19 + 10 + 10), True),  # 42 > 39
        (Strain.NO_TRUMP, {"no_trump_points": "plain"}, (11 + 4 + 11, 11 + 10 + 10), False),
    ],
)
def test_no_trump_scales_in_a_deal(
    strain: Strain, knobs: dict[str, str], card_points: tuple[int, int], made: bool
) -> None:
    """docs/rules.md 1, no_trump_points: a two-trick ending counted on each scale."""
    hands = [CardSet.parse(h) for h in ("AS 7H", "KS AH", "AD TH", "7S 8H")]
    state = DealState.from_position(
        CARDAVIA.replace(**knobs), contract=Contract(Seat.N, strain), hands=hands, leader=Seat.N
    )
    state = play_out(state, ["AS KS AD 7S", "7H AH TH 8H"])
    assert state.result is not None
    assert state.result.card_points == card_points
    assert state.result.made is made


@pytest.mark.parametrize(
    ("knobs", "card_points"),
    [
        # T1 N JS E 9S S KD W 7S → N; T2 N 7H E AH S TH W 8H → E (+10).
        ({}, (14 + 9 + 3, 6 + 5 + 10)),  # scaled: 26, 21
        ({"all_trump_points": "trump"}, (20 + 14 + 4, 11 + 10 + 10)),  # trump: 38, 31
    ],
)
def test_all_trump_scales_in_a_deal(knobs: dict[str, str], card_points: tuple[int, int]) -> None:
    """docs/rules.md 1, all_trump_points: a two-trick ending counted on each scale."""
    hands = [CardSet.parse(h) for h in ("JS 7H", "9S AH", "KD TH", "7S 8H")]
    state = DealState.from_position(
        CARDAVIA.replace(**knobs),
        contract=Contract(Seat.N, Strain.ALL_TRUMP),
        hands=hands,
        leader=Seat.N,
    )
    state = play_out(state, ["JS 9S KD 7S", "7H AH TH 8H"])
    assert state.result is not None
    assert state.result.card_points == card_points
    assert state.result.made is True


# ---------------------------------------------------------------------------------------------
# Announcements on a capot, the belote in a litige, the fixed totals under other scales
# ---------------------------------------------------------------------------------------------


def test_classic_capot_takes_the_capotted_teams_announcements() -> None:
    """docs/rules.md 8 (FFB): on a capot the capotted team's announcements change hands. EW win
    the comparison with a cinquante (50 > N's tierce 20) but NS take all eight tricks: NS
    score 252 + 50, EW nothing."""
    declared = {Seat.N: [ann("7S 8S 9S")], Seat.E: [ann("7D 8D 9D TD")]}
    result = score(MAISON, cards=(152, 0), last=NS, tricks=(8, 0), declared=declared)
    assert result.announcements == (0, 50)  # as the comparison accepted them
    assert (result.made, result.scores) == (True, (252 + 50, 0))
    assert "capot_announcements" in [line.code for line in result.lines]


def test_coinche_capot_takes_the_capotted_teams_announcements() -> None:
    """docs/rules.md 8: the same at a coinche table with announcements: a capot on an 80 bid,
    EW's cinquante goes to NS: 250 + 50 + 80 = 380."""
    rules = COINCHE.replace(announcements=True)
    declared = {Seat.E: [ann("7D 8D 9D TD")]}
    result = score(rules, cards=(152, 0), last=NS, bid=80, tricks=(8, 0), declared=declared)
    assert (result.made, result.scores) == (True, (250 + 50 + 80, 0))


def test_announcements_stay_without_a_capot() -> None:
    """docs/rules.md 7: no capot, the comparison's winner keeps its announcements: NS 110 > EW
    52 + 50 = 102."""
    declared = {Seat.E: [ann("7D 8D 9D TD")]}
    result = score(MAISON, cards=(100, 52), last=NS, tricks=(7, 1), declared=declared)
    assert result.scores == (110, 102)


def test_litige_keeps_the_belote_out_of_the_reserve() -> None:
    """docs/rules.md 8 (FFB: the belote is "imprenable"): NS 61 + 10 + 20 (belote) = 91 against
    EW 91: a litige; EW score 91, NS keep their 20 and 71 go in reserve."""
    result = score(MAISON, cards=(61, 91), last=NS, belote=(20, 0))
    assert (result.made, result.scores, result.reserve) == (None, (20, 91), 71)


def score_in(
    rules: Rules, strain: Strain, *, cards: tuple[int, int], tricks: tuple[int, int], bid: int
) -> DealScore:
    """A deal in ``strain`` under ``rules``, North the taker, the last trick to EW (or to the
    capot team)."""
    last = NS if tricks == (8, 0) else EW
    return score_deal(
        rules,
        Contract(Seat.N, strain, bid if rules.bidding == "auction" else None),
        trick_points=cards,
        tricks_won=tricks,
        last_trick=last,
        taker_tricks=tricks[0] // 2,
        belote=(0, 0),
        declared=((), (), (), ()),
    )


@pytest.mark.parametrize(
    ("knobs", "strain", "cards", "failed", "capot"),
    [
        ({}, Strain.NO_TRUMP, 152, 162, 252),
        ({"no_trump_points": "plain"}, Strain.NO_TRUMP, 120, 120 + 10, 120 + 10 + 90),
        ({"all_trump_points": "trump"}, Strain.ALL_TRUMP, 248, 248 + 10, 248 + 10 + 90),
        (
            {"all_trump_points": "trump", "capot_points": 250},
            Strain.ALL_TRUMP,
            248,
            258,
            258 + 88,
        ),
    ],
)
def test_fixed_totals_follow_the_scale(
    knobs: dict[str, object], strain: Strain, cards: int, failed: int, capot: int
) -> None:
    """docs/rules.md 8: the 162 of a failed classic contract is the scale's total, and the capot
    keeps its bonus over it (docs/rules-decisions.md: 220 in a plain no-trump, 348 in a trump
    all-trump)."""
    rules = MAISON.replace(round2_contracts=True, **knobs)
    fail = score_in(rules, strain, cards=(0, cards), tricks=(1, 7), bid=0)
    assert (fail.made, fail.scores) == (False, (0, failed))
    made = score_in(rules, strain, cards=(cards, 0), tricks=(8, 0), bid=0)
    assert (made.made, made.card_points, made.scores) == (True, (capot, 0), (capot, 0))
    lost = score_in(rules, strain, cards=(0, cards), tricks=(0, 8), bid=0)
    assert (lost.made, lost.scores) == (False, (0, capot))


def test_coinche_failed_base_follows_the_scale() -> None:
    """docs/rules-decisions.md: in a plain no-trump (130 points) a failed 80 gives the
    defenders 160 - 162 + 130 = 128, + 80 = 208; a capot 250 - 162 + 130 = 218, + 80."""
    rules = COINCHE.replace(auction_contracts=True, no_trump_points="plain", rounding="exact")
    failed = score_in(rules, Strain.NO_TRUMP, cards=(40, 80), tricks=(3, 5), bid=80)
    assert (failed.made, failed.scores) == (False, (0, 128 + 80))
    capot = score_in(rules, Strain.NO_TRUMP, cards=(120, 0), tricks=(8, 0), bid=80)
    assert (capot.made, capot.scores) == (True, (218 + 80, 0))


# ---------------------------------------------------------------------------------------------
# The coinche auction (docs/rules.md 4): a coinche freezes the contract
# ---------------------------------------------------------------------------------------------


def coinche_auction(rules: Rules, bids: Sequence[str]) -> DealState:
    """The TIE_HANDS dealt at a coinche table by West, and these bids."""
    from cardavia.belote import parse_action

    state = DealState.from_deck(rules, dealer=Seat.W, deck=auction_deck(TIE_HANDS, dealer=Seat.W))
    return state.replay([parse_action(text) for text in bids])


def test_a_coinche_freezes_the_contract() -> None:
    """docs/rules.md 4 (FFB: "le fait de coincher fige le contrat"): after E's coinche nobody
    bids; N–S may surcoinche or pass, E–W pass; the auction ends after three passes."""
    from cardavia.belote import IllegalActionError, Surcoinche

    state = coinche_auction(COINCHE, ["N bid 80 H", "E coinche"])
    assert state.legal_actions == (Pass(Seat.S), Surcoinche(Seat.S))
    refusal = state.refusal(Bid(Seat.S, 90, Strain.SPADES))
    assert refusal is not None and refusal.code == "contract_frozen"
    with pytest.raises(IllegalActionError):
        state.apply(Bid(Seat.S, 90, Strain.SPADES))
    state = state.apply(Pass(Seat.S))
    assert state.legal_actions == (Pass(Seat.W),)
    state = state.apply(Pass(Seat.W))
    assert state.legal_actions == (Pass(Seat.N), Surcoinche(Seat.N))
    state = state.apply(Pass(Seat.N))
    assert state.phase == Phase.PLAYING
    assert state.contract == Contract(Seat.N, Strain.HEARTS, 80, 1)


def test_outbid_after_coinche_knob() -> None:
    """docs/rules.md 4, outbid_after_coinche on (house tables): after a coinche any player may
    still outbid, which cancels the coinche."""
    rules = COINCHE.replace(outbid_after_coinche=True)
    state = coinche_auction(rules, ["N bid 80 H", "E coinche"])
    assert Bid(Seat.S, 90, Strain.SPADES) in state.legal_actions
    state = state.apply(Bid(Seat.S, 90, Strain.SPADES))
    for seat in (Seat.W, Seat.N, Seat.E):
        state = state.apply(Pass(seat))
    assert state.contract == Contract(Seat.S, Strain.SPADES, 90, 0)


def test_random_coinche_auctions_never_offer_a_bid_after_a_coinche() -> None:
    """docs/rules.md 4: in many random coinche auctions, no bid is ever legal after a coinche."""
    import random

    rng = random.Random(8)
    seen = 0
    for _ in range(300):
        state = DealState.deal(COINCHE, dealer=Seat(rng.randrange(4)), rng=rng)
        coinched = False
        while state.phase == Phase.BIDDING:
            actions = state.legal_actions
            if coinched:
                assert not any(isinstance(a, Bid) for a in actions)
                seen += 1
            coinches = [a for a in actions if isinstance(a, Coinche)]
            action = coinches[0] if coinches and rng.random() < 0.3 else rng.choice(actions)
            coinched = coinched or isinstance(action, Coinche)
            state = state.apply(action)
    assert seen > 100


# ---------------------------------------------------------------------------------------------
# One rule of scoring, on whole and fractional points
# ---------------------------------------------------------------------------------------------


def test_deal_outcome_on_whole_and_fractional_points() -> None:
    """scoring.deal_outcome is the rule score_deal and the bidding simulation share: the same
    verdict and scores on whole points, and fractional scores on fractional points."""
    from cardavia.belote.scoring import Outcome, Points, deal_outcome

    def outcome(rules: Rules, contract: Contract, cards: tuple[Points, Points]) -> Outcome[Points]:
        return deal_outcome(
            rules, contract, cards=cards, capot=None, belote=(20, 0), announcements=(0, 0)
        )

    coinched = Contract(Seat.N, Strain.HEARTS, 80, 1)
    whole = outcome(COINCHE, coinched, (90, 72))
    assert (whole.made, whole.scores, whole.multiplier) == (True, ((160 + 80) * 2 + 20, 0), 2)
    half = outcome(COINCHE, coinched, (90.5, 71.5))
    assert (half.made, half.scores) == (True, (500.0, 0.0))
    # 70.5 + 20 = 90.5 ≥ 80 but < 91.5: the contract must beat the defence.
    lost = outcome(COINCHE, coinched, (70.5, 91.5))
    assert (lost.made, lost.scores) == (False, (20.0, 480.0))
    # A litige: the takers' belote 20 stays with them, 60.5 wait in reserve.
    litige = outcome(MAISON, Contract(Seat.N, Strain.HEARTS), (60.5, 80.5))
    assert (litige.made, litige.scores, litige.reserve) == (None, (20.0, 80.5), 60.5)
