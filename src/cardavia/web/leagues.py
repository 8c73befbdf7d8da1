"""What the leagues' page shows (docs/tournaments.md, "Leagues"): the player's group this
week with its standings (those who would go up or down if the week ended now marked), their
group of last week with its places and movements, and the hall of fame — read from the
store (any process answers the same), worded in the page's language."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from babel.dates import format_date
from babel.numbers import format_decimal

from cardavia.live.room import HIDDEN_NAME
from cardavia.store.db import GameStore
from cardavia.store.leagues import NamedMember
from cardavia.tournaments.leagues import (
    DOWN,
    OUT,
    UP,
    group_outcomes,
    week_of,
)
from cardavia.words import N_, Wording

MOVEMENTS: Final = {
    UP: N_("Up a division"),
    DOWN: N_("Down a division"),
    OUT: N_("Out of the leagues"),
}
"""How a movement is said, at the season's end and in this week's zones (staying is said
by nothing)."""
DEFAULT_NAME: Final = N_("Player")
"""A player who gave no name (as quick play seats them)."""
HALL_OF_FAME: Final = 20
"""The most winners the hall of fame lists (the latest weeks)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One row of a group's standings as the page shows it."""

    place: int
    name: str
    points: str
    tournaments: int
    movement: str | None
    movement_text: str
    me: bool


def _name(entry: NamedMember, wording: Wording, *, me: bool) -> str:
    """The name the reader sees: a reported name is "a player" to others; no name, "Player"."""
    if entry.hidden and not me:
        return wording.gettext(HIDDEN_NAME)
    return entry.name or wording.gettext(DEFAULT_NAME)


def standings(
    entries: Sequence[NamedMember],
    player_id: str | None,
    wording: Wording,
    lang: str,
    *,
    closed: bool,
) -> list[Line]:
    """A group's rows in order: at a closed season's end its places and movements, this
    week the places so far and the movement each would make if the week ended now."""
    by_player = {entry.member.player_id: entry for entry in entries}
    members = [entry.member for entry in entries]
    outcomes = (
        sorted(members, key=lambda one: one.place or 0) if closed else group_outcomes(members)
    )
    lines = []
    for outcome in outcomes:
        entry = by_player[outcome.player_id]
        me = outcome.player_id == player_id
        movement = outcome.movement
        lines.append(
            Line(
                place=outcome.place or 0,
                name=_name(entry, wording, me=me),
                points=format_decimal(outcome.points, format="#,##0.##", locale=lang),
                tournaments=outcome.tournaments,
                movement=movement,
                movement_text=(
                    wording.gettext(MOVEMENTS[movement]) if movement in MOVEMENTS else ""
                ),
                me=me,
            )
        )
    return lines


class Leagues:
    """The leagues' page, read from the store."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def page(
        self, player_id: str | None, wording: Wording, lang: str, *, now: datetime | None = None
    ) -> dict[str, Any]:
        """The page's parts: ``week`` (this season's id and end), ``current`` (the player's
        group this week: division, group, rows; ``None`` when they are in none), ``last``
        (their group of the latest closed season), ``fame`` (the hall of fame)."""
        return await asyncio.to_thread(self._page, player_id, wording, lang, now)

    def _page(
        self, player_id: str | None, wording: Wording, lang: str, now: datetime | None
    ) -> dict[str, Any]:
        week = week_of(now or datetime.now(UTC))
        leagues = self.store.leagues
        current = None
        last = None
        if player_id is not None:
            current = self._group(week.id, player_id, wording, lang, closed=False)
            season = leagues.last_closed(week.starts_at)
            if season is not None:
                last = self._group(season.id, player_id, wording, lang, closed=True)
                if last is not None:
                    last["week"] = format_date(season.starts_at, "long", locale=lang)
        fame = [
            {
                "week": format_date(
                    datetime.fromisocalendar(int(year), int(number), 1), "long", locale=lang
                ),
                "group": winner.group,
                "name": wording.gettext(HIDDEN_NAME)
                if winner.hidden and winner.player_id != player_id
                else winner.name or wording.gettext(DEFAULT_NAME),
                "points": format_decimal(winner.points, format="#,##0.##", locale=lang),
            }
            for winner in leagues.hall_of_fame(HALL_OF_FAME)
            for year, number in [winner.season_id.split("-W")]
        ]
        return {
            "week": {
                "id": week.id,
                "ends": week.ends_at - timedelta(minutes=1),
            },
            "current": current,
            "last": last,
            "fame": fame,
        }

    def _group(
        self, season_id: str, player_id: str, wording: Wording, lang: str, *, closed: bool
    ) -> dict[str, Any] | None:
        """The player's group in a season, as the page shows it (``None``: not in it)."""
        member = self.store.leagues.membership(season_id, player_id)
        if member is None:
            return None
        entries = self.store.leagues.group(season_id, member.division, member.group)
        return {
            "division": member.division,
            "group": member.group,
            "rows": standings(entries, player_id, wording, lang, closed=closed),
        }


__all__ = ["HALL_OF_FAME", "MOVEMENTS", "Leagues", "Line", "standings"]
