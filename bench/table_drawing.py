"""What a deal costs the browser that draws it: whole deals played at the table page through
Chromium (South takes when it may and plays its first legal card; the computer players
answer without a pause, the page keeps its own pace), on the embedded site (`cardavia
serve`, a fresh SQLite database), at 1280×860.

Printed for each way of showing the page: the browser's CPU seconds a deal (every process of
Chromium, its renderers included, as the kernel counts them), the site's, and the wall time
a deal. The ways: the page as it opens (its motion on, the settings at 50 %), with motion
reduced (the player's setting or the system's), and with contrast and colour temperature
moved off 50 % (their filter drawn over the table). Headless Chromium draws without a GPU,
so every frame is painted and composited on the CPU: a slow phone's case, the figures a
ratio between the ways of one run rather than a phone's own.

Run it before and after a change to what the table draws or animates.

Run: ``uv run python bench/table_drawing.py [--deals 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from first_visit import chromium, embedded_site
from playwright.sync_api import Browser, sync_playwright

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
TICK = os.sysconf("SC_CLK_TCK")
WAYS: dict[str, tuple[str, dict[str, int]]] = {
    "as it opens": ("no-preference", {}),
    "motion reduced": ("reduce", {}),
    "contrast 70, temperature 30": ("no-preference", {"contrast": 70, "temperature": 30}),
}
"""Each way: the system's motion preference, and the settings the player saved."""

# South's next move can be made (or the deal is over): every message drawn, nothing pending.
READY = """() => {
  const c = window.cardavia;
  if (!c || !c.view || c.pending > 0 || document.getElementById("table").dataset.busy === "on")
    return false;
  const v = c.view;
  if (v.phase === "over" || v.phase === "cancelled") return true;
  return v.to_move === v.seat && v.legal.length > 0;
}"""


def cpu_seconds(root: int, *, only: str = "") -> float:
    """The CPU of ``root`` and its descendants (their reaped children's too), as the kernel
    counts it; with ``only``, of the processes whose name starts so (``chrom``: Chromium's,
    not Playwright's driver)."""
    children: dict[int, list[int]] = {}
    spent: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        command, fields = stat.split("(", 1)[1].rsplit(")", 1)
        values = fields.split()
        children.setdefault(int(values[1]), []).append(int(name))
        if command.startswith(only):
            spent[int(name)] = sum(int(value) for value in values[11:15]) / TICK
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        total += spent.get(pid, 0.0)
        stack += children.get(pid, [])
    return total


def play_deal(browser: Browser, base: str, motion: str, settings: dict[str, int]) -> None:
    """One deal from the table page's first screen to its result, in a context of its own."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 860}, reduced_motion=motion, service_workers="block"
    )  # type: ignore[arg-type]
    if settings:
        saved = json.dumps(settings)
        context.add_init_script(f"localStorage.setItem('cardavia.settings', {saved!r})")
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{base}/fr/")
    page.select_option("#ng-rules", "cardavia")
    page.click("#deal-button")
    for _ in range(80):
        page.wait_for_function(READY)
        view = page.evaluate("window.cardavia.view")
        if view["phase"] == "over":
            break
        if view["phase"] == "cancelled":
            page.click("#controls [data-action=next-deal]")
            page.wait_for_function("window.cardavia.view.phase !== 'cancelled'")
        elif view["phase"] == "bidding":
            offers = page.locator("#controls .bid-button.take, #controls .bid-button.bid")
            (offers.first if offers.count() else page.locator(".bid-button.pass")).click()
        else:
            card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
            page.click(f'#hand .card[data-card="{card}"]')
            page.click("#controls [data-action=confirm]")
            page.wait_for_function("(n) => window.cardavia.view.step > n", arg=view["step"])
    else:
        raise RuntimeError("the deal did not end")
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3, help="deals played each way")
    options = parser.parse_args()
    me = os.getpid()
    with (
        embedded_site(
            "cardavia-table-drawing-", CARDAVIA_AI_DELAY="0", CARDAVIA_AI_DELAY_MS="0"
        ) as (base, server),
        sync_playwright() as driver,
    ):
        browser = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        play_deal(browser, base, "reduce", {})  # the site's caches and the browser warm
        for way, (motion, settings) in WAYS.items():
            before = cpu_seconds(me, only="chrom"), cpu_seconds(server.pid)
            began = time.monotonic()
            for _ in range(options.deals):
                play_deal(browser, base, motion, settings)
            drawing = (cpu_seconds(me, only="chrom") - before[0]) / options.deals
            serving = (cpu_seconds(server.pid) - before[1]) / options.deals
            wall = (time.monotonic() - began) / options.deals
            print(
                f"{way:<28} browser {drawing:5.2f} CPU s a deal   site {serving:5.2f}"
                f"   wall {wall:5.1f} s",
                flush=True,
            )
        browser.close()


if __name__ == "__main__":
    main()
