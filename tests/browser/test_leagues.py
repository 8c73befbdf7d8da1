"""The leagues' page and the profile's performance in Chromium (docs/tournaments.md,
"Performance", "Leagues"): the player's group this week with their row marked, last week's
group with its movements, the hall of fame; the performance with its chart and its numbers;
in French and Arabic (right to left), on a phone and a desktop, by keyboard, with zero
axe-core violations. The tournaments' rows are written directly in the database: playing
and ranking them is the tournaments' own tests' business."""

from __future__ import annotations

import json
import os
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import insert
from sqlalchemy.orm import Session
from tests.browser.conftest import axe_violations, shot

from cardavia.store.db import GameStore, new_token
from cardavia.store.tournaments import DealPlayedRow, EntryRow, TournamentRow
from cardavia.tournaments.leagues import season_due, week_of
from cardavia.tournaments.performance import after_close

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("CARDAVIA_LEAGUE_SHOTS", "/tmp/shots-league"))


def tournament(
    store: GameStore, ident: str, closes_at: datetime, results: dict[str, list[float]]
) -> None:
    """A ranked tournament: each player's matchpoints deal by deal (their percent the mean).
    Its id is ``ident`` made unique: other tests of the same server seed leagues too."""
    ident = f"{ident}-{secrets.token_hex(3)}"
    with Session(store.engine) as session, session.begin():
        session.execute(
            insert(TournamentRow),
            {
                "id": ident,
                "kind": "short",
                "preset": "cardavia",
                "level": "club",
                "version": "v1",
                "deals": 2,
                "opens_at": closes_at - timedelta(hours=4),
                "closes_at": closes_at,
                "seeds": json.dumps([]),
                "commitments": json.dumps([]),
                "created_at": closes_at - timedelta(hours=4),
                "closed_at": closes_at,
            },
        )
        for player, marks in results.items():
            session.execute(
                insert(EntryRow),
                {
                    "tournament_id": ident,
                    "player_id": player,
                    "started_at": closes_at - timedelta(hours=1),
                    "ranked": True,
                    "percent": sum(marks) / len(marks),
                },
            )
            for number, mark in enumerate(marks, start=1):
                session.execute(
                    insert(DealPlayedRow),
                    {
                        "tournament_id": ident,
                        "number": number,
                        "player_id": player,
                        "game_id": f"{ident}{number}{player[:8]}",
                        "started_at": closes_at - timedelta(hours=1),
                        "finished_at": closes_at - timedelta(minutes=30),
                        "margin": 0,
                        "matchpoints": mark,
                    },
                )
    after_close(store, ident, now=closes_at)


def seed(database: Path, token: str) -> None:
    """Last week: the player and four others in division 5 (the player first: up), three in
    division 4 (Nadia stays there), two in division 1 (Alice wins it: the hall of fame); this
    week: the player and Nadia in division 4, Nadia ahead; three tournaments of the player's
    performance."""
    store = GameStore(f"sqlite:///{database}")
    try:
        me = store.players.find(token)
        assert me is not None
        others = {}
        for name in ("Karim", "Ola", "Priya", "Lucía", "Alice", "Bartek", "Marc", "Nadia", "Omar"):
            player = store.players.create(new_token())
            store.players.update(player.id, {"name": name})
            others[name] = player.id
        now = datetime.now(UTC)
        this_week, last_week = week_of(now), week_of(now - timedelta(days=7))
        if store.leagues.season(last_week.id) is None:
            store.leagues.open_season(last_week)
        low = [me.id, others["Karim"], others["Ola"], others["Priya"], others["Lucía"]]
        store.leagues.enrol(last_week.id, [(player, 5, 1) for player in low])
        store.leagues.enrol(last_week.id, [(others["Alice"], 1, 1), (others["Bartek"], 1, 1)])
        middle = [others["Marc"], others["Nadia"], others["Omar"]]
        store.leagues.enrol(last_week.id, [(player, 4, 1) for player in middle])
        before = last_week.starts_at + timedelta(days=2)
        tournament(
            store,
            f"league-a-{before:%Y%m%d}",
            before,
            {
                me.id: [80.0, 70.0],
                others["Karim"]: [50.0, 60.0],
                others["Ola"]: [40.0, 45.0],
                others["Priya"]: [30.0, 35.0],
                others["Alice"]: [90.0, 85.0],
                others["Bartek"]: [20.0, 25.0],
                others["Marc"]: [60.0, 60.0],
                others["Nadia"]: [50.0, 50.0],
                others["Omar"]: [40.0, 40.0],
            },
        )
        tournament(
            store,
            f"league-b-{before:%Y%m%d}",
            before + timedelta(hours=5),
            {me.id: [55.0, 45.0], others["Karim"]: [65.0, 35.0], others["Alice"]: [60.0, 70.0]},
        )
        season_due(store, now=max(now, this_week.starts_at + timedelta(seconds=1)))
        moment = max(this_week.starts_at + timedelta(minutes=5), now - timedelta(minutes=5))
        tournament(
            store,
            f"league-c-{moment:%Y%m%d}",
            moment,
            {me.id: [62.5, 50.0], others["Nadia"]: [70.0, 80.0], others["Ola"]: [30.0, 20.0]},
        )
        season_due(store, now=now)
    finally:
        store.close()


def look(page: Page, name: str, viewport: dict[str, int]) -> None:
    """The page is kept as a picture, fits its width and has no axe-core violation."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot(page, str(SHOTS / f"{name}.jpg"), full_page=True)
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
            .map((e) => e.tagName + '.' + e.className).slice(0, 8)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], wide
    assert axe_violations(page) == [], name


def test_the_leagues_and_the_performance(browser: Browser, server: Any) -> None:
    context = browser.new_context(bypass_csp=True, reduced_motion="reduce", viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/fr/leagues")
    expect(page.locator("#league-none")).to_be_visible()
    page.evaluate(
        """() => fetch('/api/me', {method: 'PUT', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Zoé'})})"""
    )
    page.goto(f"{server.url}/fr/me")
    expect(page.locator("#performance-none")).to_be_visible()
    (cookie,) = [c for c in context.cookies() if c["name"] == "cardavia_player"]
    seed(server.database, cookie["value"])

    for lang in ("fr", "ar"):
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto(f"{server.url}/{lang}/leagues")
            # This week: division 4 (up from 5), the player second behind Nadia: if the week
            # ended now, Nadia would go up and the player down.
            now = page.locator("#league-now")
            expect(now).to_be_visible()
            mine = now.locator("tr[aria-current=true]")
            expect(mine).to_have_count(1)
            expect(mine.locator(".league-name")).to_have_text("Zoé")
            assert mine.locator("td").first.inner_text() == "2"
            assert "4" in page.locator("#league-now-title").inner_text()
            expect(now.locator("tr").nth(1)).to_contain_text("Nadia")
            expect(mine.locator(".league-move-down")).to_have_count(1)
            # Last week: first of division 5's group, up a division; the inactive is out.
            last = page.locator("#league-last")
            expect(last.locator("tr[aria-current=true] .league-move-up")).to_have_count(1)
            expect(last.locator("tr[data-movement=out]")).to_have_count(1)
            # The hall of fame: Alice.
            expect(page.locator("#league-fame")).to_contain_text("Alice")
            # The menu reaches the page by keyboard (on a phone, once its button opened it).
            link = page.locator(".site-nav a[aria-current=page]")
            expect(link).to_have_attribute("href", f"/{lang}/leagues")
            if size == "phone":
                page.click(".menu-button")
            link.focus()
            expect(link).to_be_focused()
            look(page, f"leagues-{lang}-{size}", viewport)

            page.goto(f"{server.url}/{lang}/me")
            classic = page.locator("#performance-classic")
            expect(classic).to_be_visible()
            value = classic.locator(".rating-number").inner_text()
            assert value.replace(",", ".").replace("٫", ".")[:2].isdigit()
            chart = classic.locator("svg[role=img]")
            expect(chart).to_be_visible()
            assert (chart.locator("title").text_content() or "").strip()
            points = (chart.locator("polyline").get_attribute("points") or "").split()
            assert len(points) == 3
            xs = [float(point.split(",")[0]) for point in points]
            assert xs == (sorted(xs, reverse=True) if lang == "ar" else sorted(xs))
            summary = classic.locator(".rating-numbers summary")
            summary.focus()
            page.keyboard.press("Enter")
            expect(classic.locator(".rating-numbers tbody tr")).to_have_count(3)
            assert (
                classic.locator(".rating-numbers tbody tr").first.locator("td").nth(1).inner_text()
                == value
            )
            look(page, f"performance-{lang}-{size}", viewport)
    assert not errors
    context.close()
