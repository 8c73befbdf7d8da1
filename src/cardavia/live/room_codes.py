"""A room's code, its quick phrases and its numbers, as a client sends them (docs/web.md,
"Rooms"): a fresh code, a code as typed brought to its stored form, a phrase's code and a
setting's number checked."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any, Final

from cardavia.live.protocol import ClientError, echo
from cardavia.words import N_

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ"
"""The letters of a room's code: no I, L or O (read as 1 or 0)."""
CODE_LENGTH: Final = 5
"""23⁵ ≈ 6.4 million codes; guessing is slowed by the limit on lookups per client."""
KEPT_PHRASES: Final = 8
"""The quick phrases a room remembers (the latest), for the connections that come late."""
PHRASES: Final[Mapping[str, str]] = {
    "hello": N_("Hello!"),
    "good_luck": N_("Good luck!"),
    "well_played": N_("Well played!"),
    "thanks": N_("Thanks!"),
    "sorry": N_("Sorry!"),
    "oops": N_("Oops!"),
    "hurry_up": N_("Hurry up, please!"),
    "bye": N_("Goodbye!"),
}
"""The quick phrases, by code: the only things players say to each other (no free text)."""


def new_code() -> str:
    """A fresh room code (``secrets``)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: object) -> str | None:
    """A code as typed (any case, spaces or dashes) in its stored form, or ``None``.

    >>> normal_code(" kq-7 ") is None, normal_code("kqrst")
    (True, 'KQRST')
    """
    if not isinstance(text, str) or len(text) > 16:
        return None
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def phrase_code(value: object) -> str:
    """A quick phrase's code as a client sent it (``unknown_phrase`` if it names none)."""
    if not isinstance(value, str) or value not in PHRASES:
        raise ClientError("unknown_phrase", {"value": echo(value)})
    return value


def number_field(
    data: Mapping[str, Any], name: str, default: float, low: float, high: float
) -> float:
    """A number a client sent as the field ``name`` of a room's settings, from ``low`` to
    ``high`` (``bad_field`` otherwise; ``default`` when it is missing)."""
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ClientError("bad_field", {"field": name})
    return float(value)


__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "KEPT_PHRASES",
    "PHRASES",
    "new_code",
    "normal_code",
    "number_field",
    "phrase_code",
]
