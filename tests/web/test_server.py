"""The web process's own limits (:mod:`cardavia.web.server`, issue 18): a request head past
16 KiB refused with 431 before the rest is read, an unfinished head timed out, a cap on one
address's connections with ``/healthz`` still answering another client while a thousand
slow sockets are open, and a 500 that keeps the keep-alive connection. A real uvicorn
server in a thread of the test, with :class:`~cardavia.web.server.EdgeProtocol`."""

from __future__ import annotations

import http.client
import resource
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI

from cardavia.live.settings import Settings
from cardavia.web.edge import SECURITY_HEADERS
from cardavia.web.server import (
    APP,
    WS_MAX_SIZE,
    EdgeProtocol,
    held_connections,
    open_connections,
    server_options,
)

SLOW_HEAD = b"GET /fr/ HTTP/1.1\r\nHost: x\r\n"


class Site:
    """A site served by uvicorn in a thread, on a free port of 127.0.0.1."""

    def __init__(self, app: FastAPI, settings: Settings, capacity: int | None = None) -> None:
        overrides: dict[str, Any] = {"settings": staticmethod(lambda: settings)}
        if capacity is not None:
            overrides["capacity"] = staticmethod(lambda: capacity)
        protocol = type("TestEdgeProtocol", (EdgeProtocol,), overrides)
        options = server_options("127.0.0.1", 0) | {"app": app, "factory": False}
        options |= {"http": protocol, "log_level": "warning", "timeout_keep_alive": 30}
        self.server = uvicorn.Server(uvicorn.Config(**options))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the site did not start"
            time.sleep(0.02)
        self.port: int = self.server.servers[0].sockets[0].getsockname()[1]

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        """A raw connection from ``source`` (any address of 127.0.0.0/8)."""
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", self.port))
        return sock

    def get(self, path: str, source: str = "127.0.0.2") -> tuple[int, float]:
        """A request's status, and how long it took (seconds)."""
        start = time.monotonic()
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=10, source_address=(source, 0)
        )
        conn.request("GET", path, headers={"Host": "localhost"})
        status = conn.getresponse().status
        conn.close()
        return status, time.monotonic() - start

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def serve(make_app: Callable[..., FastAPI]) -> Iterator[Callable[..., Site]]:
    """Start a site with the settings given (the test app's otherwise)."""
    sites: list[Site] = []

    def start(app: FastAPI | None = None, capacity: int | None = None, **limits: Any) -> Site:
        app = app or make_app()
        settings: Settings = app.state.settings
        settings = replace(settings, limits=replace(settings.limits, **limits))
        site = Site(app, settings, capacity)
        sites.append(site)
        return site

    yield start
    for site in sites:
        site.stop()


def read_answer(sock: socket.socket, timeout: float = 10.0) -> bytes:
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    return data


def test_one_way_to_start_the_site() -> None:
    one, four = server_options(), server_options("0.0.0.0", 9000, 4)
    assert one["http"] is four["http"] is EdgeProtocol
    assert one["app"] == four["app"] == APP and four["factory"] and four["workers"] == 4
    assert four["ws_max_size"] == WS_MAX_SIZE and not four["ws_per_message_deflate"]
    assert not four["proxy_headers"]


def test_a_huge_head_is_refused_with_431_before_the_rest_is_read(
    serve: Callable[..., Site],
) -> None:
    site = serve()
    sock = site.connect()
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ")
    sent = 0
    try:
        for _ in range(64 * 16):  # up to 64 MiB, 64 KiB at a time
            sock.sendall(b"a" * 65536)
            sent += 65536
    except (BrokenPipeError, ConnectionResetError):
        pass
    answer = read_answer(sock)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:100]
    # Cut off: a server that read the head on would have taken all 64 MiB. (How much was sent
    # before the cut is the kernel's buffers' business, up to tens of MiB when the machine
    # is busy: not a measure of the server.)
    assert sent < 64 * 16 * 65536, sent
    sock.close()
    many = site.connect()
    headers = b"".join(b"X-H%d: %s\r\n" % (n, b"v" * 100) for n in range(200))
    many.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n" + headers + b"\r\n")
    assert read_answer(many).startswith(b"HTTP/1.1 431 ")
    assert site.get("/healthz")[0] == 200
    normal = site.connect()
    normal.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: 30000\r\nConnection: close\r\n\r\n" + b" " * 30000
    )
    assert read_answer(normal).startswith(b"HTTP/1.1 413 ")  # a body is not a head


def test_an_unfinished_head_is_timed_out(serve: Callable[..., Site]) -> None:
    site = serve(header_timeout=0.5)
    sock = site.connect()
    sock.sendall(SLOW_HEAD)
    start = time.monotonic()
    answer = read_answer(sock)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert 0.4 < time.monotonic() - start < 5


def test_slow_sockets_of_one_address_leave_the_site_to_the_others(
    serve: Callable[..., Site],
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2600:
        if hard != resource.RLIM_INFINITY and hard < 2600:
            pytest.skip(f"1,100 sockets need 2,600 open files ({hard} allowed)")
        resource.setrlimit(resource.RLIMIT_NOFILE, (2600, hard))
    site = serve(header_timeout=60)
    sockets: list[socket.socket] = []
    try:
        for _ in range(1100):
            sock = site.connect()
            try:
                sock.sendall(SLOW_HEAD)
            except OSError:
                pass
            sockets.append(sock)
        time.sleep(0.3)
        assert open_connections().get("127.0.0.1", 0) <= 100
        latencies = [site.get("/healthz") for _ in range(20)]
        assert all(status == 200 for status, _ in latencies)
        assert max(seconds for _, seconds in latencies) < 1.0
        refused = read_answer(sockets[-1], timeout=2)
        assert refused.startswith(b"HTTP/1.1 429 "), refused
    finally:
        for sock in sockets:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_full_process_closes_the_longest_waiting_head_to_answer_another(
    serve: Callable[..., Site],
) -> None:
    """The process's connections past its capacity (below its open-file limit): the one that
    has waited longest for its head is closed (408), a new request is answered."""
    site = serve(capacity=8, header_timeout=60)
    slow = []
    for n in range(8):
        sock = site.connect(f"127.0.0.{n + 2}")
        sock.sendall(SLOW_HEAD)
        slow.append(sock)
        time.sleep(0.02)  # in this order
    try:
        deadline = time.monotonic() + 10
        while held_connections() < 8 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert held_connections() == 8
        assert site.get("/healthz")[0] == 200
        assert read_answer(slow[0], timeout=5).startswith(b"HTTP/1.1 408 ")
        # The health check's connection closed, a place is free: another slow head takes it
        # and fills the process again; the next request closes the next longest waiting.
        while held_connections() > 7 and time.monotonic() < deadline:
            time.sleep(0.01)
        slow.append(site.connect("127.0.0.10"))
        slow[-1].sendall(SLOW_HEAD)
        while held_connections() < 8 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert site.get("/healthz", source="127.0.0.20")[0] == 200
        assert read_answer(slow[1], timeout=5).startswith(b"HTTP/1.1 408 ")
        slow[2].settimeout(0.2)
        with pytest.raises(TimeoutError):
            slow[2].recv(100)  # the others still wait
    finally:
        for sock in slow:
            sock.close()


def test_a_500_keeps_the_connection_and_the_headers(
    make_app: Callable[..., FastAPI], serve: Callable[..., Site]
) -> None:
    app = make_app()

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    site = serve(app)
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
    conn.request("GET", "/api/boom", headers={"Host": "localhost"})
    failed = conn.getresponse()
    assert failed.status == 500 and b'"internal"' in failed.read()
    for name, value in SECURITY_HEADERS.items():
        assert failed.getheader(name.decode()) == value.decode()
    assert not failed.will_close
    first = conn.sock
    conn.request("GET", "/healthz", headers={"Host": "localhost"})
    after = conn.getresponse()
    assert after.status == 200 and after.read() == b"ok"
    assert conn.sock is first
    conn.close()
