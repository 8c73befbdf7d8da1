"""A tournament closed and read in the store, on SQLite and PostgreSQL: the worked examples
of tests/tournaments/worked.py (the pure scoring's own) through the closing's bulk reads and
writes, a closing done once however many processes try at the same moment, the ranking by
pages and a player's own place, a deal's field against the par, the best results."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import event, insert, select
from tests.tournaments.worked import ALONE, CLOSES, CLUB, OPENS, Worked, fill, keep_passkey

from cardavia.store.db import GameStore, new_token
from cardavia.store.standings import OPTIMISTIC_TRIES, ClosingField, Ranked
from cardavia.store.tournaments import DealPlayedRow, EntryRow, TournamentRow
from cardavia.tournaments import standings
from cardavia.tournaments.standings import (
    ContractCount,
    MarginCount,
    Par,
    Placing,
    best_results,
    close,
    deal_field,
    place_of,
    ranking,
)

TOURNAMENT = "daily-coinche-20261202"
AFTER = CLOSES + timedelta(seconds=1)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database file of SQLite, or a new database of the tests' PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'standings.db'}"
    found: str = request.getfixturevalue("empty_postgres")
    return found


def rows(store: GameStore, ids: dict[str, str]) -> tuple[dict[str, tuple[float | None, ...]], ...]:
    """The closing's columns as the store holds them, by the example's names."""
    names = {player: name for name, player in ids.items()}
    with store.engine.connect() as connection:
        deals = connection.execute(
            select(DealPlayedRow.player_id, DealPlayedRow.number, DealPlayedRow.matchpoints)
        ).all()
        entries = connection.execute(
            select(EntryRow.player_id, EntryRow.percent, EntryRow.ranked, EntryRow.place)
        ).all()
    return (
        {f"{names[player]}-{number}": (points,) for player, number, points in deals},
        {names[player]: (percent, ranked, place) for player, percent, ranked, place in entries},
    )


def expected(worked: Worked) -> tuple[dict[str, tuple[float | None, ...]], ...]:
    """The example's answers, as the store's columns keep them."""
    deals = {
        f"{name}-{number}": (25.0 if margin is None else float(worked.percents[number][name]),)
        for name, margins in worked.played.items()
        for number, margin in margins.items()
    }
    entries = {
        name: (float(worked.scores[name]), name in worked.keyed, worked.places[name])
        for name in worked.played
    }
    return deals, entries


# -- Closing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("worked", [CLUB, ALONE], ids=["club", "alone"])
def test_closing_scores_the_worked_examples(url: str, worked: Worked) -> None:
    store = GameStore(url)
    ids = fill(store, worked)
    assert close(store, TOURNAMENT, now=AFTER)
    assert rows(store, ids) == expected(worked)


def test_a_tournament_closes_once_and_only_when_due() -> None:
    store = GameStore("sqlite://")
    ids = fill(store, CLUB)
    before = rows(store, ids)
    assert not close(store, TOURNAMENT, now=CLOSES - timedelta(seconds=1))
    assert not close(store, "weekly-coinche-20261130", now=AFTER)
    assert rows(store, ids) == before  # nothing written
    assert ranking(store, TOURNAMENT, page=1).total == 0
    assert place_of(store, TOURNAMENT, ids["ana"]) is None
    assert best_results(store, TOURNAMENT, 1) == []
    assert close(store, TOURNAMENT, now=CLOSES)
    closed = rows(store, ids)
    # A passkey added after closing, a second closing: nothing changes.
    store.passkeys.add("late", ids["gus"], b"public key", 0)
    assert not close(store, TOURNAMENT, now=AFTER + timedelta(days=1))
    assert rows(store, ids) == closed == expected(CLUB)
    with store.engine.connect() as connection:
        assert connection.scalar(select(TournamentRow.closed_at)) is not None


def test_two_processes_closing_at_once_close_once(url: str) -> None:
    ids = fill(GameStore(url), CLUB)
    stores = [GameStore(url), GameStore(url)]
    writes: list[str] = []

    def written(*call: object) -> None:
        if "UPDATE tournament_entries" in str(call[2]):
            writes.append(str(call[2]))

    for store in stores:
        event.listen(store.engine, "before_cursor_execute", written)
    start = threading.Barrier(2)

    def slow(field: ClosingField) -> Ranked:
        time.sleep(0.2)  # the other process reads and scores meanwhile
        return standings.scored(field)

    answers: list[bool] = []

    def closing(store: GameStore) -> None:
        start.wait()
        answers.append(store.standings.close(TOURNAMENT, now=AFTER, rank=slow))

    threads = [threading.Thread(target=closing, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [False, True]
    assert len(writes) == 1  # one of them wrote the standings
    assert rows(stores[0], ids) == expected(CLUB)


def late_result(store: GameStore, player_id: str, number: int, margin: int) -> None:
    """A deal of the tournament ends now (after its window: a table finishing late)."""
    with store.engine.begin() as connection:
        connection.execute(
            insert(DealPlayedRow),
            {
                "tournament_id": TOURNAMENT,
                "number": number,
                "player_id": player_id,
                "game_id": f"late-{number}",
                "started_at": OPENS,
                "finished_at": CLOSES,
                "margin": margin,
                "contract": "pass",
            },
        )


def test_a_result_that_lands_while_closing_scores_is_counted(url: str) -> None:
    store = GameStore(url)
    ids = fill(store, CLUB)
    fields: list[ClosingField] = []

    def late(field: ClosingField) -> Ranked:
        if not fields:  # Eve's deal 1 ends while the field is scored: it is read again
            late_result(store, ids["eve"], 1, 0)
        fields.append(field)
        return standings.scored(field)

    assert store.standings.close(TOURNAMENT, now=AFTER, rank=late)
    assert len(fields) == 2 and len(fields[1].results) == len(fields[0].results) + 1
    # Deal 1 now has six results: Eve's 0 beats Dan's −50 alone, 1 of 5 = 20 %.
    assert rows(store, ids)[0]["eve-1"] == (20.0,)
    entries = {e.player_id: e.percent for e in standings.scored(fields[1]).entries}
    assert rows(store, ids)[1]["eve"][0] == entries[ids["eve"]] == (20 + 25 + 25) / 3


def test_results_that_keep_landing_are_scored_under_the_lock(url: str) -> None:
    store = GameStore(url)
    ids = fill(store, CLUB)
    fields: list[ClosingField] = []

    def late(field: ClosingField) -> Ranked:
        if len(fields) < OPTIMISTIC_TRIES:  # a result lands at each of the tries outside
            late_result(store, ids["eve"], len(fields) + 1, 10 * len(fields))
        fields.append(field)
        return standings.scored(field)

    assert store.standings.close(TOURNAMENT, now=AFTER, rank=late)
    # The last try read the field in its writing transaction: every late result is in it.
    assert [len(field.results) for field in fields] == [11, 12, 13, 14]
    entries = {e.player_id: e.percent for e in standings.scored(fields[-1]).entries}
    assert {player: row[0] for player, row in rows(store, ids)[1].items()} == {
        name: entries[ids[name]] for name in ids
    }


# -- Reading ---------------------------------------------------------------------------------


def many(store: GameStore, ranked: int, guests: int) -> list[str]:
    """A tournament of one deal: ``ranked`` players with a passkey, player ``i`` with a
    margin of ``i // 2`` (pairs tie), and ``guests`` without; its players' ids, ranked
    first, worst first."""
    players = [store.players.create(new_token()).id for _ in range(ranked + guests)]
    for player in players[:ranked]:
        keep_passkey(store, player)
    with store.engine.begin() as connection:
        connection.execute(
            insert(TournamentRow),
            {
                "id": TOURNAMENT,
                "kind": "daily",
                "preset": "coinche",
                "level": "club",
                "version": "club-1",
                "deals": 1,
                "opens_at": OPENS,
                "closes_at": CLOSES,
                "seeds": "[]",
                "commitments": "[]",
                "created_at": OPENS,
            },
        )
        connection.execute(
            insert(EntryRow),
            [{"tournament_id": TOURNAMENT, "player_id": p, "started_at": OPENS} for p in players],
        )
        connection.execute(
            insert(DealPlayedRow),
            [
                {
                    "tournament_id": TOURNAMENT,
                    "number": 1,
                    "player_id": player,
                    "game_id": f"game-{index}",
                    "started_at": OPENS,
                    "finished_at": OPENS,
                    "margin": index // 2 if index < ranked else -1,
                    "score_us": 0,
                    "score_them": 0,
                    "contract": "pass",
                }
                for index, player in enumerate(players)
            ],
        )
    return players


def test_the_ranking_by_pages_and_a_players_own_place(url: str) -> None:
    store = GameStore(url)
    players = many(store, ranked=120, guests=3)
    assert close(store, TOURNAMENT, now=AFTER)
    first, last = ranking(store, TOURNAMENT, page=1), ranking(store, TOURNAMENT, page=3)
    assert (first.total, first.pages, len(first.lines), len(last.lines)) == (120, 3, 50, 20)
    assert ranking(store, TOURNAMENT, page=4).lines == ()
    # Pairs tie: places 1, 1, 3, 3, … 119, 119, each line one deal played.
    assert [line.place for line in first.lines[:4]] == [1, 1, 3, 3]
    assert {line.player_id for line in first.lines[:2]} == set(players[118:120])
    assert last.lines[-1].place == 119 and last.lines[-1].player_id in players[:2]
    assert {line.played for line in first.lines} == {1}
    everyone = [line for page in (1, 2, 3) for line in ranking(store, TOURNAMENT, page=page).lines]
    assert sorted(line.player_id for line in everyone) == sorted(players[:120])
    # Each player's place is found on its page, whatever the page's size.
    for size in (50, 7):
        for index in (0, 1, 57, 118, 119):
            placing = place_of(store, TOURNAMENT, players[index], size=size)
            assert placing is not None and placing.place == 119 - 2 * (index // 2)
            assert placing.page is not None
            shown = ranking(store, TOURNAMENT, page=placing.page, size=size).lines
            assert players[index] in [line.player_id for line in shown]
    # A guest keeps a score, shown to themselves, without a place; a stranger has none.
    # (the three guests tie at the bottom: ½ + ½ of 122)
    assert place_of(store, TOURNAMENT, players[-1]) == Placing(
        100 / 122, ranked=False, place=None, page=None
    )
    assert place_of(store, TOURNAMENT, store.players.create(new_token()).id) is None


def test_the_names_in_the_ranking_are_those_others_see() -> None:
    store = GameStore("sqlite://")
    ids = fill(store, CLUB)
    store.safety.report(ids["ana"], ids["bob"], "Bob")  # reported: hidden from the others
    assert close(store, TOURNAMENT, now=AFTER)
    names = {line.player_id: line.name for line in ranking(store, TOURNAMENT, page=1).lines}
    assert (names[ids["ana"]], names[ids["bob"]]) == ("Ana", None)
    assert ids["gus"] not in names


def test_a_deals_field_against_the_par(url: str) -> None:
    store = GameStore(url)
    fill(store, CLUB)
    contracts = (
        ContractCount("S 80 S", 2),
        ContractCount("W 80 H", 2),
        ContractCount("S 100 S", 1),
    )
    before = deal_field(store, TOURNAMENT, 1)
    assert before.results == 5 and before.contracts == contracts
    assert before.par == Par(30, "S 80 S")
    assert [margin.percent for margin in before.margins] == [None, None, None]
    assert close(store, TOURNAMENT, now=AFTER)
    assert deal_field(store, TOURNAMENT, 1).margins == (
        MarginCount(100, 1, 100.0, 70),
        MarginCount(20, 3, 50.0, -10),
        MarginCount(-50, 1, 0.0, -80),
    )
    # Deal 3: Bob's unfinished deal is not a result.
    third = deal_field(store, TOURNAMENT, 3)
    assert (third.results, [m.margin for m in third.margins]) == (2, [40, -10])
    assert deal_field(store, TOURNAMENT, 9).results == 0


def test_the_best_results_are_the_ranked_players(url: str) -> None:
    store = GameStore(url)
    fill(store, CLUB)
    assert close(store, TOURNAMENT, now=AFTER)
    # Gus (a guest) tied Bob and Cleo on deal 1: his table stays his.
    assert best_results(store, TOURNAMENT, 1) == ["ana-1", "bob-1", "cleo-1"]
    assert best_results(store, TOURNAMENT, 1, limit=9) == ["ana-1", "bob-1", "cleo-1", "dan-1"]
    assert best_results(store, TOURNAMENT, 3) == ["ana-3", "dan-3"]


def test_the_worked_example_holds_for_the_pure_scoring_too() -> None:
    # The store's closing and the pure module answer the same: one arithmetic.
    field = ClosingField(
        CLUB.deals,
        tuple(
            (name, number, margin)
            for name, margins in CLUB.played.items()
            for number, margin in margins.items()
            if margin is not None
        ),
        tuple(CLUB.played),
        CLUB.keyed,
    )
    ranked = standings.scored(field)
    assert {e.player_id: (e.percent, e.ranked, e.place) for e in ranked.entries} == expected(CLUB)[
        1
    ]
