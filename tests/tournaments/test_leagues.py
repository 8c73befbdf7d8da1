"""The weekly leagues (docs/tournaments.md, "Leagues") on worked numbers: a week's points
from the best five tournaments, the places, promotion and relegation, the inactive, a
newcomer brought in mid-week, the next season's groups, the hall of fame; a season closed
once, by one of two processes, on SQLite and on PostgreSQL (with a tournament's performance,
written once too). The tournaments' rows are written directly: ranking them is the
standings' business."""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from sqlalchemy.orm import Session

from cardavia.live.room import HIDDEN_NAME
from cardavia.live.settings import Settings
from cardavia.store.db import GameStore, new_token
from cardavia.store.leagues import Member
from cardavia.store.tournaments import DealPlayedRow, EntryRow, TournamentRow
from cardavia.tournaments.leagues import (
    DIVISIONS,
    GROUP_SIZE,
    group_outcomes,
    moves,
    newcomers,
    ordered,
    regroup,
    season_due,
    season_points,
    week_of,
)
from cardavia.tournaments.performance import after_close
from cardavia.web.app import create_app
from cardavia.words import LANGUAGES, glossary, load_catalogs

MONDAY = datetime(2026, 11, 2, tzinfo=UTC)
"""The start of 2026-W45."""


@pytest.fixture
def store() -> Iterator[GameStore]:
    store = GameStore("sqlite://")
    yield store
    store.close()


def tournament(
    store: GameStore,
    ident: str,
    closes_at: datetime,
    percents: Mapping[str, float],
    unranked: frozenset[str] = frozenset(),
) -> None:
    """A tournament ranked at ``closes_at``: each player's percent (those ``unranked``
    played it without a passkey)."""
    with Session(store.engine) as session, session.begin():
        session.execute(
            insert(TournamentRow),
            {
                "id": ident,
                "kind": "short",
                "preset": "cardavia",
                "level": "club",
                "version": "v1",
                "deals": 6,
                "opens_at": closes_at - timedelta(hours=4),
                "closes_at": closes_at,
                "seeds": json.dumps([]),
                "commitments": json.dumps([]),
                "created_at": closes_at - timedelta(hours=4),
                "closed_at": closes_at,
            },
        )
        for player, percent in percents.items():
            session.execute(
                insert(EntryRow),
                {
                    "tournament_id": ident,
                    "player_id": player,
                    "started_at": closes_at - timedelta(hours=1),
                    "ranked": player not in unranked,
                    "percent": percent,
                },
            )


def named(store: GameStore, names: list[str]) -> dict[str, str]:
    """Players made in the store: their ids by the test's names for them."""
    ids = {}
    for name in names:
        player = store.players.create(new_token())
        ids[name] = player.id
    return ids


def test_the_arithmetic() -> None:
    assert week_of(datetime(2026, 11, 8, 23, 59, tzinfo=UTC)).id == "2026-W45"
    assert week_of(MONDAY).starts_at == MONDAY
    assert week_of(MONDAY + timedelta(days=7)).id == "2026-W46"
    assert week_of(datetime(2027, 1, 1, tzinfo=UTC)).id == "2026-W53"
    # The best five of six: 80 + 65 + 50 + 45 + 40.
    assert season_points([80.0, 40.0, 50.0, 45.0, 30.0, 65.0]) == 280.0
    assert season_points([]) == 0.0
    assert [moves(size) for size in (1, 2, 5, 6, 12, 30, 31)] == [0, 1, 1, 1, 2, 5, 5]
    # Ties on points: more tournaments first, then the player's id.
    group = [Member("z", 4, 1, 55.0, 1), Member("y", 4, 1, 55.0, 2), Member("a", 4, 1, 55.0, 1)]
    assert [one.player_id for one in ordered(group)] == ["y", "a", "z"]
    # Division 1 sends nobody up; the lowest nobody down, and drops its inactive.
    top = group_outcomes([Member("w", 1, 1, 90.0, 1), Member("l", 1, 1, 10.0, 1)])
    assert [(one.place, one.movement) for one in top] == [(1, "stay"), (2, "down")]
    low = group_outcomes(
        [Member("w", 5, 1, 90.0, 1), Member("s", 5, 1, 10.0, 1), Member("i", 5, 1, 0.0, 0)]
    )
    assert [one.movement for one in low] == ["up", "stay", "out"]


def test_groups_of_about_thirty_by_rating() -> None:
    players = {f"p{n:02d}": 4 for n in range(61)} | {"top": 1}
    skills = {f"p{n:02d}": float(n) for n in range(61)}
    placed = regroup(players, skills)
    sizes: dict[tuple[int, int], int] = {}
    for _player, division, group in placed:
        sizes[division, group] = sizes.get((division, group), 0) + 1
    assert sizes == {(1, 1): 1, (4, 1): 21, (4, 2): 20, (4, 3): 20}
    # The highest ratings together in the first group.
    first = {player for player, division, group in placed if (division, group) == (4, 1)}
    assert first == {f"p{n:02d}" for n in range(40, 61)}
    # Newcomers fill the lowest division's groups with room, then open a new one.
    entered = newcomers({1: GROUP_SIZE, 2: GROUP_SIZE - 1}, ["b", "a"])
    assert entered == [("a", DIVISIONS, 2), ("b", DIVISIONS, 3)]
    assert newcomers({}, ["a"]) == [("a", DIVISIONS, 1)]


def test_a_league_week_with_promotion_and_relegation(store: GameStore) -> None:
    ids = named(
        store,
        ["d1", "d2", "b1", "b2", "b3", "b4", "b5", "b6", "c1", "c2", "c3", "c4", "n1", "guest"],
    )
    week = week_of(MONDAY)
    assert store.leagues.open_season(week)
    # Last season placed them: two in division 1, six in division 4, four in division 5.
    placed = [(ids["d1"], 1, 1), (ids["d2"], 1, 1)]
    placed += [(ids[f"b{n}"], 4, 1) for n in range(1, 7)]
    placed += [(ids[f"c{n}"], 5, 1) for n in range(1, 5)]
    assert store.leagues.enrol(week.id, placed) == 12

    # The week's tournaments: each player's percentages.
    played = {
        "d1": [90.0],
        "d2": [10.0],
        "b1": [60.0, 70.0],  # 130
        "b2": [80.0, 40.0, 50.0, 45.0, 30.0, 65.0],  # best five: 280
        "b3": [50.0, 50.0],  # 100
        "b4": [30.0, 25.0],  # 55, in two tournaments
        "b5": [55.0],  # 55, in one
        "b6": [20.0],
        "c1": [75.0],
        "c2": [50.0],
        "c3": [40.0],
        "n1": [45.0],  # a newcomer: in no group yet
        "guest": [99.0],  # unranked (no passkey): never in the leagues
    }
    for index in range(6):
        percents = {ids[name]: marks[index] for name, marks in played.items() if index < len(marks)}
        moment = MONDAY + timedelta(days=1, hours=index)
        tournament(store, f"t{index}", moment, percents, frozenset({ids["guest"]}))
    # Tournaments of the week before and the week after do not count.
    tournament(store, "before", MONDAY - timedelta(minutes=1), {ids["c4"]: 100.0})
    tournament(store, "after", MONDAY + timedelta(days=7), {ids["c4"]: 100.0})

    wednesday = MONDAY + timedelta(days=2)
    assert season_due(store, now=wednesday) == []
    members = {one.player_id: one for one in store.leagues.members(week.id)}
    assert members[ids["n1"]] == Member(ids["n1"], 5, 1, 45.0, 1)
    assert ids["guest"] not in members
    assert (members[ids["b2"]].points, members[ids["b2"]].tournaments) == (280.0, 6)
    assert members[ids["c4"]].points == 0.0
    # Another tournament ranked on Thursday: the next pass scores it (the one after it has
    # nothing new to score).
    thursday = MONDAY + timedelta(days=3)
    tournament(store, "thursday", thursday, {ids["n1"]: 55.0})
    assert season_due(store, now=thursday) == []
    assert season_due(store, now=thursday) == []
    n1 = store.leagues.membership(week.id, ids["n1"])
    assert n1 is not None and (n1.points, n1.tournaments) == (100.0, 2)

    # The week is over: places and movements.
    next_monday = MONDAY + timedelta(days=7, minutes=5)
    assert season_due(store, now=next_monday) == ["2026-W45"]
    closed = {one.player_id: one for one in store.leagues.members(week.id)}
    standings = {
        (one.division, one.place): (name, one.points, one.movement)
        for name, player in ids.items()
        if (one := closed.get(player)) is not None
    }
    assert standings == {
        (1, 1): ("d1", 90.0, "stay"),
        (1, 2): ("d2", 10.0, "down"),
        (4, 1): ("b2", 280.0, "up"),
        (4, 2): ("b1", 130.0, "stay"),
        (4, 3): ("b3", 100.0, "stay"),
        (4, 4): ("b4", 55.0, "stay"),
        (4, 5): ("b5", 55.0, "stay"),
        (4, 6): ("b6", 20.0, "down"),
        (5, 1): ("n1", 100.0, "up"),
        (5, 2): ("c1", 75.0, "stay"),
        (5, 3): ("c2", 50.0, "stay"),
        (5, 4): ("c3", 40.0, "stay"),
        (5, 5): ("c4", 0.0, "out"),
    }
    # The next season: everyone placed by their movement, nobody's points yet.
    following = store.leagues.members("2026-W46")
    divisions = {
        name: one.division for one in following for name in ids if ids[name] == one.player_id
    }
    assert divisions == {
        "d1": 1,
        "d2": 2,
        "b2": 3,
        "b1": 4,
        "b3": 4,
        "b4": 4,
        "b5": 4,
        "n1": 4,
        "b6": 5,
        "c1": 5,
        "c2": 5,
        "c3": 5,
        # Out, but the tournament that closed on the new week's first minute is the new
        # week's: back in as a newcomer.
        "c4": 5,
    }
    points = {one.player_id: one.points for one in following}
    assert points.pop(ids["c4"]) == 100.0
    assert set(points.values()) == {0.0}
    # The hall of fame: division 1's winner.
    (winner,) = store.leagues.hall_of_fame()
    assert (winner.season_id, winner.player_id, winner.points) == ("2026-W45", ids["d1"], 90.0)

    # Again: nothing more.
    assert season_due(store, now=next_monday + timedelta(minutes=1)) == []
    assert len(store.leagues.members("2026-W46")) == 13


def test_one_of_two_processes_closes_a_season(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'leagues.db'}"
    first = GameStore(url)
    second = GameStore(url)
    try:
        ids = named(first, ["a", "b"])
        week = week_of(MONDAY)
        first.leagues.open_season(week)
        first.leagues.enrol(week.id, [(ids["a"], 5, 1), (ids["b"], 5, 1)])
        tournament(first, "t", MONDAY + timedelta(days=1), {ids["a"]: 60.0, ids["b"]: 40.0})
        later = MONDAY + timedelta(days=7, minutes=1)
        answers: list[list[str]] = []
        barrier = threading.Barrier(2)

        def run(store: GameStore) -> None:
            barrier.wait()
            answers.append(season_due(store, now=later))

        threads = [threading.Thread(target=run, args=(store,)) for store in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [[], ["2026-W45"]]
        placed = {one.player_id: one.division for one in first.leagues.members("2026-W46")}
        assert placed == {ids["a"]: 4, ids["b"]: 5}
    finally:
        first.close()
        second.close()


# -- PostgreSQL: two processes at once ---------------------------------------------------------


def test_on_postgresql_performance_and_seasons_are_written_once(empty_postgres: str) -> None:
    first, second = GameStore(empty_postgres), GameStore(empty_postgres)
    try:
        ids = named(first, ["a", "b", "c"])
        week = week_of(MONDAY)
        first.leagues.open_season(week)
        first.leagues.enrol(week.id, [(ids["a"], 5, 1), (ids["b"], 5, 1)])
        closes = MONDAY + timedelta(days=1)
        tournament(first, "t", closes, {ids["a"]: 60.0, ids["b"]: 40.0, ids["c"]: 50.0})
        with Session(first.engine) as session, session.begin():
            for number, (player, mark) in enumerate(
                [(ids["a"], 100.0), (ids["b"], 0.0), (ids["c"], 50.0)], start=1
            ):
                session.execute(
                    insert(DealPlayedRow),
                    {
                        "tournament_id": "t",
                        "number": 1,
                        "player_id": player,
                        "game_id": f"g{number}",
                        "started_at": closes,
                        "margin": 0,
                        "matchpoints": mark,
                    },
                )
        later = MONDAY + timedelta(days=7, minutes=1)
        barrier = threading.Barrier(2)
        written: list[int] = []
        closed: list[list[str]] = []

        def run(store: GameStore) -> None:
            barrier.wait()
            written.append(after_close(store, "t", now=closes))
            barrier.wait()
            closed.append(season_due(store, now=later))

        threads = [threading.Thread(target=run, args=(store,)) for store in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(written) == [0, 3]
        assert sorted(closed) == [[], ["2026-W45"]]
        point = second.leagues.performance(ids["a"], "classic")
        assert point is not None and (point.value, point.deals) == (100.0, 1)
        # c was in no group: brought into W45 as it closed (a newcomer of its week), second
        # of three, c stays; a goes up; b, last of the lowest division, stays.
        placed = {one.player_id: one.division for one in second.leagues.members("2026-W46")}
        assert placed == {ids["a"]: 4, ids["b"]: 5, ids["c"]: 5}
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_in_each_language(tmp_path: Path, lang: str) -> None:
    """The leagues' page answers in every language, its words the glossary's; a player in
    no league is told how to enter one; a reported name is "a player" to the others."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'site.db'}",
        allowed_hosts=("testserver", "127.0.0.1", "localhost"),
    )
    with TestClient(create_app(settings)) as client:
        answer = client.get(f"/{lang}/leagues")
        assert answer.status_code == 200 and 'id="league-none"' in answer.text
        assert answer.headers["cache-control"] == "no-store"
        assert [
            fault
            for line in answer.text.splitlines()
            for fault in glossary.misuses(lang, re.sub(r"<[^>]+>", " ", line))
        ] == []
        assert client.get("/xx/leagues").status_code == 404
        # A winner whose name was reported, in the hall of fame: "a player" to the others.
        store: GameStore = client.app.state.store  # type: ignore[attr-defined]
        ids = named(store, ["rude", "reporter", "other"])
        store.players.update(ids["rude"], {"name": "Rude"})
        store.safety.report(ids["reporter"], ids["rude"], "Rude")
        week = week_of(MONDAY)
        store.leagues.open_season(week)
        store.leagues.enrol(week.id, [(ids["rude"], 1, 1), (ids["other"], 1, 1)])
        tournament(store, "t", MONDAY + timedelta(days=1), {ids["rude"]: 70.0, ids["other"]: 30})
        assert season_due(store, now=MONDAY + timedelta(days=7)) == [week.id]
        page = client.get(f"/{lang}/leagues").text
        fame = page[page.index('id="league-fame"') :]
        hidden = load_catalogs().wording(lang).gettext(HIDDEN_NAME)
        assert "Rude" not in fame and html.escape(hidden) in fame
