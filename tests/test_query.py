"""The rules oracle, ``cardavia query``: the worked examples of docs/rules.md 11 through the
command itself, bad lines answered with errors, and one answer flushed per line."""

from __future__ import annotations

import json
import queue
import random
import subprocess
import sys
import threading
from typing import Any

import pytest

from cardavia.ai.levels import find_player, player_levels
from cardavia.ai.player import play_deal
from cardavia.ai.solver import Position, solve_root
from cardavia.belote import Seat, find_rules
from cardavia.belote.actions import parse_action
from cardavia.belote.cards import card_code, parse_card
from cardavia.belote.game import DealState, Phase
from cardavia.belote.notation import Record
from cardavia.belote.play import Strain, values_for
from cardavia.query import MAX_PLAYOUTS, answer, answer_line

# docs/rules.md 11: rules, trump, trick so far, player, hand, legal cards.
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


# -- solve, playouts, decide -----------------------------------------------------------------

# Spades trump (coinche), two tricks left, W has led the ace of diamonds. Each seat of N E S
# must follow diamonds, so W wins this trick and leads the queen of hearts, which S's ace
# takes. Card points: AD 11, TD 10, KD 4, QH 3, AH 11, the 7s, 8s and 9 nothing.
#   N plays KD: E-W take AD KD TD 8D = 11 + 4 + 10 + 0 = 25; N-S take QH 7D 9H AH and the
#               last trick's 10 = 3 + 0 + 0 + 11 + 10 = 24.
#   N plays 7D: E-W take AD 7D TD 8D = 21; N-S take QH KD 9H AH + 10 = 3 + 4 + 11 + 10 = 28.
# No capot: with no tricks taken before, these are not the deal's eight.
ENDGAME: dict[str, Any] = {
    "query": "solve",
    "rules": "coinche",
    "contract": "S",
    "hands": {"N": ["KD", "7D"], "E": ["TD", "9H"], "S": ["8D", "AH"], "W": ["QH"]},
    "trick": [["W", "AD"]],
    "tricks_won": {"NS": 0, "EW": 0},
}

# N-S have taken the first six tricks and N leads the last two (spades trump): JS 20, AH 11.
#   N leads JS: W must follow with the 7S; the AH then takes the last trick too. N-S take
#               both: 20 + 11 + 10 (last trick) and, for the capot (coinche: 250 for the
#               deal instead of 152 + 10, FFB), 250 - 162 = 88 more: 129.
#   N leads AH: E follows with the 7H and W, with no heart, must trump with the 7S; W leads
#               the 8D and N's JS takes it: N-S make 20 + 10 = 30.
CAPOT: dict[str, Any] = {
    "query": "solve",
    "rules": "coinche",
    "contract": "S",
    "hands": {"N": ["AH", "JS"], "E": ["7H", "9C"], "S": ["7D", "9D"], "W": ["7S", "8D"]},
    "trick": [],
    "leader": "N",
    "tricks_won": {"NS": 6, "EW": 0},
}


def position_of(request: dict[str, Any]) -> Position:
    """The solver's position for a request, built directly."""
    hands = [sum(1 << parse_card(c) for c in request["hands"][s.name]) for s in Seat]
    trick = [(Seat[seat], parse_card(card)) for seat, card in request["trick"]]
    won = request["tricks_won"]
    return Position.from_rules(
        find_rules(request["rules"]),
        Strain.parse(request["contract"]),
        hands,
        trick=trick,
        leader=Seat[request["leader"]] if "leader" in request else None,
        tricks_won=(won["NS"], won["EW"]),
    )


def test_solve_an_endgame_by_hand_and_by_the_solver() -> None:
    got = answer(ENDGAME)
    assert got == {"to_move": "N", "values": {"KD": 24, "7D": 28}}
    solved = solve_root(position_of(ENDGAME))
    assert got["values"] == {card_code(card): value for card, value in solved.items()}


def test_solve_counts_the_capot() -> None:
    assert answer(CAPOT) == {"to_move": "N", "values": {"AH": 30, "JS": 129}}
    no_capot = {**CAPOT, "tricks_won": {"NS": 5, "EW": 1}}
    assert answer(no_capot)["values"] == {"AH": 30, "JS": 41}


def seeded_position(seed: int, tricks_won: dict[str, int]) -> dict[str, Any]:
    """A position of a random deal: W has led, four tricks to play."""
    cards = [card_code(c) for c in range(32)]
    random.Random(seed).shuffle(cards)
    hands = {seat: cards[4 * i : 4 * i + 4] for i, seat in enumerate("NESW")}
    lead = hands["W"].pop()
    return {
        "rules": "coinche",
        "contract": "H",
        "hands": hands,
        "trick": [["W", lead]],
        "tricks_won": tricks_won,
    }


def test_solve_a_larger_position_as_the_solver_does() -> None:
    request = {"query": "solve", **seeded_position(3, {"NS": 2, "EW": 2})}
    got = answer(request)
    assert got["to_move"] == "N"
    assert list(got["values"]) == [c for c in request["hands"]["N"] if c in got["values"]]
    solved = solve_root(position_of(request))
    assert got["values"] == {card_code(card): value for card, value in solved.items()}


def test_playouts_reproducible_and_adding_up() -> None:
    request = {
        "query": "playouts",
        "n": 20_000,
        "seed": 7,
        **seeded_position(5, {"NS": 1, "EW": 3}),
    }
    first, again = answer(request), answer(request)
    assert first["n"] == 20_000 and isinstance(first["seconds"], float)
    assert (first["NS"], first["EW"]) == (again["NS"], again["EW"])
    other = answer({**request, "seed": 8})
    assert (other["NS"], other["EW"]) != (first["NS"], first["EW"])
    # No capot can happen (both sides have taken tricks): every playout shares out the
    # points left and the last trick's 10.
    points = values_for(find_rules("coinche"), Strain.HEARTS).points
    left = [parse_card(c) for hand in request["hands"].values() for c in hand]
    left.append(parse_card(request["trick"][0][1]))
    assert len(left) == 16
    assert first["NS"] + first["EW"] == pytest.approx(sum(points[c] for c in left) + 10)
    assert first["NS"] > 0 and first["EW"] > 0


def record_of(state: DealState) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(Record.from_deal(state).to_json())
    return record


def deal_in_play(seed: int = 3) -> DealState:
    """A seeded deal played by club players to the second card of its second trick."""
    state = DealState.deal(find_rules("maison"), dealer=Seat.W, rng=random.Random(seed))
    player, rng = find_player("club"), random.Random(0)
    while not (state.phase == Phase.PLAYING and len(state.tricks) == 1 and state.trick):
        assert state.to_move is not None
        state = state.apply(player.decide(state.observation(state.to_move), rng))
    return state


@pytest.mark.slow  # every level's search
def test_decide_for_each_level() -> None:
    state = deal_in_play()
    assert state.to_move is not None and len(state.legal_actions) > 1
    seat = state.to_move.name
    for level in player_levels():
        request = {"query": "decide", "level": level, "seat": seat, "record": record_of(state)}
        got = answer(request)
        assert list(got) == ["action"], (level, got)
        assert parse_action(got["action"]) in state.legal_actions
        assert answer({**request, "seed": 0}) == got  # the default seed is 0
    # The record may also come as its text, and the bidding is decided too.
    request = {"query": "decide", "level": "strong", "seat": seat}
    text = Record.from_deal(state).to_json()
    assert answer({**request, "record": text}) == answer({**request, "record": record_of(state)})
    start = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(1))
    bid = answer({**request, "seat": "N", "record": record_of(start)})
    assert parse_action(bid["action"]) in start.legal_actions


def test_decide_refuses_a_seat_not_to_move_and_a_finished_deal() -> None:
    state = deal_in_play()
    assert state.to_move is not None
    other = state.to_move.next.name
    request = {"query": "decide", "level": "club", "seat": other, "record": record_of(state)}
    assert answer(request) == {"error": f"it is {state.to_move.name}'s turn, not {other}'s"}
    players = [find_player("club")] * 4
    over = play_deal(state, players, random.Random(0))
    assert over.is_over
    got = answer({**request, "record": record_of(over)})
    assert "over" in got["error"]


def solve_line(**change: Any) -> str:
    return json.dumps({**ENDGAME, **change})


def decide_line(**change: Any) -> str:
    request = {"query": "decide", "level": "club", "seat": "E", "record": DECIDE_RECORD}
    return json.dumps({**request, **change})


DECIDE_RECORD = record_of(deal_in_play())
FOUR_HANDS = ENDGAME["hands"]

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
    (solve_line(hands={**FOUR_HANDS, "W": ["KD"]}), "in both N's and W's hands"),
    (solve_line(hands={**FOUR_HANDS, "W": ["AD"]}), "both in W's hand and in the trick"),
    (solve_line(hands={**FOUR_HANDS, "W": ["QH", "7C"]}), "W holds 2 cards, not 1"),
    (solve_line(hands={**FOUR_HANDS, "E": ["TD"]}), "E holds 1 card, not 2"),
    (solve_line(hands={"N": ["KD", "7D"]}), "no hand for E"),
    (solve_line(hands=["KD", "7D"]), "'hands' must be an object"),
    (solve_line(trick=[["W", "AD"], ["E", "TD"]]), "out of turn"),
    (solve_line(trick=[["W", "AD"], ["N", "9S"]], hands={**FOUR_HANDS, "N": ["KD"]}), "follow"),
    (solve_line(trick=[], hands={**FOUR_HANDS, "W": ["QH", "AD"]}), "'leader'"),
    (solve_line(leader="E"), "W led the trick"),
    (solve_line(tricks_won={"NS": 4, "EW": 3}), "more than eight"),
    (solve_line(tricks_won={"NS": 1}), "tricks_won"),
    (solve_line(tricks_won={"NS": -1, "EW": 0}), "tricks_won.NS"),
    (solve_line(hands={s: [] for s in "NESW"}, trick=[], leader="N"), "holds no card"),
    (solve_line(contract="X"), "unknown contract"),
    (solve_line(query="playouts", n=MAX_PLAYOUTS + 1), f"at most {MAX_PLAYOUTS} playouts"),
    (solve_line(query="playouts"), "missing 'n'"),
    (solve_line(query="playouts", n=True), "'n' must be a whole number"),
    (solve_line(query="playouts", n=0), "'n' must be 1 or more"),
    (solve_line(query="playouts", n=10, seed="x"), "'seed'"),
    (decide_line(level="grandmaster"), "unknown level"),
    (decide_line(level=None), "missing 'level'"),
    (decide_line(seat="N"), "it is E's turn, not N's"),
    (decide_line(record=None), "'record' must be"),
    (decide_line(record={"format": "nope"}), "the record has no"),
    (decide_line(record="{"), "not JSON"),
    (decide_line(seed=1.5), "'seed'"),
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
