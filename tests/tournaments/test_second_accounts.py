"""The fair-play screen's signs of one person behind several entries (docs/tournament-robots.md,
"The fair-play screen"; issue 35), on the embedded site: the audit's scout plays deal 1 to
its end with a first account, then plays it again with a second account from the same
client, line for line — the computer players answer alike, the result is the same — and the
screen reports both accounts of one client and the repeated line; a player of the same
client who played another line is in the first sign only."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.tournaments.test_play import (
    TOURNAMENT,
    app_fixture,
    browser_fixture,
    play,
    settle,
    start,
)
from typer.testing import CliRunner

from cardavia.belote import Record
from cardavia.cli import app as cli
from cardavia.live.protocol import encode_action
from cardavia.tournaments.deals import PLAYER_SEAT
from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]


def replay_line(person: TestClient, game: dict[str, str], line: list[Any]) -> dict[str, Any]:
    """Play the person's side of ``line`` (the seat's actions, in order) at ``game``."""
    mine = [encode_action(action) for action in line if action.seat is PLAYER_SEAT]
    with person.websocket_connect(f"/ws/games/{game['game']}?token={game['token']}") as ws:
        view = settle(ws)
        while view["phase"] not in ("over", "cancelled"):
            ws.send_json({"type": "action", "action": mine.pop(0)})
            view = settle(ws)
    return view


def take_and_play(person: TestClient, game: dict[str, str]) -> dict[str, Any]:
    """Play a deal to its end, taking (or bidding) at the first chance: never passed out,
    the person's eight cards played."""
    with person.websocket_connect(f"/ws/games/{game['game']}?token={game['token']}") as ws:
        view = settle(ws)
        while view["phase"] not in ("over", "cancelled"):
            legal = view["legal"]
            taking = [action for action in legal if action["kind"] in ("take", "bid")]
            ws.send_json({"type": "action", "action": (taking or legal)[0]})
            view = settle(ws)
    return view


@pytest.mark.slow  # the screen's searches over a field
def test_the_screen_reports_the_accounts_of_one_client_and_a_repeated_line(
    app: FastAPI, browser: Callable[[], TestClient], tmp_path: Path
) -> None:
    store = app.state.store
    pat, quinn, rita = browser(), browser(), browser()
    pats = start(pat, 1)
    first = take_and_play(pat, pats)
    assert first["phase"] == "over"
    line = list(Record.from_json(store.load(pats["game"]).record).deals[0].actions)
    quinns = start(quinn, 1)
    again = replay_line(quinn, quinns, line)
    assert again["match"]["scores"] == first["match"]["scores"]  # the same line, the same end
    assert Record.from_json(store.load(quinns["game"]).record).deals[0].actions == tuple(line)
    play(rita, start(rita, 1), random.Random(12))
    for person in (pat, quinn, rita):
        person.get(f"/en/tournaments/{TOURNAMENT}")  # the results written
    ids = {
        name: store.players.find(person.cookies[PLAYER_COOKIE]).id
        for name, person in (("pat", pat), ("quinn", quinn), ("rita", rita))
    }
    out = tmp_path / "fair-play.json"
    database = app.state.settings.database_url
    answer = CliRunner().invoke(
        cli, ["fair-play", str(out), "--database-url", database, "--tournament", TOURNAMENT]
    )
    assert answer.exit_code == 0, answer.output
    report = json.loads(out.read_text())
    (shared,) = report["shared_clients"]
    assert shared["client"] == "testclient"
    assert sorted(shared["players"]) == sorted(ids.values())
    (repeated,) = report["repeated_lines"]  # Rita's line is her own
    assert (repeated["first"], repeated["again"]) == (ids["pat"], ids["quinn"])
    assert repeated["same_client"] is True and repeated["number"] == 1
    assert repeated["own_actions"] >= 9  # a bid and eight cards
    text = tmp_path / "fair-play.txt"
    CliRunner().invoke(cli, ["fair-play", str(text), "--database-url", database])
    assert "Accounts of one client in one tournament: 1" in text.read_text()
