"""The fair-use limits count for the whole site (issue 18, item 5): with two web processes
on one Redis, a client gets what one process would allow it, not twice that, and
``X-Forwarded-For`` from a peer that is no trusted proxy changes nothing."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable

from tests.multi.conftest import WebProcess


def status(web: WebProcess, method: str, path: str, forwarded: str | None = None) -> int:
    headers = {"Content-Type": "application/json"}
    if forwarded:
        headers["X-Forwarded-For"] = forwarded
    body = json.dumps({"level": "beginner"}).encode() if method == "POST" else None
    request = urllib.request.Request(web.http + path, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            code: int = response.status
            return code
    except urllib.error.HTTPError as error:
        return error.code


def test_limits_are_counted_site_wide(web_process: Callable[..., WebProcess]) -> None:
    limits = {
        "CARDAVIA_GAMES_PER_MINUTE": "1",
        "CARDAVIA_GAMES_BURST": "5",
        "CARDAVIA_ROOM_LOOKUPS_PER_MINUTE": "6",
    }
    one, two = web_process(**limits), web_process(**limits)
    created = [
        status((one, two)[n % 2], "POST", "/api/games", f"198.51.100.{n}") for n in range(10)
    ]
    assert created.count(201) == 5 and created[5:] == [429] * 5, created
    lookups = [status((one, two)[n % 2], "GET", "/api/rooms/ABCDE") for n in range(12)]
    assert lookups.count(404) == 6 and lookups[6:] == [429] * 6, lookups
