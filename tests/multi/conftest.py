"""Fixtures of the multi-process tests: a Redis and a PostgreSQL of their own (started from
Debian's ``redis-server`` and PostgreSQL's ``initdb``/``pg_ctl`` in a temporary folder, as the
``postgres`` user when the tests run as root), and web processes (uvicorn) started against
them. Without the servers the tests are skipped here, and fail in CI (``CI=true``), which
installs them (``.ci/run``)."""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from tests.preloaded import Started, start

from cardavia.live.limits import KEY_PREFIX as LIMIT_PREFIX

STARTUP_SECONDS = 180
"""The most a server may take to listen: generous, for a busy machine (a start takes about a
second on a quiet one); the wait ends as soon as it listens, or as soon as it exits."""


def missing(what: str) -> None:
    """Skip the test, or fail it in CI, where every server must be there."""
    message = f"{what}: .ci/run installs it (apt-get install redis-server postgresql)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


_PORTS_FROM: int = 20_000
"""Servers of the tests listen below the kernel's ephemeral ports (32768 and up on Linux):
a port the kernel hands out for ``bind(0)`` can be taken the next moment as the local end
of an outgoing connection (to Redis, to PostgreSQL), before the server binds it."""
_PORTS_EACH: int = 1_000
_given: set[int] = set()


def free_port() -> int:
    """A port free now and never handed out before in this run: each test worker
    (``PYTEST_XDIST_WORKER``, gw0, gw1…) takes its own slice, so two never race for one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    first = _PORTS_FROM + (index % 12) * _PORTS_EACH
    for port in range(first, first + _PORTS_EACH):
        if port in _given:
            continue
        _given.add(port)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port left between {first} and {first + _PORTS_EACH}")


def wait_for_port(port: int, process: Started, what: str) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} in {STARTUP_SECONDS} s")


class RedisServer:
    """A redis-server of the tests' own, in a temporary folder, that can be restarted."""

    def __init__(self, keep: Callable[[int], None] | None = None) -> None:
        self.keep = keep
        """Gives each process started to the session's fixture (tests/conftest.py)."""
        self.binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(self.binary).exists():
            missing("redis-server was not found")
        self.folder = tempfile.mkdtemp(prefix="cardavia-redis-")
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", self.folder]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        if self.keep is not None:
            self.keep(self.process.pid)
        wait_for_port(self.port, self.process, "redis-server")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def session_redis(keep_process: Callable[[int], None]) -> Iterator[RedisServer | None]:
    """A Redis of the test session's own, or ``None`` with ``CARDAVIA_TEST_REDIS_URL``."""
    if os.environ.get("CARDAVIA_TEST_REDIS_URL"):
        yield None
        return
    server = RedisServer(keep_process)
    server.start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def redis_url(session_redis: RedisServer | None) -> str:
    """The Redis the test's processes share, with no site-wide limit counted yet: every test
    comes from 127.0.0.1, and the games an earlier test made on the same Redis would count
    against this one's (``cardavia.live.limits``: a bucket per address, kept on Redis)."""
    url = session_redis.url if session_redis else os.environ["CARDAVIA_TEST_REDIS_URL"]
    client = redis.Redis.from_url(url)
    try:
        counted = list(client.scan_iter(match=f"{LIMIT_PREFIX}*"))
        if counted:
            client.delete(*counted)
    finally:
        client.close()
    return url


@pytest.fixture
def own_redis(session_redis: RedisServer | None) -> Callable[[], None]:
    """Restart the Redis of the test's processes (its own, not a given one)."""
    if session_redis is None:
        pytest.skip("CARDAVIA_TEST_REDIS_URL is not this test's to restart")
    return session_redis.restart


def postgres_binaries() -> Path | None:
    for pattern in ("/usr/lib/postgresql/*/bin/initdb", "/usr/local/pgsql/bin/initdb"):
        found = sorted(glob.glob(pattern))
        if found:
            return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """A PostgreSQL cluster of the tests' own: ``initdb`` in a temporary folder, run as
    ``postgres`` when the tests run as root (PostgreSQL refuses root), fsync off."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="cardavia-pg-"))
        self.data = self.folder / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                missing("runuser was not found (needed to run PostgreSQL as root's tests)")
            self.as_user = ["runuser", "-u", "postgres", "--"]
            self.folder.chmod(0o755)
            shutil.chown(self.folder, "postgres", "postgres")
        self.port = free_port()
        command = [*self.as_user, str(binaries / "initdb"), "-D", str(self.data)]
        command += ["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def pg_ctl(self, *arguments: str, check: bool = True) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        command = [*self.as_user, str(self.binaries / "pg_ctl"), "-D", str(self.data)]
        command += ["-o", options, "-w", "-l", str(self.folder / "log"), *arguments]
        subprocess.run(command, check=check, stdout=subprocess.DEVNULL)

    def start(self) -> None:
        self.pg_ctl("start")

    def restart(self) -> None:
        """Stop at once (every connection cut) and start again."""
        self.pg_ctl("-m", "immediate", "restart")

    def remove(self) -> None:
        self.pg_ctl("-m", "immediate", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def session_postgres() -> Iterator[PostgresServer | None]:
    """A PostgreSQL of the test session's own, or ``None`` with
    ``CARDAVIA_TEST_POSTGRES_URL``."""
    if os.environ.get("CARDAVIA_TEST_POSTGRES_URL"):
        yield None
        return
    binaries = postgres_binaries()
    if binaries is None:
        missing("PostgreSQL (initdb) was not found")
        return
    server = PostgresServer(binaries)
    server.start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def postgres_url(session_postgres: PostgresServer | None) -> str:
    """The PostgreSQL the test's processes share."""
    if session_postgres is None:
        return os.environ["CARDAVIA_TEST_POSTGRES_URL"]
    return session_postgres.url


@pytest.fixture
def own_postgres(session_postgres: PostgresServer | None) -> Callable[[], None]:
    """Restart the PostgreSQL of the test's processes (its own, not a given one)."""
    if session_postgres is None:
        pytest.skip("CARDAVIA_TEST_POSTGRES_URL is not this test's to restart")
    return session_postgres.restart


@dataclass
class WebProcess:
    """One web process of the site (``cardavia serve``), on its own port."""

    port: int
    process: Started

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.http + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data

    def kill(self) -> None:
        """Kill -9: no shutdown, nothing flushed."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


@pytest.fixture
def web_process(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> Iterator[Callable[..., WebProcess]]:
    """Start web processes joined by the session's PostgreSQL and Redis (``cardavia serve``,
    forked from a preloaded interpreter: tests/preloaded.py); their output is printed when
    the test ends (pytest shows it with a failure)."""
    started: list[WebProcess] = []

    def start_web(ai_delay: str = "0.02", **environment: str) -> WebProcess:
        """A web process started as a site's are (``cardavia serve``), with ``environment``'s
        variables besides the servers'."""
        port = free_port()
        env = {
            **os.environ,
            "CARDAVIA_DATABASE_URL": postgres_url,
            "CARDAVIA_REDIS_URL": redis_url,
            "CARDAVIA_AI_DELAY": ai_delay,
            **environment,
        }
        arguments = ["serve", "--host", "127.0.0.1", "--port", str(port)]
        output = tmp_path / f"web-{port}.log"
        web = WebProcess(port, start(arguments, env, output))
        started.append(web)
        wait_for_port(port, web.process, "the web process")
        return web

    yield start_web
    for web in started:
        if web.process.poll() is None:
            web.process.terminate()
            try:
                web.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                web.kill()
    for web in started:
        output = tmp_path / f"web-{web.port}.log"
        if output.exists():
            sys.stderr.write(output.read_text(errors="replace"))
