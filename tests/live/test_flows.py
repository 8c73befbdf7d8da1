"""Each kind of table's flow (docs/web.md, "The flow of each kind of table"; issue 36, item 3),
driven through the game server's services and the connections' outboxes: what "play again"
means at a friends' room (an offer the others accept or decline), at a quick-play table (the
asker alone back to the queue), at a tournament's deal (nothing: no next deal, no new game,
no hint, without the tournaments' rules asked); and what each view says of its flow, a
watcher's included."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from cardavia.belote import Seat
from cardavia.live.flows import Flows
from cardavia.live.leaving import Leaving
from cardavia.live.limits import Limits
from cardavia.live.outbox import CLOSE, Listener
from cardavia.live.protocol import ClientError
from cardavia.live.room import Room
from cardavia.live.room_messages import RoomMessages
from cardavia.live.room_state import OpenSeat, PersonSeat, RoomSettings, RoomState
from cardavia.live.rooms import RoomService
from cardavia.live.table import Seated
from cardavia.live.table_messages import handle_text
from cardavia.live.tables import TableService
from cardavia.store.db import GameStore, hash_token
from cardavia.words import load_catalogs

CATALOGS = load_catalogs()


@dataclass
class Floor:
    """The services of a game server's floor, made for one test."""

    store: GameStore
    tables: TableService
    rooms: RoomService
    messages: RoomMessages


@asynccontextmanager
async def floor(database: str) -> AsyncIterator[Floor]:
    store = GameStore(database)
    tables = TableService(store, CATALOGS, ai_delay=(0.0, 0.0), flows=Flows())
    rooms = RoomService(
        tables,
        store=store,
        writer=tables.writer,
        bus=tables.bus,
        limits=Limits(),
        flows=tables.flows,
    )
    messages = RoomMessages(
        rooms, Limits(), leaving=Leaving(store, tables.writer), max_message_bytes=8192
    )
    try:
        yield Floor(store, tables, rooms, messages)
    finally:
        rooms.close()
        await tables.close()
        store.close()


def sent(listener: Listener) -> list[dict[str, Any]]:
    """What the connection was sent so far, in order (taken from its outbox)."""
    found = []
    while not listener.queue.empty():
        text = listener.queue.get_nowait()
        if text != CLOSE:
            found.append(json.loads(text))
    return found


async def until(test: Callable[[], bool]) -> None:
    """Let the computer players' tasks run until ``test`` holds (the watchdog stops a test
    that would wait for ever)."""
    while not test():
        await asyncio.sleep(0.01)


async def room_of_two(work: Floor, *, quick: bool) -> tuple[Room, Listener, Listener]:
    """A single-deal room of two people, Ana (South, its creator) and Bo (North), both
    connected, dealt at once and played to its end by computer players (the two are idle:
    the clock ran out on them twice, so a computer player plays for them while they stay
    present). A deal all four pass is dealt again at once (the room's wait for people who are
    not ready, 30 s by default, is not what these tests read: it held one of them 30 s)."""
    settings = RoomSettings(
        rules="cardavia", level="beginner", deck="french", target=None, lang="en", quick=quick,
        next_delay=0.0,
    )  # fmt: skip
    ana, bo = hash_token("ana"), hash_token("bo")
    seats = (PersonSeat("Bo", bo, misses=2), OpenSeat(), PersonSeat("Ana", ana, misses=2))
    state = RoomState(settings, (*seats, OpenSeat()), creator=ana)
    code = await work.rooms.create_quick(state)
    room = work.rooms.rooms[code]
    listeners = []
    for seat, token in ((Seat.S, ana), (Seat.N, bo)):
        listener = Listener(CATALOGS.wording("en"), limit=0, seat=seat)
        room.connections[listener] = token
        listeners.append(listener)
    table = await work.rooms.table(room)
    assert table is not None
    work.tables.ensure_runner(table)
    await until(lambda: table.match.is_over)
    return room, listeners[0], listeners[1]


async def say(work: Floor, room: Room, listener: Listener, message: dict[str, Any]) -> None:
    await work.messages.handle_text(room, listener, json.dumps(message))


def test_a_friends_rematch_is_an_offer_dealt_once_everyone_present_accepts(
    database: str,
) -> None:
    async def main() -> None:
        async with floor(database) as work:
            room, ana, bo = await room_of_two(work, quick=False)
            over = room.game_id
            sent(ana), sent(bo)
            await say(work, room, ana, {"type": "again", "game": over})
            # Nothing dealt: Bo is offered a new game, Ana waits for him.
            assert room.game_id == over
            offered = [m["room"] for m in sent(bo) if m["type"] == "room"][-1]
            assert offered["offers"] == ["S"] and offered["declined"] is None
            assert room.state.creator == hash_token("ana")
            await say(work, room, bo, {"type": "again", "game": over})
            assert room.game_id != over  # accepted by everyone present: dealt
            assert room.state.offers == frozenset() and room.state.creator == hash_token("ana")
            views = [m["view"] for m in sent(bo) if m["type"] == "state"]
            assert views[-1]["game"] == room.game_id and views[-1]["flow"]["kind"] == "room"

    asyncio.run(main())


def test_a_declined_offer_is_withdrawn_and_the_offerer_told_who_declined(
    database: str,
) -> None:
    async def main() -> None:
        async with floor(database) as work:
            room, ana, bo = await room_of_two(work, quick=False)
            over = room.game_id
            await say(work, room, bo, {"type": "again", "game": over, "match": True})
            sent(ana)
            await say(work, room, ana, {"type": "decline"})
            told = [m["room"] for m in sent(ana) if m["type"] == "room"][-1]
            assert (told["offers"], told["declined"]) == ([], "S")
            assert room.game_id == over
            # A decline with nothing offered changes nothing; an offer again starts afresh.
            revision = room.revision
            await say(work, room, bo, {"type": "decline"})
            assert room.revision == revision
            await say(work, room, bo, {"type": "again", "game": over, "match": False})
            assert room.state.offers == {Seat.N} and room.state.declined is None

    asyncio.run(main())


def test_at_a_quick_play_table_play_again_sends_only_the_asker_to_the_queue(
    database: str,
) -> None:
    async def main() -> None:
        async with floor(database) as work:
            room, ana, bo = await room_of_two(work, quick=True)
            over, revision = room.game_id, room.revision
            sent(ana), sent(bo)
            await say(work, room, ana, {"type": "again", "game": over})
            assert sent(ana) == [{"type": "queue", "rules": "cardavia"}]
            # The others stay at their result: no new game, no clock, nothing sent to them.
            assert (room.game_id, room.revision, room.state.clock) == (over, revision, None)
            assert sent(bo) == []
            table = await work.rooms.table(room)
            assert table is not None and table.match.is_over
            view = work.rooms.view(room, table, "en", Seat.N)
            assert view["flow"] == {
                "kind": "quick",
                "again": "queue",
                "next_deal": True,
                "casual": False,
                "leaving": "loss",
                "playing": True,
            }

    asyncio.run(main())


def test_a_tournament_deal_plays_one_deal_without_its_tournaments_rules(
    database: str,
) -> None:
    """A table of the tournament's flow refuses a next deal, a new game and a hint by its
    flow alone: the table service is given no rules here (nothing looked up in the store)."""

    async def main() -> None:
        async with floor(database) as work:
            tables = work.tables
            game = await tables.create_game(
                "cardavia", "beginner", "en", seat=Seat.S, flow=tables.flows.tournament
            )
            table = await tables.open(game.game_id, game.token)
            listener = tables.listen(table, "en", seat=Seat.S)
            assert json.loads(listener.queue.get_nowait())["view"]["flow"]["kind"] == "tournament"
            with pytest.raises(ClientError) as refused:
                await tables.next_deal(table)
            assert refused.value.code == "match_over"
            with pytest.raises(ClientError) as again:
                table.may_play_again(Seat.S, game.game_id)
            assert again.value.code == "match_over"
            text = json.dumps({"type": "hint"})
            await handle_text(tables.messages, Seated(table, listener), table, listener, text)
            assert sent(listener)[-1]["code"] == "tournament_no_hints"
            # A table of one's own deals its next and answers a hint as before.
            own = await tables.create_game("cardavia", "beginner", "en", seat=Seat.S)
            mine = await tables.open(own.game_id, own.token)
            assert mine.flow is tables.flows.solo
            with pytest.raises(ClientError) as not_over:
                await tables.next_deal(mine)
            assert not_over.value.code == "deal_not_over"

    asyncio.run(main())


def test_a_watcher_sees_the_watchers_flow(database: str) -> None:
    async def main() -> None:
        async with floor(database) as work:
            room, _ana, _bo = await room_of_two(work, quick=True)
            table = await work.rooms.table(room)
            assert table is not None
            watcher = work.rooms.view(room, table, "fr", None)
            assert watcher["flow"]["kind"] == "watching"
            assert watcher["flow"]["playing"] is False and watcher["flow"]["again"] == "none"
            assert work.rooms.view(room, table, "fr", Seat.S)["flow"]["kind"] == "quick"

    asyncio.run(main())
