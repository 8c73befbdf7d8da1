"""Learning at the table in a real browser against the real server (learn.js): analyse a
finished deal in French and Arabic, open a moment and replay its better line with every
hand shown, check the shuffle in the browser (and catch a tampered deck), turn hints on and
take one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from tests.browser.conftest import shot

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


VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}


def analysed_deal(page: Page, game: dict[str, Any]) -> dict[str, Any]:
    """Play deals until one has a moment (a card that cost something), open its analysis."""
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
        if dialog.locator(".learn-moment[data-moment]").count():
            break
        page.locator(".learn-close").click()
        page.locator("#score-close").click()
    return view


def says_the_figure(text: str, figure: int, lang: str) -> bool:
    """The sentence gives the figure: in digits, or as Arabic writes one point and two (the
    noun's singular with "one", and its dual: no digit at all)."""
    if lang == "ar" and figure in (1, 2):
        return ("نقطة واحدة", "نقطتين")[figure - 1] in text
    return str(figure) in text


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_analyse_a_finished_deal(
    browser: Browser, server: Server, axe: Any, screenshots: Path, lang: str, size: str
) -> None:
    context = browser.new_context(
        viewport=VIEWPORTS[size], reduced_motion="reduce", bypass_csp=True
    )
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));")
    page, game = open_game(context, server, lang)
    view = analysed_deal(page, game)
    dialog = page.locator("#learn-analysis")
    analysis = page.evaluate("() => window.cardaviaLearn.analysis")
    words = analysis["labels"]
    assert dialog.get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
    assert dialog.locator("h2").inner_text() == words["analysis"]
    assert words["analysis"] != "Analysis of the deal"
    # The close button says what it does (not "×").
    close = page.get_by_role("button", name=words["close"], exact=True)
    assert close.count() == 1 and words["close"] not in ("×", "Close the analysis")
    # 11: the player's own cards first, then the partner's, then the opponents'.
    groups = dialog.locator(".learn-group")
    assert [groups.nth(i).get_attribute("data-group") for i in range(3)] == [
        "mine", "partner", "opponents",
    ]  # fmt: skip
    assert groups.first.locator("h3").inner_text() == words["your_cards"]
    for index in range(3):
        group = groups.nth(index)
        # A side with no notable card says so (never an empty heading).
        assert group.locator(".learn-moment").count() or group.locator(".learn-none").count()
        verdicts = group.locator(".learn-moment").evaluate_all(
            "items => items.map(i => i.dataset.verdict)"
        )
        order = ["mistake", "bad_luck", "unclear"]
        assert verdicts == sorted(verdicts, key=order.index)  # mistakes, then bad luck
        for item in group.locator(".learn-moment").all():
            assert item.locator(".learn-why").inner_text()  # the one sentence that explains it
    # 6: tricks from 1, in the list and the table.
    assert min(c["trick"] for c in analysis["cards"]) == 1
    dialog.locator(".learn-all > summary").click()
    rows = dialog.locator(".learn-cards tbody tr")
    assert rows.count() == 32
    assert rows.first.locator("td").first.inner_text() == "1"
    assert rows.last.locator("td").first.inner_text() == "8"
    # 7: the unit said once; one cost column; one figure a card, the same in the list; every
    # figure within what the deal could be worth.
    assert dialog.locator(".learn-unit").inner_text() == words["cost_explained"]
    heads = dialog.locator(".learn-cards thead th").all_inner_texts()
    assert heads == [words["trick"], words["player"], words["card"], words["verdict"],
                     words["points_lost"]]  # fmt: skip
    assert all(0 <= c["lost"] <= analysis["worth"] for c in analysis["cards"])
    for moment in analysis["moments"]:
        card = next(c for c in analysis["cards"] if c["number"] == moment["number"])
        item = dialog.locator(f".learn-moment[data-number='{moment['number']}']")
        assert item.locator(".learn-why").inner_text() == card["text"] == moment["why"]
        if card["verdict"] in ("mistake", "bad_luck"):
            assert says_the_figure(card["text"], card["lost"], lang)
        row = dialog.locator(f".learn-cards tr[data-number='{moment['number']}'] td.num").last
        assert row.inner_text() == f"−{card['lost']}"
    # 8: the table's card faces at a readable size, and each card named in words.
    faces = dialog.locator(".learn-moment .card").evaluate_all(
        "cards => cards.map(c => c.getBoundingClientRect().width)"
    )
    assert faces and min(faces) >= 36
    names = dialog.locator(".learn-moment .learn-card-name").all_inner_texts()
    assert names and all(n in [c["name"] for c in analysis["cards"]] for n in names)
    # 9: every column of the contracts table has a heading; bids apart from card points.
    contracts = dialog.locator(".learn-contracts")
    columns = contracts.locator("thead th").all_inner_texts()
    assert all(h.strip() for h in columns)
    assert words["card_points"] in columns
    # The highest bid a contract makes has its own column, at auction tables only.
    with_bids = any(c["bid"] is not None for c in analysis["contracts"])
    assert (words["highest_bid"] in columns) == with_bids
    assert contracts.locator("tbody tr").first.locator("td").count() == len(columns)
    assert contracts.locator("thead td").count() == 0
    # On a phone nothing is wider than the screen: the tables scroll inside the dialog.
    width = page.evaluate("() => document.documentElement.clientWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth + 1")
    # 10: a moment's better line on a felt: seats labelled, previous / next / play.
    item = dialog.locator(".learn-moment[data-moment]").first
    index = int(item.get_attribute("data-moment") or 0)
    moment = analysis["moments"][index]
    item.locator(".learn-replay").click()
    board = item.locator(".learn-board")
    board.wait_for()
    play = board.locator(".learn-play")
    assert play.get_attribute("aria-pressed") == "true"  # it plays by itself…
    play.click()  # …until paused
    assert play.get_attribute("aria-pressed") == "false"
    hands = board.locator(".learn-hand")
    assert hands.count() == 4
    seats = {words[f"seat_{s}"] for s in "NESW"}
    assert set(hands.locator(".learn-seat").all_inner_texts()) == seats
    assert (
        board.locator(".learn-hand[data-place='bottom']").get_attribute("data-seat") == view["seat"]
    )
    nxt, prev = board.locator(".learn-next"), board.locator(".learn-prev")
    while nxt.is_enabled():
        nxt.click()
    assert board.get_attribute("data-done") == "true"
    assert int(board.get_attribute("data-step") or 0) == len(moment["line"])
    played_before = sum(1 for c in analysis["cards"] if c["number"] < moment["number"])
    remaining = 32 - played_before - len(moment["line"])
    trick_cards = board.locator(".learn-trick .card").count()
    assert board.locator(".learn-hand .card").count() == remaining
    assert 1 <= trick_cards <= 4
    # A card of the trick is named with its seat as the language joins them ("Ouest : …").
    before_card = words["seat_card"].split("{card}")[0]
    said = board.locator(".learn-trick .card").first.get_attribute("aria-label") or ""
    assert any(said.startswith(before_card.replace("{seat}", seat)) for seat in seats), said
    assert "\u00a0:" in said if lang == "fr" else ":" in said
    prev.click()
    assert int(board.get_attribute("data-step") or 0) == len(moment["line"]) - 1
    assert board.locator(".learn-counter").inner_text()
    assert axe(page) == []
    shot(page, screenshots / f"analysis-{lang}-{size}.jpg")
    close.click()
    if page.locator("#score-panel[open]").count():
        page.locator("#score-close").click()
    assert not game["errors"]
    context.close()


def test_check_the_shuffle(context: BrowserContext, server: Server) -> None:
    page, game = open_game(context, server, "fr")
    view = page.evaluate(PLAY_OUT, game | {"after": 0})
    page.wait_for_function(DEAL_OVER, arg=view["deal_number"])
    words = page.evaluate("async () => (await fetch('/api/learn/words?lang=fr')).json()")
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


HINT_SIZES = {"desktop": (1280, 800), "tablet": (768, 1024), "phone": (360, 740)}


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_the_hint_is_by_the_bid_buttons_with_a_reason(
    browser: Browser, server: Server, axe: Any, lang: str
) -> None:
    """One hint, asked at the desktop's size, then seen at each size (the window resized, as
    a tablet turned or a window narrowed): always right below the controls, on the screen."""
    width, height = HINT_SIZES["desktop"]
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    context.add_init_script(
        "localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
        "localStorage.setItem('cardavia.hints', 'on');"
    )
    page, game = open_game(context, server, lang)
    page.wait_for_function(
        "() => { const v = window.cardavia.view; return v.to_move === v.seat && v.legal.length; }"
    )
    page.locator("#learn-hint").click()
    page.wait_for_function("() => document.getElementById('learn-hint-text').textContent")
    text = page.locator("#learn-hint-text")
    # Right below the bid buttons (or the hand's confirm), inside the screen, above the
    # side panels (the contract, the bids, the score sheet) on a phone.
    assert page.evaluate("document.getElementById('learn-hint-box').previousElementSibling.id") == (
        "controls"
    )
    for size, (width, height) in HINT_SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        text.scroll_into_view_if_needed()
        box = text.bounding_box()
        controls = page.locator("#controls").bounding_box()
        info = page.locator("#info").bounding_box()
        assert box is not None and controls is not None and info is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, size
        assert 0 <= box["y"] - (controls["y"] + controls["height"]) < 120, size
        if size == "phone":
            assert box["y"] < info["y"]
        assert axe(page) == [], size
    # The suggested bid's button is marked (pass, take and coinche are always on show).
    action = page.evaluate("() => window.cardaviaLearn.hintAction")
    if action["kind"] in ("pass", "take", "coinche"):
        marked = page.locator("#controls .bid-button[data-hinted='true']")
        page.wait_for_function(
            "() => document.querySelectorAll(\"#controls .bid-button[data-hinted='true']\").length"
        )
        assert marked.count() == 1 and marked.get_attribute("data-kind") == action["kind"]
    # A reason a player can learn from, not "passing pays most".
    words = text.inner_text()
    for dull in ("rapporte le plus.", "يربح أكثر."):
        assert not words.endswith(dull)
    if not text.get_attribute("data-card"):  # a bid: what the simulation found, in a sentence
        assert len(words.split("—", 1)[1].split()) >= 12
    assert not game["errors"]
    context.close()


def test_the_trick_review_numbers_tricks_in_the_deal_after_a_reload(
    context: BrowserContext, server: Server
) -> None:
    page, game = open_game(context, server, "fr")
    # Two tricks played on a connection of the test's own, then the page reloaded.
    page.evaluate(
        """async ({game, token}) => new Promise((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/ws/games/${game}?token=${token}&lang=fr`);
          let acted = -1;
          ws.onmessage = (event) => {
            const m = JSON.parse(event.data);
            if (m.type !== "state") return;
            const v = m.view, won = (v.tricks_won?.NS ?? 0) + (v.tricks_won?.EW ?? 0);
            if (won >= 2 || v.phase === "over") { ws.close(); resolve(won); return; }
            if (v.phase === "cancelled") { ws.send(JSON.stringify({type: "next_deal"})); return; }
            if (v.to_move === v.seat && v.legal.length && acted !== v.step) {
              acted = v.step;
              ws.send(JSON.stringify({type: "action", action: v.legal[0]}));
            }
          };
        })""",
        game,
    )
    page.reload()
    page.wait_for_function("() => window.cardavia && window.cardavia.view")
    done = page.evaluate("() => { const w = window.cardavia.view.tricks_won; return w.NS + w.EW; }")
    assert done >= 2
    page.locator("#last-trick-toggle").click()
    shown = page.locator("#trick-n").inner_text()
    strings = json.loads(page.text_content("#strings") or "{}")
    expected = strings["ui"]["trick_n"].replace("{n}", str(done)).replace("{total}", str(done))
    assert shown == expected and shown.startswith("Pli ")
    assert not game["errors"]
