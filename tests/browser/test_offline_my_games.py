"""Offline, My games never opened before (issue 37, item 5): the service worker kept the page
of the visitor's language when it installed, so that its own script says, in the page's
language, that the list needs the connection (the table's page answered for it before, as for
any page never kept); in French on a phone and in Arabic on a desktop, axe-core at zero,
screenshots kept. What My games shows offline once read, test_site_frame.py checks."""

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
NEEDS = {"fr": "a besoin de la connexion", "ar": "تحتاج إلى الاتصال"}
KEPT = """(page) => caches.keys().then(async (names) => {
  for (const name of names) {
    if (await (await caches.open(name)).match(page)) return true;
  }
  return false;
})"""


@pytest.mark.parametrize(("lang", "viewport"), [("fr", PHONE), ("ar", DESKTOP)])
def test_offline_my_games_never_read_says_it_needs_the_connection(
    browser: Browser, server: Server, screenshots: Path, lang: str, viewport: dict[str, int]
) -> None:
    context = browser.new_context(
        bypass_csp=True, viewport=viewport, reduced_motion="reduce", service_workers="allow"
    )
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/{lang}/rules/")
        page.evaluate("navigator.serviceWorker.ready")
        for kept in (f"/{lang}/me/games", "/static/js/history.js", "/static/css/history.css"):
            page.wait_for_function(KEPT, arg=kept)
        context.set_offline(True)
        page.goto(f"{server.url}/{lang}/me/games")
        assert page.get_attribute("html", "lang") == lang
        expect(page.locator("#history-title")).to_be_visible()
        note = page.locator("#history-offline")
        expect(note).to_be_visible()
        expect(note).to_contain_text(NEEDS[lang])
        expect(page.locator(".history-deal")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_violations(page) == []
        size = "phone" if viewport is PHONE else "desktop"
        shot(page, screenshots / f"my-games-offline-never-read-{lang}-{size}.jpg")
        assert errors == []
    finally:
        context.set_offline(False)
        context.close()
