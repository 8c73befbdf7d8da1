"""The performance from tournament deals (docs/tournaments.md, "Performance") on worked
numbers: each deal's matchpoints adjusted by the field's performance before the tournament,
a player's performance the mean over a rolling window (its deals and its days), one change
per player and tournament written once, the families apart; and quick play's seating skill
blended with it. The rows are written directly: closing and ranking are the standings'."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from cardavia.players.matching import seating_skill
from cardavia.players.ratings import Family
from cardavia.players.waiting import waiting_player
from cardavia.store.db import GameStore, new_token
from cardavia.store.leagues import PerformanceChangeRow
from cardavia.store.tournaments import DealPlayedRow, EntryRow, TournamentRow
from cardavia.tournaments.leagues import week_of
from cardavia.tournaments.performance import (
    NEUTRAL,
    after_close,
    deal_performance,
    field_mean,
    presets_of,
)

START = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def store() -> Iterator[GameStore]:
    store = GameStore("sqlite://")
    yield store
    store.close()


def players(store: GameStore, count: int) -> list[str]:
    return [store.players.create(new_token()).id for _ in range(count)]


def closed_tournament(
    store: GameStore,
    ident: str,
    matchpoints: Mapping[str, list[float]],
    *,
    closes_at: datetime,
    preset: str = "cardavia",
    closed: bool = True,
) -> None:
    """A tournament ranked at ``closes_at``: each player's matchpoints deal by deal (their
    deals numbered from 1), as the standings leave them."""
    deals = max(len(points) for points in matchpoints.values())
    with Session(store.engine) as session, session.begin():
        session.execute(
            insert(TournamentRow),
            {
                "id": ident,
                "kind": "daily",
                "preset": preset,
                "level": "club",
                "version": "v1",
                "deals": deals,
                "opens_at": closes_at - timedelta(days=1),
                "closes_at": closes_at,
                "seeds": json.dumps([]),
                "commitments": json.dumps([]),
                "created_at": closes_at - timedelta(days=1),
                "closed_at": closes_at if closed else None,
            },
        )
        for player, points in matchpoints.items():
            session.execute(
                insert(EntryRow),
                {"tournament_id": ident, "player_id": player, "started_at": closes_at},
            )
            for number, mark in enumerate(points, start=1):
                session.execute(
                    insert(DealPlayedRow),
                    {
                        "tournament_id": ident,
                        "number": number,
                        "player_id": player,
                        "game_id": f"{ident}-{number}-{player[:6]}",
                        "started_at": closes_at,
                        "finished_at": closes_at,
                        "margin": 0,
                        "matchpoints": mark,
                    },
                )


def performances(store: GameStore, ident: str) -> dict[tuple[str, int], float | None]:
    with Session(store.engine) as session:
        rows = session.execute(
            select(DealPlayedRow.player_id, DealPlayedRow.number, DealPlayedRow.performance).where(
                DealPlayedRow.tournament_id == ident
            )
        )
        return {(player, number): value for player, number, value in rows}


def test_a_deal_is_its_matchpoints_adjusted_by_the_field() -> None:
    assert deal_performance(55.0, NEUTRAL) == 55.0
    assert deal_performance(55.0, 60.0) == 65.0
    assert deal_performance(45.0, 40.0) == 35.0
    # The field is the others: the player's own performance is left out.
    assert field_mean(75.0 + 25.0 + 50.0, 3, own=75.0) == 37.5
    assert field_mean(80.0, 1, own=80.0) == NEUTRAL
    assert presets_of("coinche") == ["coinche"]
    assert "coinche" not in presets_of("classic") and "cardavia" in presets_of("classic")


def test_two_tournaments_worked_by_hand(store: GameStore) -> None:
    a, b, c, d = players(store, 4)
    # First tournament, two deals, three newcomers: the field is neutral (50), each deal's
    # performance is its matchpoints. A: 100, 50 -> 75; B: 50, 0 -> 25; C: 0, 100 -> 50.
    closed_tournament(
        store, "t1", {a: [100.0, 50.0], b: [50.0, 0.0], c: [0.0, 100.0]}, closes_at=START
    )
    assert after_close(store, "t1", now=START) == 3
    assert performances(store, "t1") == {
        (a, 1): 100.0,
        (a, 2): 50.0,
        (b, 1): 50.0,
        (b, 2): 0.0,
        (c, 1): 0.0,
        (c, 2): 100.0,
    }
    assert store.leagues.performance(a, "classic").value == 75.0  # type: ignore[union-attr]
    assert store.leagues.performance(b, "classic").value == 25.0  # type: ignore[union-attr]

    # Second tournament, one deal: A 50 %, B 100 %, D (new) 0 %.
    # A's field: B 25 and D 50 -> 37.5, so 50 + 37.5 - 50 = 37.5.
    # B's field: A 75 and D 50 -> 62.5, so 100 + 12.5 = 112.5.
    # D's field: A 75 and B 25 -> 50, so 0.
    later = START + timedelta(days=1)
    closed_tournament(store, "t2", {a: [50.0], b: [100.0], d: [0.0]}, closes_at=later)
    assert after_close(store, "t2", now=later) == 3
    assert performances(store, "t2") == {(a, 1): 37.5, (b, 1): 112.5, (d, 1): 0.0}
    # The window: A (100 + 50 + 37.5) / 3, B (50 + 0 + 112.5) / 3, D 0 of one deal.
    a_now, b_now, d_now = (store.leagues.performance(p, "classic") for p in (a, b, d))
    assert a_now is not None and a_now.value == pytest.approx(62.5) and a_now.deals == 3
    assert b_now is not None and b_now.value == pytest.approx(162.5 / 3)
    assert d_now is not None and d_now.value == 0.0 and d_now.deals == 1
    # The history, one point per tournament, oldest first.
    history = store.leagues.performance_history(a, "classic")
    assert [(p.tournament_id, p.value) for p in history] == [("t1", 75.0), ("t2", 62.5)]
    # C did not play t2: their performance is unchanged, no new point.
    assert [p.tournament_id for p in store.leagues.performance_history(c)] == ["t1"]


def test_the_window_keeps_the_latest_deals(store: GameStore) -> None:
    a, b = players(store, 2)
    closed_tournament(store, "t1", {a: [100.0, 50.0], b: [0.0, 50.0]}, closes_at=START)
    after_close(store, "t1", now=START)
    later = START + timedelta(days=1)
    closed_tournament(store, "t2", {a: [50.0], b: [50.0]}, closes_at=later)
    # A window of two deals: before t2, A's performance is (100 + 50) / 2 = 75 (both deals);
    # once t2's deal is added only the latest deal of t1 stays (50): (50 + x) / 2.
    windows = store.leagues.past_windows(
        "t2", presets=presets_of("classic"), since=START - timedelta(days=1), window=2
    )
    assert windows[a].value == 75.0 and windows[a].count == 2
    assert (windows[a].kept_sum, windows[a].kept_count) == (50.0, 1)
    assert (windows[b].total, windows[b].kept_sum) == (50.0, 50.0)


def test_deals_older_than_the_window_no_longer_count(store: GameStore) -> None:
    a, b = players(store, 2)
    closed_tournament(store, "old", {a: [100.0], b: [0.0]}, closes_at=START)
    after_close(store, "old", now=START)
    much_later = START + timedelta(days=91)
    closed_tournament(store, "new", {a: [50.0], b: [50.0]}, closes_at=much_later)
    assert after_close(store, "new", now=much_later) == 2
    # The old deal is out of the 90 days: the field is neutral again and the window holds
    # the new deal alone.
    point = store.leagues.performance(a, "classic")
    assert point is not None and (point.value, point.deals) == (50.0, 1)


def test_written_once_and_only_once_ranked(store: GameStore) -> None:
    a, b = players(store, 2)
    closed_tournament(store, "t1", {a: [75.0], b: [25.0]}, closes_at=START, closed=False)
    # Not ranked yet: nothing to write.
    assert after_close(store, "t1", now=START) == 0
    assert store.leagues.performance(a, "classic") is None
    with Session(store.engine) as session, session.begin():
        session.execute(update(TournamentRow).values(closed_at=START))
    assert after_close(store, "t1", now=START) == 2
    # A second call (this process again, or another) writes nothing.
    assert after_close(store, "t1", now=START + timedelta(minutes=1)) == 0
    with Session(store.engine) as session:
        rows = session.scalars(select(PerformanceChangeRow.value)).all()
    assert sorted(rows) == [25.0, 75.0]
    assert after_close(store, "none", now=START) == 0


def test_the_families_are_apart(store: GameStore) -> None:
    a, b = players(store, 2)
    closed_tournament(store, "c1", {a: [80.0], b: [20.0]}, closes_at=START, preset="coinche")
    after_close(store, "c1", now=START)
    later = START + timedelta(days=1)
    closed_tournament(store, "k1", {a: [40.0], b: [60.0]}, closes_at=later)
    after_close(store, "k1", now=later)
    # The classic tournament's field is neutral: the coinche performance is another's.
    classic, coinche = (store.leagues.performance(a, family) for family in ("classic", "coinche"))
    assert classic is not None and classic.value == 40.0
    assert coinche is not None and coinche.value == 80.0


def test_quick_play_seats_by_the_rating_blended_with_the_performance() -> None:
    # No performance: the rating's mean (or the newcomer's 25), as before.
    assert seating_skill(27.0, 40, None, 0) == 27.0
    assert seating_skill(None, 0, None, 0) == 25.0
    # A newcomer after one 12-deal tournament at 60 %: 60 % is 25 + 10 * 0.4 = 29, weighed
    # 12 / (12 + 0 + 20): 0.625 * 25 + 0.375 * 29 = 26.5.
    assert seating_skill(None, 0, 60.0, 12) == pytest.approx(26.5)
    # 100 rated deals at 30 and 200 tournament deals at 40 % (21): 200 / 320 of the way.
    assert seating_skill(30.0, 100, 40.0, 200) == pytest.approx(30.0 - 9.0 * 200 / 320)


def test_the_quick_play_queue_reads_the_performance(store: GameStore) -> None:
    a, b = players(store, 2)
    closed_tournament(store, "t1", {a: [70.0]}, closes_at=START)
    assert after_close(store, "t1", now=START) == 1

    def seen(player: str, family: Family) -> float:
        """How the queue sees a person (the players' one call): their skill."""
        waiting = waiting_player(
            store, player, family=family, lang="fr", since=0.0, client=player, players=[player]
        )
        return waiting.skill

    # The performance of the preset's family counts (maison: classic; coinche: coinche).
    assert seen(a, "classic") == pytest.approx(seating_skill(None, 0, 70.0, 1))
    assert seen(a, "classic") > 25.0
    assert seen(a, "coinche") == 25.0
    assert seen(b, "classic") == 25.0


def test_exported_and_erased_with_the_player(store: GameStore) -> None:
    a, b = players(store, 2)
    closed_tournament(store, "t1", {a: [75.0], b: [25.0]}, closes_at=START)
    after_close(store, "t1", now=START)
    week = week_of(START)
    store.leagues.open_season(week)
    store.leagues.enrol(week.id, [(a, 5, 1), (b, 5, 1)])
    kept = store.leagues.kept_about(a)
    assert [(row["tournament"], row["value"]) for row in kept["performance_changes"]] == [
        ("t1", 75.0)
    ]
    assert [(row["season"], row["division"]) for row in kept["league_seasons"]] == [(week.id, 5)]
    store.players.erase(a)
    assert store.leagues.kept_about(a) == {"performance_changes": [], "league_seasons": []}
    assert store.leagues.performance(b, "classic") is not None
    assert [one.player_id for one in store.leagues.members(week.id)] == [b]
