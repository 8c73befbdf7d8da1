"""Scouting made visible and unrewarded (docs/tournaments.md, "Fair play"; issue 35): the
audit's scout — one person who plays a deal to its end with a first account, then plays it
again with a second one made for the purpose — plays unranked with the second account (only
a passkey that existed when the tournament opened ranks), and the page says so."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.tournaments.test_play import TOURNAMENT, app_fixture, browser_fixture, close, play, start
from tests.tournaments.worked import keep_passkey

from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]


def test_a_second_account_keyed_after_the_tournament_opened_plays_unranked(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store = app.state.store
    tournament = app.state.tournaments.get(TOURNAMENT)
    pat, quinn = browser(), browser()
    for person in (pat, quinn):
        start(person, 1)
    pat_id = store.players.find(pat.cookies[PLAYER_COOKIE]).id
    quinn_id = store.players.find(quinn.cookies[PLAYER_COOKIE]).id
    keep_passkey(store, pat_id, tournament.opens_at - timedelta(days=3))  # a player of before
    keep_passkey(store, quinn_id, tournament.opens_at + timedelta(minutes=5))  # made for it
    for person in (pat, quinn):
        for number in (1, 2, 3):
            play(person, start(person, number), random.Random(number))
    notice = 'id="tournament-unranked"'
    assert notice in quinn.get(f"/en/tournaments/{TOURNAMENT}").text
    assert notice not in pat.get(f"/en/tournaments/{TOURNAMENT}").text
    french = quinn.get(f"/fr/tournaments/{TOURNAMENT}").text
    assert "Vous jouez ce tournoi sans être classé" in french
    close(app)
    assert (
        store.tournaments.entry(TOURNAMENT, pat_id).ranked,
        store.tournaments.entry(TOURNAMENT, quinn_id).ranked,
    ) == (True, False)
    assert "Your place: 1 of 1" in pat.get(f"/en/tournaments/{TOURNAMENT}").text
    assert "You played unranked" in quinn.get(f"/en/tournaments/{TOURNAMENT}").text
