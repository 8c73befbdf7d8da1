"""The computer players' CPU per tournament deal played: one person at South (a club player
stands in), three computer seats of the tournament's level, each decision seeded as the site
seeds it (:func:`cardavia.ai.decisions.decision_seed`) and made as every lane makes it
(:func:`cardavia.ai.pool.decide_here`, in this thread: one core, no spreading).

Prints, per deal, the computer seats' decisions and their CPU seconds (this process's CPU
time, ``time.process_time``): the median, the mean and the maximum over the deals, and the
deals all four passed. Run: ``uv run python bench/tournament_robots.py [--deals N]
[--level expert] [--preset coinche]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from cardavia.ai import find_player
from cardavia.ai.decisions import decision_seed
from cardavia.ai.player import level_version
from cardavia.ai.pool import decide_here
from cardavia.belote import DealState, deck_from_seed, find_rules
from cardavia.tournaments.deals import PLAYER_SEAT, dealer_of


def one_deal(preset: str, level: str, number: int) -> tuple[int, float, bool]:
    """Deal ``number`` of a tournament played to its end: the computer seats' decisions,
    their CPU seconds, and whether all four passed."""
    seed = random.Random(number).randbytes(32)
    state = DealState.from_deck(
        find_rules(preset), dealer=dealer_of(number), deck=deck_from_seed(seed)
    )
    person, person_rng = find_player("club"), random.Random(number)
    decisions, seconds = 0, 0.0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        if seat is PLAYER_SEAT:
            action = person.decide(observation, person_rng)
        else:
            started = time.process_time()
            decided = decision_seed(seed.hex(), seat, level, state.history)
            action = decide_here(level, observation, decided, (0, 0))
            seconds += time.process_time() - started
            decisions += 1
        state = state.apply(action)
    return decisions, seconds, state.contract is None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--preset", default="coinche")
    parser.add_argument("--level", default="expert")
    args = parser.parse_args()
    print(
        f"{platform.machine()}, Python {platform.python_version()}, preset {args.preset}, "
        f"level {level_version(args.level)}, {args.deals} deals"
    )
    results = [one_deal(args.preset, args.level, n) for n in range(1, args.deals + 1)]
    seconds = sorted(s for _, s, _ in results)
    decisions = [d for d, _, _ in results]
    print(
        f"computer decisions a deal: median {statistics.median(decisions):g}, "
        f"max {max(decisions)}; all four passed: {sum(p for _, _, p in results)} deals"
    )
    print(
        f"computer seats' CPU a deal: median {statistics.median(seconds):.2f} s, "
        f"mean {statistics.fmean(seconds):.2f} s, max {seconds[-1]:.2f} s "
        f"({statistics.fmean(s / max(1, d) for d, s, _ in results):.3f} s a decision)"
    )


if __name__ == "__main__":
    main()
