"""Each kind of table's flow in Chromium (docs/web.md, "The flow of each kind of table"; issue
36, item 3), in French and Arabic, on a phone (360x740) and a desktop (1280x800), with zero
axe-core violations on the new screens:

- quick play: a stranger's "Play again" takes only them back to the queue (its waiting page
  says what they commit to), the other stays at their result; one who leaves mid-deal lands
  on a clear screen ("counted as a lost game"), is rated for the deal, and the others are
  told a computer player plays the seat;
- a tournament: "Next deal (2/3)" from each deal's result to the next, through all its deals
  to its results, each result against those who finished the deal before, no casual
  control; a table whose tournament has closed refuses an action;
- watching: a watcher's page says "You are watching", seats by their sides, no rule addressed
  to a player;
- away (the clock ran out twice): "I'm back" is on the screen, not below the hand.
"""

from __future__ import annotations

import contextlib
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from sqlalchemy import text
from tests.browser.conftest import READY, Server, Table, shot
from tests.browser.test_quickplay import DESKTOP, PHONE, person, seated_view, short_wait_server
from tests.browser.test_rooms import play_deal
from tests.browser.test_tournaments import context_of, play_on

from cardavia.belote import Seat
from cardavia.live.room_state import RoomSettings, RoomState, new_code
from cardavia.store.db import GameStore, hash_token, new_token
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments
from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["short_wait_server"]

pytestmark = pytest.mark.browser


def seated_at_one_table(
    browser: Browser, site: Server, people: list[tuple[str, Any]]
) -> list[Table]:
    """People pressing "Play now: Cardavia" (a single deal) together, seated at one table."""
    tables = []
    for lang, size in people:
        table = Table(person(browser, lang, size), site.url)
        table.page.goto(f"{site.url}/{lang}/quick/cardavia")
        tables.append(table)
    for table in tables:
        seated_view(table.page)
    assert len({table.page.url.rsplit("/", 1)[1] for table in tables}) == 1
    return tables


def test_quick_play_again_takes_only_the_asker_back_to_the_queue(
    browser: Browser, short_wait_server: Server, screenshots: Path, axe: Any
) -> None:
    tables = seated_at_one_table(browser, short_wait_server, [("fr", DESKTOP), ("ar", PHONE)])
    asker, other = tables
    try:
        play_deal(tables, 1)
        for table in tables:
            table.page.wait_for_selector("#score-panel[open]")
        game = other.view()["game"]
        again = asker.page.locator("#score-panel #next-deal")
        expect(again).to_have_text("Rejouer\N{NO-BREAK SPACE}: une nouvelle table")
        # The table's title stands over the table's edge, not indented from it (p1).
        title = asker.page.locator("#room-title").bounding_box()
        table = asker.page.locator("#table").bounding_box()
        assert title is not None and table is not None and abs(title["x"] - table["x"]) <= 2
        shot(asker.page, screenshots / "flow-quick-result-fr-1280.jpg")
        assert axe(asker.page) == []
        again.click()
        # The asker alone goes back to the queue: its waiting page says what they commit to.
        asker.page.wait_for_url(re.compile(r"/fr/quick/cardavia$"))
        commitment = asker.page.locator("#quick-commitment")
        expect(commitment).to_contain_text("Une donne\N{NO-BREAK SPACE}: environ 3 minutes.")
        expect(commitment).to_contain_text("30 secondes par coup")
        shot(asker.page, screenshots / "flow-quick-requeued-fr-1280.jpg", full_page=True)
        assert axe(asker.page) == []
        # The other stays at their result: the same game, its dialog open, no clock started.
        other.page.wait_for_function(READY)
        assert other.view()["game"] == game and other.view()["phase"] == "over"
        assert other.view()["clock"] is None
        expect(other.page.locator("#score-panel")).to_have_attribute("open", "")
        shot(other.page, screenshots / "flow-quick-stays-ar-360.jpg")
        assert other.errors == [] and asker.errors == []
    finally:
        for table in tables:
            table.context.close()


def test_quick_play_leaving_for_good_is_a_rated_loss_on_a_clear_screen(
    browser: Browser, short_wait_server: Server, screenshots: Path, axe: Any
) -> None:
    tables = seated_at_one_table(browser, short_wait_server, [("ar", DESKTOP), ("fr", PHONE)])
    leaver, stayer = tables
    try:
        view = leaver.view()
        assert view["phase"] in ("bidding", "playing")  # mid-deal
        # The leaver's name as the other reads it (a generated one: in French, "Joueur 4821").
        name = stayer.view()["names"][view["seat"]]["name"]
        assert not name.startswith("لاعب")
        page = leaver.page
        page.locator("#room-leave").click()
        page.locator("#room-leave-yes").click()
        # A clear screen: what it counted, and the ways on (no frozen table, no red error).
        expect(page.locator("#room-left")).to_be_visible()
        expect(page.locator("#room-left-loss")).to_be_visible()
        expect(page.locator("#table")).to_be_hidden()
        expect(page.locator("#room-join")).to_be_hidden()
        expect(page.locator("#room-left a[href='/ar/lobby']")).to_be_visible()
        shot(page, screenshots / "flow-quick-left-ar-1280.jpg", full_page=True)
        assert axe(page) == []
        # The other is told a computer player plays the seat.
        news = stayer.page.locator("#room-news")
        expect(news).to_contain_text(f"{name} a quitté la table")
        expect(stayer.page.locator("#room-seats")).to_contain_text("joueur ordinateur joue")
        shot(stayer.page, screenshots / "flow-quick-other-left-fr-360.jpg", full_page=True)
        assert axe(stayer.page) == []
        # The leaver's rating changed for the deal they left (a loss).
        cookie = next(c["value"] for c in leaver.context.cookies() if c["name"] == PLAYER_COOKIE)
        store = GameStore(f"sqlite:///{short_wait_server.database}")
        try:
            player = store.players.find(cookie)
            assert player is not None
            # The rating is written in the background: read again until it is there.
            changes = store.ratings.history(player.id)
            for _ in range(100):
                if changes:
                    break
                page.wait_for_timeout(100)
                changes = store.ratings.history(player.id)
            assert len(changes) == 1 and changes[0].deal == 1
        finally:
            store.close()
    finally:
        for table in tables:
            table.context.close()


def test_a_watcher_sees_a_page_written_for_a_watcher(
    browser: Browser, short_wait_server: Server, screenshots: Path, axe: Any
) -> None:
    (player,) = seated_at_one_table(browser, short_wait_server, [("fr", DESKTOP)])
    code = player.page.url.rsplit("/", 1)[1]
    try:
        for lang, size in (("fr", PHONE), ("ar", DESKTOP)):
            watcher = Table(person(browser, lang, size), short_wait_server.url)
            page = watcher.page
            page.goto(f"{short_wait_server.url}/{lang}/room/{code}?watch")
            page.wait_for_function("() => window.cardavia && window.cardavia.view")
            expect(page.locator("#watching-note")).to_be_visible()
            expect(page.locator("#room-policy")).to_be_hidden()
            roles = page.locator(".seat .seat-role").all_text_contents()
            words = watcher.strings()["ui"]
            assert roles and set(roles) <= {words["team_NS"], words["team_EW"]}
            assert words["opponent"] not in roles and words["partner"] not in roles
            shot(page, screenshots / f"flow-watching-{lang}-{size[0]}.jpg", full_page=True)
            assert axe(page) == []
            watcher.context.close()
    finally:
        player.context.close()


TOURNAMENT = "flows-tournament"


def test_a_tournament_goes_deal_to_deal_and_its_closed_table_refuses(
    browser: Browser, server: Server, screenshots: Path, axe: Any
) -> None:
    store = GameStore(f"sqlite:///{server.database}")
    opens = datetime.now(UTC) - timedelta(minutes=1)
    plan = Planned(TOURNAMENT, "short", "cardavia", 3, opens, opens + timedelta(hours=1))
    Tournaments(store, level="beginner").make(plan)
    phone = context_of(browser, {"width": PHONE[0], "height": PHONE[1]})
    page: Page = phone.new_page()
    try:
        page.goto(f"{server.url}/fr/tournaments/{TOURNAMENT}")
        page.locator('li[data-deal="1"] .tournament-play').click()
        page.wait_for_url(f"**/fr/tournaments/{TOURNAMENT}/play/1")
        for number in (1, 2):
            expect(page.locator("#new-game-section")).to_be_hidden()
            phase = play_on(page)
            way = (
                "#controls [data-way=next]"
                if phase == "cancelled"
                else "#score-panel [data-way=next]"
            )
            if phase == "over":
                page.wait_for_selector("#score-panel[open]")
                expect(page.locator("#score-panel #next-deal")).to_be_hidden()
                expect(page.locator("#score-panel #result-new-game")).to_be_hidden()
            link = page.locator(way)
            expect(link).to_have_text(f"Donne suivante ({number + 1}/3)")
            if number == 1:
                if phase == "over":  # its result against the field so far: nobody before
                    field = page.locator("#score-field")
                    expect(field).to_contain_text("Votre écart sur cette donne")
                    expect(field).to_contain_text("Personne n’avait terminé cette donne")
                shot(page, screenshots / "flow-tournament-next-fr-360.jpg")
                assert axe(page) == []
            link.click()
            page.wait_for_url(f"**/fr/tournaments/{TOURNAMENT}/play/{number + 1}")
        # The last deal, on a desktop in Arabic: its way on is the tournament's results.
        page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        page.goto(page.url.replace("/fr/", "/ar/"))
        expect(page.locator("#new-game-section")).to_be_hidden()
        phase = play_on(page)
        place = "#controls" if phase == "cancelled" else "#score-panel"
        if phase == "over":
            page.wait_for_selector("#score-panel[open]")
        results = page.locator(f"{place} [data-way=next]")
        expect(results).to_have_text("نتائج البطولة")
        shot(page, screenshots / "flow-tournament-last-ar-1280.jpg")
        assert axe(page) == []
        results.click()
        page.wait_for_url(f"**/ar/tournaments/{TOURNAMENT}")
        expect(page.locator('#tournament-deals li[data-state="done"]')).to_have_count(3)

        # Another tournament, left half played: once it has closed (a restart, so that the
        # tables read its window afresh), its table refuses the next action, in Arabic.
        closing = f"{TOURNAMENT}-closing"
        plan = Planned(closing, "short", "cardavia", 2, opens, opens + timedelta(hours=1))
        Tournaments(store, level="beginner").make(plan)
        page.goto(f"{server.url}/ar/tournaments/{closing}")
        page.locator('li[data-deal="1"] .tournament-play').click()
        page.wait_for_url(f"**/ar/tournaments/{closing}/play/1")
        play_on(page, moves=1)
        with store.engine.begin() as connection:
            connection.execute(
                text("UPDATE tournaments SET closes_at = :at WHERE id = :id"),
                {"at": datetime.now(UTC) - timedelta(seconds=1), "id": closing},
            )
        server.stop()
        expect(page.locator("#table")).to_have_attribute("data-connection", "offline")
        server.start()
        # The page tries again after 0.3 s, doubling up to 5 s: back within 20 s.
        expect(page.locator("#table")).to_have_attribute(
            "data-connection", "online", timeout=20_000
        )
        page.wait_for_function(READY)
        view = page.evaluate("window.cardavia.view")
        if view["phase"] == "bidding":
            page.locator("#controls .bid-button").first.click()
        else:
            card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
            page.click(f'#hand .card[data-card="{card}"]')
            confirm = page.locator("#controls [data-action=confirm]")
            if confirm.count():
                confirm.click()
        expect(page.locator("#status")).to_have_attribute("data-kind", "error")
        expect(page.locator("#status")).to_contain_text("انتهت هذه البطولة")
        shot(page, screenshots / "flow-tournament-closed-ar-1280.jpg")
        assert page.evaluate("window.cardavia.view")["step"] == view["step"]
    finally:
        phone.close()
        store.close()


def put_the_result_aside(page: Page) -> None:
    """A deal's result shown over the page (the computer players play on for the away):
    put aside, as Escape does."""
    if page.locator("#score-panel[open]").count():
        page.keyboard.press("Escape")
        expect(page.locator("#score-panel")).not_to_have_attribute("open", "")


def test_i_am_back_is_on_the_screen_of_one_the_clock_made_away(
    browser: Browser, server: Server, screenshots: Path, axe: Any
) -> None:
    """Bo's clock ran out twice (a computer player plays for him): his "I'm back" is in view
    on a phone and a desktop, whatever the page's scroll, in Arabic and French."""
    settings = RoomSettings("maison", "club", "french", 1000, "fr", quick=True, clock=2.0)
    ana, bo = new_token(), new_token()
    state = RoomState.new(settings, Seat.S, name="Ana", token=hash_token(ana))
    state, _seat = state.take(Seat.N, name="Bo", token=hash_token(bo))
    store = GameStore(f"sqlite:///{server.database}")
    code = new_code()
    store.create_room(code, json.dumps(state.to_json(), ensure_ascii=False), client="test")
    store.close()
    tables = []
    for lang, size, token, seat in (("fr", DESKTOP, ana, "S"), ("ar", PHONE, bo, "N")):
        context = person(browser, lang, size)
        held = json.dumps({"room": code, "token": token, "seat": seat})
        context.add_init_script(
            f"localStorage.setItem('cardavia.room.{code}', {json.dumps(held)});"
        )
        table = Table(context, server.url)
        table.page.goto(f"{server.url}/{lang}/room/{code}")
        tables.append(table)
    first, second = tables
    try:
        first.page.click("#room-start")
        # Nobody acts: each clock (2 s) runs out on them, twice, and they are away.
        for table, lang, size in ((second, "ar", PHONE), (first, "fr", DESKTOP)):
            page = table.page
            page.wait_for_selector("#room-idle:not([hidden])", timeout=120_000)
            back = page.locator("#room-back")
            put_the_result_aside(page)
            for scroll in (0, 10_000):
                page.evaluate("(y) => window.scrollTo(0, y)", scroll)
                inside = page.evaluate(
                    """() => { const box = document.getElementById("room-back")
                        .getBoundingClientRect();
                      return box.top >= 0 && box.bottom <= window.innerHeight; }"""
                )
                assert inside, (lang, scroll)
            shot(page, screenshots / f"flow-back-{lang}-{size[0]}.jpg")
            assert axe(page) == []
            for _ in range(5):  # a deal the computer players end meanwhile: its result aside
                put_the_result_aside(page)
                with contextlib.suppress(PlaywrightTimeoutError):
                    back.click(timeout=3000)
                    break
            expect(page.locator("#room-idle")).to_be_hidden()
    finally:
        for table in tables:
            table.context.close()
