"""Training problems: every committed problem's solution re-checked by the solver."""

from __future__ import annotations

import dataclasses

import pytest

from cardavia.ai.hints import REASONS
from cardavia.ai.problems import DATA, Problem, check_problem, load_problems
from cardavia.belote import Play

PROBLEMS = load_problems(DATA)


def test_the_committed_set_covers_the_themes() -> None:
    assert len(PROBLEMS) >= 8
    assert len({p.id for p in PROBLEMS}) == len(PROBLEMS)
    themes = {p.theme for p in PROBLEMS}
    assert {"leads", "trumping", "last_tricks", "defence", "bidding"} <= themes
    assert all(p.explanation in REASONS for p in PROBLEMS)


@pytest.mark.parametrize("problem", PROBLEMS, ids=[p.id for p in PROBLEMS])
def test_every_solution_is_rechecked_by_the_solver(problem: Problem) -> None:
    state = problem.state()
    assert state.to_move == problem.seat
    observation = state.observation(problem.seat)
    solution = problem.solution
    if isinstance(solution, Play):
        assert problem.theme != "bidding"
        assert any(
            isinstance(a, Play) and a.card == solution.card for a in observation.legal_actions
        )
    else:
        assert problem.theme == "bidding"
        assert solution in observation.legal_actions
    assert problem.margin >= 20
    assert check_problem(problem)


def test_a_problem_round_trips_through_its_data() -> None:
    for problem in PROBLEMS:
        assert Problem.from_data(problem.to_data()) == problem


def test_a_wrong_solution_is_caught() -> None:
    problem = PROBLEMS[0]
    other = next(c for c, _ in problem.values if c != problem.solution)
    assert not check_problem(dataclasses.replace(problem, solution=other))
