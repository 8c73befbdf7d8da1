"""The arena: duplicate pairs, reproducible from a seed, resumable."""

from __future__ import annotations

from pathlib import Path

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
