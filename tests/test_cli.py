"""``cardavia play`` driven by piped answers, and ``cardavia replay`` on records."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from cardavia.ai import find_player
from cardavia.belote import Seat, find_rules
from cardavia.belote.match import Match
from cardavia.belote.notation import Record, write_record
from cardavia.cli import app

runner = CliRunner()
PROMPT = "? for the first): "
LABEL_CODES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def play(*args: str, answers: list[str]) -> tuple[int, str]:
    """Run ``cardavia play`` with these answers on stdin; its exit code and output."""
    result = runner.invoke(app, ["play", *args], input="".join(a + "\n" for a in answers))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_a_deal_by_first_choices_completes_with_the_score() -> None:
    code, output = play("--rules", "cardavia", "--seed", "3", answers=["?"] * 40)
    assert code == 0
    assert "Trick 8:" in output
    assert "deal score" in output and "card points" in output
    assert re.search(r"(You and North|East and West) win, \d+ to \d+\.|A draw", output)


def test_a_deal_by_numbers_completes() -> None:
    code, output = play(
        "--rules", "cardavia", "--seed", "11", "--level", "beginner", answers=["1"] * 40
    )
    assert code == 0
    assert "deal score" in output


def test_every_preset_and_level_plays_through() -> None:
    for rules in ("maison", "coinche", "maghreb"):
        for level in ("beginner", "club"):
            code, output = play(
                "--rules", rules, "--level", level, "--seed", "5", answers=["?"] * 30
            )
            assert code == 0, output
            assert "deal score" in output, (rules, level)
            # The answers run out in the middle of the match: it stops cleanly.
            assert "(the input has ended)" in output and "Stopped." in output


def test_q_stops_the_game() -> None:
    code, output = play("--rules", "maison", "--seed", "2", answers=["q"])
    assert code == 0
    assert "Stopped." in output


def first_illegal_prompt(output: str) -> tuple[int, str] | None:
    """The number of answers given before the first card prompt that shows an illegal
    (bracketed) card, and that card's code."""
    for before, chunk in enumerate(output.split(PROMPT)[:-1]):
        hand = chunk[chunk.rfind("Your hand:") :] if "Your hand:" in chunk else ""
        found = re.search(r"\((10|[7-9JQKA])([♠♥♦♣])\)", hand)
        if found and "Your card" in chunk[chunk.rfind("Your hand:") :]:
            rank = "T" if found.group(1) == "10" else found.group(1)
            return before, rank + LABEL_CODES[found.group(2)]
    return None


def test_an_illegal_card_is_refused_and_changes_nothing() -> None:
    for seed in range(1, 30):
        args = ("--rules", "cardavia", "--seed", str(seed))
        code, first = play(*args, answers=["?"] * 40)
        found = first_illegal_prompt(first)
        if found is not None:
            break
    else:
        raise AssertionError("no seed gives the person an illegal card")
    before, card = found
    code, second = play(*args, answers=["?"] * before + [card] + ["?"] * 40)
    assert code == 0
    refusal = re.search(
        r"Your card \(code or number [^)]*\? for the first\): "
        + card
        + r"\n(Not allowed: [^\n]*)\n",
        second,
    )
    assert refusal is not None, second
    assert refusal.group(1).startswith("Not allowed: you must")
    # The same prompt comes again, and the game goes on exactly as without the refused card.
    assert second.replace(refusal.group(0), "", 1) == first


def test_a_bad_bid_is_refused_with_the_reason() -> None:
    code, output = play("--rules", "coinche", "--seed", "5", answers=["70 H", "xx", "?", "q"])
    assert code == 0
    assert "Not allowed: 70 H is not a bid of these rules." in output
    assert "Not a bid: 'xx'" in output


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardavia.cli", "play", "--seed", "4"],
        input="?\n" * 40,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "deal score" in done.stdout
    assert "\x1b[" not in done.stdout  # plain text in a pipe


def test_unknown_rules_or_level() -> None:
    result = runner.invoke(app, ["play", "--rules", "belotte"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["play", "--level", "grandmaster"])
    assert result.exit_code == 2


# -- replay -------------------------------------------------------------------------------


def played_record(rules: str, deals: int) -> Record:
    """A record of ``deals`` deals played by club players."""
    rng = random.Random(9)
    players = [find_player("club") for _ in Seat]
    match = Match.start(find_rules(rules), dealer=Seat.W, rng=rng)
    count = 1
    while True:
        while not match.deal.is_over:
            seat = match.deal.to_move
            assert seat is not None
            match = match.apply(players[seat].decide(match.deal.observation(seat), rng))
        if match.is_over or count == deals:
            return Record.from_match(match)
        match = match.next_deal(rng=rng)
        count += 1


def test_replay_prints_each_trick_and_the_scores(tmp_path: Path) -> None:
    record = played_record("maison", 3)
    path = tmp_path / "match.txt"
    path.write_text(write_record(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    match = record.replay()
    played = [deal for deal in match.deals if deal.result is not None]
    assert result.output.count("Trick 8:") == len(played)
    assert result.output.count("deal score") == len(played)
    assert f"NS {match.scores[0]}, EW {match.scores[1]}" in result.output
    for deal in played:
        assert deal.result is not None
        assert str(deal.result) in result.output


def test_replay_reads_json(tmp_path: Path) -> None:
    record = played_record("coinche", 2)
    path = tmp_path / "match.json"
    path.write_text(record.to_json(), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Total" in result.output


def test_a_bad_record_prints_the_error_with_its_line(tmp_path: Path) -> None:
    text = write_record(played_record("cardavia", 1))
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("Trick 2:")) + 1
    lines[number - 1] = "Trick 2: N 7S, E 7S, S 7S, W 7S"
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"line {number}" in result.output


def test_a_missing_file_exits_with_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nothing.txt")])
    assert result.exit_code == 1
    assert "cannot read" in result.output


def test_a_card_is_read_as_the_table_prints_it() -> None:
    """The person may type a card as the hand shows it (``9♦``), in either case, or its code:
    each is the same card as choosing it by number."""
    args = ("--rules", "cardavia", "--seed", "3")
    code, by_number = play(*args, answers=["1", "q"])
    shown = re.search(r"1:(\S+)", by_number)
    assert code == 0 and shown is not None
    label = shown.group(1)
    rank, suit = label[:-1], label[-1]
    typed_code = ("T" if rank == "10" else rank) + LABEL_CODES[suit]
    for typed in (label, label.lower(), typed_code, typed_code.lower()):
        code, output = play(*args, answers=[typed, "q"])
        assert code == 0
        assert "unknown card code" not in output
        assert output.replace(f"): {typed}\n", "): 1\n", 1) == by_number


# -- analyse ------------------------------------------------------------------------------


def test_analyse_takes_the_last_finished_deal_of_a_match_left_unfinished(tmp_path: Path) -> None:
    rng = random.Random(5)
    club = find_player("club")
    match = Match.start(find_rules("coinche"), dealer=Seat.W, rng=rng)
    while not match.deal.is_over or match.deal.contract is None:
        if match.deal.is_over:
            match = match.next_deal(rng=rng)
            continue
        seat = match.deal.to_move
        assert seat is not None
        match = match.apply(club.decide(match.deal.observation(seat), rng))
    finished = len(match.deals)
    match = match.next_deal(rng=rng)
    for _ in range(6):  # the next deal begun, not finished
        seat = match.deal.to_move
        assert seat is not None
        match = match.apply(club.decide(match.deal.observation(seat), rng))
    assert not match.deal.is_over
    path = tmp_path / "match.txt"
    path.write_text(write_record(Record.from_match(match)), encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(path), "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert f"Deal {finished + 1} is unfinished: deal {finished} is analysed" in result.output
    assert f"Contract {match.deals[finished - 1].contract}" in result.output
    # Asked for by its number, the unfinished deal is still refused.
    asked = runner.invoke(app, ["analyse", str(path), "--deal", str(finished + 1)])
    assert asked.exit_code == 1 and "not played to its end" in asked.output
