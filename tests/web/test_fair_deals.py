"""Deals anyone can check, through the site (docs/fair-deals.md): every deal is dealt from a
secret seed whose hash the view shows from the start; the seed is shown once the deal is
over, and it gives the deck dealt; a tampered deck is caught; a game saved before deals were
committed to still loads."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.belote import Match, Seat, card_code, check_deal, find_rules, parse_card
from cardavia.live.table import record_json
from cardavia.store.db import GameStore

NewGame = Callable[..., dict[str, str]]
Settle = Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]]


def socket_url(game: dict[str, str], lang: str = "en") -> str:
    return f"/ws/games/{game['game']}?token={game['token']}&lang={lang}"


@pytest.mark.slow  # whole deals
def test_every_deal_is_committed_to_then_revealed(
    client: TestClient, new_game: NewGame, play_out: Settle, settle: Settle
) -> None:
    game = new_game("maison")
    rng = random.Random(3)
    hashes = set()
    with client.websocket_connect(socket_url(game)) as ws:
        for number in (1, 2):
            first = ws.receive_json() if number == 1 else None
            if first is not None:
                fair = first["view"]["fair"]
                assert fair["algorithm"] == "cardavia-deck/1"
                assert len(fair["hash"]) == 64
                assert fair["seed"] is None and fair["deck"] is None
            view, messages = play_out(ws, rng)
            shown = [m["view"]["fair"] for m in messages if m["type"] == "state"]
            assert all(f["seed"] is None for f in shown if f is not shown[-1])
            before = [f for f in shown if f["seed"] is None]
            fair = view["fair"]
            assert all(f["hash"] == fair["hash"] for f in before)
            assert fair["seed"] is not None
            dealt = [parse_card(code) for code in fair["deck"]]
            assert check_deal(fair["seed"], fair["hash"], dealt).ok
            # The deck is the deal's: the hands as dealt are its packets.
            hands = view["replay"]["hands"]
            assert sorted(c for h in hands.values() for c in h) == sorted(fair["deck"])
            tampered = dealt[1:] + dealt[:1]
            assert check_deal(fair["seed"], fair["hash"], tampered).problem == "deck_mismatch"
            other = format(int(fair["seed"], 16) ^ 1, "064x")
            assert check_deal(other, fair["hash"], dealt).problem == "seed_mismatch"
            hashes.add(fair["hash"])
            ws.send_json({"type": "next_deal"})
        view, _ = settle(ws)
        assert view["fair"]["seed"] is None
        assert view["fair"]["hash"] not in hashes


def test_the_commitments_survive_a_restart(
    make_app: Callable[..., FastAPI], play_out: Settle
) -> None:
    with TestClient(make_app()) as client:
        game = client.post("/api/games", json={"rules": "maison", "level": "beginner"}).json()
        with client.websocket_connect(socket_url(game)) as ws:
            view, _ = play_out(ws, random.Random(1))
        revealed = view["fair"]
        ws_hash = revealed["hash"]
    with TestClient(make_app()) as client:
        again = client.get(f"/api/games/{game['game']}?token={game['token']}").json()
        assert again["fair"] == revealed
        assert again["fair"]["hash"] == ws_hash


def test_a_game_saved_before_commitments_still_loads(
    database: str, make_app: Callable[..., FastAPI], play_out: Settle
) -> None:
    match = Match.start(find_rules("maison"), dealer=Seat.N, rng=random.Random(4))
    store = GameStore(database)
    stored = store.create(
        rules="maison", level="beginner", lang="en", token="t" * 43, record=record_json(match)
    )
    store.close()
    game = {"game": stored.id, "token": "t" * 43}
    with TestClient(make_app()) as client, client.websocket_connect(socket_url(game)) as ws:
        view, _ = play_out(ws, random.Random(2))
        assert view["fair"] is None
        ws.send_json({"type": "next_deal"})
        message = ws.receive_json()
        while message["type"] != "state" or message["view"]["deal_number"] != 2:
            message = ws.receive_json()
        assert message["view"]["fair"]["hash"]
    store = GameStore(database)
    loaded = store.load(stored.id)
    store.close()
    assert loaded is not None
    record = json.loads(loaded.record)
    assert len(record["deals"]) == 2
    assert [card_code(c) for c in match.deal.deck] == record["deals"][0]["deck"]
