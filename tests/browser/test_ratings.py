"""The ratings on the profile in Chromium (docs/players.md, "Ratings"): each family's display
number, "provisional" while it is, the history as a chart (an image with its title and
description) and as a table of numbers; in French and Arabic (right to left: time runs
right to left), on a phone and a desktop, with zero axe-core violations. The ratings are
seeded through the store: the deals that make them are the room tests' business."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.conftest import axe_violations, shot

from cardavia.players.ratings import NEWCOMER, PROVISIONAL_DEALS, Family, rate_deal
from cardavia.store.db import GameStore
from cardavia.store.ratings import RatingChange

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("CARDAVIA_RATING_SHOTS", "/tmp/shots-rate"))


def picture(page: Page, name: str) -> None:
    """Keep a picture of the page for a person to look at (full page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot(page, SHOTS / f"{name}.jpg", full_page=True)


def seed_ratings(database: Path, token: str) -> str:
    """Rate deals for the player of ``token`` (South, beside computer players), written
    through the store: 14 at classic tables (no longer provisional), 3 at coinche
    (provisional); answers the player's id."""
    store = GameStore(f"sqlite:///{database}")
    try:
        player = store.players.find(token)
        assert player is not None
        rng = random.Random(5)
        games: list[tuple[Family, str, list[tuple[int, int]]]] = [
            (
                "classic",
                "club",
                [(ours, 162 - ours) for ours in rng.choices([0, 40, 90, 120, 162], k=14)],
            ),
            ("coinche", "strong", [(180, 60)] * 3),
        ]
        for family, level, deals in games:
            skill = NEWCOMER
            for number, scores in enumerate(deals, start=1):
                table = (NEWCOMER, NEWCOMER, skill, NEWCOMER)
                skill = rate_deal(table, family, scores=scores, people=(2,), level=level)[2]
                change = RatingChange(player.id, skill.mu, skill.sigma)
                assert store.ratings.record(
                    [change], family=family, room_code="RATED", game_id=family, deal=number
                )
        return str(player.id)
    finally:
        store.close()


def test_the_profile_shows_the_ratings_and_their_chart(browser: Browser, server: Any) -> None:
    context = browser.new_context(bypass_csp=True, reduced_motion="reduce", viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/fr/me")
    # A new player: no rating yet.
    page.evaluate(
        """() => fetch('/api/me', {method: 'PUT', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Zoé'})})"""
    )
    page.reload()
    expect(page.locator("#profile-player")).to_be_visible()
    expect(page.locator("#ratings-none")).to_be_visible()
    (cookie,) = [c for c in context.cookies() if c["name"] == "cardavia_player"]
    seed_ratings(server.database, cookie["value"])

    for lang in ("fr", "ar"):
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto(f"{server.url}/{lang}/me")
            expect(page.locator("#profile-player")).to_be_visible()
            classic, coinche = page.locator("#rating-classic"), page.locator("#rating-coinche")
            expect(classic).to_be_visible()
            expect(coinche).to_be_visible()
            assert page.locator("#ratings-none").count() == 0
            number = classic.locator(".rating-number").inner_text()
            assert number.isdigit() and 1000 < int(number) < 2000
            expect(classic.locator(".rating-provisional")).to_have_count(0)
            expect(coinche.locator(".rating-provisional")).to_be_visible()
            assert int(coinche.locator(".rating-number").inner_text()) > 1500
            # The chart: an image named and described, its line through every rated deal.
            chart = classic.locator("svg[role=img]")
            expect(chart).to_be_visible()
            assert (chart.locator("title").text_content() or "").strip()
            assert number in (chart.locator("desc").text_content() or "")
            points = chart.locator("polyline").get_attribute("points").split()
            assert len(points) == 14
            xs = [float(point.split(",")[0]) for point in points]
            assert xs == (sorted(xs, reverse=True) if lang == "ar" else sorted(xs))
            box = chart.bounding_box()
            assert box is not None and box["width"] <= viewport["width"]
            # The same numbers as a table, the latest first.
            classic.locator(".rating-numbers summary").click()
            rows = classic.locator(".rating-numbers tbody tr")
            expect(rows).to_have_count(14)
            assert rows.first.locator("td").nth(2).inner_text() == number
            assert rows.first.locator("td").first.inner_text() == "14"
            coinche_rows = coinche.locator(".rating-numbers tbody tr")
            expect(coinche_rows).to_have_count(3)
            assert PROVISIONAL_DEALS > 3
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            assert axe_violations(page) == [], (lang, size)
            picture(page, f"profile-ratings-{lang}-{size}")
    assert not errors
    context.close()
