"""The metrics (issue 18): ``cardavia serve --workers 2`` with ``CARDAVIA_METRICS_PORT``
serves the figures of both web processes on that port alone (prometheus-client's
multiprocess mode), none of them on the site's routes; a person's action, refusals (of a
message, of a ``Host``, of a head too large) and the writer's commits are counted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.multi.conftest import free_port, wait_for_port
from websockets.sync.client import connect


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[int, int]]:
    """A site of two web processes on SQLite (the site's port, the metrics' port)."""
    port, metrics = free_port(), free_port()
    env = {
        **os.environ,
        "CARDAVIA_DATABASE_URL": f"sqlite:///{tmp_path / 'cardavia.db'}",
        "CARDAVIA_AI_DELAY": "0",
        "CARDAVIA_METRICS_PORT": str(metrics),
        "CARDAVIA_METRICS_DIR": str(tmp_path),
    }
    env.pop("CARDAVIA_REDIS_URL", None)
    command = [sys.executable, "-c", "from cardavia.cli import app; app()", "serve"]
    command += ["--port", str(port), "--workers", "2"]
    process = subprocess.Popen(command, env=env)
    try:
        wait_for_port(port, process, "the web processes")
        wait_for_port(metrics, process, "the metrics")
        yield port, metrics
    finally:
        process.terminate()
        process.wait(timeout=20)


def _figures(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    figures: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            figures[name] = float(value)
    return figures


def test_the_metrics_of_two_web_processes_on_their_own_port(site: tuple[int, int]) -> None:
    port, metrics = site
    with pytest.raises(urllib.error.HTTPError) as not_public:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10)
    assert not_public.value.code == 404
    for headers, status in (({"Host": "evil.example"}, 400), ({"X-Big": "x" * 20_000}, 431)):
        refused = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers=headers)
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(refused, timeout=10)
        assert answer.value.code == status
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games",
        data=json.dumps({"rules": "cardavia", "level": "beginner"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        game = json.loads(response.read())
    url = f"ws://127.0.0.1:{port}/ws/games/{game['game']}?token={game['token']}"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "action", "action": {"kind": "nonsense"}}))
        acted = False
        for _ in range(200):
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "state" and message["view"]["to_move"] == "S" and not acted:
                ws.send(json.dumps({"type": "action", "action": message["view"]["legal"][0]}))
                acted = True
            elif acted and message["type"] == "state" and message["view"]["to_move"] == "S":
                break
    deadline = time.monotonic() + 15
    while True:  # the tables in play are counted every few seconds
        figures = _figures(metrics)
        if figures.get("cardavia_tables_in_play", 0) >= 1 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert figures["cardavia_actions_total"] >= 1
    assert figures["cardavia_action_seconds_count"] >= 1
    assert figures['cardavia_refused_total{code="unknown_kind"}'] == 1
    assert figures['cardavia_refused_total{code="bad_host"}'] == 1
    assert figures['cardavia_refused_total{code="head_too_large"}'] == 1
    assert figures["cardavia_writer_group_size_count"] >= 2
    assert figures['cardavia_decision_seconds_count{level="beginner"}'] >= 1
    assert figures["cardavia_tables_in_play"] >= 1
