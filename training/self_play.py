"""Self-play records for the card-location model: whole deals played by the search levels,
one JSON record a line (:meth:`cardavia.belote.notation.Record.to_json`, on one line).

The decks are drawn from their own seed space (``training-<preset>-<number>``), apart from
the arena's and the benchmarks' decks, so that the model never trains on a deal it is then
measured on. Half the deals are bid by the club player (as ``cardavia arena --play-only``
bids them), half by the card player's own level; the cards are played by ``--player`` at
all four seats. A file is extended, never rewritten: a run resumes where the file ends.

    uv run python training/self_play.py --player strong --deals 4000 \\
        --out training/data/strong.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cardavia.ai.levels import find_player, find_version
from cardavia.belote import DealState, Phase, Seat, find_rules
from cardavia.belote.notation import Record
from cardavia.belote.search import cut_and_shuffle

PRESETS = ("coinche", "cardavia")
"""The two families the arena measures, alternately."""


@dataclass(frozen=True)
class SelfPlay:
    """What a process needs to play deals: picklable, the players made where they play."""

    player: str

    def play(self, number: int) -> str | None:
        """Deal ``number`` played out, as one line of JSON; ``None`` if nobody took."""
        preset = PRESETS[number % 2]
        rng = random.Random(f"training-{preset}-{number}")
        deck = cut_and_shuffle(rng)
        state = DealState.from_deck(find_rules(preset), dealer=Seat(rng.randrange(4)), deck=deck)
        player, club = find_version(self.player), find_player("club")
        bidder = club if number % 4 < 2 else player
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            acting = bidder if state.phase is Phase.BIDDING else player
            state = state.apply(acting.decide(state.observation(seat), rng))
        if state.phase is not Phase.OVER:
            return None
        return json.dumps(json.loads(Record.from_deal(state).to_json()), separators=(",", ":"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="strong", help="the level or version that plays")
    parser.add_argument("--deals", type=int, required=True, help="deal numbers to play up to")
    parser.add_argument("--first", type=int, default=0, help="the first deal number")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = args.out.read_text(encoding="utf-8").count("\n") if args.out.exists() else 0
    # Cancelled deals leave no line: the numbers played so far are kept beside the file.
    progress = args.out.with_suffix(".next")
    start = int(progress.read_text()) if progress.exists() and done else args.first
    numbers = range(start, args.first + args.deals)
    job = SelfPlay(args.player)
    context = multiprocessing.get_context("spawn")
    with (
        ProcessPoolExecutor(max(1, args.processes), mp_context=context) as pool,
        args.out.open("a", encoding="utf-8") as out,
    ):
        for number, line in zip(numbers, pool.map(job.play, numbers), strict=True):
            if line is not None:
                out.write(line + "\n")
                out.flush()
            progress.write_text(str(number + 1))


if __name__ == "__main__":
    main()
