"""Friends' news across web processes (docs/players.md, "Friends"): where a player was seen
and the invitations waiting for them are in Redis, so a sign given on one process is read on
another, an invitation sent from one is heard on the other and answered once; with Redis
gone, each process keeps its own, and nothing is refused. Two :class:`FriendNews` on a
real ``redis-server`` stand for two processes."""

from __future__ import annotations

import asyncio

from cardavia.live.friend_news import FriendNews


def test_signs_and_invitations_cross_processes(redis_url: str) -> None:
    async def main() -> None:
        one, two = FriendNews(redis_url), FriendNews(redis_url)
        try:
            await one.seen("ana", "table")
            await two.seen("bo", "somewhere")
            assert await two.where(["ana", "bo", "cy"]) == {
                "ana": "table",
                "bo": "online",
                "cy": None,
            }
            await one.invite("bo", "Ana", "KQRST")
            (invite,) = await two.invites("bo")
            assert (invite["name"], invite["room"]) == ("Ana", "KQRST")
            assert await two.dismiss("bo", invite["id"])
            assert await one.invites("bo") == []
            assert not await one.dismiss("bo", invite["id"])
        finally:
            await one.close()
            await two.close()

    asyncio.run(main())


def test_without_redis_each_process_keeps_its_own() -> None:
    """Redis out of reach: what a process was told it keeps, and says; nothing raises."""

    async def main() -> None:
        news = FriendNews("redis://127.0.0.1:1/0")  # nobody listens there
        try:
            await news.seen("ana", "tournament")
            await news.invite("ana", "Bo", "ABCDE")
            assert await news.where(["ana"]) == {"ana": "tournament"}
            assert [i["room"] for i in await news.invites("ana")] == ["ABCDE"]
        finally:
            await news.close()

    asyncio.run(main())
