"""The pages with dates and times in Chromium, in Arabic, Hindi and Polish (issue 38): the
tournaments list, an open tournament with its countdown, a closed tournament's deal compared
with the field, the profile with ratings and a performance, My games and the leagues, each
kept as a picture in artefacts/screenshots/ (times-<page>-<lang>.jpg) for a person to read.
The browser's own zone (Kolkata, Warsaw, Algiers) reaches the server through zone.js's
cookie: every time on the page is on that clock, none an ISO date, "UTC" nowhere."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.conftest import shot
from tests.browser.test_leagues import seed
from tests.browser.test_ratings import seed_ratings

from cardavia.store.db import GameStore
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments
from cardavia.words.times import zone_named

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
ZONES = {"ar": "Africa/Algiers", "hi": "Asia/Kolkata", "pl": "Europe/Warsaw"}
ALIASES = {"Asia/Kolkata": "Asia/Calcutta"}
OPEN = "short-cardavia-shots"
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def open_tournament(database: Path) -> str:
    """A short tournament closing in 1 h 42 min; answers the id of a closed one of the
    player's."""
    store = GameStore(f"sqlite:///{database}")
    try:
        closes = datetime.now(UTC) + timedelta(hours=1, minutes=42, seconds=30)
        plan = Planned(OPEN, "short", "cardavia", 3, closes - timedelta(hours=3), closes)
        Tournaments(store, level="beginner").make(plan)
        closed = [t for t in Tournaments(store).closed_lately() if t.id.startswith("league")]
        return closed[0].id
    finally:
        store.close()


def test_the_pages_with_times_in_arabic_hindi_and_polish(
    browser: Browser, server: Any, screenshots: Path
) -> None:
    first = browser.new_context(bypass_csp=True, reduced_motion="reduce", viewport=DESKTOP)
    page = first.new_page()
    page.goto(f"{server.url}/pl/me")
    page.evaluate(
        """() => fetch('/api/me', {method: 'PUT', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Zoé'})})"""
    )
    (cookie,) = [c for c in first.cookies() if c["name"] == "cardavia_player"]
    seed(server.database, cookie["value"])
    seed_ratings(server.database, cookie["value"])
    closed = open_tournament(server.database)
    first.close()
    pages = {
        "tournaments": "tournaments",
        "tournament": f"tournaments/{OPEN}",
        "deal": f"tournaments/{closed}/deals/1",
        "profile": "me",
        "games": "me/games",
        "leagues": "leagues",
    }
    errors: list[str] = []
    for lang, zone in ZONES.items():
        context = browser.new_context(
            bypass_csp=True, reduced_motion="reduce", viewport=DESKTOP, timezone_id=zone
        )
        context.add_cookies([{**cookie, "sameSite": "Lax"}])
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/{lang}/")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        # The browser's name for the zone (Chromium says Asia/Calcutta, the tz database's
        # older name for Kolkata, which it still holds).
        sent = {c["name"]: c["value"] for c in context.cookies()}["cardavia_tz"]
        assert sent in (zone, ALIASES.get(zone)) and zone_named(sent) is not None
        for name, path in pages.items():
            page.goto(f"{server.url}/{lang}/{path}")
            page.wait_for_load_state("networkidle")
            text = page.locator("body").inner_text()
            assert ISO_DATE.findall(text) == [], (lang, name)
            assert "UTC" not in text, (lang, name)
            shot(page, screenshots / f"times-{name}-{lang}.jpg", full_page=True)
        assert errors == [], lang
        context.close()
