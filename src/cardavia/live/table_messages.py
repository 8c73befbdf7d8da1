"""What a table's connection may send (docs/web.md, "Protocol"): ``action``, ``next_deal``,
``hint`` and ``sync`` at every table (a room's connection too, its dispatcher including
them); ``again`` at a single-player table, whose next game is dealt over the open
connection.

Each kind is handled by the table service (:class:`Play` is what these handlers need of
it); an error goes back to the one connection it came from and changes nothing. A kind of
table may add its rules (:class:`TableRules`: a tournament's deal refuses what its window
forbids), given to the table service when it is built.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol, TypeVar

from cardavia.belote import Action, Seat
from cardavia.live.outbox import Listener
from cardavia.live.protocol import ClientError, Dispatcher, Message, parse_action
from cardavia.live.table import Seated, Table

log = logging.getLogger(__name__)

C = TypeVar("C")


Hints = Callable[[Table, str, Seat], Awaitable[dict[str, Any]]]
"""What answers a ``hint`` message: the table, the asker's language and seat
(:meth:`cardavia.live.learn.Learning.hint`)."""


class TableRules(Protocol):
    """What a kind of table adds to every table's rules (a tournament's deal:
    :class:`~cardavia.live.tournament_tables.TournamentTables`), given to the table service
    when it is built: told of each table opened, before its views, and asked about each
    message of the kinds it guards before that message is handled (a refusal is a
    :class:`ClientError`)."""

    @property
    def guarded(self) -> Iterable[str]:
        """The kinds of message :meth:`check` is asked about."""
        ...

    async def opened(self, table: Table) -> None:
        """A table was opened (from memory or the store), before its views are built."""

    async def check(self, seated: Seated, message: Message) -> None:
        """Refuse ``message`` at ``seated``'s table (:class:`ClientError`), or let it be."""


class Play(Protocol):
    """What the table's messages ask of the table service
    (:class:`~cardavia.live.tables.TableService`)."""

    hints: Hints | None

    async def act(self, table: Table, action: Action) -> None: ...

    async def next_deal(self, table: Table) -> None: ...

    def view(self, table: Table, lang: str, seat: Seat | None) -> dict[str, Any]: ...

    def ensure_runner(self, table: Table) -> None: ...


def table_kinds(play: Play, *, limit: int, rules: Iterable[TableRules] = ()) -> Dispatcher[Seated]:
    """The table's kinds of message: ``action``, ``next_deal``, ``hint``, ``sync``, each
    checked first by the ``rules`` that guard it."""

    async def action(seated: Seated, message: Message) -> None:
        seat = seated.listener.seat
        if seat is None:
            raise ClientError("watching")
        await play.act(seated.table, parse_action(message["action"], seat=seat))

    async def next_deal(seated: Seated, _message: Message) -> None:
        await play.next_deal(seated.table)

    async def hint(seated: Seated, _message: Message) -> None:
        listener = seated.listener
        if listener.seat is not None and not seated.table.flow.hints:
            # A tournament's deal: the field is ranked against the computer players.
            raise ClientError("tournament_no_hints")
        if play.hints is None or listener.seat is None:
            # No hints without the learning routes, nor for a watcher (no seat).
            raise ClientError("unknown_type", {"type": "hint"})
        listener.send(await play.hints(seated.table, listener.wording.lang, listener.seat))

    async def sync(seated: Seated, _message: Message) -> None:
        table, listener = seated.table, seated.listener
        view = play.view(table, listener.wording.lang, listener.seat)
        listener.send_view(view, table.view_version, whole=True)
        play.ensure_runner(table)  # the computer players stopped on an error?

    messages: Dispatcher[Seated] = Dispatcher(limit=limit)
    messages.on("action", action, required=("action",))
    messages.on("next_deal", next_deal)
    messages.on("hint", hint)
    messages.on("sync", sync)
    for rule in rules:
        messages.guard(rule.guarded, rule.check)
    return messages


async def handle_text(
    messages: Dispatcher[C], context: C, table: Table, listener: Listener, text: str | bytes
) -> None:
    """Handle one message of a table's connection (``context``: what its handlers are given,
    the connection at ``table``): an error goes back to that connection only, and leaves the
    game as it was."""
    try:
        await messages.dispatch(context, text)
    except ClientError as error:
        listener.send(error.message(listener.wording, table.deck))
    except Exception:
        log.exception("game %s: a message failed", table.game_id)
        listener.send(ClientError("internal").message(listener.wording, table.deck))


__all__ = ["Hints", "Play", "TableRules", "handle_text", "table_kinds"]
