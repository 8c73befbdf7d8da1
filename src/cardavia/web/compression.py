"""The pages, styles and scripts sent gzip-compressed to a browser that accepts it (issue 37,
"Light on a phone"): a rules page of 90 KiB of HTML travels as about 15.

What is compressed, and why only that:

- Only the kinds of text a browser loads to show a page (:data:`COMPRESSED_TYPES`: HTML, CSS,
  JavaScript, SVG, the manifest), whole answers (200) of at least :data:`MINIMUM_BYTES`, to a
  ``GET`` whose ``Accept-Encoding`` names gzip. Pictures already compressed (PNG) are sent as
  they are, and so are a ``HEAD`` (its ``Content-Length`` stays the body's) and a range.
- Never the API's JSON nor the WebSocket (a socket's scope is passed through untouched):
  BREACH reads a secret out of the compressed size of an answer that also reflects what an
  attacker sent. The answers that carry a secret are the API's (a seat's token in
  ``POST /api/games``, a room's) and they stay uncompressed; so does a page that says
  ``Cache-Control: no-transform``, which a page holding a secret says (a tournament deal's
  table, whose script is given its seat's token: it reflects nothing a visitor sends, and is
  not compressed all the same). The other pages carry none (a seat's token lives in the
  browser's storage, the player cookie is ``HttpOnly`` and never written into a page;
  ``tests/web/test_compression.py`` checks pages opened with a player's cookie).
- Starlette's ``GZipMiddleware`` compresses every kind, JSON included, so the site has its own:
  a plain ASGI middleware like :class:`cardavia.web.edge.Edge`, inside it (the security
  headers are added to the compressed answer as to any other).

A compressed answer says ``Content-Encoding: gzip`` and ``Vary: Accept-Encoding`` (a cache
keeps both forms apart), and its ``ETag`` becomes weak (the bytes differ from the file's).
"""

from __future__ import annotations

import zlib
from typing import Final

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COMPRESSED_TYPES: Final = frozenset(
    {
        "text/html",
        "text/css",
        "text/javascript",
        "application/javascript",
        "image/svg+xml",
        "application/manifest+json",
    }
)
"""The media types compressed: what a browser loads to show a page, never the API's JSON."""
MINIMUM_BYTES: Final = 1024
"""An answer shorter than this is sent as it is: gzip's 18 bytes of frame would eat the gain."""
LEVEL: Final = 6
"""zlib's level: nearly level 9's size for a third of its time (a 120 KiB script, 2 ms)."""
GZIP_WINDOW: Final = 16 + zlib.MAX_WBITS
"""zlib's ``wbits`` for a gzip frame."""


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (named, or ``*``, with a weight
    above 0).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip("")
    (True, False, False)
    >>> accepts_gzip("*"), accepts_gzip("identity")
    (True, False)
    """
    for part in accept_encoding.lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() not in ("gzip", "*"):
            continue
        weight = params.strip().removeprefix("q=").strip()
        try:
            return not weight or float(weight) > 0
        except ValueError:
            return False
    return False


def is_compressible(headers: Headers) -> bool:
    """Whether an answer with these headers is one to compress: a kind of
    :data:`COMPRESSED_TYPES`, not already encoded, not marked ``no-transform`` (a page that
    holds a secret), not shorter than :data:`MINIMUM_BYTES` where its length is said."""
    media_type = headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type not in COMPRESSED_TYPES or "content-encoding" in headers:
        return False
    if "no-transform" in headers.get("cache-control", "").lower():
        return False
    length = headers.get("content-length")
    return length is None or not length.isdigit() or int(length) >= MINIMUM_BYTES


class Compression:
    """The ASGI middleware that gzips the pages, styles and scripts (the module's rules)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Headers(scope=scope) if scope["type"] == "http" else None
        if (
            request is None
            or scope.get("method") != "GET"
            or "range" in request
            or not accepts_gzip(request.get("accept-encoding", ""))
        ):
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, _Compressing(send))


class _Compressing:
    """One answer's ``send``: the start held until the first part of the body says whether
    it is worth compressing, then every part compressed as it comes."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.start: Message | None = None
        self.compressor: zlib._Compress | None = None
        self.passing = False

    async def __call__(self, message: Message) -> None:
        if self.passing:
            await self.send(message)
        elif message["type"] == "http.response.start":
            headers = Headers(raw=message.get("headers", []))
            if message["status"] == 200 and is_compressible(headers):
                self.start = message
            else:
                self.passing = True
                await self.send(message)
        elif message["type"] == "http.response.body" and self.start is not None:
            await self._body(message)
        else:
            await self.send(message)

    async def _body(self, message: Message) -> None:
        body: bytes = message.get("body", b"")
        more: bool = message.get("more_body", False)
        start = self.start
        if self.compressor is None and start is not None:
            if not more and len(body) < MINIMUM_BYTES:
                self.passing = True
                await self.send(start)
                await self.send(message)
                return
            self.compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, GZIP_WINDOW)
            headers = MutableHeaders(raw=list(start.get("headers", [])))
            headers["content-encoding"] = "gzip"
            headers.add_vary_header("Accept-Encoding")
            if (etag := headers.get("etag")) and not etag.startswith("W/"):
                headers["etag"] = f"W/{etag}"
            del headers["content-length"]
            packed = self.compressor.compress(body)
            if not more:
                packed += self.compressor.flush()
                headers["content-length"] = str(len(packed))
            await self.send({**start, "headers": headers.raw})
            await self.send({"type": "http.response.body", "body": packed, "more_body": more})
            return
        if self.compressor is None:  # pragma: no cover - a body before any start
            await self.send(message)
            return
        packed = self.compressor.compress(body)
        if not more:
            packed += self.compressor.flush()
        else:
            packed += self.compressor.flush(zlib.Z_SYNC_FLUSH)
        await self.send({"type": "http.response.body", "body": packed, "more_body": more})


__all__ = ["COMPRESSED_TYPES", "MINIMUM_BYTES", "Compression", "accepts_gzip", "is_compressible"]
