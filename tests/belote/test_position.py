"""The one position value (cardavia.belote.position): built and checked in one place, the
same for the engine (DealState.from_position, DealState.position), the solver and the query."""

from __future__ import annotations

import random

import pytest

from cardavia.belote import (
    CardSet,
    Contract,
    DealState,
    Play,
    Position,
    Seat,
    Strain,
    find_rules,
    parse_card,
)

MAISON = find_rules("maison")
N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def hands(*codes: str) -> list[CardSet]:
    return [CardSet.parse(text) for text in codes]


def test_a_position_holds_its_rules() -> None:
    """The position carries the whole rule set, not a copy of some knobs."""
    rules = MAISON.replace(undertrump="optional")
    position = Position.from_rules(rules, Strain.SPADES, hands("AS", "TS", "7S", "KS"), leader=N)
    assert position.rules is rules
    assert position.values.strain == Strain.SPADES


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"hands": hands("AS", "AS", "7S", "KS")}, "disjoint"),
        ({"hands": hands("AS 9S", "", "7S", "KS")}, "E holds 0 cards, not 2"),
        ({"hands": hands("", "", "", "")}, "N is to play but holds no card"),
        ({"tricks_won": (4, 4)}, "more than eight in the deal"),
        ({"trick": [(E, parse_card("8S"))]}, "the leader is N, but E led the trick"),
        ({"leader": None}, "an empty table needs a leader"),
        ({"trick": [(N, parse_card("AS"))]}, "both in N's hand and in the trick"),
    ],
)
def test_a_bad_position_is_refused_with_the_reason(change: dict[str, object], words: str) -> None:
    args: dict[str, object] = {
        "hands": hands("AS", "TS", "7S", "KS"),
        "leader": N,
        "trick": (),
        "tricks_won": (0, 0),
    }
    args.update(change)
    with pytest.raises(ValueError, match=words):
        Position.from_rules(
            MAISON,
            Strain.SPADES,
            args["hands"],  # type: ignore[arg-type]
            trick=args["trick"],  # type: ignore[arg-type]
            leader=args["leader"],  # type: ignore[arg-type]
            tricks_won=args["tricks_won"],  # type: ignore[arg-type]
        )


def test_the_engine_refuses_the_same_positions() -> None:
    """DealState.from_position builds its Position, so it gives the same reasons."""
    with pytest.raises(ValueError, match="E holds 0 cards, not 2"):
        DealState.from_position(
            MAISON, contract=Contract(N, Strain.SPADES), hands=hands("AS 9S", "", "7S", "KS")
        )


def test_trick_refusal_names_the_card_that_could_not_be_played() -> None:
    """docs/rules.md 5.1: E showed a heart on a spade lead while holding a spade."""
    position = Position.from_rules(
        MAISON,
        Strain.CLUBS,
        hands("7D", "9S", "8D 7H", "KD"),
        trick=[(W, parse_card("AS")), (N, parse_card("8S")), (E, parse_card("AH"))],
    )
    refused = position.trick_refusal()
    assert refused is not None
    seat, card, reason = refused
    assert (seat, card, reason.code) == (E, parse_card("AH"), "must_follow")
    fine = Position.from_rules(MAISON, Strain.CLUBS, hands("AS", "TS", "7S", "KS"), leader=N)
    assert fine.trick_refusal() is None


def test_the_state_position_follows_the_play() -> None:
    """DealState.position is the same value as the solver's play of the same cards."""
    state = DealState.deal(MAISON, dealer=W, rng=random.Random(3))
    state = state.apply(state.legal_actions[1])  # N takes the turned card's suit
    position = state.position()
    assert position.rules is state.rules
    while True:
        seat = state.to_move
        assert seat is not None
        assert position.legal_cards() == state.legal_cards()
        card = min(state.legal_cards())
        state = state.apply(Play(seat, card))
        if state.is_over:
            break
        position = position.play(card)
        assert position == state.position()
    with pytest.raises(ValueError, match="not in its play"):
        state.position()
