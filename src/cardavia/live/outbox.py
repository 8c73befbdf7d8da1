"""A connection's outbox (:class:`Listener`): its language, its seat and the bounded queue of
messages the game server sends it. The game server only ever queues; the site's socket face
(:mod:`cardavia.web.connection`) pumps the queue into the socket, one writer per connection
so that the messages keep their order; a connection that cannot keep up is dropped.

A connection that takes changes (the table page's, ``protocol=2``: docs/web.md, "Changes as
changes") is sent its view whole once, then each new one as what changed since the one it was
sent last (:mod:`cardavia.live.changes`), each with its table's version; any other is sent
every view whole, as before."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from cardavia.belote import Seat
from cardavia.live.changes import changed
from cardavia.live.protocol import ClientError, dump_message, state_message
from cardavia.words import Wording

TOO_SLOW_CLOSE: Final = 4408
"""The WebSocket close code of a connection that could not keep up."""

CLOSE: Final = ""
"""What a connection's queue holds last when it must be closed (it could not keep up)."""


@dataclass(slots=True, eq=False)
class Listener:
    """One open connection to a game: its language and the queue of messages to send it (a
    single writer per connection keeps them in order). The queue is bounded: a connection
    that lets it fill (too slow, or not reading) is sent ``too_slow`` and closed, rather than
    have its messages pile up in the server's memory."""

    wording: Wording
    limit: int = 256
    client: str = ""
    seat: Seat | None = None
    """The seat this connection plays (its token's); ``None``: a watcher, sent only what is
    public."""
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    close_code: int = TOO_SLOW_CLOSE
    """The WebSocket close code sent when :data:`CLOSE` is reached (4408: too slow)."""
    changes: bool = False
    """Whether it takes changes (``protocol=2``): views after the first sent as changes, and
    what is queued at once sent as one batch (:func:`cardavia.web.connection.pump`)."""
    sent: Mapping[str, Any] | None = None
    """The view it was sent last (taking changes: the base of the next change)."""
    version: int = 0
    """The version of the view it was sent last."""

    def send_view(
        self,
        view: Mapping[str, Any],
        version: int,
        written: dict[tuple[int, ...], str] | None = None,
        *,
        whole: bool = False,
    ) -> None:
        """Queue ``view``, its table's view of ``version``: whole (``state``) the first time,
        when ``whole`` is asked (a ``sync``) or to a connection that does not take changes;
        else as a ``change`` from the view it was sent last. ``written``: the messages
        already written by this round of sending, by what they are made of (the same view
        to many connections is written as JSON once, and so is the same change)."""
        before = self.sent if self.changes and not whole else None
        key = (
            (id(view), self.changes)
            if before is None
            else (id(view), id(before), self.version, version)
        )
        text = None if written is None else written.get(key)
        if text is None:
            if before is None:
                message = state_message(view)
                if self.changes:
                    message["version"] = version
            else:
                message = changed(before, view).message(version=version, since=self.version)
            text = dump_message(message)
            if written is not None:
                written[key] = text
        self.sent, self.version = view, version
        self.send_text(text)

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message for this connection."""
        self.send_text(dump_message(message))

    def send_text(self, text: str) -> None:
        """Queue a message already written as JSON (:func:`dump_message`)."""
        if self.dropped:
            return
        if self.limit > 0 and self.queue.qsize() >= self.limit:
            self.drop()
            return
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """Give up on this connection: what it has not been sent is forgotten; it is sent
        ``too_slow``, then closed."""
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(dump_message(ClientError("too_slow").message(self.wording, "")))
        self.queue.put_nowait(CLOSE)

    def close(self, code: int) -> None:
        """Close the connection once what is queued has been sent."""
        self.close_code = code
        self.queue.put_nowait(CLOSE)


__all__ = ["CLOSE", "TOO_SLOW_CLOSE", "Listener"]
