"""The store's group commit on PostgreSQL, where each web process's writer saves its tables'
actions: many games in one transaction, each game's revision checked apart (psycopg's
``executemany`` counts the rows it updated, which the usual case relies on)."""

from __future__ import annotations

from cardavia.store.db import Append, GameStore
from cardavia.store.events import action_event


def test_a_group_of_appends_on_postgresql(postgres_url: str) -> None:
    store = GameStore(postgres_url)
    games = [
        store.create(rules="c", level="l", lang="en", token="t", record='{"deals": [{}]}')
        for _ in range(3)
    ]
    first, second, third = (game.id for game in games)
    group = [
        Append(first, action_event("N pass"), 0),
        Append(second, action_event("N pass"), 0),
        Append(first, action_event("E pass"), 1),
    ]
    assert store.append_all(group) == [1, 1, 2]
    # Another process moved the third game on: its append is skipped, the others saved.
    assert store.append(third, action_event("N pass"), revision=0) == 1
    assert store.append_all(
        [Append(third, action_event("E pass"), 0), Append(second, action_event("E pass"), 1)]
    ) == [None, 2]
    assert [event for _, event in store.events_since(second, 0)] == [
        action_event("N pass"),
        action_event("E pass"),
    ]
    assert [store.load(game).revision for game in (first, second, third)] == [2, 2, 1]
    store.close()
