"""A tournament's deal over, against those who finished it before (issue 36, item 3): the
player's margin, the par's, and the share of the earlier results they did better than, worded
in the page's language, for their own deal only and once it is over — results only, never a
hand (the deal stays sealed until the tournament closes, docs/tournaments.md "Fair play")."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.tournaments.test_play import TOURNAMENT, app_fixture, browser_fixture, close, play, start

from cardavia.tournaments.scoring import matchpoints
from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]

URL = f"/api/tournaments/{TOURNAMENT}/deals/1/so-far"


@pytest.mark.slow  # two whole deals played
def test_a_finished_deal_is_compared_with_those_who_finished_it_before(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    first, second = browser(), browser()
    game = start(first, 1)
    # Not over yet: nothing to compare (nor to anyone who has not played it).
    assert first.get(URL).status_code == 404
    assert second.get(URL).status_code == 404
    play(first, game, random.Random(1))
    alone = first.get(URL, params={"lang": "fr"})
    assert alone.status_code == 200, alone.text
    lines = alone.json()["lines"]
    assert alone.json().keys() == {"lines"}
    assert lines[0].startswith("Votre écart sur cette donne\N{NO-BREAK SPACE}: ")
    assert lines[-1] == "Personne n’avait terminé cette donne avant vous."
    play(second, start(second, 1), random.Random(2))
    told = second.get(URL, params={"lang": "en"}).json()["lines"]  # their deal written first
    store: Any = app.state.store
    mine, theirs = (
        store.tournaments.deal(TOURNAMENT, 1, store.players.find(who.cookies[PLAYER_COOKIE]).id)
        for who in (second, first)
    )
    better = round(100 * matchpoints(mine.margin, [theirs.margin]))
    assert told[-1] == (
        f"You did better than {better} % of the 1 player who finished it before you."
    )
    # Closed: the tournament's comparison page says it all.
    close(app)
    assert second.get(URL).status_code == 404
