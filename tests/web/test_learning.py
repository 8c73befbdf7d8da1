"""Learning through the site (docs/learning.md): the analysis of a finished deal (refused
while the deal is played: it would show the hidden hands), hints from South's observation
only, the training problems as each seat sees them."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardavia.ai.problems import load_problems
from cardavia.belote import DealState, Observation, Seat, find_rules
from cardavia.belote.game import deal_packets
from cardavia.live import learn
from cardavia.web.problems import daily_problem
from cardavia.words import LANGUAGES, missing_messages

NewGame = Callable[..., dict[str, str]]
Settle = Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]]
CARD_CODE = re.compile(r"\b[789TJQKA][SHDC]\b")


def socket_url(game: dict[str, str], lang: str = "en") -> str:
    return f"/ws/games/{game['game']}?token={game['token']}&lang={lang}"


def analysis_url(game: dict[str, str], lang: str = "en", deal: int | None = None) -> str:
    url = f"/api/games/{game['game']}/analysis?token={game['token']}&lang={lang}"
    return url if deal is None else f"{url}&deal={deal}"


def test_the_analysis_is_refused_while_the_deal_is_played(
    client: TestClient, new_game: NewGame, settle: Settle
) -> None:
    game = new_game("maison")
    with client.websocket_connect(socket_url(game)) as ws:
        view, _ = settle(ws)
        assert view["phase"] not in ("over", "cancelled")
        response = client.get(analysis_url(game, "fr"))
        assert response.status_code == 409
        body = response.json()
        assert body["code"] == "deal_not_over"
        # Nothing of the deal in the refusal: not a card, not a word of the analysis.
        assert not CARD_CODE.search(response.text)
        assert set(body) <= {"type", "code", "message", "args"}
        for deal in ("2", "0", "x", "99999"):
            refused = client.get(analysis_url(game) + f"&deal={deal}")
            assert refused.status_code in (400, 404), deal
            assert not CARD_CODE.search(refused.text)
    wrong = client.get(f"/api/games/{game['game']}/analysis?token=nope")
    assert wrong.status_code == 403


@pytest.mark.slow  # a deal's analysis
@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_a_finished_deal_is_analysed_in_the_players_language(
    client: TestClient, new_game: NewGame, play_out: Settle, lang: str
) -> None:
    game = new_game("maison", lang=lang)
    rng = random.Random(11)
    with client.websocket_connect(socket_url(game, lang)) as ws:
        view, _ = play_out(ws, rng)
        while view["phase"] == "cancelled":
            ws.send_json({"type": "next_deal"})
            view, _ = play_out(ws, rng)
        number = view["deal_number"]
        response = client.get(analysis_url(game, lang))
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["deal"] == number and data["lang"] == lang
        assert data["dir"] == ("rtl" if lang == "ar" else "ltr")
        assert len(data["cards"]) == 32
        plays = [c for t in view["replay"]["tricks"] for c in t["cards"]]
        assert [(c["seat"], c["card"]) for c in data["cards"]] == [
            (p["seat"], p["card"]) for p in plays
        ]
        for card in data["cards"]:
            assert card["label"] and card["text"] and "{" not in card["text"]
        assert data["moments"] and all(m["text"] and m["line"] for m in data["moments"])
        assert all(b["action_text"] and b["suggested_text"] for b in data["bids"])
        assert data["labels"]["moments"] != "The moments of the deal"
        assert not missing_messages(lang)  # every word asked for is in the catalog
        # Kept: the same answer again, without thinking again.
        again = client.get(analysis_url(game, lang))
        assert again.json() == data
        # The next deal in play: this one may still be analysed, the new one not yet.
        ws.send_json({"type": "next_deal"})
        ws.receive_json()
        assert client.get(analysis_url(game, lang, deal=number)).status_code == 200
        assert client.get(analysis_url(game, lang, deal=number + 1)).status_code == 409


def test_a_hint_through_the_socket(
    client: TestClient, new_game: NewGame, settle: Settle, monkeypatch: pytest.MonkeyPatch
) -> None:
    given: list[Observation] = []
    real = learn.hint

    def spy(observation: Observation, seed: int = 0) -> Any:
        given.append(observation)
        return real(observation, seed)

    monkeypatch.setattr(learn, "hint", spy)
    game = new_game("maison", lang="es")
    with client.websocket_connect(socket_url(game, "es")) as ws:
        view, _ = settle(ws)
        for _ in range(3):
            ws.send_json({"type": "hint"})
            message = ws.receive_json()
            assert message["type"] == "hint" and message["step"] == view["step"]
            answer = message["hint"]
            assert answer["action"] in view["legal"]
            assert answer["text"] and answer["action_text"]
            assert answer["reason"]["code"]
            ws.send_json({"type": "action", "action": answer["action"]})
            view, _ = settle(ws)
            if view["phase"] in ("over", "cancelled"):
                break
    # The hint was worked out from South's observation, nothing else.
    assert given and all(isinstance(o, Observation) and o.seat == Seat.S for o in given)


def test_the_hint_does_not_depend_on_hidden_cards() -> None:
    """South, first to bid, sees the same deal with West's and North's cards exchanged: the
    site's hint is the same."""
    rules = find_rules("coinche")
    deck = list(DealState.deal(rules, dealer=Seat.E, rng=random.Random(9)).deck)
    packets = [int(n) for n in rules.auction_packets.split("-")]
    places, _ = deal_packets(Seat.E, list(range(32)), packets)
    north = [i for i in range(32) if places[Seat.N] >> i & 1]
    west = [i for i in range(32) if places[Seat.W] >> i & 1]
    swapped = list(deck)
    for n, w in zip(north, west, strict=True):
        swapped[n], swapped[w] = deck[w], deck[n]
    one, two = (DealState.from_deck(rules, dealer=Seat.E, deck=d) for d in (deck, swapped))
    assert one.hands[Seat.N] == two.hands[Seat.W]
    assert one.observation(Seat.S) == two.observation(Seat.S)
    assert learn._hint(one.observation(Seat.S), 4) == learn._hint(two.observation(Seat.S), 4)


def test_no_hint_when_south_has_nothing_to_do(client: TestClient, new_game: NewGame) -> None:
    service = client.app.state.tables  # type: ignore[attr-defined]
    game = new_game("maison")
    table = service._tables[game["game"]]

    async def ask() -> dict[str, Any]:
        learning: learn.Learning = client.app.state.learning  # type: ignore[attr-defined]
        return await learning.hint(table, "en", Seat.S)

    if table.match.deal.to_move != Seat.S:
        answer = asyncio.run(ask())
        assert answer == {"type": "hint", "step": answer["step"], "hint": None}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_problems_as_data(reader: TestClient, lang: str) -> None:
    response = reader.get(f"/api/problems?lang={lang}")
    assert response.status_code == 200
    data = response.json()
    problems = load_problems()
    assert len(data["problems"]) == len(problems)
    for given, problem in zip(data["problems"], problems, strict=True):
        view = given["view"]
        assert view["seat"] == problem.seat.name
        # The seat's own view: its hand, no other.
        assert sorted(view["hand"]) == sorted(
            problem.state().observation(problem.seat).hand.codes()
        )
        assert given["solution"] in view["legal"]
        assert given["explanation"] and "{" not in given["explanation"]
        assert given["theme_title"]
        assert all(b["text"] and "{" not in b["text"] for b in given["legal_bids"])
        assert "{" not in given["solution_text"]
    leads = reader.get(f"/api/problems?lang={lang}&theme=defence").json()["problems"]
    assert leads and all(p["theme"] == "defence" for p in leads)
    assert reader.get("/api/problems?theme=nothing").status_code == 400
    today = reader.get(f"/api/problems/today?lang={lang}").json()
    assert today["id"] == daily_problem(today["day"]).id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_words_of_the_learning_bar(reader: TestClient, lang: str) -> None:
    words = reader.get(f"/api/learn/words?lang={lang}").json()
    assert words["lang"] == lang and words["dir"] == ("rtl" if lang == "ar" else "ltr")
    for key in ("analyse", "hint", "hints_setting", "check_shuffle", "shuffle_ok", "shuffle_bad"):
        assert words[key]
        assert lang == "en" or words[key] != reader.get("/api/learn/words?lang=en").json()[key]
