"""A guest's first finished deal at the solo table offers, once, to keep their player (issue
37, item 3; static/js/keep_player.js): in French on a desktop and in Arabic on a phone, the
offer is in the result dialog with its way to the profile's passkeys and its "No, thanks";
the next deal's result, and the table's page opened again, make it no more, whether it was
declined or left alone; axe-core at zero with the offer shown, screenshots kept."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.conftest import axe_violations, shot

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
DECLINED = {"fr": "Non merci", "ar": "لا، شكرًا"}


@pytest.mark.parametrize(
    ("lang", "viewport", "decline"), [("fr", DESKTOP, True), ("ar", PHONE, False)]
)
def test_a_guests_first_result_offers_a_passkey_once(
    browser: Browser,
    server: Server,
    make_table: type[Table],
    screenshots: Path,
    lang: str,
    viewport: dict[str, int],
    decline: bool,
) -> None:
    context = browser.new_context(bypass_csp=True, viewport=viewport, reduced_motion="reduce")
    context.add_init_script(
        "if (!localStorage.getItem('cardavia.settings'))"
        " localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}))"
    )
    size = "phone" if viewport is PHONE else "desktop"
    try:
        table = make_table(context, server.url)
        page = table.open(lang)
        table.new_game()
        table.play_deal()
        dialog = page.locator("#score-panel")
        expect(dialog).to_be_visible()
        offer = dialog.locator("#keep-player")
        expect(offer).to_be_visible()
        add = offer.locator("#keep-player-add")
        assert add.get_attribute("href") == f"/{lang}/me#profile-identity"
        expect(offer.locator("#keep-player-dismiss")).to_have_text(DECLINED[lang])
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_violations(page) == []
        shot(page, screenshots / f"keep-player-offer-{lang}-{size}.jpg")
        if decline:
            offer.locator("#keep-player-dismiss").click()
            expect(offer).to_have_count(0)
            assert page.evaluate("document.activeElement.closest('#score-panel') !== null")
            assert page.evaluate("localStorage.getItem('cardavia.keepPlayer')") == "declined"
        else:
            assert page.evaluate("localStorage.getItem('cardavia.keepPlayer')") == "offered"
        # The next deal's result is the table's own.
        page.click("#next-deal")
        page.wait_for_function("window.cardavia.view.phase !== 'over'")
        table.play_deal()
        expect(dialog).to_be_visible()
        expect(dialog.locator("#keep-player")).to_have_count(0)
        # Nor on the next visit: the game forgotten, a new one played to its end.
        page.evaluate("localStorage.removeItem('cardavia.game')")
        table.open(lang)
        table.new_game()
        table.play_deal()
        expect(dialog).to_be_visible()
        expect(dialog.locator("#keep-player")).to_have_count(0)
        assert table.errors == []
    finally:
        context.close()
