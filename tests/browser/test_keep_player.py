"""A player worth keeping (issue 37, item 3), in French on a desktop and in Arabic on a phone:
the profile says who the player is — a guest of this browser, then a player with one passkey
once they add it there (Chromium's virtual authenticator, as test_players.py) — and lists it;
another browser holding the same passkey signs in from the profile page, which then shows
the player without a reload by hand; axe-core at zero, screenshots kept."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.conftest import axe_violations, shot
from tests.browser.test_players import authenticator

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def guest(page: Page) -> None:
    """A guest made by naming themselves (as a first setting or game does)."""
    status = page.evaluate(
        """() => fetch('/api/me', {method: 'PUT', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Zoé'})}).then((r) => r.status)"""
    )
    assert status == 200


@pytest.mark.parametrize(("lang", "viewport"), [("fr", DESKTOP), ("ar", PHONE)])
def test_a_guest_adds_a_passkey_from_the_profile_and_signs_in_elsewhere(
    browser: Browser, server: Server, screenshots: Path, lang: str, viewport: dict[str, int]
) -> None:
    site = server.url.replace("127.0.0.1", "localhost")  # a passkey needs a domain name
    size = "phone" if viewport is PHONE else "desktop"
    first = browser.new_context(bypass_csp=True, viewport=viewport, reduced_motion="reduce")
    second = browser.new_context(bypass_csp=True, viewport=viewport, reduced_motion="reduce")
    try:
        page = first.new_page()
        page.goto(f"{site}/{lang}/me")
        cdp, key = authenticator(first, page)
        guest(page)
        page.reload()
        who = page.locator("#profile-who")
        expect(who).to_have_text(who.get_attribute("data-guest") or "?")
        panel = page.locator("#profile-passkeys")
        expect(panel).to_be_visible()
        shot(page, screenshots / f"profile-guest-{lang}-{size}.jpg", full_page=True)
        assert axe_violations(page) == []
        panel.locator('[data-action="add-passkey"]').click()
        expect(panel.locator("[data-passkey-status]")).to_have_text(
            panel.get_attribute("data-done-added") or "?"
        )
        expect(panel.locator(".passkey-list li")).to_have_count(1)
        said: dict[str, Any] = page.evaluate(
            "() => JSON.parse(document.getElementById('profile-who').dataset.keeper)"
        )
        assert who.text_content() in {form.replace("{count}", "1") for form in said.values()}
        assert (who.text_content() or "") != who.get_attribute("data-guest")
        shot(page, screenshots / f"profile-passkey-{lang}-{size}.jpg", full_page=True)
        assert axe_violations(page) == []
        (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": key})["credentials"]

        # Another browser holding the same passkey: no player on its profile, then one after
        # signing in there, the page loaded again by itself.
        other = second.new_page()
        other.goto(f"{site}/{lang}/me")
        session, other_key = authenticator(second, other)
        session.send(
            "WebAuthn.addCredential", {"authenticatorId": other_key, "credential": credential}
        )
        expect(other.locator("#profile-none")).to_be_visible()
        other.click("#settings-panel > summary")
        other.locator('#passkeys [data-action="sign-in"]').click()
        expect(other.locator("#profile-player")).to_be_visible()
        expect(other.locator("#profile-name")).to_have_value("Zoé")
        expect(other.locator("#passkeys [data-passkey-status]")).to_have_text(
            other.locator("#passkeys").get_attribute("data-done-signed-in") or "?"
        )
        expect(other.locator("#profile-passkeys .passkey-list li")).to_have_count(1)
    finally:
        first.close()
        second.close()
