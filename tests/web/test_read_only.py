"""Issue 18, item 6: a site started on a SQLite database it cannot write shows the saved
games (opened ``mode=ro``, ``immutable=1`` when its folder cannot be written either), and
every write answers 503 ``unavailable`` in the player's language, nothing changed."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from cardavia.store import db, read_only
from cardavia.store.db import GameStore
from cardavia.store.read_only import READ_ONLY_VARIABLE, read_only_url
from cardavia.words import load_catalogs

CATALOGS = load_catalogs()


@pytest.fixture
def saved_game(make_app: Callable[..., FastAPI], tmp_path: Path) -> Iterator[dict[str, str]]:
    """A game created and saved in the test database (in write-ahead-log mode), the site
    that wrote it stopped; the database's files and folder made writable again after."""
    with TestClient(make_app()) as writer:
        game: dict[str, str] = writer.post("/api/games", json={"rules": "cardavia"}).json()
    yield game
    tmp_path.chmod(0o755)
    for file in tmp_path.iterdir():
        file.chmod(0o644)


def _digest(folder: Path) -> str:
    return hashlib.sha256((folder / "cardavia.db").read_bytes()).hexdigest()


def _shows_the_game_and_refuses_writes(app: FastAPI, game: dict[str, str]) -> None:
    with TestClient(app) as reader:
        assert reader.app.state.store.read_only  # type: ignore[attr-defined]
        view = reader.get(f"/api/games/{game['game']}?token={game['token']}")
        assert view.status_code == 200
        assert view.json()["game"] == game["game"]
        refused = reader.post(
            "/api/games", json={"rules": "cardavia"}, headers={"Accept-Language": "de"}
        )
        assert refused.status_code == 503
        assert refused.json()["code"] == "unavailable"
        assert refused.json()["message"] == CATALOGS.wording("de").error("unavailable")
        url = f"/ws/games/{game['game']}?token={game['token']}&lang=it"
        with reader.websocket_connect(url) as ws:
            first = ws.receive_json()
            assert first["type"] == "state"
            if first["view"]["to_move"] == "S":
                ws.send_json({"type": "action", "action": first["view"]["legal"][0]})
            error = ws.receive_json()
            assert error["code"] == "unavailable"
            assert error["message"] == CATALOGS.wording("it").error("unavailable")
        assert reader.get("/en/").status_code == 200


def test_the_setting_opens_the_database_read_only(
    make_app: Callable[..., FastAPI],
    saved_game: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = _digest(tmp_path)
    monkeypatch.setenv(READ_ONLY_VARIABLE, "1")
    _shows_the_game_and_refuses_writes(make_app(), saved_game)
    assert _digest(tmp_path) == before


def test_a_database_whose_file_and_folder_cannot_be_written(
    make_app: Callable[..., FastAPI],
    saved_game: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = _digest(tmp_path)
    for file in tmp_path.iterdir():
        file.chmod(0o444)
    tmp_path.chmod(0o555)
    if os.geteuid() == 0:  # root writes whatever the modes say: ask as anyone else would
        writable = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH

        def access(path: Any, mode: int) -> bool:
            return not mode & os.W_OK or bool(os.stat(path).st_mode & writable)

        monkeypatch.setattr(read_only.os, "access", access)
    _shows_the_game_and_refuses_writes(make_app(), saved_game)
    assert _digest(tmp_path) == before


def test_every_route_answers_a_database_it_cannot_write_as_unavailable(
    make_app: Callable[..., FastAPI],
    saved_game: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One handler answers the store's refusal for every route (the routes do not catch it):
    joining quick play — a first guest made, which the database cannot write — is refused
    503 ``unavailable`` in the language the body asked for, as the other writes are, never
    an ``internal`` error; nothing is written."""
    before = _digest(tmp_path)
    monkeypatch.setenv(READ_ONLY_VARIABLE, "1")
    with TestClient(make_app()) as reader:
        refused = reader.post("/api/quick/maison", json={"lang": "pl"})
        assert refused.status_code == 503
        assert refused.json()["code"] == "unavailable"
        assert refused.json()["message"] == CATALOGS.wording("pl").error("unavailable")
        named = reader.put("/api/me?lang=es", json={"name": "Ana", "lang": "ar"})
        assert (named.status_code, named.json()["code"]) == (503, "unavailable")
        assert named.json()["message"] == CATALOGS.wording("ar").error("unavailable")
    assert _digest(tmp_path) == before


def test_a_database_that_fails_to_open_is_opened_read_only(
    database: str, saved_game: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The open fails though the modes allow it (a read-only mount, an ``-shm`` file that
    cannot be made): the file is opened again read-only and immutable."""
    check = db.upgrade_schema

    def unable_to_open(engine: Any) -> Any:
        if "mode=ro" not in str(engine.url):
            raise OperationalError("PRAGMA", {}, Exception("unable to open database file"))
        return check(engine)

    monkeypatch.setattr(db, "upgrade_schema", unable_to_open)
    store = GameStore(database)
    assert store.read_only and "immutable=1" in str(store.engine.url)
    saved = store.load(saved_game["game"])
    assert saved is not None and saved.token_matches(saved_game["token"])
    store.close()


def test_which_databases_are_opened_read_only(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    plain = f"sqlite:///{path}"
    assert read_only_url(plain, forced=True) is None  # nothing there yet: it is made
    path.write_bytes(b"")
    assert read_only_url(plain) is None
    assert read_only_url(plain, forced=True) == f"sqlite:///file:{path}?mode=ro&uri=true"
    assert read_only_url(plain, failed=True) == (
        f"sqlite:///file:{path}?mode=ro&immutable=1&uri=true"
    )
    for other in (
        "sqlite://",
        "postgresql+psycopg://db/cardavia",
        f"sqlite:///file:{path}?uri=true",
    ):
        assert read_only_url(other, forced=True) is None
