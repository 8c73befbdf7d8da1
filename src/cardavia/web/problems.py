"""The training problems (docs/learning.md), as data for the site's pages: each as its seat
sees it (the view of :func:`cardavia.live.views.view_of`, never the other hands), with its
solution and why, in the reader's language; and the problem of the day."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from functools import cache
from typing import Any

from cardavia.ai.problems import Problem, load_problems
from cardavia.belote import Coinche, Pass, Play, card_code
from cardavia.live.learn import action_text
from cardavia.live.protocol import encode_action
from cardavia.live.views import view_of
from cardavia.teach import learning
from cardavia.words import Wording, rules_text


@cache
def problems() -> tuple[Problem, ...]:
    """The committed training problems (read once)."""
    return tuple(load_problems())


def today() -> int:
    """Days since 1970-01-01, in UTC: the problem of the day changes at midnight UTC."""
    return (datetime.datetime.now(datetime.UTC).date() - datetime.date(1970, 1, 1)).days


def problem_data(problem: Problem, wording: Wording) -> dict[str, Any]:
    """A problem as its seat sees it, with its solution and why."""
    state = problem.state()
    observation = state.observation(problem.seat)
    deck = state.rules.deck
    text = rules_text(wording.lang, deck)
    reason = dict(problem.arguments)
    view = view_of(observation, wording)
    solution = problem.solution
    legal = observation.legal_actions
    explanation = learning.reason_text(text, problem.explanation, reason)
    if problem.theme == "bidding" and problem.made:
        explanation += " " + _odds(problem, wording, text)
    elif problem.theme == "bidding" and problem.values:
        # Why, from the simulation: each action's average, the best first.
        averages = sorted(problem.values, key=lambda pair: -pair[1])
        said = [(action_text(action, wording, deck), value) for action, value in averages]
        explanation += " " + learning.simulation_text(text, said)
    return {
        "id": problem.id,
        "theme": problem.theme,
        "theme_title": learning.theme_title(text, problem.theme),
        "rules": problem.rules,
        "seat": problem.seat.name,
        "view": view,
        "solution": encode_action(solution),
        "solution_card": card_code(solution.card) if isinstance(solution, Play) else None,
        "solution_text": action_text(solution, wording, deck),
        "explanation": explanation,
        "only_bids": not any(isinstance(a, Play) for a in legal),
        "margin": problem.margin,
        "seat_names": {code: wording.seat(code) for code in "NESW"},
        "legal_cards": sorted({card_code(a.card) for a in legal if isinstance(a, Play)}),
        "legal_bids": [
            {"action": encode_action(a), "text": action_text(a, wording, deck)}
            for a in legal
            if not isinstance(a, Play)
        ],
    }


def _odds(problem: Problem, wording: Wording, text: Wording) -> str:
    """A bidding problem's why, from the simulation's count: how often the contract is made
    after the bid (after the runner-up when the answer is to pass), and the averages of the
    answer and the runner-up."""
    deck = problem.state().rules.deck
    values = dict(problem.values)
    best, second = sorted(values, key=lambda a: -values[a])[:2]
    told, other = (second, best) if isinstance(best, Pass) else (best, second)
    shares = {action: (ours, theirs) for action, ours, theirs in problem.made}
    against = isinstance(told, Coinche)
    return learning.odds_text(
        text,
        action=action_text(told, wording, deck),
        made=shares[told][1 if against else 0],
        value=values[told],
        alternative=action_text(other, wording, deck),
        other=values[other],
        against=against,
    )


def problems_data(
    wording: Wording, theme: str | None = None, given: Sequence[Problem] | None = None
) -> list[dict[str, Any]]:
    """The problems (of a theme, or all) in ``wording``'s language."""
    chosen = problems() if given is None else given
    return [problem_data(p, wording) for p in chosen if theme is None or p.theme == theme]


def daily_problem(day: int | None = None) -> Problem:
    """The problem of the day."""
    by_id = {p.id: p for p in problems()}
    return by_id[learning.problem_of_the_day(list(by_id), today() if day is None else day)]


__all__ = ["daily_problem", "problem_data", "problems", "problems_data", "today"]
