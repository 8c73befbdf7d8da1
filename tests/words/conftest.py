"""The site as a player reads it, for the words tests: one app on a temporary database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.web.app import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The site, its pages and its API, as the browser asks for them."""
    database = tmp_path_factory.mktemp("words") / "cardavia.db"
    settings = Settings(
        database_url=f"sqlite:///{database}",
        limits=Limits(games_per_minute=0, messages_per_second=0),
        allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client
