"""My statistics in Chromium (docs/players.md, "My statistics"): a player with a few dozen
deals at classic tables and at coinche, and a rating's history, reads their figures, the
contracts' bars and the rating's curve; in French and Arabic (right to left: the bars fill
from the right, time runs right to left), on a phone and a desktop, with zero axe-core
violations. The deals are written through the store, as the engine played them."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.conftest import axe_violations, shot
from tests.players.test_statistics import played_match, saved

from cardavia.store.db import GameStore
from cardavia.store.ratings import RatingChange

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("CARDAVIA_STATISTICS_SHOTS", "/tmp/shots-statistics"))


def picture(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot(page, SHOTS / f"{name}.jpg", full_page=True)


def seed_deals(database: Path, token: str) -> dict[str, int]:
    """Games for the player of ``token``: 3 at classic tables and 2 at coinche, 36 deals in
    all, and 8 rated coinche deals; answers the deals played (a contract taken) by family."""
    store = GameStore(f"sqlite:///{database}")
    try:
        player = store.players.find(token)
        assert player is not None
        rng = random.Random(40)
        played = {"classic": 0, "coinche": 0}
        for rules, family, seat in (
            ("cardavia", "classic", "S"),
            ("maison", "classic", "W"),
            ("cardavia", "classic", "N"),
            ("coinche", "coinche", "S"),
            ("coinche", "coinche", "E"),
        ):
            match = played_match(rules, 8 if family == "classic" else 6, rng)
            saved(store, player.id, match, rules=rules, seat=seat)
            played[family] += sum(deal.result is not None for deal in match.deals)
        for deal, mu in enumerate((25.0, 25.8, 26.9, 26.1, 27.4, 28.0, 27.2, 28.6), start=1):
            assert store.ratings.record(
                [RatingChange(player.id, mu, 6.0)],
                family="coinche",
                room_code="RATED",
                game_id="coinche-rated",
                deal=deal,
            )
        return played
    finally:
        store.close()


def test_a_players_statistics_in_french_and_arabic(browser: Browser, server: Any) -> None:
    context = browser.new_context(bypass_csp=True, reduced_motion="reduce", viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/fr/me/statistics")
    expect(page.locator("#statistics-none")).to_be_visible()
    page.evaluate(
        """() => fetch('/api/me', {method: 'PUT', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Zoé'})})"""
    )
    (cookie,) = [c for c in context.cookies() if c["name"] == "cardavia_player"]
    played = seed_deals(server.database, cookie["value"])
    assert sum(played.values()) >= 24

    for lang in ("fr", "ar"):
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            # From the profile's link, then the period "all".
            page.goto(f"{server.url}/{lang}/me")
            page.locator("#profile-statistics").click()
            expect(page.locator("#statistics-title")).to_be_visible()
            page.locator(".statistics-periods a").nth(2).click()
            expect(page.locator(".statistics-periods a[aria-current=page]")).to_have_attribute(
                "href", f"/{lang}/me/statistics?period=all"
            )
            for family in ("classic", "coinche"):
                article = page.locator(f"#statistics-{family}")
                expect(article).to_be_visible()
                assert str(played[family]) in article.locator(".statistics-deals").inner_text()
                bars = article.locator(".statistics-bars svg[role=img]")
                expect(bars).to_be_visible()
                assert (bars.locator("title").text_content() or "").strip()
                part = article.locator(".statistics-bar-part").first
                x, width = (
                    float(part.get_attribute("x") or 0),
                    float(part.get_attribute("width") or 0),
                )
                # Filled from the page's start: the left, or the right in Arabic.
                assert x == 0 if lang == "fr" else x + width == 400
            coinche = page.locator("#statistics-coinche")
            curve = coinche.locator(".rating-chart svg[role=img]").last
            points = (curve.locator("polyline").get_attribute("points") or "").split()
            assert len(points) == 8
            xs = [float(point.split(",")[0]) for point in points]
            assert xs == (sorted(xs, reverse=True) if lang == "ar" else sorted(xs))
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            assert axe_violations(page) == [], (lang, size)
            picture(page, f"statistics-{lang}-{size}")
    assert not errors
    context.close()
