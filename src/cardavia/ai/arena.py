"""Duplicate matches between two levels: each deal is played twice with the teams swapped,
so that the cards cancel out and only the play is measured.

The margin of a pair is what level A scored minus what level B scored over its two deals
(A sitting N–S, then E–W, with the same deck), halved: the mean margin per deal. Everything
is drawn from the seed, so a run is reproducible, and a run can be resumed from its file.

Two measures: the **whole deal** (each level bids and plays; the margin is in deal score)
and the **card play** alone (``play_only``: the club player bids for all four seats, the
same auction at both tables, then the levels play the cards; the margin is in card points,
the last trick and a capot included). A and B are levels or versions
(:func:`cardavia.ai.levels.find_version`: ``expert-2026-12`` against ``expert-next``).

The pairs are independent (each deck and each decision drawn from the seed and the pair's
number), so a run spreads them over processes (``processes``): the figures are the same as
one process gives, pair for pair, in the same order, and a saved run resumes with any
number of processes.

>>> result = run_arena("club", "beginner", preset="cardavia", pairs=2, seed=1)
>>> len(result.margins)
2
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cardavia.ai.levels import find_player, find_version
from cardavia.ai.player import Player
from cardavia.belote import DealState, Phase, Seat, find_rules
from cardavia.belote.search import cut_and_shuffle


@dataclass
class PairResult:
    """One deck played twice."""

    margin: float
    """(A's points − B's points) over the two deals, halved."""
    contracts: int
    """Contracts taken over the two deals (cancelled deals take none)."""
    made: int
    decisions: int
    seconds: float


@dataclass
class ArenaResult:
    """The pairs played so far and what they add up to."""

    a: str
    b: str
    preset: str
    seed: int
    margins: list[float] = field(default_factory=list)
    contracts: int = 0
    made: int = 0
    decisions: int = 0
    seconds: float = 0.0
    play_only: bool = False
    """Card play alone (the club player bids for everyone), the margin in card points."""

    @property
    def mean(self) -> float:
        """The mean margin per deal (A − B)."""
        return statistics.fmean(self.margins) if self.margins else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean margin (normal approximation)."""
        if len(self.margins) < 2:
            return (-math.inf, math.inf)
        half = 1.96 * statistics.stdev(self.margins) / math.sqrt(len(self.margins))
        return (self.mean - half, self.mean + half)

    @property
    def ms_per_decision(self) -> float:
        """The mean time of a decision, in milliseconds."""
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0

    def add(self, pair: PairResult) -> None:
        """Count one more pair."""
        self.margins.append(pair.margin)
        self.contracts += pair.contracts
        self.made += pair.made
        self.decisions += pair.decisions
        self.seconds += pair.seconds

    def save(self, path: Path) -> None:
        """Write the run so far, to be resumed."""
        path.write_text(json.dumps(asdict(self)), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> ArenaResult:
        """A run saved by :meth:`save`."""
        return cls(**json.loads(path.read_text(encoding="utf-8")))

    def summary(self) -> str:
        """The figures in a few lines."""
        low, high = self.interval
        measure = "card play, card points" if self.play_only else "whole deals, deal score"
        return (
            f"{self.a} vs {self.b}, {self.preset}, {len(self.margins)} duplicate pairs "
            f"(seed {self.seed}; {measure})\n"
            f"mean margin per deal: {self.mean:+.1f} points, 95% CI [{low:+.1f}, {high:+.1f}]\n"
            f"contracts made: {self.made}/{self.contracts}\n"
            f"time per decision: {self.ms_per_decision:.2f} ms"
        )


def play_pair(
    players_a: Player, players_b: Player, preset: str, seed: int, *, play_only: bool = False
) -> PairResult:
    """Play one deck twice: A as N–S then A as E–W (with ``play_only``, the auction made by
    the club player at both tables, and the margin in card points)."""
    rules = find_rules(preset)
    deck_rng = random.Random(seed)
    deck = cut_and_shuffle(deck_rng)
    dealer = Seat(deck_rng.randrange(4))
    bidder = find_player("club")
    margin = 0.0
    contracts = made = decisions = 0
    seconds = 0.0
    for a_team in (0, 1):
        seats: list[Player] = [players_a if seat & 1 == a_team else players_b for seat in Seat]
        rng = random.Random(seed * 2 + a_team)
        state = DealState.from_deck(rules, dealer=dealer, deck=deck)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            observation = state.observation(seat)
            if play_only and state.phase is Phase.BIDDING:
                # The same auction at both tables: the club player, seeded by the deck and
                # the place in the auction.
                action = bidder.decide(observation, random.Random(seed * 64 + len(state.history)))
            else:
                start = time.perf_counter()
                action = seats[seat].decide(observation, rng)
                seconds += time.perf_counter() - start
                decisions += 1
            state = state.apply(action)
        if state.phase is Phase.OVER and state.result is not None:
            contracts += 1
            made += bool(state.result.made)
            scores = state.result.card_points if play_only else state.result.scores
            margin += scores[a_team] - scores[1 - a_team]
    return PairResult(margin / 2, contracts, made, decisions, seconds)


@dataclass(frozen=True)
class _Pairs:
    """What a process needs to play pairs of a run: picklable, the players made where they
    play."""

    a: str
    b: str
    preset: str
    seed: int
    play_only: bool

    def play(self, index: int) -> PairResult:
        """The run's pair number ``index`` (its deck drawn from the seed and the number)."""
        deck = self.seed * 1_000_003 + index
        player_a, player_b = find_version(self.a), find_version(self.b)
        return play_pair(player_a, player_b, self.preset, deck, play_only=self.play_only)


def _played(pairs: _Pairs, indices: range, processes: int) -> Iterator[PairResult]:
    """The pairs of ``indices`` played, in their order, on ``processes`` processes (started
    afresh, not forked: the caller may have threads running)."""
    if processes <= 1:
        yield from map(pairs.play, indices)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(processes, mp_context=context) as pool:
        yield from pool.map(pairs.play, indices)


def run_arena(
    a: str,
    b: str,
    *,
    preset: str,
    pairs: int,
    seed: int,
    resume: ArenaResult | None = None,
    progress: Callable[[ArenaResult], None] | None = None,
    play_only: bool = False,
    processes: int = 1,
) -> ArenaResult:
    """Play ``pairs`` duplicate pairs of ``a`` against ``b`` (levels or versions), whole deals
    or the card play alone (continuing ``resume`` if given: the pairs it holds are not
    played again), on ``processes`` processes: the same figures as on one."""
    result = resume or ArenaResult(a, b, preset, seed, play_only=play_only)
    for name in (a, b):
        find_version(name)  # an unknown level is refused here, before any process starts
    run = _Pairs(a, b, preset, seed, result.play_only)
    for pair in _played(run, range(len(result.margins), pairs), processes):
        result.add(pair)
        if progress is not None:
            progress(result)
    return result
