"""The analysis's cost figures as a player reads them: one figure a card, in points of deal
score its side lost, the same in the list of moments and in the verdict's sentence, and never
beyond what the deal could be worth (the coinche's multiplier and capots included)."""

from __future__ import annotations

import random

import pytest

from cardavia.ai.analysis import analyse, analysis_data, deal_worth
from cardavia.ai.levels import find_player
from cardavia.ai.player import play_deal
from cardavia.belote import DealState, Record, Seat, find_rules
from cardavia.teach import learning
from cardavia.words import rules_text

pytestmark = pytest.mark.slow  # whole deals analysed


def played_deals(rules_name: str, count: int) -> list[tuple[DealState, Record]]:
    """Deals with a contract, played by the club level (which coinches) from fixed seeds."""
    rules = find_rules(rules_name)
    club = find_player("club")
    deals = []
    for seed in range(200):
        state = play_deal(
            DealState.deal(rules, dealer=Seat(seed % 4), rng=random.Random(seed)), [club] * 4,
            random.Random(seed),
        )  # fmt: skip
        if state.contract is not None:
            deals.append((state, Record.from_deal(state)))
        if len(deals) == count:
            break
    return deals


@pytest.mark.parametrize(("rules_name", "count"), [("coinche", 8), ("maison", 4)])
def test_no_cost_exceeds_what_the_deal_could_be_worth(rules_name: str, count: int) -> None:
    text = rules_text("fr")
    costly = 0
    for state, record in played_deals(rules_name, count):
        assert state.result is not None
        worth = deal_worth(state)
        assert worth >= max(state.result.scores)
        worded = learning.word_analysis(analysis_data(analyse(record, seed=0, worlds=8)), text)
        for card in worded["cards"]:
            assert 0 <= card["lost"] <= worth, (card, worth)
            if card["verdict"] in ("best", "forced"):
                assert card["lost"] == 0
            if card["lost"] > 1 and card["verdict"] != "unclear":
                costly += 1
                # The verdict's sentence says the card's one figure.
                assert str(card["lost"]) in card["text"]
        for moment in worded["moments"]:
            card = next(c for c in worded["cards"] if c["number"] == moment["number"])
            assert moment["lost"] == card["lost"] and moment["why"] == card["text"]
    assert costly, "no deal had a costly card: the test shows nothing"


def test_a_cost_is_half_the_score_margin_it_moved() -> None:
    review = {"verdict": "bad_luck", "double_dummy": {"cost": 324}, "seat_view": {"cost": 3.0}}
    assert learning.points_lost(review) == 162
    review = {"verdict": "mistake", "double_dummy": {"cost": 0}, "seat_view": {"cost": 41.2}}
    assert learning.points_lost(review) == 21
    assert learning.points_lost(review | {"verdict": "best"}) == 0
