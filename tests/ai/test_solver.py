"""The double-dummy solver (:mod:`cardavia.ai.solver`): the C kernel against the engine's legal
cards, the C kernel against the Python reference, both against a brute-force minimax over the
engine's :class:`DealState`, under every preset, every contract kind and the play knobs.

Positions are drawn from seeded random deals; the endgames are small (one to four tricks) so
that many can be solved both ways, and a few whole deals are solved by both backends.
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Iterator

import pytest

from cardavia.ai import solver
from cardavia.ai.solver import (
    KernelMissingError,
    Order,
    Position,
    kernel_legal_mask,
    kernel_stats,
    playouts,
    reaches,
    solve,
    solve_root,
)
from cardavia.belote import PRESETS, CardSet, Contract, DealState, Play, Rules, Seat, Team
from cardavia.belote.play import Strain, constraint, strain_values

PRESET_NAMES = sorted(PRESETS)
STRAINS = list(Strain)
CASES = [(preset, strain) for preset in PRESET_NAMES for strain in STRAINS]
CASE_IDS = [f"{preset}-{strain.code}" for preset, strain in CASES]
ORDERS: tuple[Order, ...] = ("masters", "simple")


def vary_knobs(rules: Rules, rng: random.Random) -> Rules:
    """Half the time the preset as it is; otherwise every knob that the solver reads, drawn."""
    if rng.random() < 0.5:
        return rules
    return rules.replace(
        undertrump=rng.choice(["required", "optional"]),
        must_trump_partner=rng.random() < 0.5,
        overtrump_partner_on_trump_lead=rng.random() < 0.5,
        overtrump_when_trumping_partner=rng.random() < 0.5,
        no_trump_points=rng.choice(["scaled", "plain"]),
        all_trump_points=rng.choice(["scaled", "trump"]),
        capot_points=rng.choice([250, 252]),
    )


def deal_hands(rng: random.Random) -> list[int]:
    deck = list(range(32))
    rng.shuffle(deck)
    return [sum(1 << card for card in deck[8 * seat : 8 * seat + 8]) for seat in range(4)]


def random_state(
    rng: random.Random, rules: Rules, strain: Strain, tricks_left: int, *, greedy: bool = False
) -> DealState:
    """A deal played at random (with ``greedy``, N–S always playing their strongest legal
    card and E–W their weakest, so that capots come up) until ``tricks_left`` tricks remain,
    and a random part of the next trick."""
    contract = Contract(Seat(rng.randrange(4)), strain)
    state = DealState.from_position(
        rules, contract=contract, hands=deal_hands(rng), leader=Seat(rng.randrange(4))
    )
    order = state.strain_values.order
    for _ in range(4 * (8 - tricks_left) + rng.randrange(4)):
        seat = state.to_move
        assert seat is not None
        legal = list(state.legal_cards())
        if greedy:
            card = (max if seat.team == Team.NS else min)(legal, key=lambda c: order[c])
        else:
            card = rng.choice(legal)
        state = state.apply(Play(seat, card))
    return state


def random_position(rng: random.Random, preset: str, strain: Strain, tricks_left: int) -> Position:
    rules = vary_knobs(PRESETS[preset], rng)
    greedy = rng.random() < 0.25
    return random_state(rng, rules, strain, tricks_left, greedy=greedy).position()


def brute_force(state: DealState, side: Team, memo: dict[object, int] | None = None) -> int:
    """The side's card points at the end of the deal under minimax, by the engine's own
    moves and score (last trick, capot): every line, remembering the states already met."""
    if state.is_over:
        assert state.result is not None
        return state.result.card_points[side]
    memo = {} if memo is None else memo
    key = (state.hands, state.to_move, state.trick, state.points, state.tricks_won, side)
    if key not in memo:
        seat = state.to_move
        assert seat is not None
        values = [
            brute_force(state.apply(Play(seat, card)), side, memo) for card in state.legal_cards()
        ]
        memo[key] = max(values) if seat.team == side else min(values)
    return memo[key]


# -- the build -------------------------------------------------------------------------------


def test_the_kernel_is_built() -> None:
    """``uv sync`` builds the extension; the tests never fall back to Python silently."""
    kernel = importlib.import_module("cardavia.ai._dds")
    assert kernel.__file__ is not None and "_dds" in kernel.__file__


def test_a_missing_kernel_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    hands = [CardSet.parse(h) for h in ("AS", "TS", "7S", "KS")]
    position = Position.from_rules(PRESETS["maison"], Strain.NO_TRUMP, hands, leader=Seat.N)
    monkeypatch.setattr(solver, "_kernel_module", [])
    monkeypatch.setitem(sys.modules, "cardavia.ai._dds", None)
    with pytest.raises(KernelMissingError, match="not built"):
        solve(position)
    with pytest.raises(KernelMissingError):
        playouts(position, 10, seed=1)
    assert solve(position, backend="python") == 43


def test_an_unknown_backend_is_refused() -> None:
    hands = [CardSet.parse(h) for h in ("AS", "TS", "7S", "KS")]
    position = Position.from_rules(PRESETS["maison"], Strain.NO_TRUMP, hands, leader=Seat.N)
    with pytest.raises(ValueError, match="backend"):
        solve(position, backend="rust")  # type: ignore[arg-type]


# -- the legal cards ---------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "strain"), CASES, ids=CASE_IDS)
def test_kernel_legal_cards_are_the_engines(preset: str, strain: Strain) -> None:
    """Any hand against any trick of 0–3 cards (not only those that legal play reaches),
    under every combination of the play knobs."""
    rng = random.Random(f"legal-{preset}-{strain}")
    for _ in range(600):
        rules = vary_knobs(PRESETS[preset], rng)
        deck = list(range(32))
        rng.shuffle(deck)
        size = rng.randint(1, 8)
        n = rng.randrange(4)
        leader = Seat(rng.randrange(4))
        hands = [0, 0, 0, 0]
        index = 0
        for offset in range(4):
            seat = (leader + offset) & 3
            count = size - (1 if offset < n else 0)
            hands[seat] = sum(1 << c for c in deck[index : index + count])
            index += count
        trick = [(Seat((leader + i) & 3), deck[index + i]) for i in range(n)]
        position = Position.from_rules(rules, strain, hands, trick=trick, leader=leader)
        seat = position.to_move
        values = strain_values(
            strain, no_trump_points=rules.no_trump_points, all_trump_points=rules.all_trump_points
        )
        expected = constraint(rules, values, trick, seat, hands[seat]).allowed
        assert kernel_legal_mask(position) == expected, position


# -- C against Python --------------------------------------------------------------------------


def compare_backends(position: Position, rng: random.Random) -> None:
    side = position.side_to_move
    value = solve(position)
    for order in ORDERS:
        assert solve(position, order=order) == value, (position, order)
        nodes, evictions = kernel_stats()
        search = solver._Search(solver._game_of(position, order), position, int(side))
        assert search.exact(search.upper_bound() // 2) == value, (position, order)
        if evictions == 0:
            # The same search: without replacement in the C table, the same nodes.
            assert search.nodes == nodes, (position, order)
        assert solve_root(position, order=order) == solve_root(
            position, backend="python", order=order
        ), (position, order)
    other = side.other
    assert solve(position, side=other) == solve(position, side=other, backend="python"), position
    assert solve_root(position) == solve_root(position, backend="python"), position
    for target in (value, value + 1):
        expected = target <= value
        assert reaches(position, target) is expected, (position, target)
        assert reaches(position, target, backend="python") is expected, (position, target)
    seed = rng.getrandbits(64)
    assert playouts(position, 5, seed) == playouts(position, 5, seed, backend="python")


@pytest.mark.slow  # the Python solver
@pytest.mark.parametrize(("preset", "strain"), CASES, ids=CASE_IDS)
def test_c_and_python_agree_on_endgames(preset: str, strain: Strain) -> None:
    rng = random.Random(f"endgames-{preset}-{strain}")
    for _ in range(70):
        tricks_left = rng.choice([1, 2, 2, 3, 3, 3, 4])
        compare_backends(random_position(rng, preset, strain, tricks_left), rng)


@pytest.mark.slow  # the Python solver on whole deals
@pytest.mark.parametrize("seed", [3, 10, 18, 19, 48])  # C, S, AT, NT, H: quick ones
def test_c_and_python_agree_on_whole_deals(seed: int) -> None:
    """Whole deals, all four hands of eight (the Python search takes a second or two)."""
    rng = random.Random(f"deal-{seed}")
    preset, strain = rng.choice(CASES)
    rules = vary_knobs(PRESETS[preset], rng)
    position = Position.from_rules(rules, strain, deal_hands(rng), leader=Seat(rng.randrange(4)))
    value = solve(position)
    nodes, evictions = kernel_stats()
    search = solver._Search(solver._game_of(position), position, int(position.side_to_move))
    assert search.exact(search.upper_bound() // 2) == value
    if evictions == 0:
        assert search.nodes == nodes
    assert max(solve_root(position).values()) == value


@pytest.mark.slow  # whole deals solved twice each
def test_the_orders_of_search_give_the_same_values_and_masters_visits_fewer_nodes() -> None:
    """The order of search changes the nodes, never a value; on whole deals of every kind
    of contract, the ``masters`` order visits fewer in all than the ``simple`` one."""
    rng = random.Random("orders")
    visited = dict.fromkeys(ORDERS, 0)
    for preset, strain in CASES[::2]:
        position = Position.from_rules(
            PRESETS[preset], strain, deal_hands(rng), leader=Seat(rng.randrange(4))
        )
        values = {}
        for order in ORDERS:
            values[order] = solve_root(position, order=order)
            visited[order] += kernel_stats()[0]
        assert values["masters"] == values["simple"], position
    assert visited["masters"] < visited["simple"], visited


def test_an_unknown_order_of_search_is_refused() -> None:
    position = random_position(random.Random("order"), "cardavia", Strain.SPADES, 2)
    with pytest.raises(ValueError, match="order"):
        solve_root(position, order="fastest")  # type: ignore[arg-type]


def test_c_and_python_agree_on_the_root_values_of_a_middle_game() -> None:
    rng = random.Random("middle")
    for preset, strain in [("cardavia", Strain.SPADES), ("coinche", Strain.ALL_TRUMP)]:
        position = random_position(rng, preset, strain, 5)
        assert solve_root(position) == solve_root(position, backend="python")


# -- against brute force -----------------------------------------------------------------------


@pytest.mark.slow  # brute force
@pytest.mark.parametrize(("preset", "strain"), CASES, ids=CASE_IDS)
def test_both_backends_match_brute_force(preset: str, strain: Strain) -> None:
    """Minimax over the engine's own states: its legal cards, its trick winners, its
    score (card points with the last trick or the capot), from ``DealState.result``."""
    rng = random.Random(f"brute-{preset}-{strain}")
    for index in range(14):
        rules = vary_knobs(PRESETS[preset], rng)
        tricks_left = 4 if index == 0 else rng.choice([1, 2, 3, 3])
        state = random_state(rng, rules, strain, tricks_left, greedy=index % 3 == 0)
        position = state.position()
        side = position.side_to_move
        memo: dict[object, int] = {}
        for team in Team:
            expected = brute_force(state, team, memo) - state.points[team]
            assert solve(position, side=team) == expected, (position, team)
            assert solve(position, side=team, backend="python") == expected, (position, team)
        seat = state.to_move
        assert seat is not None
        roots = {
            card: brute_force(state.apply(Play(seat, card)), side, memo) - state.points[side]
            for card in state.legal_cards()
        }
        assert solve_root(position) == roots, position
        assert solve_root(position, backend="python") == roots, position


def test_capot_replaces_the_card_points() -> None:
    """N holds A 10 K Q of spades and hearts and leads: N–S take all eight tricks, and score
    the capot, not the cards and the last trick (docs/rules.md 8): capot_points under the usual
    scale (250 in the coinche preset, FFB); under the plain scale (130 in a deal) the capot
    follows it: 250 - 162 + 130 = 218 (docs/rules-decisions.md)."""
    north = CardSet.parse("AS TS KS QS AH TH KH QH")
    rest = sorted(CardSet(0xFFFFFFFF & ~north.mask))
    hands = [north.mask] + [sum(1 << c for c in rest[8 * i : 8 * i + 8]) for i in range(3)]
    cases: list[tuple[dict[str, object], int]] = [
        ({}, 250),
        ({"capot_points": 252}, 252),
        ({"no_trump_points": "plain"}, 250 - 162 + 130),
    ]
    for knobs, expected in cases:
        rules = PRESETS["coinche"].replace(**knobs)
        position = Position.from_rules(rules, Strain.NO_TRUMP, hands, leader=Seat.N)
        assert position.capot_open == (True, True)
        assert solve(position) == expected
        assert solve(position, backend="python") == expected
        assert solve(position, side=Team.EW) == 0
        assert playouts(position, 50, seed=3) == (expected, 0.0)


def test_capot_counts_the_tricks_already_taken() -> None:
    """The last trick of a deal where N–S took the first seven: capot, 250 for the deal in
    the coinche preset, so 250 less what the seven tricks held (152 - 33) from here; if E–W
    took one, the cards and the last trick only."""
    hands = [CardSet.parse(h) for h in ("AS", "TS", "7S", "KS")]
    rules = PRESETS["coinche"]
    capot = Position.from_rules(rules, Strain.NO_TRUMP, hands, leader=Seat.N, tricks_won=(7, 0))
    plain = Position.from_rules(rules, Strain.NO_TRUMP, hands, leader=Seat.N, tricks_won=(6, 1))
    endgame = Position.from_rules(rules, Strain.NO_TRUMP, hands, leader=Seat.N)
    assert capot.capot_open == (True, False)
    assert plain.capot_open == endgame.capot_open == (False, False)
    for backend in ("c", "python"):
        assert solve(capot, backend=backend) == 250 - (152 - 33)
        assert solve(plain, backend=backend) == solve(endgame, backend=backend) == 33 + 10


def test_all_trump_capot_with_the_trump_scale_follows_the_scale() -> None:
    """In all-trump with the trump scale the cards hold 248: N–S, with every trick so far,
    take the last three with the top spades, and have the capot for the deal, which follows
    the scale (docs/rules.md 8): 252 - 162 + 258 = 348, so 348 - (248 - R) from here, 90 more than
    the R + 10 of the cards and the last trick."""
    hands = [CardSet.parse(h) for h in ("JS 9S AS", "7S 8S 7C", "7H 8H 8C", "7D 8D QC")]
    rules = PRESETS["cardavia"].replace(all_trump_points="trump")
    position = Position.from_rules(rules, Strain.ALL_TRUMP, hands, leader=Seat.N, tricks_won=(5, 0))
    remaining = position.remaining_points
    assert remaining == 20 + 14 + 11 + 3
    assert solve(position) == solve(position, backend="python") == 348 - (248 - remaining)
    assert solve_root(position) == solve_root(position, backend="python")


# -- the API -----------------------------------------------------------------------------------


def positions(seed: str, count: int, tricks_left: int) -> Iterator[Position]:
    rng = random.Random(seed)
    for _ in range(count):
        preset, strain = rng.choice(CASES)
        yield random_position(rng, preset, strain, tricks_left)


def test_root_values_and_reaches_agree_with_solve() -> None:
    for position in positions("api", 60, 5):
        value = solve(position)
        roots = solve_root(position)
        assert set(roots) == set(position.legal_cards())
        assert max(roots.values()) == value
        assert reaches(position, value) and not reaches(position, value + 1)
        side = position.side_to_move
        points = position.values.points
        for card, card_value in roots.items():
            after = position.play(card)
            gain = 0
            if len(position.trick) == 3 and after.leader.team == side:
                gain = points[card] + sum(points[c] for _, c in position.trick)
            assert card_value == gain + solve(after, side=side), (position, card)


def test_the_two_sides_values_add_up_without_capot() -> None:
    for position in positions("bounds", 80, 3):
        ns = solve(position, side=Team.NS)
        ew = solve(position, side=Team.EW)
        total = position.remaining_points + 10
        assert ns >= 0 and ew >= 0
        if not any(position.capot_open):
            # Without a capot the game is constant-sum: what one side secures, the other
            # loses.
            assert ns + ew == total


def test_playouts_count_every_point() -> None:
    for position in positions("playouts", 40, 4):
        ns, ew = playouts(position, 200, seed=7)
        if not any(position.capot_open):
            assert ns + ew == pytest.approx(position.remaining_points + 10)
        assert playouts(position, 200, seed=7) == (ns, ew)
    with pytest.raises(ValueError, match="positive"):
        playouts(position, 0, seed=1)


def test_from_state_and_play_follow_the_engine() -> None:
    rng = random.Random("follow")
    rules = PRESETS["maison"]
    state = DealState.from_position(
        rules, contract=Contract(Seat.E, Strain.CLUBS), hands=deal_hands(rng), leader=Seat.S
    )
    position = state.position()
    for _ in range(31):
        seat = state.to_move
        assert seat is not None
        assert position.legal_cards() == state.legal_cards()
        card = rng.choice(list(state.legal_cards()))
        state = state.apply(Play(seat, card))
        position = position.play(card)
        assert position == state.position()
    with pytest.raises(ValueError, match="ends the deal"):
        position.play(next(iter(position.legal_cards())))


def test_position_checks_its_cards() -> None:
    hands = [CardSet.parse(h) for h in ("AS", "TS", "7S", "KS")]
    rules = PRESETS["maison"]
    with pytest.raises(ValueError, match="disjoint"):
        Position.from_rules(rules, Strain.SPADES, [hands[0]] * 4, leader=Seat.N)
    with pytest.raises(ValueError, match="turn order"):
        Position.from_rules(
            rules, Strain.SPADES, [hands[0], 0, hands[2], 0], trick=[(Seat.E, 1), (Seat.W, 3)]
        )
    short = [CardSet.parse(h) for h in ("AS QS", "", "7S", "KS")]
    with pytest.raises(ValueError, match="E holds 0 cards, not 2"):
        Position.from_rules(rules, Strain.SPADES, short, leader=Seat.N)
    with pytest.raises(ValueError, match="more than eight"):
        Position.from_rules(rules, Strain.SPADES, hands, leader=Seat.N, tricks_won=(5, 3))
    with pytest.raises(ValueError, match="leader"):
        Position.from_rules(rules, Strain.SPADES, hands)
    with pytest.raises(ValueError, match="may not be played"):
        Position.from_rules(rules, Strain.SPADES, hands, leader=Seat.N).play(8)
