"""Changes sent as changes (docs/web.md, "Changes as changes"): what a connection is sent
when its view of a table moves on — the view's fields that changed since the view it was
sent last, not the whole view again.

A table's view is some thirty fields (docs/web.md, "View"); a card played changes a handful
of them (the trick, the hand or a hand's size, whose turn, what is legal and why the rest is
not), and the bidding, the score sheet, the names, the fairness hash and the seats' places on
the screen stay as they were for the whole deal. A field is compared whole (a changed trick
is sent whole), so that applying a change is one line on the page: the fields set replace
the view's, the fields unset leave it.

>>> before = {"phase": "playing", "trick": [], "names": {"N": "Ana"}, "hint": 1}
>>> after = {"phase": "playing", "trick": [{"seat": "W", "card": "JH"}], "names": {"N": "Ana"}}
>>> change = changed(before, after)
>>> change
Change(set={'trick': [{'seat': 'W', 'card': 'JH'}]}, unset=('hint',))
>>> apply(before, change) == after
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Change:
    """What turns one view into the next: the fields whose value is new, and those gone."""

    set: dict[str, Any]
    unset: tuple[str, ...]

    def message(self, *, version: int, since: int) -> dict[str, Any]:
        """The protocol's ``change`` message: the view of ``version`` from that of
        ``since`` (the version the connection was sent last)."""
        return {
            "type": "change",
            "version": version,
            "since": since,
            "set": self.set,
            "unset": list(self.unset),
        }


def changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> Change:
    """The change from ``before`` to ``after``: each field compared whole."""
    missing = object()
    return Change(
        set={name: value for name, value in after.items() if before.get(name, missing) != value},
        unset=tuple(name for name in before if name not in after),
    )


def apply(view: Mapping[str, Any], change: Change) -> dict[str, Any]:
    """The view a change makes of ``view`` (what the page does, ``table_connection.js``)."""
    moved = {name: value for name, value in view.items() if name not in change.unset}
    return moved | change.set


__all__ = ["Change", "apply", "changed"]
