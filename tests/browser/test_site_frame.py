"""The site's frame (issue 37, items 2 and 5): the menu reaches every place of the site on a
phone (360 × 740) through one button and lies in one line on a desktop (1280 × 800), the page's
own place marked; the pages that are no page keep the header and offer a way on; in French
and Arabic, with axe-core at zero and a screenshot of each under artefacts/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.conftest import axe_violations, shot

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
PLACES = ("", "tournaments", "leagues", "rules/", "me/games", "me")
"""The menu's six places, in its order: Play, Tournaments, Leagues, Learn, My games, Profile."""

# The header's height, whether the page scrolls sideways, and the menu's list inside the
# screen (every link wholly in view).
FRAME = """() => {
  const header = document.querySelector(".site-header").getBoundingClientRect();
  const links = [...document.querySelectorAll(".site-menu a")]
    .map((a) => a.getBoundingClientRect());
  return {
    header: header.height,
    pageWidth: document.documentElement.scrollWidth,
    linksInView: links.every((r) => r.width > 0 && r.left >= 0 && r.right <= innerWidth
      && r.top >= 0 && r.bottom <= innerHeight),
  };
}"""


def marked(page: Page) -> list[str | None]:
    """The hrefs of the menu's links marked as the page's own."""
    return [
        link.get_attribute("href") for link in page.locator(".site-menu a[aria-current=page]").all()
    ]


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_the_phone_menu_is_one_button_that_reaches_every_page(
    browser: Browser, server: Server, screenshots: Path, lang: str
) -> None:
    """At 360 px the header is one line (the name, the menu's button, the language, the
    settings); the button opens the six places as a list wholly on the screen, each reached
    by a tap, the page's own marked; Escape closes the list and gives the button its focus;
    the lobby, a room and the quick-play page are all "Play"."""
    context = browser.new_context(bypass_csp=True, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/{lang}/lobby")
        button = page.locator(".menu-button")
        for place in PLACES:
            expect(page.locator(".site-menu")).to_be_hidden()
            frame = page.evaluate(FRAME)
            assert frame["header"] < 60 and frame["pageWidth"] <= PHONE["width"], frame
            button.tap()
            expect(button).to_have_attribute("aria-expanded", "true")
            assert page.evaluate(FRAME)["linksInView"]
            if place == "me":
                shot(page, screenshots / f"menu-phone-{lang}.jpg")
            page.locator(f'.site-menu a[href="/{lang}/{place}"]').tap()
            page.wait_for_url(f"{server.url}/{lang}/{place}")
            assert marked(page) == [f"/{lang}/{place}"]
        button.focus()
        page.keyboard.press("Enter")
        expect(page.locator(".site-menu")).to_be_visible()
        page.keyboard.press("Tab")
        page.keyboard.press("Escape")
        expect(page.locator(".site-menu")).to_be_hidden()
        expect(button).to_be_focused()
        assert axe_violations(page) == []
        for path in ("room/", "quick/coinche"):
            page.goto(f"{server.url}/{lang}/{path}")
            assert marked(page) == [f"/{lang}/"], path
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_the_desktop_menu_is_one_line_without_a_button(
    browser: Browser, server: Server, screenshots: Path, lang: str
) -> None:
    """At 1280 px the six places are one line in the header, no button to open them."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/{lang}/tournaments")
        expect(page.locator(".menu-button")).to_be_hidden()
        lines = page.evaluate(
            """() => new Set([...document.querySelectorAll(".site-menu a")]
                .map((a) => Math.round(a.getBoundingClientRect().top))).size"""
        )
        assert lines == 1
        assert page.evaluate(FRAME)["header"] < 60
        assert marked(page) == [f"/{lang}/tournaments"]
        shot(page, screenshots / f"menu-desktop-{lang}.jpg")
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "viewport"), [("fr", PHONE), ("ar", DESKTOP)])
def test_a_missing_page_keeps_the_frame_and_a_way_on(
    browser: Browser, server: Server, screenshots: Path, lang: str, viewport: dict[str, int]
) -> None:
    """A dead link (a deal's code that is none) lands on a page with the header, its menu and
    a way on to the home, styled as every page, no wider than the screen, axe-core at zero."""
    context = browser.new_context(bypass_csp=True, viewport=viewport)
    try:
        page = context.new_page()
        answer = page.goto(f"{server.url}/{lang}/deal/NOSUCHDEAL")
        assert answer is not None and answer.status == 404
        expect(page.locator(".site-header .brand")).to_be_visible()
        expect(page.locator("#not-found-title")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_violations(page) == []
        size = "phone" if viewport is PHONE else "desktop"
        shot(page, screenshots / f"not-found-{lang}-{size}.jpg")
        page.locator(".way-on a.primary").click()
        page.wait_for_url(f"{server.url}/{lang}/")
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "viewport"), [("fr", PHONE), ("ar", DESKTOP)])
def test_offline_my_games_shows_what_it_holds(
    browser: Browser,
    server: Server,
    make_table: type[Table],
    screenshots: Path,
    lang: str,
    viewport: dict[str, int],
) -> None:
    """A deal played, My games read online; offline, the page (kept by the service worker)
    shows the deals of that visit and says they are those, rather than a blank list; and the
    table's page says that play needs the connection, with the way to the rules."""
    context = browser.new_context(
        bypass_csp=True, viewport=viewport, reduced_motion="reduce", service_workers="allow"
    )
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}))")
    try:
        table = make_table(context, server.url)
        page = table.open(lang)
        table.new_game()
        table.play_deal()
        page.goto(f"{server.url}/{lang}/me/games")
        expect(page.locator(".history-deal").first).to_be_visible()
        page.evaluate("navigator.serviceWorker.ready")
        page.reload()  # now under the worker, which keeps the page and its scripts
        expect(page.locator(".history-deal").first).to_be_visible()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.reload()
        note = page.locator("#history-offline")
        expect(note).to_be_visible()
        assert (note.text_content() or "").strip()
        expect(page.locator(".history-deal").first).to_be_visible()
        assert axe_violations(page) == []
        shot(
            page,
            screenshots
            / f"my-games-offline-{lang}-{'phone' if viewport is PHONE else 'desktop'}.jpg",
        )
        page.goto(f"{server.url}/{lang}/")
        offline = page.locator("#offline-note")
        expect(offline).to_be_visible()
        offline.locator(f'a[href="/{lang}/rules/"]').click()
        page.wait_for_url(f"{server.url}/{lang}/rules/")
        expect(page.locator("h1")).to_be_visible()
    finally:
        context.set_offline(False)
        context.close()
