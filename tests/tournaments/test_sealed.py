"""Scouting made pointless (docs/tournaments.md, "Fair play"; issue 35): a finished deal of a
tournament still open shows its player only what they saw while playing — no other hand, no
replay of the four, no seed nor deck, no analysis, no shuffle check nor shared link in My
games — until the tournament closes; then all of it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.tournaments.test_play import TOURNAMENT, app_fixture, browser_fixture, close, play, start

__all__ = ["app_fixture", "browser_fixture"]


def finished(person: TestClient) -> tuple[dict[str, str], dict[str, Any]]:
    """The tournament's three deals played to their end: the game and last view of one with
    a contract (all four passing shows no hand anyway)."""
    ends = []
    for number in (1, 2, 3):
        game = start(person, number)
        ends.append((game, play(person, game, random.Random(number))))
    for game, view in ends:
        if view["phase"] == "over":
            return game, view
    raise AssertionError("every deal was passed out")


def my_entry(person: TestClient, game_id: str) -> dict[str, Any]:
    deals = person.get("/api/me/games").json()["deals"]
    (entry,) = [deal for deal in deals if deal["game"] == game_id]
    return dict(entry)


@pytest.mark.slow  # a tournament played and closed
def test_a_finished_deal_shows_only_what_its_player_saw_until_the_tournament_closes(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    person = browser()
    game, view = finished(person)
    assert view["replay"] is None
    assert view["fair"]["hash"] and (view["fair"]["seed"], view["fair"]["deck"]) == (None, None)
    assert len(view["hand"]) == 0 and view["result"] is not None  # the score, as seen
    read = person.get(f"/api/games/{game['game']}?token={game['token']}").json()
    assert read["replay"] is None and read["fair"]["seed"] is None
    analysis = person.get(f"/api/games/{game['game']}/analysis?token={game['token']}&lang=fr")
    assert analysis.status_code == 403
    assert analysis.json()["code"] == "tournament_sealed"
    assert analysis.json()["message"] == (
        "Toutes les mains de cette donne de tournoi, et son analyse, seront visibles une fois "
        "le tournoi terminé."
    )
    mine = person.get(f"/api/me/games/{game['game']}/analysis?deal=1")
    assert (mine.status_code, mine.json()["code"]) == (403, "tournament_sealed")
    entry = my_entry(person, game["game"])
    assert (entry["sealed"], entry["check"], entry["share"]) == (True, None, None)
    assert entry["score"] is not None  # the result, as seen at the table
    # The player who finished sees the field's results, and no hand of it yet.
    page = person.get(f"/en/tournaments/{TOURNAMENT}/deals/1")
    assert 'id="tournament-mine"' in page.text and 'id="tournament-sealed"' in page.text
    # Closed: every hand, the seed, the analysis.
    close(app)
    entry = my_entry(person, game["game"])
    assert entry["sealed"] is False and entry["check"] and entry["share"]
    assert person.get(f"/api/me/games/{game['game']}/analysis?deal=1").status_code == 200
