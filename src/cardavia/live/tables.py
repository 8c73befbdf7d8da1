"""The table service (docs/web.md): the games of this server process, created, loaded from
the store, played through the engine on the server.

:class:`TableService` is given who plays each seat (a :class:`~cardavia.live.seating.Seating`:
the single-player table's, or a room's) and never assumes a seat. It applies a person's
actions (checked by the engine, saved, then sent to every open connection of the game as
each seat's view), lets the computer players answer (:class:`~cardavia.live.computer_seats.
ComputerSeats`), and follows the changes other processes make (the bus). Actions on one
game are serialised by its lock; an error in one game is reported to that game's players
only.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardavia.ai.budget import WorkBudget
from cardavia.ai.decisions import Decisions
from cardavia.ai.levels import level_version
from cardavia.belote import Action, Match, Observation, Rules, Seat, card_code
from cardavia.live.bus import LocalBus
from cardavia.live.computer_seats import ComputerSeats, decide_at
from cardavia.live.flows import Flows, TableFlow
from cardavia.live.held_tables import CACHE_SIZE, HeldTables
from cardavia.live.limits import MAX_MESSAGE_BYTES, Limits
from cardavia.live.logs import reason
from cardavia.live.new_games import GameAsked, PresetTarget, created_then, players_of
from cardavia.live.outbox import Listener
from cardavia.live.protocol import ClientError
from cardavia.live.seating import Computer, Seating
from cardavia.live.settings import DEFAULT_AI_DELAY
from cardavia.live.shuffles import SEED_BYTES, new_commitment
from cardavia.live.table import (
    NewGame,
    Table,
    TableObserver,
    catch_up,
    commitments_of,
    record_json,
    restore_match,
)
from cardavia.live.table_messages import Hints, TableRules, table_kinds
from cardavia.live.turns import PeopleFirst
from cardavia.live.views import build_view, names_of
from cardavia.live.writer import GameWriter
from cardavia.metrics import person_acted
from cardavia.store.db import (
    Append,
    GameStore,
    StaleGameError,
    StoredGame,
    StoreUnavailableError,
    new_token,
)
from cardavia.store.events import action_event, deal_event
from cardavia.words import Catalogs, Wording

log = logging.getLogger(__name__)


class TableService:
    """The games of this server process: created, loaded from the store, played."""

    def __init__(
        self,
        store: GameStore,
        catalogs: Catalogs,
        *,
        ai_delay: tuple[float, float] = DEFAULT_AI_DELAY,
        seed: int | None = None,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        cache_size: int = CACHE_SIZE,
        limits: Limits | None = None,
        writer: GameWriter | None = None,
        bus: LocalBus | None = None,
        decisions: Decisions | None = None,
        hints: Hints | None = None,
        rules: Sequence[TableRules] = (),
        flows: Flows | None = None,
    ) -> None:
        self.store = store
        self.catalogs = catalogs
        self.max_message_bytes = max_message_bytes
        self.limits = limits or Limits()
        self._made = (writer is None, decisions is None)
        """Whether this service made its writer and its decisions itself, for want of them
        being given (a test's service): it closes them then; else their owner does
        (:class:`~cardavia.live.game_server.GameServer`)."""
        self.writer = writer or GameWriter(store)
        """The thread that saves the games, every action in a group commit: apart from the
        computer players' decisions, so that a move is never saved behind a queue of them."""
        self.decisions = decisions or Decisions.from_settings(
            per_client=self.limits.ai_per_client, kind="thread"
        )
        """Where the computer players think (:mod:`cardavia.ai.decisions`): the cheap levels at
        once, the search levels on every core or the AI workers."""
        self.bus = bus or LocalBus()
        """How the other web processes of the site hear of this one's changes."""
        self._seeds: random.Random | None = random.Random(seed) if seed is not None else None
        self.hints = hints
        """What answers a ``hint`` message (:meth:`cardavia.live.learn.Learning.hint`;
        ``None``: no hints)."""
        self.rules = tuple(rules)
        """What kinds of table add to every table's rules: told of each table opened,
        asked about the messages they guard (:class:`~cardavia.live.table_messages.
        TableRules`: a tournament's deal)."""
        self.flows = flows or Flows()
        """Each kind of table's flow (:mod:`cardavia.live.flows`): a single-player table's
        is :attr:`Flows.solo`, a watcher sees :attr:`Flows.watching`."""
        self._tables = HeldTables(cache_size)
        """The tables held in memory (:class:`~cardavia.live.held_tables.HeldTables`)."""
        self.people_first = PeopleFirst()
        """The computer players' moves wait while a person's action is handled."""
        self.computers = ComputerSeats(
            decide=self.decide,
            commit=self._commit,
            bus=self.bus,
            people_first=self.people_first,
            ai_delay=ai_delay,
        )
        self.messages = table_kinds(self, limit=max_message_bytes, rules=self.rules)
        """The table's kinds of message (:mod:`cardavia.live.table_messages`), each checked
        by the rules that guard it; a room's dispatcher and the single-player table's include
        them (:meth:`cardavia.live.protocol.Dispatcher.include`)."""

    @property
    def ai_budget(self) -> WorkBudget:
        """The one cap on each client's computer work (decisions, analyses, hints)."""
        return self.decisions.budget

    # -- randomness --

    def new_rng(self) -> random.Random:
        """The randomness of a new game: the system's in play, a seeded one in tests."""
        if self._seeds is None:
            return secrets.SystemRandom()
        return random.Random(self._seeds.getrandbits(64))

    def new_seed(self, rng: random.Random) -> bytes:
        """The secret seed of a deal's shuffle: the system's secure generator in play,
        ``rng`` (seeded) in tests."""
        if self._seeds is None:
            return secrets.token_bytes(SEED_BYTES)
        return rng.randbytes(SEED_BYTES)

    # -- creating and opening games --

    async def create_game(
        self,
        rules: object,
        level: object,
        lang: object,
        deck: object = None,
        *,
        client: str = "",
        seat: Seat | None = None,
        target: int | PresetTarget | None = PresetTarget.PRESET,
        seating: Seating | None = None,
        dealt: tuple[bytes, Seat] | None = None,
        version: str | None = None,
        flow: TableFlow | None = None,
    ) -> NewGame:
        """Start a game: the rules (a preset's name), the computer players' level, the
        language, the deck its cards are named and drawn in (``None``: the preset's; kept in
        the record's rules, docs/rules.md 1); shuffled and saved. ``seat``: the seat the
        game's token plays (the person's at a single-player table); ``seating``: who plays
        each seat (``None``: the single-player table, a person at ``seat``); ``target``: a
        score, or ``None`` for a single deal, rather than the preset's; ``dealt``: the first
        deal's seed and dealer, given (a tournament's deal) rather than drawn; ``version``: the
        computer players' (a tournament's), rather than the level's current one; ``flow``:
        its kind of table's (``None``: a single-player table's). Raises
        :class:`ClientError` for an unknown value."""
        asked = GameAsked.checked(rules, level, lang, deck, target=target)
        if seating is None and seat is None:
            raise ValueError("a game is given its seating, or its person's seat")
        chosen, rules, level, lang = asked.chosen, asked.preset, asked.level, asked.lang
        return await self._new_game(
            chosen, rules, level, lang, client=client, seat=seat, seating=seating, dealt=dealt,
            version=version or level_version(level), flow=flow or self.flows.solo,
        )  # fmt: skip

    async def _new_game(
        self,
        chosen: Rules,
        preset: str,
        level: str,
        lang: str,
        *,
        client: str,
        seat: Seat | None,
        seating: Seating | None = None,
        dealt: tuple[bytes, Seat] | None = None,
        then: Callable[[str], object] | None = None,
        version: str | None = None,
        flow: TableFlow | None = None,
    ) -> NewGame:
        """A game of ``chosen`` rules (made from the preset ``preset``), shuffled, saved and
        held in memory; ``then``: another write given the new game's id, made in the same
        trip to the writer's thread (its player's link); ``version``: its computer players'
        (the level's current one if none)."""
        rng = self.new_rng()
        dealer = rng.choice(tuple(Seat))
        seed = self.new_seed(rng)
        if dealt is not None:
            seed, dealer = dealt
        commitment, cards = new_commitment(seed)
        match = Match.from_deck(chosen, dealer=dealer, deck=cards)
        token = new_token()
        create = functools.partial(
            self.store.create,
            rules=preset,
            level=level,
            lang=lang,
            token=token,
            record=record_json(match),
            first_seed=commitment.seed,
            seat=seat.name if seat is not None else None,
            version=version or level_version(level),
        )
        try:
            stored = await self.writer.call(created_then, create, then)
        except StoreUnavailableError as error:
            log.warning(
                "a game could not be created: the database is unavailable (%s)", reason(error)
            )
            raise ClientError("unavailable") from None
        table = self._table(stored, match, rng, seating)
        table.commitments[1] = commitment
        table.client = client
        table.flow = flow or self.flows.solo
        self._tables.remember(table)
        return NewGame(stored.id, token, stored.seat)

    def _table(
        self, stored: StoredGame, match: Match, rng: random.Random, seating: Seating | None
    ) -> Table:
        token_seat = Seat[stored.seat] if stored.seat is not None else None
        if seating is None and token_seat is not None:
            seating = Seating.solo(token_seat, stored.level)  # the single-player table
        elif seating is None:
            # A room's game, until the room seats it: computer players everywhere.
            seating = Seating(tuple(Computer(stored.level) for _ in Seat))
        return Table(
            game_id=stored.id,
            level=stored.level,
            lang=stored.lang,
            token_hash=stored.token_hash,
            match=match,
            revision=stored.revision,
            rng=rng,
            seating=seating,
            token_seat=token_seat,
            version=players_of(stored),
        )

    async def open(
        self,
        game_id: str,
        token: str | None,
        *,
        seating: Seating | None = None,
        flow: TableFlow | None = None,
    ) -> Table:
        """The game of that id, for the holder of its seat token: from memory, or loaded from
        the store and replayed (after a restart). :class:`ClientError` ``game_not_found``,
        ``missing_token`` or ``bad_token``. ``seating``: a room's game, whose seat tokens the
        room has checked (the game's own token is then not asked for), seated so, of the
        room's ``flow``."""
        table = self._tables.get(game_id)
        if table is None:
            table = await self._load(game_id, token, seating)
        elif self.bus.distributed:
            # Another process may have moved it on since (its message still on the way).
            async with table.lock:
                if await catch_up(self.store, table):
                    self.broadcast(table)
        if seating is None:
            self._check_token(table.token_matches, token)
        else:
            table.seating = seating
        if flow is not None:
            table.flow = flow
        for rule in self.rules:
            await rule.opened(table)
        self._tables.remember(table)
        return table

    async def _load(self, game_id: str, token: str | None, seating: Seating | None) -> Table:
        """A game from the store, replayed (``seating`` given: a room's, whose tokens the
        room checks)."""
        try:
            stored = await asyncio.to_thread(self.store.load, game_id)
        except StoreUnavailableError as error:
            log.warning("game %s: the database is unavailable (%s)", game_id, reason(error))
            raise ClientError("unavailable") from None
        if stored is None:
            raise ClientError("game_not_found")
        if seating is None:
            self._check_token(stored.token_matches, token)
        table = self._tables.get(game_id)  # loaded meanwhile by another request?
        if table is not None:
            return table
        try:
            match = await asyncio.to_thread(restore_match, stored.record)
            loaded = self._table(stored, match, self.new_rng(), seating)
            loaded.commitments = await asyncio.to_thread(
                commitments_of, self.store, stored, len(match.deals)
            )
        except Exception:
            log.exception("game %s cannot be restored", game_id)
            raise ClientError("internal") from None
        return self._tables.get(game_id) or loaded

    def reseat(self, table: Table, seating: Seating) -> None:
        """Who plays each seat changed (a person sat down, left, went away or came back):
        the views say so, and the computer players take up or give back seats."""
        if seating == table.seating:
            return
        table.seating = seating
        self.broadcast(table)
        self.ensure_runner(table)

    def observe(self, table: Table, observer: TableObserver) -> None:
        """Tell ``observer`` of every change of ``table``'s game (once sent to its connections)."""
        if observer not in table.observers:
            table.observers.append(observer)

    def unobserve(self, table: Table, observer: TableObserver) -> None:
        """Stop telling ``observer`` of ``table``'s changes (a room with nobody connected
        here: the table may then be dropped from memory)."""
        if observer in table.observers:
            table.observers.remove(observer)

    async def on_remote_change(self, game_id: str, revision: int) -> None:
        """Another process saved a game at ``revision``: if this one has it in memory, bring
        it up to date from the store and send it to its connections."""
        table = self._tables.get(game_id)
        if table is None or revision <= table.revision:
            return
        if table.is_idle:
            # Nobody watches it here: forget it rather than follow it (it is loaded afresh,
            # as it stands, when asked for).
            self._tables.forget(table)
            return
        async with table.lock:
            changed = await catch_up(self.store, table)
        if changed:
            self.broadcast(table)
            self.ensure_runner(table)

    async def resync(self) -> None:
        """Bring every table watched here up to date from the store (changes may have been
        missed while the bus was out of reach)."""
        for table in list(self._tables.values()):
            if not table.listeners and not table.observers:
                continue
            async with table.lock:
                changed = await catch_up(self.store, table)
            if changed:
                self.broadcast(table)
                self.ensure_runner(table)

    @staticmethod
    def _check_token(matches: Callable[[str | None], bool], token: str | None) -> None:
        if not token:
            raise ClientError("missing_token")
        if not matches(token):
            raise ClientError("bad_token")

    # -- views and connections --

    def wording(self, lang: str) -> Wording:
        """The words of a language."""
        return self.catalogs.wording(lang)

    def view(self, table: Table, lang: str, seat: Seat | None) -> dict[str, Any]:
        """The view of ``seat`` (``None``: a watcher's, public only), in ``lang``, with who
        sits where (``names``, from the table's seating)."""
        view = build_view(
            table.match,
            self.wording(lang),
            seat=seat,
            game_id=table.game_id,
            level=table.level,
            commitment=table.commitment,
            sealed=table.is_sealed(),
        )
        view["names"] = names_of(table.seating, time.time())
        view["flow"] = self.flows.seen_by(table.flow, playing=seat is not None).to_json()
        return view

    def listen(
        self,
        table: Table,
        lang: str,
        *,
        seat: Seat | None,
        client: str = "",
        changes: bool = False,
    ) -> Listener:
        """Open a connection to a game for ``seat`` (``None``: a watcher): it is sent the
        current state at once, then every change. :class:`ClientError`
        ``too_many_sockets`` past the limit of connections to one game."""
        limit = self.limits.sockets_per_game
        if limit > 0 and len(table.listeners) >= limit:
            raise ClientError("too_many_sockets")
        listener = Listener(
            self.wording(lang),
            limit=self.limits.queue_messages,
            client=client,
            seat=seat,
            changes=changes,
        )
        if client:
            table.client = client
        table.listeners.add(listener)
        listener.send_view(self.view(table, lang, seat), table.view_version)
        return listener

    def unlisten(self, table: Table, listener: Listener) -> None:
        """Close a connection to a game."""
        table.listeners.discard(listener)

    def broadcast(self, table: Table) -> None:
        """Send the new state to every connection: each language's view built and written as
        JSON once per change, whatever the number of connections; then tell its observers."""
        version = table.next_view_version()
        views: dict[tuple[str, Seat | None], dict[str, Any]] = {}
        written: dict[tuple[int, ...], str] = {}
        for listener in list(table.listeners):
            key = (listener.wording.lang, listener.seat)
            if key not in views:
                views[key] = self.view(table, *key)
            listener.send_view(views[key], version, written)
        for observer in list(table.observers):
            observer.changed(table)

    def held(self) -> Mapping[str, Table]:
        """The tables in this process's memory, by game id (read only: none is loaded)."""
        return self._tables

    @property
    def in_play(self) -> int:
        """The tables open in this process (in memory: played or watched lately)."""
        return len(self._tables)

    # -- actions --

    async def act(self, table: Table, action: Action) -> None:
        """Apply a player's action if the engine allows it: save, tell every connection, then
        let the computer players answer. :class:`ClientError` with the engine's reason
        otherwise."""
        started = time.perf_counter()
        with self.people_first.person_acting():
            async with table.lock:
                reason = table.match.deal.refusal(action)
                if reason is not None:
                    raise ClientError.refused(reason)
                match, event = table.match.apply(action), action_event(str(action))
                await self._commit(table, match, event, person=True)
        person_acted(time.perf_counter() - started)
        self.ensure_runner(table)

    async def next_deal(self, table: Table) -> None:
        """Deal the next deal of a match (or a new one after a cancelled single deal);
        ``match_over`` where the table's flow plays one deal (a tournament's)."""
        if not table.flow.next_deal:
            raise ClientError("match_over")
        with self.people_first.person_acting():
            async with table.lock:
                match = table.match
                if not match.deal.is_over:
                    raise ClientError("deal_not_over")
                if match.is_over:
                    raise ClientError("match_over")
                commitment, deck = new_commitment(self.new_seed(table.rng))
                number = len(match.deals) + 1
                match = match.next_deal_from_deck(deck)
                deal = match.deal
                event = deal_event(
                    deal.dealer.name, [card_code(card) for card in deal.deck], commitment.seed
                )
                table.commitments[number] = commitment
                try:
                    await self._commit(table, match, event, person=True)
                except ClientError:
                    if table.commitments.get(number) is commitment:
                        del table.commitments[number]
                    raise
        self.ensure_runner(table)

    async def again(
        self,
        table: Table,
        listener: Listener,
        game: object,
        *,
        then: Callable[[str], object] | None = None,
    ) -> Table:
        """Play again at a single-player table, over its open connection, once its game is
        over (else ``game_not_over``): a new game with the same rules, level and seat, the
        connection moved to it (sent its id and seat token as ``game``, then its state);
        answers the table the connection is now on. ``game``: the game the page saw end (if
        another, asked already: nothing happens). ``then``: a write given the new game's id
        (its player's link), made with the game's own."""
        seat = listener.seat
        if not table.may_play_again(seat, game):
            return table
        rules = table.match.rules
        new = await self._new_game(
            rules,
            rules.preset,
            table.level,
            listener.wording.lang,
            client=listener.client,
            seat=seat,
            then=then,
            flow=table.flow,
        )
        moved = self._tables[new.game_id]
        self.unlisten(table, listener)
        moved.listeners.add(listener)
        listener.send({"type": "game", "game": new.game_id, "token": new.token, "seat": new.seat})
        listener.send_view(
            self.view(moved, listener.wording.lang, seat), moved.view_version, whole=True
        )
        self.ensure_runner(moved)
        return moved

    async def _commit(
        self, table: Table, match: Match, event: str, *, person: bool = False
    ) -> None:
        """Append the event that made the new match to the game's record (one short
        transaction: the record is not rewritten), then make it the table's and send it. If
        the save fails nothing changes; if another server moved the game on, it is
        reloaded. ``person``: a person's action, saved ahead of the computer players'."""
        try:
            revision = await self.writer.append(
                Append(table.game_id, event, table.revision, finished=match.is_over),
                first=person,
            )
        except StoreUnavailableError as error:
            log.warning("game %s: the database is unavailable (%s)", table.game_id, reason(error))
            raise ClientError("unavailable") from None
        except StaleGameError:
            if await catch_up(self.store, table):
                self.broadcast(table)
            raise ClientError("stale") from None
        table.match = match
        table.revision = revision
        self.broadcast(table)
        await self.bus.publish(table.game_id, revision)

    # -- the computer players --

    def ensure_runner(self, table: Table) -> None:
        """Make sure the computer seats play if it is their turn (after an action, a new
        deal, a connection, a restart)."""
        self.computers.ensure(table)

    async def decide(self, table: Table, seat: Seat, observation: Observation) -> Action:
        """The computer player's legal action for ``seat``, from its observation only
        (:func:`~cardavia.live.computer_seats.decide_at`: the table's version, seeded alike at
        every table, a tournament's deal's decisions shared)."""
        return await decide_at(self.decisions, table, seat, observation)

    async def close(self) -> None:
        """Stop every computer player (the games are saved after each action), and close
        what this service made itself."""
        await self.computers.close(self._tables.values())
        made_writer, made_decisions = self._made
        if made_writer:
            self.writer.shutdown()
        if made_decisions:
            await self.decisions.close()


__all__ = ["PresetTarget", "TableService"]
