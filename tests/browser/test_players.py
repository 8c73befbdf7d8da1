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


AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def authenticator(context: Any, page: Any) -> tuple[Any, str]:
    """A virtual authenticator of Chromium in ``page``'s browser (CDP's WebAuthn domain)."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, added["authenticatorId"]


def me(page: Any) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate("fetch('/api/me').then((r) => r.json())")
    return answer


def test_a_passkey_keeps_the_player_and_signs_in_another_browser(
    browser: Browser, server: Any, make_table: Any, axe: Any
) -> None:
    """A guest adds a passkey; a second browser context holding the same passkey (a synced
    one) signs in with it and is the same player, with their settings; the assertion it sent
    replayed, or a cloned authenticator whose counter lags, is refused; the passkey revoked,
    the sessions it opened end; sign-out ends the first."""
    site = server.url.replace("127.0.0.1", "localhost")  # a passkey needs a domain name
    first = make_table(browser.new_context(reduced_motion="reduce", bypass_csp=True), site)
    page = first.open("fr")
    cdp, first_key = authenticator(first.context, page)
    first.new_game()
    page.click("#settings-panel > summary")
    with page.expect_response(lambda r: r.url.endswith("/api/me") and r.request.method == "PUT"):
        page.check('#settings-panel [name="fourColour"]')
    with page.expect_response(lambda r: r.url.endswith("/api/me") and r.request.method == "PUT"):
        page.fill("#set-contrast", "80")
    page.click('[data-action="add-passkey"]')
    panel = page.locator("#passkeys")
    expect(panel.locator("[data-passkey-status]")).to_have_text(
        panel.get_attribute("data-done-added") or "?"
    )
    expect(panel.locator(".passkey-list li")).to_have_count(1)
    assert axe(page) == []  # the settings open, a passkey listed
    player = me(page)
    (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": first_key})[
        "credentials"
    ]

    def holding_the_passkey(sign_count: int) -> Any:
        """Another browser whose authenticator holds the same passkey (a synced one)."""
        other = make_table(browser.new_context(reduced_motion="reduce", bypass_csp=True), site)
        tab = other.open("ar")
        session, key = authenticator(other.context, tab)
        copy = {**credential, "signCount": sign_count}
        session.send("WebAuthn.addCredential", {"authenticatorId": key, "credential": copy})
        tab.click("#settings-panel > summary")
        return other, tab

    second, tab = holding_the_passkey(credential["signCount"])
    assert me(tab)["player"] is False
    sent: list[str] = []
    tab.on(
        "request",
        lambda r: (
            sent.append(r.post_data or "") if r.url.endswith("/api/passkeys/signin") else None
        ),
    )
    tab.click('[data-action="sign-in"]')
    passkeys = tab.locator("#passkeys")
    expect(passkeys.locator("[data-passkey-status]")).to_have_text(
        passkeys.get_attribute("data-done-signed-in") or "?"
    )
    # The same player (name, settings); the page, loaded again as them after the sign-in,
    # is read in Arabic: the language they read the site in now.
    # (The page keeps its language with the player once loaded again: asked until it has.)
    signed_in = me(tab)
    for _ in range(50):
        if signed_in["lang"] == "ar":
            break
        tab.wait_for_timeout(100)
        signed_in = me(tab)
    assert signed_in["lang"] == "ar"
    assert {**signed_in, "lang": player["lang"]} == player
    expect(tab.locator("html")).to_have_attribute("data-four-colour", "on")
    expect(tab.locator("#set-contrast")).to_have_value("80")
    expect(passkeys.locator(".passkey-list li")).to_have_count(1)
    assert axe(tab) == []  # in Arabic, right to left
    cookies = {
        c["value"]
        for t in (first, second)
        for c in t.context.cookies()
        if c["name"] == "cardavia_player"
    }
    assert len(cookies) == 2  # a session of its own, a token of its own
    assert me(page)["player"] is True  # the first browser is still signed in

    # The assertion replayed: its ceremony is spent.
    replayed = tab.request.post(
        f"{site}/api/passkeys/signin",
        data=sent[0],
        headers={"Content-Type": "application/json", "Origin": site},
    )
    assert replayed.status == 400 and replayed.json()["code"] == "passkey_refused"
    # A cloned authenticator, its counter behind the one last seen: refused.
    third, cloned = holding_the_passkey(0)
    cloned.click('[data-action="sign-in"]')
    status = cloned.locator("#passkeys [data-passkey-status]")
    expect(status).to_have_text(cloned.locator("#passkeys").get_attribute("data-failed") or "?")
    assert me(cloned)["player"] is False

    # Revoked: the sessions it opened end; the first browser (a guest's session) stays.
    page.click("#passkeys .passkey-list button")
    expect(panel.locator(".passkey-list li")).to_have_count(0)
    assert me(tab)["player"] is False
    assert me(page)["player"] is True
    page.click('[data-action="sign-out"]')
    expect(panel.locator("[data-passkey-status]")).to_have_text(
        panel.get_attribute("data-done-signed-out") or "?"
    )
    assert me(page)["player"] is False
    for table in (first, second, third):
        assert not [e for e in table.errors if "401" not in e and "403" not in e and "400" not in e]
        table.context.close()


def test_a_change_made_just_before_leaving_the_page_is_kept(
    browser: Browser, server: Any, make_table: Any
) -> None:
    """A setting changed, then a link followed at once (before the pause that sends it): the
    next page keeps this browser's change, not the player's older settings, and sends it."""
    tab = make_table(browser.new_context(reduced_motion="reduce"), server.url)
    page = tab.open("fr")
    tab.new_game()
    page.wait_for_function("fetch('/api/me').then((r) => r.json()).then((m) => m.player)")
    page.click("#settings-panel > summary")
    with page.expect_response(lambda r: r.url.endswith("/api/me") and r.request.method == "PUT"):
        page.check('#settings-panel [name="fourColour"]')  # the player's settings, sent
    page.check('#settings-panel [name="sounds"]')
    page.goto(f"{server.url}/es/")
    expect(page.locator('#settings-panel [name="sounds"]')).to_be_checked()
    for _ in range(50):
        if me(page)["settings"].get("sounds") is True:
            break
        page.wait_for_timeout(100)
    kept = me(page)
    assert kept["settings"]["sounds"] is True and kept["settings"]["fourColour"] is True
    assert not tab.errors
    tab.context.close()
