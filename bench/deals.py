"""Random complete deals per second through the public API, on one core.

Each deal is shuffled, bid and played to the end by choosing uniformly among
``state.legal_actions`` and calling ``state.apply`` (which checks every action); a cancelled
deal counts as a deal. The figure is the best of rounds of 200 deals.
Run: ``uv run python bench/deals.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from cardavia.belote import PRESETS, DealState, Seat


def deals_per_second(preset: str, seconds: float, seed: int) -> tuple[float, int]:
    """Play random deals of a preset for about ``seconds``, in rounds of 200 deals; answer
    the best round's deals/s (the least disturbed by other work on the machine) and the
    number of deals played."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    count = 0
    best = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        for _ in range(200):
            state = DealState.deal(rules, dealer=Seat(count & 3), rng=rng)
            while not state.is_over:
                actions = state.legal_actions
                state = state.apply(actions[int(rng.random() * len(actions))])
            count += 1
        best = max(best, 200 / (time.perf_counter() - start))
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per preset")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for preset in PRESETS:
        rate, count = deals_per_second(preset, args.seconds, args.seed)
        print(f"{preset:10} {rate:8.0f} deals/s (best round; {count} deals played)")


if __name__ == "__main__":
    main()
