"""The server's CPU for one deal, part by part, each part measured alone: what a deal at the
single-player table costs before any serving (no socket, no event loop, no thread).

Club deals of the ``cardavia`` preset, South playing a random legal action as the load test's
clients do, the three other seats club players, as at the site:

- **engine**: every action checked and applied (:meth:`Match.apply`) and each computer seat's
  observation made;
- **decisions**: the computer seats' decisions (the club player, seeded by
  :func:`~cardavia.ai.decisions.decision_seed`, as the site seeds them);
- **views**: South's view after every action, written as the JSON message the socket sends
  (:func:`~cardavia.live.views.build_view`, the names, :func:`~cardavia.live.protocol.
  dump_message`);
- **saves**: the game created and its events appended on a temporary SQLite file, in groups of
  ``--group`` events, as the site's writer groups what came in its last 10 ms.

CPU time of this process (user and system) per deal. ``bench/load.py --think 2-4`` measures
the same deals served; the difference is the serving. Run: ``uv run python
bench/deal_parts.py [--deals N] [--group G]``.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from cardavia.ai.decisions import decision_seed
from cardavia.ai.levels import find_player
from cardavia.belote import Match, Seat, find_rules
from cardavia.live.protocol import dump_message, state_message
from cardavia.live.seating import Seating
from cardavia.live.shuffles import new_commitment
from cardavia.live.table import record_json
from cardavia.live.views import build_view, names_of
from cardavia.store.db import Append, GameStore, new_token
from cardavia.store.events import action_event
from cardavia.words import load_catalogs

PERSON = Seat.S
LEVEL = "club"


class Parts:
    """CPU seconds spent in each part."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(("engine", "decisions", "views", "saves"), 0.0)

    @contextlib.contextmanager
    def timing(self, part: str) -> Iterator[None]:
        """The CPU time of the ``with`` block counted to ``part``."""
        start = time.process_time()
        try:
            yield
        finally:
            self.seconds[part] += time.process_time() - start


def play(deals: int, group: int, database: str, seed: int) -> tuple[Parts, int]:
    """Play ``deals`` deals; answer the parts' CPU and the number of actions."""
    rng = random.Random(seed)
    store = GameStore(database)
    wording = load_catalogs().wording("fr")
    seating = Seating.solo(PERSON, LEVEL)
    club = find_player(LEVEL)
    parts = Parts()
    pending: list[Append] = []
    actions = 0
    for _ in range(deals):
        commitment, cards = new_commitment(rng.randbytes(32))
        match = Match.from_deck(find_rules("cardavia"), dealer=Seat(rng.randrange(4)), deck=cards)
        with parts.timing("saves"):
            stored = store.create(
                rules="cardavia",
                level=LEVEL,
                lang="fr",
                token=new_token(),
                record=record_json(match),
                first_seed=commitment.seed,
                seat=PERSON.name,
            )
        revision = stored.revision
        while not match.deal.is_over:
            deal = match.deal
            seat = deal.to_move
            assert seat is not None
            if seat is PERSON:
                action = rng.choice(deal.legal_actions)
            else:
                with parts.timing("engine"):
                    observation = deal.observation(seat)
                with parts.timing("decisions"):
                    chance = decision_seed(commitment.seed, seat, LEVEL, deal.history)
                    action = club.decide(observation, random.Random(chance))
            with parts.timing("engine"):
                match = match.apply(action)
            pending.append(Append(stored.id, action_event(str(action)), revision))
            revision += 1
            if len(pending) >= group or match.deal.is_over:
                with parts.timing("saves"):
                    store.append_all(pending)
                pending.clear()
            with parts.timing("views"):
                view = build_view(match, wording, seat=PERSON, commitment=commitment)
                view["names"] = names_of(seating, time.time())
                dump_message(state_message(view))
            actions += 1
    store.close()
    return parts, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--group", type=int, default=10, help="events saved together")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'parts.db'}"
        play(min(options.deals, 20), options.group, database, options.seed + 1)  # warm up
        parts, actions = play(options.deals, options.group, database, options.seed)
    total = sum(parts.seconds.values())
    print(
        f"{options.deals} club deals, {actions} actions ({actions / options.deals:.1f} a deal), "
        f"events saved in groups of {options.group}"
    )
    for part, seconds in parts.seconds.items():
        print(f"  {part:10} {1000 * seconds / options.deals:6.2f} ms a deal")
    print(f"  {'together':10} {1000 * total / options.deals:6.2f} ms a deal, before any serving")


if __name__ == "__main__":
    main()
