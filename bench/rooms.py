"""What a room costs the server: memory held per room in play, and CPU per deal.

Runs the site in process (TestClient, SQLite in a temporary folder, no pause of the computer
players), opens ``--rooms`` rooms of two people and two computer players (club level) and
plays one deal in each through the WebSocket, the two people choosing random legal actions.

- memory: the Python heap held (tracemalloc) once every room is dealt and connected, per
  room — the room, its table, its match, four connections' queues;
- CPU per deal: the process's CPU time for a whole deal, per deal, server and test client
  together (an upper bound of the server's share), computer players' decisions included.

    python3 -m uv run python bench/rooms.py --rooms 20
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
import time
import tracemalloc
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.test_rooms import Seated, create_room, join_room, play_deal, room_url

from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.web.app import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--level", default="club")
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="cardavia-bench-")
    limits = Limits(
        games_per_minute=0, messages_per_second=0, rooms_per_client=0, rooms_per_minute=0
    )
    settings = Settings(
        database_url=f"sqlite:///{folder}/bench.db",
        ai_delay=(0.0, 0.0),
        seed=1,
        limits=limits,
        allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),  # the test client's Host
    )
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        rooms: list[tuple[Seated, Seated]] = []
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for index in range(options.rooms):
            room = create_room(client, f"A{index}", level=options.level, target=1000)
            friend = join_room(client, room["room"], f"B{index}", "N")
            ws_a = stack.enter_context(
                client.websocket_connect(room_url(room["room"], room["token"]))
            )
            ws_b = stack.enter_context(
                client.websocket_connect(room_url(room["room"], friend["token"]))
            )
            ana, bo = Seated(ws_a, "S"), Seated(ws_b, "N")
            ana.send({"type": "start"})
            ana.read_until(lambda m: m["type"] == "state")
            bo.read_until(lambda m: m["type"] == "state")
            rooms.append((ana, bo))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        rng = random.Random(2)
        cpu, wall = time.process_time(), time.perf_counter()
        steps = 0
        for ana, bo in rooms:
            view: dict[str, Any] = play_deal({"S": ana, "N": bo}, ana, rng)
            steps += view["step"]
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        count = len(rooms)
        print(f"rooms: {count} (2 people, 2 {options.level} computer players each)")
        print(f"memory held per room in play: {held / count / 1024:.0f} KiB")
        print(f"CPU per deal: {cpu / count * 1000:.0f} ms ({steps / count:.0f} actions)")
        print(f"wall per deal: {wall / count * 1000:.0f} ms")


if __name__ == "__main__":
    main()
