"""The tournaments' schedule (docs/tournaments.md, "The schedule"): the windows of the daily,
short and weekly tournaments, each made once ahead of its window with its commitments, and
the scheduler of the site's own loop opening and closing them on time — after a restart too:
a new site on the same database closes the one that fell due while none ran."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.belote import seed_hash
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.store.db import GameStore, new_token
from cardavia.tournaments.closing import close_due
from cardavia.tournaments.schedule import (
    AHEAD,
    DAILY_DEALS,
    MAIN_PRESETS,
    SHORT_DEALS,
    SHORT_HOURS,
    Planned,
    daily,
    planned,
    short,
    weekly,
)
from cardavia.tournaments.service import Tournaments
from cardavia.web.app import create_app

WEDNESDAY = datetime(2026, 12, 2, 9, 30, tzinfo=UTC)


def test_a_daily_tournament_per_main_preset_from_midnight_to_midnight() -> None:
    plans = daily(WEDNESDAY)
    assert [plan.id for plan in plans] == [f"daily-{p}-20261202" for p in MAIN_PRESETS]
    for plan in plans:
        assert plan.deals == DAILY_DEALS == 12
        assert plan.opens_at == datetime(2026, 12, 2, tzinfo=UTC)
        assert plan.closes_at == datetime(2026, 12, 3, tzinfo=UTC)


def test_a_short_tournament_every_few_hours_its_preset_in_turn() -> None:
    found = [short(WEDNESDAY + timedelta(hours=hours)) for hours in range(0, 24, SHORT_HOURS)]
    assert [plan.opens_at.hour for plan in found] == [8, 12, 16, 20, 0, 4]
    assert all(plan.closes_at - plan.opens_at == timedelta(hours=SHORT_HOURS) for plan in found)
    assert all(plan.deals == SHORT_DEALS == 6 for plan in found)
    assert {plan.preset for plan in found} == set(MAIN_PRESETS)
    assert found[0].preset != found[1].preset
    assert len({plan.id for plan in found}) == len(found)
    assert short(WEDNESDAY + timedelta(minutes=29)).id == found[0].id  # 9:59: the same window


def test_a_weekly_tournament_from_monday_to_monday() -> None:
    plan = weekly(WEDNESDAY)
    assert plan.id == "weekly-coinche-2026w49"
    assert plan.opens_at == datetime(2026, 11, 30, tzinfo=UTC)
    assert plan.closes_at == datetime(2026, 12, 7, tzinfo=UTC)
    assert weekly(datetime(2026, 12, 6, 23, 59, tzinfo=UTC)) == plan
    assert weekly(datetime(2026, 12, 7, tzinfo=UTC)).id == "weekly-coinche-2026w50"


def test_the_next_ones_are_planned_ahead_of_their_window() -> None:
    late = datetime(2026, 12, 2, 23, 30, tzinfo=UTC)
    ids = {plan.id for plan in planned(late)}
    assert {"daily-cardavia-20261202", "daily-cardavia-20261203"} <= ids
    assert "short-cardavia-20261203-00" in ids or "short-coinche-20261203-00" in ids
    early = datetime(2026, 12, 2, 21, 0, tzinfo=UTC)
    assert not any(plan.id.endswith("20261203") for plan in planned(early))
    assert all(plan.closes_at > late for plan in planned(late))
    assert late + AHEAD > datetime(2026, 12, 3, tzinfo=UTC)


def test_each_is_made_once_with_commitments_of_fresh_seeds(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'c.db'}")
    one, two = Tournaments(store), Tournaments(store)  # two processes
    made = one.make_upcoming(WEDNESDAY)
    assert sorted(made) == sorted(plan.id for plan in planned(WEDNESDAY))
    assert two.make_upcoming(WEDNESDAY) == []
    first = one.get("daily-coinche-20261202")
    assert first is not None and first.level == "expert" and first.deals == 12
    assert [seed_hash(bytes.fromhex(seed)) for seed in first.secret] == list(first.commitments)
    assert len(set(first.secret)) == 12
    other = one.get("daily-cardavia-20261202")
    assert other is not None and not set(other.secret) & set(first.secret)
    stored = store.tournaments.load(first.id)
    assert stored is not None and json.loads(stored.commitments) == list(first.commitments)
    store.close()


def test_open_and_closed_on_time(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'c.db'}")
    opens = datetime(2026, 12, 2, 8, tzinfo=UTC)
    plan = Planned(
        "short-coinche-20261202-08", "short", "coinche", 6, opens, opens + timedelta(hours=4)
    )
    at = {"now": opens - timedelta(minutes=30)}
    service = Tournaments(store, clock=lambda: at["now"])
    assert service.make(plan)
    assert service.open_now() == []  # made ahead: not open yet
    at["now"] = opens
    assert [t.id for t in service.open_now()] == [plan.id]
    assert close_due(store, now=plan.closes_at - timedelta(seconds=1)) == []
    at["now"] = plan.closes_at
    assert service.open_now() == []
    assert close_due(store, now=plan.closes_at) == [plan.id]
    assert close_due(store, now=plan.closes_at) == []  # once
    closed = service.get(plan.id)
    assert closed is not None and closed.closed and closed.seeds == closed.secret
    store.close()


def _site(database: str) -> FastAPI:
    return create_app(
        Settings(
            database_url=database,
            ai_delay=(0.0, 0.0),
            allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
        )
    )


def _wait(check: object, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow  # a tournament closed by a new site
def test_a_new_site_on_the_same_database_closes_the_one_due(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'cardavia.db'}"
    first = _site(database)
    with TestClient(first):
        service: Tournaments = first.state.tournaments
        now = datetime.now(UTC)
        # The scheduler makes the tournaments of the schedule as the site starts.
        assert _wait(lambda: all(service.get(plan.id) for plan in planned(now)))
        opens = now - timedelta(hours=2)
        plan = Planned(
            "short-coinche-test", "short", "coinche", 6, opens, now + timedelta(seconds=1)
        )
        assert service.make(plan)
        assert service.get(plan.id).is_open(datetime.now(UTC))  # type: ignore[union-attr]
    # The site stops; the tournament falls due while none runs.
    time.sleep(1.1)
    second = _site(database)
    with TestClient(second) as client:
        assert _wait(lambda: second.state.tournaments.get(plan.id).closed)
        page = client.get(f"/en/tournaments/{plan.id}")
        assert "tournament-seed" in page.text


def test_made_entered_played_and_closed_once_on_postgresql(empty_postgres: str) -> None:
    store = GameStore(empty_postgres)
    one, two = Tournaments(store, clock=lambda: WEDNESDAY), Tournaments(store)
    made = one.make_upcoming(WEDNESDAY)
    assert made and two.make_upcoming(WEDNESDAY) == []
    assert {t.id for t in one.open_now()} <= set(made)
    tournament, player = made[0], store.players.create(new_token())
    store.tournaments.enter(tournament, player.id, WEDNESDAY)
    store.tournaments.enter(tournament, player.id, WEDNESDAY)  # once
    game = store.create(rules="coinche", level="expert", lang="fr", token=new_token(), record="{}")
    first = store.tournaments.start_deal(tournament, 1, player.id, game.id, WEDNESDAY)
    again = store.tournaments.start_deal(tournament, 1, player.id, "another", WEDNESDAY)
    assert again.game_id == first.game_id == game.id  # one attempt per deal
    result = {"margin": 3, "score_us": 5, "score_them": 2, "contract": "pass", "moment": WEDNESDAY}
    assert store.tournaments.finish_deal(game.id, **result)
    assert not store.tournaments.finish_deal(game.id, **result)
    store.tournaments.key_seat(game.id, "ab" * 32)
    assert store.load(game.id).token_hash == "ab" * 32  # type: ignore[union-attr]
    store.tournaments.set_par(
        tournament, 1, margin=1, contract=None, game_id=None, moment=WEDNESDAY
    )
    store.tournaments.set_par(
        tournament, 1, margin=9, contract=None, game_id=None, moment=WEDNESDAY
    )
    assert store.tournaments.pars(tournament)[1].margin == 1  # the first kept stands
    later = WEDNESDAY + timedelta(days=8)
    assert tournament in close_due(store, now=later)
    assert close_due(store, now=later) == []
    assert store.tournaments.entries(tournament) == 1
    store.close()
