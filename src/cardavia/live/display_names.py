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

A person who chose no name sits at a quick-play table under a generated one, kept with their
player (:func:`generated_name`: "Player 4821", the same at each table), which every reader
reads in their own language (:func:`shown_name`: "Joueur 4821", "لاعب 4821"), never the word
of the language the person joined in; at one table no two people show the same name
(:func:`told_apart`).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from cardavia.live.protocol import ClientError
from cardavia.words import N_, Wording

MAX_NAME: Final = 24
"""The longest display name, in characters."""
INVISIBLE_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0")
"""The Hangul fillers: letters by their Unicode category (Lo), default-ignorable, drawn as
nothing (taken out of a name as the format characters are)."""
BLANKS: Final = frozenset("\u2800")
"""Characters drawn as a blank that are not Unicode spaces (the braille blank): a space in a
name."""


GENERATED: Final = N_("Player {number}")
"""A generated name, in each reader's language."""
GENERATED_FORM: Final = re.compile(r"Player (\d{4})")
"""A generated name as it is kept (its English words): said in the reader's language."""


def generated_name(player: str) -> str:
    """The name of a player who chose none: "Player" and four digits drawn from their
    player's id, the same at every table (kept as its English words; :func:`shown_name` says
    it in the reader's language).

    >>> generated_name("p-1") == generated_name("p-1") != generated_name("p-2")
    True
    """
    digest = hashlib.sha256(player.encode("utf-8")).digest()
    return f"Player {1000 + int.from_bytes(digest[:4], 'big') % 9000}"


def shown_name(name: str, wording: Wording) -> str:
    """A name as ``wording``'s reader reads it: a generated one in their language ("Joueur
    4821"), any other as it was chosen."""
    generated = GENERATED_FORM.fullmatch(name)
    if generated is None:
        return name
    return wording.gettext(GENERATED).replace("{number}", generated.group(1))


def told_apart(names: Sequence[str]) -> list[str]:
    """The names of the people at one table, none shown twice: a generated name taken
    already is given the next number, a chosen one a number after it ("Ana 2").

    >>> told_apart(["Ana", "Player 1234", "Ana", "Player 1234"])
    ['Ana', 'Player 1234', 'Ana 2', 'Player 1235']
    """
    taken: set[str] = set()
    apart = []
    for name in names:
        shown, count = name, 1
        generated = GENERATED_FORM.fullmatch(name)
        while shown in taken:
            count += 1
            if generated is not None:
                shown = f"Player {1000 + (int(generated.group(1)) - 1000 + count - 1) % 9000}"
            else:
                shown = f"{name[: MAX_NAME - 3]} {count}"
        taken.add(shown)
        apart.append(shown)
    return apart


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


__all__ = [
    "BLANKS",
    "GENERATED",
    "INVISIBLE_LETTERS",
    "MAX_NAME",
    "clean_name",
    "generated_name",
    "shown_name",
    "told_apart",
]
