"""Perft: the number of legal card sequences from fixed positions, by depth.

The positions and their counts are in ``tests/data/perft/*.txt`` (the format is described at
the top of each file). Each count is checked twice: by a perft written with the second check
alone (``verify.legal_cards`` for the cards, ``verify.trick_winner`` for who leads the next
trick), and by the engine's own (``DealState.from_position``, then the distinct cards of
``legal_actions`` at each node, ``apply`` to move on). A node counts cards, not actions: the
announce and belote flags of a card are one sequence.

The expected numbers were generated once with :func:`verify_perft`; a change in them is a
change in the rules of play, to be explained.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cardavia import verify
from cardavia.belote import (
    CardSet,
    Contract,
    DealState,
    Phase,
    Play,
    Rules,
    Seat,
    Strain,
    find_rules,
    parse_card,
)

pytestmark = pytest.mark.slow  # the perft files: every position to depth

PERFT_DIR = Path(__file__).resolve().parents[1] / "data" / "perft"
SEATS: tuple[str, ...] = ("N", "E", "S", "W")


@dataclass
class Position:
    """One position of a perft file and its expected counts (``counts[d - 1]`` at depth d)."""

    name: str
    source: str
    rules: Rules
    taker: str
    strain: str
    hands: dict[str, list[str]]
    trick: list[tuple[str, str]]
    leader: str
    counts: list[int] = field(default_factory=list)
    note: str = ""

    @property
    def to_move(self) -> str:
        """The seat to play first."""
        return SEATS[(SEATS.index(self.leader) + len(self.trick)) % 4]

    @property
    def plays_left(self) -> int:
        """How many cards are left to play."""
        return sum(len(hand) for hand in self.hands.values())

    def state(self) -> DealState:
        """The engine's state of the position."""
        return DealState.from_position(
            self.rules,
            contract=Contract(Seat[self.taker], Strain.parse(self.strain)),
            hands=[CardSet.parse(self.hands[seat]) for seat in SEATS],
            trick=[(Seat[seat], parse_card(card)) for seat, card in self.trick],
            leader=Seat[self.leader],
        )


# ---------------------------------------------------------------------------------------------
# Reading the files
# ---------------------------------------------------------------------------------------------


def knob_value(text: str) -> object:
    """A knob's value as written in a file: true/false, a number, or a word."""
    if text in ("true", "false"):
        return text == "true"
    return int(text) if text.isdigit() else text


def read_positions(path: Path) -> Iterator[Position]:
    """The positions of one perft file.

    A position starts with ``position NAME``; then one line per field: ``note`` (free text),
    ``rules`` (a preset), ``knobs`` (``name=value`` changes to it), ``contract`` (taker and
    S/H/D/C/NT/AT), ``N``/``E``/``S``/``W`` (the cards held), ``trick`` (``seat:card`` in
    play order, or ``-``), ``leader`` (a seat, with an empty trick) and ``depth D COUNT`` lines.
    ``#`` starts a comment.
    """
    fields: dict[str, str] = {}
    counts: list[tuple[int, int]] = []

    def build() -> Position:
        rules = find_rules(fields["rules"])
        knobs = {
            name: knob_value(value)
            for name, value in (item.split("=") for item in fields.get("knobs", "").split())
        }
        rules = rules.replace(**knobs)
        taker, strain = fields["contract"].split()
        trick_text = fields.get("trick", "-")
        trick = (
            []
            if trick_text == "-"
            else [(seat, card) for seat, card in (item.split(":") for item in trick_text.split())]
        )
        leader = trick[0][0] if trick else fields["leader"]
        assert [depth for depth, _ in counts] == list(range(1, len(counts) + 1)), fields["name"]
        return Position(
            name=fields["name"],
            source=path.stem,
            rules=rules,
            taker=taker,
            strain=strain,
            hands={seat: fields.get(seat, "").split() for seat in SEATS},
            trick=trick,
            leader=leader,
            counts=[count for _, count in counts],
            note=fields.get("note", ""),
        )

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        if key == "position":
            if fields:
                yield build()
            fields, counts = {"name": rest}, []
        elif key == "depth":
            depth, count = rest.split()
            counts.append((int(depth), int(count)))
        else:
            assert fields, f"{path.name}: {line!r} before any position"
            fields[key] = rest
    if fields:
        yield build()


def all_positions() -> list[Position]:
    """Every position of every perft file."""
    return [
        position for path in sorted(PERFT_DIR.glob("*.txt")) for position in read_positions(path)
    ]


POSITIONS = all_positions()


# ---------------------------------------------------------------------------------------------
# The two perfts
# ---------------------------------------------------------------------------------------------


def verify_perft(
    knobs: Mapping[str, object],
    strain: str,
    hands: Mapping[str, list[str]],
    trick: list[tuple[str, str]],
    to_move: str,
    depth: int,
) -> list[int]:
    """The number of legal card sequences of each length 1 … ``depth``, by the second check."""
    counts = [0] * depth
    held = {seat: list(cards) for seat, cards in hands.items()}

    def walk(trick: list[tuple[str, str]], seat: str, done: int) -> None:
        hand = held[seat]
        if done == depth or not hand:
            return
        for card in sorted(verify.legal_cards(knobs, strain, trick, seat, hand)):
            counts[done] += 1
            hand.remove(card)
            played = [*trick, (seat, card)]
            if len(played) == 4:
                walk([], verify.trick_winner(strain, played), done + 1)
            else:
                walk(played, SEATS[(SEATS.index(seat) + 1) % 4], done + 1)
            hand.append(card)

    walk(list(trick), to_move, 0)
    return counts


def engine_perft(state: DealState, depth: int) -> list[int]:
    """The number of legal card sequences of each length 1 … ``depth``, by the engine (the
    distinct cards among ``legal_actions``: the flags do not make another sequence)."""
    counts = [0] * depth

    def walk(state: DealState, done: int) -> None:
        if done == depth or state.phase != Phase.PLAYING:
            return
        seat = state.to_move
        assert seat is not None
        cards = sorted({action.card for action in state.legal_actions if isinstance(action, Play)})
        assert CardSet(cards) == state.legal_cards()
        counts[done] += len(cards)
        for card in cards:
            walk(state.apply(Play(seat, card)), done + 1)

    walk(state, 0)
    return counts


def position_id(position: Position) -> str:
    """The test id of a position: its file and name."""
    return f"{position.source}:{position.name}"


# ---------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------


def test_files_are_there() -> None:
    """The perft files hold positions of every contract kind and both undertrump rules."""
    assert len(POSITIONS) >= 20
    assert len({position_id(p) for p in POSITIONS}) == len(POSITIONS)
    assert {p.strain for p in POSITIONS} == {"S", "H", "D", "C", "NT", "AT"}
    assert {p.rules.undertrump for p in POSITIONS} == {"required", "optional"}
    assert {p.rules.name.rstrip("+") for p in POSITIONS} == {
        "cardavia",
        "maison",
        "coinche",
        "maghreb",
    }


@pytest.mark.parametrize("position", POSITIONS, ids=position_id)
def test_position_is_sound(position: Position) -> None:
    """Each position is one the engine accepts, and its depths stay within the deal."""
    cards = [card for hand in position.hands.values() for card in hand]
    cards += [card for _, card in position.trick]
    assert len(set(cards)) == len(cards)
    assert position.counts, "no depth"
    assert len(position.counts) <= position.plays_left
    state = position.state()
    assert state.to_move == Seat[position.to_move]


@pytest.mark.parametrize("position", POSITIONS, ids=position_id)
def test_perft_second_check(position: Position) -> None:
    """The counts of the file, by the second check's perft."""
    counts = verify_perft(
        position.rules.as_dict(),
        position.strain,
        position.hands,
        position.trick,
        position.to_move,
        len(position.counts),
    )
    assert counts == position.counts


@pytest.mark.parametrize("position", POSITIONS, ids=position_id)
def test_perft_engine(position: Position) -> None:
    """The counts of the file, by the engine."""
    assert engine_perft(position.state(), len(position.counts)) == position.counts


def test_perft_of_the_worked_example_1() -> None:
    """docs/rules.md 11 #1, by hand: North follows spades (KS or 7S, 2 ways)."""
    (position,) = [p for p in POSITIONS if p.name == "worked-1"]
    assert position.counts[0] == 2
    assert position.trick == [("W", "AS")]
    assert sorted(position.hands["N"]) == sorted(["KS", "7S", "JH", "9C", "TD"])
