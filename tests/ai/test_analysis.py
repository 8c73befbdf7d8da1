"""The analysis of a finished deal: each card's cost in the deal's score, double-dummy and
from its seat's view; mistakes, bad luck, the moments of the deal, the bidding."""

from __future__ import annotations

import json
import random

import pytest

from cardavia.ai.analysis import (
    MISTAKE_MARGIN,
    DealFacts,
    analyse,
    analyse_play,
    analysis_data,
    best_line,
    review_card,
    text_report,
)
from cardavia.ai.levels import find_player
from cardavia.ai.player import play_deal, with_declarations
from cardavia.belote import DealState, Play, Seat, find_rules
from cardavia.belote.auction import Contract
from cardavia.belote.cards import Team, card_code, parse_card
from cardavia.belote.notation import Record
from cardavia.belote.play import Strain


def mask(codes: str) -> int:
    return sum(1 << parse_card(code) for code in codes.split())


def endgame(strain: Strain, taker: Seat, hands: tuple[str, str, str, str]) -> DealState:
    """The last two tricks of a classic deal, N to lead (its score counts what is played)."""
    return DealState.from_position(
        find_rules("cardavia"),
        contract=Contract(taker, strain),
        hands=tuple(mask(h) for h in hands),
        leader=Seat.N,
    )


def engine_margin(state: DealState, card: int, team: Team) -> int:
    """The deal's score margin of ``team`` when ``card`` is played from ``state`` and the
    rest is played double-dummy, scored by the engine itself."""
    seat = state.to_move
    assert seat is not None
    after = state.apply(with_declarations(state.observation(seat), card))
    _, final = best_line(after)
    assert final.result is not None
    scores = final.result.scores
    return scores[team] - scores[team.other]


# N defends W's clubs: it must lead the 7 of hearts, not its king of trumps.
DEFENCE = (Strain.CLUBS, Seat.W, ("7H KC", "KH QD", "9S 7C", "TS 9H"))

# N's hearts: the 10 of diamonds is best on the worlds N can imagine, the 8 of trumps in the
# actual deal (W holds the 10 of trumps and no diamond).
UNLUCKY = (Strain.HEARTS, Seat.N, ("8H TD", "9C KC", "AH QD", "JS TH"))


def test_the_analysis_names_the_best_card_and_its_exact_cost() -> None:
    state = endgame(*DEFENCE)
    review = review_card(state, parse_card("KC"), number=0, facts=DealFacts(), seed=1, worlds=40)
    assert review.seat == Seat.N
    assert review.double_dummy_best == parse_card("7H")
    assert review.seat_view_best == parse_card("7H")
    # The cost, exactly: the engine's own scores of the two double-dummy lines.
    best = engine_margin(state, parse_card("7H"), Team.NS)
    played = engine_margin(state, parse_card("KC"), Team.NS)
    assert (best, played) == (162, -17)
    assert review.double_dummy_cost == best - played == 179
    assert review.seat_view_cost > review.double_dummy_cost / 4
    assert review.verdict == "mistake"
    good = review_card(state, parse_card("7H"), number=0, facts=DealFacts(), seed=1, worlds=40)
    assert (good.double_dummy_cost, good.seat_view_cost, good.verdict) == (0, 0.0, "best")


def test_best_in_expectation_but_losing_double_dummy_is_bad_luck() -> None:
    state = endgame(*UNLUCKY)
    review = review_card(state, parse_card("TD"), number=0, facts=DealFacts(), seed=1, worlds=40)
    assert review.seat_view_best == parse_card("TD")
    assert review.seat_view_cost == 0.0
    assert review.double_dummy_best == parse_card("8H")
    assert review.double_dummy_cost == engine_margin(state, parse_card("8H"), Team.NS) - (
        engine_margin(state, parse_card("TD"), Team.NS)
    )
    assert review.double_dummy_cost > 100
    assert review.verdict == "bad_luck"
    # The card that won in the deal was worse from N's view, beyond the margin but within
    # the worlds' noise: unclear, neither a mistake nor bad luck.
    lucky = review_card(state, parse_card("8H"), number=0, facts=DealFacts(), seed=1, worlds=40)
    assert lucky.double_dummy_cost == 0
    assert lucky.seat_view_best == parse_card("TD")
    assert MISTAKE_MARGIN < lucky.seat_view_cost < 2 * lucky.seat_view_error
    assert lucky.verdict == "unclear"


def test_the_seat_view_reads_no_hidden_card() -> None:
    """W and E hold each other's cards: N's view of its lead is the same."""
    strain, taker, hands = UNLUCKY
    swapped = (hands[0], hands[3], hands[2], hands[1])
    one, two = (
        review_card(
            endgame(strain, taker, h), parse_card("TD"), number=0, facts=DealFacts(), seed=3
        )
        for h in (hands, swapped)
    )
    assert endgame(strain, taker, hands).observation(Seat.N) == endgame(
        strain, taker, swapped
    ).observation(Seat.N)
    assert [v.seat_view for v in one.values] == [v.seat_view for v in two.values]
    assert one.seat_view_best == two.seat_view_best


@pytest.mark.parametrize("seed", range(6))
def test_double_dummy_values_are_the_engines_scores(seed: int) -> None:
    """On random three-trick endgames, each legal card's double-dummy value is the score the
    engine gives the line it starts."""
    rng = random.Random(seed)
    cards = rng.sample(range(32), 12)
    hands = tuple(sum(1 << c for c in cards[i * 3 : i * 3 + 3]) for i in range(4))
    rules = find_rules(("cardavia", "coinche", "maison")[seed % 3])
    state = DealState.from_position(
        rules,
        contract=Contract(
            Seat(seed % 4), Strain(seed % 4), 80 if rules.bidding == "auction" else None
        ),
        hands=hands,
        leader=Seat.N,
    )
    for card in state.legal_cards():
        review = review_card(state, card, number=0, facts=DealFacts(), seed=seed, worlds=2)
        value = next(v.double_dummy for v in review.values if v.card == card)
        assert value == engine_margin(state, card, Team.NS)


def test_the_moments_give_the_better_card_and_its_line() -> None:
    state = endgame(*DEFENCE)
    actions = [Play(Seat.N, parse_card("KC"))]
    after = state.apply(actions[0])
    line, _ = best_line(after)
    actions += [Play(seat, card) for seat, card in line]
    analysis = analyse_play(state, actions, seed=1, worlds=40)
    assert len(analysis.cards) == 8
    assert analysis.cards[0].verdict == "mistake"
    (moment,) = analysis.moments
    assert (moment.number, moment.played, moment.better) == (0, parse_card("KC"), parse_card("7H"))
    assert moment.cost == 179
    assert moment.line[0] == (Seat.N, parse_card("7H"))
    assert len(moment.line) == 8
    assert moment.scores[0] - moment.scores[1] == 162


@pytest.fixture(scope="module")
def club_deal() -> Record:
    """A coinche deal played by four club players."""
    rules = find_rules("coinche")
    club = find_player("club")
    for seed in range(20):
        state = play_deal(
            DealState.deal(rules, dealer=Seat.W, rng=random.Random(seed)), [club] * 4,
            random.Random(seed),
        )  # fmt: skip
        if state.contract is not None:
            return Record.from_deal(state)
    raise AssertionError("no deal was played")


@pytest.mark.slow  # a whole deal analysed twice
def test_a_whole_deal_is_analysed_the_same_from_a_seed(club_deal: Record) -> None:
    one = analyse(club_deal, seed=5)
    assert len(one.cards) == 32
    assert [r.number for r in one.cards] == list(range(32))
    assert one == analyse(club_deal, seed=5)
    assert one.scores == club_deal.replay().deals[-1].result.scores  # type: ignore[union-attr]
    for review in one.cards:
        legal = [v.card for v in review.values]
        assert review.card in legal
        if review.verdict == "forced":
            assert len(legal) == 1
        assert review.double_dummy_cost >= 0 and review.seat_view_cost >= 0
        assert (review.verdict == "mistake") == (
            review.seat_view_cost > max(one.margin, 2 * review.seat_view_error)
        )
        assert (review.verdict in ("mistake", "unclear")) == (review.seat_view_cost > one.margin)
        if review.verdict == "bad_luck":
            assert review.double_dummy_cost > 0
    # The last card's double-dummy value is the deal's actual score margin.
    last = one.cards[-1]
    team = last.seat.team
    assert last.values[0].double_dummy == one.scores[team] - one.scores[team.other]
    # Each seat's summary adds up its cards.
    assert sum(one.summary(seat).cards for seat in Seat) == 32
    assert sum(one.summary(seat).mistakes for seat in Seat) == len(one.mistakes)
    # The last trick is forced; the first lead is not.
    assert all(r.verdict == "forced" for r in one.cards[28:])
    assert one.moments == tuple(sorted(one.moments, key=lambda m: m.number))
    # Every bidding turn is reviewed, and every strain for both sides.
    assert len(one.bids) == sum(1 for a in club_deal.deals[-1].actions if not isinstance(a, Play))
    assert {(c.strain, c.team) for c in one.contracts} == {
        (s, t) for s in Strain if s < 4 for t in Team
    }
    data = analysis_data(one)
    assert json.loads(json.dumps(data)) == data
    assert [c["card"] for c in data["cards"]] == [card_code(r.card) for r in one.cards]
    assert set(data["seats"]) == {"N", "E", "S", "W"}
    text = text_report(one)
    assert text.startswith("Contract ")
    assert text.count("\n  ") >= 32
