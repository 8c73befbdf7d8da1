"""Scouting made visible and unrewarded (docs/tournaments.md, "Fair play"; issue 35): the
audit's scout — one person who plays a deal to its end with a first account, then plays it
again with a second one made for the purpose — plays unranked with the second account (only
a passkey that existed when the tournament opened ranks), and the page says so; deleting a
player wipes no result (it stays in the field and the standings, as a former player's)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.tournaments.test_play import TOURNAMENT, app_fixture, browser_fixture, close, play, start
from tests.tournaments.worked import keep_passkey

from cardavia.store.tournaments import FORMER_PLAYER, DealPlayedRow
from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]


@pytest.mark.slow  # a tournament played and closed
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


def delete(person: TestClient) -> None:
    """The player deletes their player (``DELETE /api/me``)."""
    answer = person.request("DELETE", "/api/me", json={"confirm": True})
    assert answer.status_code == 200, answer.text


@pytest.mark.slow  # a tournament played and closed
def test_a_deleted_players_results_stay_in_the_field_and_the_standings_as_a_former_player(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store = app.state.store
    tournament = app.state.tournaments.get(TOURNAMENT)
    ana, bob, cleo = browser(), browser(), browser()
    for person in (ana, bob, cleo):
        start(person, 1)
    ids = {
        name: store.players.find(person.cookies[PLAYER_COOKIE]).id
        for name, person in (("ana", ana), ("bob", bob), ("cleo", cleo))
    }
    for name in ("ana", "bob"):
        keep_passkey(store, ids[name], tournament.opens_at)
    for person in (ana, bob):
        for number in (1, 2, 3):
            play(person, start(person, number), random.Random(number + 10))
    play(cleo, start(cleo, 1), random.Random(1))
    for person in (ana, bob, cleo):  # each reads their progress: their results are written
        person.get(f"/en/tournaments/{TOURNAMENT}")
    # Each deal keeps the client it was started from, in its player's export too.
    (first, *_rest) = ana.get("/api/me/export").json()["tournament_deals"]
    assert first["client"] == "testclient"
    # Cleo deletes her player before closing: her result stays in deal 1's field.
    delete(cleo)
    field = app.state.tournaments.store.standings.field(TOURNAMENT, 1)
    assert field.results == 3
    close(app)
    before = bob.get(f"/en/tournaments/{TOURNAMENT}").text
    assert before.count("<tr") == 3  # the head and the two ranked
    # Ana deletes her player after closing: her place stays, as a former player's.
    delete(ana)
    page = bob.get(f"/en/tournaments/{TOURNAMENT}").text
    assert page.count("<tr") == 3 and "a former player" in page
    assert "un ancien joueur" in bob.get(f"/fr/tournaments/{TOURNAMENT}").text
    rows = store.tournaments.unfinished(TOURNAMENT)  # none: every deal started was finished
    assert rows == []
    for gone in ("ana", "cleo"):
        assert store.tournaments.deals_of(TOURNAMENT, gone) == []
        assert store.tournaments.entry(TOURNAMENT, ids[gone]) is None
    kept = store.standings.field(TOURNAMENT, 1)
    assert kept.results == 3
    with store.engine.connect() as connection:
        formers = connection.execute(
            select(DealPlayedRow.player_id, DealPlayedRow.client).where(
                DealPlayedRow.player_id.startswith(FORMER_PLAYER)
            )
        ).all()
    assert len(formers) == 4 and {client for _player, client in formers} == {None}
    assert len({player for player, _client in formers}) == 2  # one id for each deleted player
