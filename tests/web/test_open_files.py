"""A web process under unfinished heads from many addresses (issue 35; the audit of
2026-12-04, problem 8): ``cardavia serve`` started with an open-file limit of 256 while twelve
loopback addresses (127.0.0.2 to 127.0.0.13) each hold 95 connections that send part of a
request head and wait — re-opened as soon as the server closes them — still answers
``/healthz`` and makes games for another address, because it holds its connections below its
file limit (:mod:`cardavia.web.open_files`) and makes room by closing the longest waiting
head. The figures are printed."""

from __future__ import annotations

import http.client
import os
import resource
import selectors
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tests.multi.conftest import free_port, wait_for_port

FILE_LIMIT = 256
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 14)]
PER_ADDRESS = 95
SLOW_HEAD = b"GET /fr/ HTTP/1.1\r\nHost: localhost\r\n"
PROBES = 10


@dataclass
class Site:
    """A ``cardavia serve`` process of the test's own."""

    port: int
    process: subprocess.Popen[bytes]

    def request(self, method: str, path: str, body: bytes | None = None) -> int:
        """The status of one request from 127.0.0.1 (a client apart from the slow ones)."""
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=5, source_address=("127.0.0.1", 0)
        )
        try:
            headers = {"Host": "localhost", "Content-Type": "application/json"}
            conn.request(method, path, body=body, headers=headers)
            return conn.getresponse().status
        finally:
            conn.close()


@pytest.fixture
def low_limit_site(tmp_path: Path) -> Iterator[Site]:
    """``cardavia serve`` with an open-file limit of :data:`FILE_LIMIT` (soft and hard: it
    cannot raise it), stopped whatever happens."""
    port = free_port()
    env = {
        **os.environ,
        "CARDAVIA_DATABASE_URL": f"sqlite:///{tmp_path / 'cardavia.db'}",
        "CARDAVIA_HEADER_TIMEOUT": "60",  # the slow heads are never timed out here
        "CARDAVIA_GAMES_PER_MINUTE": "0",
    }
    env.pop("CARDAVIA_REDIS_URL", None)

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))

    command = [sys.executable, "-c", "from cardavia.cli import app; app()", "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        command, env=env, preexec_fn=low_limit, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        wait_for_port(port, process, "cardavia serve")
        yield Site(port, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


@dataclass
class SlowHeads:
    """Twelve addresses' unfinished heads, each address holding :data:`PER_ADDRESS` of them
    and opening another as soon as the server closes one (in a thread of its own)."""

    port: int
    opened: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    held: selectors.DefaultSelector = field(default_factory=selectors.DefaultSelector)

    def open_one(self, address: str) -> None:
        sock = socket.socket()
        sock.settimeout(0.5)
        try:
            sock.bind((address, 0))
            sock.connect(("127.0.0.1", self.port))
            sock.sendall(SLOW_HEAD)
        except OSError:
            sock.close()
            return
        sock.setblocking(False)
        self.held.register(sock, selectors.EVENT_READ, address)
        self.opened += 1

    def run(self) -> None:
        for _ in range(PER_ADDRESS):
            for address in ADDRESSES:
                if not self.stop.is_set():
                    self.open_one(address)
        while not self.stop.is_set():
            for key, _ in self.held.select(timeout=0.05):  # answered or closed: open another
                self.held.unregister(key.fileobj)
                key.fileobj.close()  # type: ignore[union-attr]
                self.open_one(key.data)

    def close(self) -> None:
        for key in list(self.held.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.held.close()


@pytest.mark.slow  # a server process under thousands of connections
def test_a_process_limited_to_256_files_answers_under_twelve_addresses_slow_heads(
    low_limit_site: Site,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = len(ADDRESSES) * PER_ADDRESS + 200
    if soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            pytest.skip(f"the slow heads need {needed} open files ({hard} allowed)")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    site = low_limit_site
    assert site.request("GET", "/healthz") == 200
    heads = SlowHeads(site.port)
    attack = threading.Thread(target=heads.run, daemon=True)
    attack.start()
    try:
        while heads.opened < len(ADDRESSES) * PER_ADDRESS and attack.is_alive():
            time.sleep(0.05)
        started = time.monotonic()
        answered = []
        for _ in range(PROBES):
            try:
                answered.append(site.request("GET", "/healthz"))
            except OSError as error:
                answered.append(type(error).__name__)
        body = b'{"rules": "cardavia", "level": "beginner", "lang": "en"}'
        made = []
        for _ in range(3):
            try:
                made.append(site.request("POST", "/api/games", body))
            except OSError as error:
                made.append(type(error).__name__)
        opened, seconds = heads.opened, time.monotonic() - started
    finally:
        heads.stop.set()
        attack.join(timeout=10)
        heads.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    print(
        f"slow heads opened by {len(ADDRESSES)} addresses: {opened}; "
        f"/healthz answered 200: {answered.count(200)} of {PROBES}; "
        f"games made: {made.count(201)} of {len(made)}; in {seconds:.1f} s"
    )
    assert site.process.poll() is None
    assert answered == [200] * PROBES, answered
    assert made == [201] * len(made), made


def test_the_file_limit_is_raised_to_the_hard_limit_as_the_site_starts() -> None:
    """``server_options`` (what ``cardavia serve`` asks before uvicorn starts its workers)
    raises the soft limit to the hard one: a service given ``LimitNOFILE`` gets all of it."""

    def soft_below_hard() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 1024))

    script = (
        "import resource; from cardavia.web.server import server_options; "
        "before = resource.getrlimit(resource.RLIMIT_NOFILE); server_options(); "
        "print(before, resource.getrlimit(resource.RLIMIT_NOFILE))"
    )
    answer = subprocess.run(
        [sys.executable, "-c", script],
        preexec_fn=soft_below_hard,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert answer.stdout.split() == ["(256,", "1024)", "(1024,", "1024)"]
