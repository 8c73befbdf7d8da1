"""The protocol's one dispatcher: a message read once, its kind and fields checked once, then
answered by its kind's handler; another dispatcher's kinds included through a context."""

from __future__ import annotations

import asyncio
import json

import pytest

from cardavia.live.protocol import ClientError, Dispatcher, Message, echo


def _code(dispatcher: Dispatcher[list[str]], text: str) -> str:
    with pytest.raises(ClientError) as caught:
        dispatcher.read(text)
    return caught.value.code


def test_a_message_is_checked_once() -> None:
    messages: Dispatcher[list[str]] = Dispatcher(limit=100)

    async def act(seen: list[str], message: Message) -> None:
        seen.append(message["action"])

    messages.on("action", act, required=("action",))
    assert _code(messages, "{") == "bad_json"
    assert _code(messages, "[]") == "not_an_object"
    assert _code(messages, "{}") == "missing_field"
    assert _code(messages, '{"type": "fly"}') == "unknown_type"
    assert _code(messages, '{"type": "action", "x": 1}') == "unknown_field"
    assert _code(messages, '{"type": "action"}') == "missing_field"
    assert _code(messages, json.dumps({"type": "action", "action": "x" * 100})) == "too_large"
    seen: list[str] = []
    asyncio.run(messages.dispatch(seen, '{"type": "action", "action": "pass"}'))
    assert seen == ["pass"]


def test_a_room_includes_the_tables_kinds() -> None:
    table: Dispatcher[list[str]] = Dispatcher()

    async def sync(seen: list[str], _message: Message) -> None:
        seen.append("table sync")

    table.on("sync", sync)
    room: Dispatcher[dict[str, list[str]]] = Dispatcher()

    async def to_table(context: dict[str, list[str]]) -> list[str]:
        if "table" not in context:
            raise ClientError("not_started")
        return context["table"]

    async def ready(context: dict[str, list[str]], _message: Message) -> None:
        context["room"].append("ready")

    room.include(table, to_table)
    room.on("ready", ready)
    assert room.kinds == {"sync", "ready"}
    context: dict[str, list[str]] = {"room": [], "table": []}
    asyncio.run(room.dispatch(context, '{"type": "sync"}'))
    asyncio.run(room.dispatch(context, '{"type": "ready"}'))
    assert context == {"room": ["ready"], "table": ["table sync"]}
    with pytest.raises(ClientError, match="not_started"):
        asyncio.run(room.dispatch({"room": []}, '{"type": "sync"}'))


def test_client_values_are_echoed_one_way() -> None:
    assert echo("\ud800abc") == "\ufffdabc"
    assert echo(["a"]) == '["a"]'
    assert len(echo("y" * 100)) == 24
