"""Training problems: every committed problem's solution re-checked by the solver."""

from __future__ import annotations

import dataclasses

import pytest

from cardavia.ai.hints import REASONS
from cardavia.ai.problems import DATA, Problem, check_problem, load_problems
from cardavia.belote import Pass, Play

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


def test_a_bidding_problem_counts_how_often_each_contract_is_made() -> None:
    """For each action it weighs, a bidding problem keeps the share of the simulated deals in
    which the seat's side takes and makes its contract (and the share in which the opponents
    make theirs): what its solution tells the player, re-checked with the values above."""
    bidding = [p for p in PROBLEMS if p.theme == "bidding"]
    assert bidding
    for problem in bidding:
        assert [action for action, _, _ in problem.made] == [a for a, _ in problem.values]
        for _, ours, theirs in problem.made:
            assert 0.0 <= ours <= 1.0 and 0.0 <= theirs <= 1.0 and ours + theirs <= 1.0
    # A bid that pays is made more often than passing lets the side make a contract.
    for problem in bidding:
        if isinstance(problem.solution, Pass):
            continue
        made = {action: ours for action, ours, _ in problem.made}
        assert made[problem.solution] > made[next(a for a in made if isinstance(a, Pass))]
    card = next(p for p in PROBLEMS if p.theme != "bidding")
    assert card.made == () and "made" not in card.to_data()
