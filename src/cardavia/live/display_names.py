"""A display name as the site shows it (docs/players.md, "What a player keeps"): in a room's
seat, the lobby, the rankings and the leagues, beside every card a person plays.

A name is text, never markup (the pages write it with ``textContent``). It must show: once
the characters nobody sees are gone, at least one letter or digit is left. Control and
format characters (zero-width spaces, direction marks) are removed; the Hangul fillers
(U+115F, U+1160, U+3164, U+FFA0: letters by their category, yet default-ignorable, drawn as
nothing) are removed too, and the braille blank (U+2800) counts as a space. A name with
nothing left, or too long, is refused (``bad_name``); one with something left but no letter or
digit (combining marks alone, dots, symbols) would still show as a blank or a smudge in a
seat: it is refused too (``blank_name``).
"""

from __future__ import annotations

import unicodedata
from typing import Final

from cardavia.live.protocol import ClientError

MAX_NAME: Final = 24
"""The longest display name, in characters."""
INVISIBLE_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0")
"""The Hangul fillers: letters by their Unicode category (Lo), default-ignorable, drawn as
nothing (taken out of a name as the format characters are)."""
BLANKS: Final = frozenset("\u2800")
"""Characters drawn as a blank that are not Unicode spaces (the braille blank): a space in a
name."""


def clean_name(value: object) -> str:
    """A display name as shown: normalised (NFC), control and format characters and the
    Hangul fillers removed, spaces collapsed, 1 to :data:`MAX_NAME` characters (``bad_name``
    otherwise), with a letter or a digit to see (``blank_name`` otherwise).

    >>> clean_name("  Zo\\u00e9\\u200b  la  reine ")
    'Zoé la reine'
    >>> clean_name("\\u3164Ana\\u2800\\u2800B.")
    'Ana B.'
    """
    if not isinstance(value, str) or len(value) > 4 * MAX_NAME:
        raise ClientError("bad_name", {"count": MAX_NAME})
    text = unicodedata.normalize("NFC", value)
    text = "".join(
        " " if c in BLANKS else c
        for c in text
        if unicodedata.category(c)[0] != "C" and c not in INVISIBLE_LETTERS
    )
    text = " ".join(text.split())
    if not 0 < len(text) <= MAX_NAME:
        raise ClientError("bad_name", {"count": MAX_NAME})
    if not any(unicodedata.category(c)[0] in "LN" for c in text):
        raise ClientError("blank_name")
    return text


__all__ = ["BLANKS", "INVISIBLE_LETTERS", "MAX_NAME", "clean_name"]
