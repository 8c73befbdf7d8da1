"""The lobby and safety among strangers in Chromium (docs/players.md, "The lobby", "Safety"):
Ana (French, desktop) and Bo (Arabic, phone) at a quick-play table; the lobby lists it with
its score and "Watch" and counts them; by each other person's name a "Block" and a "Report
the name" reached by keyboard; the reported name is "a player" to the others; the profile
lists the blocked player with "Unblock". Zero axe-core violations on each screen."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from tests.browser.conftest import Server, Table, shot

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def two(browser: Browser, server: Server) -> Iterator[tuple[Table, Table]]:
    tables = []
    for lang, size in (("fr", DESKTOP), ("ar", PHONE)):
        context = browser.new_context(
            bypass_csp=True, viewport=size, reduced_motion="reduce", locale=lang
        )
        context.add_init_script(
            "localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
        )
        tables.append(Table(context, server.url))
    yield tables[0], tables[1]
    for table in tables:
        table.context.close()


def made_quick(server: Server, code: str) -> None:
    """The room as quick play makes it (the server stopped meanwhile, then started again: a
    room is read from the database when it is first opened)."""
    server.stop()
    with sqlite3.connect(server.database) as db:
        (text,) = db.execute("SELECT state FROM rooms WHERE code = ?", (code,)).fetchone()
        state = json.loads(text)
        state["settings"] |= {"quick": True, "clock": 0, "watchers": True}
        db.execute("UPDATE rooms SET state = ? WHERE code = ?", (json.dumps(state), code))
    server.start()


def test_the_lobby_and_the_safety_controls(
    two: tuple[Table, Table], browser: Browser, server: Server, axe: Any, screenshots: Path
) -> None:
    ana, bo = two
    ana.page.goto(f"{server.url}/fr/room/")
    ana.page.fill("#rc-name", "Ana")
    ana.page.select_option("#rc-rules", "coinche")
    ana.page.click("#room-create-button")
    ana.page.wait_for_url(re.compile(r"/fr/room/[A-Z]{5}$"))
    code = ana.page.url.rsplit("/", 1)[1]
    bo.page.goto(f"{server.url}/ar/room/{code}")
    bo.page.fill("#rj-name", "Bo")
    bo.page.click("#room-join-button")
    bo.page.wait_for_selector("#room-seats li[data-seat='N'] bdi, #room-seats li bdi")
    made_quick(server, code)
    for table in (ana, bo):
        table.page.reload()
        table.page.wait_for_selector("#room-seats li")
    ana.page.click("#room-start")
    for table in (ana, bo):
        table.page.wait_for_function("window.cardavia && window.cardavia.view")
    # By each other person's name: block and report, buttons reached by keyboard.
    stored = "(c) => JSON.parse(localStorage.getItem('cardavia.room.' + c))"
    bo_seat = bo.page.evaluate(stored, code)["seat"]
    ana_line = ana.page.locator(f"#room-seats li[data-seat='{bo_seat}']")
    block = ana_line.locator("[data-safety=block]")
    assert block.get_attribute("aria-label") == "Bloquer Bo\u00a0: plus jamais à la même table"
    assert ana.page.locator("#room-seats li[data-seat='S'] [data-safety]").count() == 0
    assert ana.page.locator("#room-seats li[data-seat='E'] [data-safety]").count() == 0
    block.focus()
    ana.page.keyboard.press("Enter")
    ana.page.wait_for_function(
        "document.getElementById('room-safety-status').textContent.includes('Bo')"
    )
    assert block.text_content() == "Bloqué" and block.is_disabled()
    report = bo.page.locator("#room-seats li[data-seat='S'] [data-safety=report]")
    report.focus()
    bo.page.keyboard.press("Enter")
    bo.page.wait_for_function(
        "document.querySelector(\"#room-seats li[data-seat='S'] bdi\").textContent === 'لاعب'"
    )
    bo.page.wait_for_function(
        "document.querySelector(\"#room-seats li[data-seat='S'] [data-safety=report]\").disabled"
    )
    ana.page.wait_for_selector(f"#room-seats li[data-seat='{bo_seat}']")
    assert ana.page.locator("#room-seats li[data-seat='S'] bdi").text_content() == "Ana"
    for table, lang in ((ana, "fr"), (bo, "ar")):
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            table.page.set_viewport_size(viewport)
            shot(table.page, screenshots / f"lobby-room-{lang}-{size}.jpg", full_page=True)
            assert axe(table.page) == []
    # The lobby: the table with its score and "Watch", the people counted.
    ana_lobby, bo_lobby = ana.context.new_page(), bo.context.new_page()
    ana_lobby.goto(f"{server.url}/fr/lobby")
    bo_lobby.goto(f"{server.url}/ar/lobby")
    for page in (ana_lobby, bo_lobby):
        page.wait_for_selector(f"#lobby-tables li[data-code='{code}']")
        assert int(page.locator("#lobby-count").text_content() or "0") >= 2
        assert page.locator("#lobby-tables a").first.get_attribute("href") == (
            f"/{page.evaluate('document.documentElement.lang')}/room/{code}?watch"
        )
        assert page.locator(".lobby-play").count() == 4
        # Its rating (its two people's, newcomers'), in the page's words.
        rating = page.locator(f"[data-code='{code}'] .lobby-table-rating").text_content() or ""
        assert rating.split()[0] in ("Cote", "التصنيف"), rating
    assert "un joueur" in (ana_lobby.locator(f"[data-code='{code}']").text_content() or "")
    bo_lobby.focus("#lobby-refresh")
    bo_lobby.keyboard.press("Enter")
    bo_lobby.wait_for_function("document.getElementById('lobby-status').textContent !== ''")
    for page, lang in ((ana_lobby, "fr"), (bo_lobby, "ar")):
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            shot(page, screenshots / f"lobby-lobby-{lang}-{size}.jpg", full_page=True)
            assert axe(page) == []
    # "Watch" opens the table as a watcher: public only, no seat.
    stranger = browser.new_context(bypass_csp=True, viewport=DESKTOP, locale="es")
    watching = stranger.new_page()
    watching.goto(f"{server.url}/es/lobby")
    watching.click(f"#lobby-tables li[data-code='{code}'] a")
    watching.wait_for_function("window.cardavia && window.cardavia.view")
    assert watching.evaluate("window.cardavia.view.seat") is None
    assert watching.evaluate("window.cardavia.view.hand") == []
    stranger.close()
    # The profile: the blocked player and "Unblock"; the reported name told to its owner.
    ana_lobby.goto(f"{server.url}/fr/me")
    ana_lobby.wait_for_selector("#blocks-list li")
    assert ana_lobby.locator("#profile-hidden-name").is_visible()
    shot(ana_lobby, screenshots / "lobby-profile-fr-desktop.jpg", full_page=True)
    assert axe(ana_lobby) == []
    ana_lobby.click("#blocks-list button")
    ana_lobby.wait_for_function("document.getElementById('blocks-list').childElementCount === 0")
    assert ana_lobby.locator("#blocks-none").is_visible()
    bo_lobby.goto(f"{server.url}/ar/me")
    bo_lobby.wait_for_function("document.getElementById('blocks-none').hidden === false")
    assert not bo_lobby.locator("#profile-hidden-name").is_visible()
    shot(bo_lobby, screenshots / "lobby-profile-ar-phone.jpg", full_page=True)
    assert axe(bo_lobby) == []
    # What the pages said went wrong, but the connections refused while the server restarted.
    errors = [e for e in ana.errors + bo.errors if "ERR_CONNECTION_REFUSED" not in e]
    assert errors == []
