"""Friends (docs/players.md, "Friends"): a player asks another to be friends — the person in a
seat of a room where both sat (a friends' room or a quick-play table), or the owner of a
friend link — never by searching names; the other accepts or refuses; either may end it, and
a block ends it (:meth:`~cardavia.live.safety.Safety.block`). As with blocks, no player's id
is ever shown to another: each list names the others by a key made for its reader.

Asking is limited per player and per hour; a player who blocked the asker, or whom the asker
blocked, cannot be asked (``cannot_befriend``, the same answer as for oneself: the block is
not told).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from datetime import timedelta
from typing import Any, Final

from cardavia.live.friend_news import POLL, FriendNews
from cardavia.live.limits import Counters, Limits, SiteLimiter
from cardavia.live.protocol import ClientError, check_fields, require
from cardavia.live.push import Push
from cardavia.live.room import HIDDEN_NAME
from cardavia.live.room_state import normal_code
from cardavia.live.safety import FIELDS as SEAT_FIELDS
from cardavia.live.safety import Safety
from cardavia.players import Player
from cardavia.players.settings import read_settings
from cardavia.players.statistics import SHOWN_TO_FRIENDS
from cardavia.store.base import now
from cardavia.store.db import GameStore
from cardavia.store.friends import Friend
from cardavia.store.tournaments import StoredTournament
from cardavia.words import N_, Wording

KEY_LENGTH: Final = 24
"""Hex characters of a friend's key (:func:`friend_key`)."""
LINK_FIELDS: Final = frozenset({"code", "lang"})
"""What ``POST /api/friends`` says for a friend link: its code."""
INVITE_FIELDS: Final = frozenset({"room", "lang"})
"""What ``POST /api/friends/{key}/invite`` says: the room's code."""
NEWS_FIELDS: Final = frozenset({"where", "room", "lang"})
"""What ``POST /api/friends/news`` says: where the page is (at a table: the room's code)."""


CLOSING_SOON: Final = timedelta(hours=1)
"""How long before a tournament closes its players who have deals left are reminded of it."""
KIND_NAMES: Final = {
    "daily": N_("Daily tournament"),
    "short": N_("Short tournament"),
    "weekly": N_("Weekly tournament"),
}
"""A tournament's kind as its pages name it (``_tournament_macros.html``)."""


def closing_entry(tournament: StoredTournament, wording: Wording) -> dict[str, Any]:
    """A tournament about to close as the news says it: its id, its name in ``wording``'s
    language, its page and the minutes left."""
    kind = wording.gettext(KIND_NAMES.get(tournament.kind, KIND_NAMES["weekly"]))
    minutes = max(1, round((tournament.closes_at - now()).total_seconds() / 60))
    return {
        "id": tournament.id,
        "name": f"{kind} · {wording.preset(tournament.preset)[0]}",
        "url": f"/{wording.lang}/tournaments/{tournament.id}",
        "minutes": minutes,
    }


def friend_key(player_id: str, other_id: str) -> str:
    """The key of another player as ``player_id``'s friend lists name them: an HMAC of their
    id keyed by the reader's (unlike a block's key, so that the two lists cannot be matched).

    >>> friend_key("one", "two") == friend_key("one", "two") != friend_key("two", "one")
    True
    """
    mac = hmac.new(player_id.encode(), b"friend:" + other_id.encode(), hashlib.sha256)
    return mac.hexdigest()[:KEY_LENGTH]


class Friends:
    """Askings, answers and lists, from the rooms' seats and the friend links to the store."""

    def __init__(
        self,
        store: GameStore,
        safety: Safety,
        news: FriendNews,
        counters: Counters,
        limits: Limits,
        push: Push,
    ) -> None:
        self.store = store
        self.safety = safety
        self.news = news
        """Where the players were last seen, and their invitations."""
        self.push = push
        """Their browsers told while the site is closed (an invitation is pushed too)."""
        per_hour = limits.friends_per_hour
        self.askings: SiteLimiter = counters.limiter(
            "friends", per_hour / 3600.0, max(1, int(per_hour))
        )
        """Askings per player, site-wide."""

    async def _other(self, player: Player, data: dict[str, Any]) -> str:
        """The player ``data`` names: a room's seat (``room``, ``seat``: someone who sat
        with ``player`` there) or a friend link's ``code`` (``not_found`` if none)."""
        if "code" in data:
            check_fields(data, LINK_FIELDS)
            code = data["code"]
            found = (
                await asyncio.to_thread(self.store.friends.by_code, code)
                if isinstance(code, str) and 0 < len(code) <= 32
                else None
            )
            if found is None:
                raise ClientError("not_found")
            return found
        check_fields(data, SEAT_FIELDS)
        return (await self.safety.target(player, data)).player_id

    async def ask(self, player: Player, data: dict[str, Any]) -> str:
        """``player`` asks the player ``data`` names: ``"asked"``, or ``"friends"`` when the
        other had asked them already."""
        other = await self._other(player, data)
        apart = await asyncio.to_thread(self.store.safety.kept_apart, player.id)
        if other == player.id or other in apart:
            raise ClientError("cannot_befriend")
        if await self.askings.take(player.id):
            raise ClientError("rate_limited")
        return await asyncio.to_thread(self.store.friends.ask, player.id, other)

    async def _keyed(self, player: Player, key: str, *among: list[Friend]) -> Friend:
        for friends in among:
            for friend in friends:
                if hmac.compare_digest(friend_key(player.id, friend.id), key):
                    return friend
        raise ClientError("not_found")

    async def friend(self, player: Player, key: str) -> Friend:
        """The friend of ``player`` named by ``key`` (``not_found``: no friend of theirs)."""
        friends = await asyncio.to_thread(self.store.friends.friends_of, player.id)
        return await self._keyed(player, key, friends)

    async def accept(self, player: Player, key: str) -> None:
        """``player`` accepts the asking of the player of ``key`` (``not_found``: none)."""
        asking = await asyncio.to_thread(self.store.friends.asking, player.id)
        other = await self._keyed(player, key, asking)
        await asyncio.to_thread(self.store.friends.accept, player.id, other.id)

    async def end(self, player: Player, key: str) -> None:
        """``player`` ends what is between them and the player of ``key``: a friendship, an
        asking refused, or one of theirs taken back (``not_found``: nothing)."""
        friends = self.store.friends
        lists = await asyncio.gather(
            asyncio.to_thread(friends.friends_of, player.id),
            asyncio.to_thread(friends.asking, player.id),
            asyncio.to_thread(friends.asked, player.id),
        )
        other = await self._keyed(player, key, *lists)
        await asyncio.to_thread(friends.end, player.id, other.id)

    async def listed(self, player: Player, wording: Wording) -> dict[str, list[dict[str, Any]]]:
        """What ``player``'s friends page lists: their friends, who asks them, whom they
        asked — each by a key, a name (a hidden one as "a player") and since when."""
        friends = self.store.friends
        lists = await asyncio.gather(
            asyncio.to_thread(friends.friends_of, player.id),
            asyncio.to_thread(friends.asking, player.id),
            asyncio.to_thread(friends.asked, player.id),
        )

        def shown(friend: Friend) -> dict[str, Any]:
            return {
                "key": friend_key(player.id, friend.id),
                "name": friend.name or wording.gettext(HIDDEN_NAME),
                "since": friend.since.isoformat(),
            }

        found = {
            name: [shown(f) for f in people]
            for name, people in zip(("friends", "asking", "asked"), lists, strict=True)
        }
        # Where each friend is: for friends only (an asking shows nothing of it); at the table
        # of a room that lets watchers in, the link to watch it.
        signs = await self.news.signs(f.id for f in lists[0])
        rooms = {f.id: sign.room for f in lists[0] if (sign := signs[f.id]) and sign.room}
        watchable, showing = await asyncio.to_thread(self._open_to_friends, rooms, lists[0])
        for entry, friend in zip(found["friends"], lists[0], strict=True):
            sign = signs[friend.id]
            entry["where"] = sign.place if sign else None
            if friend.id in watchable:
                entry["watch"] = f"/{wording.lang}/room/{rooms[friend.id]}?watch"
            if friend.id in showing:
                entry["statistics"] = f"/{wording.lang}/me/friends/{entry['key']}/statistics"
        return found

    def _open_to_friends(
        self, rooms: dict[str, str], friends: list[Friend]
    ) -> tuple[set[str], set[str]]:
        """Of the friends, those at a room's table that lets watchers in (``rooms``: each
        one's room), and those who let their friends read their statistics (blocking: one
        worker thread for the whole list)."""
        watchable = {friend for friend, code in rooms.items() if self._watchable(code)}
        showing = {friend.id for friend in friends if self._shows_statistics(friend.id)}
        return watchable, showing

    def _shows_statistics(self, player_id: str) -> bool:
        """Whether the player lets their friends read their statistics (blocking)."""
        stored = self.store.players.load(player_id)
        return stored is not None and read_settings(stored.settings).get(SHOWN_TO_FRIENDS) is True

    def _watchable(self, code: str) -> bool:
        """Whether the room ``code`` lets watchers in now (blocking: a worker thread)."""
        stored = self.store.load_room(code)
        if stored is None:
            return False
        try:
            settings = json.loads(stored.state)["settings"]
        except (ValueError, KeyError, TypeError):
            return False
        return isinstance(settings, dict) and settings.get("watchers") is True

    async def invite(self, player: Player, key: str, data: dict[str, Any]) -> None:
        """``player`` invites the friend of ``key`` to a room they sit in (``data``'s
        ``room``): the friend's pages show it at their next sign, and their browsers told
        while the site is closed are pushed it."""
        check_fields(data, INVITE_FIELDS)
        require(data, "room")
        friends = await asyncio.to_thread(self.store.friends.friends_of, player.id)
        friend = await self._keyed(player, key, friends)
        code = normal_code(data["room"])
        seated = code is not None and await asyncio.to_thread(
            self.store.safety.seated_in, player.id, code
        )
        if code is None or not seated:
            raise ClientError("not_in_room")
        if await self.askings.take(player.id):
            raise ClientError("rate_limited")
        await self.news.invite(friend.id, player.name or "", code)
        self.push.later(self.push.invited(friend.id, player.name or "", code))

    async def heard(self, player: Player, data: dict[str, Any], wording: Wording) -> dict[str, Any]:
        """A page of ``player`` says where it is (``data``'s ``where``): kept for their
        friends; answers the invitations waiting for them, the tournaments they entered and
        have deals left in that close within :data:`CLOSING_SOON` (``closing``), and when to
        say it again (``poll`` seconds; 0: never, they have no friend and no tournament under
        way)."""
        check_fields(data, NEWS_FIELDS)
        where = data.get("where")
        # A room is kept only where the player sits in it: a page cannot claim another's.
        code = normal_code(data["room"]) if isinstance(data.get("room"), str) else None
        if code is not None and not await asyncio.to_thread(
            self.store.safety.seated_in, player.id, code
        ):
            code = None
        await self.news.seen(player.id, where if isinstance(where, str) else "online", code)
        invites = await self.news.invites(player.id)
        tournaments = self.store.tournaments
        has, playing, closing = await asyncio.gather(
            asyncio.to_thread(self.store.friends.has_friends, player.id),
            asyncio.to_thread(tournaments.playing, player.id),
            asyncio.to_thread(tournaments.closing_for, player.id, now(), CLOSING_SOON),
        )
        return {
            "invites": [
                {
                    "id": i["id"],
                    "name": i["name"] or wording.gettext(HIDDEN_NAME),
                    "room": i["room"],
                }
                for i in invites
            ],
            "closing": [closing_entry(t, wording) for t in closing],
            "poll": POLL if has or playing else 0,
        }

    async def dismiss(self, player: Player, invite_id: str) -> None:
        """``player`` answered the invitation ``invite_id`` (``not_found``: none of theirs)."""
        if not await self.news.dismiss(player.id, invite_id):
            raise ClientError("not_found")

    async def link(self, player: Player) -> str:
        """``player``'s friend link's code (made the first time)."""
        return await asyncio.to_thread(self.store.friends.link_code, player.id)

    async def owner(self, code: str, reader: Player | None) -> tuple[str | None, bool]:
        """The display name of a friend link's owner, for its page (``None``: they have none,
        or it is hidden), and whether the link is ``reader``'s own; ``not_found`` for no such
        link."""
        found = None
        if 0 < len(code) <= 32:
            found = await asyncio.to_thread(self.store.friends.by_code, code)
        if found is None:
            raise ClientError("not_found")
        stored = await asyncio.to_thread(self.store.players.load, found)
        hidden = await asyncio.to_thread(self.store.safety.hidden_name, found)
        mine = reader is not None and reader.id == found
        if stored is None or stored.name is None or stored.name == hidden:
            return None, mine
        return stored.name, mine


__all__ = ["Friends", "friend_key"]
