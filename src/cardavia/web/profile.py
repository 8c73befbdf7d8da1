"""What a player may ask of the site about themselves (docs/players.md, "The profile"):
everything kept about them (:meth:`Profiles.export`), and to be forgotten
(:meth:`Profiles.erase`): their rows erased — the player, their sessions, passkeys, links
and ratings — and, in the rooms they sat in, their name replaced by "a former player" (in
the room's language; the histories of the others word it in theirs); and what the profile
page shows of their ratings (:meth:`Profiles.rating_page`, docs/players.md, "Ratings")."""

from __future__ import annotations

import asyncio
import functools
import logging
from dataclasses import replace
from typing import Any, Final

from babel.numbers import format_decimal

from cardavia.belote import Seat
from cardavia.live.protocol import ClientError
from cardavia.live.room_state import ComputerSeat, PersonSeat, RoomState
from cardavia.live.rooms import RoomService
from cardavia.players.ratings import FAMILIES, PROVISIONAL_DEALS, Ratings
from cardavia.players.settings import read_settings
from cardavia.store.db import GameStore
from cardavia.store.quickplay import Completion
from cardavia.tournaments.performance import WINDOW_DAYS, WINDOW_DEALS
from cardavia.web.history import FORMER_PLAYER, History
from cardavia.web.rating_chart import draw
from cardavia.words import Catalogs
from cardavia.words.times import Times

log = logging.getLogger(__name__)

ATTEMPTS: Final = 3
"""Tries to take a name out of a room that another process changed meanwhile (``stale``)."""
EXPORT_PAGES: Final = 1000
"""The most pages of a history an export reads (10,000 games)."""
HISTORY: Final = 200
"""The most points of a performance's history the profile shows (the latest)."""


def _one_decimal(value: float, lang: str) -> str:
    """A performance as the page says it: one decimal, in the language's numbers."""
    return format_decimal(round(value, 1), format="0.0", locale=lang)


def without_name(state: RoomState, *, seat: Seat, name: str, token: str | None = None) -> RoomState:
    """The room's state with the name in ``seat`` replaced by ``name`` (a person's, or the
    computer player who took a departed person's seat and kept their name). With ``token``
    (the hash of the seat token of the person whose name goes), the seat that token holds
    now, wherever it moved; a seat another person's token holds is never renamed."""
    if token is not None:
        seat = state.seat_of(token) or seat
    entry = state[seat]
    if not isinstance(entry, PersonSeat | ComputerSeat) or not entry.name:
        return state
    if isinstance(entry, PersonSeat) and token is not None and entry.token != token:
        return state
    seats = list(state.seats)
    seats[list(Seat).index(seat)] = replace(entry, name=name)
    one, two, three, four = seats
    return replace(state, seats=(one, two, three, four))


class Profiles:
    """The players' own requests about themselves."""

    def __init__(
        self, store: GameStore, history: History, rooms: RoomService, catalogs: Catalogs
    ) -> None:
        self.store = store
        self.history = history
        self.rooms = rooms
        self.catalogs = catalogs
        self.ratings = Ratings(store.ratings)

    async def export(self, player_id: str, lang: str) -> dict[str, Any]:
        """Everything kept about the player: what they keep (name, language, settings), their
        sessions and passkeys (never a token or a key's secret), the players they blocked and
        the names reported (:meth:`~cardavia.store.safety.SafetyStore.kept_about`), their
        friends and friend link (:meth:`~cardavia.store.friends.FriendStore.kept_about`), the
        browsers told while the site is closed (:meth:`~cardavia.store.push.PushStore.kept_about`),
        their ratings, performance and league places, their tournament entries and deals, the games
        they sat at and every deal of them as "My games" lists it."""
        stored = await asyncio.to_thread(self.store.players.load, player_id)
        if stored is None:
            raise ClientError("not_found")
        kept = await asyncio.to_thread(self.store.players.kept_about, player_id)
        kept |= await asyncio.to_thread(self.store.safety.kept_about, player_id)
        kept |= await asyncio.to_thread(self.store.friends.kept_about, player_id)
        kept |= await asyncio.to_thread(self.store.push.kept_about, player_id)
        played = await asyncio.to_thread(self.store.players.played, player_id)
        rated = await asyncio.to_thread(self.store.ratings.kept_about, player_id)
        rated |= await asyncio.to_thread(self.store.leagues.kept_about, player_id)
        rated |= await asyncio.to_thread(self.store.tournaments.kept_about, player_id)
        deals: list[dict[str, Any]] = []
        for page in range(1, EXPORT_PAGES + 1):
            answer = await self.history.page(player_id, stored.name, page, lang)
            deals += answer["deals"]
            if not answer["more"]:
                break
        return {
            "player": {
                "name": stored.name,
                "lang": stored.lang,
                "settings": dict(read_settings(stored.settings)),
                "created_at": stored.created_at.isoformat(),
            },
            **kept,
            **rated,
            "games": [
                {"game": p.game_id, "seat": p.seat, "room": p.room, "at": p.at.isoformat()}
                for p in played
            ],
            "deals": deals,
        }

    async def completion(self, player_id: str) -> Completion:
        """How the player's quick-play games ended: played to the end, or left for good
        (docs/players.md, "Leaving")."""
        return await asyncio.to_thread(self.store.quick.completion, player_id)

    async def erase(self, player_id: str) -> None:
        """Forget the player: every row that is theirs erased (``PlayerStore.erase``), then
        their name taken out of the rooms they sat in (a room closed meanwhile has nothing
        left to change)."""
        seats = await asyncio.to_thread(self.store.players.erase, player_id)
        for held in seats:
            for _attempt in range(ATTEMPTS):
                try:
                    await self._rename(held.code, Seat[held.seat], held.token)
                    break
                except ClientError as error:
                    if error.code != "stale":
                        log.info("room %s keeps no name to take out (%s)", held.code, error.code)
                        break

    async def rating_page(self, player_id: str, times: Times, *, rtl: bool) -> dict[str, Any]:
        """What the profile page shows of the player's ratings (docs/players.md,
        "Ratings"): for each family they were rated in, the display number, whether it is
        provisional, the rated deals, and its history — the chart (time running the page's
        way, ``rtl``) and the same numbers as rows (the rated deal's number, its day on the
        reader's clock, ``times``)."""
        shown = []
        for rating in await self.ratings.of_player(player_id):
            history = await self.ratings.history(player_id, rating.family)
            first = rating.deals - len(history) + 1
            values = [point.skill.display for point in history]
            rows = [
                {
                    "n": first + index,
                    "date": times.day(point.at),
                    "value": point.skill.display,
                }
                for index, point in enumerate(history)
            ]
            shown.append(
                {
                    "family": rating.family,
                    "display": rating.skill.display,
                    "provisional": rating.provisional,
                    "deals": rating.deals,
                    "chart": draw(values, rtl=rtl) if len(values) > 1 else None,
                    "rows": rows,
                }
            )
        return {"ratings": shown, "provisional_deals": PROVISIONAL_DEALS}

    async def performance_page(self, player_id: str, times: Times, *, rtl: bool) -> dict[str, Any]:
        """What the profile page shows of the player's performance from tournament deals
        (docs/tournaments.md, "Performance"): for each family they have one in, its value
        (one decimal), the deals it is the mean of, and its history tournament by tournament
        — the chart (:func:`cardavia.web.rating_chart.draw`, whole numbers) and the rows."""
        shown, lang = [], times.lang
        for family in FAMILIES:
            points = await asyncio.to_thread(
                self.store.leagues.performance_history, player_id, family, limit=HISTORY
            )
            if not points:
                continue
            values = [round(point.value) for point in points]
            shown.append(
                {
                    "family": family,
                    "value": _one_decimal(points[-1].value, lang),
                    "deals": points[-1].deals,
                    "chart": draw(values, rtl=rtl) if len(values) > 1 else None,
                    "rows": [
                        {
                            "date": times.day(point.at),
                            "value": _one_decimal(point.value, lang),
                            "deals": point.deals,
                        }
                        for point in points
                    ],
                }
            )
        return {
            "performances": shown,
            "performance_deals": WINDOW_DEALS,
            "performance_days": WINDOW_DAYS,
        }

    async def _rename(self, code: str, seat: Seat, token: str | None) -> None:
        """Put "a former player", in the room's language, in the seat of the room ``code``
        that the seat token ``token`` holds now (else ``seat``, where they sat last)."""
        room = await self.rooms.open(code)
        wording = self.catalogs.wording(room.state.settings.lang)
        former = wording.translations.gettext(FORMER_PLAYER)
        rename = functools.partial(without_name, seat=seat, name=former, token=token)
        await self.rooms.change(room, rename)


__all__ = ["ATTEMPTS", "EXPORT_PAGES", "HISTORY", "Profiles", "without_name"]
