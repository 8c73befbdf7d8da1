"""The no-peeking tests the fairness page links to are served from the installed package's
data (``cardavia/web/no_peeking/``: a wheel has no ``tests/``); each copy must stay the test
it is the text of. Should this fail after a change to a test of ``tests/ai/``, copy it:
``cp tests/ai/test_players.py src/cardavia/web/no_peeking/test_players.py.txt``."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardavia.teach.learning import NO_PEEKING_TESTS
from cardavia.web.routes.rules import no_peeking_source

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", NO_PEEKING_TESTS)
def test_the_served_copy_is_the_test(path: str) -> None:
    assert no_peeking_source(path) == (ROOT / path).read_text(encoding="utf-8")


def test_only_those_files_are_served(client: TestClient) -> None:
    for path in NO_PEEKING_TESTS:
        response = client.get("/source/" + path)
        assert response.status_code == 200
        assert response.text == (ROOT / path).read_text(encoding="utf-8")
    assert client.get("/source/tests/ai/test_pool.py").status_code == 404
    assert no_peeking_source("tests/ai/../../pyproject.toml") is None
