"""Quick play in Chromium: four people press "Play now" (French and Arabic, phone and
desktop) and are seated at one table — the same room, four different seats, each seeing their
own hand only; two people sit down with two computer players once the wait is over; the
waiting page and the "Play now" buttons with zero axe-core violations, in French and Arabic,
on a phone and a desktop. The site here has a short wait (``CARDAVIA_QUICK_WAIT``), and each
person comes from an address of their own (the site trusts the loopback as a proxy and reads
``X-Forwarded-For``): one client's guests never share a table."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from tests.browser.conftest import Server, shot

ADDRESSES = (f"198.51.100.{n % 250 + 1}" for n in itertools.count())
"""An address of their own for each person."""
PHONE = (360, 740)
DESKTOP = (1280, 800)


class QuickServer(Server):
    """The site with its own wait before computer players fill a quick-play table."""

    def __init__(self, database: Path, wait: float) -> None:
        super().__init__(database)
        self.wait_seconds = wait

    def launch(self) -> None:
        quick = {
            "CARDAVIA_QUICK_WAIT": str(self.wait_seconds),
            "CARDAVIA_QUICK_JOINS": "0",
            "CARDAVIA_TRUSTED_PROXIES": "127.0.0.1",
        }
        with mock.patch.dict(os.environ, quick):
            super().launch()


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    """A site whose people wait for each other (an hour before computer players come)."""
    site = QuickServer(tmp_path_factory.mktemp("quick") / "cardavia.db", 3600)
    site.start()
    yield site
    site.stop()


@pytest.fixture(scope="module")
def short_wait_server(
    tmp_path_factory: pytest.TempPathFactory, browser: Browser
) -> Iterator[Server]:
    """A site whose computer players fill the seats after 3 s."""
    site = QuickServer(tmp_path_factory.mktemp("quick-short") / "cardavia.db", 3)
    site.start()
    yield site
    site.stop()


def person(browser: Browser, lang: str, size: tuple[int, int]) -> BrowserContext:
    context = browser.new_context(
        bypass_csp=True,
        viewport={"width": size[0], "height": size[1]},
        reduced_motion="reduce",
        locale=lang,
        extra_http_headers={"X-Forwarded-For": next(ADDRESSES)},
    )
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));")
    return context


def press_play_now(page: Page, base: str, lang: str, preset: str) -> None:
    """From the table page, the "Play now" of ``preset``, by keyboard: focus it, Enter."""
    page.goto(f"{base}/{lang}/")
    button = page.locator(f"a.quick-play[data-preset='{preset}']")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/{lang}/quick/{preset}$"))


def seated_view(page: Page) -> dict[str, Any]:
    page.wait_for_url(re.compile(r"/room/[A-Z]{5}$"), timeout=30_000)
    page.wait_for_function(
        "() => window.cardavia && window.cardavia.view && window.cardavia.view.hand.length > 0",
        timeout=30_000,
    )
    view: dict[str, Any] = page.evaluate("() => window.cardavia.view")
    return view


def test_four_people_press_play_now_and_sit_at_one_table(
    browser: Browser, quick_server: Server, screenshots: Path
) -> None:
    people = [("fr", DESKTOP), ("ar", PHONE), ("fr", PHONE), ("ar", DESKTOP)]
    contexts = [person(browser, lang, size) for lang, size in people]
    try:
        pages = [context.new_page() for context in contexts]
        for page, (lang, _) in zip(pages, people, strict=True):
            press_play_now(page, quick_server.url, lang, "maison")
        views = [seated_view(page) for page in pages]
        codes = {page.url.rsplit("/", 1)[1] for page in pages}
        assert len(codes) == 1
        assert sorted(view["seat"] for view in views) == ["E", "N", "S", "W"]
        for page, view in zip(pages, views, strict=True):
            # Their own hand at the bottom, no other hand's faces anywhere on their page.
            assert view["screen"]["bottom"] == view["seat"]
            shown = page.locator(".hand .card").count()
            assert shown == len(view["hand"]) > 0
            others = page.locator(".seat:not([data-pos='bottom']) .open-hand .card")
            assert others.count() == 0
            assert not any(view["names"][seat]["computer"] for seat in "NESW")
        shot(pages[1], str(screenshots / "quick-room-ar-360.jpg"))
    finally:
        for context in contexts:
            context.close()


def test_two_people_sit_with_two_computer_players_after_the_wait(
    browser: Browser, short_wait_server: Server
) -> None:
    contexts = [person(browser, "fr", PHONE), person(browser, "fr", DESKTOP)]
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            page.goto(f"{short_wait_server.url}/fr/")
        # Both press "Play now" one right after the other (the wait is short).
        for page in pages:
            page.locator("a.quick-play[data-preset='coinche']").click()
        for page in pages:
            page.wait_for_url(re.compile(r"/fr/quick/coinche$"))
        views = [seated_view(page) for page in pages]
        assert {page.url.rsplit("/", 1)[1] for page in pages} == {pages[0].url.rsplit("/", 1)[1]}
        assert views[0]["seat"] != views[1]["seat"]
        computers = [seat for seat in "NESW" if views[0]["names"][seat]["computer"]]
        assert len(computers) == 2 and views[0]["seat"] not in computers
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_the_play_now_buttons_and_cancel(
    browser: Browser, quick_server: Server, screenshots: Path, axe: Any, lang: str
) -> None:
    for size in (PHONE, DESKTOP):
        context = person(browser, lang, size)
        try:
            page = context.new_page()
            page.goto(f"{quick_server.url}/{lang}/")
            entry = page.locator("#quick-entry")
            entry.scroll_into_view_if_needed()
            assert page.locator("a.quick-play").count() == 4
            entry.screenshot(path=str(screenshots / f"quick-buttons-{lang}-{size[0]}.png"))
            shot(page, str(screenshots / f"quick-home-{lang}-{size[0]}.jpg"), full_page=True)
            assert axe(page) == []
            press_play_now(page, quick_server.url, lang, "maghreb")
            page.wait_for_function(
                "() => document.getElementById('quick').dataset.state === 'waiting'"
            )
            page.wait_for_function(
                "() => document.getElementById('quick-count').textContent !== '–'"
            )
            name = f"quick-wait-{lang}-{size[0]}.jpg"
            shot(page, str(screenshots / name), full_page=True)
            assert axe(page) == []
            page.locator("#quick-cancel").click()
            page.wait_for_function(
                "() => document.getElementById('quick').dataset.state === 'cancelled'"
            )
            assert page.locator("#quick-again").is_visible()
            shot(page, str(screenshots / f"quick-cancelled-{lang}-{size[0]}.jpg"), full_page=True)
            assert axe(page) == []
        finally:
            context.close()
