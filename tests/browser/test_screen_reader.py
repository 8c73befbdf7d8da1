"""A whole deal played through the accessibility tree alone (issue 40, item 5): every step
is found by its role and its accessible name, as a screen reader finds it, never by a CSS
selector or a position — the deal button, the bidding box, the hand and its cards (the
cards one may not play say why, as their description), the confirm button, the trick, the
turn said in the live region, the result's dialog. In French on a desktop and in Arabic on a
phone; axe-core finds nothing wrong at the end."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Locator, Page, expect

from cardavia.words import load_catalogs

if TYPE_CHECKING:
    from conftest import Table

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 860), "phone": (360, 740)}
WAIT_MS = 15_000


def _exactly(text: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


NODE = re.compile(r'^\s*- (?P<role>\w+) "(?P<name>(?:[^"\\]|\\.)*)"(?P<rest>.*)$')


def named(where: Locator, role: str) -> list[tuple[str, bool]]:
    """The accessible names of ``where``'s nodes of ``role`` (its ARIA snapshot: what a
    screen reader is given), each with whether it is disabled."""
    found = []
    for line in where.aria_snapshot().splitlines():
        node = NODE.match(line.replace("'", ""))
        if node and node["role"] == role:
            found.append((node["name"].replace('\\"', '"'), "[disabled]" in node["rest"]))
    return found


def until_something_to_do(page: Page, hand: Locator, bidding: Locator, over: Locator) -> str:
    """Wait, as a listener waits for the live region, until the page offers something to do:
    a bid, a card, or the result (answers which)."""
    for _ in range(int(WAIT_MS / 50)):
        if over.count() and over.is_visible():
            return "over"
        if bidding.count() and bidding.get_by_role("button").count():
            return "bid"
        if hand.get_by_role("button", disabled=False).count():
            return "play"
        page.wait_for_timeout(50)
    raise AssertionError("the page offered nothing to do: " + page.locator("body").aria_snapshot())


@pytest.mark.parametrize(("lang", "size"), [("fr", "desktop"), ("ar", "phone")])
def test_a_whole_deal_played_through_the_accessibility_tree(
    table: Table, axe: Any, lang: str, size: str
) -> None:
    width, height = SIZES[size]
    table.page.set_viewport_size({"width": width, "height": height})
    page = table.open(lang)
    wording = load_catalogs().wording(lang)
    ui: dict[str, str] = table.strings()["ui"]
    names: dict[str, str] = table.strings()["names"]["french"]
    card_names = set(names.values())

    page.get_by_role("button", name=wording.gettext("Deal the cards"), exact=True).click()
    area = page.get_by_role("region", name=wording.gettext("The table"), exact=True)
    hand = area.get_by_role("group", name=re.compile("^" + re.escape(wording.gettext("Your hand"))))
    bidding = area.get_by_role("group", name=_exactly(ui["your_turn_bid"]))
    trick = area.get_by_role("group", name=wording.gettext("The trick"), exact=True)
    status = area.get_by_role("status").first
    result = page.get_by_role("dialog")
    cards_played, bids, deals = 0, 0, 1
    for _ in range(400):
        step = until_something_to_do(page, hand, bidding, result)
        if step == "over":
            assert cards_played == 8 or cards_played == 0, cards_played  # played, or all passed
            # A deal the computer players took before South spoke: the next one ("Next
            # deal", or "Play again" after a single deal), until South has bid too.
            if bids and cards_played:
                break
            assert deals < 6, "South never had to bid in six deals"
            offered = {name for name, _ in named(result, "button")}
            way_on = next(ui[k] for k in ("next_deal", "play_again") if ui[k] in offered)
            result.get_by_role("button", name=way_on, exact=True).click()
            expect(result).to_be_hidden()
            cards_played, deals = 0, deals + 1
            continue
        if step == "bid":
            # The turn is said: "your turn to bid" is the live region's, and the box's name.
            expect(status).to_contain_text(ui["your_turn_bid"])
            offers = [name for name, _ in named(bidding, "button")]
            assert ui["pass"] in offers, offers
            # Take when one may (the first offer), else pass.
            bidding.get_by_role("button", name=offers[0], exact=True).click()
            bids += 1
            continue
        # South's turn to play: the hand says how many cards; the legal ones are buttons one
        # may press, each other one is disabled and says why (its description).
        expect(status).to_contain_text(ui["your_turn_play"])
        refused = hand.get_by_role("button", disabled=True)
        for index in range(refused.count()):
            expect(refused.nth(index)).to_have_accessible_description(re.compile(r"\S"))
        cards = named(hand, "button")
        card = next(name for name, disabled in cards if not disabled)
        assert {name for name, _ in cards} <= card_names, cards
        before = len(cards)
        hand.get_by_role("button", name=card, exact=True).click()
        confirm = area.get_by_role("button", name=ui["confirm"], exact=True)
        if confirm.count():
            confirm.click()
        expect(hand.get_by_role("button")).to_have_count(before - 1, timeout=WAIT_MS)
        cards_played += 1
        # The trick shows each card as an image named by its seat and its card.
        for label, _ in named(trick, "img"):
            assert any(name in label for name in card_names), label
    else:
        raise AssertionError("the deals did not end")
    expect(result).to_be_visible()
    expect(result).to_have_accessible_name(re.compile(r"\S"))
    assert axe(page) == []
    assert table.errors == []
