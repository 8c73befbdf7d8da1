"""The rules pages' words, as the site's modules still import them: re-exported from
:mod:`cardavia.words`, where the one catalog loader and the one wording object are
(:func:`cardavia.words.rules_text` is a :class:`~cardavia.words.Wording` of the ``rules``
domain). Nothing in :mod:`cardavia.teach` imports this module; it goes once the site imports
:mod:`cardavia.words`.
"""

from __future__ import annotations

from pathlib import Path

from cardavia.words import (
    LOCALE_DIR,
    RTL_LANGUAGES,
    RULES,
    CardArg,
    RankArg,
    SeatArg,
    SuitArg,
    TeamArg,
    Wording,
    contract,
    missing_messages,
    placeholders,
    rules_text,
)
from cardavia.words import catalog_path as _catalog_path

RulesText = Wording
"""The rules pages' words in one language: the one wording object, domain ``rules``."""
DOMAIN = RULES

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "RTL_LANGUAGES",
    "CardArg",
    "RankArg",
    "RulesText",
    "SeatArg",
    "SuitArg",
    "TeamArg",
    "catalog_path",
    "contract",
    "missing_messages",
    "placeholders",
    "rules_text",
]


def catalog_path(lang: str) -> Path:
    """The ``rules.po`` file of a language."""
    return _catalog_path(lang, RULES)
