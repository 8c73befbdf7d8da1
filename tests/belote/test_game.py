"""The deal as a state machine (docs/rules.md 2-8): dealing, bidding, the eight tricks, belote,
announcements, what each seat may see, immutability and bad input.

Card numbering: ``suit * 8 + rank`` (7S = 0 … AS = 7, 7H = 8 … AC = 31), so the deck
``range(32)`` is 7S 8S … AS 7H … AC and its 21st card (index 20) is the JD.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping, Sequence

import pytest

from cardavia.belote import (
    CAPOT,
    Action,
    Announcement,
    Bid,
    CardSet,
    Coinche,
    CompletedTrick,
    Contract,
    DealState,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    Observation,
    Pass,
    Phase,
    Play,
    Reason,
    Rules,
    Seat,
    Strain,
    Surcoinche,
    Take,
    Team,
    find_rules,
    parse_action,
    parse_card,
)

CARDAVIA = find_rules("cardavia")
MAISON = find_rules("maison")
COINCHE = find_rules("coinche")
ORDERED = tuple(range(32))
N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def cards(text: str) -> CardSet:
    """A set of cards from codes."""
    return CardSet.parse(text)


def act(state: DealState, *texts: str) -> DealState:
    """Apply actions written in their text form (``"N pass"``, ``"E bid 90 H"``)."""
    return state.replay([parse_action(text) for text in texts])


def refused(
    make: Callable[[], DealState], action: Action | object, code: str, args: Mapping[str, str]
) -> Reason:
    """``action`` is refused in the state ``make()`` builds, with ``code`` and ``args``; the
    state is left exactly as it was (it still equals a fresh copy built the same way)."""
    state = make()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert info.value.reason.code == code
    assert dict(info.value.reason.args) == dict(args)
    assert str(info.value) == info.value.reason.message
    assert state == make()
    assert state.refusal(action) == info.value.reason
    assert not state.is_legal(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        state.check(action)  # type: ignore[arg-type]
    return info.value.reason


def packet_hands(deck: Sequence[int], dealer: Seat, packets: Sequence[int]) -> list[CardSet]:
    """The hands of docs/rules.md 3: each packet size dealt to the four players in turn from the
    dealer's next."""
    hands: list[list[int]] = [[], [], [], []]
    index = 0
    for size in packets:
        for offset in range(1, 5):
            hands[(dealer + offset) % 4] += deck[index : index + size]
            index += size
    return [CardSet(h) for h in hands]


# ---------------------------------------------------------------------------------------------
# Dealing (docs/rules.md 3)
# ---------------------------------------------------------------------------------------------


def test_classic_first_distribution_3_2() -> None:
    """docs/rules.md 3: 3 then 2 to each player from the dealer's next (West deals: N, E, S, W),
    then the 21st card is turned face up."""
    state = DealState.from_deck(MAISON, dealer=W, deck=ORDERED)
    assert state.hand(N) == CardSet([0, 1, 2, 12, 13])
    assert state.hand(E) == CardSet([3, 4, 5, 14, 15])
    assert state.hand(S) == CardSet([6, 7, 8, 16, 17])
    assert state.hand(W) == CardSet([9, 10, 11, 18, 19])
    assert state.turned_card == 20 == parse_card("JD")
    assert state.phase == Phase.BIDDING
    assert state.to_move == N


def test_classic_first_distribution_2_3() -> None:
    """docs/rules.md 3, knob first_packets 2-3."""
    state = DealState.from_deck(MAISON.replace(first_packets="2-3"), dealer=W, deck=ORDERED)
    assert state.hand(N) == CardSet([0, 1, 8, 9, 10])
    assert state.hand(E) == CardSet([2, 3, 11, 12, 13])
    assert state.hand(S) == CardSet([4, 5, 14, 15, 16])
    assert state.hand(W) == CardSet([6, 7, 17, 18, 19])
    assert state.turned_card == 20


@pytest.mark.parametrize("dealer", list(Seat))
@pytest.mark.parametrize("first", ["3-2", "2-3"])
def test_classic_distribution_from_the_dealers_next(dealer: Seat, first: str) -> None:
    """docs/rules.md 3: whoever deals, the packets start with the dealer's next, who also bids
    first."""
    deck = list(range(31, -1, -1))
    state = DealState.from_deck(MAISON.replace(first_packets=first), dealer=dealer, deck=deck)
    sizes = [int(n) for n in first.split("-")]
    assert [state.hand(s) for s in Seat] == packet_hands(deck, dealer, sizes)
    assert state.turned_card == deck[20]
    assert state.to_move == dealer.next


def test_second_distribution() -> None:
    """docs/rules.md 3: the taker gets the turned card and 2 more, every other player 3, from the
    dealer's next: 8 each. West deals, South takes the turned JD: N 21-23, E 24-26,
    S the JD + 27-28, W 29-31."""
    state = act(DealState.from_deck(MAISON, dealer=W, deck=ORDERED), "N pass", "E pass")
    first = [state.hand(s) for s in Seat]
    state = act(state, "S take D")
    assert state.phase == Phase.PLAYING
    assert state.contract == Contract(S, Strain.DIAMONDS)
    assert state.hand(N) == first[N] | CardSet([21, 22, 23])
    assert state.hand(E) == first[E] | CardSet([24, 25, 26])
    assert state.hand(S) == first[S] | CardSet([20, 27, 28])
    assert state.hand(W) == first[W] | CardSet([29, 30, 31])
    assert all(len(state.hand(s)) == 8 for s in Seat)
    assert list(state.dealt_hands()) == [state.hand(s) for s in Seat]
    assert state.to_move == N  # the dealer's next leads the first trick


def test_second_distribution_when_the_dealers_next_takes() -> None:
    """docs/rules.md 3: North (the dealer's next) takes in round 2: the JD + 21-22, then E 23-25,
    S 26-28, W 29-31."""
    state = DealState.from_deck(MAISON, dealer=W, deck=ORDERED)
    first = [state.hand(s) for s in Seat]
    state = act(state, "N pass", "E pass", "S pass", "W pass", "N take S")
    assert state.contract == Contract(N, Strain.SPADES)
    assert state.hand(N) == first[N] | CardSet([20, 21, 22])
    assert state.hand(E) == first[E] | CardSet([23, 24, 25])
    assert state.hand(S) == first[S] | CardSet([26, 27, 28])
    assert state.hand(W) == first[W] | CardSet([29, 30, 31])


@pytest.mark.parametrize("packets", ["3-2-3", "3-3-2", "2-3-3", "4-4"])
@pytest.mark.parametrize("dealer", [W, S])
def test_auction_distribution(packets: str, dealer: Seat) -> None:
    """docs/rules.md 3: coinche tables deal all 8 cards before the auction, in packets 3-2-3
    (knob auction_packets: 3-3-2, 2-3-3, 4-4), from the dealer's next; nothing is turned."""
    rules = COINCHE.replace(auction_packets=packets)
    state = DealState.from_deck(rules, dealer=dealer, deck=ORDERED)
    sizes = [int(n) for n in packets.split("-")]
    assert [state.hand(s) for s in Seat] == packet_hands(ORDERED, dealer, sizes)
    assert all(len(state.hand(s)) == 8 for s in Seat)
    assert state.turned_card is None
    assert state.to_move == dealer.next


def test_auction_distribution_3_2_3_spelt_out() -> None:
    """docs/rules.md 3: 3-2-3 from North when West deals."""
    state = DealState.from_deck(COINCHE, dealer=W, deck=ORDERED)
    assert state.hand(N) == CardSet([0, 1, 2, 12, 13, 20, 21, 22])
    assert state.hand(W) == CardSet([9, 10, 11, 18, 19, 29, 30, 31])


def test_shuffled_deal_is_reproducible_with_a_seeded_rng() -> None:
    """docs/rules.md 3: a seeded RNG in tests and replays: the same seed, the same deal; the deck
    holds the 32 cards once and is kept."""
    one = DealState.deal(MAISON, dealer=W, rng=random.Random(42))
    two = DealState.deal(MAISON, dealer=W, rng=random.Random(42))
    assert one == two
    assert sorted(one.deck) == list(range(32))
    assert one.initial() == one
    assert DealState.deal(MAISON, dealer=W, rng=random.Random(43)).deck != one.deck


@pytest.mark.parametrize("deck", [list(range(31)), [0, *range(31)], [*range(31), 32]])
def test_from_deck_refuses_a_bad_deck(deck: list[int]) -> None:
    """A deck holds each of the 32 cards once."""
    with pytest.raises(ValueError, match="32 cards"):
        DealState.from_deck(MAISON, dealer=W, deck=deck)


# ---------------------------------------------------------------------------------------------
# Classic bidding (docs/rules.md 4, seed 004)
# ---------------------------------------------------------------------------------------------


def classic() -> DealState:
    """West deals the ordered deck; the JD is turned."""
    return DealState.from_deck(MAISON, dealer=W, deck=ORDERED)


def classic_round2() -> DealState:
    """Everybody passed once."""
    return act(classic(), "N pass", "E pass", "S pass", "W pass")


def test_round_1_only_the_turned_suit() -> None:
    """docs/rules.md 4.1: round 1, in turn from the dealer's next: take the turned suit or pass."""
    state = classic()
    assert state.legal_actions == (Pass(N), Take(N, Strain.DIAMONDS))
    reason = refused(classic, Take(N, Strain.HEARTS), "must_take_turned_suit", {"suit": "D"})
    assert reason.message == "in the first round one may only take the turned suit (diamonds)"
    state = act(state, "N pass")
    assert state.to_move == E
    assert state.legal_actions == (Pass(E), Take(E, Strain.DIAMONDS))


def test_round_2_the_other_suits() -> None:
    """docs/rules.md 4.2: after four passes, round 2: any other suit, or pass."""
    state = classic_round2()
    assert state.phase == Phase.BIDDING and state.to_move == N
    assert state.legal_actions == (
        Pass(N),
        Take(N, Strain.SPADES),
        Take(N, Strain.HEARTS),
        Take(N, Strain.CLUBS),
    )
    reason = refused(
        classic_round2, Take(N, Strain.DIAMONDS), "strain_not_allowed", {"strain": "D"}
    )
    assert reason.message == "D cannot be named in this round"
    refused(classic_round2, Take(N, Strain.NO_TRUMP), "strain_not_allowed", {"strain": "NT"})
    refused(classic_round2, Take(N, Strain.ALL_TRUMP), "strain_not_allowed", {"strain": "AT"})


def test_round_2_contracts_knob() -> None:
    """docs/rules.md 4.2, knob round2_contracts: round 2 may also name no-trump or all-trump."""
    rules = MAISON.replace(round2_contracts=True)
    state = act(
        DealState.from_deck(rules, dealer=W, deck=ORDERED), "N pass", "E pass", "S pass", "W pass"
    )
    assert Take(N, Strain.NO_TRUMP) in state.legal_actions
    assert Take(N, Strain.ALL_TRUMP) in state.legal_actions
    assert Take(N, Strain.DIAMONDS) not in state.legal_actions
    state = act(state, "N pass", "E take NT")
    assert state.contract == Contract(E, Strain.NO_TRUMP)
    assert state.phase == Phase.PLAYING
    # Round 1 is still the turned suit only.
    first = DealState.from_deck(rules, dealer=W, deck=ORDERED)
    assert first.legal_actions == (Pass(N), Take(N, Strain.DIAMONDS))


def test_first_taker_ends_the_bidding() -> None:
    """docs/rules.md 4.3: the first taker ends the bidding; the dealer's next leads."""
    state = act(classic(), "N pass", "E take D")
    assert state.phase == Phase.PLAYING
    assert state.contract == Contract(E, Strain.DIAMONDS)
    assert state.to_move == N
    assert state.bids == (Pass(N), Take(E, Strain.DIAMONDS))
    refused(
        lambda: act(classic(), "N pass", "E take D"),
        Take(S, Strain.DIAMONDS),
        "wrong_phase",
        {"phase": "playing"},
    )


def test_all_pass_twice_cancels_the_deal() -> None:
    """docs/rules.md 4.3: all pass twice: the deal is cancelled."""
    state = act(classic_round2(), "N pass", "E pass", "S pass")
    assert state.phase == Phase.BIDDING
    state = act(state, "W pass")
    assert state.phase == Phase.CANCELLED
    assert state.is_over
    assert state.to_move is None
    assert state.legal_actions == ()
    assert state.result is None and state.contract is None

    def cancelled() -> DealState:
        return act(classic_round2(), "N pass", "E pass", "S pass", "W pass")

    refused(cancelled, Pass(N), "wrong_phase", {"phase": "cancelled"})


def test_classic_bidding_refuses_auction_actions() -> None:
    """docs/rules.md 4: classic tables take or pass; no bids, no coinche."""
    refused(classic, Bid(N, 80, Strain.DIAMONDS), "wrong_phase", {"phase": "classic bidding"})
    refused(classic, Coinche(N), "wrong_phase", {"phase": "classic bidding"})


# ---------------------------------------------------------------------------------------------
# The coinche auction (docs/rules.md 4, docs/rules-decisions.md "The auction, move by move")
# ---------------------------------------------------------------------------------------------


def auction(*texts: str, rules: Rules = COINCHE) -> DealState:
    """West deals the ordered deck at a coinche table; then the given actions."""
    return act(DealState.from_deck(rules, dealer=W, deck=ORDERED), *texts)


def test_auction_opening_actions() -> None:
    """docs/rules.md 4: pass, or a bid 80 … 160 or capot in a suit; nothing to coinche yet."""
    state = auction()
    assert state.to_move == N
    bids = [a for a in state.legal_actions if isinstance(a, Bid)]
    assert len(bids) == 10 * 4
    assert {a.value for a in bids} == {80, 90, 100, 110, 120, 130, 140, 150, 160, CAPOT}
    assert {a.strain for a in bids} == {Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS}
    assert state.legal_actions[0] == Pass(N)
    assert not any(isinstance(a, (Coinche, Surcoinche)) for a in state.legal_actions)
    refused(auction, Coinche(N), "cannot_coinche", {})
    refused(auction, Surcoinche(N), "cannot_surcoinche", {})
    refused(auction, Take(N, Strain.HEARTS), "wrong_phase", {"phase": "auction"})


def test_auction_bids_must_rise() -> None:
    """docs/rules.md 4: a bid higher than the current bid; equal is not higher."""
    state = auction("N bid 90 H")
    assert min(a.value for a in state.legal_actions if isinstance(a, Bid)) == 100
    reason = refused(
        lambda: auction("N bid 90 H"), Bid(E, 80, Strain.SPADES), "bid_too_low", {"value": "90"}
    )
    assert reason.message == "a bid must be higher than 90"
    refused(
        lambda: auction("N bid 90 H"), Bid(E, 90, Strain.SPADES), "bid_too_low", {"value": "90"}
    )
    state = act(state, "E bid 100 S")
    assert state.phase == Phase.BIDDING and state.to_move == S


@pytest.mark.parametrize(
    ("bid", "args"),
    [
        (Bid(N, 85, Strain.HEARTS), {"value": "85", "strain": "H"}),
        (Bid(N, 70, Strain.HEARTS), {"value": "70", "strain": "H"}),
        (Bid(N, 170, Strain.HEARTS), {"value": "170", "strain": "H"}),  # top_bids capot
        (Bid(N, 500, Strain.HEARTS), {"value": "500", "strain": "H"}),  # no générale
        (Bid(N, 80, Strain.NO_TRUMP), {"value": "80", "strain": "NT"}),  # auction_contracts off
    ],
)
def test_auction_bids_not_in_the_rules(bid: Bid, args: dict[str, str]) -> None:
    """docs/rules.md 4: values 80, 90 … 160, capot; suits only unless auction_contracts."""
    refused(auction, bid, "bid_not_allowed", args)


def test_auction_knobs_top_bids_and_contracts() -> None:
    """docs/rules.md 4: top_bids generale adds 170, 180 and générale; auction_contracts adds
    no-trump and all-trump."""
    rules = COINCHE.replace(top_bids="generale", auction_contracts=True)
    state = auction(rules=rules)
    values = {a.value for a in state.legal_actions if isinstance(a, Bid)}
    assert {170, 180, 250, 500} <= values
    assert Bid(N, 80, Strain.NO_TRUMP) in state.legal_actions
    state = act(state, "N bid 170 AT", "E bid generale NT", "S pass", "W pass", "N pass")
    assert state.contract == Contract(E, Strain.NO_TRUMP, 500, 0)


def test_three_passes_after_a_bid_end_the_auction() -> None:
    """docs/rules.md 4: three passes in a row after a bid end the auction; the dealer's next
    leads."""
    state = auction("N pass", "E bid 80 H", "S pass", "W pass")
    assert state.phase == Phase.BIDDING
    state = act(state, "N pass")
    assert state.phase == Phase.PLAYING
    assert state.contract == Contract(E, Strain.HEARTS, 80, 0)
    assert state.to_move == N
    assert all(len(state.hand(s)) == 8 for s in Seat)


def test_four_passes_cancel_the_deal() -> None:
    """docs/rules.md 4: four passes and no bid: the deal is cancelled."""
    state = auction("N pass", "E pass", "S pass")
    assert state.phase == Phase.BIDDING
    state = act(state, "W pass")
    assert state.phase == Phase.CANCELLED and state.legal_actions == ()


def test_passes_before_a_bid_do_not_end_it() -> None:
    """docs/rules.md 4: three passes then a bid: the auction goes on until three passes follow."""
    state = auction("N pass", "E pass", "S pass", "W bid 80 C", "N pass", "E pass")
    assert state.phase == Phase.BIDDING
    state = act(state, "S pass")
    assert state.contract == Contract(W, Strain.CLUBS, 80, 0)


def test_coinche_by_an_opponent_in_turn() -> None:
    """docs/rules.md 4: an opponent of the current bidder may coinche, in turn; three passes then
    end the auction, coinched (×2)."""
    state = auction("N bid 80 H")
    assert Coinche(E) in state.legal_actions
    state = act(state, "E coinche", "S pass", "W pass")
    assert state.phase == Phase.BIDDING
    state = act(state, "N pass")
    assert state.contract == Contract(N, Strain.HEARTS, 80, 1)
    assert state.contract.multiplier == 2


def test_coinche_by_the_wrong_team_or_out_of_turn() -> None:
    """docs/rules.md 4: the bidder's partner may not coinche; nor may an opponent out of turn."""

    def after_e_pass() -> DealState:
        return auction("N bid 80 H", "E pass")

    assert Coinche(S) not in after_e_pass().legal_actions
    reason = refused(after_e_pass, Coinche(S), "cannot_coinche", {})
    assert reason.message == "only an opponent of the last bidder may coinche, once"
    reason = refused(after_e_pass, Coinche(W), "not_your_turn", {"seat": "W", "to_move": "S"})
    assert reason.message == "it is S's turn, not W's"


def test_coinche_once_per_bid() -> None:
    """docs/rules-decisions.md: a coinche once per bid."""
    refused(lambda: auction("N bid 80 H", "E coinche", "S pass"), Coinche(W), "cannot_coinche", {})


def test_surcoinche_by_the_bidding_team_ends_the_auction() -> None:
    """docs/rules.md 4: after a coinche the bidder's team may surcoinche in turn, which ends the
    auction (×4)."""
    state = auction("N bid 80 H", "E coinche")
    assert Surcoinche(S) in state.legal_actions
    state = act(state, "S surcoinche")
    assert state.phase == Phase.PLAYING
    assert state.contract == Contract(N, Strain.HEARTS, 80, 2)
    assert state.contract.multiplier == 4
    assert state.to_move == N


def test_surcoinche_by_the_other_team_or_without_coinche() -> None:
    """docs/rules.md 4: only the bidding team surcoinches, and only after a coinche."""
    refused(
        lambda: auction("N bid 80 H", "E coinche", "S pass"), Surcoinche(W), "cannot_surcoinche", {}
    )
    reason = refused(
        lambda: auction("N bid 80 H", "E pass"), Surcoinche(S), "cannot_surcoinche", {}
    )
    assert reason.message == "only the bidding team may surcoinche, after a coinche"


def test_a_coinche_freezes_the_contract() -> None:
    """docs/rules.md 4 (FFB contrée: "le fait de coincher fige le contrat"): after a coinche
    nobody outbids; the bidder's team may surcoinche or pass."""
    state = auction("N bid 80 H", "E coinche")
    assert not any(isinstance(action, Bid) for action in state.legal_actions)
    refused(
        lambda: auction("N bid 80 H", "E coinche"), Bid(S, 90, Strain.HEARTS), "contract_frozen", {}
    )
    state = act(state, "S pass", "W pass", "N pass")
    assert state.contract == Contract(N, Strain.HEARTS, 80, 1)


def test_outbidding_cancels_a_coinche() -> None:
    """docs/rules.md 4, outbid_after_coinche (house tables): any player may still outbid, which
    cancels the coinche."""
    rules = COINCHE.replace(outbid_after_coinche=True)
    state = auction(
        "N bid 80 H", "E coinche", "S bid 90 H", "W pass", "N pass", "E pass", rules=rules
    )
    assert state.contract == Contract(S, Strain.HEARTS, 90, 0)
    # An opponent may coinche the new bid.
    state = auction("N bid 80 H", "E coinche", "S bid 90 H", rules=rules)
    assert Coinche(W) in state.legal_actions


def test_coinche_any_time() -> None:
    """docs/rules.md 4, knob coinche_any_time: an opponent may coinche out of turn."""
    rules = COINCHE.replace(coinche_any_time=True)
    state = auction("N bid 80 H", "E pass", rules=rules)
    assert state.to_move == S
    assert Coinche(W) in state.legal_actions and Coinche(E) in state.legal_actions
    assert Coinche(S) not in state.legal_actions
    state = act(state, "W coinche")
    assert state.bids[-1] == Coinche(W)
    refused(lambda: auction("N bid 80 H", "E pass", rules=rules), Coinche(S), "cannot_coinche", {})


# ---------------------------------------------------------------------------------------------
# The eight tricks (docs/rules.md 2 and 5.5)
# ---------------------------------------------------------------------------------------------

# North takes ♥ (the JH turned); the tricks split 81 / 81 (see test_scoring.py).
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
TIE_WINNERS = [N, N, S, W, N, E, S, W]


def rotate(hands: Mapping[Seat, str], by: int) -> dict[Seat, str]:
    """The same deal with every seat moved ``by`` places round the table."""
    return {Seat((seat + by) % 4): hand for seat, hand in hands.items()}


def classic_deck(hands: Mapping[Seat, str], *, dealer: Seat, taker: Seat, turned: str) -> list[int]:
    """The deck that deals ``hands`` at a classic 3-2 table (docs/rules.md 3)."""
    held = {s: [parse_card(c) for c in hands[s].split() if c != turned] for s in Seat}
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


def play_tricks(state: DealState, tricks: Sequence[str]) -> Iterator[DealState]:
    """Play each card by the seat to move; yield the state after each trick."""
    for trick in tricks:
        for code in trick.split():
            assert state.to_move is not None
            state = state.apply(Play(state.to_move, parse_card(code)))
        yield state


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_eight_tricks_and_who_leads(turn: int) -> None:
    """docs/rules.md 2 and 5.5: the dealer's next leads the first trick, the winner of each trick
    leads the next; after eight tricks the deal is over and scored. The same deal is played
    turned round the table, the dealer moving with it."""
    dealer = Seat((W + turn) % 4)
    taker = Seat((N + turn) % 4)
    hands = rotate(TIE_HANDS, turn)
    deck = classic_deck(hands, dealer=dealer, taker=taker, turned="JH")
    state = DealState.from_deck(MAISON, dealer=dealer, deck=deck)
    state = state.apply(Take(taker, Strain.HEARTS))
    assert state.to_move == dealer.next == taker
    states = list(play_tricks(state, TIE_TRICKS))
    final = states[-1]
    winners = [Seat((w + turn) % 4) for w in TIE_WINNERS]
    assert [t.winner for t in final.tricks] == winners
    assert [t.leader for t in final.tricks] == [taker, *winners[:-1]]
    for after, winner in zip(states[:-1], winners[:-1], strict=True):
        assert after.to_move == winner
    assert len(final.tricks) == 8
    assert final.phase == Phase.OVER and final.is_over
    assert final.to_move is None and final.legal_actions == ()
    assert final.tricks_won == ((5, 3) if turn % 2 == 0 else (3, 5))
    assert final.result is not None
    assert sorted(final.result.card_points) == [81, 81]
    assert final.legal_cards() == CardSet()
    assert str(final.tricks[0]).startswith(f"{taker.name}: JH 7H 8H AH")


def test_completed_trick_plays() -> None:
    """A finished trick knows who played which card, in turn from its leader (docs/rules.md 2)."""
    played = tuple(parse_card(code) for code in ["AC", "7C", "TC", "8C"])
    trick = CompletedTrick(E, played, E, 11 + 0 + 10 + 0)  # type: ignore[arg-type]
    assert trick.plays == ((E, played[0]), (S, played[1]), (W, played[2]), (N, played[3]))
    assert str(trick) == "E: AC 7C TC 8C → E (21)"


# ---------------------------------------------------------------------------------------------
# Belote–rebelote (docs/rules.md 6)
# ---------------------------------------------------------------------------------------------


def belote_ending(rules: Rules, strain: Strain = Strain.HEARTS) -> DealState:
    """A two-trick ending: North holds the trump K and Q and leads."""
    hands = [cards("KH QH"), cards("7S 8S"), cards("9S TS"), cards("JS QS")]
    return DealState.from_position(rules, contract=Contract(N, strain), hands=hands, leader=N)


def finish(state: DealState, first: Play) -> DealState:
    """North plays ``first``, the others their lowest card, then everybody their last."""
    state = state.apply(first)
    while not state.is_over:
        assert state.to_move is not None
        state = state.apply(Play(state.to_move, min(state.hand(state.to_move))))
    return state


def test_belote_automatic() -> None:
    """docs/rules.md 6, automatic (seed 004): the first of the two announces Belote, the second
    Rebelote, and the team gets 20."""
    state = belote_ending(CARDAVIA)
    assert Play(N, parse_card("QH"), belote=True) not in state.legal_actions
    after = state.apply(Play(N, parse_card("QH")))
    assert [(e.seat, e.word) for e in after.belote_events] == [(N, "belote")]
    final = finish(state, Play(N, parse_card("QH")))
    assert [(e.seat, e.word) for e in final.belote_events] == [(N, "belote"), (N, "rebelote")]
    assert final.result is not None
    assert final.result.belote == (20, 0)
    # 3 (QH) + 2 (JS) + 4 (KH) + 10 (TS) + 3 (QS) + 10 (last trick) = 32, plus 20.
    assert final.result.scores == (32 + 20, 0)
    reason = refused(
        lambda: belote_ending(CARDAVIA),
        Play(N, parse_card("QH"), belote=True),
        "belote_automatic",
        {},
    )
    assert reason.message == "belote is announced automatically at this table"


def test_belote_declared() -> None:
    """docs/rules.md 6, declared (seed 002): the player says "belote" with the first card and
    "rebelote" follows by itself; without "belote" it is worth 0."""
    state = belote_ending(MAISON)
    assert Play(N, parse_card("QH"), belote=True) in state.legal_actions
    assert Play(N, parse_card("KH"), belote=True) in state.legal_actions
    said = finish(state, Play(N, parse_card("QH"), belote=True))
    assert [(e.seat, e.word) for e in said.belote_events] == [(N, "belote"), (N, "rebelote")]
    assert said.result is not None and said.result.belote == (20, 0)
    silent = finish(state, Play(N, parse_card("QH")))
    assert silent.belote_events == ()
    assert silent.result is not None and silent.result.belote == (0, 0)
    # Starting with the king works the same.
    kh_first = finish(state, Play(N, parse_card("KH"), belote=True))
    assert kh_first.result is not None and kh_first.result.belote == (20, 0)
    assert kh_first.belote_events[0].card == parse_card("KH")


def test_belote_said_with_a_wrong_card() -> None:
    """docs/rules.md 6: "belote" goes with the first of the trump K and Q held together."""
    hands = [cards("KH QH 7D"), cards("7S 8S 9C"), cards("9S TS TC"), cards("JS QS JC")]

    def position() -> DealState:
        return DealState.from_position(
            MAISON, contract=Contract(N, Strain.HEARTS), hands=hands, leader=N
        )

    reason = refused(position, Play(N, parse_card("7D"), belote=True), "belote_not_held", {})
    assert "first of the trump king and queen" in reason.message

    def after_queen() -> DealState:
        state = position().apply(Play(N, parse_card("QH"), belote=True))
        for seat, card in ((E, "7S"), (S, "9S"), (W, "JS")):
            state = state.apply(Play(seat, parse_card(card)))
        return state

    assert after_queen().to_move == N
    refused(after_queen, Play(N, parse_card("KH"), belote=True), "belote_not_held", {})


def test_no_belote_in_no_trump_and_knob_in_all_trump() -> None:
    """docs/rules.md 6: none in no-trump; in all-trump only with belote_in_all_trump."""
    for strain, knob, points in (
        (Strain.NO_TRUMP, False, 0),
        (Strain.NO_TRUMP, True, 0),
        (Strain.ALL_TRUMP, False, 0),
        (Strain.ALL_TRUMP, True, 20),
    ):
        rules = CARDAVIA.replace(belote_in_all_trump=knob)
        final = finish(belote_ending(rules, strain), Play(N, parse_card("QH")))
        assert final.result is not None
        assert final.result.belote == (points, 0), (strain, knob)


# ---------------------------------------------------------------------------------------------
# Announcements (docs/rules.md 7)
# ---------------------------------------------------------------------------------------------

# North: carré of kings + tierce TH JH QH (120); East: cinquante 7D-TD (50);
# South: tierce 7S-9S (20); West: nothing. Hearts are trump, North leads.
ANNOUNCE_HANDS = [
    cards("KS KH KD KC QH JH TH 7C"),
    cards("7D 8D 9D TD AS AH 8C 9C"),
    cards("7S 8S 9S QS 7H 8H JD QC"),
    cards("TS JS 9H QD AD TC JC AC"),
]


def announce_start(rules: Rules = MAISON) -> DealState:
    """West deals (the TH turned), North takes ♥; the first trick, nobody has played."""
    hands = {seat: str(hand) for seat, hand in zip(Seat, ANNOUNCE_HANDS, strict=True)}
    deck = classic_deck(hands, dealer=W, taker=N, turned="TH")
    state = DealState.from_deck(rules, dealer=W, deck=deck).apply(Take(N, Strain.HEARTS))
    assert [state.hand(s) for s in Seat] == ANNOUNCE_HANDS
    return state


def announce_three() -> DealState:
    """North, East and South have announced with their first card; West is to play."""
    state = announce_start()
    for seat, card in ((N, "KS"), (E, "AS"), (S, "7S")):
        state = state.apply(Play(seat, parse_card(card), announce=True))
    return state


def announce_trick_one() -> DealState:
    """The first trick is over: East won it with the AS."""
    return announce_three().apply(Play(W, parse_card("TS")))


def names(items: Sequence[Announcement]) -> list[tuple[str, int, str]]:
    """Each announcement as (name, points, cards)."""
    return [(a.name, a.points, str(a.card_set)) for a in items]


def test_best_set_proposed() -> None:
    """docs/rules.md 7: when several combinations are possible the engine proposes the one worth
    most: North's carré of kings (100) and the tierce TH JH QH (20) beat the cinquante
    TH-KH (50)."""
    state = announce_start()
    assert names(state.best_announcements(N)) == [
        ("carré", 100, "KS KH KD KC"),
        ("tierce", 20, "TH JH QH"),
    ]
    assert names(state.best_announcements(E)) == [("cinquante", 50, "7D 8D 9D TD")]
    assert state.best_announcements(W) == ()
    # The announce flag is offered with every legal first card, with belote too (K–Q ♥).
    assert Play(N, parse_card("KS"), announce=True) in state.legal_actions
    assert Play(N, parse_card("KH"), announce=True, belote=True) in state.legal_actions
    assert announce_start(CARDAVIA).best_announcements(N) == ()


def test_announcements_heard_then_compared_after_the_first_trick() -> None:
    """docs/rules.md 7: at first only kind and value are said; the comparison comes after the
    first trick, and only the winning team's announcements are shown (its partner's too)."""
    state = announce_three()
    heard = [(d.seat, d.name, d.points) for d in state.observation(W).declarations]
    assert heard == [(N, "carré", 100), (N, "tierce", 20), (E, "cinquante", 50), (S, "tierce", 20)]
    assert state.announcement_winner is None
    assert state.observation(W).revealed == ()
    assert names(state.observation(E).own_announcements) == [("cinquante", 50, "7D 8D 9D TD")]

    state = announce_trick_one()
    assert state.tricks[0].winner == E
    assert state.announcement_winner == Team.NS  # carré 100 > cinquante 50
    for seat in Seat:
        observation = state.observation(seat)
        assert observation.announcement_winner == Team.NS
        revealed = [(s, str(a.card_set)) for s, a in observation.revealed]
        assert revealed == [(N, "KS KH KD KC"), (N, "TH JH QH"), (S, "7S 8S 9S")]


def test_announce_only_in_the_first_trick() -> None:
    """docs/rules.md 7: after the first trick it is too late; one without any announcement cannot
    announce; rules without announcements refuse the flag."""
    reason = refused(
        announce_trick_one, Play(E, parse_card("AH"), announce=True), "announce_too_late", {}
    )
    assert reason.message == "announcements are made with one's first card only"
    assert not any(isinstance(a, Play) and a.announce for a in announce_trick_one().legal_actions)
    reason = refused(
        announce_three, Play(W, parse_card("TS"), announce=True), "no_announcement", {"seat": "W"}
    )
    assert reason.message == "W has no announcement to make"
    refused(
        lambda: announce_start(CARDAVIA),
        Play(N, parse_card("KS"), announce=True),
        "no_announcements_in_rules",
        {},
    )


def test_announcements_scored_at_the_end() -> None:
    """docs/rules.md 8: the winners of the comparison score all their announcements:
    N 100 + 20 and S 20 = 140; EW's cinquante counts for nothing."""
    state = announce_trick_one()
    while not state.is_over:
        state = state.apply(state.legal_actions[0])
    assert state.result is not None
    assert state.result.announcement_winner == Team.NS
    assert state.result.announcements == (100 + 20 + 20, 0)


# ---------------------------------------------------------------------------------------------
# Observation: one seat's view (docs/rules.md 7; observation.py)
# ---------------------------------------------------------------------------------------------


def walk(value: object, seen: set[int] | None = None) -> Iterator[object]:
    """Every object reachable from ``value`` through dataclass fields, tuples and dicts."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if isinstance(value, Rules):
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from walk(getattr(value, f.name), seen)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from walk(item, seen)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from walk(item, seen)


def visible_cards(observation: Observation) -> CardSet:
    """Every card named anywhere in an observation."""
    found = 0
    for item in walk(observation):
        if isinstance(item, CardSet):
            found |= item.mask
        elif isinstance(item, Play):
            found |= 1 << item.card
        elif isinstance(item, Announcement):
            found |= item.cards
        elif isinstance(item, CompletedTrick):
            found |= CardSet(item.cards).mask
    for _, card in observation.trick:
        found |= 1 << card
    return CardSet(found)


def mid_deal() -> DealState:
    """The announcements deal, first trick over, East has led the AH of trump and South has
    followed with the 7H."""
    state = announce_trick_one()
    state = state.apply(Play(E, parse_card("AH")))
    return state.apply(Play(S, parse_card("7H")))


def test_observation_holds_no_other_hand() -> None:
    """observation.py: a seat sees its own hand and what is public; no other seat's unplayed
    card is reachable, save the announcements the comparison shows."""
    state = mid_deal()
    for seat in Seat:
        observation = state.observation(seat)
        assert observation.hand == state.hand(seat)
        assert observation.hand_sizes == tuple(len(state.hand(s)) for s in Seat)
        assert not any(isinstance(item, DealState) for item in walk(observation))
        assert not hasattr(observation, "deck") and not hasattr(observation, "hands")
        shown = CardSet()
        for _, announcement in observation.revealed:
            shown |= announcement.card_set
        others = CardSet().union(*(state.hand(s) for s in Seat if s != seat))
        leaked = visible_cards(observation) & others
        assert leaked <= shown, (seat, leaked)


def test_observation_is_the_same_whatever_the_hidden_cards() -> None:
    """observation.py: swap East's and West's hands: North's and South's views do not change;
    East's does."""
    hands = {seat: str(hand) for seat, hand in zip(Seat, ANNOUNCE_HANDS, strict=True)}
    swapped = {**hands, E: hands[W], W: hands[E]}
    states = []
    for layout in (hands, swapped):
        deck = classic_deck(layout, dealer=W, taker=N, turned="TH")
        state = DealState.from_deck(MAISON, dealer=W, deck=deck).apply(Take(N, Strain.HEARTS))
        states.append(state.apply(Play(N, parse_card("7C"))))
    one, two = states
    assert one != two
    assert one.observation(N) == two.observation(N)
    assert one.observation(S) == two.observation(S)
    assert one.observation(E) != two.observation(E)


def test_observation_of_a_position() -> None:
    """from_position states are for analysis: their observations must work too (no turned
    card is known there)."""
    hands = [cards("7S 8S"), cards("9S TS"), cards("JS QS"), cards("KS AS")]
    state = DealState.from_position(
        MAISON, contract=Contract(N, Strain.HEARTS), hands=hands, leader=N
    )
    view = state.observation(N)
    assert view.turned_card is None
    assert view.hand == hands[0]


def test_observation_during_classic_bidding() -> None:
    """docs/rules.md 3: the turned card is public; the other hands are not."""
    deck = list(ORDERED)
    other = deck[:]
    other[3], other[9] = other[9], other[3]  # swap a card between East and West
    one = act(DealState.from_deck(MAISON, dealer=W, deck=deck), "N pass")
    two = act(DealState.from_deck(MAISON, dealer=W, deck=other), "N pass")
    view = one.observation(N)
    assert view.turned_card == parse_card("JD")
    assert view == two.observation(N)
    assert view.history == (Pass(N),)


def test_legal_actions_only_for_the_seat_to_move() -> None:
    """observation.py: legal_actions are offered only to the seat to move."""
    state = mid_deal()
    assert state.to_move == W
    assert state.observation(W).legal_actions == state.legal_actions
    for seat in (N, E, S):
        assert state.observation(seat).legal_actions == ()
    bidding = classic()
    assert bidding.observation(N).legal_actions == (Pass(N), Take(N, Strain.DIAMONDS))
    assert bidding.observation(E).legal_actions == ()


def test_observation_played_and_unseen() -> None:
    """observation.py: played is every card on the table or in a finished trick; unseen the
    rest that is not in one's hand."""
    state = mid_deal()
    view = state.observation(W)
    assert view.played == cards("KS AS 7S TS AH 7H")
    assert view.unseen == ~(view.hand | view.played)
    assert len(view.unseen) == 32 - 6 - 7


def test_card_choice_is_the_same_from_the_state_and_from_the_observation() -> None:
    """One answer to "which cards, and why not the others" (docs/rules.md 5): the state's and the
    observation of the seat to move agree on every position of random deals, and refusing a
    card gives the reason the state's check gives."""
    rng = random.Random(8)
    for preset in ("maison", "coinche", "cardavia"):
        state = DealState.deal(find_rules(preset), dealer=W, rng=rng)
        while not state.is_over:
            if state.phase == Phase.PLAYING:
                seat = state.to_move
                assert seat is not None
                choice = state.card_choice()
                view = state.observation(seat)
                assert view.is_my_turn_to_play
                assert view.card_choice() == choice
                assert choice.allowed == state.legal_cards()
                assert choice.allowed | choice.refused == state.hand(seat)
                for card in choice.hand:
                    assert choice.refusal(card) == state.refusal(Play(seat, card))
                other = state.observation(seat.next)
                assert not other.is_my_turn_to_play
                with pytest.raises(ValueError, match="not to play a card now"):
                    other.card_choice()
            state = state.apply(state.legal_actions[rng.randrange(len(state.legal_actions))])
    with pytest.raises(ValueError, match="no card is played now"):
        state.card_choice()


# ---------------------------------------------------------------------------------------------
# Immutability
# ---------------------------------------------------------------------------------------------


def test_apply_returns_a_new_state_and_leaves_the_old_one() -> None:
    """DealState is an immutable value: apply answers a new state."""
    state = classic()
    after = state.apply(Pass(N))
    assert after is not state
    assert state == classic()
    assert state.to_move == N and state.bids == ()
    assert after.to_move == E and after.bids == (Pass(N),)
    # In play too.
    playing = announce_start()
    next_state = playing.apply(Play(N, parse_card("KS")))
    assert playing == announce_start()
    assert playing.hand(N) == ANNOUNCE_HANDS[0]
    assert next_state.hand(N) == ANNOUNCE_HANDS[0] - cards("KS")


def test_values_are_frozen() -> None:
    """Every value of the engine refuses to be changed: a DealState is a named tuple, the
    other values frozen dataclasses."""
    state = mid_deal()
    with pytest.raises(AttributeError):
        state.phase = Phase.OVER  # type: ignore[misc]
    assert isinstance(state.hands, tuple) and isinstance(state.tricks, tuple)
    frozen: list[object] = [
        state.observation(N),
        state.contract,
        state.tricks[0],
        state.declared[N][0],
        Play(N, 0),
        Reason("must_follow", {"suit": "S"}),
        MAISON,
    ]
    for value in frozen:
        name = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["1H", "ZZ", "", "JHH", "10"])
def test_unknown_card_codes(bad: str) -> None:
    """docs/rules.md 1: an unknown code raises InvalidCardError (a ValueError)."""
    with pytest.raises(InvalidCardError):
        parse_card(bad)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "N",
        "X pass",
        "N dance",
        "N pass now",
        "N take",
        "N take Z",
        "N bid 85",
        "N bid lots H",
        "N bid 90 Z",
        "N ZZ",
        "N JH +sing",
        "N JH +belote +belote",
        "N JH announce",
    ],
)
def test_parse_action_errors(bad: str) -> None:
    """Text that describes no action raises InvalidActionError (a ValueError)."""
    with pytest.raises(InvalidActionError):
        parse_action(bad)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("N pass", Pass(N)),
        ("e take h", Take(E, Strain.HEARTS)),
        ("S bid 90 NT", Bid(S, 90, Strain.NO_TRUMP)),
        ("W bid capot S", Bid(W, CAPOT, Strain.SPADES)),
        ("W bid générale S", Bid(W, 500, Strain.SPADES)),
        ("N coinche", Coinche(N)),
        ("E surcoinche", Surcoinche(E)),
        ("S JH", Play(S, parse_card("JH"))),
        ("S 10h +belote +announce", Play(S, parse_card("TH"), announce=True, belote=True)),
    ],
)
def test_parse_action(text: str, action: Action) -> None:
    """The text form of the actions, and back."""
    assert parse_action(text) == action
    assert parse_action(str(action)) == action


def test_card_not_in_hand() -> None:
    """A card the player does not hold is refused."""
    reason = refused(
        announce_start, Play(N, parse_card("AS")), "not_in_hand", {"card": "AS", "seat": "N"}
    )
    assert reason.message == "the ace of spades is not in N's hand"


@pytest.mark.parametrize(
    ("make", "action", "args"),
    [
        (announce_start, Play(E, parse_card("AS")), {"seat": "E", "to_move": "N"}),
        (classic, Pass(E), {"seat": "E", "to_move": "N"}),
        (classic, Take(S, Strain.DIAMONDS), {"seat": "S", "to_move": "N"}),
        (auction, Bid(W, 80, Strain.SPADES), {"seat": "W", "to_move": "N"}),
    ],
)
def test_out_of_turn(make: Callable[[], DealState], action: Action, args: dict[str, str]) -> None:
    """docs/rules.md 2: each acts in turn."""
    refused(make, action, "not_your_turn", args)


@pytest.mark.parametrize(
    ("make", "action", "phase"),
    [
        (classic, Play(N, 0), "bidding"),
        (auction, Play(N, 0), "bidding"),
        (announce_start, Pass(N), "playing"),
        (announce_start, Bid(N, 80, Strain.HEARTS), "playing"),
        (announce_start, Take(N, Strain.HEARTS), "playing"),
    ],
)
def test_wrong_phase(make: Callable[[], DealState], action: Action, phase: str) -> None:
    """docs/rules.md 4-5: bids in the bidding, cards in the play."""
    reason = refused(make, action, "wrong_phase", {"phase": phase})
    assert reason.message == f"that cannot be done now: the deal is {phase}"


def test_nothing_once_the_deal_is_over() -> None:
    """docs/rules.md 8: a scored deal takes no more actions."""

    def over() -> DealState:
        return finish(belote_ending(CARDAVIA), Play(N, parse_card("QH")))

    assert over().phase == Phase.OVER
    refused(over, Play(N, parse_card("QH")), "wrong_phase", {"phase": "over"})
    refused(over, Pass(N), "wrong_phase", {"phase": "over"})


@pytest.mark.parametrize("bad", ["N pass", None, 3, ("N", "pass")])
def test_not_an_action(bad: object) -> None:
    """Anything but an action object is refused, not crashed on."""
    refused(classic, bad, "not_an_action", {"action": repr(bad)[:40]})


def test_refusals_in_the_play_keep_the_state() -> None:
    """docs/rules.md 5: a card the rules refuse raises with its reason and changes nothing."""

    def after_lead() -> DealState:
        return announce_start().apply(Play(N, parse_card("KS")))

    # East holds the AS: must follow spades.
    refused(after_lead, Play(E, parse_card("7D")), "must_follow", {"suit": "S"})


def test_bids_too_low_and_coinche_by_the_wrong_team_keep_the_state() -> None:
    """docs/rules.md 4: the auction's refusals change nothing either."""
    refused(
        lambda: auction("N bid 100 S"), Bid(E, 90, Strain.HEARTS), "bid_too_low", {"value": "100"}
    )
    refused(lambda: auction("N bid 100 S", "E pass"), Coinche(S), "cannot_coinche", {})
