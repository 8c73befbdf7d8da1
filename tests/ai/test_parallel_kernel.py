"""The solver's C kernel in several threads at once: each search keeps its state to its own
thread and releases the GIL, so that concurrent searches give exactly what serial ones give
(values and nodes visited) and the interpreter goes on meanwhile."""

from __future__ import annotations

import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from cardavia.ai.solver import Position, kernel_stats, playouts, solve, solve_root
from cardavia.belote import Seat, find_rules
from cardavia.belote.play import Strain

pytestmark = pytest.mark.slow  # searches in threads


def whole_deals(seed: int, count: int) -> list[Position]:
    """Positions at the first card of ``count`` random deals, contract kinds in turn."""
    rng = random.Random(seed)
    rules = find_rules("coinche")
    positions = []
    for index in range(count):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4)]
        strain = list(Strain)[index % len(Strain)]
        positions.append(Position.from_rules(rules, strain, hands, leader=Seat(index & 3)))
    return positions


def solved(position: Position) -> tuple[dict[int, int], int, int, tuple[int, int]]:
    """Everything a search answers, with this thread's figures of the search."""
    values = solve_root(position)
    nodes = kernel_stats()
    value = solve(position)
    return values, value, kernel_stats()[0], (nodes[0], nodes[1])


def test_concurrent_searches_give_the_serial_results() -> None:
    positions = whole_deals(7, 12)
    serial = [solved(p) for p in positions]
    barrier = threading.Barrier(4)

    def job(index: int) -> list[tuple[dict[int, int], int, int, tuple[int, int]]]:
        barrier.wait()  # all four threads search at the same time
        # Each thread takes the positions in another order, so that the tables differ.
        order = positions[index:] + positions[:index]
        results = [solved(p) for p in order]
        return results[len(positions) - index :] + results[: len(positions) - index]

    with ThreadPoolExecutor(4) as executor:
        for results in executor.map(job, range(4)):
            assert results == serial


def test_playouts_in_threads_draw_the_same_cards() -> None:
    positions = whole_deals(3, 4)
    serial = [playouts(p, 2000, seed=i) for i, p in enumerate(positions)]
    with ThreadPoolExecutor(4) as executor:
        parallel = list(executor.map(lambda i: playouts(positions[i], 2000, seed=i), range(4)))
    assert parallel == serial


def test_a_search_lets_the_interpreter_run() -> None:
    """While another thread searches, this one runs Python. The switch interval is made
    huge, so that a thread gives up the GIL only of its own accord: had the kernel held it
    throughout the search, this thread could not count once before the search ended."""
    positions = whole_deals(11, 16)
    nodes = []
    for position in positions:
        solve_root(position)
        nodes.append(kernel_stats()[0])
    heaviest = positions[nodes.index(max(nodes))]
    started = threading.Event()
    done = threading.Event()

    def search() -> None:
        started.set()
        solve_root(heaviest)
        done.set()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        thread = threading.Thread(target=search)
        thread.start()
        started.wait()
        counted = 0
        while not done.is_set():
            counted += 1
            time.sleep(0)  # gives the GIL back to the search thread once it is out of C
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert counted > 0
