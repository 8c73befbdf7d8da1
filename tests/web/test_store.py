"""Persistence: the games table, the hashed seat token, the record appended to after every
action (never rewritten), and games that survive a server restart (the app created twice on
one SQLite file)."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from cardavia.belote.notation import Record
from cardavia.store.db import (
    DATABASE_URL_VARIABLE,
    Append,
    GameStore,
    StaleGameError,
    database_url,
    hash_token,
    new_token,
    token_matches,
)
from cardavia.store.events import action_event, deal_event

Settle = Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]]


def socket_url(game: dict[str, str], lang: str = "en") -> str:
    return f"/ws/games/{game['game']}?token={game['token']}&lang={lang}"


def load(database: str, game_id: str) -> Any:
    store = GameStore(database)
    stored = store.load(game_id)
    store.close()
    return stored


# -- the store -------------------------------------------------------------------------------


def test_create_load_save(database: str) -> None:
    store = GameStore(database)
    token = new_token()
    game = store.create(rules="maison", level="club", lang="ar", token=token, record='{"a": 1}')
    loaded = store.load(game.id)
    assert loaded == game
    assert (loaded.rules, loaded.level, loaded.lang, loaded.revision) == ("maison", "club", "ar", 0)
    assert store.save(game.id, '{"a": 2}', revision=0) == 1
    assert store.save(game.id, '{"a": 3}', revision=1) == 2
    again = store.load(game.id)
    assert again is not None
    assert (again.record, again.revision) == ('{"a": 3}', 2)
    assert again.updated_at >= again.created_at
    store.close()


def test_a_stale_save_writes_nothing(database: str) -> None:
    store = GameStore(database)
    game = store.create(rules="maison", level="club", lang="fr", token="t", record="one")
    store.save(game.id, "two", revision=0)
    with pytest.raises(StaleGameError):
        store.save(game.id, "three", revision=0)
    with pytest.raises(StaleGameError):
        store.save("nosuchgame", "three", revision=0)
    loaded = store.load(game.id)
    assert loaded is not None
    assert (loaded.record, loaded.revision) == ("two", 1)


def test_game_ids_and_tokens_are_random_and_url_safe(database: str) -> None:
    store = GameStore(database)
    ids = {
        store.create(rules="c", level="l", lang="en", token="t", record="r").id for _ in range(50)
    }
    tokens = {new_token() for _ in range(50)}
    assert len(ids) == 50
    assert len(tokens) == 50
    for value in ids | tokens:
        assert value.replace("-", "").replace("_", "").isalnum()


def test_the_token_is_kept_as_its_sha256(database: str, tmp_path: Path) -> None:
    store = GameStore(database)
    token = new_token()
    game = store.create(rules="cardavia", level="club", lang="en", token=token, record="{}")
    assert game.token_hash == hashlib.sha256(token.encode()).hexdigest() == hash_token(token)
    assert game.token_matches(token)
    for wrong in ("", None, token[:-1], token + "x", token.upper(), game.token_hash):
        assert not game.token_matches(wrong)
    assert not token_matches(game.token_hash, "")
    store.close()
    raw = b"".join(path.read_bytes() for path in tmp_path.glob("cardavia.db*"))
    assert token.encode() not in raw
    assert game.token_hash.encode() in raw


@pytest.mark.parametrize("game_id", ["", "x" * 33, "nosuchgame", "' OR 1=1 --"])
def test_loading_an_unknown_game(database: str, game_id: str) -> None:
    assert GameStore(database).load(game_id) is None


def test_database_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(DATABASE_URL_VARIABLE, raising=False)
    assert database_url() == "sqlite:///cardavia.db"
    assert database_url("postgresql://u:p@db/cardavia") == "postgresql+psycopg://u:p@db/cardavia"
    assert database_url("postgres://u@db/c") == "postgresql+psycopg://u@db/c"
    assert database_url("postgresql+psycopg://u@db/c") == "postgresql+psycopg://u@db/c"
    path = tmp_path / "from-env.db"
    monkeypatch.setenv(DATABASE_URL_VARIABLE, f"sqlite:///{path}")
    store = GameStore()
    store.create(rules="cardavia", level="club", lang="en", token="t", record="{}")
    store.close()
    assert path.exists()


def test_in_memory_database_is_shared_between_threads() -> None:
    import threading

    store = GameStore("sqlite://")
    game = store.create(rules="cardavia", level="club", lang="en", token="t", record="{}")
    seen: list[object] = []
    thread = threading.Thread(target=lambda: seen.append(store.load(game.id)))
    thread.start()
    thread.join()
    assert seen == [game]


# -- the record, action after action ---------------------------------------------------------


def test_the_record_is_saved_after_every_action(
    client: TestClient, database: str, settle: Settle
) -> None:
    game = client.post("/api/games", json={"rules": "maison", "level": "beginner"}).json()
    rng = random.Random(4)
    with client.websocket_connect(socket_url(game)) as ws:
        view, _ = settle(ws)
        for _ in range(6):
            if view["phase"] in ("over", "cancelled"):
                break
            stored = load(database, game["game"])
            match = Record.from_json(stored.record).replay()
            assert len(match.deal.history) == view["step"]
            assert match.deal.hand(2).codes() == view["hand"]
            ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
            view, _ = settle(ws)
        revisions = load(database, game["game"]).revision
        assert revisions == view["step"]


def test_an_action_appends_to_the_record_and_does_not_rewrite_it(
    client: TestClient, database: str, settle: Settle, play_out: Settle
) -> None:
    game = client.post("/api/games", json={"rules": "coinche", "level": "beginner"}).json()
    first = load(database, game["game"]).record
    with client.websocket_connect(socket_url(game)) as ws:
        view, _ = play_out(ws, random.Random(5))
        if view["next_deal"]:
            ws.send_json({"type": "next_deal"})
            view, _ = settle(ws)
    engine = create_engine(database)
    with engine.connect() as connection:
        written = connection.execute(
            text("SELECT record, revision FROM games WHERE id = :id"), {"id": game["game"]}
        ).one()
        events = connection.execute(
            text("SELECT seq, event FROM game_events WHERE game_id = :id ORDER BY seq"),
            {"id": game["game"]},
        ).all()
    engine.dispose()
    assert written.record == first  # the record as created: never rewritten
    assert [seq for seq, _ in events] == list(range(1, written.revision + 1))
    assert all(len(event) < 300 for _, event in events)
    # Folded together, they are the whole match.
    match = Record.from_json(load(database, game["game"]).record).replay()
    assert len(match.deals) == view["deal_number"]
    assert len(match.deal.history) == view["step"]


def test_a_compacting_save_folds_the_events_in(database: str) -> None:
    store = GameStore(database)
    game = store.create(rules="c", level="l", lang="en", token="t", record='{"deals": [{}]}')
    revision = store.append(game.id, action_event("N pass"), revision=0)
    with pytest.raises(StaleGameError):
        store.append(game.id, action_event("E pass"), revision=0)
    assert store.load(game.id).record == '{"deals": [{}]}'  # unreadable: given back as is
    assert store.save(game.id, '{"deals": [{"actions": []}]}', revision=revision) == 2
    revision = store.append(game.id, deal_event("E", ["7S"]), revision=2)
    assert store.load(game.id).record == (
        '{"deals": [{"actions": []}, {"dealer": "E", "deck": ["7S"], "actions": []}]}'
    )
    assert store.load(game.id).revision == revision == 3
    store.close()


# -- restarts --------------------------------------------------------------------------------


def test_a_deal_survives_a_restart(
    make_app: Callable[..., FastAPI], database: str, settle: Settle, play_out: Settle
) -> None:
    rng = random.Random(8)
    with TestClient(make_app()) as first:
        game = first.post("/api/games", json={"rules": "maison", "lang": "fr"}).json()
        with first.websocket_connect(socket_url(game, "fr")) as ws:
            view, _ = settle(ws)
            for _ in range(4):
                ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
                view, _ = settle(ws)
                if view["phase"] != "bidding" and view["phase"] != "playing":
                    break
        before = view
    # A new server process on the same database: the deal continues where it was.
    with TestClient(make_app(seed=99)) as second:
        url = f"/api/games/{game['game']}"
        after = second.get(url, params={"token": game["token"], "lang": "fr"}).json()
        assert after == before
        with second.websocket_connect(socket_url(game, "fr")) as ws:
            view, _ = settle(ws)
            assert view == before
            if view["phase"] in ("bidding", "playing"):
                view, _ = play_out(ws, rng, view)
            assert view["phase"] in ("over", "cancelled")
        assert second.get(url, params={"token": "wrong"}).status_code == 403


def test_the_computer_players_resume_after_a_restart(
    make_app: Callable[..., FastAPI], database: str, settle: Settle
) -> None:
    """Stopped while the computer players were to act (their pause is long), the server
    comes back and they play on as soon as the player reconnects."""
    with TestClient(make_app(ai_delay=(60.0, 60.0))) as first:
        for _ in range(20):
            game = first.post("/api/games", json={"rules": "coinche"}).json()
            with first.websocket_connect(socket_url(game)) as ws:
                view = ws.receive_json()["view"]
                if view["to_move"] == "S":
                    ws.send_json({"type": "action", "action": {"kind": "pass"}})
                    view = ws.receive_json()["view"]
                if view["to_move"] != "S":
                    break
        stopped = view
    assert stopped["to_move"] != "S"
    with TestClient(make_app()) as second:
        with second.websocket_connect(socket_url(game)) as ws:
            view, _ = settle(ws)
        assert view["step"] > stopped["step"]
        assert view["to_move"] == "S" or view["phase"] in ("over", "cancelled")


def test_a_damaged_record_spoils_only_its_own_game(
    make_app: Callable[..., FastAPI], database: str
) -> None:
    with TestClient(make_app()) as first:
        damaged = first.post("/api/games", json={"rules": "maison"}).json()
        sound = first.post("/api/games", json={"rules": "maison"}).json()
    store = GameStore(database)
    stored = store.load(damaged["game"])
    assert stored is not None
    store.save(damaged["game"], stored.record.replace('"deals"', '"dealz"'), revision=0)
    store.close()
    with TestClient(make_app()) as second:
        response = second.get(
            f"/api/games/{damaged['game']}",
            params={"token": damaged["token"]},
            headers={"Accept-Language": "hi"},
        )
        assert response.status_code == 500
        assert response.json()["code"] == "internal"
        with second.websocket_connect(socket_url(damaged, "hi")) as ws:
            assert ws.receive_json()["code"] == "internal"
        ok = second.get(f"/api/games/{sound['game']}", params={"token": sound["token"]})
        assert ok.status_code == 200


def test_a_group_of_appends_checks_each_game_on_its_own(database: str) -> None:
    """The group commit of the site's writer: one transaction for many games' actions, each
    game's revision checked apart; a stale one is skipped, the others written."""
    store = GameStore(database)
    first, second = (
        store.create(rules="c", level="l", lang="en", token="t", record='{"deals": [{}]}')
        for _ in range(2)
    )
    # The usual case: every game where its append expects it (two in a row for one game).
    assert store.append_all(
        [
            Append(first.id, action_event("N pass"), 0),
            Append(second.id, action_event("N pass"), 0),
            Append(first.id, action_event("E pass"), 1),
        ]
    ) == [1, 1, 2]
    # One stale append: the others are written all the same.
    assert store.append_all(
        [
            Append(first.id, action_event("S pass"), 2),
            Append(second.id, action_event("E pass"), 0),
            Append(second.id, action_event("E pass"), 1, finished=True),
        ]
    ) == [3, None, 2]
    assert [event for _, event in store.events_since(first.id, 0)] == [
        action_event("N pass"),
        action_event("E pass"),
        action_event("S pass"),
    ]
    assert [event for _, event in store.events_since(second.id, 0)] == [
        action_event("N pass"),
        action_event("E pass"),
    ]
    assert store.load(first.id).revision == 3
    assert store.load(second.id).revision == 2
    assert store.append_all([]) == []
    store.close()


def test_appends_write_the_rows_sqlalchemy_would(database: str) -> None:
    """SQLite's appends go by the driver's cursor: the game's row is moved on exactly as
    SQLAlchemy writes it elsewhere (its time stamp in SQLAlchemy's format, the flag 0 or 1)."""
    store = GameStore(database)
    game = store.create(rules="c", level="l", lang="en", token="t", record='{"deals": [{}]}')
    assert store.append_all([Append(game.id, action_event("N pass"), 0, finished=True)]) == [1]
    engine = create_engine(database)
    with engine.connect() as connection:
        row = connection.execute(
            text("SELECT revision, finished, updated_at, created_at FROM games")
        ).one()
    engine.dispose()
    assert (row.revision, row.finished) == (1, True)
    if database.startswith("sqlite"):
        assert len(row.updated_at) == len(row.created_at)  # no time zone, as SQLAlchemy's
    assert store.load(game.id).updated_at >= store.load(game.id).created_at
    store.close()


def test_an_action_event_is_json_as_it_always_was() -> None:
    """Actions are written by hand when no character needs escaping, as json.dumps would."""
    for action in ("N pass", "S 7H +announce", 'W "odd"', "E \\ é\t"):
        assert action_event(action) == json.dumps({"action": action}, ensure_ascii=False)
