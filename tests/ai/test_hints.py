"""Hints: the expert's action and one reason, from the seat's observation only."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from cardavia.ai.hints import REASONS, hint, hint_data, play_reason
from cardavia.ai.levels import find_player
from cardavia.belote import DealState, Observation, Play, Seat, find_rules
from cardavia.belote.auction import Contract
from cardavia.belote.cards import parse_card
from cardavia.belote.game import Phase, deal_packets
from cardavia.belote.play import Strain, values_for

Views = Callable[[DealState, Seat, Seat, Seat], tuple[Observation, Observation]]


def mask(codes: str) -> int:
    return sum(1 << parse_card(code) for code in codes.split())


@pytest.fixture(scope="module")
def club_deal() -> list[DealState]:
    """Every state of a coinche deal played by four club players."""
    rules = find_rules("coinche")
    club = find_player("club")
    rng = random.Random(3)
    state = DealState.deal(rules, dealer=Seat.W, rng=rng)
    states = [state]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = state.apply(club.decide(state.observation(seat), rng))
        states.append(state)
    assert state.contract is not None
    return states


def test_swapped_hidden_hands_give_the_same_hint(
    club_deal: list[DealState], swapped_views: Views
) -> None:
    for state in club_deal:
        if state.phase is not Phase.PLAYING or state.trick or len(state.tricks) not in (1, 3, 5):
            continue
        seat = state.to_move
        assert seat is not None
        one, two = swapped_views(state, seat, seat.next, seat.next.partner)
        assert hint(one, 4) == hint(two, 4)


@pytest.mark.slow  # a hint's search at every turn
def test_every_turn_has_a_legal_hint_with_a_known_reason(club_deal: list[DealState]) -> None:
    for state in club_deal[::3]:
        if state.is_over:
            continue
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        given = hint(observation, 1)
        assert given.action in observation.legal_actions
        assert given.reason.code in REASONS
        assert given == hint(observation, 1)
        data = hint_data(given)
        assert data["action"] == str(given.action)
        assert data["reason"]["code"] == given.reason.code


def _position(hands: tuple[str, str, str, str], trick: str, taker: Seat) -> DealState:
    state = DealState.from_position(
        find_rules("cardavia"),
        contract=Contract(taker, Strain.HEARTS),
        hands=tuple(mask(h) for h in hands),
        leader=Seat.N,
    )
    for code in trick.split():
        seat = state.to_move
        assert seat is not None
        state = state.apply(Play(seat, parse_card(code)))
    return state


def test_a_card_that_cannot_be_changed() -> None:
    state = _position(("AS 7D", "7S 8D", "8S 7C", "9S 9D"), "AS 7S", Seat.E)
    given = hint(state.observation(Seat.S), 0)
    assert given.action == Play(Seat.S, parse_card("8S"))
    assert given.reason.code == "only_card"


def test_partner_holds_the_trick() -> None:
    """N's ace of spades holds the trick: S follows with a spade that does not beat it."""
    state = _position(("AS 7D", "7S 8D", "8S TS", "9S 9D"), "AS 7S", Seat.E)
    given = hint(state.observation(Seat.S), 0)
    assert isinstance(given.action, Play) and given.action.card in (
        parse_card("8S"),
        parse_card("TS"),
    )
    assert given.reason.code == "partner_holds_trick"
    assert given.reason.arg("card") in ("8S", "TS")


def test_the_nine_of_trumps_kept_guarded() -> None:
    """A defender holding the 9 and 7 of hearts, the jack still out, leads a spade."""
    state = _position(("9H 7H AS", "JH 8S 7D", "8H 9S 8D", "TH TS 9D"), "", Seat.E)
    observation = state.observation(Seat.N)
    card_values = values_for(observation.rules, Strain.HEARTS)
    values = {parse_card("AS"): 20.0, parse_card("9H"): 5.0, parse_card("7H"): 0.0}
    reason = play_reason(observation, parse_card("AS"), values, card_values)
    assert reason.code == "keeps_trump_nine_guarded"
    assert dict(reason.args) == {"card": "AS", "gain": 15.0}
    # Leading the master card when the nine is not at stake.
    bare = _position(("7H QS AS", "JH 8S 7D", "8H 9S 8D", "TH TS 9D"), "", Seat.E)
    obs = bare.observation(Seat.N)
    reason = play_reason(
        obs, parse_card("AS"), {parse_card("AS"): 1.0, parse_card("QS"): 0.0}, card_values
    )
    assert reason.code == "cashes_master"


def test_a_bid_hint() -> None:
    state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(5))
    observation = state.observation(Seat.N)
    given = hint(observation, 2)
    assert given.action in observation.legal_actions
    assert given.reason.code in ("bid_pays", "pass_pays")


def test_swapped_hidden_hands_give_the_same_bid_hint() -> None:
    """The same deal with E's and W's cards exchanged: N, first to bid, sees the same."""
    rules = find_rules("coinche")
    deck = list(DealState.deal(rules, dealer=Seat.W, rng=random.Random(9)).deck)
    packets = [int(n) for n in rules.auction_packets.split("-")]
    places, _ = deal_packets(Seat.W, list(range(32)), packets)
    east = [i for i in range(32) if places[Seat.E] >> i & 1]
    west = [i for i in range(32) if places[Seat.W] >> i & 1]
    swapped = list(deck)
    for e, w in zip(east, west, strict=True):
        swapped[e], swapped[w] = deck[w], deck[e]
    one, two = (DealState.from_deck(rules, dealer=Seat.W, deck=d) for d in (deck, swapped))
    assert one.hands[Seat.E] == two.hands[Seat.W]
    assert one.observation(Seat.N) == two.observation(Seat.N)
    assert hint(one.observation(Seat.N), 6) == hint(two.observation(Seat.N), 6)
