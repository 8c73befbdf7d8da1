"""Playing a tournament (docs/tournaments.md, "Playing"): entering it, each deal started once
and reopened rather than dealt again, resumed from a second browser of the same player, the
others' results and the deals' shared links hidden until it closes, and its seeds revealed
then, each checked against the commitment published before it opened."""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.players.plays import browser_fixture
from tests.tournaments.worked import keep_passkey

from cardavia.ai.levels import find_version
from cardavia.ai.player import told_the_score
from cardavia.belote import Action, Match, Observation, Pass, Record, find_rules
from cardavia.belote.fair import check_deal, deck_from_seed
from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.live.table import record_json
from cardavia.live.tournament_schedule import PAR_PAUSE
from cardavia.store.db import new_token
from cardavia.tournaments import service
from cardavia.tournaments.closing import close_one
from cardavia.tournaments.deals import PLAYER_SEAT, dealer_of
from cardavia.tournaments.par import SCORES, play_out
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments, dealt
from cardavia.web.app import create_app
from cardavia.web.guests import PLAYER_COOKIE
from cardavia.web.history import share_code

View = dict[str, Any]
TOURNAMENT = "short-cardavia-test"


def tournament_site(database: str, **overrides: Any) -> FastAPI:
    """The site on ``database`` (its settings' ``overrides`` given), with a short tournament
    of 3 deals open for an hour at the beginner level."""
    app = create_app(
        Settings(
            database_url=database,
            ai_delay=(0.0, 0.0),
            seed=7,
            limits=Limits(games_per_minute=0, messages_per_second=0),
            allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
            **overrides,
        )
    )
    opens = datetime.now(UTC) - timedelta(minutes=1)
    plan = Planned(TOURNAMENT, "short", "cardavia", 3, opens, opens + timedelta(hours=1))
    assert Tournaments(app.state.store, level="beginner").make(plan)
    return app


@pytest.fixture(name="app")
def app_fixture(database: str) -> FastAPI:
    """:func:`tournament_site` on a SQLite file of the test's own."""
    return tournament_site(database)


__all__ = ["browser_fixture"]  # the players' browsers: each a cookie jar, on the site's loop


def start(client: TestClient, number: int) -> dict[str, str]:
    """Start (or reopen) deal ``number``: the game the table page hands to table.js."""
    response = client.post(f"/api/tournaments/{TOURNAMENT}/deals/{number}", json={"lang": "en"})
    assert response.status_code == 201, response.text
    return table_game(client, response.json()["url"])


def table_game(client: TestClient, url: str) -> dict[str, str]:
    page = client.get(url, follow_redirects=False)
    assert page.status_code == 200, page.status_code
    found = re.search(r"data-game='([^']*)'", page.text)
    assert found is not None
    game: dict[str, str] = json.loads(html.unescape(found.group(1)))
    return game


def settle(ws: Any) -> View:
    """The table's view once it waits for the player or the deal is over."""
    for _ in range(300):
        message = ws.receive_json()
        if message["type"] != "state":
            continue
        view: View = message["view"]
        if view["phase"] in ("over", "cancelled") or (
            view["to_move"] == PLAYER_SEAT.name and view["legal"]
        ):
            return view
    raise AssertionError("the table did not settle")


def play(client: TestClient, game: dict[str, str], rng: random.Random, moves: int = 999) -> View:
    """Play ``moves`` of the player's actions (at most: the deal out), at random."""
    with client.websocket_connect(f"/ws/games/{game['game']}?token={game['token']}") as ws:
        view = settle(ws)
        while view["phase"] not in ("over", "cancelled") and moves > 0:
            ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
            moves -= 1
            view = settle(ws)
    return view


def close(app: FastAPI) -> None:
    """Close the tournament as the scheduler does once its window is over."""
    tournament = app.state.tournaments.get(TOURNAMENT)
    assert close_one(app.state.store, TOURNAMENT, now=tournament.closes_at + timedelta(seconds=1))


def test_a_deal_is_dealt_from_the_tournaments_seed_and_its_result_written(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    person = browser()
    game = start(person, 2)
    stored = app.state.store.load(game["game"])
    tournament = app.state.tournaments.get(TOURNAMENT)
    assert stored.first_seed == tournament.secret[1]
    assert Record.from_json(stored.record).replay().deals[0].dealer == dealer_of(2)
    assert stored.level == "beginner" and stored.seat == PLAYER_SEAT.name
    view = play(person, game, random.Random(1))
    page = person.get(f"/en/tournaments/{TOURNAMENT}")
    assert 'data-deal="2" data-state="done"' in page.text
    player = app.state.store.players.find(person.cookies[PLAYER_COOKIE])
    played = app.state.store.tournaments.deal(TOURNAMENT, 2, player.id)
    assert played.finished_at is not None and played.contract is not None
    if view["phase"] == "over":
        scores = view["result"]["scores"]
        assert (played.score_us, played.score_them) == (scores["NS"], scores["EW"])
    else:  # all four passed: the deal ends there
        assert (played.margin, played.contract) == (0, "pass")
    # The player's export holds the entry and the deal.
    exported = person.get("/api/me/export").json()
    assert [e["tournament"] for e in exported["tournament_entries"]] == [TOURNAMENT]
    (deal,) = exported["tournament_deals"]
    assert (deal["number"], deal["game"], deal["margin"]) == (2, game["game"], played.margin)


def test_one_attempt_per_deal(app: FastAPI, browser: Callable[[], TestClient]) -> None:
    person = browser()
    first = start(person, 1)
    play(person, first, random.Random(2), moves=1)
    again = start(person, 1)
    assert again == first  # the same game: reopened, not dealt again
    view = play(person, first, random.Random(2))
    assert start(person, 1)["game"] == first["game"]
    with person.websocket_connect(f"/ws/games/{first['game']}?token={first['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "next_deal"})
        answer = ws.receive_json()
        while answer["type"] != "error":
            answer = ws.receive_json()
        assert answer["code"] == "match_over"
    player = app.state.store.players.find(person.cookies[PLAYER_COOKIE])
    assert len(app.state.store.tournaments.deals_of(TOURNAMENT, player.id)) == 1
    assert view["phase"] in ("over", "cancelled")


def test_a_deal_resumes_in_a_second_browser_of_the_same_player(
    browser: Callable[[], TestClient],
) -> None:
    phone = browser()
    game = start(phone, 1)
    before = play(phone, game, random.Random(3), moves=2)
    laptop = browser()
    laptop.cookies.set(PLAYER_COOKIE, phone.cookies[PLAYER_COOKIE])
    page = laptop.get(f"/en/tournaments/{TOURNAMENT}")
    assert 'data-deal="1" data-state="playing"' in page.text
    resumed = table_game(laptop, f"/en/tournaments/{TOURNAMENT}/play/1")
    assert resumed == game
    with laptop.websocket_connect(f"/ws/games/{game['game']}?token={game['token']}") as ws:
        view = settle(ws)
    assert view["replay"] == before["replay"] or view["hand"] == before["hand"]
    # Someone else, with no such cookie, finds nothing to resume.
    stranger = browser()
    shut = stranger.get(f"/en/tournaments/{TOURNAMENT}/play/1", follow_redirects=False)
    assert shut.status_code == 303


@pytest.mark.slow  # a tournament played and closed
def test_results_and_shared_links_are_hidden_until_closing(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    finisher, other = browser(), browser()
    games = [start(finisher, number) for number in (1, 2, 3)]
    for number, game in enumerate(games, start=1):
        play(finisher, game, random.Random(number))
    play(other, start(other, 1), random.Random(9))
    # The other player has not finished: no comparison, no results of the field.
    refused = other.get(f"/en/tournaments/{TOURNAMENT}/deals/1", follow_redirects=False)
    assert refused.status_code == 303
    # The one who finished sees their own comparison.
    assert finisher.get(f"/en/tournaments/{TOURNAMENT}/deals/1").status_code == 200
    # The shared link of a tournament deal is refused while it is open, to anyone (My games
    # does not offer it then: test_sealed.py).
    codes = [share_code(app.state.store.load(game["game"]), 1) for game in games]
    for client in (finisher, other, browser()):
        assert client.get(f"/api/deals/{codes[0]}").status_code == 404
    close(app)
    assert other.get(f"/en/tournaments/{TOURNAMENT}/deals/1").status_code == 200
    assert browser().get(f"/api/deals/{codes[0]}").status_code == 200
    # Closed: no deal starts any more.
    late = other.post(f"/api/tournaments/{TOURNAMENT}/deals/2", json={"lang": "en"})
    assert late.status_code == 404


def test_seeds_are_revealed_after_closing_and_check_against_the_commitments(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    tournament = app.state.tournaments.get(TOURNAMENT)
    reader = browser()
    before = reader.get(f"/en/tournaments/{TOURNAMENT}").text
    assert all(commitment in before for commitment in tournament.commitments)
    assert not any(seed in before for seed in tournament.secret)
    person = browser()
    game = start(person, 1)
    play(person, game, random.Random(4))
    close(app)
    after = reader.get(f"/en/tournaments/{TOURNAMENT}").text
    seeds = re.findall(r'<code dir="ltr" class="tournament-seed">([0-9a-f]{64})</code>', after)
    assert seeds == list(tournament.secret)
    dealt = Record.from_json(app.state.store.load(game["game"]).record).replay().deals[0].deck
    for number, (seed, commitment) in enumerate(
        zip(seeds, tournament.commitments, strict=True), start=1
    ):
        check = check_deal(seed, commitment, dealt if number == 1 else None)
        assert check.ok, (number, check.problem)


@pytest.mark.slow  # the par's expert deals
def test_the_par_is_worked_out_once_someone_entered(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store = app.state.store
    person = browser()
    for number in (1, 2, 3):
        play(person, start(person, number), random.Random(number))
    # At once, not on the par's worker's next round (it was asleep: nobody had entered).
    deadline = time.monotonic() + PAR_PAUSE / 2
    while len(store.tournaments.pars(TOURNAMENT)) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    pars = store.tournaments.pars(TOURNAMENT)
    assert sorted(pars) == [1, 2, 3]
    # The same par wherever it is worked out: the deal played again by computer players.
    tournament = app.state.tournaments.get(TOURNAMENT)
    for number, par in pars.items():
        again = asyncio.run(play_out(tournament, number, decide_alone))
        assert (par.margin, par.contract) == (again.margin, again.contract)
    # Nobody entered the scheduled tournaments: no par worked out for them.
    assert all(
        not store.tournaments.pars(t.id)
        for t in app.state.tournaments.open_now()
        if t.id != TOURNAMENT
    )
    page = person.get(f"/en/tournaments/{TOURNAMENT}/deals/1")
    assert 'id="tournament-par"' in page.text
    assert re.search(r'margin <bdi dir="ltr">[+-]\d+</bdi>\.', page.text)


async def decide_alone(level: str, observation: Observation, seed: int, **_: object) -> Action:
    """A computer player's decision in this process (no pool, no budget, no sharing)."""
    return told_the_score(find_version(level), SCORES).decide(observation, random.Random(seed))


@pytest.mark.slow  # a tournament played and closed
def test_the_ranking_after_closing_ranks_players_with_a_passkey(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store = app.state.store
    keeper, guest = browser(), browser()
    for person in (keeper, guest):
        for number in (1, 2, 3):
            play(person, start(person, number), random.Random(number))
    kept = store.players.find(keeper.cookies[PLAYER_COOKIE])
    keep_passkey(store, kept.id, app.state.tournaments.get(TOURNAMENT).opens_at)
    page = keeper.get(f"/en/tournaments/{TOURNAMENT}").text
    assert 'id="tournament-ranking"' not in page  # not before closing
    close(app)
    page = keeper.get(f"/en/tournaments/{TOURNAMENT}").text
    assert page.count('class="tournament-me"') == 1
    assert "Your place: 1 of 1; your score: " in page
    unranked = guest.get(f"/en/tournaments/{TOURNAMENT}").text
    assert "You played unranked; your score: " in unranked
    assert 'class="tournament-me"' not in unranked
    # The score as each language writes a percentage (French: a decimal comma, a no-break
    # space before the sign).
    percent = f"{store.tournaments.entry(TOURNAMENT, kept.id).percent:.1f}"
    assert f"your score: {percent}%" in page
    french = keeper.get(f"/fr/tournaments/{TOURNAMENT}").text
    assert f"{percent.replace('.', ',')}\N{NO-BREAK SPACE}%" in french


def test_all_four_passing_ends_a_tournament_deal_at_margin_zero(app: FastAPI) -> None:
    store = app.state.store
    tournament = app.state.tournaments.get(TOURNAMENT)
    seed, dealer = dealt(tournament, 1)
    match = Match.from_deck(
        find_rules("cardavia").replace(target=None), dealer=dealer, deck=deck_from_seed(seed)
    )
    while not match.deal.is_over:
        match = match.apply(Pass(match.deal.to_move))
    assert match.deal.phase.value == "cancelled"
    game = store.create(
        rules="cardavia", level="beginner", lang="en", token=new_token(), record=record_json(match)
    )
    player = store.players.create(new_token())
    deal = store.tournaments.start_deal(TOURNAMENT, 1, player.id, game.id, tournament.opens_at)
    assert service.settle(store, deal)
    played = store.tournaments.deal(TOURNAMENT, 1, player.id)
    assert (played.margin, played.score_us, played.score_them, played.contract) == (0, 0, 0, "pass")
    assert not service.settle(store, played)  # written once
