"""The table's layout on a small phone (320 × 640), a phone (360 × 740, touch; and held
sideways, 740 × 360) and a desktop (1366 × 768), in French and in Arabic (right to left),
measured from element boxes through a whole deal: nothing outside the viewport, the hand
always in view and never moving, nothing over the confirm bar; and a screenshot of each, kept
under artefacts/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

SIZES = {
    "small": (320, 640),
    "phone": (360, 740),
    "landscape": (740, 360),
    "desktop": (1366, 768),
}

# Every box the page shows at the table: its place, and what overlaps the confirm bar.
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
    handInView: cards.every((c) => c.top >= 0 && c.bottom <= innerHeight),
    feltInView: (() => { const f = box(document.getElementById("felt"));
      return f.top >= 0 && f.bottom <= innerHeight; })(),
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
        assert found["feltInView"], f"{moment}: the felt is not all in view"


@pytest.mark.parametrize("lang", ["fr", "ar"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_fits_and_holds_still(
    browser: Browser,
    server: Server,
    make_table: type[Table],
    screenshots: Path,
    lang: str,
    size: str,
) -> None:
    width, height = SIZES[size]
    phone = size != "desktop"
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
        hands: list[dict[str, float]] = []
        shot = False
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
                measure(page, width, moment, hands, felt_in_view=size == "landscape")
            except AssertionError:
                page.screenshot(path=str(screenshots / f"layout-{size}-{lang}-failed.png"))
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
            if not shot:
                page.screenshot(path=str(screenshots / f"layout-{size}-{lang}-picked.png"))
                shot = True
            try:
                measure(page, width, f"picked {card}", hands, felt_in_view=size == "landscape")
            except AssertionError:
                page.screenshot(path=str(screenshots / f"layout-{size}-{lang}-failed.png"))
                raise
            page.click("#controls [data-action=confirm]")
            page.wait_for_function("(c) => !window.cardavia.view.hand.includes(c)", arg=card)
        # The hand never moved: the same place from the first bid to the last card.
        tops = {round(h["top"]) for h in hands}
        assert len(tops) == 1, f"the hand moved: {sorted(tops)}"
        dialog = page.locator("#score-panel")
        dialog.wait_for(state="visible")
        box = dialog.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["y"] >= 0 and box["y"] + box["height"] <= height
        page.screenshot(path=str(screenshots / f"layout-{size}-{lang}-result.png"))
        page.keyboard.press("Escape")
        page.screenshot(path=str(screenshots / f"layout-{size}-{lang}-final-trick.png"))
        assert table.errors == []
    finally:
        context.close()
