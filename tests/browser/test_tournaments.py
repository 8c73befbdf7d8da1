"""A tournament in Chromium (docs/tournaments.md), with zero axe-core violations: a guest plays
a 6-deal tournament on a phone in French, leaves a deal half played and resumes it in another
browser context of the same player (the cookie) on a desktop in Arabic, plays the rest, and
after closing sees the ranking with their own place and a deal's comparison with the field;
the other sizes and languages by resizing and reloading the same pages."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from tests.browser.conftest import HIDDEN_AND_COUNTED, shot
from tests.tournaments.worked import keep_passkey

from cardavia.store.db import GameStore
from cardavia.tournaments.closing import close_one
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments
from cardavia.web.guests import PLAYER_COOKIE

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("CARDAVIA_TOURNAMENT_SHOTS", "/tmp/shots-play"))
TOURNAMENT = "short-cardavia-browser"
DEALS = 6
READY = """() => {
  const c = window.cardavia, table = document.getElementById("table");
  if (!c || !c.view || c.pending > 0 || table.dataset.busy === "on") return false;
  const v = c.view;
  if (v.phase === "over" || v.phase === "cancelled") return true;
  return v.to_move === v.seat && v.legal.length > 0;
}"""


def picture(page: Page, name: str) -> None:
    """Keep a picture of the page for a person to look at (full page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot(page, SHOTS / f"{name}.jpg", full_page=True)


def context_of(browser: Any, viewport: dict[str, int]) -> BrowserContext:
    context: BrowserContext = browser.new_context(
        bypass_csp=True, viewport=viewport, reduced_motion="reduce"
    )
    context.add_init_script(
        "if (!localStorage.getItem('cardavia.settings'))"
        " localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
    )
    return context


def play_on(page: Page, *, moves: int = 999) -> str:
    """Play the deal at the table page (take when South may, else pass; the first legal
    card): ``moves`` of South's actions at most. Answers the phase it stopped in."""
    for _ in range(80):
        page.wait_for_function(READY)
        view = page.evaluate("window.cardavia.view")
        if view["phase"] in ("over", "cancelled") or moves <= 0:
            return str(view["phase"])
        moves -= 1
        if view["phase"] == "bidding":
            offers = page.locator("#controls .bid-button.take, #controls .bid-button.bid")
            (offers.first if offers.count() else page.locator("#controls .bid-button.pass")).click()
        else:
            card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
            page.click(f'#hand .card[data-card="{card}"]')
            confirm = page.locator("#controls [data-action=confirm]")
            if confirm.count():
                confirm.click()
        page.wait_for_function("(n) => window.cardavia.view.step > n", arg=view["step"])
    raise AssertionError("the deal did not end")


def play_deal(page: Page, number: int, *, moves: int = 999) -> str:
    """From the tournament's page: play (or resume) deal ``number``, then come back."""
    row = page.locator(f'#tournament-deals li[data-deal="{number}"]')
    row.locator(".tournament-play, a.button-link").click()
    page.wait_for_url(f"**/tournaments/{TOURNAMENT}/play/{number}")
    expect(page.locator("#tournament-back")).to_be_visible()
    phase = play_on(page, moves=moves)
    back_to_tournament(page, phase)
    return phase


def back_to_tournament(page: Page, phase: str) -> None:
    """From a deal over: the result's way back (beside its next deal), else the page's."""
    if phase == "over":
        page.wait_for_selector("#score-panel[open]")
        expect(page.locator("#score-panel #next-deal")).to_be_hidden()
        picture(page, "result")  # the last deal's result, with its way back
        page.click("#score-panel [data-way=back]")
    else:
        page.click("#tournament-back")
    page.wait_for_url(f"**/tournaments/{TOURNAMENT}")


def test_a_tournament_played_resumed_elsewhere_and_ranked(
    browser: Any, server: Any, axe: Any
) -> None:
    store = GameStore(f"sqlite:///{server.database}")
    opens = datetime.now(UTC) - timedelta(minutes=1)
    plan = Planned(TOURNAMENT, "short", "cardavia", DEALS, opens, opens + timedelta(hours=1))
    Tournaments(store, level="beginner").make(plan)

    # On a phone, in French: the list, the tournament, two deals played and one left.
    phone = context_of(browser, PHONE)
    page = phone.new_page()
    page.goto(f"{server.url}/fr/")  # the home page leads to the tournaments
    page.locator("#tournament-entry a").scroll_into_view_if_needed()
    picture(page, "home-fr-phone")
    page.click("#tournament-entry a")
    page.wait_for_url("**/fr/tournaments")
    # A game of the player's own, saved by the table's page: the tournament leaves it be.
    own_game = json.dumps({"game": "a-game-of-their-own", "token": "its-token"})
    page.evaluate("(game) => localStorage.setItem('cardavia.game', game)", own_game)
    assert axe(page) == []
    picture(page, "list-fr-phone")
    page.click(f'[data-tournament="{TOURNAMENT}"] .tournament-link')
    page.wait_for_url(f"**/fr/tournaments/{TOURNAMENT}")
    assert axe(page) == []
    picture(page, "tournament-open-fr-phone")
    for number in (1, 2):
        play_deal(page, number)
        expect(page.locator(f'li[data-deal="{number}"]')).to_have_attribute("data-state", "done")
    assert page.evaluate("localStorage.getItem('cardavia.game')") == own_game
    # Entered, deals left, the close within the hour: the site's other pages remind the
    # player of it (its own pages do not: the player is there).
    reminder = page.locator(f'.tournament-closing[data-tournament="{TOURNAMENT}"]')
    page.goto(f"{server.url}/fr/rules/")
    expect(reminder).to_be_visible()
    expect(reminder).to_contain_text("se clôture dans l’heure")
    assert reminder.locator("a").get_attribute("href") == f"/fr/tournaments/{TOURNAMENT}"
    assert axe(page) == []
    with page.expect_response("**/api/friends/news") as heard:  # the page's news, answered
        reminder.locator("a").click()
    assert heard.value.json()["closing"][0]["id"] == TOURNAMENT
    page.wait_for_url(f"**/fr/tournaments/{TOURNAMENT}")
    expect(reminder).to_have_count(0)
    # A page hidden from its start (another tab in front), the player letting the site
    # notify: the reminder is a system notification too, once a browser session.
    phone.grant_permissions(["notifications"], origin=server.url)
    hidden = phone.new_page()
    hidden.add_init_script(HIDDEN_AND_COUNTED)
    hidden.goto(f"{server.url}/fr/rules/scoring")
    hidden.wait_for_function("window.notes.length > 0")
    (note,) = hidden.evaluate("window.notes")
    assert note["title"] == "Cardavia" and note["lang"] == "fr"
    assert "se clôture dans l’heure" in note["body"], note
    hidden.reload()
    expect(hidden.locator(".tournament-closing")).to_be_visible()
    assert hidden.evaluate("window.notes") == []  # told already in this session
    hidden.close()
    page.locator('li[data-deal="3"] .tournament-play').click()
    page.wait_for_url("**/play/3")
    play_on(page, moves=1)
    picture(page, "table-fr-phone")
    assert axe(page) == []
    left = page.evaluate("window.cardavia.view")

    # On a desktop, in Arabic, the same player (their cookie): deal 3 resumes where it was.
    desktop = context_of(browser, DESKTOP)
    desktop.add_cookies(phone.cookies())
    other = desktop.new_page()
    other.goto(f"{server.url}/ar/tournaments/{TOURNAMENT}")
    expect(other.locator('li[data-deal="3"]')).to_have_attribute("data-state", "playing")
    expect(other.locator('li[data-deal="2"]')).to_have_attribute("data-state", "done")
    other.locator('li[data-deal="3"] a.button-link').click()
    other.wait_for_url("**/play/3")
    other.wait_for_function(READY)
    resumed = other.evaluate("window.cardavia.view")
    assert resumed["game"] == left["game"] and resumed["step"] >= left["step"]
    back_to_tournament(other, play_on(other))
    for number in range(4, DEALS + 1):
        play_deal(other, number)
    expect(other.locator('#tournament-deals li[data-state="done"]')).to_have_count(DEALS)
    assert axe(other) == []
    picture(other, "tournament-finished-ar-desktop")

    # Closed (the player keeps a passkey by then: ranked): the ranking, their place, a deal.
    player = store.players.find(
        next(c["value"] for c in phone.cookies() if c["name"] == PLAYER_COOKIE)
    )
    assert player is not None
    keep_passkey(store, player.id, plan.opens_at)  # kept before the tournament opened
    assert close_one(store, TOURNAMENT, now=plan.closes_at + timedelta(seconds=1))
    other.reload()
    expect(other.locator("#tournament-ranking")).to_be_visible()
    expect(other.locator("#tournament-place")).to_be_visible()
    expect(other.locator("#tournament-ranking .tournament-me")).to_have_count(1)
    expect(other.locator(".tournament-seed")).to_have_count(DEALS)
    assert axe(other) == []
    picture(other, "tournament-closed-ar-desktop")
    other.locator('li[data-deal="1"] a').first.click()
    other.wait_for_url(f"**/tournaments/{TOURNAMENT}/deals/1")
    expect(other.locator("#tournament-mine")).to_be_visible()
    expect(other.locator("#tournament-margins .tournament-me")).to_have_count(1)
    assert axe(other) == []
    picture(other, "deal-ar-desktop")

    # The other sizes and languages: the same pages, resized and reloaded.
    other.set_viewport_size(PHONE)
    other.reload()
    assert axe(other) == []
    picture(other, "deal-ar-phone")
    page.goto(f"{server.url}/fr/tournaments/{TOURNAMENT}")
    page.set_viewport_size(DESKTOP)
    expect(page.locator("#tournament-ranking")).to_be_visible()
    assert axe(page) == []
    picture(page, "tournament-closed-fr-desktop")
    page.goto(f"{server.url}/fr/tournaments/{TOURNAMENT}/deals/1")
    assert axe(page) == []
    picture(page, "deal-fr-desktop")
    page.set_viewport_size(PHONE)
    page.goto(f"{server.url}/ar/tournaments")
    assert axe(page) == []
    picture(page, "list-ar-phone")
    phone.close()
    desktop.close()
    store.close()


def test_a_tournament_table_shows_no_hint_and_a_finished_deal_only_what_was_seen(
    browser: Any, server: Any
) -> None:
    """With hints on (the player's setting), a tournament table shows neither the hint button
    nor the setting (test_learn_table.py: a table of the player's own shows both); its
    finished deal offers
    no replay of the four hands, no analysis and no shuffle check until the tournament
    closes (docs/tournaments.md, "Fair play")."""
    store = GameStore(f"sqlite:///{server.database}")
    opens = datetime.now(UTC) - timedelta(minutes=1)
    plan = Planned(f"{TOURNAMENT}-fair", "short", "cardavia", 2, opens, opens + timedelta(hours=1))
    Tournaments(store, level="beginner").make(plan)
    context = context_of(browser, DESKTOP)
    context.add_init_script("localStorage.setItem('cardavia.hints', 'on')")
    page = context.new_page()
    page.goto(f"{server.url}/en/tournaments/{plan.id}")
    page.locator('li[data-deal="1"] .tournament-play').click()
    page.wait_for_url(f"**/tournaments/{plan.id}/play/1")
    page.wait_for_function(READY)
    expect(page.locator("#learn-hint")).to_be_hidden()
    expect(page.locator("#learn-hints")).to_be_hidden()
    phase = play_on(page)
    if phase == "over":
        page.wait_for_selector("#score-panel[open]")
        view = page.evaluate("window.cardavia.view")
        assert view["replay"] is None and view["fair"]["seed"] is None
        expect(page.locator("#replay-open")).to_be_hidden()
        slots = page.locator(".learn-analyse-slot")  # the result's and the replay's
        assert slots.count() >= 1
        for index in range(slots.count()):
            expect(slots.nth(index)).to_be_hidden()
        expect(page.locator("#learn-check")).to_be_hidden()
    context.close()
    store.close()
