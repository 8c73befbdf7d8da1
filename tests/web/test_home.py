"""The home (issue 37, item 1; docs/web.md, "The home"), rendered by the server: a "Play now"
per preset with what it commits to, the tournaments open now with their deals and the next to
open, the day's problem; for a player with ratings and a league group this week, their rating
in each rules family and their place, and their games to continue (a room's game under way, a
tournament begun); nothing of a player for a newcomer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.browser.test_leagues import seed
from tests.browser.test_ratings import seed_ratings
from tests.web.test_rooms import create_room, room_url

from cardavia.belote import PRESETS
from cardavia.live.flows import commitment_of
from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.store.db import GameStore
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments
from cardavia.web.app import create_app
from cardavia.web.guests import PLAYER_COOKIE
from cardavia.web.home import commitments, next_short

pytestmark = pytest.mark.slow  # a season of leagues and seventeen rated deals written first

OPEN = "short-cardavia-home"


@pytest.fixture(name="site", scope="module")
def site_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    """The site, a player with ratings and a league group this week, a tournament open."""
    database = tmp_path_factory.mktemp("home") / "cardavia.db"
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
            closes = datetime.now(UTC) + timedelta(hours=2)
            plan = Planned(OPEN, "short", "cardavia", 3, closes - timedelta(hours=3), closes)
            assert Tournaments(store, level="beginner").make(plan)
        finally:
            store.close()
        yield client, database


def test_the_home_says_what_there_is_to_play(site: tuple[TestClient, Path]) -> None:
    client, _ = site
    page = client.get("/fr/").text
    home = page[page.index('<section class="home"') :]
    assert len(re.findall(r'class="button-link primary quick-play"', home)) == 4
    assert "Une donne, environ 3 minutes" in home
    assert "Une partie en 2000 points, environ 42 minutes" in home
    assert f'data-tournament="{OPEN}"' in home and "3 donnes" in home
    assert "Prochain\u00a0: Tournoi express" in home
    assert 'href="/fr/rules/problems#daily"' in home
    # The player's own: a rating in each family they were rated in, this week's place.
    player = home[home.index('id="home-player"') :]
    assert "Tables classiques\u00a0: " in player and "Coinche\u00a0: " in player
    assert re.search(r"Ligue\u00a0: division 4, groupe \d+, rang 2", player)


def test_a_newcomer_has_no_player_card(site: tuple[TestClient, Path]) -> None:
    client, _ = site
    stranger = TestClient(client.app)
    page = stranger.get("/ar/").text
    assert 'id="home"' in page and 'id="home-player"' not in page
    assert "جولة واحدة، نحو 3 دقائق" in page


def test_a_game_is_long_as_its_target_says() -> None:
    """The home says what the waiting page says (live/flows.py): one estimate of a game."""
    said = commitments([{"key": key} for key in PRESETS])
    assert said["cardavia"].minutes == 3 and said["cardavia"].target is None
    assert said["maison"].minutes < said["coinche"].minutes
    assert said == {key: commitment_of(rules) for key, rules in PRESETS.items()}
    moment = datetime(2026, 12, 4, 21, 30, tzinfo=UTC)
    assert next_short(moment).opens_at == datetime(2026, 12, 5, tzinfo=UTC)


def test_the_games_under_way_are_offered_to_continue(site: tuple[TestClient, Path]) -> None:
    """A room's game dealt with the player in a seat, and a tournament's first deal begun:
    both on the home, to continue; neither for another visitor."""
    client, _ = site
    assert 'id="home-continue"' not in client.get("/fr/").text
    room = create_room(client, "Zoé")
    with client.websocket_connect(room_url(room["room"], room["token"])) as ws:
        ws.send_json({"type": "start"})
        while ws.receive_json()["type"] != "state":
            pass
    started = client.post(f"/api/tournaments/{OPEN}/deals/1", json={"lang": "fr"})
    assert started.status_code == 201, started.text
    page = client.get("/fr/").text
    going_on = page[page.index('id="home-continue"') : page.index('id="quick-entry"')]
    assert f'href="/fr/room/{room["room"]}"' in going_on
    assert f'href="/fr/tournaments/{OPEN}/play/1"' in going_on
    assert 'id="home-continue"' not in TestClient(client.app).get("/fr/").text


def test_the_offer_to_keep_ones_player_is_for_the_solo_tables_guest(
    site: tuple[TestClient, Path],
) -> None:
    """The solo table's page carries the offer a guest's first result makes (keep_player.js):
    for a first visitor and a guest, never once the player holds a passkey, never on a room's
    page (its own flow)."""
    client, database = site
    guest = TestClient(client.app)
    assert 'id="keep-player-offer"' in guest.get("/pl/").text  # a first visitor
    assert guest.put("/api/me", json={"name": "Ula"}).status_code == 200
    page = guest.get("/pl/").text
    offer = page[page.index('id="keep-player-offer"') : page.index("</template>")]
    assert 'href="/pl/me#profile-identity"' in offer and "Nie, dziękuję" in offer
    assert 'id="keep-player-offer"' not in guest.get("/pl/room/").text
    store = GameStore(f"sqlite:///{database}")
    try:
        player = store.players.find(guest.cookies[PLAYER_COOKIE])
        assert player is not None
        store.passkeys.add("key-ula", player.id, b"public key", 0)
    finally:
        store.close()
    assert 'id="keep-player-offer"' not in guest.get("/pl/").text


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_the_lobbys_play_now_says_what_the_homes_says(
    site: tuple[TestClient, Path], lang: str
) -> None:
    """Each "Play now" of the lobby is described by what it commits to, in the home's words."""
    client, _ = site

    def said(path: str, prefix: str) -> dict[str, str]:
        page = client.get(path).text
        found = re.findall(rf'<p class="commitment" id="{prefix}-(\w+)">([^<]+)</p>', page)
        links = re.findall(rf'href="/{lang}/quick/(\w+)"[^>]*aria-describedby="{prefix}-\1"', page)
        assert sorted(links) == sorted(PRESETS)
        return dict(found)

    lobby = said(f"/{lang}/lobby", "lobby-commitment")
    assert lobby == said(f"/{lang}/", "commitment")
    assert sorted(lobby) == sorted(PRESETS)
    assert (
        lobby["coinche"]
        == {
            "fr": "Une partie en 2000 points, environ 42 minutes",
            "ar": "مباراة حتى 2000 نقطة، نحو 42 دقيقة",
        }[lang]
    )
