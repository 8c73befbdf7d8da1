"""The site's processes as the multi-process tests start them: ``cardavia serve`` and
``cardavia ai-worker``, each a process of its own, forked from an interpreter that has already
imported the site (multiprocessing's fork server, preloaded) rather than a new interpreter that
imports it all again.

Most of a web process's start is its imports (1.1 of the 1.2 CPU seconds before it answers,
``bench/start.py``), and the other tests start some seventy of them: that was a tenth of what
the suite asks of the machine's two cores. Forked from the preloaded server, a process starts
with its modules in place, then runs the command line as ``cardavia`` does: its own process
number, environment, sockets, database connections and signals (a test kills one with
``kill -9`` as it would any). What is shared is only what importing computed, which is nothing
of the site's state (the settings are read from the environment when the site is made, the
caches fill as it runs).

Each test worker has its own fork server (multiprocessing keeps one per interpreter), started
with the worker's environment; a process is given the test's own (:func:`start`). One thing is
the fork server's for all its processes: Python's hash seed. The tests that compare what two
processes decide on their own (``tests/multi/test_same_robots_multi.py``) start their AI
workers as new interpreters (``fresh=True``), each with its own seed, as a site's processes
are. The start itself, imports and all, is timed by ``bench/start.py`` and tested whole by the
tests that run ``cardavia serve`` as a command (``tests/players/test_migrations.py``,
``tests/web/test_open_files.py``, ``tests/multi/test_metrics.py``).

The process guard (``tests/conftest.py``) sees these processes under the fork server, and
fails a test that leaves one running.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from multiprocessing.process import BaseProcess
from pathlib import Path

PRELOADED = ("cardavia.cli", "cardavia.web.app", "cardavia.ai.worker", __name__)
"""What the fork server imports once: the command line, the site, the AI worker, and this."""

_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(list(PRELOADED))


def _run(arguments: Sequence[str], environment: Mapping[str, str], output: str) -> None:
    """In the forked process: the test's environment, the output to ``output``, then the
    command line as ``cardavia`` runs it (its exit status is the process's)."""
    os.environ.clear()
    os.environ.update(environment)
    sink = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    os.close(sink)
    from cardavia.cli import app

    app(list(arguments), prog_name="cardavia")


class Forked:
    """A process forked by the fork server, asked as a :class:`subprocess.Popen` is: ``pid``,
    ``poll``, ``wait``, ``returncode``, ``send_signal``, ``terminate``, ``kill``."""

    def __init__(self, process: BaseProcess) -> None:
        self._process = process

    @property
    def pid(self) -> int:
        pid = self._process.pid
        assert pid is not None
        return pid

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired(f"process {self.pid}", timeout or 0)
        return self._process.exitcode

    def send_signal(self, number: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, number)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


Started = Forked | subprocess.Popen[bytes]
"""A process :func:`start` started: forked, or a new interpreter (``fresh``)."""


def start(
    arguments: Sequence[str],
    environment: Mapping[str, str] | None = None,
    output: Path | None = None,
    *,
    fresh: bool = False,
) -> Started:
    """``cardavia <arguments>`` in a process of its own, with ``environment`` (the test
    process's by default), its output appended to ``output`` (discarded without one).
    ``fresh``: a new interpreter (``python -m cardavia.cli``), imports and hash seed its own."""
    environment = dict(os.environ if environment is None else environment)
    sink = str(output) if output is not None else os.devnull
    if fresh:
        command = [sys.executable, "-m", "cardavia.cli", *arguments]
        with open(sink, "ab") as out:
            return subprocess.Popen(command, env=environment, stdout=out, stderr=out)
    process = _CONTEXT.Process(target=_run, args=(list(arguments), environment, sink))
    process.start()
    return Forked(process)


__all__ = ["PRELOADED", "Forked", "Started", "start"]
