"""What every test shares: the ``slow`` mark, a time budget for the others, and a guard that no
process a test starts outlives it.

- ``slow``: a test that drives a browser (``tests/browser``), starts other processes (a web
  process, Redis, PostgreSQL, an AI worker: ``tests/multi`` and the fixtures named in
  :data:`PROCESS_FIXTURES`) or searches long (marked by hand). ``make check`` leaves them out
  (``-m "not slow"``) to answer in under a minute; ``make test`` runs them all.
- The budget: a test not marked ``slow`` should take under :data:`BUDGET_SECONDS` (setup, call and
  teardown together). The run ends with the list of those that took longer, to be made faster
  or marked; it is a report, not a failure (no test asserts a time).
- The guard: a process started during a test (its body or its function-scoped fixtures) and
  still running after its teardown fails the test, and is killed. Processes started by a fixture
  of a wider scope (a session's browser, its server, its Redis) belong to that fixture until it
  is torn down. Python's own helpers (multiprocessing's resource tracker and fork server) live
  as long as the interpreter and are not counted; the processes a fork server starts are
  (``tests/preloaded.py``).
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

TESTS = Path(__file__).resolve().parent
SLOW_FOLDERS = frozenset({"browser", "multi"})
"""Folders whose every test drives a browser or starts processes of its own."""
PROCESS_FIXTURES = frozenset(
    {
        "web_process",
        "session_redis",
        "session_postgres",
        "redis_url",
        "postgres_url",
        "empty_postgres",
    }
)
"""Fixtures that start processes: a test that uses one is slow, and so is a test run on
PostgreSQL by a parameter (``"postgresql"``, its database asked for as it runs)."""
BUDGET_SECONDS = float(os.environ.get("CARDAVIA_TEST_BUDGET", "3"))
"""A test not marked slow should take less (a quiet 2-core machine takes most under 0.3 s)."""
INTERPRETER_HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")
"""Processes Python starts once and keeps for the interpreter's life."""


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(ProcessGuard(), "cardavia-process-guard")
    config.addinivalue_line(
        "markers",
        "slow: drives a browser, starts other processes or searches long (make check skips it)",
    )


def pytest_collection_finish(session: pytest.Session) -> None:
    """The process tuned as a site's (:func:`cardavia.web.app.settle_the_process`) once the
    tests are collected: what collection made (the test items, the modules) lives to the end
    of the run, and is frozen out of the collector's sight rather than walked again at each
    full collection (``make check``: 7 % of its CPU time)."""
    if session.items:
        from cardavia.web.app import settle_the_process

        settle_the_process()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark slow every test of a slow folder and every test that starts processes; then deal
    the tests out to the workers (:func:`dealt`) where they balance as they go."""
    starting: set[str] = set()
    for item in items:
        path = Path(str(item.path)).resolve()
        folder = path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else ""
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        on_postgresql = callspec is not None and "postgresql" in callspec.params.values()
        if PROCESS_FIXTURES & fixtures or on_postgresql:
            starting.add(item.nodeid)
        if folder in SLOW_FOLDERS or item.nodeid in starting:
            item.add_marker(pytest.mark.slow)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    kind = {
        item.nodeid: 0 if item.nodeid in starting else 1 if item.get_closest_marker("slow") else 2
        for item in items
    }

    # A test that starts processes is dealt alone (its processes are its own), the others
    # with their module's tests of their kind (the module's fixtures made once).
    def group(item: pytest.Item) -> tuple[int, str]:
        alone = item.nodeid in starting
        return kind[item.nodeid], item.nodeid if alone else str(item.path)

    # Only where the workers balance as they go (``make test``): xdist's default schedule
    # sends runs of the list as they are, and dealt ones cost make check 8 s in 60.
    if config.getoption("dist", "no") == "worksteal":
        items[:] = dealt(items, group, workers)


def dealt(items: list[T], kind: Callable[[T], tuple[int, str]], hands: int) -> list[T]:
    """``items`` in the order that deals them evenly to ``hands`` workers that each take an
    equal run of the list (xdist's ``--dist worksteal``, ``make test``): each run starts with
    its share of the tests that start processes (``kind``'s rank 0: they wait on those
    processes, so two of them run well side by side), then of the other slow ones (1), then
    of the quick ones (2). A module's tests of one rank go together (its fixtures are made
    once), each such group to the hand with the fewest tests so far, like cards; the longest
    hand first, so that where the runs do not fall exactly on the hands it is quick tests
    that move. A worker that runs out then takes the end of another's run — quick tests, not
    a long one left to one worker while the other idles (a run's last minutes were one
    worker's multi-process tests, the cores half idle).

    >>> kinds = {"p": 0, "s": 1, "q": 2, "r": 2}
    >>> def kind(test):  # each test that starts processes a group of its own
    ...     return (kinds[test[0]], test if test[0] == "p" else test[0])
    >>> dealt(["p1", "q1", "p2", "s1", "q2", "s2", "r1", "p3", "q3"], kind, 2)
    ['p1', 'p3', 'q1', 'q2', 'q3', 'p2', 's1', 's2', 'r1']
    """
    groups: dict[tuple[int, str], list[T]] = {}
    for item in items:
        groups.setdefault(kind(item), []).append(item)
    share: list[list[T]] = [[] for _ in range(max(1, hands))]
    for rank in sorted(groups):
        smallest = min(share, key=len)
        smallest += groups[rank]
    share.sort(key=len, reverse=True)
    return [item for hand in share for item in hand]


# -- a fresh database ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def pristine_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file at the latest revision, made once per process of the run."""
    from sqlalchemy import create_engine

    from cardavia.store.db import upgrade_schema

    path = tmp_path_factory.mktemp("pristine") / "cardavia.db"
    engine = create_engine(f"sqlite:///{path}")
    try:
        upgrade_schema(engine)
    finally:
        engine.dispose()
    return path


@pytest.fixture
def database(tmp_path: Path, pristine_database: Path) -> str:
    """A fresh SQLite database file, at the latest revision: a copy of
    :func:`pristine_database` (a copy costs a tenth of building the schema again, and the
    site's tests open hundreds)."""
    path = tmp_path / "cardavia.db"
    shutil.copyfile(pristine_database, path)
    return f"sqlite:///{path}"


# -- the budget ---------------------------------------------------------------------------


@dataclass
class Budget:
    """The time each test took (setup, call and teardown), and whether it is marked slow."""

    seconds: dict[str, float] = field(default_factory=dict)
    slow: set[str] = field(default_factory=set)

    def over(self) -> list[tuple[float, str]]:
        return sorted(
            ((s, test) for test, s in self.seconds.items()
             if s > BUDGET_SECONDS and test not in self.slow),
            reverse=True,
        )  # fmt: skip


BUDGET = Budget()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    BUDGET.seconds[report.nodeid] = BUDGET.seconds.get(report.nodeid, 0.0) + report.duration
    if "slow" in report.keywords:
        BUDGET.slow.add(report.nodeid)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    over = BUDGET.over()
    if not over:
        return
    terminalreporter.section(f"over the {BUDGET_SECONDS:g} s budget, not marked slow")
    for seconds, test in over:
        terminalreporter.write_line(f"{seconds:6.2f} s  {test}")


# -- the guard ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Process:
    """A running process, told apart from a later one with the same number by its start (not
    by its command line, which changes at its exec and as servers name themselves)."""

    pid: int
    start: int
    command: str = field(compare=False)


def _processes() -> dict[int, tuple[int, Process]]:
    """Every running process of the machine: its parent and itself (its command line is read
    later, for the few that matter)."""
    found: dict[int, tuple[int, Process]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        state, parent, start = fields[0], int(fields[1]), int(fields[19])
        if state in "ZX":  # exited, only waiting to be reaped
            continue
        pid = int(entry.name)
        found[pid] = (parent, Process(pid, start, ""))
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except (OSError, UnicodeDecodeError):
        return ""


def _ticks_now() -> int:
    """The time since the machine started, in the clock ticks of a process's start."""
    return int(float(Path("/proc/uptime").read_text().split()[0]) * os.sysconf("SC_CLK_TCK"))


def descendants(*, skipping: frozenset[int] = frozenset()) -> set[Process]:
    """The processes this one started, and theirs, still running; not those under the
    processes numbered in ``skipping`` (a wider fixture's, which may start more as they go)."""
    if not Path("/proc/self/stat").exists():
        return set()
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found: set[Process] = set()
    helpers: set[int] = set()
    stack = list(children.get(os.getpid(), ()))
    while stack:
        pid = stack.pop()
        process = Process(pid, table[pid][1].start, _command(pid))
        # A helper is not counted, but what it starts is (a fork server's processes, which
        # carry its command line: tests/preloaded.py).
        if table[pid][0] not in helpers and any(h in process.command for h in INTERPRETER_HELPERS):
            helpers.add(pid)
            stack.extend(children.get(pid, ()))
            continue
        found.add(process)
        if pid not in skipping:
            stack.extend(children.get(pid, ()))
    return found


KEPT: dict[int, set[Process]] = {}
"""The processes of the fixtures of a wider scope than a test, by fixture."""
GRACE_SECONDS = float(os.environ.get("CARDAVIA_TEST_PROCESS_GRACE", "5"))
"""How long a test's processes may take to exit after its teardown asked them to (a pool's
workers shut down without waiting, a server given its signal)."""


def _kept() -> set[Process]:
    return set().union(*KEPT.values()) if KEPT else set()


def _numbers() -> frozenset[str]:
    """The numbers of the machine's processes (their folders in ``/proc``: a listing, no file
    read)."""
    with os.scandir("/proc") as entries:
        return frozenset(entry.name for entry in entries if entry.name.isdigit())


def _left_by_test(started: int, before: frozenset[str] | None = None) -> set[Process]:
    """The processes started since the clock tick ``started`` (a test's setup) and running,
    but those of the fixtures of a wider scope. ``before``: the processes' numbers at that
    moment; when no number is new, nothing was started (most tests: the process table is not
    read)."""
    if before is not None and not _numbers() - before:
        return set()
    kept = _kept()
    running = descendants(skipping=frozenset(p.pid for p in kept)) - kept
    return {process for process in running if process.start >= started}


_STARTED = pytest.StashKey[int]()
_NUMBERS = pytest.StashKey[frozenset[str]]()


@pytest.fixture(scope="session")
def keep_process() -> Callable[[int], None]:
    """Give a process to the session: a server that a session's fixture owns but starts again
    during a test (a restart) is that fixture's, not the test's."""

    def keep(pid: int) -> None:
        KEPT.setdefault(0, set()).update(p for p in descendants() if p.pid == pid)

    return keep


class ProcessGuard:
    """The guard's hooks, registered as a plugin of the whole run: a fixture of the session's
    scope is set up under the session's node, which a conftest's own hooks do not reach."""

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(
        self, fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
    ) -> Generator[None, Any, Any]:
        """A fixture of a wider scope than a test keeps the processes its setup started."""
        if fixturedef.scope == "function":
            return (yield)
        before = descendants()
        try:
            return (yield)
        finally:
            started = descendants() - before
            if started:
                KEPT.setdefault(id(fixturedef), set()).update(started)
                fixturedef.addfinalizer(lambda: KEPT.pop(id(fixturedef), None))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, Any, Any]:
        item.stash[_STARTED] = _ticks_now()
        if Path("/proc/self/stat").exists():
            item.stash[_NUMBERS] = _numbers()
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> Any:
        result = yield
        started, before = item.stash.get(_STARTED, 0), item.stash.get(_NUMBERS, None)
        deadline = time.monotonic() + GRACE_SECONDS
        while (left := _left_by_test(started, before)) and time.monotonic() < deadline:
            time.sleep(0.05)
        if left:
            for process in left:
                try:
                    os.kill(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            listed = "; ".join(f"{p.pid} {p.command[:120]}" for p in sorted(left, key=str))
            pytest.fail(f"processes started by this test outlived it (now killed): {listed}")
        return result
