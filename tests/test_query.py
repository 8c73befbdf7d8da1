"""The rules oracle, ``cardavia query``: the worked examples of RULES.md 11 through the
command itself, bad lines answered with errors, and one answer flushed per line."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from typing import Any

import pytest

from cardavia.query import answer, answer_line

# RULES.md 11: rules, trump, trick so far, player, hand, legal cards.
EXAMPLES = [
    ("maison", "H", [["W", "AS"]], "N", "KS 7S JH 9C TD", "KS 7S"),
    ("maison", "D", [["N", "8D"], ["E", "9C"]], "S", "QS 9D 7D TH", "9D"),
    ("maison", "H", [["E", "AC"]], "S", "8H QH KS 9D 7S", "8H QH"),
    ("maison", "H", [["N", "AC"], ["E", "7C"]], "S", "8H QH KS 9D", "8H QH KS 9D"),
    ("maison", "S", [["W", "AD"], ["N", "8S"]], "E", "7S 9S KH", "9S"),
    ("maison", "S", [["W", "AD"], ["N", "JS"]], "E", "7S 9S KH QC", "7S 9S"),
    ("coinche", "S", [["W", "AD"], ["N", "JS"]], "E", "7S 9S KH QC", "7S 9S KH QC"),
    ("maison", "none", [["S", "KD"]], "W", "7D AS AC", "7D"),
    ("maison", "H", [["S", "AS"], ["W", "TS"], ["N", "7S"]], "E", "JH KD", "JH"),
]


def run_query(lines: list[str]) -> list[dict[str, Any]]:
    """Feed lines to ``cardavia query`` as a subprocess; its answers, decoded."""
    done = subprocess.run(
        [sys.executable, "-m", "cardavia.cli", "query"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def legal_request(rules: str, trump: str, trick: list[list[str]], seat: str, hand: str) -> str:
    return json.dumps(
        {
            "query": "legal",
            "rules": rules,
            "contract": trump,
            "trick": trick,
            "seat": seat,
            "hand": hand.split(),
        }
    )


def test_worked_examples_through_the_command() -> None:
    lines = [legal_request(*example[:5]) for example in EXAMPLES]
    trick9 = [["S", "AS"], ["W", "TS"], ["N", "7S"], ["E", "JH"]]
    lines.append(
        json.dumps({"query": "trick", "rules": "maison", "contract": "H", "trick": trick9})
    )
    answers = run_query(lines)
    assert len(answers) == len(EXAMPLES) + 1
    for example, got in zip(EXAMPLES, answers, strict=False):
        hand, legal = example[4].split(), example[5].split()
        assert got["legal"] == legal, example
        # The illegal cards are the rest of the hand, in its order, each with a reason.
        assert list(got["illegal"]) == [card for card in hand if card not in legal]
        assert all(isinstance(reason, str) and reason for reason in got["illegal"].values())
    assert answers[-1] == {"winner": "E", "points": 41}


def test_reasons_are_the_engines_words() -> None:
    got = answer(json.loads(legal_request(*EXAMPLES[0][:5])))
    assert got["illegal"] == {
        "JH": "you must follow suit: spades",
        "9C": "you must follow suit: spades",
        "TD": "you must follow suit: spades",
    }
    got = answer(json.loads(legal_request(*EXAMPLES[5][:5])))
    assert got["illegal"]["KH"] == (
        "you cannot beat the jack of spades, but you must still play a trump (spades)"
    )
    got = answer(json.loads(legal_request(*EXAMPLES[1][:5])))
    assert got["illegal"]["QS"] == "you must play a trump higher than the eight of diamonds"


def test_hand_order_is_kept() -> None:
    got = answer(json.loads(legal_request("maison", "H", [], "N", "TD JH 7S KS 9C")))
    assert got == {"legal": ["TD", "JH", "7S", "KS", "9C"], "illegal": {}}


def test_rules_object_with_knobs() -> None:
    request = json.loads(legal_request(*EXAMPLES[5][:5]))
    request["rules"] = {"name": "maison", "undertrump": "optional"}
    assert answer(request)["legal"] == ["7S", "9S", "KH", "QC"]
    request["rules"] = {"name": "maison", "undertrump": "sometimes"}
    assert "undertrump" in answer(request)["error"]
    request["rules"] = {"name": "maison", "no_such_knob": True}
    assert "no_such_knob" in answer(request)["error"]


def test_announcements() -> None:
    request = {
        "query": "announcements",
        "rules": "maghreb",
        "contract": "D",
        "hand": ["KS", "KH", "KD", "KC", "QH", "JH", "TH", "7C"],
    }
    assert answer(request) == {
        "announcements": [
            {"kind": "carre", "name": "carré", "cards": ["KS", "KH", "KD", "KC"], "points": 100},
            {"kind": "sequence", "name": "tierce", "cards": ["TH", "JH", "QH"], "points": 20},
        ],
        "total": 120,
    }
    request["hand"] = ["7S", "9S", "JS", "7H", "9H", "JH", "8C", "TC"]
    assert answer(request) == {"announcements": [], "total": 0}
    request["rules"] = "cardavia"
    assert "no announcements" in answer(request)["error"]


def test_trick_partial_and_last() -> None:
    request: dict[str, Any] = {
        "query": "trick",
        "rules": "coinche",
        "contract": "NT",
        "trick": [["N", "AS"]],
    }
    assert answer(request) == {"winner": "N", "points": 19}  # no-trump scaled ace
    request["last"] = True
    assert answer(request) == {"winner": "N", "points": 29}


BAD_LINES = [
    ("this is not json", "not JSON"),
    ('{"query": "weather"}', "unknown query"),
    ('["legal"]', "JSON object"),
    (legal_request("maison", "H", [["W", "AX"]], "N", "KS"), "unknown card code"),
    (legal_request("maison", "H", [], "N", "KS KS"), "twice"),
    (legal_request("maison", "H", [["W", "AS"]], "N", "AS KS"), "both in the hand and"),
    (legal_request("maison", "H", [["W", "AS"], ["E", "KS"]], "S", "7S"), "out of turn"),
    (legal_request("maison", "H", [["W", "AS"]], "S", "7S"), "not next to play"),
    (legal_request("belotte", "H", [], "N", "7S"), "unknown rules"),
    (legal_request("maison", "X", [], "N", "7S"), "unknown contract"),
    ('{"query": "trick", "rules": "maison", "contract": "H", "trick": []}', "empty"),
    ('{"query": "legal", "contract": "H", "seat": "N", "hand": ["7S"]}', "rules"),
]


@pytest.mark.parametrize(("line", "words"), BAD_LINES)
def test_bad_line_gets_an_error(line: str, words: str) -> None:
    got = json.loads(answer_line(line))
    assert list(got) == ["error"]
    assert words in got["error"]


def test_bad_lines_do_not_stop_the_command() -> None:
    good = legal_request(*EXAMPLES[0][:5])
    lines = []
    for bad, _ in BAD_LINES:
        lines += [bad, good]
    answers = run_query([*lines, "", '{"query": "legal", "id": 7}'])
    assert len(answers) == 2 * len(BAD_LINES) + 1  # the blank line gets no answer
    for index, (_, words) in enumerate(BAD_LINES):
        assert words in answers[2 * index]["error"]
        assert answers[2 * index + 1]["legal"] == ["KS", "7S"]
    assert answers[-1]["id"] == 7 and "error" in answers[-1]


def test_each_answer_is_flushed_before_the_next_line() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "cardavia.cli", "query"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    answers: queue.Queue[str] = queue.Queue()
    output = process.stdout

    def read() -> None:
        for line in output:
            answers.put(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        for example in EXAMPLES[:3]:
            process.stdin.write(legal_request(*example[:5]) + "\n")
            process.stdin.flush()
            got = json.loads(answers.get(timeout=30))  # stdin is still open
            assert got["legal"] == example[5].split()
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0
