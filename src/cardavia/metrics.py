"""What an operator watches, for Prometheus (docs/deploy.md, "Metrics"): the tables and rooms
in play, people's actions (a counter, and their latency from received to sent), the computer
players' decisions waiting and their latency per level, the decisions the AI workers did not
make (by why), refused requests by reason, the database writer's group sizes, the database's
and Redis's errors.

The figures are recorded wherever they happen (:func:`person_acted`, :func:`deciding`,
:func:`decision_fallback`, :func:`refused`, :func:`writer_group`, :func:`service_failed`,
:func:`in_play`) and served only when ``CARDAVIA_METRICS_PORT`` is set, on that port of its
own — never on the site's public routes (:func:`serve_metrics`, called by ``cardavia
serve``). The web processes of one ``cardavia serve --workers N`` are summed on that one
port: prometheus-client's multiprocess mode, its files in a fresh folder of
``CARDAVIA_METRICS_DIR`` (a temporary one by default).

The metrics are made at their first use, not at import: the multiprocess mode is chosen by
the environment prometheus-client sees then, which :func:`serve_metrics` sets first.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

METRICS_PORT_VARIABLE: Final = "CARDAVIA_METRICS_PORT"
"""The port serving the metrics (unset: not served); the address is ``CARDAVIA_METRICS_HOST``
(``127.0.0.1`` by default: the machine's Prometheus, or a tunnel)."""
METRICS_HOST_VARIABLE: Final = "CARDAVIA_METRICS_HOST"
METRICS_DIR_VARIABLE: Final = "CARDAVIA_METRICS_DIR"
MULTIPROCESS_VARIABLE: Final = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus-client's own variable: where each process writes its figures."""
ACTION_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds, a person's action from received to sent (a few milliseconds when all is well)."""
DECISION_BUCKETS: Final = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
"""Seconds, a computer player's decision (the strong and expert levels search for seconds)."""
GROUP_BUCKETS: Final = (1, 2, 4, 8, 16, 32, 48, 64)
"""Appends written in one commit (:mod:`cardavia.live.writer` bounds a group at 48)."""


@dataclass(frozen=True, slots=True)
class _Metrics:
    tables: Any
    rooms: Any
    actions: Any
    action_seconds: Any
    decisions_waiting: Any
    decision_seconds: Any
    fallbacks: Any
    refusals: Any
    writer_groups: Any
    errors: Any


@functools.cache
def _metrics() -> _Metrics:
    """The metrics, made at their first use (see the module)."""
    from prometheus_client import Counter, Gauge, Histogram

    return _Metrics(
        tables=Gauge(
            "cardavia_tables_in_play",
            "Tables open in the web processes",
            multiprocess_mode="livesum",
        ),
        rooms=Gauge(
            "cardavia_rooms_in_play", "Rooms open in the web processes", multiprocess_mode="livesum"
        ),
        actions=Counter("cardavia_actions", "People's actions played"),
        action_seconds=Histogram(
            "cardavia_action_seconds",
            "A person's action, from received to sent to every connection",
            buckets=ACTION_BUCKETS,
        ),
        decisions_waiting=Gauge(
            "cardavia_decisions_waiting",
            "Computer players' decisions asked and not yet made, by level",
            ["level"],
            multiprocess_mode="livesum",
        ),
        decision_seconds=Histogram(
            "cardavia_decision_seconds",
            "A computer player's decision, asked to made, by level",
            ["level"],
            buckets=DECISION_BUCKETS,
        ),
        fallbacks=Counter(
            "cardavia_decision_fallbacks",
            "Search decisions the AI workers did not make: made in the web process, by level "
            "and why (unreachable, late, failed, illegal)",
            ["level", "reason"],
        ),
        refusals=Counter(
            "cardavia_refused",
            "Requests and messages refused, by the error code answered",
            ["code"],
        ),
        writer_groups=Histogram(
            "cardavia_writer_group_size",
            "Actions saved in one database commit",
            buckets=GROUP_BUCKETS,
        ),
        errors=Counter(
            "cardavia_service_errors", "Errors of the database and of Redis", ["service"]
        ),
    )


def person_acted(seconds: float) -> None:
    """A person's action was played, saved and sent in ``seconds``."""
    metrics = _metrics()
    metrics.actions.inc()
    metrics.action_seconds.observe(seconds)


@contextlib.contextmanager
def deciding(level: str) -> Iterator[None]:
    """A computer player's decision at ``level``, from asked to made (or failed)."""
    metrics = _metrics()
    waiting = metrics.decisions_waiting.labels(level)
    waiting.inc()
    started = time.perf_counter()
    try:
        yield
    finally:
        waiting.dec()
        metrics.decision_seconds.labels(level).observe(time.perf_counter() - started)


def decision_fallback(level: str, reason: str) -> None:
    """A decision of ``level`` was made in the web process, not as asked: ``unreachable``
    (Redis out of reach: made here at its own level, in time or not), ``late`` (not made
    within the deadline: made by a cheaper level at once), ``failed``, ``illegal``."""
    _metrics().fallbacks.labels(level, reason).inc()


def refused(code: str) -> None:
    """A request or a message was refused with the error ``code``."""
    _metrics().refusals.labels(code).inc()


def writer_group(size: int) -> None:
    """The database writer saved ``size`` actions in one commit."""
    _metrics().writer_groups.observe(size)


def service_failed(service: str) -> None:
    """The ``database`` or ``redis`` failed an operation."""
    _metrics().errors.labels(service).inc()


def in_play(tables: int, rooms: int) -> None:
    """The tables and rooms this process has open now."""
    metrics = _metrics()
    metrics.tables.set(tables)
    metrics.rooms.set(rooms)


def metrics_port(environ: Mapping[str, str] | None = None) -> int | None:
    """The port of :data:`METRICS_PORT_VARIABLE`, or ``None``: the metrics are not served."""
    text = (os.environ if environ is None else environ).get(METRICS_PORT_VARIABLE, "").strip()
    return int(text) if text else None


def serve_metrics(port: int, host: str | None = None) -> None:
    """Serve the metrics of this process and of every process it starts after this call (the
    web processes of ``cardavia serve --workers N``) on ``host:port``: prometheus-client's
    multiprocess mode, in a fresh folder. Call it before any metric is used."""
    host = host or os.environ.get(METRICS_HOST_VARIABLE, "").strip() or "127.0.0.1"
    folder = os.environ.get(METRICS_DIR_VARIABLE, "").strip() or None
    os.environ[MULTIPROCESS_VARIABLE] = tempfile.mkdtemp(prefix="cardavia-metrics-", dir=folder)
    from prometheus_client import CollectorRegistry, multiprocess, start_http_server

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    start_http_server(port, addr=host, registry=registry)


def process_stopped() -> None:
    """This process stops: its figures of things in play no longer count (multiprocess)."""
    if os.environ.get(MULTIPROCESS_VARIABLE):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


__all__ = [
    "METRICS_DIR_VARIABLE",
    "METRICS_HOST_VARIABLE",
    "METRICS_PORT_VARIABLE",
    "deciding",
    "decision_fallback",
    "in_play",
    "metrics_port",
    "person_acted",
    "process_stopped",
    "refused",
    "serve_metrics",
    "service_failed",
    "writer_group",
]
