"""What the home page shows a visitor (docs/web.md, "The home"): a "Play now" per rules
preset with what it commits them to, the tournaments open now and the next to open, their
rating and their league place this week, and the day's training problem. Read from the store
(blocking: :meth:`Home.page` runs it in a worker thread); should the store not answer, the
route leaves these parts out (``or_else``), never the page.

What a "Play now" commits its player to is the waiting page's own estimate
(:func:`cardavia.live.flows.commitment_of`: one deal, about three minutes; a match's deals
reckoned from the points a deal scores in its rules), said alike on the home, in the lobby
and on the waiting page the button leads to.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from cardavia.belote import PRESETS
from cardavia.live.flows import Commitment, commitment_of
from cardavia.players.ratings import Ratings
from cardavia.store.db import GameStore
from cardavia.tournaments.leagues import week_of
from cardavia.tournaments.schedule import SHORT_HOURS, Planned, short
from cardavia.tournaments.service import Tournament, Tournaments
from cardavia.web.leagues import standings
from cardavia.web.problems import daily_problem, problem_data
from cardavia.words import Wording

SHOWN_OPEN: Final = 3
"""How many open tournaments the home lists (closing first); the rest are a click away."""


def commitments(presets: Iterable[Mapping[str, Any]]) -> dict[str, Commitment]:
    """Each preset's commitment by its key, for the pages that offer "Play now" (the home,
    the lobby), given the page's presets (cardavia.web.pages.page_context, each with its
    ``key``).

    >>> said = commitments([{"key": "cardavia"}, {"key": "coinche"}])
    >>> said["cardavia"].minutes, said["coinche"].target, said["coinche"].minutes
    (3, 2000, 42)
    """
    return {preset["key"]: commitment_of(PRESETS[preset["key"]]) for preset in presets}


def next_short(now: datetime) -> Planned:
    """The next short tournament to open after ``now`` (one opens every few hours)."""
    return short(now + timedelta(hours=SHORT_HOURS))


@dataclass(frozen=True, slots=True)
class Home:
    """The home's parts for one visitor, from the tournaments and the store."""

    tournaments: Tournaments
    store: GameStore

    async def page(self, player_id: str | None, wording: Wording) -> dict[str, Any]:
        """``open`` (the tournaments open now, closing first, each with the player's
        progress), ``going_on`` (the player's games to continue: rooms, tournaments),
        ``next`` (the next short tournament), ``now``, ``ratings`` (family → rating shown,
        empty for a newcomer), ``league`` (this week's division, group and place, or
        ``None``), ``guest_with_games`` (played here without a passkey: invited to add one),
        ``problem`` (the day's problem: its id, theme and title)."""
        parts = await asyncio.to_thread(self._read, player_id, wording)
        parts["ratings"] = await self._ratings(player_id)
        return parts

    def _read(self, player_id: str | None, wording: Wording) -> dict[str, Any]:
        now = self.tournaments.clock()
        lines = [self._line(tournament, player_id) for tournament in self.tournaments.open_now()]
        return {
            "open": lines[:SHOWN_OPEN],
            "going_on": self._going_on(player_id, lines),
            "next": next_short(now),
            "now": now,
            "league": self._league(player_id, now, wording),
            "guest_with_games": self._guest_with_games(player_id),
            "keep_player": self._passkey_less(player_id),
            "problem": problem_data(daily_problem(), wording),
        }

    def _line(self, tournament: Tournament, player_id: str | None) -> dict[str, Any]:
        progress = None
        if player_id is not None:
            progress = self.tournaments.progress(tournament, player_id)
        return {"t": tournament, "progress": progress}

    def _going_on(self, player_id: str | None, lines: list[dict[str, Any]]) -> dict[str, Any]:
        """The player's games to continue: ``rooms`` (codes of the rooms whose game they hold
        a seat in, not over) and ``tournaments`` (each open one they entered and have not
        finished, with the deal to play next)."""
        if player_id is None:
            return {"rooms": [], "tournaments": []}
        entered = [
            {"t": line["t"], "next": line["progress"].next_number}
            for line in lines
            if line["progress"] is not None
            and line["progress"].entered
            and line["progress"].next_number is not None
        ]
        return {"rooms": self.store.players.rooms_under_way(player_id), "tournaments": entered}

    def _guest_with_games(self, player_id: str | None) -> bool:
        """Whether the player has played here without a passkey: the home invites them to
        keep their player (it lives in one browser's cookie until then)."""
        if player_id is None or self.store.passkeys.of_player(player_id):
            return False
        return bool(self.store.players.games_of(player_id))

    def _passkey_less(self, player_id: str | None) -> bool:
        """Whether the visitor keeps no passkey: a guest of this browser, or a first visitor
        whose player their first game makes."""
        return player_id is None or not self.store.passkeys.of_player(player_id)

    def _league(
        self, player_id: str | None, now: datetime, wording: Wording
    ) -> dict[str, int] | None:
        """The player's division, group and place so far this week (``None``: in no group),
        as the leagues' page counts it."""
        if player_id is None:
            return None
        week = week_of(now)
        member = self.store.leagues.membership(week.id, player_id)
        if member is None:
            return None
        entries = self.store.leagues.group(week.id, member.division, member.group)
        lines = standings(entries, player_id, wording, wording.lang, closed=False)
        place = next((line.place for line in lines if line.me), 0)
        return {"division": member.division, "group": member.group, "place": place}

    async def _ratings(self, player_id: str | None) -> dict[str, int]:
        if player_id is None:
            return {}
        rated = await Ratings(self.store.ratings).of_player(player_id)
        return {rating.family: rating.skill.display for rating in rated}


__all__ = ["Home", "commitments", "next_short"]
