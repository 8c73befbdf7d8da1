"""Time per decision of each computer level, over whole deals played by that level.

Prints the median, the 99th percentile and the maximum in milliseconds, for card play and
bidding together. Run: ``uv run python bench/decisions.py [--deals N] [--preset P]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from cardavia.ai import find_version
from cardavia.belote import DealState, Seat, find_rules


def decision_times(level: str, preset: str, deals: int, seed: int) -> list[float]:
    """The time of every decision (ms) of ``deals`` deals played by four players of ``level``."""
    rules = find_rules(preset)
    rng = random.Random(seed)
    players = [find_version(level) for _ in Seat]
    times: list[float] = []
    for index in range(deals):
        state = DealState.deal(rules, dealer=Seat(index & 3), rng=rng)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            observation = state.observation(seat)
            start = time.perf_counter()
            action = players[seat].decide(observation, rng)
            times.append(1000 * (time.perf_counter() - start))
            state = state.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--preset", default="coinche")
    parser.add_argument("--levels", default="beginner,club,strong,expert,expert-next")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{platform.machine()}, Python {platform.python_version()}, preset {args.preset}")
    for level in args.levels.split(","):
        times = sorted(decision_times(level, args.preset, args.deals, args.seed))
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"{level:11} {len(times):5} decisions  median {statistics.median(times):8.2f} ms"
            f"  p99 {p99:8.2f} ms  max {times[-1]:8.2f} ms"
        )


if __name__ == "__main__":
    main()
