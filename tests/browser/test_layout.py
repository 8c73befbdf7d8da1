"""The table's layout on a small phone (320 × 640), a phone (360 × 740, touch; and held
sideways, 740 × 360) and a desktop (1366 × 768), in French and in Arabic (right to left),
measured from element boxes through a whole deal (one deal for the phone's three sizes, the
window resized at each moment): nothing outside the viewport, the hand always in view and
never moving, nothing over the confirm bar; and a screenshot of each, kept under
artefacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page
from tests.browser.conftest import shot

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

SIZES = {
    "small": (320, 640),
    "phone": (360, 740),
    "landscape": (740, 360),
    "desktop": (1366, 768),
}

# Every box the page shows at the table: its place, and what overlaps the confirm bar; each
# measured to half a pixel (a phone's screen of two pixels a point scrolls by half points,
# so a table brought to the top of the screen may stop a fraction of a pixel past it).
MEASURE = """() => {
  const shown = (e) => e.checkVisibility({visibilityProperty: true, opacityProperty: true})
    && !e.closest(".visually-hidden") && e.getClientRects().length > 0;
  const box = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const name = (e) => e.id ? `#${e.id}`
    : `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`;
  const outside = [];
  for (const e of document.querySelectorAll("#table *, .site-header *")) {
    if (!shown(e)) continue;
    const r = box(e);
    if (r.right - r.left < 1 || r.bottom - r.top < 1) continue;
    if (r.left < -0.5 || r.right > innerWidth + 0.5) {
      outside.push(`${name(e)} ${r.left}..${r.right}`);
    }
  }
  const bar = document.querySelector("#controls .confirm-bar");
  const over = [];
  if (bar) {
    const b = box(bar);
    for (const e of document.querySelectorAll("body *")) {
      if (!shown(e) || e.contains(bar) || bar.contains(e)) continue;
      const r = box(e);
      if (r.right - r.left < 1 || r.bottom - r.top < 1) continue;
      const across = r.left < b.right - 0.5 && r.right > b.left + 0.5;
      if (across && r.top < b.bottom - 0.5 && r.bottom > b.top + 0.5) {
        over.push(name(e));
      }
    }
  }
  const hand = box(document.getElementById("hand"));
  const cards = [...document.querySelectorAll("#hand .card")].map(box);
  return {
    width: document.documentElement.scrollWidth, outside, over,
    hand: {top: hand.top + scrollY, bottom: hand.bottom + scrollY},
    handInView: cards.every((c) => c.top >= -0.5 && c.bottom <= innerHeight + 0.5),
    felt: {...box(document.getElementById("felt")), scrollY, innerHeight},
    cardWidth: cards.length ? cards[0].right - cards[0].left : 0,
  };
}"""


def measure(
    page: Page, width: int, moment: str, hands: list[dict[str, float]], *, felt_in_view: bool
) -> None:
    found: dict[str, Any] = page.evaluate(MEASURE)
    assert found["outside"] == [], f"{moment}: outside the viewport"
    assert found["width"] <= width, f"{moment}: the page is {found['width']}px wide"
    assert found["over"] == [], f"{moment}: over the confirm bar"
    assert found["handInView"], f"{moment}: the hand is not all in view"
    hands.append(found["hand"])
    if felt_in_view:
        felt = found["felt"]
        in_view = felt["top"] >= -0.5 and felt["bottom"] <= felt["innerHeight"] + 0.5
        assert in_view, f"{moment}: the felt is not all in view: {felt}"


DEVICES = {"phone": ("small", "phone", "landscape"), "desktop": ("desktop",)}
"""The sizes measured in one deal on each kind of device: a phone's three (the window
resized between two moments: each size measured at every moment of the deal), a desktop's
one."""


def measure_sizes(
    page: Page, sizes: tuple[str, ...], moment: str, hands: dict[str, list[dict[str, float]]]
) -> None:
    """Measure the page at each of ``sizes`` (resizing the window), back at the first."""
    for size in (*sizes[1:], sizes[0]) if len(sizes) > 1 else sizes:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        measure(page, width, f"{size}: {moment}", hands[size], felt_in_view=size == "landscape")


@pytest.mark.parametrize("lang", ["fr", "ar"])
@pytest.mark.parametrize("device", list(DEVICES))
def test_the_table_fits_and_holds_still(
    browser: Browser,
    server: Server,
    make_table: type[Table],
    screenshots: Path,
    lang: str,
    device: str,
) -> None:
    sizes = DEVICES[device]
    width, height = SIZES[sizes[0]]
    phone = device == "phone"
    context = browser.new_context(
        bypass_csp=True,
        viewport={"width": width, "height": height},
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        reduced_motion="reduce",
    )
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));")
    table = make_table(context, server.url)
    try:
        page = table.open(lang)
        table.new_game("maison")
        hands: dict[str, list[dict[str, float]]] = {size: [] for size in sizes}
        pictured = False
        for _ in range(80):
            view = table.wait_ready()
            if view["phase"] == "over":
                break
            if view["phase"] == "cancelled":
                page.click("#controls [data-action=next-deal]")
                page.wait_for_function("window.cardavia.view.phase !== 'cancelled'")
                continue
            moment = f"{view['phase']} {len(view['hand'])}"
            try:
                measure_sizes(page, sizes, moment, hands)
            except AssertionError:
                shot(page, str(screenshots / f"layout-{device}-{lang}-failed.jpg"))
                raise
            if view["phase"] == "bidding":
                table.bid()
                page.wait_for_function(
                    "(n) => window.cardavia.view.bids.length > n"
                    " || window.cardavia.view.phase !== 'bidding'",
                    arg=len(view["bids"]),
                )
                continue
            card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
            page.click(f'#hand .card[data-card="{card}"]')
            try:
                measure_sizes(page, sizes, f"picked {card}", hands)
            except AssertionError:
                shot(page, str(screenshots / f"layout-{device}-{lang}-failed.jpg"))
                raise
            if not pictured:
                for size in sizes:
                    size_width, size_height = SIZES[size]
                    page.set_viewport_size({"width": size_width, "height": size_height})
                    shot(page, str(screenshots / f"layout-{size}-{lang}-picked.jpg"))
                pictured = True
            page.click("#controls [data-action=confirm]")
            page.wait_for_function("(c) => !window.cardavia.view.hand.includes(c)", arg=card)
        # At each size the hand never moved: the same place from the first bid to the last card.
        for size in sizes:
            tops = {round(h["top"]) for h in hands[size]}
            assert len(tops) == 1, f"{size}: the hand moved: {sorted(tops)}"
        dialog = page.locator("#score-panel")
        dialog.wait_for(state="visible")
        for size in sizes:
            size_width, size_height = SIZES[size]
            page.set_viewport_size({"width": size_width, "height": size_height})
            box = dialog.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= size_width, size
            assert box["y"] >= 0 and box["y"] + box["height"] <= size_height, size
            shot(page, str(screenshots / f"layout-{size}-{lang}-result.jpg"))
        page.keyboard.press("Escape")
        shot(page, str(screenshots / f"layout-{sizes[-1]}-{lang}-final-trick.jpg"))
        assert table.errors == []
    finally:
        context.close()


# Boxes that overlap (by more than half a pixel), among those named.
OVERLAPS = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)].filter((e) => e.getClientRects().length)
    .map((e) => [e.id || e.getAttribute("for") || e.tagName, e.getBoundingClientRect()]);
  const found = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, r] = boxes[i], [b, s] = boxes[j];
    if (r.left < s.right - 0.5 && s.left < r.right - 0.5 && r.top < s.bottom - 0.5
        && s.top < r.bottom - 0.5) found.push(`${a} over ${b}`);
  }
  return found;
}"""

# Text that wraps: the headings given, each on more than one line.
WRAPPED = """(selector) => [...document.querySelectorAll(selector)].filter((e) => {
  if (!e.getClientRects().length || !e.textContent.trim()) return false;
  const range = document.createRange();
  range.selectNodeContents(e);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return tops.size > 1;
}).map((e) => e.textContent)"""

# What a box cuts: its content taller or wider than itself, or a child outside it.
CUT = """(selector) => [...document.querySelectorAll(selector)].filter((e) =>
  e.getClientRects().length && (e.scrollHeight > e.clientHeight + 1
    || e.scrollWidth > e.clientWidth + 1)).map((e) => e.id || e.className)"""


@pytest.mark.parametrize("lang", ["fr", "ar"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_nothing_overlaps_wraps_or_is_cut(
    browser: Browser, server: Server, make_table: type[Table], lang: str, device: str
) -> None:
    """Item 14: the new-game form's menus never overlap (360, 740 and 1366 px); the bids are
    never cut; a team's name in the score sheets stays on one line; held sideways, the
    result dialog shows every button without scrolling. A phone upright and sideways in one
    deal (the window resized at each check)."""
    sizes = ("phone", "landscape") if device == "phone" else ("desktop",)
    width, height = SIZES[sizes[0]]
    phone = device == "phone"
    context = browser.new_context(
        bypass_csp=True,
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        reduced_motion="reduce",
    )
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));")
    # The result as every deal after the first shows it: a guest's first result also
    # offers to keep the player, once (tests/browser/test_first_result_offer.py).
    context.add_init_script("localStorage.setItem('cardavia.keepPlayer', 'offered');")
    table = make_table(context, server.url)

    def at_each_size() -> Iterator[tuple[int, int]]:
        for size in sizes:
            size_width, size_height = SIZES[size]
            page.set_viewport_size({"width": size_width, "height": size_height})
            yield size_width, size_height

    try:
        page = table.open(lang)
        fields = "#new-game .field label, #new-game select, #new-game .field-help, #deal-button"
        for size_width, _ in at_each_size():
            assert page.evaluate(OVERLAPS, fields) == []
            for select in page.locator("#new-game select").all():
                box = select.bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= size_width
        table.new_game("coinche")
        view = table.bid_until_play()
        if view["phase"] == "playing":
            for _ in at_each_size():
                assert page.evaluate(CUT, "#bids, #bids-box") == []
                last = page.locator("#bids li").last.bounding_box()
                box = page.locator("#bids-box").bounding_box()
                assert last and box and last["y"] + last["height"] <= box["y"] + box["height"]
        table.play_deal()
        dialog = page.locator("#score-panel")
        dialog.wait_for(state="visible")
        heads = "#score-panel thead th, #sheet-panel thead th, #sheet-side thead th"
        for size_width, size_height in at_each_size():
            assert page.evaluate(WRAPPED, heads) == []
            assert page.evaluate(CUT, "#score-panel") == []
            for button in page.locator("#score-panel button").all():
                if button.is_visible():
                    b = button.bounding_box()
                    text = button.text_content()
                    assert b and b["y"] >= 0 and b["y"] + b["height"] <= size_height, text
                    assert b["x"] >= 0 and b["x"] + b["width"] <= size_width, text
        page.keyboard.press("Escape")
        for _ in at_each_size():
            assert page.evaluate(WRAPPED, heads) == []
        assert table.errors == []
    finally:
        context.close()
