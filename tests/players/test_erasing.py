"""What erasing a player takes with them (every row that is theirs, on a database that does
not cascade), and the purge of guests nobody can be again (docs/players.md, "The guest")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, insert, select, update

from cardavia.store.base import utc
from cardavia.store.db import GameStore, new_token
from cardavia.store.passkeys import PasskeyRow
from cardavia.store.players import PlayerRow, player_columns
from cardavia.store.ratings import RatingChangeRow, RatingRow
from cardavia.store.safety import NameReportRow


def _count(store: GameStore, model: type, **where: str) -> int:
    statement = select(func.count()).select_from(model)
    for column, value in where.items():
        statement = statement.where(getattr(model, column) == value)
    with store.engine.connect() as connection:
        return int(connection.execute(statement).scalar_one())


def _all_rows_of(store: GameStore) -> tuple[str, str]:
    """Two players, the first with a row in every table that is a player's."""
    one, two = store.players.create(new_token()), store.players.create(new_token())
    game = store.create(rules="cardavia", level="club", lang="fr", token="t", record="{}")
    store.players.link_game(one.id, game.id, "S")
    store.quick.seat(one.id, room_code="ABCD2345", seat="S", family="classic")
    store.safety.block(one.id, two.id)
    store.safety.block(two.id, one.id)
    moment = store.players.load(one.id)
    assert moment is not None
    with store.engine.begin() as connection:
        at = moment.created_at
        connection.execute(
            insert(RatingRow),
            {
                "player_id": one.id,
                "family": "classic",
                "mu": 26.0,
                "sigma": 8.0,
                "deals": 1,
                "updated_at": at,
            },
        )
        connection.execute(
            insert(RatingChangeRow),
            {
                "player_id": one.id,
                "family": "classic",
                "room_code": "ABCD2345",
                "game_id": game.id,
                "deal": 1,
                "mu": 26.0,
                "sigma": 8.0,
                "at": at,
            },
        )
        for reporter, player in ((one.id, two.id), (two.id, one.id)):
            connection.execute(
                insert(NameReportRow),
                {"reporter_id": reporter, "player_id": player, "name": "X", "created_at": at},
            )
    return one.id, two.id


def test_erasing_a_player_leaves_no_row_of_theirs_and_spares_the_others() -> None:
    store = GameStore("sqlite://")
    one, two = _all_rows_of(store)
    store.players.erase(one)
    columns = {f"{column.table.name}.{column.name}" for column in player_columns()}
    assert columns >= {
        "player_blocks.blocked_id",
        "name_reports.reporter_id",
        "quick_seats.player_id",
        "ratings.player_id",
        "rating_changes.player_id",
        "passkeys.player_id",
    }
    for column in player_columns():
        with store.engine.connect() as connection:
            left = connection.execute(
                select(func.count()).select_from(column.table).where(column == one)
            ).scalar_one()
        assert left == 0, column
    assert _count(store, PlayerRow, id=one) == 0
    assert _count(store, PlayerRow, id=two) == 1


def test_guests_unseen_past_their_cookie_are_purged_and_no_one_else() -> None:
    store = GameStore("sqlite://")
    guest, player = store.players.create(new_token()), store.players.create(new_token())
    with store.engine.begin() as connection:
        connection.execute(
            insert(PasskeyRow),
            {
                "id": "key",
                "player_id": player.id,
                "public_key": b"k",
                "sign_count": 0,
                "created_at": player.created_at,
            },
        )
    moment = guest.created_at + timedelta(days=401)
    assert store.players.purge_guests(timedelta(days=400), moment=moment) == 1
    assert store.players.load(guest.id) is None
    assert store.players.load(player.id) is not None  # a passkey keeps a player
    assert store.players.purge_guests(timedelta(days=400)) == 0


def test_a_guest_who_plays_is_seen() -> None:
    store = GameStore("sqlite://")
    guest = store.players.create(new_token())
    game = store.create(rules="cardavia", level="club", lang="fr", token="t", record="{}")
    store.players.link_game(guest.id, game.id, "S")
    with store.engine.connect() as connection:
        seen = connection.execute(
            select(PlayerRow.seen_at).where(PlayerRow.id == guest.id)
        ).scalar_one()
    assert seen.replace(tzinfo=None) >= guest.created_at.replace(tzinfo=None)
    assert store.players.purge_guests(timedelta(days=400)) == 0


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_game_is_linked_to_whoever_holds_the_token_found_as_it_is_linked(
    database: str, request: pytest.FixtureRequest
) -> None:
    """The link a game dealt over a socket makes (``link_game_of_token``): the player whose
    session holds the token, noted seen; nobody's token, or no token at all, links nothing."""
    url = "sqlite://" if database == "sqlite" else request.getfixturevalue("empty_postgres")
    store = GameStore(url)
    token = new_token()
    player = store.players.create(token)
    other = store.players.create(new_token())
    games = [
        store.create(rules="cardavia", level="club", lang="fr", token="t", record="{}")
        for _ in range(3)
    ]
    long_ago = player.created_at - timedelta(days=400)
    seen_at = select(PlayerRow.seen_at).where(PlayerRow.id == player.id)
    with store.engine.begin() as connection:
        connection.execute(update(PlayerRow).values(seen_at=long_ago))
    store.players.link_game_of_token(token, games[0].id, "W")
    store.players.link_game_of_token(new_token(), games[1].id, "S")  # nobody's
    store.players.link_game_of_token("x" * 500, games[2].id, "S")  # too long to be one
    store.players.link_game_of_token(None, games[2].id, "S")
    assert store.players.games_of(player.id) == [(games[0].id, "W")]
    assert store.players.games_of(other.id) == []
    with store.engine.connect() as connection:
        assert utc(connection.execute(seen_at).scalar_one()) >= player.created_at
        others = select(PlayerRow.seen_at).where(PlayerRow.id == other.id)
        assert utc(connection.execute(others).scalar_one()) == long_ago
    store.close()
