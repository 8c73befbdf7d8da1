"""A hidden page told of its turn (issue 40, item 3): with the setting "Tell me when it is my
turn while the page is hidden" on and the browser's permission granted, the table shows a
system notification (in the page's language: the turn's sentence) when the player's turn
comes while the page is hidden, and none while it is in view; a browser that refuses the
permission leaves the setting off and says where to allow it. French on a desktop, Arabic
on a phone; axe-core finds nothing wrong in the settings.

Headless Chromium has no background tab (every page it drives is in view): the page is
hidden the way a browser hides it, ``document.hidden`` and ``visibilityState`` turned to
hidden and the ``visibilitychange`` event sent. The notifications are counted by a wrapper
around the browser's own ``Notification``, which still shows each one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.conftest import COUNTED_NOTIFICATIONS

from cardavia.words import load_catalogs

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 860), "phone": (360, 740)}
LABEL = "Tell me when it is my turn while the page is hidden"
DENIED = (
    "This browser does not let the site notify you: allow its notifications in the "
    "browser's settings."
)

COUNTED = (
    COUNTED_NOTIFICATIONS
    + """
localStorage.setItem("cardavia.settings", JSON.stringify({ pace: 0 }));
"""
)

HIDE = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

MY_TURN = """() => {
  const v = window.cardavia && window.cardavia.view;
  return Boolean(v && v.to_move === v.seat && v.legal.length > 0 && !window.cardavia.pending);
}"""


@pytest.mark.parametrize(("lang", "size"), [("fr", "desktop"), ("ar", "phone")])
def test_a_hidden_page_is_notified_of_its_turn(
    browser: Browser, server: Server, axe: Any, lang: str, size: str
) -> None:
    width, height = SIZES[size]
    wording = load_catalogs().wording(lang)
    context = browser.new_context(
        bypass_csp=True,
        viewport={"width": width, "height": height},
        reduced_motion="reduce",
        permissions=["notifications"],
    )
    context.add_init_script(COUNTED)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/{lang}/")
        page.click("#settings-panel > summary")
        box = page.get_by_role("checkbox", name=wording.gettext(LABEL))
        expect(box).not_to_be_checked()
        box.check()
        expect(box).to_be_checked()
        assert page.evaluate("JSON.parse(localStorage.getItem('cardavia.settings')).notify")
        assert axe(page) == []
        page.click("#settings-panel > summary")
        strings = page.evaluate("JSON.parse(document.getElementById('strings').textContent)")
        ui: dict[str, str] = strings["ui"]
        turn = {ui["your_turn_bid"], ui["your_turn_play"]}

        # In view: the turn comes, and no notification.
        page.get_by_role("button", name=wording.gettext("Deal the cards"), exact=True).click()
        page.wait_for_function(MY_TURN)
        assert page.evaluate("window.notes") == []

        # Hidden: the next turn is notified, in the page's language.
        page.evaluate(HIDE)
        view = page.evaluate("window.cardavia.view")
        action = view["legal"][0]
        if view["phase"] == "bidding":
            page.locator("#controls .bid-button").first.click()
        else:
            page.click(f'#hand .card[data-card="{action["card"]}"]')
            if page.locator("#controls [data-action=confirm]").count():
                page.click("#controls [data-action=confirm]")
        # South took (the first offer) or played: the deal goes on to South's next turn.
        page.wait_for_function("window.notes.length > 0")
        notes = page.evaluate("window.notes")
        assert notes[0]["title"] == "Cardavia"
        assert notes[0]["body"] in turn, notes
        assert notes[0]["lang"] == lang
    finally:
        context.close()


def test_a_refused_permission_leaves_the_setting_off_and_says_so(
    browser: Browser, server: Server
) -> None:
    """No permission granted: headless Chromium answers the request with a refusal, as a
    player who says no does."""
    wording = load_catalogs().wording("fr")
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/fr/")
        page.click("#settings-panel > summary")
        box = page.get_by_role("checkbox", name=wording.gettext(LABEL))
        box.click()
        expect(page.locator("#set-notify-status")).to_have_text(wording.gettext(DENIED))
        expect(box).not_to_be_checked()
        settings = page.evaluate("JSON.parse(localStorage.getItem('cardavia.settings') || '{}')")
        assert not settings.get("notify")
    finally:
        context.close()
