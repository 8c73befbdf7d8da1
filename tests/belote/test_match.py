"""A match: a single deal, or deals until a team reaches the target (docs/rules.md 9), with the
litige reserve of docs/rules.md 8 carried over.

The deals are dealt from chosen decks so that their outcome is known; each layout can be
turned round the table so that it fits the dealer of the moment.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

import pytest

from cardavia.belote import (
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
from cardavia.belote.match import Match

CARDAVIA = find_rules("cardavia")
MAISON = find_rules("maison")
N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

# North leads and takes ♥ (the JH turned); the tricks split 81 / 81:
#   N: JH 7H 8H AH → N 31 | N: AS 7S 8S TS → N 21 | N: 7D 8D AD 9D → S 11
#   S: 8C AC 7C TC → W 21 | W: 9C KC QC JC → N 9  | N: KD TD JD QD → E 19
#   E: 9S KS QS JS → S 9  | S: KH 9H QH TH → W 31 + 10
TIE_HANDS = {
    N: "JH AS 7D 7C KC KD JS QH",
    E: "7H 7S 8D TC QC TD 9S TH",
    S: "8H 8S AD 8C JC JD KS KH",
    W: "AH TS 9D AC 9C QD QS 9H",
}
TIE_TRICKS = [
    "JH 7H 8H AH", "AS 7S 8S TS", "7D 8D AD 9D", "8C AC 7C TC",
    "9C KC QC JC", "KD TD JD QD", "9S KS QS JS", "KH 9H QH TH",
]  # fmt: skip

# North leads; the leader's team takes 61, the other 101:
#   N: JH 7H 8H AH → N 31 | N: AS 7S 8S TS → N 21 | N: 7D AD 8D 9D → E 11
#   E: AC 7C TC 8C → E 21 | E: KC QC JC 9C → E 9  | E: TD JD QD KD → E 19
#   E: 9S JS QS KS → N 9  | N: KH 9H QH TH → E 31 + 10
SPLIT_HANDS = {
    N: "JH AS 7D 8C 9C KD KS KH",
    E: "7H 7S AD AC KC TD 9S 9H",
    S: "8H 8S 8D 7C QC JD JS QH",
    W: "AH TS 9D TC JC QD QS TH",
}
SPLIT_TRICKS = [
    "JH 7H 8H AH", "AS 7S 8S TS", "7D AD 8D 9D", "AC 7C TC 8C",
    "KC QC JC 9C", "TD JD QD KD", "9S JS QS KS", "KH 9H QH TH",
]  # fmt: skip


def deck_for(hands: Mapping[Seat, str], *, dealer: Seat, taker: Seat, turned: str) -> list[int]:
    """The deck that deals ``hands`` at a classic 3-2 table (docs/rules.md 3): 3 then 2 from the
    dealer's next, the turned card, then the taker 2 and the others 3. The layouts are
    written with West dealing; the dealer's place turns them round the table."""
    turn = (dealer - W) % 4
    turned_hands = {Seat((s + turn) % 4): hand for s, hand in hands.items()}
    held = {s: [parse_card(c) for c in turned_hands[s].split() if c != turned] for s in Seat}
    assert len(held[taker]) == 7, "the turned card must end in the taker's hand"
    order = [Seat((dealer + i) % 4) for i in range(1, 5)]
    deck: list[int] = []
    for size in (3, 2):
        for seat in order:
            deck += held[seat][:size]
            held[seat] = held[seat][size:]
    deck.append(parse_card(turned))
    for seat in order:
        deck += held[seat]
    return deck


def play_deal(match: Match, taker: Seat, tricks: Sequence[str]) -> Match:
    """Everybody passes until ``taker`` takes ♥ in round 1, then the tricks are played."""
    while match.deal.to_move != taker:
        match = match.apply(Pass(match.deal.to_move))  # type: ignore[arg-type]
    match = match.apply(Take(taker, Strain.HEARTS))
    for trick in tricks:
        for code in trick.split():
            match = match.apply(Play(match.deal.to_move, parse_card(code)))  # type: ignore[arg-type]
    assert match.deal.phase == Phase.OVER
    return match


def cancel_deal(match: Match) -> Match:
    """Everybody passes twice (docs/rules.md 4)."""
    for _ in range(8):
        match = match.apply(Pass(match.deal.to_move))  # type: ignore[arg-type]
    assert match.deal.phase == Phase.CANCELLED
    return match


def tie_deck(dealer: Seat) -> list[int]:
    """The 81 / 81 deal; the dealer's next holds the turned JH and takes."""
    return deck_for(TIE_HANDS, dealer=dealer, taker=dealer.next, turned="JH")


def split_deck(dealer: Seat, taker_of_61: bool = True) -> list[int]:
    """The 61 / 101 deal: the dealer's next leads and takes 61. With ``taker_of_61`` the
    dealer's next takes (with the turned JH) and fails; otherwise the seat after it takes
    (with its 9H) and makes the contract with 101."""
    if taker_of_61:
        return deck_for(SPLIT_HANDS, dealer=dealer, taker=dealer.next, turned="JH")
    return deck_for(SPLIT_HANDS, dealer=dealer, taker=dealer.next.next, turned="9H")


# ---------------------------------------------------------------------------------------------
# docs/rules.md 9: the deal passes to the right
# ---------------------------------------------------------------------------------------------


def test_dealer_rotation() -> None:
    """docs/rules.md 2 and 9: the next deal is dealt by the dealer's next, also after a cancelled
    deal (docs/rules-decisions.md); the dealer's next bids first."""
    match = Match.start(MAISON, dealer=W, rng=random.Random(5))
    dealers = [match.deal.dealer]
    for seed in range(4):
        match = cancel_deal(match)
        assert not match.is_over and match.winner is None
        match = match.next_deal(rng=random.Random(seed))
        dealers.append(match.deal.dealer)
        assert match.deal.to_move == match.deal.dealer.next
    assert dealers == [W, N, E, S, W]
    assert len(match.finished) == 4 and len(match.deals) == 5
    assert match.scores == (0, 0)


def test_next_deal_only_once_the_deal_is_over() -> None:
    """A match moves on to the next deal only when the current one is over."""
    match = Match.from_deck(MAISON, dealer=W, deck=tie_deck(W))
    with pytest.raises(ValueError, match="not over"):
        match.next_deal(rng=random.Random(1))


def test_apply_checks_the_action() -> None:
    """The match's deal refuses what the rules refuse, and the match is left unchanged."""
    match = Match.from_deck(MAISON, dealer=W, deck=tie_deck(W))
    with pytest.raises(ValueError, match="turn"):
        match.apply(Pass(E))
    assert match == Match.from_deck(MAISON, dealer=W, deck=tie_deck(W))


# ---------------------------------------------------------------------------------------------
# docs/rules.md 8-9: scores add up; the litige reserve goes to the next deal's winner
# ---------------------------------------------------------------------------------------------


def test_scores_add_up_and_the_reserve_goes_to_the_defenders() -> None:
    """docs/rules.md 8: deal 1 is a litige (81 = 81): EW score 81, NS's 81 wait in reserve.
    Deal 2: East takes and fails (61 < 101): NS score 162 and win the reserve:
    NS 0 + 162 + 81 = 243, EW 81 + 0 = 81."""
    match = Match.from_deck(MAISON, dealer=W, deck=tie_deck(W))
    match = play_deal(match, N, TIE_TRICKS)
    assert match.deal.result is not None and match.deal.result.made is None
    assert (match.scores, match.reserve, match.winner) == ((0, 81), 81, None)
    assert not match.is_over

    match = match.next_deal_from_deck(split_deck(N))
    assert match.deal.dealer == N
    match = play_deal(match, E, SPLIT_TRICKS)
    assert match.deal.result is not None
    assert (match.deal.result.made, match.deal.result.scores) == (False, (162, 0))
    assert match.scores == (0 + 162 + 81, 81 + 0)
    assert match.reserve == 0
    assert [d.result.scores for d in match.deals if d.result] == [(0, 81), (162, 0)]


def test_the_reserve_goes_to_the_takers_who_make_it() -> None:
    """docs/rules.md 8: after a litige the next contract is made by South (101 > 61): NS score
    101 + the reserve 81 = 182, EW 81 + 61 = 142."""
    match = play_deal(Match.from_deck(MAISON, dealer=W, deck=tie_deck(W)), N, TIE_TRICKS)
    match = match.next_deal_from_deck(split_deck(N, taker_of_61=False))
    match = play_deal(match, S, SPLIT_TRICKS)
    assert match.deal.result is not None
    assert (match.deal.result.made, match.deal.result.scores) == (True, (101, 61))
    assert match.scores == (101 + 81, 81 + 61)
    assert match.reserve == 0


def test_litiges_add_up_and_wait_through_a_cancelled_deal() -> None:
    """docs/rules-decisions.md: another litige adds to the reserve; a cancelled deal leaves it
    waiting. Deal 1: NS's 81 in reserve, EW 81. Deal 2 (East takes): litige again, NS score
    81, EW's 81 join the reserve: 162. Deal 3 cancelled. Deal 4: South deals, West takes and
    fails (61 < 101): NS 162 + the reserve 162."""
    match = play_deal(Match.from_deck(MAISON, dealer=W, deck=tie_deck(W)), N, TIE_TRICKS)
    match = play_deal(match.next_deal_from_deck(tie_deck(N)), E, TIE_TRICKS)
    assert (match.scores, match.reserve) == ((81, 81), 81 + 81)
    match = cancel_deal(match.next_deal(rng=random.Random(9)))
    assert match.deal.dealer == E
    assert (match.scores, match.reserve) == ((81, 81), 162)
    match = match.next_deal_from_deck(split_deck(S))
    match = play_deal(match, W, SPLIT_TRICKS)
    assert match.deal.result is not None and match.deal.result.scores == (162, 0)
    assert match.scores == (81 + 162 + 162, 81)
    assert match.reserve == 0


# ---------------------------------------------------------------------------------------------
# docs/rules.md 9: the target
# ---------------------------------------------------------------------------------------------


def test_reaching_the_target_wins() -> None:
    """docs/rules.md 9: the match goes on below the target (NS 900 + 61 = 961, EW 101), and ends
    when a team reaches it after a deal (NS 920 + 81 = 1001 ≥ 1000)."""
    start = Match.from_deck(MAISON, dealer=W, deck=split_deck(W, taker_of_61=False))
    match = play_deal(Match(MAISON, start.deal, scores=(900, 0)), E, SPLIT_TRICKS)
    # Dealt by West, North leads and takes 61; East took and made it with 101.
    assert match.scores == (900 + 61, 101)
    assert match.winner is None and not match.is_over

    rules = MAISON.replace(tie="made")
    start = Match.from_deck(rules, dealer=W, deck=tie_deck(W))
    match = play_deal(Match(rules, start.deal, scores=(920, 0)), N, TIE_TRICKS)
    assert match.scores == (920 + 81, 81)
    assert match.winner == Team.NS and match.is_over
    with pytest.raises(ValueError, match="over"):
        match.next_deal(rng=random.Random(1))


def test_both_over_the_target_the_higher_total_wins() -> None:
    """docs/rules.md 9: both teams at or past the target: the higher total wins. NS 1000 + 0,
    EW 900 + 162 = 1062 (North took and failed)."""
    start = Match.from_deck(MAISON, dealer=W, deck=split_deck(W))
    match = play_deal(Match(MAISON, start.deal, scores=(1000, 900)), N, SPLIT_TRICKS)
    assert match.scores == (1000, 1062)
    assert match.winner == Team.EW


def test_a_tie_at_the_target_plays_another_deal() -> None:
    """docs/rules.md 9: equal totals at or above the target play one more deal: 919 + 81 = 1000
    each (tie made), then North deals, East takes and fails: NS 1000 + 162 win."""
    rules = MAISON.replace(tie="made")
    start = Match.from_deck(rules, dealer=W, deck=tie_deck(W))
    match = play_deal(Match(rules, start.deal, scores=(919, 919)), N, TIE_TRICKS)
    assert match.scores == (1000, 1000)
    assert match.winner is None and not match.is_over
    match = play_deal(match.next_deal_from_deck(split_deck(N)), E, SPLIT_TRICKS)
    assert match.scores == (1162, 1000)
    assert match.winner == Team.NS and match.is_over


# ---------------------------------------------------------------------------------------------
# docs/rules.md 9: the single-deal table
# ---------------------------------------------------------------------------------------------


def test_single_deal_ends_after_one_scored_deal() -> None:
    """docs/rules.md 9 and 8 (Cardavia table): one deal; North takes and fails (61 < 101): the
    defenders take 162, EW win the match."""
    match = Match.from_deck(CARDAVIA, dealer=W, deck=split_deck(W))
    assert not match.is_over
    match = play_deal(match, N, SPLIT_TRICKS)
    assert match.scores == (0, 162)
    assert match.is_over and match.winner == Team.EW
    with pytest.raises(ValueError, match="over"):
        match.next_deal_from_deck(split_deck(N))


def test_single_deal_cancelled_offers_a_new_deal() -> None:
    """docs/rules.md 3: at the single-deal table a cancelled deal is not the end: a new deal is
    offered, dealt by the next dealer."""
    match = cancel_deal(Match.from_deck(CARDAVIA, dealer=W, deck=tie_deck(W)))
    assert not match.is_over
    match = match.next_deal_from_deck(tie_deck(N))
    assert match.deal.dealer == N
    match = play_deal(match, E, TIE_TRICKS)
    # Tie made at the Cardavia table: 81 each, a single deal that nobody wins.
    assert match.scores == (81, 81)
    assert match.is_over and match.winner is None


def test_a_whole_match_to_the_target_is_consistent() -> None:
    """docs/rules.md 9: a seeded match played to the end: the totals are the sums of the deals'
    scores (and reserves), dealers rotate, and the winner has the higher total."""
    rules: Rules = MAISON.replace(target=501)
    rng = random.Random(2026)
    match = Match.start(rules, dealer=W, rng=rng)
    while not match.is_over:
        if match.deal.is_over:
            match = match.next_deal(rng=rng)
        else:
            match = match.apply(match.deal.legal_actions[-1])
    deals = match.deals
    for before, after in itertools.pairwise(deals):
        assert after.dealer == before.dealer.next
    scored = [d.result for d in deals if d.result is not None]
    total_ns = sum(r.scores[0] for r in scored)
    total_ew = sum(r.scores[1] for r in scored)
    reserves = sum(r.reserve for r in scored)
    assert match.scores[0] + match.scores[1] + match.reserve == total_ns + total_ew + reserves
    assert match.winner is not None
    assert max(match.scores) >= 501
    assert match.scores[match.winner] > match.scores[match.winner.other]
