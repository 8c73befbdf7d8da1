"""The table's WebSocket (docs/web.md): whole deals played through it, every kind of bad
message refused in the player's language with nothing changed, the seat token, and the
guarantee that no message shows another seat's cards before the deal is over."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import cards_seat_may_know

from cardavia.ai.decisions import Decisions
from cardavia.ai.levels import LEVELS, level_version, register_player
from cardavia.ai.pool import DecisionPool
from cardavia.belote import DealState, Observation, Phase, Play, Seat
from cardavia.belote.actions import Action
from cardavia.belote.notation import Record
from cardavia.store.db import Append, GameStore
from cardavia.words import load_catalogs

NewGame = Callable[..., dict[str, str]]
NewGameData = dict[str, str]
Settle = Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]]
CATALOGS = load_catalogs()
CARD_CODE = re.compile(r"^[789TJQKA][SHDC]$")


def socket_url(game: dict[str, str], lang: str = "en", token: str | None = None) -> str:
    return f"/ws/games/{game['game']}?token={token or game['token']}&lang={lang}"


def stored_record(database: str, game_id: str) -> str:
    store = GameStore(database)
    stored = store.load(game_id)
    store.close()
    assert stored is not None
    return stored.record


def bidding_game(client: TestClient, new_game: NewGame, settle: Settle, lang: str) -> NewGameData:
    """A classic game whose table waits for South to bid (each game's deal is dealt from its
    own seed: some deals have South play first, after the bidding)."""
    for _ in range(30):
        game = new_game("cardavia", lang=lang)
        with client.websocket_connect(socket_url(game, lang)) as ws:
            view, _ = settle(ws)
        if view["phase"] == "bidding":
            return game
    raise AssertionError("no deal left South to bid")


# -- playing ---------------------------------------------------------------------------------


def test_first_message_is_the_state(client: TestClient, new_game: NewGame) -> None:
    game = new_game("maison")
    with client.websocket_connect(socket_url(game)) as ws:
        message = ws.receive_json()
        assert message["type"] == "state"
        view = message["view"]
        assert view["seat"] == "S"
        assert view["game"] == game["game"]
        assert view["phase"] == "bidding"


@pytest.mark.parametrize("rules", ["cardavia", "maison", "coinche", "maghreb"])
def test_a_whole_deal_through_the_socket(
    client: TestClient,
    new_game: NewGame,
    play_out: Settle,
    database: str,
    rules: str,
) -> None:
    game = new_game(rules, level="club", lang="fr")
    with client.websocket_connect(socket_url(game, "fr")) as ws:
        view, messages = play_out(ws, random.Random(rules))
        steps = [m["view"]["step"] for m in messages if m["type"] == "state"]
        assert all(m["type"] == "state" for m in messages)
        # One message per action: the steps go up one at a time (the first may repeat).
        assert all(b - a in (0, 1) for a, b in itertools.pairwise(steps))
    match = Record.from_json(stored_record(database, game["game"])).replay()
    assert view["step"] == len(match.deal.history)
    assert view["phase"] == match.deal.phase.value
    if view["phase"] == "over":
        assert view["result"]["scores"] == {
            "NS": match.deal.result.scores[0],  # type: ignore[union-attr]
            "EW": match.deal.result.scores[1],  # type: ignore[union-attr]
        }
        assert sum(len(hand) for hand in view["replay"]["hands"].values()) == 32
        assert len(view["replay"]["tricks"]) == 8
        assert all(line["text"] for line in view["result"]["lines"])
    assert view["next_deal"] == (rules != "cardavia" or view["phase"] == "cancelled")


@pytest.mark.slow  # a whole match
def test_a_match_goes_on_deal_after_deal(
    client: TestClient, new_game: NewGame, play_out: Settle, settle: Settle
) -> None:
    game = new_game("maison")
    rng = random.Random(5)
    with client.websocket_connect(socket_url(game)) as ws:
        for number in (1, 2, 3):
            view, _ = play_out(ws, rng)
            assert view["deal_number"] == number
            assert len(view["match"]["deals"]) == number
            assert view["next_deal"]
            ws.send_json({"type": "next_deal"})
        view, _ = settle(ws)
        assert view["deal_number"] == 4
        totals = view["match"]["deals"]
        assert view["match"]["scores"]["NS"] >= sum(d["NS"] for d in totals)


def test_a_single_deal_ends_the_game(
    client: TestClient, new_game: NewGame, play_out: Settle
) -> None:
    rng = random.Random(11)
    for _ in range(3):
        game = new_game("cardavia")
        with client.websocket_connect(socket_url(game)) as ws:
            view, _ = play_out(ws, rng)
            if view["phase"] == "over":
                assert view["match"]["over"]
                assert not view["next_deal"]
                ws.send_json({"type": "next_deal"})
                error = ws.receive_json()
                assert error["code"] == "match_over"
                return
            assert view["next_deal"]  # cancelled: deal again
    pytest.skip("every deal was cancelled")


def finish_the_game(
    ws: Any, rng: random.Random, play_out: Settle, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Play a single-deal game to its end (dealt again while its deal is cancelled)."""
    view, _ = play_out(ws, rng, view)
    while view["phase"] == "cancelled":
        ws.send_json({"type": "next_deal"})
        view, _ = play_out(ws, rng)
    return view


@pytest.mark.slow  # two whole deals
def test_the_next_game_is_dealt_over_the_open_socket(
    client: TestClient,
    new_game: NewGame,
    play_out: Settle,
    settle: Settle,
    database: str,
) -> None:
    rng = random.Random(3)
    first = new_game("cardavia", level="club", lang="fr")
    with client.websocket_connect(socket_url(first, "fr")) as ws:
        waiting, _ = settle(ws)
        ws.send_json({"type": "again", "game": first["game"]})
        error = ws.receive_json()
        assert error["code"] == "game_not_over"
        assert error["message"] == CATALOGS.wording("fr").error("game_not_over")
        over = finish_the_game(ws, rng, play_out, waiting)
        assert not over["next_deal"]
        ws.send_json({"type": "again", "game": first["game"]})
        told = ws.receive_json()
        assert told["type"] == "game"
        assert told["seat"] == "S" and told["game"] != first["game"] and told["token"]
        view, _ = settle(ws)
        assert view["game"] == told["game"] and view["rules"] == "cardavia"
        assert view["level"] == "club" and view["seat"] == "S" and view["deal_number"] == 1
        # A late "again" of the game already left changes nothing.
        ws.send_json({"type": "again", "game": first["game"]})
        ws.send_json({"type": "sync"})
        synced = ws.receive_json()
        assert synced["type"] == "state" and synced["view"]["game"] == told["game"]
        second = finish_the_game(ws, rng, play_out, synced["view"])
        assert second["game"] == told["game"]
    # Both games are saved, each with its own token; the first one stays as it ended.
    assert Record.from_json(stored_record(database, first["game"])).replay().is_over
    assert Record.from_json(stored_record(database, told["game"])).replay().is_over
    assert client.get(f"/api/games/{told['game']}?token={told['token']}").status_code == 200
    assert client.get(f"/api/games/{told['game']}?token={first['token']}").status_code == 403
    # And both are the player's (the cookie of the first game's request).
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    player = store.players.find(client.cookies["cardavia_player"])
    assert player is not None
    games = [game for game, _seat in store.players.games_of(player.id)]
    assert games == [first["game"], told["game"]]


def test_two_connections_see_every_change_each_in_its_language(
    client: TestClient, new_game: NewGame, settle: Settle
) -> None:
    game = new_game("cardavia")
    with (
        client.websocket_connect(socket_url(game, "fr")) as french,
        client.websocket_connect(socket_url(game, "ar")) as arabic,
    ):
        view, _ = settle(french)
        seen, _ = settle(arabic)
        assert seen["step"] == view["step"]
        french.send_json({"type": "action", "action": view["legal"][0]})
        view, _ = settle(french)
        seen, _ = settle(arabic)
        assert (seen["step"], seen["lang"], view["lang"]) == (view["step"], "ar", "fr")
        assert [b["text"] for b in seen["bids"]] != [b["text"] for b in view["bids"]]


# -- bad input -------------------------------------------------------------------------------


BAD_MESSAGES: list[tuple[str | bytes, str]] = [
    ("not json at all", "bad_json"),
    ("{'type': 'sync'}", "bad_json"),
    ("[" * 3000 + "]" * 3000, "too_large"),
    ("[" * 2000 + "]" * 2000, "bad_json"),
    ("[1, 2]", "not_an_object"),
    ("42", "not_an_object"),
    ("null", "not_an_object"),
    ('"action"', "not_an_object"),
    (b"\xff\x00\x01", "bad_json"),
    ("{}", "missing_field"),
    ('{"type": "hello"}', "unknown_type"),
    ('{"type": 7}', "unknown_type"),
    ('{"type": "sync", "extra": 1}', "unknown_field"),
    ('{"type": "action"}', "missing_field"),
    ('{"type": "action", "action": "pass"}', "bad_field"),
    ('{"type": "action", "action": []}', "bad_field"),
    ('{"type": "action", "action": {}}', "missing_field"),
    ('{"type": "action", "action": {"kind": "fold"}}', "unknown_kind"),
    ('{"type": "action", "action": {"kind": null}}', "missing_field"),
    ('{"type": "action", "action": {"kind": 3}}', "unknown_kind"),
    ('{"type": "action", "action": {"kind": "pass", "seat": "N"}}', "unknown_field"),
    ('{"type": "action", "action": {"kind": "play"}}', "missing_field"),
    ('{"type": "action", "action": {"kind": "play", "card": "ZZ"}}', "unknown_card"),
    ('{"type": "action", "action": {"kind": "play", "card": "1H"}}', "unknown_card"),
    ('{"type": "action", "action": {"kind": "play", "card": 12}}', "unknown_card"),
    (
        '{"type": "action", "action": {"kind": "play", "card": "JH", "announce": "yes"}}',
        "bad_field",
    ),
    ('{"type": "action", "action": {"kind": "take", "strain": "X"}}', "unknown_strain"),
    ('{"type": "action", "action": {"kind": "take", "strain": 1}}', "unknown_strain"),
    (
        '{"type": "action", "action": {"kind": "bid", "value": "lots", "strain": "H"}}',
        "bad_bid_value",
    ),
    (
        '{"type": "action", "action": {"kind": "bid", "value": true, "strain": "H"}}',
        "bad_bid_value",
    ),
    ('{"type": "action", "action": {"kind": "bid", "value": 90, "strain": "H"}}', "wrong_phase"),
    ('{"type": "action", "action": {"kind": "coinche"}}', "wrong_phase"),
    ('{"type": "action", "action": {"kind": "play", "card": "JH"}}', "wrong_phase"),
    ('{"type": "next_deal"}', "deal_not_over"),
    ("x" * 10_000, "too_large"),
]


@pytest.mark.parametrize("lang", ["fr", "ar", "pl", "hi", "es"])
def test_bad_messages_are_refused_in_the_players_language(
    client: TestClient, new_game: NewGame, settle: Settle, database: str, lang: str
) -> None:
    game = bidding_game(client, new_game, settle, lang)
    wording = CATALOGS.wording(lang)
    english = CATALOGS.wording("en")
    with client.websocket_connect(socket_url(game, lang)) as ws:
        view, _ = settle(ws)
        assert view["phase"] == "bidding"  # a classic table, South to bid
        record = stored_record(database, game["game"])
        for text, code in BAD_MESSAGES:
            if isinstance(text, bytes):
                ws.send_bytes(text)
            else:
                ws.send_text(text)
            error = ws.receive_json()
            assert error["type"] == "error", (text, error)
            assert error["code"] == code, (text, error)
            assert error["message"], text
            assert error["message"] != english.error(code, error["args"]) or code == "wrong_phase"
            if code != "wrong_phase":
                assert error["message"] == wording.error(code, error["args"])
            ws.send_json({"type": "sync"})
            again = ws.receive_json()
            assert again == {"type": "state", "view": view}, text
        assert stored_record(database, game["game"]) == record


def test_engine_refusals_during_the_bidding(
    client: TestClient, new_game: NewGame, settle: Settle, database: str
) -> None:
    game = bidding_game(client, new_game, settle, "fr")
    with client.websocket_connect(socket_url(game, "fr")) as ws:
        view, _ = settle(ws)
        record = stored_record(database, game["game"])
        turned_suit = view["turned"][1]
        other = next(s for s in "SHDC" if s != turned_suit)
        if len(view["bids"]) < 4:  # the first round: only the turned suit may be taken
            ws.send_json({"type": "action", "action": {"kind": "take", "strain": other}})
            error = ws.receive_json()
            assert error["code"] == "must_take_turned_suit"
            assert error["args"] == {"suit": turned_suit}
            suit = CATALOGS.wording("fr").suit(turned_suit, "french")
            assert (
                error["message"]
                == f"Au premier tour, vous ne pouvez prendre qu’à la couleur retournée ({suit})."
            )
        ws.send_json({"type": "action", "action": {"kind": "bid", "value": 90, "strain": "H"}})
        error = ws.receive_json()
        assert error["code"] == "wrong_phase"
        assert error["message"].startswith("À cette table, on prend ou on passe")
        assert stored_record(database, game["game"]) == record


def test_refused_cards_while_playing(
    client: TestClient, new_game: NewGame, settle: Settle, database: str
) -> None:
    rng = random.Random(3)
    for _ in range(20):
        game = new_game("maison", lang="es")
        with client.websocket_connect(socket_url(game, "es")) as ws:
            view, _ = settle(ws)
            while view["phase"] not in ("over", "cancelled"):
                if view["phase"] == "playing" and view["refusals"]:
                    record = stored_record(database, game["game"])
                    legal_cards = {a["card"] for a in view["legal"]}
                    assert set(view["refusals"]) == set(view["hand"]) - legal_cards
                    card, refusal = next(iter(view["refusals"].items()))
                    ws.send_json({"type": "action", "action": {"kind": "play", "card": card}})
                    error = ws.receive_json()
                    assert error["code"] == refusal["code"]
                    assert error["message"] == refusal["message"]
                    assert error["args"] == refusal["args"]
                    assert error["message"].startswith(("Tienes", "No tienes", "No puedes"))
                    missing = next(c for c in _all_cards() if c not in view["hand"])
                    ws.send_json({"type": "action", "action": {"kind": "play", "card": missing}})
                    error = ws.receive_json()
                    assert error["code"] == "not_in_hand"
                    name = CATALOGS.wording("es").card(missing, "french")
                    assert error["message"] == f"Esa carta no está en tu mano: {name}."
                    ws.send_json({"type": "sync"})
                    assert ws.receive_json()["view"] == view
                    assert stored_record(database, game["game"]) == record
                    return
                ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
                view, _ = settle(ws)
    pytest.fail("no deal gave South a card it could not play")


def _all_cards() -> list[str]:
    return [rank + suit for suit in "SHDC" for rank in "789TJQKA"]


def test_acting_out_of_turn(
    make_app: Callable[..., FastAPI], settle: Settle, database: str
) -> None:
    with TestClient(make_app(ai_delay=(30.0, 30.0))) as client:
        for _ in range(10):
            created = client.post("/api/games", json={"rules": "cardavia", "lang": "pl"}).json()
            with client.websocket_connect(socket_url(created, "pl")) as ws:
                view = ws.receive_json()["view"]
                if view["to_move"] == "S":
                    continue  # South deals with its turn first: try another shuffle
                record = stored_record(database, created["game"])
                ws.send_json({"type": "action", "action": {"kind": "pass"}})
                error = ws.receive_json()
                assert error["code"] == "not_your_turn"
                seat = CATALOGS.wording("pl").seat(view["to_move"])
                assert error["message"] == f"To nie twoja kolej: teraz gra {seat}."
                assert error["args"] == {"seat": "S", "to_move": view["to_move"]}
                assert stored_record(database, created["game"]) == record
                return
    pytest.fail("South was always first to bid")


# -- the seat token --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("which", "code", "close"),
    [
        ("missing", "missing_token", 4401),
        ("wrong", "bad_token", 4403),
        ("other", "bad_token", 4403),
        ("unknown", "game_not_found", 4404),
    ],
)
def test_the_token_guards_the_seat(
    client: TestClient, new_game: NewGame, which: str, code: str, close: int
) -> None:
    game, other = new_game(), new_game()
    url = {
        "missing": f"/ws/games/{game['game']}?lang=hi",
        "wrong": f"/ws/games/{game['game']}?token=guess&lang=hi",
        "other": socket_url(game, "hi", token=other["token"]),
        "unknown": socket_url({"game": "nosuchgame", "token": game["token"]}, "hi"),
    }[which]
    with client.websocket_connect(url) as ws:
        error = ws.receive_json()
        assert error["type"] == "error"
        assert error["code"] == code
        assert error["message"] == CATALOGS.wording("hi").error(code)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == close


# -- what the browser may see ----------------------------------------------------------------


def _strings(value: Any) -> Iterator[str]:
    """Every string of a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _states_by_step(deal: DealState) -> list[DealState]:
    states = [deal.initial()]
    for action in deal.history:
        states.append(states[-1].apply(action))
    return states


@pytest.mark.slow  # whole deals at every level
@pytest.mark.parametrize("rules", ["cardavia", "maison", "coinche", "maghreb"])
def test_no_message_shows_another_seats_cards_before_the_deal_is_over(
    client: TestClient, new_game: NewGame, play_out: Settle, database: str, rules: str
) -> None:
    rng = random.Random(f"leak-{rules}")
    checked = 0
    for _ in range(3):
        game = new_game(rules, level="club", lang="en")
        collected: list[dict[str, Any]] = []
        with client.websocket_connect(socket_url(game)) as ws:
            for _deal in range(2):
                view, messages = play_out(ws, rng)
                collected += messages
                if not view["next_deal"]:
                    break
                ws.send_json({"type": "next_deal"})
        match = Record.from_json(stored_record(database, game["game"])).replay()
        states = [_states_by_step(deal) for deal in match.deals]
        for message in collected:
            assert message["type"] == "state"
            view = message["view"]
            state = states[view["deal_number"] - 1][view["step"]]
            assert view["phase"] == state.phase.value
            assert view["hand"] == state.hand(Seat.S).codes()
            if state.is_over:
                continue
            assert view["replay"] is None
            known = cards_seat_may_know(state, Seat.S)
            shown = {s for s in _strings(view) if CARD_CODE.match(s)}
            assert shown <= known, (shown - known, view)
            checked += 1
    assert checked > 50


def test_the_view_is_built_from_the_observation_only() -> None:
    """Two deals with the same South hand and public history, but different hidden hands,
    give the same view: nothing of the hidden cards reaches it."""
    from cardavia.belote.match import Match
    from cardavia.belote.rules import find_rules
    from cardavia.live.views import build_view

    rules = find_rules("coinche")
    base = list(range(32))
    one = Match.from_deck(rules, dealer=Seat.W, deck=base)
    south = set(one.deal.hand(Seat.S))
    # Swap two cards between North and East: South sees the same.
    north, east = sorted(one.deal.hand(Seat.N))[0], sorted(one.deal.hand(Seat.E))[0]
    swapped = [east if c == north else north if c == east else c for c in base]
    two = Match.from_deck(rules, dealer=Seat.W, deck=swapped)
    assert set(two.deal.hand(Seat.S)) == south
    wording = CATALOGS.wording("en")
    assert build_view(one, wording, seat=Seat.S) == build_view(two, wording, seat=Seat.S)


# -- the computer players --------------------------------------------------------------------


class _GatedPlayer:
    """A computer player that waits until the test lets it decide."""

    entered = threading.Event()
    release = threading.Event()

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        type(self).entered.set()
        assert type(self).release.wait(10), "the test never released the player"
        return observation.legal_actions[0]


class _BrokenPlayer:
    """A computer player that fails every time."""

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        raise RuntimeError("broken on purpose")


@dataclasses.dataclass
class _ScoreKeeper:
    """A computer player that notes the match score it is told before each decision."""

    match_scores: tuple[int, int] | None = None
    told: ClassVar[list[tuple[int, int] | None]] = []
    """What every copy was told, in order."""

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        type(self).told.append(self.match_scores)
        return observation.legal_actions[0]


@pytest.fixture
def extra_levels() -> Iterator[None]:
    register_player("gated", _GatedPlayer)
    register_player("broken", _BrokenPlayer)
    register_player("scorekeeper", _ScoreKeeper)
    _ScoreKeeper.told.clear()
    _GatedPlayer.entered.clear()
    _GatedPlayer.release.clear()
    yield
    _GatedPlayer.release.set()
    LEVELS.pop("gated", None)
    LEVELS.pop("broken", None)
    LEVELS.pop("scorekeeper", None)


def test_the_server_answers_while_a_computer_player_thinks(
    client: TestClient, extra_levels: None, settle: Settle
) -> None:
    for _ in range(10):
        created = client.post("/api/games", json={"level": "gated"}).json()
        with client.websocket_connect(socket_url(created)) as ws:
            view = ws.receive_json()["view"]
            if view["to_move"] == "S":
                continue
            assert _GatedPlayer.entered.wait(10)
            # The decision blocks its worker thread, not the server: other requests and this
            # very connection are answered meanwhile.
            assert client.get("/healthz").text == "ok"
            ws.send_json({"type": "sync"})
            assert ws.receive_json()["view"]["step"] == view["step"]
            _GatedPlayer.release.set()
            view, _ = settle(ws)
            assert view["step"] > 0
            return
    pytest.fail("South was always first to bid")


@pytest.mark.slow  # a whole match
def test_the_computer_players_are_told_the_match_score(
    client: TestClient, extra_levels: None, new_game: NewGame, play_out: Settle, settle: Settle
) -> None:
    """The search levels bid by the match score (riskier when far behind near the target):
    the table tells every computer player the score before the deal in play."""
    game = new_game("maison", level="scorekeeper")
    rng = random.Random(3)
    with client.websocket_connect(socket_url(game)) as ws:
        view, _ = play_out(ws, rng)
        assert set(_ScoreKeeper.told) == {(0, 0)}
        scores = view["match"]["scores"]
        _ScoreKeeper.told.clear()
        ws.send_json({"type": "next_deal"})
        view, _ = settle(ws)
        play_out(ws, rng, view)
    assert _ScoreKeeper.told
    assert set(_ScoreKeeper.told) == {(scores["NS"], scores["EW"])}


@pytest.mark.slow  # whole deals
def test_a_failing_computer_player_does_not_stop_the_game(
    client: TestClient, extra_levels: None, new_game: NewGame, play_out: Settle
) -> None:
    broken = new_game("maison", level="broken")
    sound = new_game("maison", level="beginner")
    with (
        client.websocket_connect(socket_url(broken)) as first,
        client.websocket_connect(socket_url(sound)) as second,
    ):
        view, _ = play_out(first, random.Random(1))
        assert view["phase"] in ("over", "cancelled")
        view, _ = play_out(second, random.Random(2))
        assert view["phase"] in ("over", "cancelled")


def test_a_failed_save_changes_nothing_and_spares_other_games(
    client: TestClient, new_game: NewGame, settle: Settle
) -> None:
    service = client.app.state.tables  # type: ignore[attr-defined]
    store = service.store
    doomed, sound = new_game("cardavia"), new_game("cardavia")
    real_append_all = store.append_all

    def append_all(appends: list[Append]) -> list[int | None]:
        # A write that fails for one game only: the group it was in is written again one by
        # one, so the other games' moves are saved.
        if any(append.game_id == doomed["game"] for append in appends):
            raise OSError("disk full")
        return list(real_append_all(appends))

    store.append_all = append_all
    try:
        with (
            client.websocket_connect(socket_url(doomed, "fr")) as ws1,
            client.websocket_connect(socket_url(sound, "fr")) as ws2,
        ):
            view1 = ws1.receive_json()["view"]
            if view1["to_move"] == "S":
                ws1.send_json({"type": "action", "action": {"kind": "pass"}})
            else:
                time.sleep(0.2)  # let the computer players try
            error = ws1.receive_json()
            assert error["type"] == "error"
            assert error["code"] == "internal"
            assert error["message"] == CATALOGS.wording("fr").error("internal")
            ws1.send_json({"type": "sync"})
            assert ws1.receive_json()["view"]["step"] == view1["step"]
            view2, _ = settle(ws2)
            ws2.send_json({"type": "action", "action": view2["legal"][0]})
            after, _ = settle(ws2)
            assert after["step"] > view2["step"]
    finally:
        store.append_all = real_append_all


@pytest.mark.slow  # waits the computer players' pauses
def test_the_computer_players_pause(make_app: Callable[..., FastAPI], settle: Settle) -> None:
    pause = 0.3
    with TestClient(make_app(ai_delay=(pause, pause))) as client:
        created = client.post("/api/games", json={"rules": "coinche"}).json()
        with client.websocket_connect(socket_url(created)) as ws:
            view = ws.receive_json()["view"]
            started = time.monotonic()
            while view["to_move"] != "S":
                view = ws.receive_json()["view"]
            elapsed = time.monotonic() - started
            seats_before_south = view["step"]
            assert elapsed >= pause * seats_before_south * 0.9


def test_json_of_the_protocol_round_trips() -> None:
    """Every legal action of a view can be sent back as it is."""
    from cardavia.belote.match import Match
    from cardavia.belote.rules import find_rules
    from cardavia.live.protocol import parse_action
    from cardavia.live.views import build_view

    rng = random.Random(9)
    for name in ("cardavia", "maison", "coinche", "maghreb"):
        match = Match.start(find_rules(name), dealer=Seat.E, rng=rng)
        while not match.deal.is_over:
            seat = match.deal.to_move
            assert seat is not None
            view = build_view(match, CATALOGS.wording("en"), seat=seat)
            actions = [parse_action(json.loads(json.dumps(a)), seat=seat) for a in view["legal"]]
            assert set(actions) == set(match.deal.observation(seat).legal_actions)
            match = match.apply(rng.choice(actions))
        assert match.deal.phase in (Phase.OVER, Phase.CANCELLED)
        assert isinstance(match.deal.history[-1], Play) or match.deal.phase == Phase.CANCELLED


@pytest.mark.slow  # searches on a pool of processes
def test_the_search_levels_think_on_the_decision_pool(
    make_app: Callable[..., FastAPI], play_out: Settle
) -> None:
    """A strong table's computer seats decide on the pool (every core, or the AI workers),
    each from its own seat's observation; the cheap levels stay in the web process."""
    calls: list[tuple[str, str]] = []

    class CountingPool(DecisionPool):
        async def decide(
            self, level: str, observation: Observation, seed: int, **options: Any
        ) -> Action:
            calls.append((level, observation.seat.name))
            return await super().decide(level, observation, seed, **options)

    app = make_app(decisions=Decisions(pool=CountingPool(kind="thread", cores=2)))
    with TestClient(app) as client:
        created = client.post("/api/games", json={"rules": "coinche", "level": "strong"})
        game = created.json()
        with client.websocket_connect(socket_url(game)) as ws:
            view, _ = play_out(ws, random.Random(5))
        assert view["phase"] in ("over", "cancelled")
        assert calls
        # The pool is asked for the table's version of the level (docs/tournament-robots.md).
        assert {level for level, _ in calls} == {level_version("strong")}
        assert {seat for _, seat in calls} <= {"N", "E", "W"}
        calls.clear()
        cheap = client.post("/api/games", json={"rules": "coinche", "level": "club"}).json()
        with client.websocket_connect(socket_url(cheap)) as ws:
            play_out(ws, random.Random(6))
        assert calls == []


@pytest.mark.slow  # whole deals until one shows it
def test_the_result_says_when_the_takers_belote_went_to_the_defenders() -> None:
    """At the Cardavia table (docs/rules.md 8, ``belote_on_failure``: ``to_defenders``) a
    failed contract's belote, held by the takers, is scored by the defenders: the view says
    so (``belote_moved``), and only then; at the house table the takers keep it."""
    from cardavia.ai.levels import find_player
    from cardavia.belote.rules import find_rules
    from cardavia.live.views import view_of

    wording = CATALOGS.wording("fr")
    club = find_player("club")
    seen: dict[tuple[str, bool], int] = {}
    for preset in ("cardavia", "maison"):
        rng = random.Random(3)
        for number in range(400):
            state = DealState.deal(find_rules(preset), dealer=Seat(number & 3), rng=rng)
            while not state.is_over:
                seat = state.to_move
                assert seat is not None
                state = state.apply(club.decide(state.observation(seat), rng))
            result = state.result
            if result is None:
                continue
            view = view_of(state.observation(Seat.S), wording)["result"]
            moved = result.made is False and result.belote[result.contract.team] > 0
            assert view["belote_moved"] is (moved and preset == "cardavia")
            seen[preset, moved] = seen.get((preset, moved), 0) + 1
    # Both cases met at both tables.
    assert all(seen.get((p, m)) for p in ("cardavia", "maison") for m in (False, True))
