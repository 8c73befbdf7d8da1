"""Bidding by simulation, for the ``strong`` and ``expert`` levels.

The search levels play their cards by sampling the hidden cards and solving each deal
(:mod:`cardavia.ai.strong`); they bid the same way. For each action worth considering —
pass, take a strain (classic tables: the turned suit in round 1, another strain in round
2), bid a value in a strain, capot, coinche, surcoinche (coinche tables) — the simulation

1. deals the hidden cards consistently with what the seat has seen: the other hands and,
   at classic tables, the stock, dealt as the engine deals it once someone takes. The
   others' bids so far weigh the deals by how likely the club player's evaluation makes
   them with those cards (:func:`draw_worlds`, :func:`likelihood`): that is how a
   partner's 100 hearts says it holds hearts, and an opponent's pass that it does not;
2. finishes the bidding of each deal after that action, every seat bidding by the club
   player's rules (:class:`~cardavia.ai.club.ClubPlayer`), to the contract it ends in (or
   none);
3. values the play of that contract: random playouts of the solver's kernel
   (:func:`~cardavia.ai.solver.playouts`, a few hundred per deal), mapped onto the
   double-dummy value by a calibration (:data:`CALIBRATION`), and, while the decision's
   node budget lasts, the exact answer of the solver to "do the takers make it?"
   (:func:`~cardavia.ai.solver.reaches`); a real table makes a little less than the
   double-dummy value and its capots less often (:data:`PLAY_SHORTFALL`,
   :data:`PLAY_SIGMA`, :data:`CAPOT_SHARE`), and the deal's score is averaged over that
   spread under the rules (docs/rules.md 8: made or failed, the bid, coinche and surcoinche,
   capot, belote, announcements: :func:`expected_scores`);
4. chooses the action of best mean score difference for the seat's team, corrected for
   the match score (:func:`risk_appetite`) and for the simulation's own noise: another
   action than the club player's must beat it by more than the simulation's standard
   error (:func:`choose`).

The club player's evaluation also prunes the actions (the best strains by its evaluation,
bid values within a step of its own) and settles the clear passes without simulation.
The work is counted in worlds, playouts and solver nodes, never in seconds, so that a
decision is the same on every machine from the same seed; and the decision uses the
observation only.

>>> import random
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(4))
>>> action = bid_by_simulation(state.observation(Seat.N), random.Random(1))
>>> action in state.legal_actions
True
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from cardavia.ai.club import (
    AUCTION_FLOOR,
    BID_MARGIN,
    CLASSIC_TAKE,
    COINCHE_DEFENCE,
    PARTNER_SHARE,
    ClubPlayer,
    all_trump_value,
    no_trump_value,
    strain_value,
    trump_suit_value,
)
from cardavia.ai.resampling import systematic
from cardavia.ai.solver import Order, Position, kernel_stats, playouts, reaches
from cardavia.belote import (
    CAPOT,
    LAST_TRICK_BONUS,
    USUAL_CARD_TOTAL,
    Action,
    Bid,
    Card,
    Coinche,
    Contract,
    DealState,
    Observation,
    Pass,
    Phase,
    Rules,
    Seat,
    Strain,
    Suit,
    Surcoinche,
    Take,
    Team,
    belote_pairs,
    best_announcements,
    capot_value,
    comparison_winner,
    mask_cards,
    values_for,
)
from cardavia.belote.search import (
    BELOTE_POINTS,
    auction_status,
    auction_strains,
    classic_status,
    classic_strains,
    deal_outcome,
    round_score,
    top_numbered_bid,
)

__all__ = [
    "CALIBRATION",
    "CAPOT_SHARE",
    "EXPERT_BIDDING",
    "PLAY_SHORTFALL",
    "PLAY_SIGMA",
    "STRONG_BIDDING",
    "BiddingBudget",
    "Calibration",
    "Estimate",
    "World",
    "bid_by_simulation",
    "candidates",
    "choose",
    "draw_worlds",
    "expected_scores",
    "likelihood",
    "made_chance",
    "outcome_scores",
    "risk_appetite",
    "threshold",
]


@dataclass(frozen=True, slots=True)
class Calibration:
    """How random playouts predict the double-dummy value of a deal, for one kind of
    contract, in points of a 162-point deal: a side whose mean over the playouts is ``p``
    takes about ``a + b * p`` points when it does not make capot (the value held to 162),
    with an error of standard deviation ``sigma``, and makes capot with the probability
    ``1 / (1 + exp((capot_at - p) / capot_width))``."""

    a: float
    b: float
    sigma: float
    capot_at: float
    capot_width: float

    def points(self, playout_mean: float) -> float:
        """The double-dummy points without capot."""
        return self.a + self.b * playout_mean

    def capot(self, playout_mean: float) -> float:
        """The probability of a double-dummy capot."""
        return 1.0 / (1.0 + math.exp((self.capot_at - playout_mean) / self.capot_width))


CALIBRATION: Final = {
    "suit": Calibration(4.3, 0.977, 19.8, 150.0, 10.0),
    "no_trump": Calibration(-3.1, 1.091, 22.8, 138.0, 14.0),
    "all_trump": Calibration(-12.5, 1.192, 22.6, 130.0, 12.0),
}
"""For each kind of contract, fitted on 600 deals of each kind (the coinche and maison
rules, 300 playouts; a third at random, two thirds in the strain and for the side whose
best hand the club player values most, as bidding would have it): least squares on the
value held to 162 (correlation 0.87 in a suit, 0.80 in no-trump, 0.81 in all-trump), and
the capot curve read off the rates of capot by tens of playout points (11 to 13% of those
deals are double-dummy capots). Other point scales are brought to 162 and back."""

CAPOT_SHARE: Final = 0.65
"""The share of the double-dummy capots that a real table makes (the search levels
against each other make 7 of 11, club players 19 of 46)."""

PLAY_SHORTFALL: Final = 5.0
"""How many card points fewer than the double-dummy value the takers make at a real table
(the search levels against each other; club players fall 11 short)."""
PLAY_SIGMA: Final = 20.0
"""The spread of the points a real table makes around that (deals without capot)."""

_NODES: Final = 10
_NORMAL: Final = statistics.NormalDist()
_QUANTILES: Final = tuple(_NORMAL.inv_cdf((index + 0.5) / _NODES) for index in range(_NODES))
"""The normal error at equal-probability points: each stands for a tenth of the cases."""
_PAIRING: Final = (6, 2, 9, 4, 0, 7, 3, 8, 1, 5)
"""Which error of the play goes with which value of the deal (a fixed shuffle: the two
errors are independent)."""

_UNLIKELY: Final = 1e-4
"""The floor of a bid's likelihood (:func:`_gauss`)."""
_OPTIONS: Final = 12
"""Hands drawn at a time for a seat that has bid, among which :func:`draw_worlds` chooses
one; more batches while none is at least half likely, up to :data:`_BATCHES`."""
_BATCHES: Final = 10
_OVERDRAW: Final = 3
"""Deals drawn for two kept, when the bids so far weigh them."""

_COINCHE_REACH: Final = 25
"""A coinche is simulated when the hand's defence is within this much of what the club
player coinches with."""


@dataclass(frozen=True, slots=True)
class BiddingBudget:
    """How much a bidding decision simulates (work, not time)."""

    worlds: int = 20
    """Deals simulated for each action."""
    playouts: int = 192
    """Random playouts valuing each contract of each deal."""
    inference: float = 1.0
    """How much the other players' bids so far are believed: a deal's weight is the
    :func:`likelihood` of their bids with its cards to this power (0: not at all)."""
    strains: int = 2
    """The strains considered for a bid (the best by the club player's evaluation)."""
    spread: int = 10
    """The bid values considered in each of those strains: the club player's by its
    evaluation, and those up to this much above or below it (and the lowest bid allowed).
    Bids near the club player's keep what a bid says of the hand, which the partner's
    reading of the bids assumes (:func:`likelihood`)."""
    caution: float = 0.1
    """How much of the spread of an action's outcome is taken off its mean when choosing
    it: the simulation's model of the play and of the others' bidding is not exact, so an
    action that wins little on average and risks much (a coinche, a surcoinche, a high bid)
    needs a clearer gain."""
    confidence: float = 1.0
    """How many standard errors of the simulation an action's gain over the club player's
    must exceed to be chosen instead (:func:`choose`)."""
    nodes: int = 1_500_000
    """The solver's work for a decision, in nodes: while it lasts, whether each contract
    is made in a world is solved exactly (0: the playouts alone)."""
    order: Order = "simple"
    """The solver's order of search (:data:`~cardavia.ai.solver.Order`): the nodes, and so
    how many worlds the budget solves, depend on it."""


STRONG_BIDDING: Final = BiddingBudget()
"""The ``strong`` level's bidding."""
EXPERT_BIDDING: Final = BiddingBudget(worlds=32, playouts=256, nodes=2_500_000)
"""The ``expert`` level's bidding: more worlds, more playouts, more of the solver."""


@dataclass(frozen=True, slots=True)
class World:
    """One deal of the hidden cards, the bidding so far replayed on it, and the seed of its
    playouts."""

    state: DealState
    seed: int


# -- the deals ------------------------------------------------------------------------------


def deck_of(
    rules: Rules,
    dealer: Seat,
    hands: Sequence[int],
    turned: Card | None,
    stock: Sequence[Card],
) -> tuple[Card, ...]:
    """A deck in dealt order whose distribution gives these hands (docs/rules.md 3): each seat's
    cards in the packets of the rules from the dealer's next, then at classic tables the
    turned card and the stock in the order it will be dealt."""
    sizes = rules.first_packets if rules.bidding == "classic" else rules.auction_packets
    held = [list(mask_cards(hand)) for hand in hands]
    deck: list[Card] = []
    for size in (int(n) for n in sizes.split("-")):
        for offset in range(1, 5):
            seat = (dealer + offset) & 3
            deck += held[seat][:size]
            held[seat] = held[seat][size:]
    if turned is not None:
        deck.append(turned)
    deck += stock
    return tuple(deck)


def _gauss(excess: float, width: float) -> float:
    """How likely a bid is when the hand's evaluation misses it by ``excess`` (0 or less:
    not at all): a normal curve of that width, never below :data:`_UNLIKELY` (a player
    may bid oddly; the hands nearest to the bid then stay the likeliest)."""
    if excess <= 0:
        return 1.0
    x = excess / width
    return max(_UNLIKELY * math.exp(-x), math.exp(-0.5 * x * x))


@lru_cache(maxsize=1 << 16)
def _hand_value(hand: int, strain: Strain, announcements: bool) -> int:
    """The club player's value of a hand for a strain (:func:`~cardavia.ai.club.strain_value`),
    remembered: the world sampler asks it of the same hands many times."""
    value = {Strain.NO_TRUMP: no_trump_value, Strain.ALL_TRUMP: all_trump_value}.get(strain)
    points = value(hand) if value is not None else trump_suit_value(hand, int(strain))
    if announcements:
        points += sum(a.points for a in best_announcements(hand, strain)) // 2
    return points


def _auction_targets(
    hand: int,
    seat: Seat,
    before: Sequence[Action],
    observation: Observation,
    strains: Sequence[Strain],
) -> dict[Strain, int]:
    """What the club player's evaluation says ``seat`` could bid in each strain with
    ``hand``, after the bids ``before`` (its partner's bid raised as the club player
    raises it)."""
    partner_bid = _last_bid_by(before, seat.partner)
    share = PARTNER_SHARE
    if partner_bid is None and any(isinstance(a, Pass) and a.seat == seat.partner for a in before):
        share -= 6
    targets: dict[Strain, int] = {}
    for strain in strains:
        value = _hand_value(hand, strain, observation.rules.announcements)
        if partner_bid is not None and partner_bid.strain == strain:
            expected = 1.27 * partner_bid.value - 23 + 1.17 * value
        else:
            expected = value + share
        targets[strain] = int(expected - BID_MARGIN)
    return targets


def likelihood(
    observation: Observation, hand: int, before: Sequence[Action], action: Action
) -> float:
    """How likely another player's bidding ``action`` is with ``hand`` (its cards as dealt:
    five at classic tables, eight at coinche tables) after the bids ``before``, by the club
    player's evaluation: 1 when the evaluation says that action, less the further it is
    from it (:func:`_gauss`). A bid above what the hand is worth, a pass with a hand worth a
    bid, a coinche with a hand that defends little are unlikely."""
    seat = action.seat
    rules = observation.rules
    if rules.bidding == "classic":
        turned = observation.turned_card
        assert turned is not None
        full = hand | 1 << turned
        suit = Strain(turned >> 3)

        def worth(strain: Strain) -> int:
            value = _hand_value(full, strain, observation.rules.announcements)
            return value - (0 if strain == suit else 4)

        if isinstance(action, Take):
            return _gauss(CLASSIC_TAKE - worth(action.strain), 8)
        if isinstance(action, Pass):
            allowed = classic_strains(rules, classic_status(before).round, Suit(turned >> 3))
            return _gauss(max(worth(s) for s in allowed) - CLASSIC_TAKE, 8)
        return 1.0
    best = auction_status(before).best
    if isinstance(action, Bid):
        if action.value >= CAPOT:
            return 1.0
        target = _auction_targets(hand, seat, before, observation, (action.strain,))
        value = target[action.strain]
        # The club player bids its evaluation to the ten below (the top numbered bid at
        # most); the tails leave some room for players who bid otherwise.
        if value >= action.value:
            top = top_numbered_bid(rules)
            return 1.0 if action.value >= top else _gauss(value - action.value - 10, 10)
        return _gauss(action.value - value, 4)
    if isinstance(action, Pass):
        if best is not None and best.seat.team == seat.team:
            return 1.0
        lowest = max(AUCTION_FLOOR, best.value + 10 if best is not None else 0)
        strains = auction_strains(rules)
        top = max(_auction_targets(hand, seat, before, observation, strains).values())
        return _gauss(top - lowest, 5)
    if isinstance(action, Coinche) and best is not None:
        needed = COINCHE_DEFENCE + 100 - best.value
        return _gauss(needed - ClubPlayer._defence(hand, best), 8)
    return 1.0


def draw_worlds(observation: Observation, rng: random.Random, budget: BiddingBudget) -> list[World]:
    """``budget.worlds`` deals consistent with the observation, the bidding so far replayed
    on each.

    During the bidding the seat knows only its own cards (and the turned card, which is
    nobody's yet). The others' bids say more: the deals follow the :func:`likelihood` of
    those bids with each hand (to the power ``budget.inference``), by sequential importance
    sampling. The hands are dealt one seat after the other from the cards left, those who
    have bid first: hands are drawn at random for a seat that has bid (:data:`_OPTIONS` at
    a time, until one is at least half likely) and one is chosen in proportion to its
    likelihood, so that a bid of 140 finds the rare hands that make it, and the deal's
    weight is multiplied by their mean likelihood (without a stock the last seat gets the
    cards left, and its likelihood). Half as many deals again as needed are drawn, and
    those kept are drawn from them in proportion to their weights (systematic resampling),
    so that every world simulated counts the same. At classic tables the cards left make
    the stock, shuffled.
    """
    rules = observation.rules
    me = observation.seat
    turned = observation.turned_card
    history = observation.history
    count = max(1, budget.worlds)
    classic = rules.bidding == "classic"
    size = 5 if classic else 8
    acts: dict[Seat, list[tuple[int, Action]]] = {}
    for index, action in enumerate(history):
        if action.seat != me:
            acts.setdefault(action.seat, []).append((index, action))

    def informative(seat: Seat) -> tuple[int, int]:
        """Bidders first (the highest bid first), then coinches, then passes."""
        bids = [a.value for _, a in acts.get(seat, ()) if isinstance(a, Bid)]
        coinches = [a for _, a in acts.get(seat, ()) if isinstance(a, Coinche)]
        return (-max(bids, default=0), -len(coinches))

    others = sorted((s for s in Seat if s != me), key=informative)
    unseen = ~(observation.hand.mask | (1 << turned if turned is not None else 0)) & 0xFFFFFFFF
    # Without a stock the last seat gets the cards left: its bids weigh the deal.
    last = others[-1] if not classic else None

    def weight(seat: Seat, hand: int) -> float:
        value = 1.0
        for index, action in acts.get(seat, ()):
            value *= likelihood(observation, hand, history[:index], action)
        return value**budget.inference if budget.inference else 1.0

    def deal() -> tuple[list[int], int, float]:
        """One deal and its importance weight."""
        hands = [0, 0, 0, 0]
        hands[me] = observation.hand.mask
        left = unseen
        mass = 1.0
        for seat in others:
            cards = list(mask_cards(left))
            if seat == last:
                hand = left
                mass *= weight(seat, hand)
            elif seat in acts and budget.inference:
                options: list[int] = []
                weights: list[float] = []
                while len(options) < _OPTIONS * _BATCHES and max(weights, default=0) < 0.5:
                    for _ in range(_OPTIONS):
                        options.append(sum(1 << c for c in rng.sample(cards, size)))
                        weights.append(weight(seat, options[-1]))
                total = sum(weights)
                hand = rng.choices(options, weights)[0] if total > 0 else options[0]
                mass *= total / len(options)
            else:
                hand = sum(1 << c for c in rng.sample(cards, size))
            hands[seat] = hand
            left &= ~hand
        return hands, left, mass

    drawn = [deal() for _ in range(count * _OVERDRAW // 2 if acts else count)]
    kept = systematic(
        [(hands, left) for hands, left, _ in drawn], [mass for _, _, mass in drawn], count, rng
    )
    worlds = []
    for hands, left in kept:
        stock = list(mask_cards(left))
        rng.shuffle(stock)
        deck = deck_of(rules, observation.dealer, hands, turned, stock)
        state = DealState.from_deck(rules, dealer=observation.dealer, deck=deck)
        worlds.append(World(state.replay(history), rng.getrandbits(62)))
    return worlds


# -- the outcome of a contract --------------------------------------------------------------


def _kind(strain: Strain) -> str:
    if strain == Strain.NO_TRUMP:
        return "no_trump"
    if strain == Strain.ALL_TRUMP:
        return "all_trump"
    return "suit"


def outcome_scores(
    rules: Rules,
    contract: Contract,
    takers_points: float,
    *,
    belote: tuple[int, int],
    announcements: tuple[int, int],
    deal_points: int = USUAL_CARD_TOTAL + LAST_TRICK_BONUS,
) -> tuple[float, float]:
    """Each team's score for a deal whose takers make ``takers_points`` card points (the
    last trick included; the capot's :func:`~cardavia.belote.scoring.capot_value` or more:
    capot; 0 or less: the defenders' capot), scored by the engine's own rule,
    :func:`cardavia.belote.scoring.deal_outcome` (docs/rules.md 8), on fractional points.

    ``belote``: each team's belote points; ``announcements``: each team's accepted
    announcements (the winner of the comparison only); ``deal_points``: the card points of
    a deal under the contract's scale, with the last trick. A litige's reserve, which goes
    to the winner of the next deal, is counted for neither team. A générale is taken as made
    with the team's capot: the simulation does not tell the taker's tricks from its partner's.
    """
    scores, _ = _outcome(
        rules,
        contract,
        takers_points,
        belote=belote,
        announcements=announcements,
        deal_points=deal_points,
    )
    return scores


def _outcome(
    rules: Rules,
    contract: Contract,
    takers_points: float,
    *,
    belote: tuple[int, int],
    announcements: tuple[int, int],
    deal_points: int,
) -> tuple[tuple[float, float], bool]:
    """:func:`outcome_scores`, and whether the takers make the contract (a litige: no)."""
    takers = contract.team
    defenders = takers.other
    capot_points = capot_value(rules, contract.strain)
    capot: Team | None = None
    cards = [0.0, 0.0]
    if takers_points >= capot_points:
        capot = takers
        cards[takers] = float(capot_points)
    elif takers_points <= 0:
        capot = defenders
        cards[defenders] = float(capot_points)
    else:
        cards[takers] = min(float(takers_points), float(deal_points))
        cards[defenders] = deal_points - cards[takers]
    outcome = deal_outcome(
        rules,
        contract,
        cards=(cards[0], cards[1]),
        capot=capot,
        belote=belote,
        announcements=announcements,
        taker_alone=capot == takers,
    )
    scores = outcome.scores
    made = outcome.made is True
    if rules.rounding == "nearest_ten":
        return (
            float(round_score(round(scores[0]), rules.rounding)),
            float(round_score(round(scores[1]), rules.rounding)),
        ), made
    return (scores[0], scores[1]), made


def _extras(rules: Rules, strain: Strain, hands: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Each team's belote and accepted announcements with these hands (every belote said
    and every announcement made, as the computer players do)."""
    belote = [0, 0]
    for seat in Seat:
        pairs = belote_pairs(hands[seat], strain, in_all_trump=rules.belote_in_all_trump)
        belote[seat & 1] += BELOTE_POINTS * (pairs.bit_count() // 2)
    announcements = [0, 0]
    if rules.announcements:
        declared = [best_announcements(hand, strain) for hand in hands]
        winner = comparison_winner(declared)
        if winner is not None:
            for seat in winner.seats:
                announcements[winner] += sum(item.points for item in declared[seat])
    return (belote[0], belote[1]), (announcements[0], announcements[1])


def play_means(
    rules: Rules,
    strain: Strain,
    hands: Sequence[int],
    leader: Seat,
    *,
    playout_count: int,
    seed: int,
) -> tuple[float, float]:
    """The mean card points N–S and E–W take over random playouts of a deal with these
    hands (8 cards each) played in ``strain``, in points of a 162-point deal."""
    position = Position.from_rules(rules, strain, hands, leader=leader)
    means = playouts(position, playout_count, seed)
    scale = (values_for(rules, strain).total_points + LAST_TRICK_BONUS) / (
        USUAL_CARD_TOTAL + LAST_TRICK_BONUS
    )
    return (means[0] / scale, means[1] / scale)


def threshold(
    rules: Rules,
    contract: Contract,
    *,
    belote: tuple[int, int],
    announcements: tuple[int, int],
    deal_points: int,
) -> int:
    """The fewest card points (the last trick included) with which the takers make
    ``contract`` (docs/rules.md 8): more than the defenders' total at classic tables; at coinche
    tables the bid less their announcements and belote (a capot bid: the capot), and with
    ``contract_must_beat_defence`` more than the defenders' total as well."""
    takers = contract.team
    counted = [
        announcements[t] + (belote[t] if rules.belote_counts_for_contract else 0) for t in Team
    ]
    if rules.bidding == "classic":
        # Made when x + theirs > (deal - x) + the defenders', i.e. 2x > deal + defenders' - theirs.
        excess = deal_points + counted[takers.other] - counted[takers]
        tie_made = rules.tie == "made"
        return excess // 2 + 1 if excess % 2 or not tie_made else excess // 2
    bid = contract.bid or 0
    if bid >= CAPOT:
        return capot_value(rules, contract.strain)
    need = bid - counted[takers]
    if rules.contract_must_beat_defence:
        # FFB contrée 10.1.1: also 2x > deal + defenders' - theirs, as at classic tables.
        excess = deal_points + counted[takers.other] - counted[takers]
        need = max(need, excess // 2 + 1)
    return need


def _cut(rules: Rules, contract: Contract, hands: Sequence[int]) -> float:
    """The double-dummy points from which the takers make ``contract`` at a real table: the
    :func:`threshold` with these hands' belote and announcements, plus
    :data:`PLAY_SHORTFALL`."""
    strain = contract.strain
    deal_points = values_for(rules, strain).total_points + LAST_TRICK_BONUS
    belote, announcements = _extras(rules, strain, hands)
    need = threshold(
        rules, contract, belote=belote, announcements=announcements, deal_points=deal_points
    )
    return need + PLAY_SHORTFALL * deal_points / (USUAL_CARD_TOTAL + LAST_TRICK_BONUS)


def expected_scores(
    rules: Rules,
    contract: Contract,
    hands: Sequence[int],
    means: tuple[float, float],
    solved: bool | None = None,
) -> list[float]:
    """N–S's score minus E–W's for a deal with these hands in ``contract``, at
    :data:`_NODES` equally likely values of the takers' card points.

    The double-dummy value of the deal without capot is taken as normal around the
    playouts' prediction (``means``: :func:`play_means`, :data:`CALIBRATION`); when the
    solver has said whether it reaches the contract's :func:`threshold` plus
    :data:`PLAY_SHORTFALL` (``solved``), that normal is cut at that point. The points a
    real table makes are that value less :data:`PLAY_SHORTFALL`, with a normal error of
    :data:`PLAY_SIGMA`; the takers make capot with the calibration's probability times
    :data:`CAPOT_SHARE`, which each value shares in.
    """
    return _expectation(rules, contract, hands, means, solved)[0]


def made_chance(
    rules: Rules,
    contract: Contract,
    hands: Sequence[int],
    means: tuple[float, float],
    solved: bool | None = None,
) -> float:
    """The chance that the takers make ``contract`` with these hands, over the same values
    of their card points as :func:`expected_scores` (a litige: not made)."""
    return _expectation(rules, contract, hands, means, solved)[1]


def _expectation(
    rules: Rules,
    contract: Contract,
    hands: Sequence[int],
    means: tuple[float, float],
    solved: bool | None,
) -> tuple[list[float], float]:
    """:func:`expected_scores` and :func:`made_chance`, from one pass over the values."""
    strain = contract.strain
    deal_points = values_for(rules, strain).total_points + LAST_TRICK_BONUS
    scale = deal_points / (USUAL_CARD_TOTAL + LAST_TRICK_BONUS)
    calibration = CALIBRATION[_kind(strain)]
    sigma = scale * calibration.sigma
    shortfall = scale * PLAY_SHORTFALL
    playout_mean = means[contract.team]
    mean = scale * calibration.points(playout_mean)
    belote, announcements = _extras(rules, strain, hands)

    def score(points: float) -> tuple[float, bool]:
        (ns, ew), made = _outcome(
            rules,
            contract,
            points,
            belote=belote,
            announcements=announcements,
            deal_points=deal_points,
        )
        return ns - ew, made

    capot = CAPOT_SHARE * calibration.capot(playout_mean)
    capot_score, capot_made = score(capot_value(rules, strain)) if capot > 0.001 else (0.0, False)
    cut = _cut(rules, contract, hands)
    low, high = 0.0, 1.0
    if solved is not None:
        edge = _NORMAL.cdf((cut - mean) / sigma)
        low, high = (edge, 1.0) if solved else (0.0, edge)
    values = []
    chance = 0.0
    for index in range(_NODES):
        if high - low < 1e-9:
            value = cut + (0.5 if solved else -0.5)
        else:
            u = min(max(low + (high - low) * (index + 0.5) / _NODES, 1e-12), 1 - 1e-12)
            value = mean + sigma * _NORMAL.inv_cdf(u)
        points = value - shortfall + scale * PLAY_SIGMA * _QUANTILES[_PAIRING[index]]
        points = min(max(points, 1.0), deal_points)
        node_score, node_made = score(points)
        values.append((1 - capot) * node_score + capot * capot_score)
        chance += (1 - capot) * node_made + capot * capot_made
    return values, chance / _NODES


# -- the actions to simulate ----------------------------------------------------------------


def _last_bid_by(history: Sequence[Action], seat: Seat) -> Bid | None:
    for action in reversed(history):
        if isinstance(action, Bid) and action.seat == seat:
            return action
    return None


def candidates(observation: Observation, budget: BiddingBudget) -> list[Action]:
    """The actions worth simulating, pass first; only a pass when the hand is clearly one
    (the club player's evaluation is far from a bid)."""
    legal = observation.legal_actions
    me = observation.seat
    passing = Pass(me)
    if observation.rules.bidding == "classic":
        turned = observation.turned_card
        assert turned is not None
        hand = observation.hand.mask | 1 << turned
        takes = [a for a in legal if isinstance(a, Take)]
        scored = []
        for take in takes:
            value = strain_value(hand, take.strain, observation)
            if take.strain != Strain(turned >> 3):
                value -= 4
            scored.append((value, take))
        scored.sort(key=lambda item: -item[0])
        plausible = [take for value, take in scored[: budget.strains] if value >= CLASSIC_TAKE - 16]
        return [passing, *plausible]
    history = observation.history
    status = auction_status(history)
    best = status.best
    floor = best.value if best is not None else 0
    lowest = max(AUCTION_FLOOR, floor + 10)
    top = top_numbered_bid(observation.rules)
    hand = observation.hand.mask
    strains = []
    for action in legal:
        if isinstance(action, Bid) and action.strain not in strains:
            strains.append(action.strain)
    targets = _auction_targets(hand, me, history, observation, strains)
    partner_bid = _last_bid_by(history, me.partner)
    ours = best is not None and best.seat.team == me.team
    chosen = sorted(targets, key=lambda s: -targets[s])[: budget.strains]
    raised = partner_bid.strain if partner_bid is not None else None
    if raised is not None and raised in targets and raised not in chosen:
        chosen.append(raised)
    actions: list[Action] = [passing]
    for strain in chosen:
        target = targets[strain] // 10 * 10
        if ours and best is not None and strain != best.strain and target < floor + 30:
            continue  # the partnership holds the contract: change strain only when far better
        if target + budget.spread < lowest:
            continue
        # A hand worth more than the top numbered bid considers that bid (and capot).
        centre = min(target, top)
        values = {lowest, *range(centre - budget.spread, centre + budget.spread + 1, 10)}
        for value in sorted(v for v in values if lowest <= v <= top):
            bid = Bid(me, value, strain)
            if bid in legal:
                actions.append(bid)
        if target >= 150 and Bid(me, CAPOT, strain) in legal:
            actions.append(Bid(me, CAPOT, strain))
    for action in legal:
        if isinstance(action, Surcoinche) and action.seat == me:
            actions.append(action)
        if isinstance(action, Coinche) and action.seat == me and best is not None:
            needed = COINCHE_DEFENCE + 100 - best.value
            if ClubPlayer._defence(hand, best) >= needed - _COINCHE_REACH:
                actions.append(action)
    return actions


# -- the decision ---------------------------------------------------------------------------


def risk_appetite(rules: Rules, match_scores: tuple[int, int] | None, team: Team) -> float:
    """How much of the spread of an action's outcome is added to its mean (negative: taken
    off) when choosing it, from the match score before this deal (N–S, E–W).

    A single deal, or a match far from its end: 0, the mean alone. When the opponents near
    the target and the team is behind, each point short of them adds risk: the team must
    gamble to catch up before the match ends, up to 0.5 standard deviation when the gap is
    half the target. When the team leads near the target it plays a little safer (half as
    much, the other way). The closeness to the end runs from 0 (the leader at half the
    target or less) to 1 (the leader at the target).
    """
    target = rules.target
    if target is None or match_scores is None:
        return 0.0
    ours, theirs = match_scores[team], match_scores[team.other]
    leader = max(ours, theirs)
    closeness = min(1.0, max(0.0, (leader - target / 2) / (target / 2)))
    gap = min(1.0, abs(ours - theirs) / (target / 2))
    if ours < theirs:
        return 0.5 * gap * closeness
    return -0.25 * gap * closeness


def _finish_bidding(state: DealState, club: ClubPlayer, rng: random.Random) -> DealState:
    """Bid on with the club player's rules at every seat until a contract or a cancel."""
    while state.phase is Phase.BIDDING:
        seat = state.to_move
        assert seat is not None
        state = state.apply(club.decide(state.observation(seat), rng))
    return state


@dataclass(frozen=True, slots=True)
class Estimate:
    """What the simulation says of one action: the score difference for the seat's team."""

    by_world: tuple[float, ...]
    """Its mean in each world."""
    mean: float
    spread: float
    """Its standard deviation over the worlds and the values of the play in each."""
    made: float = 0.0
    """The share of the worlds in which the seat's team ends as the takers and makes the
    contract (each world counted by its :func:`made_chance`)."""
    made_against: float = 0.0
    """The share of the worlds in which the other team ends as the takers and makes it."""


def _estimate(values: Sequence[Sequence[float]], made: Sequence[tuple[float, float]]) -> Estimate:
    by_world = tuple(statistics.fmean(world) for world in values)
    flat = [value for world in values for value in world]
    return Estimate(
        by_world,
        statistics.fmean(flat),
        statistics.pstdev(flat),
        statistics.fmean(ours for ours, _ in made) if made else 0.0,
        statistics.fmean(theirs for _, theirs in made) if made else 0.0,
    )


class _Solver:
    """The double-dummy answers of one world (does this side reach that many points in
    that strain?) within the decision's node budget; bounds proved are kept, so that a
    question already settled by an earlier one costs nothing."""

    def __init__(
        self, rules: Rules, leader: Seat, nodes_left: list[int], order: Order = "simple"
    ) -> None:
        self.rules = rules
        self.leader = leader
        self.nodes_left = nodes_left
        self.order: Order = order
        self.bounds: dict[tuple[Strain, Team], tuple[int, int]] = {}
        """(strain, side): the most points proved reached, the fewest proved not."""

    def made(
        self, strain: Strain, side: Team, hands: tuple[int, int, int, int], need: int
    ) -> bool | None:
        """Whether ``side`` takes ``need`` points or more under best play (``None`` when
        the budget is spent)."""
        low, high = self.bounds.get((strain, side), (0, 1 << 20))
        if need <= low:
            return True
        if need >= high:
            return False
        if self.nodes_left[0] <= 0:
            return None
        position = Position.from_rules(self.rules, strain, hands, leader=self.leader)
        answer = reaches(position, need, side=side, order=self.order)
        self.nodes_left[0] -= kernel_stats()[0]
        self.bounds[(strain, side)] = (need, high) if answer else (low, need)
        return answer


def evaluate(
    observation: Observation,
    actions: Sequence[Action],
    worlds: Sequence[World],
    budget: BiddingBudget,
) -> dict[Action, Estimate]:
    """For each action, the score difference for the seat's team over the worlds, the
    bidding finished by the club player's rules.

    Each contract is valued by the playouts (:func:`play_means`); while the node budget
    lasts, the solver says whether it is made in that world (:class:`_Solver`), the worlds
    in order, so that the first worlds are valued exactly and the rest by the playouts
    alone. Each estimate also counts how often the contract the bidding ends in is made,
    by the seat's team or by the other (:attr:`Estimate.made`), for a player to be told."""
    rules = observation.rules
    team = observation.seat.team
    sign = 1.0 if team == Team.NS else -1.0
    club = ClubPlayer()
    quiet = random.Random(0)  # the club player's bidding draws nothing; it is given this
    leader = observation.dealer.next
    nodes_left = [budget.nodes]
    tallies: dict[Action, list[list[float]]] = {action: [] for action in actions}
    made: dict[Action, list[tuple[float, float]]] = {action: [] for action in actions}
    for world in worlds:
        plays: dict[tuple[Strain, tuple[int, int, int, int]], tuple[float, float]] = {}
        scores: dict[tuple[Contract, tuple[int, int, int, int]], tuple[list[float], float]] = {}
        solvers: dict[tuple[int, int, int, int], _Solver] = {}
        for action in actions:
            end = _finish_bidding(world.state.apply(action), club, quiet)
            contract = end.contract
            if contract is None:
                tallies[action].append([0.0] * _NODES)
                made[action].append((0.0, 0.0))
                continue
            hands = end.hands
            valued = scores.get((contract, hands))
            if valued is None:
                means = plays.get((contract.strain, hands))
                if means is None:
                    twist = (int(contract.strain) * 4 + int(contract.taker)) * 1_000_003
                    means = play_means(
                        rules,
                        contract.strain,
                        hands,
                        leader,
                        playout_count=budget.playouts,
                        seed=world.seed + twist,
                    )
                    plays[(contract.strain, hands)] = means
                solved = None
                if budget.nodes > 0:
                    solver = solvers.setdefault(
                        hands, _Solver(rules, leader, nodes_left, budget.order)
                    )
                    cut = math.ceil(_cut(rules, contract, hands))
                    solved = solver.made(contract.strain, contract.team, hands, cut)
                valued = _expectation(rules, contract, hands, means, solved)
                scores[(contract, hands)] = valued
            values, chance = valued
            tallies[action].append([sign * v for v in values])
            made[action].append((chance, 0.0) if contract.team == team else (0.0, chance))
    return {action: _estimate(tallies[action], made[action]) for action in actions}


def choose(
    estimates: dict[Action, Estimate],
    baseline: Action,
    *,
    appetite: float = 0.0,
    confidence: float = 1.0,
) -> Action:
    """The action of best utility: its mean, plus ``appetite`` times its spread
    (:func:`risk_appetite`, less the budget's caution), less ``confidence`` standard errors
    of its gain over ``baseline`` (the club player's action), so that the simulation
    overrules the club player's judgement only where it sees a clear gain, not where the
    worlds drawn happen to favour another action. On a tie, the earlier action."""
    base = estimates[baseline].by_world
    order = list(estimates)

    def utility(action: Action) -> float:
        estimate = estimates[action]
        value = estimate.mean + appetite * estimate.spread
        if action != baseline and len(base) > 1:
            gains = [a - b for a, b in zip(estimate.by_world, base, strict=True)]
            value -= confidence * statistics.stdev(gains) / math.sqrt(len(gains))
        return value

    return max(order, key=lambda a: (round(utility(a), 6), -order.index(a)))


def bid_by_simulation(
    observation: Observation,
    rng: random.Random,
    budget: BiddingBudget | None = None,
    *,
    match_scores: tuple[int, int] | None = None,
) -> Action | None:
    """The bidding action the simulation chooses (one of ``observation.legal_actions``), or
    ``None`` when it has nothing to say (not the bidding, or not this seat's turn)."""
    budget = budget or BiddingBudget()
    legal = observation.legal_actions
    if (
        observation.phase is not Phase.BIDDING
        or observation.to_move != observation.seat  # an out-of-turn coinche only
        or not legal
        or budget.worlds <= 0
    ):
        return None
    if len(legal) == 1:
        return legal[0]
    baseline = ClubPlayer().decide(observation, random.Random(0))
    actions = candidates(observation, budget)
    if baseline not in actions:
        actions.append(baseline)
    if len(actions) == 1:
        return actions[0]
    worlds = draw_worlds(observation, rng, budget)
    appetite = risk_appetite(observation.rules, match_scores, observation.seat.team)
    return choose(
        evaluate(observation, actions, worlds, budget),
        baseline,
        appetite=appetite - budget.caution,
        confidence=budget.confidence,
    )
