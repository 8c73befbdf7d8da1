"""A player's history (docs/players.md, "My games"): every deal of every game they took a
seat at — at the single-player table or in a room — the latest first, with who sat where,
the contract, the result and the deal's score; each finished deal's analysis, and a link
that shares it.

What a deal in play would give away is never shown: its hands, its seed, its analysis and
its shared link exist only once it is over (:func:`cardavia.live.views.deal_record`). A
player's history and a deal's analysis here are only ever the player's own (their links);
a shared link names one finished deal and carries a code only the site can make (an
HMAC keyed by the game's own secret: the hash of its seat token, never shown).
"""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlencode

from cardavia.belote import Match, Seat, card_code
from cardavia.live.learn import Learning
from cardavia.live.protocol import ClientError
from cardavia.live.room import HIDDEN_NAME
from cardavia.live.room_state import ComputerSeat, PersonSeat, RoomState
from cardavia.live.shuffles import commitment_of
from cardavia.live.table import restore_match
from cardavia.live.views import deal_record
from cardavia.store.db import GameStore, StoredGame
from cardavia.store.events import deal_seeds
from cardavia.store.players import Played
from cardavia.tournaments.service import Tournament
from cardavia.words import LANGUAGES, N_, Catalogs, Wording

GAMES_PER_PAGE: Final = 10
"""Games per page of ``GET /api/me/games`` (each with all its deals)."""
SHARE_DIGITS: Final = 24
"""Hexadecimal digits of a shared link's code (96 bits)."""
FORMER_PLAYER: Final = N_("a former player")
"""The name a deleted player leaves in others' records."""
YOU: Final = N_("You")


def share_code(stored: StoredGame, number: int, seat: Seat | None = None) -> str:
    """The code of the shared link of deal ``number`` of a game: its id, the deal (and the
    seat of the player who shares it, ``3W``: the page shows the deal from there), and an
    HMAC-SHA256 of them keyed by the game's secret (the hash of its seat token, kept by every
    process, never sent): nobody else can make one. A code without a seat (links shared
    before) names the game's own seat."""
    said = "" if seat is None else seat.name
    message = f"share:{stored.id}:{number}" + (f":{said}" if said else "")
    mac = hmac.new(stored.token_hash.encode(), message.encode(), "sha256")
    return f"{stored.id}.{number}{said}.{mac.hexdigest()[:SHARE_DIGITS]}"


def read_share_code(code: str) -> tuple[str, int, Seat | None, str] | None:
    """``(game id, deal, seat, mac)`` of a shared link's code, or ``None``.

    >>> read_share_code("g1.3W.abc"), read_share_code("g1.12.abc")
    (('g1', 3, <Seat.W: 3>, 'abc'), ('g1', 12, None, 'abc'))
    >>> read_share_code("g1.3X.abc"), read_share_code("g1.²."), read_share_code("g1.3")
    (None, None, None)
    """
    parts = code.split(".")
    if len(parts) != 3:
        return None
    number, seat = parts[1], None
    if number[-1:] in SEAT_LETTERS:
        number, seat = number[:-1], Seat[number[-1]]
    if not number.isascii() or not number.isdigit() or len(number) > 4:
        return None
    return parts[0], int(number), seat, parts[2]


SEAT_LETTERS: Final = frozenset("NESW")
"""The seats a shared link's code may name after the deal's number."""


def side_outcome(outcome: str | None, taker_team: str | None, team: str) -> str | None:
    """A deal's outcome as the player of ``team`` lived it: their side's contract made or
    failed (``made_by_us``, ``failed_by_us``), the opponents' (``made_by_them``,
    ``failed_by_them``: a contract they failed is the player's win), or ``litige`` and
    ``cancelled`` as they are (``None``: not over).

    >>> side_outcome("made", "EW", "NS"), side_outcome("failed", "NS", "NS")
    ('made_by_them', 'failed_by_us')
    >>> side_outcome("litige", "EW", "NS"), side_outcome("cancelled", None, "EW")
    ('litige', 'cancelled')
    """
    if outcome in ("made", "failed") and taker_team is not None:
        return f"{outcome}_by_{'us' if taker_team == team else 'them'}"
    return outcome


@dataclass(frozen=True, slots=True)
class Sitter:
    """Who sat in a seat of a game: a person's name (``None``: the player themselves) or a
    computer player of a level."""

    name: str | None
    level: str | None = None

    def public(self, words: Any, me: str | None) -> dict[str, Any]:
        """As the history shows it, in the reader's words (``words``: a wording)."""
        if self.level is not None:
            return {"name": words.level(self.level), "computer": True}
        if self.name is None:
            return {"name": me or words.translations.gettext(YOU), "computer": False}
        if self.name in (FORMER_PLAYER, HIDDEN_NAME):
            return {"name": words.translations.gettext(self.name), "computer": False}
        return {"name": self.name, "computer": False}


def room_sitters(state_text: str, level: str, former: frozenset[str]) -> dict[Seat, Sitter]:
    """Who sat where in a room (its saved state): a person by name, a computer player by the
    room's level; a name a deleted player left is marked (``former``: its wordings), and so
    is a reported one (hidden: "a player" in the reader's words)."""
    state = RoomState.from_json(json.loads(state_text))
    sitters: dict[Seat, Sitter] = {}
    for seat, entry in state.items():
        if isinstance(entry, PersonSeat) or (isinstance(entry, ComputerSeat) and entry.name):
            name = str(entry.name)
            if name in former:
                name = FORMER_PLAYER
            elif entry.hidden:
                name = HIDDEN_NAME
            sitters[seat] = Sitter(name, None)
        else:
            sitters[seat] = Sitter("", level)
    return sitters


CONTRACT_SENTENCES: Final = {
    "take": N_("{seat} takes {strain}"),
    "bid": N_("{seat} bids {value} {strain}"),
    1: N_("coinched ×2"),
    2: N_("surcoinched ×4"),
}
"""A contract as the table's sentence says it ("East takes spades", "Est prend à pique"),
never a bid's label after the seat's ("Est : Prendre à pique")."""


def contract_text(record: Mapping[str, Any], wording: Wording) -> str | None:
    """The contract as a sentence in the reader's words: its taker, what they took or bid,
    and a coinche or surcoinche on it (``None``: no contract yet)."""
    contract = record["contract"]
    if contract is None:
        return None
    seat = wording.seat(contract["taker"])
    strain = wording.strain(contract["strain"], record["deck"])
    if contract["bid"] is None:
        said = wording.gettext(CONTRACT_SENTENCES["take"], seat=seat, strain=strain)
    else:
        value = wording.bid_value(contract["bid"])
        said = wording.gettext(CONTRACT_SENTENCES["bid"], seat=seat, value=value, strain=strain)
    doubled = CONTRACT_SENTENCES.get(min(int(contract["coinche"] or 0), 2))
    return " · ".join([said, wording.gettext(doubled)] if isinstance(doubled, str) else [said])


@dataclass(frozen=True, slots=True)
class SharedDeal:
    """What makes a shared deal again for a visitor who plays it ("play this deal"): its
    rules, deck, computer players (level and version: the game's, not today's), the sharer's
    seat, and the deal's own seed and dealer, so that the same cards fall the same way."""

    rules: str
    level: str
    version: str | None
    deck: str
    seat: Seat
    seed: bytes
    dealer: Seat


class History:
    """The players' histories, read from the store (any process answers the same)."""

    def __init__(
        self,
        store: GameStore,
        learning: Learning,
        catalogs: Catalogs,
        *,
        sealed: Callable[[str], bool] | None = None,
        tournament_of: Callable[[str], tuple[Tournament, int] | None] | None = None,
    ) -> None:
        self.store = store
        self.learning = learning
        self.catalogs = catalogs
        self.sealed = sealed
        """Whether a game's deals are sealed (a deal of a tournament still open: its shared
        link is refused, :meth:`cardavia.tournaments.service.Tournaments.sealed`)."""
        self.tournament_of = tournament_of
        """The tournament a game's deal belongs to, and its number there
        (:meth:`cardavia.tournaments.service.Tournaments.deal_of`): My games names it."""
        self.former = frozenset(
            catalogs.wording(lang).translations.gettext(FORMER_PLAYER) for lang in LANGUAGES
        )

    async def page(self, player_id: str, me: str | None, number: int, lang: str) -> dict[str, Any]:
        """Page ``number`` (1 the first) of the player's deals, the latest first."""
        played = await asyncio.to_thread(self.store.players.played, player_id)
        start = (number - 1) * GAMES_PER_PAGE
        deals: list[dict[str, Any]] = []
        for game in played[start : start + GAMES_PER_PAGE]:
            deals += await asyncio.to_thread(self._deals, game, me, lang)
        more = len(played) > start + GAMES_PER_PAGE
        return {"page": number, "more": more, "games": len(played), "deals": deals}

    def _deals(self, played: Played, me: str | None, lang: str) -> list[dict[str, Any]]:
        """The deals of one game the player sat at, the latest first (blocking: a thread)."""
        stored = self.store.load(played.game_id)
        if stored is None:
            return []
        match = restore_match(stored.record)
        seat = Seat[played.seat or stored.seat or "S"]
        sitters = {other: Sitter("", stored.level) for other in Seat} | {seat: Sitter(None)}
        if played.room is not None:
            room = self.store.load_room(played.room)
            if room is not None:
                sitters = room_sitters(room.state, stored.level, self.former)
                sitters[seat] = Sitter(None)
        words = self.catalogs.wording(lang)
        people = {other.name: sitters[other].public(words, me) for other in Seat}
        seeds = self._seeds(stored, len(match.deals))
        # A tournament's deal shows its player only what they saw until the tournament
        # closes: no shuffle check (its seed and deck), no shared link, no analysis.
        sealed = self.sealed is not None and self.sealed(stored.id)
        tournament = self._tournament(stored.id)
        entries = []
        for number in range(len(match.deals), 0, -1):
            entry = self._entry(stored, played, match, number, seat, people, lang)
            entry["check"] = None if sealed else self._check(match, number, seeds.get(number), lang)
            entry["sealed"] = sealed
            entry["tournament"] = tournament
            # Sealed: no link to share yet; the one it will have, whose page says until when
            # the deal stays hidden (the button says when it becomes shareable).
            entry["later"] = entry["share"] if sealed else None
            if sealed:
                entry["share"] = None
            entries.append(entry)
        return entries

    def _tournament(self, game_id: str) -> dict[str, Any] | None:
        """The tournament a game's deal belongs to, as My games names it (blocking)."""
        found = None if self.tournament_of is None else self.tournament_of(game_id)
        if found is None:
            return None
        tournament, number = found
        return {
            "id": tournament.id,
            "kind": tournament.kind,
            "preset": tournament.preset,
            "deal": number,
            "deals": tournament.deals,
            "closes": tournament.closes_at.isoformat(),
            "closed": tournament.closed,
        }

    @staticmethod
    def _check(match: Match, number: int, seed: str | None, lang: str) -> str | None:
        """The link to the shuffle check of a deal over, its seed and deck filled in."""
        deal = match.deals[number - 1]
        if seed is None or not deal.is_over:
            return None
        commitment = commitment_of(seed)
        deck = " ".join(card_code(card) for card in deal.deck)
        query = {"seed": commitment.seed, "hash": commitment.hash, "deck": deck}
        return f"/{lang}/rules/fairness?{urlencode(query)}"

    def _seeds(self, stored: StoredGame, deals: int) -> dict[int, str]:
        """The secret seeds of a game's deals, by number (blocking)."""
        events = [text for _seq, text in self.store.events_since(stored.id, 0)]
        found = deal_seeds(events, deals)
        if stored.first_seed:
            found[1] = stored.first_seed
        return found

    def _entry(
        self,
        stored: StoredGame,
        played: Played,
        match: Match,
        number: int,
        seat: Seat,
        people: Mapping[str, dict[str, Any]],
        lang: str,
    ) -> dict[str, Any]:
        """One deal as the history lists it."""
        deal = match.deals[number - 1]
        wording = self.catalogs.wording(lang)
        record = deal_record(deal, wording)
        us = "NS" if seat in (Seat.N, Seat.S) else "EW"
        result = record["result"]
        over = deal.is_over
        contract = record["contract"]
        taker = None if contract is None else ("NS" if contract["taker"] in "NS" else "EW")
        return {
            "game": stored.id,
            "deal": number,
            "rules": stored.rules,
            "deck": record["deck"],
            "date": (played.at if number == 1 else stored.updated_at).isoformat(),
            "room": played.room,
            "seat": seat.name,
            "team": us,
            "over": over,
            "phase": record["phase"],
            "partner": people[seat.partner.name],
            "opponents": [people[other.name] for other in (seat.next, seat.next.partner)],
            "contract": record["contract"],
            "contract_text": contract_text(record, wording),
            "outcome": record["outcome"],
            "mine": side_outcome(record["outcome"], taker, us),
            "score": None if result is None else result["scores"],
            "share": share_code(stored, number, seat) if over else None,
        }

    async def _load(self, game_id: str) -> tuple[StoredGame, Match]:
        stored = await asyncio.to_thread(self.store.load, game_id)
        if stored is None:
            raise ClientError("not_found")
        return stored, await asyncio.to_thread(restore_match, stored.record)

    async def analysis(
        self, player_id: str, game_id: str, number: int, lang: str, *, client: str
    ) -> dict[str, Any]:
        """The analysis of deal ``number`` of one of the player's games: ``not_found`` for a
        game that is not theirs, ``deal_not_over`` for a deal in play."""
        played = await asyncio.to_thread(self.store.players.played, player_id)
        if not any(game.game_id == game_id for game in played):
            raise ClientError("not_found")
        _stored, match = await self._load(game_id)
        return await self.learning.analysis_of(
            game_id, match, number, lang, deck=match.rules.deck, client=client
        )

    async def _shared_game(self, code: str) -> tuple[StoredGame, int, Seat]:
        """The game, the deal and the sharer's seat a shared link's code names
        (``not_found`` for a code the site did not make)."""
        parts = read_share_code(code)
        if parts is None:
            raise ClientError("not_found")
        game_id, number, seat, _mac = parts
        stored = await asyncio.to_thread(self.store.load, game_id)
        if stored is None or not hmac.compare_digest(share_code(stored, number, seat), code):
            raise ClientError("not_found")
        return stored, number, seat or Seat[stored.seat or "S"]

    async def shared(self, code: str, lang: str) -> dict[str, Any]:
        """The deal a shared link names, with every hand, who sat where and the sharer's
        seat (``not_found`` for a code the site did not make, a deal not over — a deal in
        play is never shown — or a deal of a tournament still open)."""
        stored, number, seat = await self._shared_game(code)
        if self.sealed is not None and await asyncio.to_thread(self.sealed, stored.id):
            raise ClientError("not_found")
        match = await asyncio.to_thread(restore_match, stored.record)
        if not 1 <= number <= len(match.deals) or not match.deals[number - 1].is_over:
            raise ClientError("not_found")
        seeds = await asyncio.to_thread(self._seeds, stored, len(match.deals))
        seed = seeds.get(number)
        commitment = None if seed is None else commitment_of(seed)
        record = deal_record(match.deals[number - 1], self.catalogs.wording(lang), commitment)
        names = await asyncio.to_thread(self._names, stored, seat, lang)
        return record | {
            "deal": number,
            "date": stored.updated_at.isoformat(),
            "lang": lang,
            "seat": seat.name,
            "names": names,
            "level": stored.level,
        }

    def _names(self, stored: StoredGame, sharer: Seat, lang: str) -> dict[str, dict[str, Any]]:
        """Who sat where at a shared deal, in the reader's words: a room's names as its
        seats held them, else the sharer's display name ("a player" without one) and the
        computer players by level (blocking)."""
        room, player_id = self.store.players.seated_at(stored.id)
        sitters = {other: Sitter("", stored.level) for other in Seat}
        saved = None if room is None else self.store.load_room(room)
        if saved is not None:
            sitters = room_sitters(saved.state, stored.level, self.former)
        else:
            player = None if player_id is None else self.store.players.load(player_id)
            name = None if player is None else player.name
            sitters[sharer] = Sitter(name or HIDDEN_NAME)
        words = self.catalogs.wording(lang)
        return {seat.name: sitters[seat].public(words, None) for seat in Seat}

    async def shared_analysis(self, code: str, lang: str, *, client: str) -> dict[str, Any]:
        """The analysis of the deal a shared link names, for anyone who holds the link (as
        its page shows every hand): refused as :meth:`shared` refuses the deal."""
        stored, number, _seat = await self._shared_game(code)
        await self.shared(code, lang)
        match = await asyncio.to_thread(restore_match, stored.record)
        return await self.learning.analysis_of(
            stored.id, match, number, lang, deck=match.rules.deck, client=client
        )

    async def replay_of(self, code: str) -> SharedDeal:
        """The deal a shared link names, to play again from the sharer's seat (refused as
        :meth:`shared` refuses it; ``not_found`` too for a deal dealt before deals were
        seeded, which cannot be dealt again)."""
        record = await self.shared(code, "en")
        stored, number, seat = await self._shared_game(code)
        seeds = await asyncio.to_thread(self._seeds, stored, number)
        seed = seeds.get(number)
        if seed is None:
            raise ClientError("not_found")
        return SharedDeal(
            rules=record["rules"],
            level=stored.level,
            version=stored.version,
            deck=record["deck"],
            seat=seat,
            seed=bytes.fromhex(seed),
            dealer=Seat[record["dealer"]],
        )

    async def pending(self, code: str) -> tuple[Tournament, int] | None:
        """The tournament still open that the deal a shared link names belongs to, and the
        deal's number there (``None``: not a tournament's, or closed; ``not_found`` for a
        code the site did not make): its page says until when its cards stay hidden."""
        stored, _number, _seat = await self._shared_game(code)
        if self.tournament_of is None:
            return None
        found = await asyncio.to_thread(self.tournament_of, stored.id)
        return None if found is None or found[0].closed else found


__all__ = [
    "FORMER_PLAYER",
    "GAMES_PER_PAGE",
    "History",
    "SharedDeal",
    "Sitter",
    "contract_text",
    "read_share_code",
    "room_sitters",
    "share_code",
    "side_outcome",
]
