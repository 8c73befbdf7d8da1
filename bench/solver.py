"""The double-dummy solver's speed: exact root values of whole deals, and random playouts.

1. Whole deals: random deals with a random suit contract (the ``cardavia`` preset), all four
   hands known, the leader to move: the exact value of every legal card
   (:func:`~cardavia.ai.solver.solve_root`), with the C kernel. Median and max milliseconds
   and search nodes; then the same for a few no-trump and all-trump deals. Each set in both
   orders of search (:data:`~cardavia.ai.solver.Order`), one after the other, the same
   values checked, and the ratio of their times.
2. The Python reference against C on the same small endgames.
3. Random playouts from the start of a whole deal, per second, on one core.

Run: ``uv run python bench/solver.py [--deals 50] [--seed 1]``. Figures, never assertions.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from cardavia.ai.solver import Order, Position, kernel_stats, playouts, solve_root
from cardavia.belote import Seat, find_rules
from cardavia.belote.play import Strain


def random_deal(rng: random.Random, strain: Strain) -> Position:
    """A random deal under the Cardavia table's rules, a random seat to lead."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[8 * seat : 8 * seat + 8]) for seat in range(4)]
    leader = Seat(rng.randrange(4))
    return Position.from_rules(find_rules("cardavia"), strain, hands, leader=leader)


def random_endgame(rng: random.Random, tricks_left: int) -> Position:
    """A deal played at random, any contract kind, until ``tricks_left`` tricks remain."""
    position = random_deal(rng, Strain(rng.randrange(6)))
    for _ in range(4 * (8 - tricks_left)):
        position = position.play(rng.choice(list(position.legal_cards())))
    return position


Timed = tuple[list[float], list[float], list[int], list[dict[int, int]]]
"""Wall and CPU milliseconds, nodes and root values of each position."""


def time_root_values(positions: list[Position], order: Order) -> Timed:
    """Wall and CPU milliseconds, nodes and values of ``solve_root`` on each position (C)."""
    wall, cpu, nodes, values = [], [], [], []
    for position in positions:
        start, start_cpu = time.perf_counter(), time.process_time()
        values.append(solve_root(position, order=order))
        wall.append(1000 * (time.perf_counter() - start))
        cpu.append(1000 * (time.process_time() - start_cpu))
        nodes.append(kernel_stats()[0])
    return wall, cpu, nodes, values


def report(label: str, positions: list[Position]) -> None:
    """Both orders on the same positions: the new one, the old one, their ratios."""
    timed = {order: time_root_values(positions, order) for order in ("simple", "masters")}
    for order in ("masters", "simple"):
        wall, cpu, nodes, _ = timed[order]
        print(
            f"{label + ', ' + order:34} median {statistics.median(wall):6.1f} ms, max "
            f"{max(wall):6.1f} ms (CPU median {statistics.median(cpu):5.1f} ms); nodes median "
            f"{statistics.median(nodes):,.0f}, max {max(nodes):,}"
        )
    (new_wall, _, new_nodes, new_values), (old_wall, _, old_nodes, old_values) = (
        timed["masters"],
        timed["simple"],
    )
    print(
        f"{'':34} masters/simple: total time {sum(new_wall) / sum(old_wall):.2f}, nodes "
        f"{sum(new_nodes) / sum(old_nodes):.2f} "
        f"({'same values' if new_values == old_values else 'VALUES DIFFER'})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=50, help="whole deals with a suit contract")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=2_000_000)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")

    print("\nExact value of every root card of a whole deal (C):")
    suits = [random_deal(rng, Strain(rng.randrange(4))) for _ in range(args.deals)]
    report(f"{args.deals} deals, suit", suits)
    for strain in (Strain.NO_TRUMP, Strain.ALL_TRUMP):
        deals = [random_deal(rng, strain) for _ in range(max(args.deals // 5, 1))]
        report(f"{len(deals)} deals, {strain.name.lower().replace('_', '-')}", deals)

    print("\nThe Python reference against C, exact root values of random endgames:")
    for tricks_left in (3, 4, 5):
        endgames = [random_endgame(rng, tricks_left) for _ in range(10)]
        start = time.perf_counter()
        reference = [solve_root(p, backend="python") for p in endgames]
        python_ms = 1000 * (time.perf_counter() - start) / len(endgames)
        start = time.perf_counter()
        values = [solve_root(p) for p in endgames]
        c_ms = 1000 * (time.perf_counter() - start) / len(endgames)
        same = "same values" if values == reference else "VALUES DIFFER"
        print(
            f"{len(endgames)} endgames of {tricks_left} tricks: Python {python_ms:8.2f} ms, "
            f"C {c_ms:6.3f} ms per position ({python_ms / c_ms:,.0f}x; {same})"
        )

    print("\nRandom playouts from the start of a whole deal (C, one core):")
    position = random_deal(rng, Strain.HEARTS)
    best = 0.0
    for round_ in range(3):
        start = time.perf_counter()
        ns, ew = playouts(position, args.playouts, seed=round_)
        best = max(best, args.playouts / (time.perf_counter() - start))
    print(
        f"{best:,.0f} playouts/s (best of 3 rounds of {args.playouts:,}; means {ns:.1f}/{ew:.1f})"
    )


if __name__ == "__main__":
    main()
