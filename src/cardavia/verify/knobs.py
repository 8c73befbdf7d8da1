"""Reading the knobs of a rule set, as a plain mapping of name to value.

The second check receives a rule set as ``Rules.as_dict()`` (docs/rules-decisions.md, "Knob
names"). It reads only the knobs it needs, by name, and refuses a value outside the documented
ones: a wrong knob is a bug to report, not something to guess around.
"""

from __future__ import annotations

from collections.abc import Mapping


def _knob(knobs: Mapping[str, object], name: str) -> object:
    """The raw value of one knob; a missing knob is an error (KeyError names it)."""
    if name not in knobs:
        raise KeyError(f"the rule set has no knob {name!r}")
    return knobs[name]


def knob_choice(knobs: Mapping[str, object], name: str, allowed: tuple[str, ...]) -> str:
    """The value of a knob that is one of a few words, e.g. ``undertrump``."""
    value = _knob(knobs, name)
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"knob {name!r} is {value!r}, expected one of {allowed}")
    return value


def knob_flag(knobs: Mapping[str, object], name: str) -> bool:
    """The value of an on/off knob, e.g. ``must_trump_partner``."""
    value = _knob(knobs, name)
    if not isinstance(value, bool):
        raise ValueError(f"knob {name!r} is {value!r}, expected true or false")
    return value


def knob_number(knobs: Mapping[str, object], name: str, allowed: tuple[int, ...]) -> int:
    """The value of a knob that is one of a few numbers, e.g. ``capot_points``."""
    value = _knob(knobs, name)
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise ValueError(f"knob {name!r} is {value!r}, expected one of {allowed}")
    return value
