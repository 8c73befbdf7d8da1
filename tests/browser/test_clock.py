"""A quick-play table in Chromium (docs/players.md, "Leaving"): Ana (French, desktop) and Bo
(Arabic, phone) at a table whose every action is timed. The clock is shown at the seat to
act, counting down; Bo does nothing, his clock runs out and the computer player acts for
him, both pages seeing it. The leave confirmation is asked before leaving for good. Then
Bo's tab closes mid-deal: the computer player plays his seat at once, the deal goes on, and
Bo, back with the same seat token, has his seat again. axe-core finds nothing wrong, and the
clock and the confirmation are photographed in both languages at both sizes.

The table is made as the queue makes them: a room of the store whose settings say ``quick``
and ``clock``, its two people's seat tokens known to their browsers."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from tests.browser.conftest import READY, Server, Table, shot
from tests.saved_rooms import actions_of

from cardavia.belote import Seat
from cardavia.live.room_state import QUICK_GRACE, RoomSettings, RoomState, new_code
from cardavia.store.db import GameStore, hash_token, new_token

CLOCK = 4.0
"""Seconds per action: long enough to photograph the clock, short enough to wait it out."""
PHONE, DESKTOP = (360, 740), (1280, 800)
SHOTS = Path("/tmp/shots-clock")
DATABASE: dict[str, Path] = {}
"""Each test server's database, by its address."""


def quick_table(database: Path) -> tuple[str, str, str]:
    """A quick-play room in the store (as the queue makes one): Ana at South, Bo at North;
    answers its code and their seat tokens."""
    settings = RoomSettings(
        "maison",
        "club",
        "french",
        1000,
        "fr",
        grace=QUICK_GRACE,
        next_delay=2.0,
        quick=True,
        clock=CLOCK,
    )
    ana, bo = new_token(), new_token()
    state = RoomState.new(settings, Seat.S, name="Ana", token=hash_token(ana))
    state, _seat = state.take(Seat.N, name="Bo", token=hash_token(bo))
    store = GameStore(f"sqlite:///{database}")
    code = new_code()
    store.create_room(code, json.dumps(state.to_json(), ensure_ascii=False), client="test")
    store.close()
    return code, ana, bo


@pytest.fixture
def people(browser: Browser, server: Server) -> Iterator[tuple[str, Table, Table]]:
    code, ana_token, bo_token = quick_table(server.database)
    DATABASE[server.url] = server.database
    tables = []
    for lang, size, token, seat in (
        ("fr", DESKTOP, ana_token, "S"),
        ("ar", PHONE, bo_token, "N"),
    ):
        context = browser.new_context(
            bypass_csp=True,
            viewport={"width": size[0], "height": size[1]},
            reduced_motion="reduce",
            locale=lang,
        )
        held = json.dumps({"room": code, "token": token, "seat": seat})
        context.add_init_script(
            "localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
            f"localStorage.setItem('cardavia.room.{code}', {json.dumps(held)});"
        )
        table = Table(context, server.url)
        table.page.goto(f"{server.url}/{lang}/room/{code}")
        tables.append(table)
    yield code, tables[0], tables[1]
    for table in tables:
        table.context.close()


def server_database(table: Table) -> Path:
    return DATABASE[table.base]


def actions_in(database: Path, code: str, seat: str) -> int:
    """How many actions ``seat`` made in the room's game, as saved in the server's database."""
    store = GameStore(f"sqlite:///{database}")
    try:
        return actions_of(store, code, seat)
    finally:
        store.close()


def shoot(table: Table, name: str, size: tuple[int, int], where: str = "#table") -> None:
    """A screenshot at ``size``, ``where`` in view (kept out of the repository)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    table.page.set_viewport_size({"width": size[0], "height": size[1]})
    table.page.locator(where).scroll_into_view_if_needed()
    shot(table.page, str(SHOTS / f"{name}-{size[0]}.jpg"))


def act(table: Table) -> None:
    """South's (or the person's own) first legal move, through the page. Her own clock
    runs too (a few seconds here): on a slow machine it may run out between reading the
    view and the click, the computer player then moves for her and the card is gone from
    her hand — the caller's loop reads the table again."""
    page, view = table.page, table.view()
    if view["phase"] == "bidding":
        with contextlib.suppress(PlaywrightTimeoutError):
            table.bid()
        return
    legal = [a["card"] for a in view["legal"] if a["kind"] == "play"]
    if not legal:  # the view read after the caller's: her turn already went
        return
    with contextlib.suppress(PlaywrightTimeoutError):
        page.click(f'#hand .card[data-card="{legal[0]}"]', timeout=CLOCK * 1000)
        if page.locator("#controls [data-action=confirm]").count():
            page.click("#controls [data-action=confirm]", timeout=CLOCK * 1000)


def ready(table: Table) -> bool:
    return bool(table.page.evaluate(f"({READY})()"))


RING = '.seat[data-seat="{seat}"] .room-clock:not([hidden])'


def until_bo_to_act(ana: Table, bo: Table, seconds: float = 60) -> dict[str, Any]:
    """Ana plays her turns until it is Bo's turn with his clock running (on Ana's page).
    Each says they are back whenever the clock made them away (on a busy machine the
    clock may run out twice on them while the pages are photographed: the computer player
    then plays their seat, and runs no clock)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for table in (ana, bo):
            if table.page.locator("#room-idle:not([hidden])").count():
                with contextlib.suppress(PlaywrightTimeoutError):
                    table.page.click("#room-back", timeout=2000)
        if ana.page.locator(RING.format(seat="N")).count():
            view = ana.view()
            if view["to_move"] == "N":
                return view
        if ready(ana) and ana.view()["phase"] not in ("over", "cancelled"):
            act(ana)
        time.sleep(0.05)
    raise AssertionError("North's clock never ran")


def test_the_clock_runs_out_the_computer_acts_and_a_closed_tab_comes_back(
    people: tuple[str, Table, Table], axe: Any
) -> None:
    code, ana, bo = people
    ana.page.wait_for_selector("#room-lobby:not([hidden])")
    bo.page.wait_for_selector("#room-lobby:not([hidden])")
    # The policy, in a sentence each reads, with the clock's seconds in it.
    assert "4" in (ana.page.text_content("#room-policy") or "")
    assert not bo.page.locator("#room-policy").is_hidden()
    ana.page.click("#room-start")
    ana.page.wait_for_function("window.cardavia && window.cardavia.view")

    # Leaving for good is asked first; "Stay" keeps the seat.
    for table, lang in ((ana, "fr"), (bo, "ar")):
        table.page.click("#room-leave")
        table.page.wait_for_selector("#room-leave-confirm:not([hidden])")
        assert table.page.evaluate("document.activeElement.id") == "room-leave-no"
        for size in (PHONE, DESKTOP):
            shoot(table, f"leave-{lang}", size, "#room-leave-confirm")
        assert axe(table.page) == []
        # On a slow machine both clocks may have run out twice meanwhile, the computer
        # players finishing the deal: its score, shown over the page, is put aside first.
        if table.page.locator("#score-panel[open]").count():
            table.page.keyboard.press("Escape")
        table.page.click("#room-leave-no")
        assert table.page.locator("#room-leave-confirm").is_hidden()
    bo.page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    # Their clocks may have run out meanwhile, twice: each says they are back.
    for table in (ana, bo):
        if table.page.locator("#room-idle:not([hidden])").count():
            table.page.click("#room-back")

    # (a) Bo's clock runs on both pages at his seat; he does nothing.
    view = until_bo_to_act(ana, bo)
    bo_before = actions_in(server_database(ana), code, "N")
    ring = ana.page.locator(RING.format(seat="N"))
    assert ring.get_attribute("role") == "timer"
    assert "Nord" in (ring.get_attribute("aria-label") or "")
    bo.page.wait_for_selector(RING.format(seat="N"))
    left = int(bo.page.text_content(RING.format(seat="N") + " .room-clock-seconds") or "0")
    assert 1 <= left <= CLOCK
    # His own turn is told to his screen reader once, in Arabic, not every second.
    bo.page.wait_for_function("document.getElementById('room-clock-said').textContent !== ''")
    assert "دورك" in (bo.page.text_content("#room-clock-said") or "")
    shoot(ana, "clock-fr", DESKTOP)
    shoot(bo, "clock-ar", PHONE)
    shoot(ana, "clock-fr", PHONE)
    shoot(bo, "clock-ar", DESKTOP)
    ana.page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    bo.page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    assert axe(ana.page) == []
    assert axe(bo.page) == []
    # The clock runs out: the computer player acts for Bo, on both pages.
    step = (view["deal_number"], view["step"])
    moved = (
        "(s) => { const v = window.cardavia.view;"
        " return v.deal_number > s[0] || (v.deal_number === s[0] && v.step > s[1]); }"
    )
    ana.page.wait_for_function(f"({moved})({json.dumps(list(step))})", timeout=CLOCK * 3000)
    bo.page.wait_for_function(f"({moved})({json.dumps(list(step))})", timeout=5000)
    # Bo pressed nothing: the computer player made his action.
    assert actions_in(server_database(ana), code, "N") > bo_before

    # (b) Bo closes his tab mid-deal: the computer player plays his seat at once.
    bo.page.close()
    away = '#room-seats li[data-seat="N"]'
    ana.page.wait_for_function(
        f"(document.querySelector('{away}')?.textContent || '').includes('absent')"
    )
    before = actions_in(server_database(ana), code, "N")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if actions_in(server_database(ana), code, "N") > before:
            break  # a computer player played for Bo, without waiting for him
        view = ana.view()
        assert ana.page.locator(RING.format(seat="N")).count() == 0  # no clock for him
        if view["phase"] in ("over", "cancelled"):
            with contextlib.suppress(PlaywrightTimeoutError):
                ana.page.click("#controls [data-action=next-deal]", timeout=2000)
        elif ready(ana):
            act(ana)
        time.sleep(0.05)
    else:
        raise AssertionError("nobody played for Bo")
    # Bo comes back (the same browser keeps his seat token): his seat is his again.
    bo.page = bo.context.new_page()
    bo.page.goto(f"{ana.base}/ar/room/{code}")
    bo.page.wait_for_function("window.cardavia && window.cardavia.view")
    assert bo.view()["seat"] == "N" and bo.view()["screen"]["bottom"] == "N"
    ana.page.wait_for_function(
        f"!(document.querySelector('{away}')?.textContent || '').includes('absent')"
    )
    assert [e for e in ana.errors if "WebSocket" not in e] == []
