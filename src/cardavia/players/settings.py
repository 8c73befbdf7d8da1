"""The table's settings a player keeps (the keys and values of ``static/js/settings.js``,
``DEFAULTS``): checked here before they are kept, so that what another tab or browser is
given back is what the page itself would have written.

>>> clean_settings({"contrast": 70, "deck": "spanish", "sounds": True})
'{"contrast":70,"deck":"spanish","sounds":true}'
>>> clean_settings({"contrast": 170})
Traceback (most recent call last):
...
cardavia.players.settings.SettingError: contrast
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from cardavia.words.times import ZONE_NAME


class SettingError(ValueError):
    """A setting that the table does not have, or a value it cannot take: its name (for the
    whole object: ``settings``)."""

    @property
    def field(self) -> str:
        """The setting refused."""
        return str(self.args[0])


def _percent(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 100


def _flag(value: object) -> bool:
    return isinstance(value, bool)


def _one_of(*choices: object) -> Callable[[object], bool]:
    return lambda value: any(value == c and type(value) is type(c) for c in choices)


def _pace(value: object) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return value is None or (number and 0 <= value <= 10_000)  # type: ignore[operator]


SETTINGS: Final[Mapping[str, Callable[[object], bool]]] = {
    "contrast": _percent,
    "grain": _percent,
    "temperature": _percent,
    "deck": _one_of("", "french", "spanish"),
    "fourColour": _flag,
    "reducedMotion": lambda value: value is None or isinstance(value, bool),
    "confirm": _flag,
    "pace": _pace,
    "aiPace": _one_of("slow", "normal", "fast"),
    "showPoints": _flag,
    "autoLast": _flag,
    "sounds": _flag,
    "notify": _flag,
    "watchable": _flag,
    "friendsSeeStatistics": _flag,
    "notifyTournaments": _flag,
    "timeZone": lambda value: (
        value == "" or (isinstance(value, str) and ZONE_NAME.fullmatch(value) is not None)
    ),
}
"""Each setting of ``settings.js`` and what it may be (``tests/players`` checks that the two
lists name the same settings)."""


def clean_settings(value: object) -> str:
    """The settings ``value`` (a JSON object of :data:`SETTINGS`, any of them) as they are
    kept: compact JSON, keys sorted; :class:`SettingError` for anything else."""
    if not isinstance(value, dict):
        raise SettingError("settings")
    for name, setting in value.items():
        check = SETTINGS.get(name)
        if check is None or not check(setting):
            raise SettingError(name if check is not None else "settings")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def read_settings(text: str) -> dict[str, Any]:
    """Kept settings as an object (nothing for text that is not one)."""
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


__all__ = ["SETTINGS", "SettingError", "clean_settings", "read_settings"]
