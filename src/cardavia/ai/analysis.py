"""The analysis of a finished deal: what each card cost, and whether its player could know.

Every card played is valued in the deal's score (the score margin of the player's team, by
:func:`cardavia.belote.scoring.deal_outcome`: a card that keeps the card points but loses the
contract costs the contract), in two lights:

- **double-dummy**: all four hands known, each legal card solved exactly
  (:mod:`cardavia.ai.solver`) in the actual deal;
- **seat view**: averaged over worlds drawn consistently with what that seat had seen
  (:func:`cardavia.ai.worlds.sample_worlds`, as the search players draw them). This
  light never reads a hidden card: it is given the seat's observation only.

A card's cost is how much less it scores than the best legal card in that light. A card is a
**mistake** only when its seat-view cost is beyond :data:`MISTAKE_MARGIN` and beyond the
worlds' noise (twice the standard error: otherwise it is **unclear**); a card that was best
(within the margin) from its seat's view but cost something double-dummy is **bad luck**:
the cards lay against it. "The moments of the deal" are the decisions that moved the
score most double-dummy, each with the better card and the double-dummy line that follows it.
The bidding is reviewed too: what a level would have bid at each turn, and what each contract
would have scored double-dummy.

Everything here is data (codes, cards, seats, numbers) for the site to word in its languages;
:func:`text_report` is a plain English rendering for the command line. Given a seed, the
analysis is the same on every machine: each decision draws its worlds from its own
generator, seeded by the seed and the decision's number.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from typing import Any, Final, Literal

from cardavia.ai.expert import belote_points, known_announcements
from cardavia.ai.levels import find_player
from cardavia.ai.player import with_declarations
from cardavia.ai.solver import Order, Position, solve
from cardavia.ai.strong import legal_cards, root_values, tricks_won
from cardavia.ai.worlds import sample_worlds
from cardavia.belote import (
    CAPOT,
    LAST_TRICK_BONUS,
    Action,
    Card,
    Contract,
    DealState,
    Observation,
    Phase,
    Play,
    Record,
    Rules,
    Seat,
    Strain,
    Team,
    belote_pairs,
    capot_value,
    card_code,
    comparison_winner,
    deal_points,
    values_for,
)
from cardavia.belote.search import (
    auction_strains,
    bid_values,
    deal_outcome,
    round_score,
)

MISTAKE_MARGIN: Final = 10
"""A card is a mistake when, from its seat's view, it scores more than this many points of
the deal's score below the best card (the rounding of scores stays under it), and more than
twice the standard error of that difference over the worlds (the worlds' noise)."""

VIEW_WORLDS: Final = 8
"""Worlds for a seat-view decision early in the deal (more later, when each costs less)."""

VIEW_NODES: Final = 1_000_000
"""The solver's work for one seat-view decision, in nodes: once spent (and at least
:data:`MIN_WORLDS` solved), the worlds left are not solved. A budget in work, not time, so
that the analysis is the same on every machine."""

VIEW_ORDER: Final[Order] = "simple"
"""The solver's order of search for the seat-view decisions: the budget above is counted in
its nodes (a faster order would solve more worlds, and change the analysis of a deal)."""

MIN_WORLDS: Final = 4

MOMENTS: Final = 3
"""How many moments of the deal are kept."""

Verdict = Literal["forced", "best", "bad_luck", "unclear", "mistake"]
"""What a card was: the only legal card; best (within the margin) from the seat's view and in
the actual deal; best (within the margin) from the seat's view but costly in the actual deal;
worse from the seat's view by more than the margin but within the worlds' noise (neither
blamed nor excused); worse from the seat's own view, clearly."""

Hands = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What scores a deal besides the cards: each team's belote and accepted announcements
    (before a capot moves them), as :func:`~cardavia.belote.scoring.deal_outcome` takes them."""

    belote: tuple[int, int] = (0, 0)
    announcements: tuple[int, int] = (0, 0)

    @classmethod
    def of_observation(cls, observation: Observation) -> DealFacts:
        """As far as one seat knows: the belotes said and its own K–Q of trump, and the
        announcements shown (or only its own before the comparison)."""
        declared = known_announcements(observation)
        announcements = [0, 0]
        winner = comparison_winner(declared) if observation.rules.announcements else None
        if winner is not None:
            for seat in winner.seats:
                announcements[winner] += sum(item.points for item in declared[seat])
        return cls(belote_points(observation), (announcements[0], announcements[1]))

    @classmethod
    def of_result(cls, state: DealState) -> DealFacts:
        """The actual facts of a finished deal."""
        result = state.result
        if result is None:
            raise ValueError("the deal is not over")
        return cls(result.belote, result.announcements)


def deal_margin(
    rules: Rules,
    contract: Contract,
    *,
    team: Team,
    before: tuple[int, int],
    value: int,
    remaining: int,
    capot_open: tuple[bool, bool],
    facts: DealFacts,
) -> int:
    """The deal's score margin of ``team`` (its score less the other's, rounded as the rules
    say) when it takes ``value`` points from here (last trick and capot included, as the
    solver counts them), having ``before`` (N–S, E–W) already, with ``remaining`` card
    points still to take. A value of 0 with a capot open to the others is their capot."""
    other = team.other
    left = remaining + LAST_TRICK_BONUS
    cards = [0, 0]
    capot: Team | None = None
    if capot_open[team] and value > left:
        capot = team
    elif capot_open[other] and value == 0:
        capot = other
    if capot is not None:
        cards[capot] = capot_value(rules, contract.strain)
    else:
        cards[team] = before[team] + value
        cards[other] = before[other] + left - value
    outcome = deal_outcome(
        rules,
        contract,
        cards=(cards[0], cards[1]),
        capot=capot,
        belote=facts.belote,
        announcements=facts.announcements,
    )
    mine = round_score(outcome.scores[team], rules.rounding)
    theirs = round_score(outcome.scores[other], rules.rounding)
    # A litige's reserve goes to the winner of the next deal: the defenders' hope.
    reserve = round_score(outcome.reserve, rules.rounding)
    return mine - theirs + (reserve if outcome.made is None and contract.team != team else 0)


def deal_worth(state: DealState) -> int:
    """The most one side could score in a finished deal: its contract (coinched or not), belote
    and announcements with a capot, by either side. A card's cost, halved to what a side's
    deal score lost (the site's figure), stays within it."""
    result = state.result
    if result is None:
        raise ValueError("the deal is not over")
    rules, contract = state.rules, result.contract
    best = 0
    for team in Team:
        cards = [0, 0]
        cards[team] = capot_value(rules, contract.strain)
        outcome = deal_outcome(
            rules,
            contract,
            cards=(cards[0], cards[1]),
            capot=team,
            belote=result.belote,
            announcements=result.announcements,
        )
        best = max(best, *(round_score(score, rules.rounding) for score in outcome.scores))
    return best


def _remaining(
    rules: Rules, strain: Strain, hands: Hands, trick: Sequence[tuple[Seat, Card]]
) -> int:
    points = values_for(rules, strain).points
    total = sum(points[card] for _, card in trick)
    for hand in hands:
        while hand:
            low = hand & -hand
            total += points[low.bit_length() - 1]
            hand ^= low
    return total


def _capot_open(observation: Observation, hands: Hands) -> tuple[bool, bool]:
    ns, ew = tricks_won(observation)
    left = (sum(h.bit_count() for h in hands) + len(observation.trick) + 3) // 4
    full = ns + ew + left == 8
    return (full and ew == 0, full and ns == 0)


def world_margins(
    observation: Observation, world: Hands, facts: DealFacts
) -> tuple[dict[Card, int], int]:
    """The deal's score margin of the seat's team with each legal card in one world, under
    best play afterwards (the solver, exact), and the solver's nodes it took."""
    contract = observation.contract
    assert contract is not None
    values, nodes = root_values(observation, world, order=VIEW_ORDER)
    remaining = _remaining(observation.rules, contract.strain, world, observation.trick)
    capot_open = _capot_open(observation, world)
    team = observation.seat.team
    margins = {
        card: deal_margin(
            observation.rules, contract, team=team,
            before=observation.points, value=value, remaining=remaining,
            capot_open=capot_open, facts=facts,
        )
        for card, value in values.items()
    }  # fmt: skip
    return margins, nodes


def seat_outcomes(
    observation: Observation,
    rng: random.Random,
    *,
    worlds: int = VIEW_WORLDS,
    node_budget: int = VIEW_NODES,
) -> list[dict[Card, int]]:
    """The score margin of each legal card in each world solved, the worlds drawn
    consistently with ``observation`` (more of them later in the deal, while the node budget
    lasts). Only the observation is read: never a hidden card."""
    tricks_left = 8 - len(observation.tricks)
    count = worlds if tricks_left >= 7 else worlds * 2 if tricks_left >= 5 else worlds * 4
    facts = DealFacts.of_observation(observation)
    outcomes: list[dict[Card, int]] = []
    nodes = 0
    for world in sample_worlds(observation, rng, count):
        if len(outcomes) >= MIN_WORLDS and nodes >= node_budget:
            break
        margins, work = world_margins(observation, world, facts)
        outcomes.append(margins)
        nodes += work
    return outcomes


def seat_view(
    observation: Observation,
    rng: random.Random,
    *,
    worlds: int = VIEW_WORLDS,
    node_budget: int = VIEW_NODES,
) -> tuple[dict[Card, float], int]:
    """The mean score margin of each legal card over the worlds of :func:`seat_outcomes`,
    and how many worlds were solved."""
    outcomes = seat_outcomes(observation, rng, worlds=worlds, node_budget=node_budget)
    if not outcomes:
        return {}, 0
    return {c: statistics.fmean(o[c] for o in outcomes) for c in outcomes[0]}, len(outcomes)


def _error(outcomes: Sequence[dict[Card, int]], best: Card, card: Card) -> float:
    """The standard error of the mean of ``best``'s lead over ``card`` across the worlds."""
    if len(outcomes) < 2:
        return 0.0
    differences = [o[best] - o[card] for o in outcomes]
    return statistics.stdev(differences) / sqrt(len(differences))


# -- the data -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardValue:
    """One legal card at a decision: the deal's score margin of the player's team with it,
    double-dummy and from the seat's view."""

    card: Card
    double_dummy: int
    seat_view: float


@dataclass(frozen=True, slots=True)
class CardReview:
    """One card played, and what it cost."""

    number: int
    """The card's place in the play, from 0 (the first lead) to 31."""
    seat: Seat
    card: Card
    values: tuple[CardValue, ...]
    """Every legal card, in the order of the cards (one only when the card was forced)."""
    worlds: int
    """The worlds the seat-view light averaged (0 for a forced card)."""
    double_dummy_best: Card
    double_dummy_cost: int
    """Deal-score points lost against the best card, all hands known."""
    seat_view_best: Card
    seat_view_cost: float
    """Deal-score points lost against the best card, from the seat's view."""
    seat_view_error: float
    """The standard error of :attr:`seat_view_cost` over the worlds: a mistake's cost is
    beyond twice it, as well as beyond the margin."""
    verdict: Verdict

    @property
    def trick(self) -> int:
        """The trick the card was played to, from 1."""
        return self.number // 4 + 1


@dataclass(frozen=True, slots=True)
class Moment:
    """A decision that moved the score: the card played, the better one (double-dummy), and
    the double-dummy line that follows the better card to the end of the deal."""

    number: int
    seat: Seat
    played: Card
    better: Card
    cost: int
    """Deal-score points the card played lost, double-dummy."""
    verdict: Verdict
    line: tuple[tuple[Seat, Card], ...]
    """The better card, then the double-dummy play to the end."""
    scores: tuple[int, int]
    """The deal's score (N–S, E–W) at the end of that line."""


@dataclass(frozen=True, slots=True)
class BidReview:
    """One bidding turn: what was said, and what the reviewing level would have said."""

    number: int
    seat: Seat
    action: Action
    suggested: Action

    @property
    def agrees(self) -> bool:
        return self.action == self.suggested


@dataclass(frozen=True, slots=True)
class ContractValue:
    """What a contract would have made double-dummy: ``team`` taking in ``strain``, the card
    points it takes, the highest bid it makes (auction tables; ``None`` if none), and the
    deal's score (N–S, E–W) at that bid (or at the lowest bid, failed). Belotes count;
    announcements are left out."""

    strain: Strain
    team: Team
    points: int
    bid: int | None
    scores: tuple[int, int]


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat's cards, mistakes and bad luck, and what its cards cost in all, from its view
    and double-dummy (deal-score points)."""

    seat: Seat
    cards: int
    mistakes: int
    bad_luck: int
    seat_view_cost: float
    double_dummy_cost: int


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """The whole analysis of one deal."""

    contract: Contract
    scores: tuple[int, int]
    """The deal's actual score (N–S, E–W)."""
    cards: tuple[CardReview, ...]
    moments: tuple[Moment, ...]
    bids: tuple[BidReview, ...]
    contracts: tuple[ContractValue, ...]
    seed: int
    margin: int
    """The :data:`MISTAKE_MARGIN` used."""

    def of_seat(self, seat: Seat) -> tuple[CardReview, ...]:
        return tuple(review for review in self.cards if review.seat == seat)

    def summary(self, seat: Seat) -> SeatSummary:
        """One seat's play in a few numbers."""
        mine = self.of_seat(seat)
        return SeatSummary(
            seat=seat,
            cards=len(mine),
            mistakes=sum(1 for r in mine if r.verdict == "mistake"),
            bad_luck=sum(1 for r in mine if r.verdict == "bad_luck"),
            seat_view_cost=round(sum(r.seat_view_cost for r in mine), 6),
            double_dummy_cost=sum(r.double_dummy_cost for r in mine),
        )

    @property
    def mistakes(self) -> tuple[CardReview, ...]:
        return tuple(review for review in self.cards if review.verdict == "mistake")


# -- the analysis -----------------------------------------------------------------------------


def _rng(seed: int, *parts: object) -> random.Random:
    """A generator of its own for each decision (string seeds hash the same everywhere)."""
    return random.Random(":".join(str(part) for part in (seed, *parts)))


def review_card(
    state: DealState,
    card: Card,
    *,
    number: int,
    facts: DealFacts,
    seed: int = 0,
    margin: int = MISTAKE_MARGIN,
    worlds: int = VIEW_WORLDS,
    node_budget: int = VIEW_NODES,
) -> CardReview:
    """The review of ``card`` played from ``state``; ``facts``: the deal's actual belotes
    and announcements (the double-dummy light's)."""
    seat = state.to_move
    assert seat is not None
    observation = state.observation(seat)
    legal = legal_cards(observation)
    if card not in legal:
        raise ValueError(f"the {card_code(card)} is not a legal card here")
    actual, _ = world_margins(observation, state.hands, facts)
    if len(legal) == 1:
        value = actual[card]
        return CardReview(
            number, seat, card, (CardValue(card, value, float(value)),), 0,
            card, 0, card, 0.0, 0.0, "forced",
        )  # fmt: skip
    outcomes = seat_outcomes(
        observation, _rng(seed, "card", number), worlds=worlds, node_budget=node_budget
    )
    view = {c: statistics.fmean(o[c] for o in outcomes) for c in legal}
    points = values_for(state.rules, observation.contract.strain).points  # type: ignore[union-attr]

    def best_of(values: dict[Card, float] | dict[Card, int]) -> Card:
        # The best; on a tie, the card played, then the one worth fewer points.
        return max(legal, key=lambda c: (round(values[c], 6), c == card, -points[c], -c))

    dd_best, view_best = best_of(actual), best_of(view)
    dd_cost = actual[dd_best] - actual[card]
    view_cost = round(view[view_best] - view[card], 6)
    error = round(_error(outcomes, view_best, card), 6)
    verdict: Verdict
    if view_cost > margin:
        verdict = "mistake" if view_cost > 2 * error else "unclear"
    elif dd_cost > 0:
        verdict = "bad_luck"
    else:
        verdict = "best"
    values = tuple(CardValue(c, actual[c], round(view[c], 6)) for c in sorted(legal))
    return CardReview(
        number, seat, card, values, len(outcomes), dd_best, dd_cost, view_best, view_cost,
        error, verdict,
    )  # fmt: skip


def best_line(state: DealState) -> tuple[tuple[tuple[Seat, Card], ...], DealState]:
    """The double-dummy play from ``state`` to the end of the deal, and the final state:
    each seat plays the card that takes most points for its side (on a tie, the one worth
    fewer points)."""
    line: list[tuple[Seat, Card]] = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None and state.values is not None
        observation = state.observation(seat)
        values, _ = root_values(observation, state.hands)
        points = state.values.points
        card = max(values, key=lambda c: (values[c], -points[c], -c))
        line.append((seat, card))
        state = state.apply(with_declarations(observation, card))
    return tuple(line), state


def _moment(state: DealState, review: CardReview) -> Moment:
    seat = review.seat
    observation = state.observation(seat)
    after = state.apply(with_declarations(observation, review.double_dummy_best))
    line, final = best_line(after)
    assert final.result is not None
    return Moment(
        review.number, seat, review.card, review.double_dummy_best, review.double_dummy_cost,
        review.verdict, ((seat, review.double_dummy_best), *line), final.result.scores,
    )  # fmt: skip


def contract_values(rules: Rules, hands: Hands, leader: Seat) -> tuple[ContractValue, ...]:
    """What each side would make in each strain it may bid, double-dummy, from the hands as
    the play begins (``leader`` leads the first trick)."""
    values: list[ContractValue] = []
    in_all_trump = rules.belote_in_all_trump
    for strain in auction_strains(rules):
        position = Position.from_rules(rules, strain, hands, leader=leader)
        ns = solve(position, side=Team.NS)
        capot = capot_value(rules, strain)
        total = deal_points(rules, strain)
        taken = {Team.NS: ns, Team.EW: 0 if ns >= capot else total - ns}
        if ns == 0 and total:
            taken[Team.EW] = solve(position, side=Team.EW)
        belote = [0, 0]
        for seat in Seat:
            if belote_pairs(hands[seat], strain, in_all_trump=in_all_trump):
                belote[seat & 1] += 20
        facts = DealFacts(belote=(belote[0], belote[1]))
        for team in Team:
            taker = Seat(team)  # N or E: the seat does not change the cards' value
            bids: Sequence[int | None] = (
                [None]
                if rules.bidding == "classic"
                else [v for v in bid_values(rules) if v <= CAPOT]
            )
            made_bid: int | None = None
            scores = (0, 0)
            for bid in bids:
                contract = Contract(taker, strain, bid)
                outcome = deal_outcome(
                    rules, contract, cards=(taken[Team.NS], taken[Team.EW]),
                    capot=team if taken[team] >= capot else None,
                    belote=facts.belote, announcements=(0, 0),
                )  # fmt: skip
                rounded = (
                    round_score(outcome.scores[0], rules.rounding),
                    round_score(outcome.scores[1], rules.rounding),
                )
                if bid is bids[0] or outcome.made:
                    scores = rounded
                if outcome.made:
                    made_bid = bid
            values.append(ContractValue(strain, team, taken[team], made_bid, scores))
    return tuple(values)


def analyse_play(
    start: DealState,
    actions: Sequence[Action],
    *,
    seed: int = 0,
    margin: int = MISTAKE_MARGIN,
    worlds: int = VIEW_WORLDS,
    node_budget: int = VIEW_NODES,
    moments: int = MOMENTS,
    bids: tuple[BidReview, ...] = (),
    contracts: tuple[ContractValue, ...] = (),
) -> DealAnalysis:
    """The analysis of the play from ``start`` (a state whose play has begun, or a position
    from :meth:`DealState.from_position`) through ``actions`` to the end of the deal."""
    states = [start]
    for action in actions:
        states.append(states[-1].apply(action))
    final = states[-1]
    if not final.is_over or final.result is None or start.contract is None:
        raise ValueError("the actions do not finish the deal")
    facts = DealFacts.of_result(final)
    reviews: list[CardReview] = []
    for number, (state, action) in enumerate(zip(states, actions, strict=False)):
        if not isinstance(action, Play):
            raise ValueError("only card plays are analysed from the start of the play")
        reviews.append(
            review_card(
                state,
                action.card,
                number=number,
                facts=facts,
                seed=seed,
                margin=margin,
                worlds=worlds,
                node_budget=node_budget,
            )
        )
    costly = sorted(
        (r for r in reviews if r.double_dummy_cost > 0),
        key=lambda r: (-r.double_dummy_cost, r.number),
    )[:moments]
    found = tuple(_moment(states[r.number], r) for r in sorted(costly, key=lambda r: r.number))
    return DealAnalysis(
        start.contract, final.result.scores, tuple(reviews), found, bids, contracts, seed, margin
    )


def review_bidding(
    state: DealState, *, level: str = "club", seed: int = 0
) -> tuple[BidReview, ...]:
    """What ``level`` would have said at each bidding turn of ``state``'s deal, from the
    bidder's observation only."""
    player = find_player(level)
    current = state.initial()
    reviews: list[BidReview] = []
    for number, action in enumerate(state.history):
        if isinstance(action, Play) or current.phase is not Phase.BIDDING:
            break
        suggested = player.decide(current.observation(action.seat), _rng(seed, "bid", number))
        reviews.append(BidReview(number, action.seat, action, suggested))
        current = current.apply(action)
    return tuple(reviews)


def analyse(
    record: Record,
    *,
    deal: int = -1,
    seed: int = 0,
    margin: int = MISTAKE_MARGIN,
    worlds: int = VIEW_WORLDS,
    node_budget: int = VIEW_NODES,
    moments: int = MOMENTS,
    bidding_level: str | None = "club",
) -> DealAnalysis:
    """The analysis of one finished deal of a record (the last by default): the cards, the
    moments, and (with ``bidding_level``) the bidding and the contracts' double-dummy value."""
    state = record.replay().deals[deal]
    if not state.is_over or state.contract is None:
        raise ValueError("the deal was not played to its end")
    first_play = next(i for i, a in enumerate(state.history) if isinstance(a, Play))
    start = state.initial().replay(state.history[:first_play])
    bids: tuple[BidReview, ...] = ()
    contracts: tuple[ContractValue, ...] = ()
    if bidding_level is not None:
        bids = review_bidding(state, level=bidding_level, seed=seed)
        assert start.to_move is not None
        contracts = contract_values(state.rules, start.hands, start.to_move)
    return analyse_play(
        start, state.history[first_play:], seed=seed, margin=margin, worlds=worlds,
        node_budget=node_budget, moments=moments, bids=bids, contracts=contracts,
    )  # fmt: skip


# -- as data for the site ------------------------------------------------------------------


def analysis_data(analysis: DealAnalysis) -> dict[str, Any]:
    """The analysis as JSON-ready data: seats by name (``N``), cards by code (``JH``),
    actions as the records write them, verdicts as codes; no words, for the site to word."""

    def line(plays: Sequence[tuple[Seat, Card]]) -> list[list[str]]:
        return [[seat.name, card_code(card)] for seat, card in plays]

    return {
        "contract": str(analysis.contract),
        "scores": list(analysis.scores),
        "seed": analysis.seed,
        "margin": analysis.margin,
        "cards": [
            {
                "number": r.number,
                "trick": r.trick,
                "seat": r.seat.name,
                "card": card_code(r.card),
                "verdict": r.verdict,
                "double_dummy": {
                    "best": card_code(r.double_dummy_best),
                    "cost": r.double_dummy_cost,
                },
                "seat_view": {
                    "best": card_code(r.seat_view_best),
                    "cost": r.seat_view_cost,
                    "error": r.seat_view_error,
                    "worlds": r.worlds,
                },
                "values": {
                    card_code(v.card): {"double_dummy": v.double_dummy, "seat_view": v.seat_view}
                    for v in r.values
                },
            }
            for r in analysis.cards
        ],
        "moments": [
            {
                "number": m.number,
                "seat": m.seat.name,
                "played": card_code(m.played),
                "better": card_code(m.better),
                "cost": m.cost,
                "verdict": m.verdict,
                "line": line(m.line),
                "scores": list(m.scores),
            }
            for m in analysis.moments
        ],
        "bids": [
            {
                "number": b.number,
                "seat": b.seat.name,
                "action": str(b.action),
                "suggested": str(b.suggested),
                "agrees": b.agrees,
            }
            for b in analysis.bids
        ],
        "contracts": [
            {
                "strain": c.strain.code,
                "team": c.team.name,
                "points": c.points,
                "bid": c.bid,
                "scores": list(c.scores),
            }
            for c in analysis.contracts
        ],
        "seats": {
            seat.name: dataclasses.asdict(analysis.summary(seat)) | {"seat": seat.name}
            for seat in Seat
        },
    }


# -- in words, for the command line ------------------------------------------------------------

_VERDICT_TEXT: Final = {
    "forced": "forced",
    "best": "best",
    "bad_luck": "bad luck",
    "unclear": "unclear",
    "mistake": "MISTAKE",
}


def text_report(analysis: DealAnalysis) -> str:
    """The analysis in plain English, one line a card (the site words the same data in its
    six languages)."""
    ns, ew = analysis.scores
    lines = [f"Contract {analysis.contract}: NS {ns}, EW {ew}"]
    if analysis.contracts:
        lines.append("Contracts double-dummy (card points, best bid, score NS/EW):")
        for value in analysis.contracts:
            bid = "-" if value.bid is None else str(value.bid)
            lines.append(
                f"  {value.team.name} {value.strain.code}: {value.points} pts, bid {bid}, "
                f"{value.scores[0]}/{value.scores[1]}"
            )
    if analysis.bids:
        lines.append("Bidding (said / suggested):")
        for turn in analysis.bids:
            mark = "" if turn.agrees else "  <-"
            lines.append(f"  {turn.action} / {turn.suggested}{mark}")
    for seat in Seat:
        total = analysis.summary(seat)
        lines.append(
            f"{seat.name}: {total.mistakes} mistakes, {total.bad_luck} bad luck; cost "
            f"{total.seat_view_cost:.0f} from its view, {total.double_dummy_cost} double-dummy"
        )
    lines.append("Cards (cost double-dummy / from the seat's view, in deal score):")
    for review in analysis.cards:
        text = f"  {review.trick}. {review.seat.name} {card_code(review.card)}"
        if review.verdict != "forced":
            text += (
                f"  dd -{review.double_dummy_cost} (best {card_code(review.double_dummy_best)})"
                f"  view -{review.seat_view_cost:.1f} (best {card_code(review.seat_view_best)},"
                f" {review.worlds} worlds)"
            )
        lines.append(f"{text}  {_VERDICT_TEXT[review.verdict]}")
    if analysis.moments:
        lines.append("Moments of the deal:")
        for moment in analysis.moments:
            line = " ".join(f"{s.name}:{card_code(c)}" for s, c in moment.line)
            lines.append(
                f"  card {moment.number + 1}: {moment.seat.name} {card_code(moment.played)} cost "
                f"{moment.cost}; better {card_code(moment.better)} "
                f"-> NS {moment.scores[0]}, EW {moment.scores[1]}: {line}"
            )
    return "\n".join(lines)


__all__ = [
    "MISTAKE_MARGIN",
    "BidReview",
    "CardReview",
    "CardValue",
    "ContractValue",
    "DealAnalysis",
    "DealFacts",
    "Moment",
    "SeatSummary",
    "Verdict",
    "analyse",
    "analyse_play",
    "analysis_data",
    "best_line",
    "contract_values",
    "deal_margin",
    "deal_worth",
    "review_bidding",
    "review_card",
    "seat_view",
    "text_report",
    "world_margins",
]
