"""The player in the browser (docs/players.md): the first game makes a guest (an HttpOnly,
SameSite=Lax cookie the page's scripts cannot read), the settings changed in the panel are
kept with the player, and another browser holding the same player's cookie is given them
(applied to the page, shown in the panel)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.browser


def test_the_settings_follow_the_player_to_another_browser(
    browser: Browser, server: Any, make_table: Any
) -> None:
    first = make_table(browser.new_context(reduced_motion="reduce"), server.url)
    page = first.open("fr")
    assert page.evaluate("document.cookie").find("cardavia_player") == -1
    first.new_game()
    (cookie,) = [c for c in first.context.cookies() if c["name"] == "cardavia_player"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and not cookie["secure"]
    assert "cardavia_player" not in page.evaluate("document.cookie")

    page.click("#settings-panel > summary")
    with page.expect_response(lambda r: r.url.endswith("/api/me") and r.request.method == "PUT"):
        page.check('#settings-panel [name="fourColour"]')
    kept = page.evaluate("fetch('/api/me').then((r) => r.json())")
    assert kept["player"] and kept["settings"]["fourColour"] is True and kept["lang"] == "fr"

    # Another browser, signed in as the same player (the cookie), in another language.
    second = make_table(browser.new_context(reduced_motion="reduce"), server.url)
    second.context.add_cookies([cookie])
    other = second.open("ar")
    expect(other.locator("html")).to_have_attribute("data-four-colour", "on")
    stored = json.loads(other.evaluate("localStorage.getItem('cardavia.settings')"))
    assert stored["fourColour"] is True
    other.click("#settings-panel > summary")
    expect(other.locator('#settings-panel [name="fourColour"]')).to_be_checked()
    # A third, with no cookie: a stranger, none of it.
    third = make_table(browser.new_context(reduced_motion="reduce"), server.url)
    stranger = third.open("fr")
    assert stranger.evaluate("fetch('/api/me').then((r) => r.json())")["player"] is False
    expect(stranger.locator("html")).to_have_attribute("data-four-colour", "off")
    assert not first.errors and not second.errors and not third.errors
    for table in (first, second, third):
        table.context.close()
