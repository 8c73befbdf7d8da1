"""Training problems: positions from deals the computer players play where one card (or
one bid) is clearly best from the seat's view, each with its solution, theme and explanation.

A candidate is every decision of a deal with two legal cards or more. It is kept when, over
many worlds drawn consistently with the seat's observation (never the hidden cards), the best
card's mean deal-score margin is ahead of the second's by :data:`PROBLEM_MARGIN` or more, and
by more than twice the standard error of that difference
(:func:`cardavia.ai.expert.is_clear`). Bidding problems are found the same way among the
actions the bidding simulation considers (:func:`cardavia.ai.bidding.evaluate`: each deal
drawn, the bidding finished by the club player's rules, the contract valued by the solver
and its playouts). The worlds come from a generator seeded by the problem's seed, so that
:func:`check_problem` finds the same values again with the solver: the test suite re-checks
every committed problem that way.

The committed set (``cardavia/teach/data/problems.json``) is made by::

    python -m cardavia.ai.problems src/cardavia/teach/data/problems.json
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from cardavia.ai.analysis import DealFacts, world_margins
from cardavia.ai.bidding import STRONG_BIDDING, candidates, draw_worlds, evaluate
from cardavia.ai.club import ClubPlayer
from cardavia.ai.expert import is_clear
from cardavia.ai.hints import bid_reason, play_reason
from cardavia.ai.levels import find_player
from cardavia.ai.strong import legal_cards
from cardavia.ai.worlds import sample_worlds
from cardavia.belote import (
    Action,
    Card,
    DealState,
    Observation,
    Phase,
    Play,
    Seat,
    card_code,
    find_rules,
    parse_action,
    parse_card,
    values_for,
)

PROBLEM_MARGIN: Final = 20
"""The least gap, in deal-score points, between the best card and the second."""

PROBLEM_WORLDS: Final = 24
"""The worlds a problem is judged on."""

BID_WORLDS: Final = 40
"""The deals a bidding problem is judged on."""

Theme = Literal["leads", "trumping", "last_tricks", "defence", "bidding", "play"]
"""What a problem teaches (``play``: the taker's side, none of the others)."""

DATA: Final = Path(__file__).resolve().parent.parent / "teach" / "data" / "problems.json"
"""The committed problems."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A position to solve: the deal (preset, dealer, deck) and the actions before it, the
    seat to play, and the answer."""

    id: str
    rules: str
    dealer: Seat
    deck: tuple[Card, ...]
    actions: tuple[Action, ...]
    seat: Seat
    solution: Action
    """The card to play (a :class:`Play`, without announcements) or the bid."""
    theme: Theme
    explanation: str
    """A reason code of :data:`cardavia.ai.hints.REASONS`."""
    arguments: tuple[tuple[str, str | int | float], ...]
    margin: float
    """The mean deal-score gap between the solution and the second best action."""
    values: tuple[tuple[Action, float], ...]
    """Each action's mean deal-score margin for the seat's team over the worlds: every legal
    card, or the bids the simulation considers."""
    seed: int
    worlds: int
    made: tuple[tuple[Action, float, float], ...] = ()
    """A bidding problem's count, for each action of :attr:`values`: the share of the
    simulated deals in which the seat's team ends as the takers and makes the contract, and
    the share in which the other team does (:attr:`cardavia.ai.bidding.Estimate.made`)."""

    def state(self) -> DealState:
        """The position: the deal replayed to the seat's turn."""
        start = DealState.from_deck(find_rules(self.rules), dealer=self.dealer, deck=self.deck)
        return start.replay(self.actions)

    def to_data(self) -> dict[str, Any]:
        made = {str(a): {"ours": ours, "theirs": theirs} for a, ours, theirs in self.made}
        return {
            "id": self.id,
            "rules": self.rules,
            "dealer": self.dealer.name,
            "deck": " ".join(card_code(c) for c in self.deck),
            "actions": [str(a) for a in self.actions],
            "seat": self.seat.name,
            "solution": str(self.solution),
            "theme": self.theme,
            "explanation": self.explanation,
            "arguments": dict(self.arguments),
            "margin": self.margin,
            "values": {str(a): v for a, v in self.values},
            "seed": self.seed,
            "worlds": self.worlds,
        } | ({"made": made} if made else {})

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Problem:
        return cls(
            id=str(data["id"]),
            rules=str(data["rules"]),
            dealer=Seat[data["dealer"]],
            deck=tuple(parse_card(c) for c in str(data["deck"]).split()),
            actions=tuple(parse_action(a) for a in data["actions"]),
            seat=Seat[data["seat"]],
            solution=parse_action(data["solution"]),
            theme=data["theme"],
            explanation=str(data["explanation"]),
            arguments=tuple(data["arguments"].items()),
            margin=float(data["margin"]),
            values=tuple((parse_action(a), float(v)) for a, v in data["values"].items()),
            seed=int(data["seed"]),
            worlds=int(data["worlds"]),
            made=tuple(
                (parse_action(a), float(shares["ours"]), float(shares["theirs"]))
                for a, shares in data.get("made", {}).items()
            ),
        )


def judge(
    observation: Observation, seed: int, worlds: int = PROBLEM_WORLDS
) -> tuple[dict[Card, float], float, bool]:
    """Each legal card's mean deal-score margin over ``worlds`` worlds drawn from the
    observation (by a generator seeded with ``seed``), the gap between the best two, and
    whether the best is clearly ahead (:func:`~cardavia.ai.expert.is_clear`)."""
    rng = random.Random(f"problem:{seed}")
    facts = DealFacts.of_observation(observation)
    outcomes: list[dict[Card, float]] = []
    for world in sample_worlds(observation, rng, worlds):
        margins, _ = world_margins(observation, world, facts)
        outcomes.append({card: float(value) for card, value in margins.items()})
    means = {c: round(statistics.fmean(o[c] for o in outcomes), 3) for c in outcomes[0]}
    ranked = sorted(means.values(), reverse=True)
    gap = round(ranked[0] - ranked[1], 3) if len(ranked) > 1 else 0.0
    return means, gap, is_clear(outcomes)


def theme_of(observation: Observation, card: Card) -> Theme:
    """What the decision is about, most specific first."""
    contract = observation.contract
    assert contract is not None
    card_values = values_for(observation.rules, contract.strain)
    if len(observation.tricks) >= 5:
        return "last_tricks"
    trick = observation.trick
    if (
        trick
        and card_values.trump_mask >> card & 1
        and not card_values.trump_mask >> trick[0][1] & 1
    ):
        return "trumping"
    if not trick:
        return "leads"
    if observation.seat.team != contract.team:
        return "defence"
    return "play"


def judge_bid(
    observation: Observation, seed: int, worlds: int = BID_WORLDS
) -> tuple[dict[Action, float], float, bool, dict[Action, tuple[float, float]]]:
    """The bidding simulation's mean score margin of each action it considers, over
    ``worlds`` deals drawn from the observation (by a generator seeded with ``seed``), the gap
    between the best two, whether the best is ahead by more than twice the standard
    error of that gap, and for each action the share of those deals in which the seat's
    team takes and makes the contract, and the share in which the other team does."""
    budget = dataclasses.replace(STRONG_BIDDING, worlds=worlds)
    actions = candidates(observation, budget)
    baseline = ClubPlayer().decide(observation, random.Random(0))
    if baseline not in actions:
        actions.append(baseline)
    if len(actions) < 2:
        return {}, 0.0, False, {}
    drawn = draw_worlds(observation, random.Random(f"problem:{seed}"), budget)
    estimates = evaluate(observation, actions, drawn, budget)
    means = {action: round(estimate.mean, 3) for action, estimate in estimates.items()}
    made = {
        action: (round(estimate.made, 3), round(estimate.made_against, 3))
        for action, estimate in estimates.items()
    }
    best, second = sorted(actions, key=lambda a: -means[a])[:2]
    gains = [
        a - b for a, b in zip(estimates[best].by_world, estimates[second].by_world, strict=True)
    ]
    gap = round(means[best] - means[second], 3)
    error = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
    return means, gap, gap > 2 * error, made


def _card_problem(
    final: DealState, state: DealState, number: int, seat: Seat, seed: int, worlds: int
) -> Problem | None:
    observation = state.observation(seat)
    values, gap, clear = judge(observation, seed, worlds)
    if gap < PROBLEM_MARGIN or not clear:
        return None
    best = max(values, key=lambda c: values[c])
    assert observation.contract is not None
    card_values = values_for(observation.rules, observation.contract.strain)
    reason = play_reason(observation, best, values, card_values)
    return Problem(
        id=f"{final.rules.name}-{seed // 1000}-{number}",
        rules=final.rules.name,
        dealer=final.dealer,
        deck=final.deck,
        actions=final.history[:number],
        seat=seat,
        solution=Play(seat, best),
        theme=theme_of(observation, best),
        explanation=reason.code,
        arguments=reason.args,
        margin=gap,
        values=tuple((Play(seat, c), v) for c, v in sorted(values.items())),
        seed=seed,
        worlds=worlds,
    )


def _bid_problem(
    final: DealState, state: DealState, number: int, seat: Seat, seed: int, worlds: int
) -> Problem | None:
    observation = state.observation(seat)
    if observation.to_move != seat or len(observation.legal_actions) < 2:
        return None
    values, gap, clear, made = judge_bid(observation, seed, worlds)
    if gap < PROBLEM_MARGIN or not clear:
        return None
    best = max(values, key=lambda a: values[a])
    reason = bid_reason(best)
    return Problem(
        id=f"{final.rules.name}-{seed // 1000}-{number}",
        rules=final.rules.name,
        dealer=final.dealer,
        deck=final.deck,
        actions=final.history[:number],
        seat=seat,
        solution=best,
        theme="bidding",
        explanation=reason.code,
        arguments=reason.args,
        margin=gap,
        values=tuple(values.items()),
        seed=seed,
        worlds=worlds,
        made=tuple((action, *made[action]) for action in values),
    )


def problems_of_deal(
    final: DealState,
    *,
    seed: int,
    worlds: int = PROBLEM_WORLDS,
    bid_worlds: int = BID_WORLDS,
) -> list[Problem]:
    """The problems found in a finished deal: its card plays and its bids."""
    found: list[Problem] = []
    state = final.initial()
    for number, action in enumerate(final.history):
        problem_seed = seed * 1000 + number
        problem: Problem | None = None
        if isinstance(action, Play) and state.phase is Phase.PLAYING:
            if len(legal_cards(state.observation(action.seat))) > 1:
                problem = _card_problem(final, state, number, action.seat, problem_seed, worlds)
        elif state.phase is Phase.BIDDING and bid_worlds:
            problem = _bid_problem(final, state, number, action.seat, problem_seed, bid_worlds)
        if problem is not None:
            found.append(problem)
        state = state.apply(action)
    return found


def generate(
    presets: Sequence[str] = ("coinche", "cardavia"),
    seeds: Iterable[int] = range(8),
    *,
    level: str = "club",
    worlds: int = PROBLEM_WORLDS,
    per_deal: int = 2,
) -> list[Problem]:
    """Problems from deals played by four players of ``level``: at most ``per_deal`` a deal,
    of different themes (the clearest of each), in the order of the deals."""
    player = find_player(level)
    problems: list[Problem] = []
    for preset in presets:
        rules = find_rules(preset)
        for seed in seeds:
            rng = random.Random(f"deal:{preset}:{seed}")
            state = DealState.deal(rules, dealer=Seat(seed % 4), rng=rng)
            while not state.is_over:
                seat = state.to_move
                assert seat is not None
                state = state.apply(player.decide(state.observation(seat), rng))
            if state.contract is None:
                continue
            # The clearest problem of each theme, then the clearest themes.
            clearest: dict[str, Problem] = {}
            for problem in problems_of_deal(state, seed=seed, worlds=worlds):
                if problem.margin > getattr(clearest.get(problem.theme), "margin", -1.0):
                    clearest[problem.theme] = problem
            kept = sorted(clearest.values(), key=lambda p: -p.margin)[:per_deal]
            problems.extend(sorted(kept, key=lambda p: len(p.actions)))
    return problems


def check_problem(problem: Problem) -> bool:
    """Whether the solver, on the problem's worlds, still finds its solution best by its
    margin and the same values."""
    state = problem.state()
    if state.to_move != problem.seat and problem.theme != "bidding":
        return False
    observation = state.observation(problem.seat)
    values: dict[Action, float]
    made: dict[Action, tuple[float, float]] = {}
    if problem.theme == "bidding":
        values, gap, clear, made = judge_bid(observation, problem.seed, problem.worlds)
    else:
        by_card, gap, clear = judge(observation, problem.seed, problem.worlds)
        values = {Play(problem.seat, c): v for c, v in sorted(by_card.items())}
    best = max(values, key=lambda a: values[a]) if values else None
    return (
        best == problem.solution
        and clear
        and abs(gap - problem.margin) < 1e-6
        and tuple(values.items()) == problem.values
        and tuple((action, *made[action]) for action in made) == problem.made
    )


def load_problems(path: Path = DATA) -> list[Problem]:
    """The problems of a file written by :func:`save_problems`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Problem.from_data(item) for item in data["problems"]]


def save_problems(problems: Sequence[Problem], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": "cardavia-problems/1", "problems": [p.to_data() for p in problems]}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: Sequence[str]) -> int:
    """``python -m cardavia.ai.problems OUT``: generate the committed set."""
    out = Path(argv[0]) if argv else DATA
    problems = generate()
    save_problems(problems, out)
    themes: dict[str, int] = {}
    for problem in problems:
        themes[problem.theme] = themes.get(problem.theme, 0) + 1
    print(f"{len(problems)} problems in {out}: {themes}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


__all__ = [
    "PROBLEM_MARGIN",
    "Problem",
    "check_problem",
    "generate",
    "judge",
    "load_problems",
    "problems_of_deal",
    "save_problems",
    "theme_of",
]
