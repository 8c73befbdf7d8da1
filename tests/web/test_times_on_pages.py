"""No page shows an ISO date or a time said only in UTC (issue 38; cardavia.words.times):
every page kind with a date or a time, rendered in several languages for a player with a
rating, a performance, a league and closed tournaments beside an open one, says its times in
the reader's words and clock (the zone their browser sent), and says "UTC" once, as a note,
only when it does not know the reader's zone: a zone that is none, however hostile, is that."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from tests.browser.test_leagues import seed
from tests.browser.test_ratings import seed_ratings

from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.store.db import GameStore
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments
from cardavia.web.app import create_app
from cardavia.web.guests import PLAYER_COOKIE
from cardavia.words.times import ZONE_COOKIE

pytestmark = pytest.mark.slow  # some forty pages rendered, a season of leagues written first

OPEN = "short-cardavia-times"
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{2}:\d{2}:\d{2}\b")
UTC_TIME = re.compile(r"\d{1,2}[:.]\d{2}[^\n]{0,12}UTC|UTC[^\n]{0,4}\d{1,2}[:.]\d{2}")
LANGS = ("fr", "en", "ar", "pl", "hi", "es")


def visible_text(page: str) -> str:
    """What a reader sees of a page: no script, no style, no tag or attribute."""
    page = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<(p|li|dd|dt|td|th|h\d|div|section|tr)\b[^>]*>", "\n", page)
    page = re.sub(r"(?s)<[^>]*>", "", page)
    return re.sub(r"[ \t]*\n\s*", "\n", html.unescape(page))


@pytest.fixture(name="site", scope="module")
def site_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    """The site, a player with ratings, a performance, last week's and this week's league
    and their closed tournaments, and a short tournament that closes in 1 h 42 min."""
    database = tmp_path_factory.mktemp("times") / "cardavia.db"
    settings = Settings(
        database_url=f"sqlite:///{database}",
        limits=Limits(games_per_minute=0, messages_per_second=0),
        allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
    )
    with TestClient(create_app(settings)) as client:
        assert client.put("/api/me", json={"name": "Zoé"}).status_code == 200
        token = client.cookies[PLAYER_COOKIE]
        seed(database, token)
        seed_ratings(database, token)
        store = GameStore(f"sqlite:///{database}")
        try:
            closes = datetime.now(UTC) + timedelta(hours=1, minutes=42, seconds=30)
            plan = Planned(OPEN, "short", "cardavia", 3, closes - timedelta(hours=3), closes)
            assert Tournaments(store, level="beginner").make(plan)
            closed = [t for t in Tournaments(store).closed_lately() if t.id.startswith("league")]
        finally:
            store.close()
        yield client, closed[0].id


def pages(closed: str) -> list[str]:
    """Every page kind that has a date or a time (the language put in front)."""
    return [
        "tournaments",
        f"tournaments/{OPEN}",
        f"tournaments/{closed}",
        f"tournaments/{closed}/deals/1",
        "me",
        "me/games",
        "leagues",
    ]


def read(client: TestClient, lang: str, path: str, zone: str | None) -> str:
    client.cookies.delete(ZONE_COOKIE)
    if zone is not None:
        client.cookies.set(ZONE_COOKIE, zone)
    response = client.get(f"/{lang}/{path}", follow_redirects=False)
    assert response.status_code == 200, (lang, path)
    return visible_text(response.text)


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_shows_an_iso_date_or_a_utc_only_time(
    site: tuple[TestClient, str], lang: str
) -> None:
    client, closed = site
    for path in pages(closed):
        for zone in ("Europe/Warsaw", None):
            text = read(client, lang, path, zone)
            assert ISO_DATE.findall(text) == [], (lang, path, zone)
            if zone is not None:  # the reader's clock known: no time in UTC
                assert UTC_TIME.findall(text) == [], (lang, path, zone)
            # Not known: the page says its zone, once.
            assert text.count("UTC") <= (0 if zone else 1), (lang, path, zone)


def test_times_are_on_the_readers_clock(site: tuple[TestClient, str]) -> None:
    """The open tournament's close, read from Kolkata and from Los Angeles: two clocks
    13 h 30 min apart in December, the same countdown."""
    client, _ = site
    said = {}
    for zone in ("Asia/Kolkata", "America/Los_Angeles"):
        text = read(client, "en", f"tournaments/{OPEN}", zone)
        found = re.search(r"\nCloses\n(.+)\n", text)
        assert found is not None
        moment = found.group(1).replace("\u202f", " ")
        said[zone] = datetime.strptime(moment, "%B %d, %Y at %I:%M %p")
        assert re.search(r"Closes in 1 hr \d+ min", text)
    assert said["Asia/Kolkata"] - said["America/Los_Angeles"] == timedelta(hours=13, minutes=30)


def test_the_leagues_week_ends_on_the_readers_clock(site: tuple[TestClient, str]) -> None:
    client, _ = site
    assert ", your time." in read(client, "en", "leagues", "Europe/Paris")
    french = read(client, "fr", "leagues", "Pacific/Auckland")
    assert re.search(r"La semaine se termine le lundi \d+ \w+ à 12:59, heure locale\.", french)
    polish = read(client, "pl", "leagues", None)
    assert re.search(r"Koniec tygodnia: niedziela, \d+ \w+, godz\. 23:59 \(UTC\)\.", polish)


@pytest.mark.parametrize(
    "zone", ["Mars/Olympus", "../../../etc/passwd", "Europe/Paris\\x00", "a" * 4000, "%00"]
)
def test_a_zone_that_is_none_is_ignored_never_an_error(
    site: tuple[TestClient, str], zone: str
) -> None:
    client, _ = site
    text = read(client, "es", "tournaments", zone)
    assert "Las horas se indican en UTC." in text


def test_a_zone_is_kept_with_the_players_settings(site: tuple[TestClient, str]) -> None:
    """A browser that has not sent its zone yet reads the player's kept one; a kept zone of
    the wrong shape is refused with the settings' error, and nothing is changed."""
    client, _ = site
    assert client.put("/api/me", json={"settings": {"timeZone": "Asia/Tokyo"}}).status_code == 200
    refused = client.put("/api/me", json={"settings": {"timeZone": "../etc/passwd"}})
    assert refused.status_code == 400
    assert client.get("/api/me").json()["settings"]["timeZone"] == "Asia/Tokyo"
    tokyo = read(client, "en", "leagues", None)
    assert ", your time." in tokyo and "UTC" not in tokyo
    client.put("/api/me", json={"settings": {}})
