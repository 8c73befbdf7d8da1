"""Fixtures of the game server's tests (tests that drive its tables, rooms and quick play
through their services and outboxes, with no HTTP nor socket): a fresh SQLite file, and a
watchdog that stops a test that hangs."""

from __future__ import annotations

import faulthandler
import os
import sys
from collections.abc import Iterator

import pytest

WATCHDOG_SECONDS = int(os.environ.get("CARDAVIA_TEST_WATCHDOG", "180"))


@pytest.fixture(autouse=True)
def watchdog() -> Iterator[None]:
    """Stop a test that hangs (a queue waiting for a message that never comes) with every
    thread's traceback, rather than let the suite run forever."""
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()
