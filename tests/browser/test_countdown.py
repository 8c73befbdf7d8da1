"""The tournaments' countdowns go on by themselves (issue 37, item 1; static/js/countdown.js),
read under Playwright's clock so that no test waits for a minute to pass: on the home, in
French on a desktop and in Arabic on a phone, "Closes in 1 h 42 min" says less as the minutes
turn; a hidden page counts nothing and says the time again as soon as it is shown; a
tournament's page counts too. axe-core at zero, screenshots kept. That the table waiting for
its player keeps no timer, the home's countdown hidden with it, test_accessibility.py checks."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.conftest import axe_violations, shot

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
MINUTES = 3 * 60_000

SEEN = """(state) => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""The page told it is hidden or shown, as the browser tells it when its tab is left."""


def said(page: Page, selector: str) -> str:
    return (page.locator(selector).first.text_content() or "").strip()


@pytest.mark.parametrize(("lang", "viewport"), [("fr", DESKTOP), ("ar", PHONE)])
def test_the_homes_countdown_goes_on_while_it_is_seen(
    browser: Browser, server: Server, screenshots: Path, lang: str, viewport: dict[str, int]
) -> None:
    context = browser.new_context(bypass_csp=True, viewport=viewport, reduced_motion="reduce")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.clock.install()
        page.goto(f"{server.url}/{lang}/")
        countdown = "#home-tournaments time.countdown"
        expect(page.locator(countdown).first).to_be_visible()
        first = said(page, countdown)
        page.clock.run_for(MINUTES)
        later = said(page, countdown)
        assert later and later != first, (first, later)
        # Hidden, it counts nothing; shown again, it says the time at once.
        page.evaluate(SEEN, "hidden")
        page.clock.run_for(MINUTES)
        assert said(page, countdown) == later
        page.evaluate(SEEN, "visible")
        assert said(page, countdown) not in (first, later)
        assert axe_violations(page) == []
        size = "phone" if viewport is PHONE else "desktop"
        page.locator("#home-tournaments").scroll_into_view_if_needed()
        shot(page, screenshots / f"home-countdown-{lang}-{size}.jpg")
        # A tournament's own page goes on too (a page of its own, its clock installed before
        # it loads, as the home's was).
        link = page.locator("#home-tournaments [data-tournament] a").first.get_attribute("href")
        assert link
        tournament = context.new_page()
        tournament.on("pageerror", lambda error: errors.append(str(error)))
        tournament.clock.install()
        tournament.goto(f"{server.url}{link}", wait_until="load")
        countdown = ".tournament-countdown time.countdown"
        expect(tournament.locator(countdown).first).to_be_visible()
        first = said(tournament, countdown)
        tournament.clock.run_for(MINUTES)
        assert said(tournament, countdown) != first
        assert errors == []
    finally:
        context.close()
