"""The home (issue 37, item 1) as a returning visitor finds it, in French on a desktop
(1280 × 800) and in Arabic on a phone (360 × 740): after a finished deal, never its old
result but the home — "Play now" per preset with what it commits to and the tournaments
open now, both on the first screen of a desktop — and the table's coinche bidding box wholly
on the screen at both sizes (finding M11); axe-core at zero, screenshots kept."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from tests.browser.conftest import READY, axe_violations, shot

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
CASES = [("fr", DESKTOP), ("ar", PHONE)]


def on_first_screen(page: Page, locator: Locator) -> bool:
    """Whether the element lies wholly inside the viewport, the page not scrolled."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return (
        box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


def size_name(viewport: dict[str, int]) -> str:
    return "phone" if viewport is PHONE else "desktop"


@pytest.mark.parametrize(("lang", "viewport"), CASES)
def test_a_returning_visitor_finds_the_home_not_the_old_result(
    browser: Browser,
    server: Server,
    make_table: type[Table],
    screenshots: Path,
    lang: str,
    viewport: dict[str, int],
) -> None:
    """A deal played to its end, then the home again (as on a later visit): no result
    dialog, no table, the home shown with a "Play now" and its length for each preset and
    the tournaments open now — on a desktop all within the first screen; the old deal is in
    My games."""
    context = browser.new_context(bypass_csp=True, viewport=viewport, reduced_motion="reduce")
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}))")
    try:
        table = make_table(context, server.url)
        page = table.open(lang)
        table.new_game()
        table.play_deal()
        expect(page.locator("#home")).to_be_hidden()  # while the game is on the table
        page.goto(f"{server.url}/{lang}/")
        home = page.locator("#home")
        expect(home).to_be_visible()
        expect(page.locator("#table")).to_be_hidden()
        expect(page.locator("#score-panel")).to_be_hidden()
        assert page.evaluate("localStorage.getItem('cardavia.game')") is None
        expect(page.locator("#deal-button")).to_be_focused()
        plays = home.locator("a.quick-play")
        expect(plays).to_have_count(4)
        for play in plays.all():
            said = page.locator(f"#{play.get_attribute('aria-describedby')}")
            assert (said.text_content() or "").strip()
        tournaments = page.locator("#home-tournaments [data-tournament]")
        expect(tournaments.first).to_be_visible()
        if viewport is DESKTOP:
            for part in (
                page.locator("#quick-entry"),
                tournaments.first,
                page.locator("#deal-button"),
            ):
                assert on_first_screen(page, part)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_violations(page) == []
        shot(page, screenshots / f"home-returning-{lang}-{size_name(viewport)}.jpg", full_page=True)
        page.goto(f"{server.url}/{lang}/me/games")
        expect(page.locator('.history-deal[data-over="true"]').first).to_be_visible()
        assert table.errors == []
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "viewport"), CASES)
def test_the_coinche_bidding_box_is_wholly_on_the_screen(
    browser: Browser,
    server: Server,
    make_table: type[Table],
    screenshots: Path,
    lang: str,
    viewport: dict[str, int],
) -> None:
    """At South's first turn to bid at a coinche table, the whole bidding box — the pass,
    the value, the four suits and the rest — is on the screen, nothing to scroll while
    the clock may run (finding M11)."""
    context = browser.new_context(bypass_csp=True, viewport=viewport, reduced_motion="reduce")
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}))")
    try:
        table = make_table(context, server.url)
        page = table.open(lang)
        page.select_option("#ng-rules", "coinche")
        page.click("#deal-button")
        for _ in range(20):
            page.wait_for_function(READY)
            view = table.view()
            if view["phase"] == "bidding":
                break
            page.click("#controls [data-action=next-deal]")  # passed out: deal again
            page.wait_for_function("window.cardavia.view.phase !== 'cancelled'")
        controls = page.locator("#controls")
        buttons = controls.locator("button:visible, select:visible")
        assert buttons.count() >= 5
        assert on_first_screen(page, controls), controls.bounding_box()
        shot(page, screenshots / f"coinche-bidding-{lang}-{size_name(viewport)}.jpg")
        assert table.errors == []
    finally:
        context.close()
