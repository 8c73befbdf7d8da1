"""Bidding by simulation (strong and expert): legal, reproducible, blind to hidden cards,
scoring as the engine scores, and not worse than the club player's bidding."""

from __future__ import annotations

import random
import statistics

import pytest

from cardavia.ai import bidding, find_player
from cardavia.ai.arena import play_pair
from cardavia.ai.bidding import (
    EXPERT_BIDDING,
    STRONG_BIDDING,
    BiddingBudget,
    bid_by_simulation,
    candidates,
    choose,
    deck_of,
    draw_worlds,
    likelihood,
    made_chance,
    outcome_scores,
    play_means,
    risk_appetite,
    threshold,
)
from cardavia.ai.club import ClubPlayer
from cardavia.ai.expert import ExpertPlayer
from cardavia.ai.strong import StrongPlayer
from cardavia.belote import DealState, Seat, find_rules
from cardavia.belote.actions import Bid, Coinche, Pass, Take, parse_action
from cardavia.belote.cards import CardSet, Team, parse_card
from cardavia.belote.game import Phase
from cardavia.belote.play import LAST_TRICK_BONUS, Strain, values_for
from cardavia.belote.rules import PRESETS, Rules

QUICK = BiddingBudget(worlds=6, playouts=64, nodes=150_000)
"""A small budget: the tests check the mechanics, not the strength."""

KNOBS = [
    {},
    {"round2_contracts": True, "auction_contracts": True},
    {"top_bids": "generale", "coinche_any_time": True},
    {"tie": "failed", "belote_on_failure": "to_defenders", "rounding": "nearest_ten"},
]


def _rules(name: str, knobs: dict[str, object]) -> Rules:
    return find_rules(name).replace(**knobs)


def _bid_to_the_end(state: DealState, players: list[StrongPlayer], rng: random.Random) -> None:
    """Bid a deal with the simulation at every seat, each action checked legal."""
    while state.phase is Phase.BIDDING:
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        action = players[seat].decide(observation, rng)
        assert action in observation.legal_actions, (str(action), observation.history)
        state = state.apply(action)


@pytest.mark.slow  # the search levels bid whole deals
@pytest.mark.parametrize("knobs", KNOBS, ids=["plain", "contracts", "generale", "scoring"])
@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_every_bid_is_legal(rules_name: str, knobs: dict[str, object]) -> None:
    """Many random auctions under every preset and bidding knob: always a legal action."""
    rules = _rules(rules_name, knobs)
    rng = random.Random(f"{rules_name}{sorted(knobs)}")
    strong = StrongPlayer(bidding=QUICK)
    expert = ExpertPlayer(bidding=BiddingBudget(worlds=4, playouts=32, nodes=0))
    for index in range(20):
        state = DealState.deal(rules, dealer=Seat(index % 4), rng=rng)
        _bid_to_the_end(state, [strong, expert, strong, expert], rng)


@pytest.mark.slow  # searches
def test_the_levels_bid_legally_with_their_own_budgets() -> None:
    """The default budgets of both levels, a few auctions of each system."""
    assert find_player("strong").bidding_budget() == STRONG_BIDDING  # type: ignore[attr-defined]
    assert find_player("expert").bidding_budget() == EXPERT_BIDDING  # type: ignore[attr-defined]
    for name in ("coinche", "maison"):
        rules = find_rules(name).replace(round2_contracts=True, auction_contracts=True)
        rng = random.Random(name)
        players = [StrongPlayer(), ExpertPlayer()] * 2
        for index in range(3):
            _bid_to_the_end(DealState.deal(rules, dealer=Seat(index), rng=rng), players, rng)


def _auction_positions(rules: Rules, count: int, seed: int) -> list[DealState]:
    """States in the middle of the bidding, reached by the club player's bids."""
    rng = random.Random(seed)
    club = ClubPlayer()
    states = []
    while len(states) < count:
        state = DealState.deal(rules, dealer=Seat(rng.randrange(4)), rng=rng)
        while state.phase is Phase.BIDDING:
            seat = state.to_move
            assert seat is not None
            observation = state.observation(seat)
            if len(observation.legal_actions) > 1:
                states.append(state)
            state = state.apply(club.decide(observation, rng))
    return states[:count]


@pytest.mark.parametrize("rules_name", ["coinche", "maison"])
def test_the_same_seed_gives_the_same_bid(rules_name: str) -> None:
    for state in _auction_positions(find_rules(rules_name), 10, seed=4):
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        one = bid_by_simulation(observation, random.Random(9), QUICK)
        two = bid_by_simulation(observation, random.Random(9), QUICK)
        assert one == two


def _swap_hidden(state: DealState, rng: random.Random) -> DealState:
    """The same bidding with two other seats' hands exchanged and, at classic tables, the
    stock reshuffled: what the seat to move sees is unchanged."""
    seat = state.to_move
    assert seat is not None
    hands = list(state.initial().hands)
    first, second = (seat + 1) & 3, (seat + 3) & 3
    hands[first], hands[second] = hands[second], hands[first]
    turned = state.turned_card
    stock = list(state.deck[21:]) if turned is not None else []
    rng.shuffle(stock)
    deck = deck_of(state.rules, state.dealer, hands, turned, stock)
    return DealState.from_deck(state.rules, dealer=state.dealer, deck=deck).replay(state.bids)


@pytest.mark.parametrize("rules_name", ["coinche", "cardavia"])
def test_a_bid_depends_on_the_observation_only(rules_name: str) -> None:
    """Exchange two hidden hands (and reshuffle the stock): the seat sees the same thing and,
    under the same seed, bids the same."""
    rng = random.Random(5)
    compared = 0
    for state in _auction_positions(find_rules(rules_name), 12, seed=7):
        seat = state.to_move
        assert seat is not None
        other = _swap_hidden(state, rng)
        assert other.hands != state.hands
        views = [state.observation(seat), other.observation(seat)]
        assert views[0] == views[1]
        one, two = (StrongPlayer(bidding=QUICK).decide(v, random.Random(2)) for v in views)
        assert one == two
        compared += 1
    assert compared == 12


def test_the_deck_of_a_world_deals_its_hands() -> None:
    """A world's hands and stock make a deck that the engine deals back to those hands."""
    for name in ("maison", "coinche"):
        rules = find_rules(name)
        state = DealState.deal(rules, dealer=Seat.E, rng=random.Random(3))
        for world in draw_worlds(state.observation(Seat.S), random.Random(1), QUICK):
            assert world.state.hands[Seat.S] == state.hands[Seat.S]
            assert world.state.turned_card == state.turned_card
            assert sorted(world.state.deck) == list(range(32))


def test_bids_weigh_the_worlds() -> None:
    """The partner bid 130 hearts: in the worlds drawn it holds what the club player opens
    130 with, far above a random hand."""
    rules = find_rules("coinche")
    state = DealState.deal(rules, dealer=Seat.W, rng=random.Random(21))
    # N opens 130 hearts whatever it holds; E passes; S, its partner, is to bid.
    state = state.apply(Bid(Seat.N, 130, Strain.HEARTS)).apply(Pass(Seat.E))
    observation = state.observation(Seat.S)
    informed = draw_worlds(observation, random.Random(2), BiddingBudget(worlds=30))
    blind = draw_worlds(observation, random.Random(2), BiddingBudget(worlds=30, inference=0))

    def hearts(world: bidding.World) -> float:
        return float(bidding._hand_value(world.state.hands[Seat.N], Strain.HEARTS, False))

    assert statistics.fmean(map(hearts, informed)) > statistics.fmean(map(hearts, blind)) + 40
    bid = Bid(Seat.N, 130, Strain.HEARTS)
    # The club player's evaluation (its target) of these hands for hearts: 139, 108, 175.
    opening = CardSet.parse("JH 9H AH TH 8H AS AD 7C").mask
    short = CardSet.parse("JH 9H AH KH AS 7D 7C 8S").mask
    monster = CardSet.parse("JH 9H AH TH KH QH AS AD").mask
    weak = CardSet.parse("7H 8H 7S 8S 7D 8D 7C 8C").mask
    assert likelihood(observation, opening, (), bid) == 1.0
    assert likelihood(observation, short, (), bid) < 0.01
    assert likelihood(observation, weak, (), bid) < 1e-6
    assert likelihood(observation, monster, (), bid) < 0.01  # it would have bid more
    assert likelihood(observation, monster, (), Bid(Seat.N, 160, Strain.HEARTS)) == 1.0


def _finished_deals(rules: Rules, count: int, seed: int) -> list[DealState]:
    rng = random.Random(seed)
    club = ClubPlayer()
    deals = []
    while len(deals) < count:
        state = DealState.deal(rules, dealer=Seat(rng.randrange(4)), rng=rng)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            state = state.apply(club.decide(state.observation(seat), rng))
        if state.result is not None:
            deals.append(state)
    return deals


@pytest.mark.parametrize("knobs", KNOBS, ids=["plain", "contracts", "generale", "scoring"])
@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_outcome_scores_score_as_the_engine(rules_name: str, knobs: dict[str, object]) -> None:
    """The simulation's scoring of a deal from its takers' points, belote and
    announcements is the engine's (docs/rules.md 8), and the threshold is where the contract is
    made or failed."""
    rules = _rules(rules_name, knobs)
    checked = 0
    for deal in _finished_deals(rules, 40, seed=len(rules_name)):
        result = deal.result
        assert result is not None and deal.contract is not None
        contract = deal.contract
        takers = contract.team
        points = result.card_points[takers]
        if result.capot is None and points == 0:
            continue  # tricks won with no points in them: not a capot, read as one
        if contract.is_generale:
            continue
        deal_points = values_for(rules, contract.strain).total_points + LAST_TRICK_BONUS
        facts = {"belote": result.belote, "announcements": result.announcements}
        scores = outcome_scores(rules, contract, points, deal_points=deal_points, **facts)
        assert scores == (float(result.scores[0]), float(result.scores[1])), str(result)
        if result.made is not None and not contract.is_capot:
            need = threshold(rules, contract, deal_points=deal_points, **facts)
            assert result.made == (points >= need), (need, str(result))
        checked += 1
    assert checked >= 30


def test_a_hopeless_hand_passes_without_simulating(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(find_rules("coinche"), {Seat.N: "7S 8S 7H 8H 7D 8D 7C 8C"}, "")

    def no_worlds(*args: object, **kwargs: object) -> list[bidding.World]:
        raise AssertionError("a clear pass needs no simulation")

    monkeypatch.setattr(bidding, "draw_worlds", no_worlds)
    assert bid_by_simulation(state.observation(Seat.N), random.Random(1)) == Pass(Seat.N)


def _state(
    rules: Rules, hands: dict[Seat, str], actions: str, turned: str | None = None
) -> DealState:
    """A deal with some hands given (the other cards dealt in order), after ``actions``."""
    fixed = {seat: CardSet.parse(text).mask for seat, text in hands.items()}
    taken = sum(fixed.values()) | (1 << parse_card(turned) if turned else 0)
    rest = [c for c in range(32) if not taken >> c & 1]
    size = 5 if rules.bidding == "classic" else 8
    masks = []
    for seat in Seat:
        if seat in fixed:
            masks.append(fixed[seat])
        else:
            masks.append(sum(1 << c for c in rest[:size]))
            rest = rest[size:]
    deck = deck_of(rules, Seat.W, masks, parse_card(turned) if turned else None, rest)
    state = DealState.from_deck(rules, dealer=Seat.W, deck=deck)
    for text in filter(None, actions.split(",")):
        state = state.apply(parse_action(text))
    return state


def test_a_great_trump_hand_takes_and_a_great_defence_coinches() -> None:
    classic = find_rules("maison")
    state = _state(classic, {Seat.N: "JH 9H AH AS AC"}, "", turned="TH")
    assert StrongPlayer().decide(state.observation(Seat.N), random.Random(1)) == Take(
        Seat.N, Strain.HEARTS
    )
    coinche = find_rules("coinche")
    state = _state(coinche, {Seat.S: "JH 9H AH TH AS TS AD AC"}, "N pass,E bid 140 H")
    assert StrongPlayer().decide(state.observation(Seat.S), random.Random(1)) == Coinche(Seat.S)


def test_the_second_round_names_the_hand_s_suit() -> None:
    """All passed on the turned spade; N holds the clubs: it names clubs."""
    rules = find_rules("maison")
    state = _state(
        rules,
        {Seat.N: "JC 9C AC TC AD"},
        "N pass,E pass,S pass,W pass",
        turned="7S",
    )
    action = StrongPlayer().decide(state.observation(Seat.N), random.Random(3))
    assert action == Take(Seat.N, Strain.CLUBS)


def test_the_club_player_s_bid_stands_unless_the_simulation_is_clearly_better() -> None:
    """``choose`` keeps the baseline when another action's gain is within the noise."""
    base = bidding.Estimate((10.0, -10.0, 10.0, -10.0), 0.0, 10.0)
    noisy = bidding.Estimate((60.0, -50.0, 70.0, -60.0), 5.0, 60.0)
    clear = bidding.Estimate((40.0, 20.0, 40.0, 20.0), 30.0, 10.0)
    one, two, three = Pass(Seat.N), Bid(Seat.N, 80, Strain.HEARTS), Bid(Seat.N, 90, Strain.HEARTS)
    assert choose({one: base, two: noisy}, one) == one
    assert choose({one: base, two: noisy, three: clear}, one) == three
    assert choose({one: base, two: noisy}, one, confidence=0.0) == two


def test_the_match_score_moves_the_appetite_for_risk() -> None:
    rules = find_rules("maison")  # a match to 1000
    assert risk_appetite(find_rules("cardavia"), (0, 900), Team.NS) == 0.0
    assert risk_appetite(rules, None, Team.NS) == 0.0
    assert risk_appetite(rules, (100, 150), Team.NS) == 0.0  # far from the end
    behind = risk_appetite(rules, (400, 900), Team.NS)
    ahead = risk_appetite(rules, (400, 900), Team.EW)
    assert behind > 0.2 and ahead < 0
    assert risk_appetite(rules, (900, 400), Team.NS) == ahead
    # Far behind near the end, a level bids on more hands than at an even score.
    state = _state(rules, {Seat.N: "9H KH AS AC 8D"}, "", turned="JH")
    takes = 0
    for seed in range(6):
        view = state.observation(Seat.N)
        even = StrongPlayer(bidding=QUICK).decide(view, random.Random(seed))
        losing = StrongPlayer(bidding=QUICK, match_scores=(300, 950)).decide(
            view, random.Random(seed)
        )
        takes += isinstance(losing, Take) - isinstance(even, Take)
    assert takes >= 0


def test_candidates_include_the_plausible_bids_only() -> None:
    rules = find_rules("coinche")
    state = _state(rules, {Seat.N: "JH 9H AH TH KH AS AD 7C"}, "")
    actions = candidates(state.observation(Seat.N), BiddingBudget())
    assert actions[0] == Pass(Seat.N)
    bids = [a for a in actions if isinstance(a, Bid)]
    assert bids and all(b.strain == Strain.HEARTS or b.value <= 100 for b in bids)
    assert max(b.value for b in bids if b.strain == Strain.HEARTS) >= 120


@pytest.mark.slow  # a match of searches
def test_strong_bidding_does_not_lose_to_club_bidding() -> None:
    """Duplicate pairs on the coinche table, the same (quick) card play on both sides, the
    simulation's bidding against the club player's. Only a loose bound: the margin is
    measured over many more pairs outside the tests (the report of the bidding work)."""
    budget = BiddingBudget(worlds=12, playouts=128, nodes=400_000)
    simulation = StrongPlayer(worlds=2, node_budget=100_000, bidding=budget)
    club = StrongPlayer(worlds=2, node_budget=100_000, bidding=BiddingBudget(worlds=0))
    margins = [play_pair(simulation, club, "coinche", seed).margin for seed in range(20)]
    assert statistics.fmean(margins) > -60


def test_the_count_of_contracts_made_follows_the_solver() -> None:
    """How often the takers make their contract (what a bidding problem tells the player):
    more often when the solver says the hands reach it, less often when it says they do not,
    and the counts of :func:`evaluate` are shares of the worlds."""
    rules = find_rules("coinche")
    club = ClubPlayer()
    checked = 0
    for seed in range(24):
        state = DealState.deal(rules, dealer=Seat(seed % 4), rng=random.Random(seed))
        while state.phase is Phase.BIDDING:
            seat = state.to_move
            assert seat is not None
            state = state.apply(club.decide(state.observation(seat), random.Random(0)))
        contract = state.contract
        if contract is None:
            continue
        hands = state.hands
        means = play_means(
            rules, contract.strain, hands, state.dealer.next, playout_count=64, seed=seed
        )
        made, unknown, failed = (
            made_chance(rules, contract, hands, means, solved) for solved in (True, None, False)
        )
        assert 0.0 <= failed <= unknown <= made <= 1.0
        assert made >= 0.5 and failed < made
        checked += 1
    assert checked >= 8
    state = DealState.deal(rules, dealer=Seat.W, rng=random.Random(4))
    observation = state.observation(Seat.N)
    actions = candidates(observation, STRONG_BIDDING)
    worlds = draw_worlds(observation, random.Random(1), STRONG_BIDDING)
    for estimate in bidding.evaluate(observation, actions, worlds, STRONG_BIDDING).values():
        assert estimate.made >= 0.0 and estimate.made_against >= 0.0
        assert estimate.made + estimate.made_against <= 1.0 + 1e-9
