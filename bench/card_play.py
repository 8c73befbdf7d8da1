"""The card play of the search levels compared on the same positions, valued in the true deal.

A duplicate match (``cardavia arena``) measures everything at once and needs hundreds of
deals to see a few points. This measures one thing with less noise: positions are taken from
deals played by four ``strong`` players (every card decision of the first six tricks with a
choice; ``--tricks 8`` for the whole deal), each level chooses its card from the seat's
observation, and the card is valued by the double-dummy solver in the deal as it really is:
the score margin the seat's team makes from there under best play
(:func:`cardavia.ai.expert.score_margin`), less that of the best card. The levels are
compared pair by pair on the same positions (mean and 95% interval of the difference).

Run: ``uv run python bench/card_play.py [--preset P] [--deals N] [--levels strong,expert]``
(levels or versions: ``--levels expert-2026-12,expert-next --tricks 8``; a player's fields
changed for an ablation: ``expert-next[read_plays=0]``, ``expert-next[order=simple]``).
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import random
import re
import statistics
import time
from typing import Any

from cardavia.ai import Player, find_player, find_version
from cardavia.ai.expert import belote_points, known_announcements, score_margin
from cardavia.ai.strong import root_values
from cardavia.belote import DealState, Play, Seat, find_rules
from cardavia.belote.game import Phase


def positions(preset: str, deals: int, seed: int, tricks: int = 6) -> list[DealState]:
    """Every card decision with a choice in the first ``tricks`` tricks of ``deals`` deals."""
    rules = find_rules(preset)
    rng = random.Random(seed)
    player = find_player("strong")
    found: list[DealState] = []
    for index in range(deals):
        state = DealState.deal(rules, dealer=Seat(index & 3), rng=rng)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            observation = state.observation(seat)
            cards = {a.card for a in observation.legal_actions if isinstance(a, Play)}
            if state.phase is Phase.PLAYING and len(state.tricks) < tricks and len(cards) > 1:
                found.append(state)
            state = state.apply(player.decide(observation, rng))
    return found


def player_of(spec: str) -> Player:
    """The player a level's spec names: a level or version, and fields changed in brackets
    (``expert-next[read_plays=0,belief=0.5]``, ``expert-next[order=simple]``)."""
    name, _, fields = spec.partition("[")
    player = find_version(name)
    changes: dict[str, Any] = {}
    for item in filter(None, fields.rstrip("]").split(",")):
        key, _, text = item.partition("=")
        now = getattr(player, key.strip())
        changes[key.strip()] = text.strip() if isinstance(now, str) else type(now)(float(text))
    return dataclasses.replace(player, **changes) if changes else player


def regrets(level: str, states: list[DealState]) -> tuple[list[float], float]:
    """The margin each decision of ``level`` loses to the best card in the true deal, and
    the seconds it took to decide them all."""
    player = player_of(level)
    lost: list[float] = []
    seconds = 0.0
    for index, state in enumerate(states):
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        start = time.perf_counter()
        action = player.decide(observation, random.Random(index))
        seconds += time.perf_counter() - start
        assert isinstance(action, Play)
        values, _ = root_values(observation, state.hands)
        already = observation.points[seat & 1]
        belote, declared = belote_points(observation), known_announcements(observation)
        margins = {
            card: score_margin(observation, already + value, belote, declared)
            for card, value in values.items()
        }
        lost.append(margins[action.card] - max(margins.values()))
    return lost, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="cardavia")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--levels", default="strong,expert")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--tricks", type=int, default=6, help="positions of the first N tricks")
    args = parser.parse_args()
    levels = re.split(r",(?![^\[]*\])", args.levels)  # not the commas inside brackets
    states = positions(args.preset, args.deals, args.seed, args.tricks)
    print(f"{platform.machine()}, Python {platform.python_version()}, preset {args.preset}")
    print(f"{len(states)} positions from {args.deals} deals (seed {args.seed})")
    lost: dict[str, list[float]] = {}
    for level in levels:
        lost[level], seconds = regrets(level, states)
        print(
            f"{level:<14} margin lost to the best card: {statistics.fmean(lost[level]):6.2f} "
            f"a decision ({1000 * seconds / len(states):.0f} ms a decision)"
        )
    base = levels[0]
    for level in levels[1:]:
        gains = [a - b for a, b in zip(lost[level], lost[base], strict=True)]
        half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
        mean = statistics.fmean(gains)
        low, high = mean - half, mean + half
        print(f"{level} vs {base}: {mean:+.2f} a decision, 95% CI [{low:+.2f}, {high:+.2f}]")


if __name__ == "__main__":
    main()
