"""Which tournaments exist at a given time (docs/tournaments.md, "The schedule"): pure, so that
every process of the site, at any time, agrees on them.

- a **daily** one per main preset: 12 deals, open from midnight to midnight (UTC);
- a **short** one every :data:`SHORT_HOURS` hours: 6 deals, open for those hours, the main
  presets in turn;
- a **weekly** one: 20 deals, from Monday to Monday.

Each is made ahead of its window (:data:`AHEAD`), so that its seeds' commitments are
published before it opens. Its id names its kind, preset and window: two processes making
the same tournament make one.

>>> from datetime import datetime, UTC
>>> for plan in planned(datetime(2026, 12, 2, 9, 30, tzinfo=UTC))[:4]:
...     print(plan.id, plan.deals, plan.opens_at.hour, plan.closes_at - plan.opens_at)
daily-cardavia-20261202 12 0 1 day, 0:00:00
daily-coinche-20261202 12 0 1 day, 0:00:00
short-cardavia-20261202-08 6 8 4:00:00
weekly-coinche-2026w49 20 0 7 days, 0:00:00
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

MAIN_PRESETS: Final = ("cardavia", "coinche")
"""The presets of the daily tournaments (one classic, one coinche)."""
LEVEL: Final = "expert"
"""The computer players' level at every tournament table."""
DAILY_DEALS: Final = 12
SHORT_DEALS: Final = 6
WEEKLY_DEALS: Final = 20
WEEKLY_PRESET: Final = "coinche"
SHORT_HOURS: Final = 4
"""A short tournament opens every this many hours, for as long."""
AHEAD: Final = timedelta(hours=1)
"""How long before its window a tournament is made (its commitments published)."""


@dataclass(frozen=True, slots=True)
class Planned:
    """A tournament the schedule calls for: its id, kind, preset, deals and window."""

    id: str
    kind: str
    preset: str
    deals: int
    opens_at: datetime
    closes_at: datetime


def _day(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def daily(day: datetime) -> list[Planned]:
    """The daily tournaments of the day ``day`` falls on."""
    start = _day(day)
    end = start + timedelta(days=1)
    stamp = start.strftime("%Y%m%d")
    return [
        Planned(f"daily-{preset}-{stamp}", "daily", preset, DAILY_DEALS, start, end)
        for preset in MAIN_PRESETS
    ]


def short(moment: datetime) -> Planned:
    """The short tournament whose window holds ``moment``."""
    start = _day(moment) + timedelta(hours=moment.hour - moment.hour % SHORT_HOURS)
    slot = int(start.timestamp()) // (SHORT_HOURS * 3600)
    preset = MAIN_PRESETS[slot % len(MAIN_PRESETS)]
    stamp = start.strftime("%Y%m%d-%H")
    end = start + timedelta(hours=SHORT_HOURS)
    return Planned(f"short-{preset}-{stamp}", "short", preset, SHORT_DEALS, start, end)


def weekly(moment: datetime) -> Planned:
    """The weekly tournament whose week (Monday to Monday) holds ``moment``."""
    start = _day(moment) - timedelta(days=moment.weekday())
    year, week, _ = start.isocalendar()
    ident = f"weekly-{WEEKLY_PRESET}-{year}w{week:02d}"
    end = start + timedelta(days=7)
    return Planned(ident, "weekly", WEEKLY_PRESET, WEEKLY_DEALS, start, end)


def planned(moment: datetime) -> list[Planned]:
    """The tournaments that should exist at ``moment``: those open then, and those opening
    within :data:`AHEAD` (made ahead, their commitments published)."""
    found: dict[str, Planned] = {}
    for at in (moment, moment + AHEAD):
        for plan in [*daily(at), short(at), weekly(at)]:
            if plan.closes_at > moment:
                found.setdefault(plan.id, plan)
    return list(found.values())


__all__ = [
    "AHEAD",
    "DAILY_DEALS",
    "LEVEL",
    "MAIN_PRESETS",
    "SHORT_DEALS",
    "SHORT_HOURS",
    "WEEKLY_DEALS",
    "Planned",
    "daily",
    "planned",
    "short",
    "weekly",
]
