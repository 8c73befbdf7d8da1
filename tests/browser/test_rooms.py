"""Rooms in Chromium: a room created on its page in French, joined by its link in Arabic at
phone width and in Spanish, and by its code in Polish; a whole deal and the next deal of the
match played by the four people, each seeing the table from their own seat (at the bottom,
under its real name) with the names at each seat. Then two people and two computer players:
one closes their tab mid-trick, a computer player plays for them after the grace period,
they come back and have their seat again, and the deal goes on after a server restart."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from tests.browser.conftest import READY, Server, Table, shot

from cardavia.words import load_catalogs

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "cardavia" / "web" / "templates"

Views = dict[str, Any]


@pytest.fixture
def people(browser: Browser, server: Server) -> Iterator[list[Table]]:
    tables = []
    for lang, size in (
        ("fr", (1280, 860)),
        ("ar", (360, 740)),
        ("pl", (1024, 800)),
        ("es", (1280, 800)),
    ):
        context = browser.new_context(
            bypass_csp=True,
            viewport={"width": size[0], "height": size[1]},
            reduced_motion="reduce",
            locale=lang,
        )
        context.add_init_script(
            "localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
        )
        tables.append(Table(context, server.url))
    yield tables
    for table in tables:
        table.context.close()


def ready(page: Page) -> bool:
    return bool(page.evaluate(f"({READY})()"))


def act(table: Table) -> None:
    page = table.page
    view = table.view()
    if view["phase"] == "bidding":
        table.bid()
        return
    legal = [a["card"] for a in view["legal"] if a["kind"] == "play"]
    page.click(f'#hand .card[data-card="{legal[0]}"]')
    if page.locator("#controls [data-action=confirm]").count():
        page.click("#controls [data-action=confirm]")
    page.wait_for_function(
        "(n) => window.cardavia.view.hand.length < n || window.cardavia.view.phase !== 'playing'",
        arg=len(view["hand"]),
    )


def play_deal(tables: list[Table], deal: int) -> None:
    """Each person plays when their table waits for them, until the deal is over for all."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = 0
        for table in tables:
            page = table.page
            if not ready(page):
                continue
            view = table.view()
            if view["deal_number"] < deal:
                continue
            if view["phase"] in ("over", "cancelled"):
                done += 1
                continue
            act(table)
        if done == len(tables):
            return
        time.sleep(0.05)
    raise AssertionError("the deal did not end")


def test_a_room_of_four_people_in_four_languages(people: list[Table]) -> None:
    ana, bo, cy, di = people
    page = ana.page
    page.goto(f"{ana.base}/fr/room/")
    page.fill("#rc-name", "Ana <b>")
    page.select_option("#rc-rules", "maison")
    page.select_option("#rc-target", "500")
    page.click("#room-create-button")
    page.wait_for_selector("#room-lobby:not([hidden])")
    code = page.text_content("#room-code") or ""
    link = page.input_value("#room-link")
    assert len(code) == 5 and link.endswith(f"/fr/room/{code}")
    # Bo opens the link (in Arabic), Cy types the code (in Polish).
    bo.page.goto(link.replace("/fr/", "/ar/"))
    bo.page.fill("#rj-name", "بو")
    bo.page.click("#room-join-button")
    bo.page.wait_for_selector("#room-lobby:not([hidden])")
    cy.page.goto(f"{cy.base}/pl/room/")
    cy.page.fill("#rf-code", code.lower())
    cy.page.click("#room-find button")
    cy.page.fill("#rj-name", "Cy")
    cy.page.click("#room-join-button")
    cy.page.wait_for_selector("#room-lobby:not([hidden])")
    # Cy moves to the open seat on the right of Ana (before the start).
    cy.page.click('#room-seats li[data-seat="W"] [data-seat-action="sit"]')
    page.wait_for_selector('#room-seats li[data-seat="W"][data-kind="human"]')
    di.page.goto(link.replace("/fr/", "/es/"))
    di.page.fill("#rj-name", "Di")
    di.page.click("#room-join-button")
    di.page.wait_for_selector("#room-lobby:not([hidden])")
    page.wait_for_function(
        "document.querySelectorAll('#room-seats li[data-kind=human]').length === 4"
    )
    # The name is text, never markup.
    assert "Ana <b>" in (page.text_content("#room-seats") or "")
    page.click("#room-start")
    for table in people:
        table.page.wait_for_function("window.cardavia && window.cardavia.view")
        view = table.view()
        # Every player at the bottom of their own table, under their real seat's name: the
        # server turns the table (view.screen), the page draws it so.
        seat = view["seat"]
        assert view["screen"]["bottom"] == seat
        assert table.page.get_attribute(f'.seat[data-seat="{seat}"]', "data-pos") == "bottom"
        names = table.page.locator(".seat .room-name").all_text_contents()
        assert sorted(names) == sorted(["Ana <b>", "بو", "Cy", "Di"])
    play_deal(people, 1)
    for table in people:
        assert table.view()["phase"] in ("over", "cancelled")
        # The score panel's "next deal": this person is ready.
        table.page.click("#next-deal")
    for table in people:
        table.page.wait_for_function(
            "window.cardavia.view && window.cardavia.view.deal_number === 2"
        )
    play_deal(people, 2)
    for table in people:
        assert not table.errors, table.errors


def wait_mine(table: Table, seconds: float = 60) -> dict[str, Any]:
    """Until this person must act, or the deal is over."""
    table.page.wait_for_function(f"({READY})()", timeout=seconds * 1000)
    return table.view()


def test_a_player_leaves_mid_trick_is_replaced_comes_back_and_the_server_restarts(
    browser: Browser, server: Server
) -> None:
    contexts = []
    tables = []
    for lang in ("es", "hi"):
        context = browser.new_context(bypass_csp=True, reduced_motion="reduce", locale=lang)
        context.add_init_script(
            "localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
        )
        contexts.append(context)
        tables.append(Table(context, server.url))
    ana, bo = tables
    ana.page.goto(f"{server.url}/es/room/")
    ana.page.fill("#rc-name", "Ana")
    ana.page.select_option("#rc-grace", "10")
    ana.page.click("#room-create-button")
    ana.page.wait_for_selector("#room-lobby:not([hidden])")
    code = ana.page.text_content("#room-code") or ""
    bo.page.goto(f"{server.url}/hi/room/{code}")
    bo.page.fill("#rj-name", "Bo")
    bo.page.click("#room-join-button")
    bo.page.wait_for_selector("#room-lobby:not([hidden])")
    ana.page.wait_for_function(
        "document.querySelectorAll('#room-seats li[data-kind=human]').length === 2"
    )
    ana.page.click("#room-start")
    # Play until Bo has played a card, then he closes his tab mid-trick.
    for _ in range(60):
        for table in (ana, bo):
            if ready(table.page) and table.view()["phase"] not in ("over", "cancelled"):
                act(table)
        view = ana.view() if ana.page.evaluate("!!window.cardavia.view") else None
        if view and view["phase"] == "playing" and len(view["hand"]) < 8:
            break
        time.sleep(0.1)
    bo_seat = bo.view()["seat"]
    assert bo_seat == "N" and bo.view()["screen"]["bottom"] == "N"  # at the bottom of his table
    bo.page.close()
    away = "#room-seats li[data-kind=human]:not([data-seat=S])"
    ana.page.wait_for_function(
        f"(document.querySelector('{away}')?.textContent || '').includes('ausente')"
    )
    # After the grace period a computer player plays for Bo: the deal goes on with Ana alone.
    for _ in range(200):
        view = wait_mine(ana, 60)
        if view["phase"] in ("over", "cancelled"):
            break
        act(ana)
        if len(view["hand"]) <= 5:
            break
    # Bo comes back (the same browser: his seat token is kept) and has his seat again.
    bo.page = contexts[1].new_page()
    bo.page.goto(f"{server.url}/hi/room/{code}")
    bo.page.wait_for_function("window.cardavia && window.cardavia.view")
    ana.page.wait_for_function(
        f"!(document.querySelector('{away}')?.textContent || '').includes('ausente')"
    )
    # The server restarts mid-deal: both pages reconnect and the deal goes on.
    server.stop()
    server.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        views = [t.view() for t in tables if t.page.evaluate("!!window.cardavia.view")]
        if len(views) == 2 and all(v["phase"] in ("over", "cancelled") for v in views):
            break
        for table in tables:
            if ready(table.page) and table.view()["phase"] not in ("over", "cancelled"):
                # A card sent while the page was still reconnecting is not played: again.
                with contextlib.suppress(PlaywrightTimeoutError):
                    act(table)
        time.sleep(0.1)
    else:
        raise AssertionError("the deal did not end after the restart")
    for context in contexts:
        context.close()


# -- two people at North and East: the same seat names, play again, away, a phone ----------

SPLIT_WORDS = """(selector) => {
  // Each label's text whose line breaks inside a word (a letter on one line, the next
  // letter of the same word on the next), or that is wider than its box and not shortened.
  const found = [];
  for (const label of document.querySelectorAll(selector)) {
    if (!label.getClientRects().length) continue;
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      let top = null;
      for (let i = 0; i < text.length; i += 1) {
        if (/[\\s\\-–—/]/.test(text[i])) {
          top = null;
          continue;
        }
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (!box) continue;
        if (top !== null && Math.abs(box.top - top) > box.height / 2) {
          found.push(`split: ${label.textContent}`);
          break;
        }
        top = box.top;
      }
    }
    const style = getComputedStyle(label);
    if (
      label.clientWidth > 0 &&
      label.scrollWidth > label.clientWidth + 1 &&
      style.textOverflow !== "ellipsis"
    ) {
      found.push(`overflow: ${label.textContent}`);
    }
  }
  return found;
}"""
LABELS = ", ".join(
    [
        ".seat .room-name",
        ".seat .room-away",
        ".seat .seat-name",
        ".seat .seat-name > *",
        "#room-seats li span",
    ]
)


def split_labels(page: Page) -> list[str]:
    found: list[str] = page.evaluate(SPLIT_WORDS, LABELS)
    return found


def test_two_people_at_north_and_east_see_the_same_seats_play_again_and_wait_for_the_away(
    browser: Browser, server: Server, screenshots: Path, axe: Any
) -> None:
    """Ana (French, desktop) makes a single-deal room at North; Bo (Arabic browser, phone)
    opens her French link and reads it in Arabic, and sits East. Each sees their own seat at
    the bottom and every bid of West labelled West; no label is split inside a word at
    360 px. After the deal, Ana's "Offer a new game" is offered to Bo, and dealt to both, still
    seated, once he accepts it. Then Bo's tab
    closes: Ana's table counts down to the computer player taking his seat over."""
    contexts = []
    people = []
    for lang, size in (("fr", (1280, 800)), ("ar", (360, 740))):
        context = browser.new_context(
            bypass_csp=True,
            viewport={"width": size[0], "height": size[1]},
            reduced_motion="reduce",
            locale=lang,
        )
        context.add_init_script(
            "localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
        )
        contexts.append(context)
        people.append(Table(context, server.url))
    ana, bo = people
    ana.page.goto(f"{server.url}/fr/room/")
    ana.page.fill("#rc-name", "Anastasia-Marguerite de la Tour")
    ana.page.select_option("#rc-rules", "maison")
    ana.page.select_option("#rc-target", "single")
    ana.page.select_option("#rc-grace", "30")
    ana.page.click("#room-create-button")
    ana.page.wait_for_selector("#room-lobby:not([hidden])")
    ana.page.click('#room-seats li[data-seat="N"] [data-seat-action="sit"]')
    ana.page.wait_for_selector('#room-seats li[data-seat="N"][data-kind="human"]')
    link = ana.page.input_value("#room-link")
    code = ana.page.text_content("#room-code") or ""
    assert link.endswith(f"/fr/room/{code}")
    # Bo's browser speaks Arabic: the French link opens the room in Arabic.
    bo.page.goto(link)
    assert bo.page.url.endswith(f"/ar/room/{code}")
    assert bo.page.get_attribute("html", "dir") == "rtl"
    # The join form says whose room it is, and who sits where.
    bo.page.wait_for_selector('#room-join-seats li[data-seat="N"][data-kind="human"]')
    assert "Anastasia" in (bo.page.text_content("#room-join-seats") or "")
    assert axe(bo.page) == []
    bo.page.fill("#rj-name", "بو")
    bo.page.click("#room-join-button")
    bo.page.wait_for_selector("#room-lobby:not([hidden])")
    ana.page.wait_for_selector('#room-seats li[data-seat="E"][data-kind="human"]')  # the first free
    ana.page.click("#room-start")
    # Someone else opens the link once dealt: told at once that no seat can be taken.
    late = browser.new_context(bypass_csp=True, locale="es")
    late_page = late.new_page()
    late_page.goto(link)
    assert late_page.url.endswith(f"/es/room/{code}")
    late_page.wait_for_selector("#room-join-button[disabled]")
    assert "empezó" in (late_page.text_content("#room-error") or "")
    late.close()
    for table, seat in ((ana, "N"), (bo, "E")):
        table.page.wait_for_function("window.cardavia && window.cardavia.view")
        assert table.view()["seat"] == seat
        assert table.page.get_attribute(f'.seat[data-seat="{seat}"]', "data-pos") == "bottom"
    # Every bid is labelled with its real seat, the same on both screens: West's as West
    # (the people pass, so that the computer players at South and West speak).
    names = {"fr": ana.strings()["seats"], "ar": bo.strings()["seats"]}
    assert names["fr"]["W"] == "Ouest" and names["ar"]["W"] == "الغرب"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        views = [table.view() for table in people]
        if all(len(v["bids"]) >= 4 or v["phase"] != "bidding" for v in views):
            break
        for table in people:
            if ready(table.page) and table.view()["phase"] == "bidding":
                with contextlib.suppress(PlaywrightTimeoutError):
                    table.page.click("#controls .bid-button.pass", timeout=2000)
        time.sleep(0.1)
    seen = []
    for table, lang in ((ana, "fr"), (bo, "ar")):
        table.page.wait_for_function("window.cardavia.pending === 0")
        items = table.page.locator("#bids li")
        said = [
            (items.nth(i).get_attribute("data-seat"), items.nth(i).locator(".who").text_content())
            for i in range(items.count())
        ]
        assert said and all(who == names[lang][seat] for seat, who in said), said
        seen.append([seat for seat, _ in said])
        title = table.page.text_content('.seat[data-seat="W"] .seat-title')
        assert title == names[lang]["W"]
    # The same bids in the same order (one screen may be a move ahead of the other).
    shorter, longer = sorted(seen, key=len)
    assert longer[: len(shorter)] == shorter and {"S", "W"} & set(shorter)
    # A phone, in Arabic and in French: no label split inside a word.
    shot(bo.page, str(screenshots / "room-ar-360.jpg"), full_page=True)
    assert split_labels(bo.page) == []
    ana.page.set_viewport_size({"width": 360, "height": 740})
    shot(ana.page, str(screenshots / "room-fr-360.jpg"), full_page=True)
    assert split_labels(ana.page) == []
    ana.page.set_viewport_size({"width": 1280, "height": 800})
    shot(ana.page, str(screenshots / "room-fr-1280.jpg"))
    assert axe(ana.page) == []
    assert axe(bo.page) == []
    # The deal to its end (dealt again if everybody passed), then "Play again".
    for _ in range(5):
        play_deal(people, 1)
        if ana.view()["phase"] == "over":
            break
        ana.page.click("#controls [data-action=next-deal]")
        bo.page.click("#controls [data-action=next-deal]")
        ana.page.wait_for_function("window.cardavia.view.phase !== 'cancelled'")
    first = ana.view()["game"]
    # Each reads the result from their own team's side: North–South's win is East's loss.
    won = []
    for table in people:
        table.page.wait_for_selector("#score-panel[open]")
        words = table.strings()["ui"]
        title = table.page.text_content("#score-title")
        # A single deal is won as a deal, not as "the match".
        won.append(
            True
            if title == words["you_win_deal"]
            else False
            if title == words["you_lose_deal"]
            else None
        )
    assert won in ([True, False], [False, True], [None, None]), won
    shot(bo.page, str(screenshots / "room-ar-360-over.jpg"))
    # "Offer a new game": a rematch offered to Bo in his result, dealt once he accepts.
    ana.page.click("#next-deal")
    ana.page.wait_for_function(
        "() => !document.getElementById('result-offer').hidden"
        " && !document.querySelector('#result-offer [data-offer]')"
    )
    accept = bo.page.locator("#result-offer [data-offer=accept]")
    accept.wait_for()
    assert "Ana" in (bo.page.text_content("#result-offer") or "")
    # The offer is answered in its box: no second "Offer a new game" beside it, on either side.
    assert bo.page.locator("#next-deal").is_hidden() and ana.page.locator("#next-deal").is_hidden()
    shot(bo.page, str(screenshots / "room-ar-360-offer.jpg"))
    assert axe(bo.page) == []
    assert ana.view()["game"] == first  # nothing dealt before he accepts
    accept.click()
    for table, seat in ((ana, "N"), (bo, "E")):
        table.page.wait_for_function(
            "(old) => window.cardavia.view && window.cardavia.view.game !== old", arg=first
        )
        view = table.view()
        assert view["seat"] == seat and view["phase"] in ("bidding", "playing")
        assert view["deal_number"] == 1 and len(view["hand"]) > 0
        assert table.page.evaluate(f"!!localStorage.getItem('cardavia.room.{code}')")
        assert table.page.locator("#room-join").is_hidden()
    # Bo's tab closes: on Ana's table his seat counts down to the computer player.
    bo.page.close()
    away = '.seat[data-seat="E"] .room-away'
    ana.page.wait_for_function(
        f"/ 0:[0-9][0-9]$/.test(document.querySelector('{away}')?.textContent || '')"
    )
    before = ana.page.text_content(away) or ""
    assert before.startswith("absent — un joueur ordinateur prend sa place dans 0:")
    ana.page.wait_for_function(
        f"document.querySelector('{away}').textContent !== {before!r}", timeout=3000
    )
    if ana.view()["to_move"] == "E":  # his turn: said so, not "Est réfléchit…"
        assert "Est est absent" in (ana.page.text_content("#status") or "")
    shot(ana.page, str(screenshots / "room-fr-1280-away.jpg"))
    assert axe(ana.page) == []
    for table in people:
        assert not table.errors, table.errors
    for context in contexts:
        context.close()


def room_context(browser: Browser, lang: str, size: tuple[int, int]) -> BrowserContext:
    context = browser.new_context(
        bypass_csp=True,
        viewport={"width": size[0], "height": size[1]},
        reduced_motion="reduce",
        locale=lang,
    )
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));")
    return context


OVERLAPS = """() => {
  const hit = (r, q) =>
    r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom;
  const bubbles = [...document.querySelectorAll('.seat .bubble:not([hidden])')];
  const names = [...document.querySelectorAll('.seat-name, .seat .room-name')];
  const seatOf = (node) => node.closest('.seat').dataset.seat;
  const found = [];
  for (const bubble of bubbles) {
    const r = bubble.getBoundingClientRect();
    for (const name of names) {
      if (hit(r, name.getBoundingClientRect())) {
        found.push(`${seatOf(bubble)} covers ${seatOf(name)}'s name`);
      }
    }
    for (const other of bubbles) {
      if (other !== bubble && hit(r, other.getBoundingClientRect())) {
        found.push(`${seatOf(bubble)} covers ${seatOf(other)}'s bubble`);
      }
    }
  }
  return found;
}"""


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_the_room_page_offline_the_hints_where_seated_and_the_phrases_line(
    browser: Browser, server: Server, screenshots: Path, lang: str
) -> None:
    """Offline, the room page greys its create, open and join buttons and says why (the
    page's offline note), and gives them back online. The hints setting shows only at a
    table where the player has a seat, never on the pages that create or join a room. At
    360 px, with the taker's mark shown, no seat's bubble covers a seat's name (its own or
    another's) nor another bubble, at all four seats. A quick phrase reads "Name: phrase" as
    the language writes it (French: a no-break space before the colon)."""
    ana_context = room_context(browser, lang, (360, 740))
    bo_context = room_context(browser, lang, (1280, 800))
    ana, bo = Table(ana_context, server.url), Table(bo_context, server.url)
    try:
        page = ana.page
        page.goto(f"{server.url}/{lang}/room/")
        buttons = ("#room-create-button", "#room-find-button")
        for button in buttons:
            assert page.is_enabled(button)
        page.wait_for_selector("#learn-hints", state="attached")
        assert not page.locator("#learn-hints").is_visible()  # no seat yet: no hints
        ana_context.set_offline(True)
        page.locator("#offline-note").wait_for(state="visible")
        for button in buttons:
            page.wait_for_function(f"document.querySelector('{button}').disabled")
            assert page.get_attribute(button, "aria-describedby") == "offline-note"
        shot(page, str(screenshots / f"room-{lang}-360-offline.jpg"))
        ana_context.set_offline(False)
        page.locator("#offline-note").wait_for(state="hidden")
        for button in buttons:
            page.wait_for_function(f"!document.querySelector('{button}').disabled")
        page.fill("#rc-name", "Ana")
        page.select_option("#rc-target", "single")
        page.click("#room-create-button")
        page.wait_for_selector("#room-lobby:not([hidden])")
        page.click('#room-seats li[data-seat="W"] [data-seat-action="sit"]')
        page.wait_for_selector('#room-seats li[data-seat="W"][data-kind="human"]')
        link = page.input_value("#room-link")
        # Bo opens the link: the join form, without the hints; offline, no joining.
        bo.page.goto(link)
        bo.page.wait_for_selector("#room-join:not([hidden])")
        bo.page.wait_for_selector("#learn-hints", state="attached")
        assert not bo.page.locator("#learn-hints").is_visible()
        bo_context.set_offline(True)
        bo.page.wait_for_function("document.querySelector('#room-join-button').disabled")
        assert bo.page.locator("#offline-note").is_visible()
        bo_context.set_offline(False)
        bo.page.wait_for_function("!document.querySelector('#room-join-button').disabled")
        bo.page.fill("#rj-name", "Bo")
        bo.page.click("#room-join-button")
        bo.page.wait_for_selector("#room-lobby:not([hidden])")
        # Seated, the hints setting is there.
        bo.page.wait_for_function("document.getElementById('learn-hints')?.checkVisibility()")
        # A phrase, as the language joins a name and what it says.
        bo.page.click('#room-phrases [data-phrase="hello"]')
        words = json.loads(page.text_content("#room-strings") or "{}")
        said = words["said"].replace("{name}", "Bo").replace("{text}", words["phrases"]["hello"])
        page.wait_for_function("document.getElementById('room-said').textContent.length > 0")
        assert page.text_content("#room-said") == said
        if lang == "fr":
            assert said == "Bo\u00a0: Bonjour\u00a0!"
        # The deal to its play: the taker's mark is shown; every seat's bubble said at once.
        page.click("#room-start")
        for table in (ana, bo):
            table.page.wait_for_function("window.cardavia && window.cardavia.view")
        play_deal_until_playing([ana, bo])
        page.wait_for_selector(".seat .taker-chip")
        for text in ("Prendre : trèfle", "Tierce (20) · Belote !", "Cinquante (50)", "Passe"):
            page.evaluate(
                """(text) => { for (const b of document.querySelectorAll('.seat .bubble')) {
                  b.hidden = false; b.textContent = text; } }""",
                text,
            )
            assert page.evaluate(OVERLAPS) == [], text
            # A side seat's bubble grows inwards: never past the screen's edge.
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, text
        shot(page, str(screenshots / f"room-{lang}-360-bubbles.jpg"))
        assert ana.errors == [] and bo.errors == []
    finally:
        ana_context.close()
        bo_context.close()


def play_deal_until_playing(tables: list[Table]) -> None:
    """Each person bids when their table waits for them, until the cards are played."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for table in tables:
            if not ready(table.page):
                continue
            view = table.view()
            if view["phase"] == "playing":
                return
            if view["phase"] == "cancelled":
                table.page.click("#controls [data-action=next-deal]")
                table.page.wait_for_function("window.cardavia.view.phase !== 'cancelled'")
            elif view["phase"] == "bidding" and view["to_move"] == view["seat"]:
                table.bid()
        time.sleep(0.05)
    raise AssertionError("the bidding did not end")


def test_french_puts_a_no_break_space_before_high_punctuation_on_the_table_and_room_pages() -> None:
    """Every French string of the table's and the rooms' pages, those that join a name and a
    phrase or a label and a value included, keeps its ":", ";", "!" and "?" on the line of
    the word before: a no-break space, never a plain one (nor none)."""
    wording = load_catalogs().wording("fr")
    ids: set[str] = set()
    for name in ("table.html", "room.html"):
        source = (TEMPLATES / name).read_text(encoding="utf-8")
        ids |= set(re.findall(r'_\("((?:[^"\\]|\\.)*)"\)', source))
        ids |= set(re.findall(r"_\('((?:[^'\\]|\\.)*)'\)", source))
    assert {"{name}: {text}", "{label}: {value}", "{seat}: {name}", "Hello!"} <= ids
    wrong = [
        french
        for french in map(wording.gettext, sorted(ids))
        if re.search(r"(?:[^\u00a0\u202f] |[^\s\u00a0\u202f])[:;!?]", french)
    ]
    assert wrong == []
