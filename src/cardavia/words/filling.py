"""Filling a sentence: the ``{name}`` placeholders of a message, the grammatical forms of the
names put in them, and the markers that let Babel's extractor find the messages.

Message ids are English with ``{name}`` placeholders (python-brace-format). A placeholder that
stands for a card, a suit, a rank or a seat may take a suffix that asks for another
grammatical form of its name (``{card_the}``, ``{suit_bare}``, ``{seat_gen}``; see
:mod:`cardavia.words.names`): each language's translation picks the form its grammar needs,
and :func:`expand` offers them all.

>>> expand("pl", "french", seat=SeatArg("N"), n=3)["seat_gen"]
'Północy'
>>> format_text("{a} and {missing}", {"a": 1})
'1 and {missing}'
>>> contract("es", "Solo el nueve supera a el ocho de diamantes.")
'Solo el nueve supera al ocho de diamantes.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from cardavia.belote import parse_card
from cardavia.words.names import (
    card_forms,
    card_short,
    rank_forms,
    seat_forms,
    suit_forms,
    team_name,
)


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker
    """Mark a string for translation where it is defined; it is translated where it is used."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - as N_, with plural
    """Mark a message with a plural form for translation (Babel keyword ``NP_:1,2``)."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class CardArg:
    """A card in a sentence, by its code (``JH``): every form of its name is offered."""

    code: str


@dataclass(frozen=True, slots=True)
class SuitArg:
    """A suit in a sentence (0–3: S H D C)."""

    suit: int


@dataclass(frozen=True, slots=True)
class RankArg:
    """A rank in a sentence (0–7 in sequence order)."""

    rank: int


@dataclass(frozen=True, slots=True)
class SeatArg:
    """A seat in a sentence, by its code (``N E S W``)."""

    code: str


@dataclass(frozen=True, slots=True)
class TeamArg:
    """A partnership in a sentence, by its code (``NS``, ``EW``)."""

    code: str


Arg = CardArg | SuitArg | RankArg | SeatArg | TeamArg | str | int
"""What a placeholder may be given: a name in all its forms, or a plain value."""


def arg_forms(arg: object, lang: str, deck: str) -> dict[str, str]:
    """Every form of one argument's name, keyed by the suffix of its placeholder (``""``,
    ``_the``, ``_gen`` …); a plain value has one form, itself as text."""
    forms: dict[str, str]
    if isinstance(arg, CardArg):
        card = parse_card(arg.code)
        forms = card_forms(card, lang, deck)
        forms["_short"] = card_short(card, lang, deck)
    elif isinstance(arg, SuitArg):
        forms = suit_forms(arg.suit, lang, deck)
    elif isinstance(arg, RankArg):
        forms = rank_forms(arg.rank, lang, deck)
    elif isinstance(arg, SeatArg):
        forms = seat_forms("NESW".index(arg.code), lang)
    elif isinstance(arg, TeamArg):
        forms = {"": team_name(("NS", "EW").index(arg.code), lang)}
    else:
        forms = {"": str(arg)}
    return forms


def expand(lang: str, deck: str, /, **args: object) -> dict[str, str]:
    """Every form of every argument, keyed by placeholder name (``card``, ``card_the``)."""
    return {
        name + suffix: value
        for name, arg in args.items()
        for suffix, value in arg_forms(arg, lang, deck).items()
    }


class _Default(dict[str, str]):
    """Format arguments that leave an unknown placeholder as it is instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def format_text(template: str, args: Mapping[str, object]) -> str:
    """``template`` with its ``{name}`` placeholders filled; a translation that names an
    unknown placeholder, or has a stray brace, is shown as it is rather than failing."""
    try:
        return template.format_map(_Default({k: str(v) for k, v in args.items()}))
    except (ValueError, IndexError):
        return template


_SPANISH_CONTRACTIONS: Final = ((re.compile(r"\ba el\b"), "al"), (re.compile(r"\bde el\b"), "del"))


def contract(lang: str, text: str) -> str:
    """A filled sentence with the contractions its language makes where a name with its
    article follows a preposition: Spanish "supera a el ocho" is "supera al ocho"."""
    if lang == "es":
        for pattern, replacement in _SPANISH_CONTRACTIONS:
            text = pattern.sub(replacement, text)
    return text


_PLACEHOLDER: Final = re.compile(r"\{([a-z_0-9]+)\}")


def placeholders(message: str) -> set[str]:
    """The names of a message's ``{placeholders}``.

    >>> sorted(placeholders("{seat} plays {card_the}."))
    ['card_the', 'seat']
    """
    return set(_PLACEHOLDER.findall(message))
