"""The lobby's "Play now" buttons say what each commits to, as the home's do (issue 37, item
1): in French on a desktop and in Arabic on a phone, each button described by its line (one
deal or a match, about so many minutes), the lines laid out without a sideways scroll;
axe-core at zero, screenshots kept."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.conftest import axe_violations, shot

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize(("lang", "viewport"), [("fr", DESKTOP), ("ar", PHONE)])
def test_the_lobbys_play_now_says_what_it_commits_to(
    browser: Browser, server: Server, screenshots: Path, lang: str, viewport: dict[str, int]
) -> None:
    context = browser.new_context(bypass_csp=True, viewport=viewport, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(f"{server.url}/{lang}/lobby")
        plays = page.locator(".lobby-play")
        expect(plays).to_have_count(4)
        home = context.new_page()
        home.goto(f"{server.url}/{lang}/")
        for play in plays.all():
            line = page.locator(f"#{play.get_attribute('aria-describedby')}")
            expect(line).to_be_visible()
            preset = play.get_attribute("data-preset")
            expect(line).to_have_text(home.locator(f"#commitment-{preset}").inner_text())
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_violations(page) == []
        size = "phone" if viewport is PHONE else "desktop"
        shot(page, screenshots / f"lobby-play-now-{lang}-{size}.jpg", full_page=True)
    finally:
        context.close()
