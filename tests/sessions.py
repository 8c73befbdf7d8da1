"""Every test, as ``make test`` runs them: two pytest sessions side by side, the browser tests
(``tests/browser``) and the others.

The browser tests need a session of their own (Playwright's synchronous API keeps an event loop
running in its worker for the whole session, where the other tests start loops of their own).
Run one after the other, the two sessions left a core idle half the time (a browser test waits
for pages, sockets and servers more than it computes), so they run at once, each on its own
workers. Each session's output is printed whole when it ends, the first to end first; the exit
status is the first failure's. Arguments after ``--`` go to both sessions.

``CARDAVIA_TEST_WORKERS="3,2"`` sets the workers of each session (the others', the browser's).
The others are dealt to their workers by ``tests/conftest.py`` (``dealt``: each worker's run
starts with its share of the tests that start processes) and balanced as they go (xdist's
``worksteal``: a worker that runs out takes the end of another's run). They have a third
worker: once the browser tests end, two left the two cores half idle for two minutes while
their last tests waited on the processes they started; with three, for about twenty seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Session:
    """One pytest session running, its output kept in a file until it ends."""

    name: str
    arguments: list[str]
    output: Path
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0

    def start(self) -> None:
        command = [sys.executable, "-m", "pytest", *self.arguments]
        with self.output.open("wb") as sink:
            self.process = subprocess.Popen(command, cwd=ROOT, stdout=sink, stderr=sink)
        self.started = time.monotonic()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def main() -> int:
    extra = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    others, browser = os.environ.get("CARDAVIA_TEST_WORKERS", "3,2").split(",")
    folder = Path(tempfile.mkdtemp(prefix="cardavia-tests-"))
    sessions = [
        Session(
            "the browser tests",
            ["-n", browser, "--durations=15", "tests/browser", *extra],
            folder / "browser.log",
        ),
        Session(
            "the other tests",
            ["-n", others, "--dist=worksteal", "--durations=15", "--ignore=tests/browser", *extra],
            folder / "others.log",
        ),
    ]
    status = 0
    began = time.monotonic()
    try:
        for session in sessions:
            session.start()
        waiting = list(sessions)
        while waiting:
            for session in list(waiting):
                assert session.process is not None
                code = session.process.poll()
                if code is None:
                    continue
                waiting.remove(session)
                seconds = time.monotonic() - session.started
                head = f"{session.name}: exit {code} after {seconds:.0f} s"
                print(f"\n===== {head} =====", flush=True)
                sys.stdout.write(session.output.read_text(errors="replace"))
                sys.stdout.flush()
                status = status or code
            time.sleep(0.5)
    finally:
        for session in sessions:
            session.stop()
    print(f"\n===== every test: {time.monotonic() - began:.0f} s, exit {status} =====")
    return status


if __name__ == "__main__":
    sys.exit(main())
