"""The arena: duplicate pairs, reproducible from a seed, resumable."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardavia.ai.arena import ArenaResult, run_arena
from cardavia.cli import app


def test_the_same_seed_gives_the_same_numbers() -> None:
    one = run_arena("club", "beginner", preset="maison", pairs=6, seed=4)
    two = run_arena("club", "beginner", preset="maison", pairs=6, seed=4)
    assert one.margins == two.margins
    assert (one.contracts, one.made, one.decisions) == (two.contracts, two.made, two.decisions)


def test_a_resumed_run_equals_an_unbroken_one(tmp_path: Path) -> None:
    unbroken = run_arena("club", "beginner", preset="coinche", pairs=6, seed=2)
    first = run_arena("club", "beginner", preset="coinche", pairs=3, seed=2)
    first.save(tmp_path / "run.json")
    resumed = run_arena(
        "club", "beginner", preset="coinche", pairs=6, seed=2,
        resume=ArenaResult.load(tmp_path / "run.json"),
    )  # fmt: skip
    assert resumed.margins == unbroken.margins


@pytest.mark.slow  # processes
def test_pairs_spread_over_processes_give_the_figures_of_one(tmp_path: Path) -> None:
    """Each pair is drawn from the seed and its number: two processes give every pair as
    one does, in order, and a run saved by one resumes on the other."""
    one = run_arena("strong", "club", preset="coinche", pairs=3, seed=5, play_only=True)
    two = run_arena(
        "strong", "club", preset="coinche", pairs=3, seed=5, play_only=True, processes=2
    )
    assert two.margins == one.margins
    assert (two.contracts, two.made, two.decisions) == (one.contracts, one.made, one.decisions)
    first = run_arena("club", "beginner", preset="maison", pairs=2, seed=7, processes=2)
    first.save(tmp_path / "run.json")
    resumed = run_arena(
        "club", "beginner", preset="maison", pairs=5, seed=7,
        resume=ArenaResult.load(tmp_path / "run.json"),
    )  # fmt: skip
    unbroken = run_arena("club", "beginner", preset="maison", pairs=5, seed=7)
    assert resumed.margins == unbroken.margins


def test_the_command_prints_the_figures(tmp_path: Path) -> None:
    save = tmp_path / "arena.json"
    args = ["arena", "--a", "club", "--b", "beginner", "--deals", "3", "--save", str(save)]
    outcome = CliRunner().invoke(app, args)
    assert outcome.exit_code == 0, outcome.output
    assert "mean margin per deal" in outcome.output
    assert "95% CI" in outcome.output
    assert len(ArenaResult.load(save).margins) == 3
    other = CliRunner().invoke(
        app, [*args[:-4], "--b", "club", "--deals", "3", "--save", str(save)]
    )
    assert other.exit_code == 2


def test_the_card_play_alone_is_measured_in_card_points() -> None:
    """With ``play_only`` the club player bids for both teams, the same auction at both
    tables: the same level on both sides then ties every pair exactly, and the margin is in
    card points (a deal's 162 at most); the club player outplays the beginner."""
    even = run_arena("club", "club", preset="coinche", pairs=8, seed=3, play_only=True)
    assert even.margins == [0.0] * 8 and even.contracts == 16
    ahead = run_arena("club", "beginner", preset="cardavia", pairs=12, seed=3, play_only=True)
    assert all(abs(margin) <= 252 for margin in ahead.margins)
    assert ahead.mean > 0
    assert "card play, card points" in ahead.summary()
    whole = run_arena("club", "beginner", preset="cardavia", pairs=12, seed=3)
    assert whole.margins != ahead.margins


def test_a_version_plays_and_a_run_keeps_its_measure(tmp_path: Path) -> None:
    """A level's kept version is a player of the arena; a saved run of the card play is
    not resumed as a run of whole deals."""
    save = tmp_path / "arena.json"
    args = ["arena", "--a", "club", "--b", "beginner", "--deals", "2", "--save", str(save)]
    outcome = CliRunner().invoke(app, [*args, "--play-only"])
    assert outcome.exit_code == 0, outcome.output
    assert ArenaResult.load(save).play_only
    assert CliRunner().invoke(app, args).exit_code == 2
    unknown = CliRunner().invoke(app, ["arena", "--a", "expert-1999", "--deals", "1"])
    assert unknown.exit_code == 2 and "expert-2026-12" in unknown.output
