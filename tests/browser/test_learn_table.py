"""Learning at the table in a real browser against the real server (learn.js): analyse a
finished deal in French and Arabic, open a moment and replay its better line with every
hand shown, check the shuffle in the browser (and catch a tampered deck), turn hints on and
take one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser
TIMEOUT_MS = 30_000

# Play South's first legal action at every turn, on a connection of the test's own, until
# a deal after deal ``after`` is over; a deal everybody passed is dealt again.
PLAY_OUT = """async ({game, token, after}) => new Promise((resolve, reject) => {
  const ws = new WebSocket(`ws://${location.host}/ws/games/${game}?token=${token}&lang=en`);
  let acted = -1, dealt = false;
  setTimeout(() => reject(new Error("the deal did not end")), 60000);
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "state") return;
    const v = message.view;
    if (v.phase === "over" && v.deal_number <= after) {
      if (!dealt) ws.send(JSON.stringify({type: "next_deal"}));
      dealt = true;
      return;
    }
    if (v.phase === "over") { ws.close(); resolve(v); return; }
    if (v.phase === "cancelled") { ws.send(JSON.stringify({type: "next_deal"})); return; }
    if (v.to_move === v.seat && v.legal.length && acted !== v.step) {
      acted = v.step;
      ws.send(JSON.stringify({type: "action", action: v.legal[0]}));
    }
  };
})"""

DEAL_OVER = "(n) => window.cardavia.view.phase === 'over' && window.cardavia.view.deal_number === n"


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    context.add_init_script(
        "if (!localStorage.getItem('cardavia.settings'))"
        " localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
    )
    yield context
    context.close()


def open_game(context: BrowserContext, server: Server, lang: str) -> tuple[Page, dict[str, Any]]:
    """A new game (maison: a match), created through the API and opened by the table page."""
    response = context.request.post(
        f"{server.url}/api/games", data={"rules": "maison", "level": "beginner", "lang": lang}
    )
    assert response.status == 201
    game = response.json()
    stored = {"game": game["game"], "token": game["token"], "deck": "french", "rules": "maison"}
    context.add_init_script(
        f"localStorage.setItem('cardavia.game', {json.dumps(json.dumps(stored))});"
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/{lang}/")
    page.wait_for_function("() => window.cardavia && window.cardavia.view")
    page.wait_for_selector("#learn", state="attached")
    return page, game | {"errors": errors}


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_analyse_a_finished_deal(context: BrowserContext, server: Server, lang: str) -> None:
    page, game = open_game(context, server, lang)
    dialog = page.locator("#learn-analysis")
    view: dict[str, Any] = {"deal_number": 0}
    for _ in range(4):  # a deal whose cards all cost nothing has no moment: play another
        view = page.evaluate(PLAY_OUT, game | {"after": view["deal_number"]})
        page.wait_for_function(DEAL_OVER, arg=view["deal_number"])
        # The end-of-deal dialog has its "Analyse" button (and so has the replay).
        page.wait_for_selector("#score-panel[open]")
        analyse = page.locator("#learn-analyse-score")
        analyse.wait_for(state="visible")
        assert page.locator("#learn-analyse-replay").count() == 1
        analyse.click()
        page.wait_for_selector(
            f"#learn-analysis[data-state='ready'][data-deal='{view['deal_number']}']"
        )
        if dialog.locator(".learn-moment").count():
            break
        page.locator(".learn-close").click()
        page.locator("#score-close").click()
    assert dialog.get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
    assert dialog.locator(".learn-cards tbody tr").count() == 32
    words = page.evaluate("() => window.cardaviaLearn.analysis.labels")
    assert dialog.locator("h2").inner_text() == words["analysis"]
    assert words["analysis"] != "Analysis of the deal"
    moments = dialog.locator(".learn-moment")
    assert moments.count() >= 1
    # A moment's better line, replayed with every hand shown.
    moments.first.locator(".learn-replay").click()
    board = dialog.locator(".learn-board")
    page.wait_for_selector(".learn-board[data-done='true']")
    analysis = page.evaluate("() => window.cardaviaLearn.analysis")
    moment = analysis["moments"][0]
    assert int(board.get_attribute("data-step") or 0) == len(moment["line"])
    shown = board.locator(".learn-hand .card").count() + board.locator(".learn-trick .card").count()
    played_before = sum(1 for c in analysis["cards"] if c["number"] < moment["number"])
    remaining = 32 - played_before - len(moment["line"])
    trick_cards = board.locator(".learn-trick .card").count()
    assert board.locator(".learn-hand .card").count() == remaining
    assert 1 <= trick_cards <= 4 and shown == remaining + trick_cards
    assert board.locator(".learn-hand").count() == 4
    page.locator(".learn-close").click()
    if page.locator("#score-panel[open]").count():
        page.locator("#score-close").click()
    # The shuffle, checked here in the browser.
    page.locator("#learn-check").click()
    page.wait_for_selector("#learn-fair[data-ok]")
    assert page.locator("#learn-fair").get_attribute("data-ok") == "true"
    assert page.locator("#learn-fair").inner_text() == words["shuffle_ok"]
    tampered = page.evaluate(
        """async (fair) => {
          const { checkDeal } = await import("/static/js/fair.js");
          const deck = [...fair.deck.slice(1), fair.deck[0]];
          const other = (fair.seed[0] === "0" ? "1" : "0") + fair.seed.slice(1);
          return [(await checkDeal(fair.seed, fair.hash, deck)).problem,
                  (await checkDeal(other, fair.hash, fair.deck)).problem,
                  (await checkDeal(fair.seed, fair.hash, fair.deck)).ok];
        }""",
        view["fair"],
    )
    assert tampered == ["deck_mismatch", "seed_mismatch", True]
    assert not game["errors"]


def test_turn_hints_on_and_take_one(context: BrowserContext, server: Server) -> None:
    page, game = open_game(context, server, "es")
    page.wait_for_function(
        "() => { const v = window.cardavia.view; return v.to_move === v.seat && v.legal.length; }"
    )
    hint = page.locator("#learn-hint")
    assert not hint.is_visible()  # off by default
    page.locator("#learn-hints").check()
    hint.wait_for(state="visible")
    hint.click()
    text = page.locator("#learn-hint-text")
    page.wait_for_function("() => document.getElementById('learn-hint-text').textContent")
    view = page.evaluate("window.cardavia.view")
    card = text.get_attribute("data-card")
    if card:
        assert {"kind": "play", "card": card} in [
            {k: a[k] for k in ("kind", "card")} for a in view["legal"] if a["kind"] == "play"
        ]
    assert "—" in text.inner_text()
    assert page.evaluate("localStorage.getItem('cardavia.hints')") == "on"
    assert not game["errors"]
