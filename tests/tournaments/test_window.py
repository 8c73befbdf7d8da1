"""A tournament is played inside its window (docs/tournaments.md, "Fair play"; issue 35): its
tables refuse every action and hint once it has closed (its seeds, so every hand, are public
then), answer no hint while it is open, and no result is written after it has closed, however
the deal went on."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.tournaments.test_play import (
    TOURNAMENT,
    app_fixture,
    browser_fixture,
    close,
    play,
    settle,
    start,
)

from cardavia.tournaments import service
from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]


def answer_to(ws: Any, message: dict[str, Any], step: int) -> dict[str, Any]:
    """Send ``message`` to a table at ``step``; the answer: the next message that is not a
    view (an error, a hint), or the first view past ``step`` (the message was acted on)."""
    ws.send_json(message)
    for _ in range(300):
        answer: dict[str, Any] = ws.receive_json()
        if answer["type"] != "state" or answer["view"]["step"] != step:
            return answer
    raise AssertionError("no answer")


def test_a_late_action_or_hint_is_refused_once_the_tournament_has_closed(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    person = browser()
    game = start(person, 1)
    before = play(person, game, random.Random(5), moves=1)
    assert before["phase"] not in ("over", "cancelled")
    tournament = app.state.tournaments.get(TOURNAMENT)
    # The tables' clock (the tournaments' own) past the close.
    app.state.tournament_tables.clock = lambda: tournament.closes_at + timedelta(seconds=25)
    path = f"/ws/games/{game['game']}?token={game['token']}&lang=fr"
    with person.websocket_connect(path) as ws:
        view = settle(ws)
        assert view["step"] == before["step"]
        action = {"type": "action", "action": view["legal"][0]}
        refused = answer_to(ws, action, view["step"])
        assert refused.get("code") == "tournament_closed"
        assert refused["message"] == (
            "Ce tournoi est terminé\N{NO-BREAK SPACE}: ses donnes ne peuvent plus être jouées."
        )
        assert answer_to(ws, {"type": "hint"}, view["step"]).get("code") == "tournament_closed"
        assert answer_to(ws, {"type": "next_deal"}, view["step"]).get("code") == "match_over"
        ws.send_json({"type": "sync"})
        assert settle(ws)["step"] == before["step"]  # nothing moved
    stored = app.state.store.load(game["game"])
    assert stored.revision == app.state.tables.held()[game["game"]].revision


def test_hints_are_refused_at_a_tournament_table_while_it_is_open(
    browser: Callable[[], TestClient],
) -> None:
    person = browser()
    game = start(person, 1)
    with person.websocket_connect(f"/ws/games/{game['game']}?token={game['token']}") as ws:
        view = settle(ws)
        refused = answer_to(ws, {"type": "hint"}, view["step"])
        assert refused.get("code") == "tournament_no_hints"
        assert refused["message"] == (
            "No hints at a tournament table: everyone plays its deals on their own."
        )
    # A table of the player's own answers hints as before.
    own = person.post("/api/games", json={"rules": "cardavia", "level": "beginner"}).json()
    with person.websocket_connect(f"/ws/games/{own['game']}?token={own['token']}") as ws:
        view = settle(ws)
        given = answer_to(ws, {"type": "hint"}, view["step"])
        assert given["type"] == "hint" and given["step"] == view["step"]


def test_no_result_is_written_after_closing(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store = app.state.store
    person = browser()
    game = start(person, 2)
    play(person, game, random.Random(6), moves=1)
    close(app)  # deal 2 unfinished at closing: 25 %, no result of the field
    player = store.players.find(person.cookies[PLAYER_COOKIE])
    at_closing = store.tournaments.deal(TOURNAMENT, 2, player.id)
    assert (at_closing.finished_at, at_closing.matchpoints) == (None, 25.0)
    # Played on to the end anyway (a table that did not know yet), then read.
    view = play(person, game, random.Random(6))
    assert view["phase"] in ("over", "cancelled")
    assert person.get(f"/en/tournaments/{TOURNAMENT}").status_code == 200
    assert not service.settle(store, at_closing)
    assert store.tournaments.deal(TOURNAMENT, 2, player.id) == at_closing


def test_only_a_tournaments_tables_are_looked_up(
    app: FastAPI, browser: Callable[[], TestClient], monkeypatch: Any
) -> None:
    """The window is read from the store when a game is opened (once per process), and at
    the first action of a tournament's deal only: the games a single-player table deals
    over its socket are never looked up (each would cost a read on the first action of
    every deal)."""
    tournaments = app.state.store.tournaments
    looked: list[str] = []
    of_game = tournaments.of_game

    def counted(game_id: str) -> Any:
        looked.append(game_id)
        return of_game(game_id)

    monkeypatch.setattr(tournaments, "of_game", counted)
    person = browser()
    own = person.post("/api/games", json={"rules": "cardavia", "level": "beginner"}).json()
    games = [own["game"]]
    with person.websocket_connect(f"/ws/games/{own['game']}?token={own['token']}") as ws:
        rng = random.Random(3)
        for _deal in range(2):
            view = settle(ws)
            while view["phase"] not in ("over", "cancelled"):
                ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
                view = settle(ws)
            ws.send_json({"type": "again", "game": view["game"]})
            moved = ws.receive_json()
            assert moved["type"] == "game"
            games.append(moved["game"])
    assert len(set(games)) == 3 and not set(games[1:]) & set(looked)
    assert looked.count(games[0]) == 1  # at its opening
    # A tournament's deal is, at its first action.
    game = start(person, 1)
    play(person, game, random.Random(4), moves=1)
    assert game["game"] in looked
