"""A daily tournament's standings at scale: ``--players`` (10,000) players × ``--deals`` (12)
deals of results, closed and read on SQLite (a temporary file) and on PostgreSQL (the server
at ``CARDAVIA_BENCH_POSTGRES``, a URL, or one of the benchmark's own started with PostgreSQL's
``initdb``/``pg_ctl`` in a temporary folder when they are installed; skipped otherwise).

The field is written straight into the tables (players, nine in ten with a passkey, their
entries, every deal played with a coinche-like margin; one deal in twenty not played, one in
a hundred begun and not finished) and the computer players' par of each deal. Printed, per
database:

- the time to close the tournament (:func:`cardavia.tournaments.standings.close`: the field
  read, every deal and every entry scored, every row written, in one transaction);
- the time to serve a page of the ranking (a random page of 50) and a player's own place
  (a random player, the page it is on), median and p99 of ``--calls`` (500) calls each, and
  a deal's field (contracts, margins, the par) likewise.

    python3 -m uv run python bench/tournaments.py [--players 10000] [--deals 12]
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, insert, text
from sqlalchemy.engine import make_url

from cardavia.store.db import GameStore, database_url
from cardavia.store.passkeys import PasskeyRow
from cardavia.store.players import PlayerRow
from cardavia.store.tournaments import DealPlayedRow, EntryRow, ParRow, TournamentRow
from cardavia.tournaments.standings import close, deal_field, place_of, ranking

TOURNAMENT = "daily-coinche-20261202"
OPENS = datetime(2026, 12, 2, tzinfo=UTC)
CLOSES = OPENS + timedelta(days=1)
CONTRACTS = ("S 80 H", "S 90 S", "W 100 D", "E 80 C", "N 110 H", "pass")
CHUNK = 5_000


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def fill(store: GameStore, players: int, deals: int, rng: random.Random) -> int:
    """The tournament, its players, entries and deals played, written in bulk: answers the
    rows of ``tournament_deals``."""
    ids = [f"bench{index:08d}" for index in range(players)]
    played = []
    for player in ids:
        skill = rng.gauss(0, 30)
        for number in range(1, deals + 1):
            chance = rng.random()
            if chance < 0.05:
                continue  # not played
            finished = chance >= 0.06
            margin = 10 * round((rng.gauss(0, 80) + skill) / 10)
            played.append(
                {
                    "tournament_id": TOURNAMENT,
                    "number": number,
                    "player_id": player,
                    "game_id": f"{player}-{number}",
                    "started_at": OPENS,
                    "finished_at": OPENS + timedelta(minutes=number) if finished else None,
                    "margin": margin if finished else None,
                    "score_us": max(margin, 0) if finished else None,
                    "score_them": max(-margin, 0) if finished else None,
                    "contract": rng.choice(CONTRACTS) if finished else None,
                }
            )
    with store.engine.begin() as connection:
        connection.execute(
            insert(TournamentRow),
            {
                "id": TOURNAMENT,
                "kind": "daily",
                "preset": "coinche",
                "level": "club",
                "version": "bench",
                "deals": deals,
                "opens_at": OPENS,
                "closes_at": CLOSES,
                "seeds": "[]",
                "commitments": "[]",
                "created_at": OPENS,
            },
        )
        for rows, table in (
            (
                [
                    {
                        "id": player,
                        "name": f"Player {index}",
                        "settings": "{}",
                        "created_at": OPENS,
                        "seen_at": OPENS,
                    }
                    for index, player in enumerate(ids)
                ],
                PlayerRow,
            ),
            (
                [
                    {
                        "id": f"key-{player}",
                        "player_id": player,
                        "public_key": b"k",
                        "sign_count": 0,
                        "created_at": OPENS,
                    }
                    for index, player in enumerate(ids)
                    if index % 10
                ],
                PasskeyRow,
            ),
            (
                [{"tournament_id": TOURNAMENT, "player_id": p, "started_at": OPENS} for p in ids],
                EntryRow,
            ),
            (played, DealPlayedRow),
            (
                [
                    {
                        "tournament_id": TOURNAMENT,
                        "number": number,
                        "margin": 20,
                        "contract": "S 80 H",
                        "game_id": None,
                        "computed_at": OPENS,
                    }
                    for number in range(1, deals + 1)
                ],
                ParRow,
            ),
        ):
            for start in range(0, len(rows), CHUNK):
                connection.execute(insert(table), rows[start : start + CHUNK])
    if store.engine.dialect.name == "postgresql":
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            c.execute(text("ANALYZE"))
    return len(played)


def timed(calls: int, call: Callable[[], object]) -> tuple[float, float]:
    """Median and p99, in milliseconds, of ``calls`` calls of ``call``."""
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), percentile(times, 0.99)


def measure(name: str, url: str, options: argparse.Namespace) -> None:
    rng = random.Random(options.seed)
    store = GameStore(url)
    started = time.perf_counter()
    rows = fill(store, options.players, options.deals, rng)
    filled = time.perf_counter() - started
    started = time.perf_counter()
    assert close(store, TOURNAMENT, now=CLOSES)
    closing = time.perf_counter() - started
    pages = ranking(store, TOURNAMENT, page=1).pages
    ids = [f"bench{index:08d}" for index in range(options.players)]
    print(f"{name}: {options.players} players × {options.deals} deals ({rows} deals played)")
    print(f"  written in {filled:.1f} s (not counted)")
    print(f"  close (rank every deal and the tournament): {closing:.2f} s")
    for what, call in (
        (
            "a page of the ranking (50)",
            lambda: ranking(store, TOURNAMENT, page=rng.randint(1, pages)),
        ),
        ("a player's own place", lambda: place_of(store, TOURNAMENT, rng.choice(ids))),
        ("a deal's field", lambda: deal_field(store, TOURNAMENT, rng.randint(1, options.deals))),
    ):
        median, p99 = timed(options.calls, call)
        print(f"  {what}: median {median:.2f} ms, p99 {p99:.2f} ms ({options.calls} calls)")
    store.engine.dispose()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def own_postgres() -> Iterator[str | None]:
    """A PostgreSQL of the benchmark's own (``None``: not installed), as the multi-process
    tests start theirs: ``initdb`` in a temporary folder, as ``postgres`` under root."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    initdb = Path(found[-1]) if found else Path(shutil.which("initdb") or "/nonexistent")
    if not initdb.exists():
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="cardavia-bench-pg-"))
    as_user = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        folder.chmod(0o755)
        shutil.chown(folder, "postgres", "postgres")
    data, port = folder / "data", free_port()
    subprocess.run(
        [*as_user, str(initdb), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    settings = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
    pg_ctl = [*as_user, str(initdb.parent / "pg_ctl"), "-D", str(data), "-o", settings]
    pg_ctl += ["-w", "-l", str(folder / "log")]
    subprocess.run([*pg_ctl, "start"], check=True, stdout=subprocess.DEVNULL)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "stop"], stdout=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fresh_database(server: str) -> Iterator[str]:
    """A new database on the PostgreSQL at ``server``, dropped afterwards."""
    admin = create_engine(database_url(server), isolation_level="AUTOCOMMIT")
    name = f"bench_tournaments_{os.getpid()}"
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(database_url(server)).set(database=name).render_as_string(False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", choices=("sqlite", "postgresql"), default=None)
    options = parser.parse_args()
    if options.only != "postgresql":
        with tempfile.TemporaryDirectory() as folder:
            measure("SQLite (a file)", f"sqlite:///{folder}/bench.db", options)
    if options.only == "sqlite":
        return
    given = os.environ.get("CARDAVIA_BENCH_POSTGRES")
    with own_postgres() if not given else _given(given) as server:
        if server is None:
            print("PostgreSQL: not installed (CARDAVIA_BENCH_POSTGRES names a server), skipped")
            return
        with fresh_database(server) as url:
            measure("PostgreSQL", url, options)


@contextmanager
def _given(url: str) -> Iterator[str | None]:
    yield url


if __name__ == "__main__":
    main()
