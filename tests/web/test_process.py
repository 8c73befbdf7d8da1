"""The process settled for serving once (:func:`cardavia.web.app.settle_the_process`): the
GIL's switch interval, the collector's thresholds and what the process held at start frozen
are the process's; a second site started in it does not collect everything again."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.web.app import GC_THRESHOLDS, SWITCH_INTERVAL


def test_two_sites_in_one_process_settle_it_once(
    make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    collections: list[tuple[object, ...]] = []
    monkeypatch.setattr(gc, "collect", lambda *args: collections.append(args) or 0)
    for _ in range(2):
        with TestClient(make_app()) as client:
            assert client.get("/healthz").status_code == 200
            assert gc.get_freeze_count() > 0
            assert gc.get_threshold() == GC_THRESHOLDS
            assert sys.getswitchinterval() == SWITCH_INTERVAL
    assert len(collections) <= 1  # none if an earlier test's site settled it
