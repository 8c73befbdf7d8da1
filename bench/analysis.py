"""The analysis of a whole deal and a hint: how long they take on one core.

1. Whole deals: deals played by four club players (``coinche`` and ``cardavia`` presets),
   then :func:`cardavia.ai.analysis.analyse` on each: 32 cards, both lights (double-dummy and
   seat view), the moments of the deal. CPU seconds of the process (one core), median and
   max; then the bidding review and the contracts' double-dummy table apart.
2. Hints: :func:`cardavia.ai.hints.hint` at every turn of those deals (cards and bids), CPU
   milliseconds, median, 95th percentile and max.

Targets (issue 12): a deal's analysis under 2 s, a hint under 300 ms, with the compiled
solver. Run: ``uv run python bench/analysis.py [--deals 6] [--seed 1]``. Figures, never
assertions.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from cardavia.ai.analysis import analyse, contract_values, review_bidding
from cardavia.ai.hints import hint
from cardavia.ai.levels import find_player
from cardavia.belote import DealState, Seat, find_rules
from cardavia.belote.actions import Play
from cardavia.belote.notation import Record


def played_deals(count: int, seed: int) -> list[DealState]:
    """Finished deals (with a contract) of four club players, half coinche, half cardavia."""
    club = find_player("club")
    deals: list[DealState] = []
    n = 0
    while len(deals) < count:
        preset = ("coinche", "cardavia")[len(deals) % 2]
        rng = random.Random(f"{seed}:{n}")
        n += 1
        state = DealState.deal(find_rules(preset), dealer=Seat(n % 4), rng=rng)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            state = state.apply(club.decide(state.observation(seat), rng))
        if state.contract is not None:
            deals.append(state)
    return deals


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, CPU time of one process")
    deals = played_deals(args.deals, args.seed)

    cards: list[float] = []
    bidding: list[float] = []
    for state in deals:
        record = Record.from_deal(state)
        start = time.process_time()
        analysis = analyse(record, seed=args.seed, bidding_level=None)
        cards.append(time.process_time() - start)
        assert len(analysis.cards) == 32
        start = time.process_time()
        review_bidding(state, level="club", seed=args.seed)
        first = next(i for i, a in enumerate(state.history) if isinstance(a, Play))
        opening = state.initial().replay(state.history[:first])
        assert opening.to_move is not None
        contract_values(state.rules, opening.hands, opening.to_move)
        bidding.append(time.process_time() - start)
        mistakes = len(analysis.mistakes)
        bad_luck = sum(1 for r in analysis.cards if r.verdict == "bad_luck")
        print(
            f"  {state.rules.name:9} {state.contract!s:22} analysis {cards[-1]:5.2f} s"
            f" (bidding and contracts {bidding[-1]:4.2f} s)"
            f"  mistakes {mistakes:2}  bad luck {bad_luck:2}  moments {len(analysis.moments)}"
        )
    print(
        f"Whole deal, 32 cards, both lights: median {statistics.median(cards):.2f} s, "
        f"max {max(cards):.2f} s (target < 2 s)"
    )
    print(
        f"Bidding review and contracts: median {statistics.median(bidding):.2f} s, "
        f"max {max(bidding):.2f} s"
    )

    plays: list[float] = []
    bids: list[float] = []
    for state in deals:
        current = state.initial()
        for action in state.history:
            assert current.to_move is not None
            observation = current.observation(current.to_move)
            start = time.process_time()
            hint(observation, args.seed)
            spent = (time.process_time() - start) * 1000
            (plays if isinstance(action, Play) else bids).append(spent)
            current = current.apply(action)
    for name, values in (("card", plays), ("bid", bids)):
        print(
            f"Hint ({name}, {len(values)} turns): median {statistics.median(values):.0f} ms, "
            f"95% {percentile(values, 0.95):.0f} ms, max {max(values):.0f} ms (target < 300 ms)"
        )


if __name__ == "__main__":
    main()
