"""Display names need a letter or a digit that shows (docs/players.md, "What a player keeps";
issue 35): a name made only of characters drawn as nothing — the Hangul fillers, the braille
blank, spaces, combining marks, format characters — is refused with the site's error in the
person's language, by ``PUT /api/me`` and by a room's creation and joining, and changes
nothing; a real name keeps its letters, the invisible ones taken out."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from tests.players.plays import GAME, app_fixture, browser_fixture

from cardavia.live.display_names import clean_name
from cardavia.live.protocol import ClientError

__all__ = ["app_fixture", "browser_fixture"]

BLANK_NAMES = {
    "Hangul filler": "\u3164",
    "braille blank": "\u2800",
    "Hangul choseong filler": "\u115f",
    "Hangul jungseong filler": "\u1160",
    "halfwidth Hangul filler": "\uffa0",
    "fillers and a space": "\u3164 \uffa0",
    "spaces": "   ",
    "combining marks": "\u0301\u0308",
    "a combining mark on a braille blank": "\u2800\u0301",
    "zero-width space and joiner": "\u200b\u200d",
    "dots": "...",
}
"""What shows as an empty seat (or a smudge): none of it a letter or a digit to see."""


@pytest.mark.parametrize("name", BLANK_NAMES.values(), ids=BLANK_NAMES.keys())
def test_a_name_with_nothing_to_see_is_refused(name: str) -> None:
    with pytest.raises(ClientError) as refused:
        clean_name(name)
    assert refused.value.code in ("bad_name", "blank_name")


def test_a_real_name_keeps_its_letters_without_the_invisible_ones() -> None:
    assert clean_name("\u3164Zo\u00e9\uffa0") == "Zoé"
    assert clean_name("Ana\u2800\u2800B.") == "Ana B."
    assert clean_name("7") == "7" and clean_name("ليلى") == "ليلى"
    assert clean_name("e\u0301") == "é"  # a combining mark on a letter is the letter's


@pytest.mark.parametrize("name", BLANK_NAMES.values(), ids=BLANK_NAMES.keys())
def test_the_site_refuses_a_blank_name_in_the_persons_language(
    browser: Callable[[], TestClient], name: str
) -> None:
    person = browser()
    person.post("/api/games", json=GAME)
    person.put("/api/me", json={"name": "Ana"})
    refused = person.put("/api/me", json={"name": name}, headers={"Accept-Language": "pl"})
    assert refused.status_code == 400
    error = refused.json()
    assert error["type"] == "error" and error["code"] in ("bad_name", "blank_name")
    assert "nazw" in error["message"]  # Polish: "display name" is "wyświetlana nazwa"
    assert person.get("/api/me").json()["name"] == "Ana"
    room = {"name": name, "rules": "cardavia", "lang": "fr"}
    made = person.post("/api/rooms?lang=fr", json=room)
    assert made.status_code == 400 and "nom affiché" in made.json()["message"]
    code = person.post("/api/rooms", json=room | {"name": "Ana"}).json()["room"]
    friend = browser()
    joined = friend.post(f"/api/rooms/{code}/join?lang=ar", json={"name": name})
    assert joined.status_code == 400 and joined.json()["code"] in ("bad_name", "blank_name")
    assert "اسم" in joined.json()["message"]
    seats = person.get(f"/api/rooms/{code}").json()["room"]["seats"]
    assert sum(seat["kind"] == "human" for seat in seats.values()) == 1


def test_a_name_of_symbols_only_is_refused_for_what_it_lacks(
    browser: Callable[[], TestClient],
) -> None:
    person = browser()
    body = {"name": "\u2800\u0301 ..."}
    refused = person.put("/api/me", json=body, headers={"Accept-Language": "en"})
    assert refused.json()["code"] == "blank_name"
    assert refused.json()["message"] == (
        "A display name needs at least one letter or digit that shows."
    )
