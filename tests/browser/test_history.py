"""My games and the profile in Chromium (docs/players.md), in French and Arabic, on a phone
and a desktop, with zero axe-core violations: a guest plays a deal, finds it in "My games"
and opens its analysis and every hand; downloads everything kept about them; deletes their
player, and a second browser that shared a room with them sees "a former player"."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.conftest import shot

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("CARDAVIA_HISTORY_SHOTS", "/tmp/shots-history"))


def picture(page: Page, name: str) -> None:
    """Keep a picture of the page for a person to look at (full page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot(page, SHOTS / f"{name}.jpg", full_page=True)


def start_room(page: Page, name: str, lang: str) -> dict[str, Any]:
    """Make a room from ``page`` (its player seated South) and deal it once ``partner``
    joined: answers the room as made."""
    made: dict[str, Any] = page.evaluate(
        """async ([name, lang]) => {
          const r = await fetch('/api/rooms', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name, lang, rules: 'cardavia', seat: 'S'})});
          return r.json();
        }""",
        [name, lang],
    )
    return made


def join_room(page: Page, code: str, name: str) -> None:
    answer = page.evaluate(
        """async ([code, name]) => {
          const r = await fetch(`/api/rooms/${code}/join`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name, seat: 'N'})});
          return r.status;
        }""",
        [code, name],
    )
    assert answer == 201


def deal_room(page: Page, made: dict[str, Any]) -> None:
    """The creator starts the room (computer players in the empty seats)."""
    page.evaluate(
        """(made) => new Promise((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/ws/rooms/${made.room}?token=${made.token}`);
          ws.onopen = () => ws.send(JSON.stringify({type: 'start'}));
          ws.onmessage = (event) => {
            if (JSON.parse(event.data).type === 'state') { ws.close(); resolve(); }
          };
        })""",
        made,
    )


def test_my_games_the_analysis_the_export_and_the_deletion(
    browser: Browser, server: Any, make_table: Any, axe: Any
) -> None:
    # A new guest: the empty state.
    stranger = browser.new_context(bypass_csp=True, viewport=PHONE, reduced_motion="reduce")
    empty = stranger.new_page()
    empty.goto(f"{server.url}/fr/me/games")
    expect(empty.locator("#history-empty")).to_be_visible()
    assert axe(empty) == []
    picture(empty, "games-empty-fr-phone")
    empty.goto(f"{server.url}/ar/me")
    expect(empty.locator("#profile-none")).to_be_visible()
    assert axe(empty) == []
    stranger.close()

    # A guest plays a deal at the table, on a phone, in French.
    context = browser.new_context(bypass_csp=True, viewport=PHONE, reduced_motion="reduce")
    zoe = make_table(context, server.url)
    page = zoe.open("fr")
    zoe.new_game()
    zoe.play_deal()
    page.click(".menu-button")  # a phone's menu: one button opens the site's places
    page.click('.site-nav a[href="/fr/me/games"]')
    deal = page.locator('.history-deal[data-over="true"]').first
    expect(deal).to_be_visible()
    expect(deal.locator(".history-outcome")).not_to_be_empty()
    assert axe(page) == []
    picture(page, "games-fr-phone")
    # The cards drawn on this page (the analysis) read as French cards do: R D V, not K Q J.
    labels = page.evaluate(
        "import('/static/js/cards.js')"
        ".then((m) => ['KD', 'QS', 'JH'].map((c) => m.rankLabel(c, 'french')).join(' '))"
    )
    assert labels == "R D V"
    if deal.locator(".history-analyse").count():
        deal.locator(".history-analyse").click()
        dialog = page.locator("#learn-analysis")
        expect(dialog).to_have_attribute("data-state", "ready", timeout=60_000)
        assert axe(page) == []
        picture(page, "analysis-fr-phone")
        page.click("#learn-analysis .learn-close")
    # Every hand, by the link the player may share.
    hands = deal.locator(".history-hands").get_attribute("href") or ""
    assert hands.startswith("/fr/deal/")
    page.goto(server.url + hands)
    expect(page.locator(".deal-seat")).to_have_count(4)
    assert axe(page) == []
    picture(page, "deal-fr-phone")

    # The same player on a desktop, in Arabic.
    page.set_viewport_size(DESKTOP)
    page.goto(f"{server.url}/ar/me/games")
    expect(page.locator(".history-deal").first).to_be_visible()
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert axe(page) == []
    picture(page, "games-ar-desktop")

    # The profile: the name, the export.
    page.goto(f"{server.url}/ar/me")
    expect(page.locator("#profile-player")).to_be_visible()
    page.fill("#profile-name", "Zoé")
    page.click("#profile-name-form button[type=submit]")
    expect(page.locator("#profile-status")).not_to_be_empty()
    assert axe(page) == []
    picture(page, "profile-ar-desktop")
    with page.expect_download() as download:
        page.click("#profile-export")
    kept = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert kept["player"]["name"] == "Zoé" and kept["deals"] and kept["games"]

    # A room shared with a second browser, then the deletion.
    made = start_room(page, "Zoé", "fr")
    other = browser.new_context(bypass_csp=True, viewport=PHONE, reduced_motion="reduce")
    bob = other.new_page()
    bob.goto(f"{server.url}/ar/")
    join_room(bob, made["room"], "Bob")
    deal_room(page, made)
    page.set_viewport_size(PHONE)
    page.goto(f"{server.url}/fr/me")
    page.click("#profile-delete")
    expect(page.locator("#profile-confirm")).to_be_visible()
    assert axe(page) == []
    picture(page, "profile-confirm-fr-phone")
    page.click("#profile-delete-confirm")
    expect(page.locator("#profile-deleted")).to_be_visible()
    assert page.evaluate("fetch('/api/me').then((r) => r.json())")["player"] is False

    bob.goto(f"{server.url}/ar/me/games")
    room_deal = bob.locator(".history-deal").first
    expect(room_deal).to_contain_text("لاعب سابق")
    assert "Zoé" not in (room_deal.text_content() or "")
    assert axe(bob) == []
    picture(bob, "games-former-ar-phone")
    assert not zoe.errors
    other.close()
    context.close()
