"""A shared deal as a stranger meets it (issue 37, item 4), in French on a phone and in Arabic
on a desktop: the link previews (Open Graph and Twitter card tags, the picture answered, HEAD
too), the diagram replays trick by trick, "play this deal" is played to its end from the
sharer's seat, and the stranger's result stands beside the sharer's; axe-core finds nothing.
And a tournament deal's link while the tournament is open: a page that says until when.
Screenshots: shared-deal-*.jpg and tournament-deal-*.jpg in artefacts/screenshots/."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.conftest import shot
from tests.browser.test_tournaments import context_of, play_on

from cardavia.store.db import GameStore
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
FAST = (
    "if (!localStorage.getItem('cardavia.settings'))"
    " localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
)


@pytest.mark.parametrize(
    ("lang", "size", "name"), [("fr", PHONE, "phone"), ("ar", DESKTOP, "desktop")]
)
def test_a_shared_deal_replayed_and_played_again_by_a_stranger(
    browser: Browser,
    server: Any,
    make_table: Any,
    axe: Any,
    screenshots: Any,
    lang: str,
    size: dict[str, int],
    name: str,
) -> None:
    contexts = []
    try:
        # The sharer plays a deal and takes its link from My games.
        mine = browser.new_context(bypass_csp=True, viewport=size, reduced_motion="reduce")
        contexts.append(mine)
        mine.add_init_script(FAST)
        sharer = make_table(mine, server.url)
        sharer.open(lang)
        sharer.new_game()
        sharer.play_deal()
        deals = sharer.page.request.get(f"{server.url}/api/me/games").json()["deals"]
        code = deals[0]["share"]
        address = f"{server.url}/{lang}/deal/{code}"

        # A stranger opens it: the preview's tags, the picture, HEAD answered.
        theirs = browser.new_context(bypass_csp=True, viewport=size, reduced_motion="reduce")
        contexts.append(theirs)
        theirs.add_init_script(FAST)
        stranger = make_table(theirs, server.url)
        page = stranger.page
        scripts: list[Any] = []
        page.on("response", lambda r: scripts.append(r) if r.url.endswith("/deal.js") else None)
        answer = page.goto(address)
        # Sent compressed: the page and its script (the socket, played below, is not).
        assert answer is not None and answer.headers.get("content-encoding") == "gzip"
        assert scripts and scripts[0].headers.get("content-encoding") == "gzip"
        expect(page.locator(".deal-seat")).to_have_count(4)
        expect(page.locator(".deal-seat .deal-card")).to_have_count(32)
        image = page.get_attribute('meta[property="og:image"]', "content") or ""
        assert image == f"{address}/picture.png"
        assert page.get_attribute('meta[name="twitter:card"]', "content") == "summary_large_image"
        assert page.get_attribute('meta[name="twitter:image"]', "content") == image
        assert page.get_attribute('meta[property="og:title"]', "content")
        assert page.get_attribute('meta[property="og:description"]', "content")
        picture = page.request.get(image)
        assert picture.ok and picture.headers["content-type"] == "image/png"
        assert picture.body()[:8] == b"\x89PNG\r\n\x1a\n"
        assert page.request.head(image).ok and page.request.head(address).ok
        sharer_place = page.locator('.deal-seat[data-sharer="true"]')
        assert sharer_place.get_attribute("data-place") == "bottom"
        assert axe(page) == []
        shot(page, screenshots / f"shared-deal-{lang}-{name}.jpg", full_page=True)

        # The replay, trick by trick: four cards in the middle, the cards played greyed.
        tricks = page.locator(".deal-tricks > li").count()
        assert tricks >= 1
        for number in range(1, tricks + 1):
            page.click("#deal-next")
            expect(page.locator("#deal-trick .deal-card")).to_have_count(4)
            expect(page.locator("#deal-trick .deal-card[data-winner]")).to_have_count(1)
            expect(page.locator(".deal-seat .deal-card[data-played]")).to_have_count(4 * number)
            expect(page.locator("#deal-winner")).not_to_be_empty()
            if number == 3:
                assert axe(page) == []
                shot(page, screenshots / f"shared-deal-replay-{lang}-{name}.jpg", full_page=True)
        expect(page.locator("#deal-next")).to_be_disabled()
        page.click("#deal-previous")
        expect(page.locator(".deal-seat .deal-card[data-played]")).to_have_count(4 * (tricks - 1))

        # Play this deal: the same seat's table, played to its end.
        page.click("#deal-play-this")
        page.wait_for_url(f"{address}/play")
        view = stranger.wait_ready()
        assert view["seat"] == deals[0]["seat"]
        expect(page.locator("#deal-back")).to_be_visible()
        stranger.play_deal()
        assert stranger.view()["phase"] == "over"
        assert axe(page) == []
        shot(page, screenshots / f"shared-deal-played-{lang}-{name}.jpg")
        page.click("#deal-back-result")
        page.wait_for_url(address)
        # Both results, each from the sharer's side.
        expect(page.locator("#deal-results tbody tr")).to_have_count(2)
        expect(page.locator("#deal-results")).to_be_visible()
        assert axe(page) == []
        shot(page, screenshots / f"shared-deal-results-{lang}-{name}.jpg", full_page=True)
        assert stranger.errors == [] and sharer.errors == []
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize(
    ("lang", "size", "name"), [("fr", PHONE, "phone"), ("ar", DESKTOP, "desktop")]
)
def test_a_tournament_deals_link_opens_a_page_that_says_until_when(
    browser: Browser, server: Any, axe: Any, screenshots: Any, lang: str, size: Any, name: str
) -> None:
    """My games' button says from when a tournament deal shows, and its link opens a real
    page (the tournament, the deal, open until when, the way back), never a card."""
    store = GameStore(f"sqlite:///{server.database}")
    opens = datetime.now(UTC) - timedelta(minutes=1)
    plan = Planned(f"shared-{lang}", "short", "cardavia", 2, opens, opens + timedelta(hours=1))
    Tournaments(store, level="beginner").make(plan)
    contexts = []
    try:
        player = context_of(browser, size)
        contexts.append(player)
        page = player.new_page()
        page.goto(f"{server.url}/{lang}/tournaments/{plan.id}")
        page.locator('li[data-deal="1"] .tournament-play').click()
        page.wait_for_url(f"**/tournaments/{plan.id}/play/1")
        play_on(page)
        page.goto(f"{server.url}/{lang}/me/games")
        deal = page.locator(".history-deal").first
        expect(deal.locator(".history-title a")).to_have_attribute(
            "href", f"/{lang}/tournaments/{plan.id}"
        )
        entry = page.request.get(f"{server.url}/api/me/games").json()["deals"][0]
        assert entry["share"] is None and entry["tournament"]["id"] == plan.id
        if entry["later"]:
            expect(deal.locator(".history-share")).to_be_visible()
        assert axe(page) == []
        shot(page, screenshots / f"tournament-deal-games-{lang}-{name}.jpg", full_page=True)
        code = entry["later"] or entry["game"]
        stranger = context_of(browser, size)
        contexts.append(stranger)
        other = stranger.new_page()
        answer = other.goto(f"{server.url}/{lang}/deal/{code}")
        if entry["later"]:
            assert answer is not None and answer.ok
            expect(other.locator("#deal-pending")).to_be_visible()
            expect(other.locator("#deal-tournament")).to_have_attribute(
                "href", f"/{lang}/tournaments/{plan.id}"
            )
            assert other.locator(".deal-card").count() == 0
            assert axe(other) == []
            shot(other, screenshots / f"tournament-deal-pending-{lang}-{name}.jpg")
    finally:
        for context in contexts:
            context.close()
        store.close()
