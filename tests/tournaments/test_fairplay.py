"""The fair-play screen (issue 22, item 9): on a small field of tournament deals, a player
who sees all four hands (and plays the double-dummy card) is listed for review; the players
of a fair level (club) are not; the report says that it accuses nobody. The test prints the
screen's cost per deal."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import insert
from typer.testing import CliRunner

from cardavia.ai.levels import find_player
from cardavia.ai.player import Player, with_declarations
from cardavia.ai.strong import root_values
from cardavia.belote import Action, DealState, Observation, Record, deck_from_seed, find_rules
from cardavia.cli import app
from cardavia.store.db import GameStore, new_token, upgrade_database
from cardavia.store.tournaments import DealPlayedRow, TournamentRow
from cardavia.tournaments.deals import PLAYER_SEAT, dealer_of
from cardavia.tournaments.fairplay import NOTE, binomial_tail

TOURNAMENT = "daily-coinche-20261201"
DEALS = 32
OPENS = datetime(2026, 12, 1, tzinfo=UTC)


class SeesAllHands:
    """A player who has seen the deal before: bids as a club player, and plays the card
    that makes the most with every hand known."""

    def __init__(self) -> None:
        self.state: DealState | None = None
        self.club = find_player("club")

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        if not observation.is_my_turn_to_play:
            return self.club.decide(observation, rng)
        assert self.state is not None
        values, _ = root_values(observation, self.state.hands)
        return with_declarations(observation, max(values, key=lambda card: (values[card], -card)))


def played(number: int, south: Player, rng: random.Random) -> str:
    """Deal ``number`` of the tournament played to its end, South by ``south``, the others
    by club players: its record's JSON."""
    seed = bytes([number]) * 32
    state = DealState.from_deck(find_rules("coinche"), dealer=dealer_of(number),
                                deck=deck_from_seed(seed))  # fmt: skip
    club = find_player("club")
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if isinstance(south, SeesAllHands):
            south.state = state
        player = south if seat is PLAYER_SEAT else club
        state = state.apply(player.decide(state.observation(seat), rng))
    return Record.from_deal(state).to_json()


@pytest.mark.slow  # the screen's searches over a field
def test_a_player_who_sees_all_hands_is_listed_and_the_fair_ones_are_not(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'cardavia.db'}"
    upgrade_database(database)
    store = GameStore(database)
    field: dict[str, Player] = {"sighted": SeesAllHands()}
    field |= {f"fair{n}": find_player(level) for n, level in enumerate(("club", "club"))}
    ids = {}
    with store.engine.begin() as connection:
        connection.execute(insert(TournamentRow), {
            "id": TOURNAMENT, "kind": "daily", "preset": "coinche", "level": "club",
            "version": "club-2026-12", "deals": DEALS, "opens_at": OPENS,
            "closes_at": OPENS + timedelta(days=1), "seeds": "[]", "commitments": "[]",
            "created_at": OPENS,
        })  # fmt: skip
    for index, (name, south) in enumerate(field.items()):
        ids[name] = store.players.create(new_token()).id
        rng = random.Random(index)
        for number in range(1, DEALS + 1):
            record = played(number, south, rng)
            game = store.create(rules="coinche", level="club", lang="en", token=new_token(),
                                record=record, seat="S")  # fmt: skip
            with store.engine.begin() as connection:
                connection.execute(insert(DealPlayedRow), {
                    "tournament_id": TOURNAMENT, "number": number, "player_id": ids[name],
                    "game_id": game.id, "started_at": OPENS, "finished_at": OPENS,
                })  # fmt: skip
    store.close()
    # The admin's command: the report as JSON, the players listed for review in it.
    out = tmp_path / "fair-play.json"
    result = CliRunner().invoke(
        app, ["fair-play", str(out), "--database-url", database, "--tournament", TOURNAMENT]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    print(f"\nfair-play screen: {report['seconds_per_deal']:.2f} CPU seconds a deal")
    players = {player["player_id"]: player for player in report["players"]}
    assert report["listed"] == [ids["sighted"]]
    assert [p["player_id"] for p in report["players"] if p["listed"]] == [ids["sighted"]]
    sighted = players[ids["sighted"]]
    assert sighted["rate"] > 2 * sighted["field_rate"]  # the rest of the field's
    assert report["deals"] == len(field) * DEALS
    assert report["note"] == NOTE


def test_the_report_in_text_says_it_accuses_nobody(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'cardavia.db'}"
    upgrade_database(database)
    out = tmp_path / "fair-play.txt"
    result = CliRunner().invoke(app, ["fair-play", str(out), "--database-url", database])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "accuse nobody on this report alone" in text
    assert "Listed for review: 0" in text


def test_the_binomial_tail() -> None:
    assert binomial_tail(0, 5, 0.3) == 1.0
    assert abs(binomial_tail(5, 5, 0.3) - 0.3**5) < 1e-12
    assert abs(binomial_tail(1, 2, 0.5) - 0.75) < 1e-12
