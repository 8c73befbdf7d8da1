"""The site's writer (:mod:`cardavia.live.writer`): every table's actions saved from one thread
in group commits, a failing game never costing another its move; and people first
(:mod:`cardavia.live.turns`): a computer player's move waits while a person's action is
handled, never longer than its patience."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import pytest

from cardavia.live.turns import BEAT, PeopleFirst, on_beat, sleep_until
from cardavia.live.writer import GROUP, GameWriter
from cardavia.store.db import (
    Append,
    GameStore,
    StaleGameError,
    StoreUnavailableError,
)
from cardavia.store.events import action_event


class CountingStore(GameStore):
    """A real store that counts its transactions, fails for the games it is told to, and
    can be held in the middle of a write (to let appends pile up behind it)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.groups: list[int] = []
        self.doomed: set[str] = set()
        self.hold = threading.Event()
        self.hold.set()

    def append_all(self, appends: Sequence[Append]) -> list[int | None]:
        self.hold.wait(10)
        self.groups.append(len(appends))
        if any(append.game_id in self.doomed for append in appends):
            raise OSError("disk full")
        return super().append_all(appends)


def new_games(store: GameStore, count: int) -> list[str]:
    return [
        store.create(rules="c", level="l", lang="en", token="t", record="{}").id
        for _ in range(count)
    ]


def test_actions_arriving_during_a_write_are_saved_together(database: str) -> None:
    store = CountingStore(database)
    games = new_games(store, 20)

    async def main() -> list[int]:
        writer = GameWriter(store)
        store.hold.clear()
        first = asyncio.ensure_future(writer.append(Append(games[0], action_event("N pass"), 0)))
        await asyncio.sleep(0.05)  # the first write is under way, and held
        rest = [
            asyncio.ensure_future(writer.append(Append(game, action_event("N pass"), 0)))
            for game in games[1:]
        ]
        await asyncio.sleep(0.05)
        store.hold.set()
        revisions = [await first, *await asyncio.gather(*rest)]
        writer.shutdown()
        return revisions

    assert asyncio.run(main()) == [1] * 20
    assert store.groups == [1, 19]  # two transactions for twenty actions
    assert all(store.load(game).revision == 1 for game in games)


def test_a_persons_action_goes_ahead_of_a_burst_of_computer_moves(database: str) -> None:
    store = CountingStore(database)
    games = new_games(store, GROUP * 2 + 1)
    person, blocker, computers = games[0], games[1], games[2:]
    order: list[str] = []

    async def main() -> None:
        writer = GameWriter(store)
        store.hold.clear()
        first = asyncio.ensure_future(writer.append(Append(blocker, action_event("N pass"), 0)))
        await asyncio.sleep(0.05)  # a write under way, held: the others pile up behind it

        async def save(game: str, *, first: bool = False) -> None:
            await writer.append(Append(game, action_event("N pass"), 0), first=first)
            order.append(game)

        moves = [asyncio.ensure_future(save(game)) for game in computers]
        await asyncio.sleep(0)
        click = asyncio.ensure_future(save(person, first=True))  # came last
        await asyncio.sleep(0.05)
        store.hold.set()
        await asyncio.gather(first, click, *moves)
        writer.shutdown()

    asyncio.run(main())
    # The person's action was saved in the first group after the one under way, and no group
    # was larger than the bound.
    assert store.groups == [1, GROUP, GROUP]
    assert order.index(person) < GROUP
    assert all(store.load(game).revision == 1 for game in games)


def test_one_games_failure_costs_no_other_game_its_move(database: str) -> None:
    store = CountingStore(database)
    doomed, *sound = new_games(store, 5)
    store.doomed.add(doomed)

    async def main() -> list[int | BaseException]:
        writer = GameWriter(store)
        store.hold.clear()
        blocker = asyncio.ensure_future(writer.append(Append(sound[0], action_event("N pass"), 0)))
        await asyncio.sleep(0.05)
        appends = [Append(game, action_event("N pass"), 0) for game in [doomed, *sound[1:]]]
        futures = [asyncio.ensure_future(writer.append(append)) for append in appends]
        await asyncio.sleep(0.05)
        store.hold.set()
        await blocker
        outcomes = await asyncio.gather(*futures, return_exceptions=True)
        writer.shutdown()
        return outcomes

    outcomes = asyncio.run(main())
    assert isinstance(outcomes[0], OSError)
    assert outcomes[1:] == [1, 1, 1]
    assert store.load(doomed).revision == 0
    assert store.groups[:2] == [1, 4]  # the group failed, then each alone: one failed again


def test_a_stale_game_and_an_unavailable_database_are_told_to_their_callers(
    database: str,
) -> None:
    store = GameStore(database)
    (game,) = new_games(store, 1)

    async def main() -> None:
        writer = GameWriter(store)
        assert await writer.append(Append(game, action_event("N pass"), 0)) == 1
        with pytest.raises(StaleGameError):
            await writer.append(Append(game, action_event("E pass"), 0))
        real = store.append_all

        def unavailable(appends: Sequence[Append]) -> list[int | None]:
            raise StoreUnavailableError("database or disk is full")

        store.append_all = unavailable  # type: ignore[method-assign]
        with pytest.raises(StoreUnavailableError):
            await writer.append(Append(game, action_event("E pass"), 1))
        store.append_all = real  # type: ignore[method-assign]
        assert await writer.append(Append(game, action_event("E pass"), 1)) == 2
        writer.shutdown()

    asyncio.run(main())


def test_a_cancelled_caller_does_not_undo_its_write(database: str) -> None:
    store = CountingStore(database)
    (game,) = new_games(store, 1)

    async def main() -> None:
        writer = GameWriter(store)
        store.hold.clear()
        task = asyncio.ensure_future(writer.append(Append(game, action_event("N pass"), 0)))
        await asyncio.sleep(0.05)
        task.cancel()
        store.hold.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        await writer.call(lambda: None)  # the write under way is done
        writer.shutdown()

    asyncio.run(main())
    assert store.load(game).revision == 1


def test_a_computer_move_waits_for_the_people_but_not_for_ever() -> None:
    async def main() -> None:
        turns = PeopleFirst(patience=5)
        await asyncio.wait_for(turns.computer_turn(), 1)  # nobody acting: at once
        with turns.person_acting():
            waiting = asyncio.ensure_future(turns.computer_turn())
            await asyncio.sleep(0.05)
            assert not waiting.done()
            with turns.person_acting():  # a second person
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.01)
            assert not waiting.done()  # the first is still being handled
        await asyncio.wait_for(waiting, 1)  # released as soon as nobody is acting
        assert turns.acting == 0

        impatient = PeopleFirst(patience=0.05)
        with impatient.person_acting():
            # A person's action that takes long never holds the computer players longer.
            await asyncio.wait_for(impatient.computer_turn(), 1)

    asyncio.run(main())


def test_a_write_after_the_writer_stopped_is_told_unavailable(database: str) -> None:
    """Once the site stops (its writer's thread shut down), a move still arriving is refused
    as unavailable, and the writer's task ends without an error nobody reads."""
    store = GameStore(database)
    (game,) = new_games(store, 1)
    writer = GameWriter(store)
    writer.shutdown()

    async def main() -> None:
        pending = asyncio.ensure_future(writer.append(Append(game, action_event("N pass"), 0)))
        await asyncio.sleep(0)  # the append is queued, the writer's task started
        task = writer._writing
        assert task is not None
        with pytest.raises(StoreUnavailableError):
            await pending
        await asyncio.wait([task])
        assert task.exception() is None

    asyncio.run(main())
    assert store.load(game) is not None and store.load(game).revision == 0  # type: ignore[union-attr]
    store.close()


def test_computer_moves_whose_pauses_end_within_one_beat_are_made_in_one_turn() -> None:
    """The beat: pauses ending anywhere within one beat wait for its end, and every wait for
    it ends in the same turn of the event loop (their moves then go to the writer together:
    what the first move asks for the next turn comes after the three); a pause ending just
    after it is due at the next beat (where the next beat falls is arithmetic; whether the
    loop wakes for it apart is the machine's: a loop held past it wakes for both at once)."""

    async def main() -> tuple[list[str], list[float], float]:
        loop = asyncio.get_running_loop()
        start = on_beat(loop.time()) + BEAT  # a beat, a little ahead
        dues = [on_beat(start + offset) for offset in (0.001, 0.02, BEAT - 0.001)]
        later = on_beat(start + BEAT + 0.001)
        order: list[str] = []

        async def move(name: str, due: float) -> None:
            await sleep_until(due)
            order.append(name)
            if name == "a":
                # Runs at the next turn of the loop: after every move of this beat, whichever
                # resumed first.
                loop.call_soon(order.append, "next turn")

        await asyncio.gather(
            move("a", dues[0]), move("b", dues[1]), move("c", dues[2]), move("d", later)
        )
        return order, dues, later - start

    order, dues, later = asyncio.run(main())
    assert len(set(dues)) == 1
    assert later == pytest.approx(2 * BEAT)
    assert set(order[:3]) == {"a", "b", "c"}
    assert sorted(order[3:]) == ["d", "next turn"]
