"""The computer players' CPU per tournament deal played, in a field: N entrants each play the
tournament's deals at South against three computer seats of the tournament's level, each
decision seeded as the site seeds it (:func:`cardavia.ai.decisions.decision_seed`) and made
as every lane makes it (:func:`cardavia.ai.pool.decide_here`, through
:class:`cardavia.ai.decisions.Decisions` in this process: one core, no spreading).

The entrants are club players with seeds of their own: each plays the club player's action,
or, with the chance ``--wander`` (0.1), another legal action drawn from its own generator
(the club player alone draws nothing: a field of them would all play one line). Three ways,
for each field size of ``--field`` (1, 100 and 1,000 by default):

- **alone**: every table decides its own computer actions (what the site did before the
  field shared them): measured on the first ``--alone`` entrants only (3), the figure being
  the same at any size (no table uses another's work);
- **shared**: the field's tables share their decisions (:mod:`cardavia.ai.shared`, a memory
  store, the site's key; no wait before a decision read, which costs no CPU);
- **fast**: the same field against computer seats of the fast level (``--fast``,
  ``fast-2026-12``), shared too.

Prints, for each, the computer seats' CPU seconds (this process's CPU time,
``time.process_time``) per deal played — their total over the field's deals, divided by the
deals played — with the decisions made and those read. Run: ``uv run python
bench/tournament_robots.py [--deals 12] [--field 1,100,1000] [--level expert]
[--preset coinche] [--wander 0.1] [--alone 3] [--fast fast-2026-12]``; ``--ways
alone,shared,fast`` to run only some.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import time
from dataclasses import dataclass

from cardavia.ai.club import ClubPlayer
from cardavia.ai.decisions import Decisions, decision_key, decision_seed
from cardavia.ai.levels import version_of
from cardavia.ai.pool import DecisionPool
from cardavia.ai.shared import MemoryStore, Share, SharedDecisions
from cardavia.belote import Action, DealState, deck_from_seed, find_rules
from cardavia.tournaments.deals import PLAYER_SEAT, dealer_of

KEEP = 86_400.0
"""Seconds a shared decision is kept (a day: the whole run)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A club player of the field, with a generator of its own."""

    number: int
    wander: float

    def decide(self, state: DealState, deal: int) -> Action:
        observation = state.observation(PLAYER_SEAT)
        rng = random.Random(f"entrant-{self.number}-{deal}-{len(state.history)}")
        action = ClubPlayer().decide(observation, rng)
        others = [a for a in observation.legal_actions if a != action]
        if others and rng.random() < self.wander:
            return rng.choice(others)
        return action


@dataclass
class Tally:
    """The computer seats' work over a field's deals."""

    seconds: float = 0.0
    decisions: int = 0
    deals: int = 0
    per_deal: list[float] | None = None


async def one_deal(
    decisions: Decisions,
    tally: Tally,
    *,
    preset: str,
    level: str,
    number: int,
    entrant: Entrant,
    shared: bool,
) -> None:
    """Deal ``number`` of the tournament played by ``entrant``; its computer seats' CPU
    seconds and decisions added to ``tally``."""
    seed = random.Random(number).randbytes(32)
    state = DealState.from_deck(
        find_rules(preset), dealer=dealer_of(number), deck=deck_from_seed(seed)
    )
    spent = 0.0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if seat is PLAYER_SEAT:
            state = state.apply(entrant.decide(state, number))
            continue
        started = time.process_time()
        observation = state.observation(seat)
        chance = decision_seed(seed.hex(), seat, level, state.history)
        share = None
        if shared:
            key = decision_key(seed.hex(), observation, level, match_scores=(0, 0))
            share = Share(key, KEEP)
        action = await decisions.decide(
            level, observation, chance, match_scores=(0, 0), share=share
        )
        spent += time.process_time() - started
        tally.decisions += 1
        state = state.apply(action)
    tally.seconds += spent
    tally.deals += 1
    if tally.per_deal is not None:
        tally.per_deal.append(spent)


async def field(
    preset: str, level: str, *, deals: int, entrants: int, wander: float, shared: bool
) -> tuple[Tally, SharedDecisions]:
    """The field's deals, entrant after entrant, deal after deal: the computer seats' work."""
    sharing = SharedDecisions(MemoryStore(limit=10_000_000), paced=False)
    decisions = Decisions(pool=DecisionPool(cores=1, kind="thread", spread=False), shared=sharing)
    tally = Tally(per_deal=[])
    # Warmed up first, not counted: the level's modules imported, its weights read.
    state = DealState.deal(find_rules(preset), dealer=dealer_of(1), rng=random.Random(0))
    await decisions.decide(level, state.observation(state.to_move), 0)
    try:
        for number in range(1, deals + 1):
            for index in range(entrants):
                await one_deal(
                    decisions, tally, preset=preset, level=level, number=number,
                    entrant=Entrant(index, wander), shared=shared,
                )  # fmt: skip
    finally:
        await decisions.close()
    return tally, sharing


def report(way: str, size: int, tally: Tally, sharing: SharedDecisions, shared: bool) -> None:
    per_deal = tally.seconds / max(1, tally.deals)
    spread = ""
    if tally.per_deal and not shared:
        ordered = sorted(tally.per_deal)
        spread = f" (median {statistics.median(ordered):.2f} s, max {ordered[-1]:.2f} s)"
    made = f", {sharing.made} made, {sharing.read} read" if shared else ""
    print(
        f"N = {size:>5}  {way:6}  {per_deal:7.3f} CPU s a deal played{spread}; "
        f"{tally.decisions} computer decisions over {tally.deals} deals{made}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--preset", default="coinche")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--field", default="1,100,1000", help="field sizes, comma-separated")
    parser.add_argument("--wander", type=float, default=0.1)
    parser.add_argument("--alone", type=int, default=3, help="entrants measured alone")
    parser.add_argument("--fast", default="fast-2026-12")
    parser.add_argument("--ways", default="alone,shared,fast")
    args = parser.parse_args()
    sizes = [int(size) for size in args.field.split(",") if size]
    ways = set(args.ways.split(","))
    print(
        f"{platform.machine()}, Python {platform.python_version()}, preset {args.preset}, "
        f"{version_of(args.level)} (fast: {version_of(args.fast)}), {args.deals} deals, "
        f"entrants wander {args.wander:g}"
    )
    if "alone" in ways:
        count = min(args.alone, max(sizes))
        tally, sharing = asyncio.run(
            field(args.preset, args.level, deals=args.deals, entrants=count,
                  wander=args.wander, shared=False)
        )  # fmt: skip
        report("alone", count, tally, sharing, False)
    for size in sizes:
        for way, level in (("shared", args.level), ("fast", args.fast)):
            if way in ways:
                tally, sharing = asyncio.run(
                    field(args.preset, level, deals=args.deals, entrants=size,
                          wander=args.wander, shared=True)
                )  # fmt: skip
                report(way, size, tally, sharing, True)


if __name__ == "__main__":
    main()
