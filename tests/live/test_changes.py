"""Changes sent as changes (docs/web.md, "Changes as changes"; issue 36, item 4): a page that
takes changes (``protocol=2``) is sent its view whole once, then each new one as the fields
that changed, with the table's version and the version it follows; a whole view again when it
asks (``sync``); what is queued for it at once, in one frame. Driven through the table
service and the connections' outboxes: a whole deal's changes, applied as the page applies
them, are the views sent whole to a connection that does not take changes."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.belote import Phase, Seat
from cardavia.live.changes import apply, changed
from cardavia.live.flows import Flows
from cardavia.live.outbox import CLOSE, Listener
from cardavia.live.protocol import parse_action
from cardavia.live.tables import TableService
from cardavia.store.db import GameStore
from cardavia.web.connection import batch
from cardavia.words import load_catalogs

CATALOGS = load_catalogs()

scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["JH", "S", "E"])
values = scalars | st.lists(scalars, max_size=3) | st.dictionaries(st.sampled_from("NESW"), scalars)
views = st.dictionaries(st.sampled_from("abcdefgh"), values, max_size=8)


@settings(max_examples=40, deadline=None)
@given(views, views)
def test_a_change_applied_is_the_next_view(before: dict[str, Any], after: dict[str, Any]) -> None:
    change = changed(before, after)
    assert apply(before, change) == after
    assert set(change.set) <= set(after) and set(change.unset) <= set(before)
    assert all(before[name] != after[name] for name in change.set if name in before)


def received(listener: Listener) -> list[dict[str, Any]]:
    """The messages in a connection's outbox, in order."""
    found = []
    while not listener.queue.empty():
        text = listener.queue.get_nowait()
        if text != CLOSE:
            found.append(json.loads(text))
    return found


class Page:
    """What the table page does with the messages (``table_connection.js``, ``viewOf``)."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.version: int | None = None
        self.views: list[dict[str, Any]] = []
        self.behind = 0

    def receive(self, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            self.view, self.version = message["view"], message.get("version")
        elif message["type"] == "change":
            if self.view is None or message["since"] != self.version:
                self.behind += 1  # the page asks for the whole view again
                return
            view = {k: v for k, v in self.view.items() if k not in message["unset"]}
            self.view, self.version = view | message["set"], message["version"]
        else:
            return
        self.views.append(self.view)


@pytest.mark.slow  # a whole deal, the computer players' turns awaited
def test_a_deal_sent_as_changes_is_the_deal_sent_whole(tmp_path: Any) -> None:
    """Two connections of South at one table, one taking changes: every view the second is
    sent whole, the first rebuilds from its changes, in half the bytes or less; its versions
    follow each other; and a ``sync`` sends it the whole view again."""

    async def main() -> tuple[list[str], list[str]]:
        store = GameStore(f"sqlite:///{tmp_path / 'cardavia.db'}")
        tables = TableService(store, CATALOGS, ai_delay=(0.0, 0.0), flows=Flows())
        try:
            game = await tables.create_game("coinche", "club", "fr", seat=Seat.S, target=None)
            table = await tables.open(game.game_id, game.token)
            changes = tables.listen(table, "fr", seat=Seat.S, changes=True)
            whole = tables.listen(table, "fr", seat=Seat.S)
            rng = random.Random(7)
            texts: tuple[list[str], list[str]] = ([], [])
            for _ in range(10_000):
                await asyncio.sleep(0.01)  # the computer players' turns
                if table.runner is not None and not table.runner.done():
                    continue
                deal = table.match.deal
                if deal.phase in (Phase.OVER, Phase.CANCELLED):
                    break
                tables.ensure_runner(table)
                if deal.to_move is Seat.S:
                    legal = tables.view(table, "fr", Seat.S)["legal"]
                    await tables.act(table, parse_action(rng.choice(legal), seat=Seat.S))
            for listener, kept in ((changes, texts[0]), (whole, texts[1])):
                while not listener.queue.empty():
                    kept.append(listener.queue.get_nowait())
            # Asked again (a page behind), the whole view, with the version it is at.
            changes.send_view(tables.view(table, "fr", Seat.S), table.view_version, whole=True)
            texts[0].append(changes.queue.get_nowait())
            return texts
        finally:
            await tables.close()
            store.close()

    as_changes, as_whole = asyncio.run(main())
    page = Page()
    for text in as_changes:
        page.receive(json.loads(text))
    sent_whole = [json.loads(text)["view"] for text in as_whole]
    assert page.behind == 0
    assert page.views[:-1] == sent_whole
    assert page.views[-1] == sent_whole[-1]
    messages = [json.loads(text) for text in as_changes]
    assert messages[0]["type"] == "state" and messages[-1]["type"] == "state"
    assert {m["type"] for m in messages[1:-1]} == {"change"}
    pairs = list(itertools.pairwise(messages))[:-1]  # the last whole view follows no change
    assert all(change["since"] == before["version"] for before, change in pairs)
    assert len(messages) > 30  # a whole deal: its bids and its 32 cards
    assert sum(map(len, as_changes)) * 2 <= sum(map(len, as_whole))


def test_a_page_behind_asks_again() -> None:
    """A change that does not follow the version the page holds is not applied."""
    page = Page()
    page.receive({"type": "state", "version": 4, "view": {"phase": "bidding"}})
    page.receive({"type": "change", "version": 6, "since": 5, "set": {"phase": "x"}, "unset": []})
    assert page.behind == 1 and page.view == {"phase": "bidding"}


def test_what_is_queued_at_once_goes_in_one_frame() -> None:
    """To a page that takes changes, the messages queued at once go as one JSON array, up to
    a close; to any other, one message a frame."""
    wording = CATALOGS.wording("fr")
    takes = Listener(wording, changes=True)
    for n in range(3):
        takes.send({"type": "change", "n": n})
    first = takes.queue.get_nowait()
    text, closing = batch(takes, first)
    assert [m["n"] for m in json.loads(text)] == [0, 1, 2] and not closing
    takes.send({"type": "change", "n": 3})
    takes.close(4408)
    assert batch(takes, takes.queue.get_nowait()) == ('{"type":"change","n":3}', True)
    plain = Listener(wording)
    for n in range(2):
        plain.send({"type": "state", "n": n})
    assert json.loads(batch(plain, plain.queue.get_nowait())[0]) == {"type": "state", "n": 0}
    assert plain.queue.qsize() == 1
