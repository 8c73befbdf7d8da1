"""axe-core (from npm, tests/browser/package.json) in Chromium: no violation on the table
while bidding, while playing and at the end of the deal, nor on any rules page, in the six
languages. The experimental check that a name contains the visible label is on. And nothing
that moves for ever (WCAG 2.2.2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

LANGUAGES = ("fr", "en", "ar", "pl", "hi", "es")
RULES_PAGES = (
    "",
    "cardavia",
    "maison",
    "coinche",
    "maghreb",
    "legal-cards",
    "announcements",
    "scoring",
)

Axe = Callable[[Page], list[str]]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_has_no_axe_violation(table: Table, axe: Axe, lang: str) -> None:
    """The form, the bidding, the play (a card picked, the confirm bar open) and the end of
    the deal with its result dialog."""
    page = table.open(lang)
    found = {"form": axe(page)}
    table.new_game("coinche" if lang in ("fr", "ar") else "maison")
    found["bidding"] = axe(page)
    view = table.bid_until_play()
    if view["phase"] == "playing":
        card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
        page.click(f'#hand .card[data-card="{card}"]')
        found["playing"] = axe(page)
        page.click("#controls [data-action=confirm]")
        page.wait_for_function("(c) => !window.cardavia.view.hand.includes(c)", arg=card)
    table.play_deal()
    page.locator("#score-panel").wait_for(state="visible")
    found["over"] = axe(page)
    assert {moment: v for moment, v in found.items() if v} == {}
    assert table.errors == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_pages_have_no_axe_violation(table: Table, axe: Axe, lang: str) -> None:
    page = table.page
    found = {}
    for name in RULES_PAGES:
        page.goto(f"{table.base}/{lang}/rules/{name}")
        found[name] = axe(page)
    assert {name: v for name, v in found.items() if v} == {}


# The page's running animations: each one's name and how many times it plays.
ANIMATIONS = """() => document.getAnimations().filter((a) => a.playState === "running")
  .map((a) => [a.animationName ?? "", a.effect.getTiming().iterations])"""

INTERVALS = """
window.cardaviaIntervals = new Map();
const setEvery = window.setInterval;
const clearEvery = window.clearInterval;
window.setInterval = (work, ms, ...rest) => {
  const id = setEvery(work, ms, ...rest);
  window.cardaviaIntervals.set(id, ms);
  return id;
};
window.clearInterval = (id) => {
  window.cardaviaIntervals.delete(id);
  clearEvery(id);
};
const setLater = window.setTimeout;
const clearLater = window.clearTimeout;
window.setTimeout = (work, ms, ...rest) => {
  if (!(ms >= 10_000) || typeof work !== "function") return setLater(work, ms, ...rest);
  const id = setLater((...given) => {
    window.cardaviaIntervals.delete(id);
    work(...given);
  }, ms, ...rest);
  window.cardaviaIntervals.set(id, ms);
  return id;
};
window.clearTimeout = (id) => {
  window.cardaviaIntervals.delete(id);
  clearLater(id);
};"""
"""The page's timers that repeat, and those set for ten seconds or more (a countdown's next
minute) until they run: by id (their delay in ms), as the page sets and clears them."""


def test_nothing_moves_for_ever_while_the_table_waits(
    browser: Browser, server: Server, make_table: type[Table]
) -> None:
    """WCAG 2.2.2 (pause, stop, hide): with motion allowed, what moves as the player's turn
    comes (the dot by the name of the seat to move) stops by itself within five seconds,
    and a table waiting for its player then draws nothing, nor keeps a timer that wakes the
    page (the learning bar once looked at the table four times a second; the home's
    tournament countdowns, hidden with the home, go on only while it is shown)."""
    context = browser.new_context(bypass_csp=True, reduced_motion="no-preference")
    context.add_init_script(INTERVALS)
    table = make_table(context, server.url)
    try:
        page = table.open("fr")
        table.new_game("cardavia")
        table.wait_ready()
        running = page.evaluate(ANIMATIONS)
        assert all(times != float("inf") for _name, times in running), running
        page.wait_for_function(f"() => ({ANIMATIONS})().length === 0", timeout=5_000)
        assert page.evaluate("[...window.cardaviaIntervals.values()]") == []
        assert table.errors == []
    finally:
        context.close()
