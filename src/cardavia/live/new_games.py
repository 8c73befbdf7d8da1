"""What a new game is made of, checked (docs/web.md, "Protocol"): the preset, the computer
players' level, the language, the deck and the target a client asks for (:class:`GameAsked`);
who a saved game's computer players are (:func:`players_of`); and a game saved with a second
write in the same trip to the writer's thread (:func:`created_then`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from cardavia.ai.levels import level_version, player_levels, version_level
from cardavia.belote import DECKS, PRESETS, Rules, find_rules
from cardavia.live.protocol import ClientError, echo
from cardavia.store.db import StoredGame
from cardavia.words import is_language


class PresetTarget(Enum):
    """A game's target when none is chosen: its preset's (a room chooses one: a score, or
    ``None`` for a single deal)."""

    PRESET = "preset"


@dataclass(frozen=True, slots=True)
class GameAsked:
    """A new game as asked for, checked: the rules made from the preset (its deck and target
    as chosen), the preset's name, the level and the language."""

    chosen: Rules
    preset: str
    level: str
    lang: str

    @classmethod
    def checked(
        cls,
        rules: object,
        level: object,
        lang: object,
        deck: object = None,
        *,
        target: int | PresetTarget | None = PresetTarget.PRESET,
    ) -> GameAsked:
        """The game asked for: ``unknown_rules``, ``unknown_level``, ``unknown_language``,
        ``unknown_deck`` for a value that names none (``deck`` ``None``: the preset's;
        ``target`` a score, or ``None`` for a single deal, rather than the preset's)."""
        if not isinstance(rules, str) or rules not in PRESETS:
            raise ClientError("unknown_rules", {"rules": echo(rules)})
        if not isinstance(level, str) or level not in player_levels():
            raise ClientError("unknown_level", {"level": echo(level)})
        if not is_language(lang) or not isinstance(lang, str):
            raise ClientError("unknown_language", {"lang": echo(lang)})
        chosen = find_rules(rules)
        if deck is not None:
            if not isinstance(deck, str) or deck not in DECKS:
                raise ClientError("unknown_deck", {"deck": echo(deck)})
            chosen = chosen.replace(deck=deck)
        if not isinstance(target, PresetTarget):
            chosen = chosen.replace(target=target)
        return cls(chosen, rules, level, lang)


def players_of(stored: StoredGame) -> str:
    """Who a saved game's computer seats are: the version it was made with, or its level's
    current one if it has none (a level registered without one) or this code no longer
    knows it."""
    try:
        version_level(stored.version or "")
    except ValueError:
        return level_version(stored.level)
    return stored.version or level_version(stored.level)


def created_then(
    create: Callable[[], StoredGame], then: Callable[[str], object] | None
) -> StoredGame:
    """A game saved by ``create``, then ``then`` given its id: both in the writer's thread
    (``then`` fails on its own: the game stands)."""
    stored = create()
    if then is not None:
        then(stored.id)
    return stored


__all__ = ["GameAsked", "PresetTarget", "created_then", "players_of"]
