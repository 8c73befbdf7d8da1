"""The players' tables and :class:`PlayerStore`: a player made on their first game (a guest,
known by a random token whose SHA-256 alone is kept), what they keep with them (a display
name, a language, the table's settings) and the games and room seats they took.

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> token = new_token()
>>> player = store.players.create(token, lang="fr")
>>> store.players.find(token) == player, store.players.find("guess")
(True, None)
>>> store.players.update(player.id, {"name": "Zoé", "settings": '{"sounds": true}'}).name
'Zoé'
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    String,
    Text,
    column,
    delete,
    false,
    func,
    insert,
    literal,
    or_,
    select,
    table,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, hash_token, now, unavailable, utc
from cardavia.store.passkeys import PasskeyRow
from cardavia.store.tournaments import forget_player

PLAYER_ID_BYTES: Final = 12
"""A player's id: 12 random bytes, 16 URL-safe characters (never shown: the token is the
key, the id only joins the tables)."""
MAX_TOKEN_LENGTH: Final = 128
"""A player token is 43 characters; anything much longer is not one (not even hashed)."""
PROFILE_FIELDS: Final = frozenset({"name", "lang", "settings"})
"""What a player changes about themselves (:meth:`PlayerStore.update`)."""


class PlayerRow(Base):
    """One player: a guest until they keep it with a passkey."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The display name (the rooms' rules for names), if they gave one."""
    hidden_name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """A name another player reported: while ``name`` is still this, others do not see it."""
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """The language they last read the site in."""
    settings: Mapped[str] = mapped_column(Text, server_default="{}")
    """The table's settings (JSON object, the keys of ``static/js/settings.js``)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """The last time the player changed something, signed in or took a seat."""


class SessionRow(Base):
    """A browser signed in as a player: the SHA-256 of the player token its cookie holds
    (hex; the token itself is never kept). A guest has one; each sign-in opens another."""

    __tablename__ = "player_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    passkey_id: Mapped[str | None] = mapped_column(String(1400), nullable=True)
    """The passkey the session was opened with (revoking it closes the session)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerGameRow(Base):
    """A game a player took a seat at: the single-player table's (their seat), or one a
    room dealt while they had a seat there (``room_code``)."""

    __tablename__ = "player_games"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seat: Mapped[str | None] = mapped_column(String(1), nullable=True)
    room_code: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """The room that dealt the game (``None``: the single-player table)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerRoomRow(Base):
    """A seat a player holds in a room (its game, once dealt, is the room's): the seat they
    hold now, kept in step with the room's saved state by the SHA-256 of their seat token
    (:func:`follow_room_seats`): moved when they sit elsewhere or are swapped, gone when
    they are removed or leave before the first deal, kept where they sat when they leave
    after it (their name stays on the score sheet there). A row made before the token was
    kept (``token_hash`` empty), or by quick play, keeps the seat as it was taken."""

    __tablename__ = "player_rooms"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    room_code: Mapped[str] = mapped_column(
        String(8), ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True, index=True
    )
    seat: Mapped[str] = mapped_column(String(1), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The SHA-256 of the seat token the seat was taken with (the room's ``PersonSeat``
    token)."""


_ROOMS = table("rooms", column("code", String), column("game_id", String), column("state", Text))
_GAMES = table("games", column("id", String), column("finished", Boolean))
"""The games' table as far as the seats held read it: whether a room's game is over."""
"""The rooms' table as far as a player's seats read it (its game, once dealt, and its saved
state: who holds each seat)."""


@dataclass(frozen=True, slots=True)
class HeldSeats:
    """Who holds the seats of a room, as its saved state says (``RoomState.to_json``): the
    seat of each person's token hash, and whether the first deal is dealt."""

    seats: Mapping[str, str]
    started: bool

    @classmethod
    def read(cls, state: str | None) -> HeldSeats | None:
        """The seats of a room's saved state (``None``: no room, or a state not readable:
        nothing is to follow it)."""
        try:
            data = json.loads(state or "")
            seats = {
                str(entry["token"]): str(seat)
                for seat, entry in data["seats"].items()
                if entry.get("kind") == "human" and entry.get("token")
            }
            return cls(seats, bool(data.get("started", False)))
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat a player holds in a room (or held, until they left after the first deal):
    the room, the seat as last followed, the seat token's hash (``None``: not kept)."""

    code: str
    seat: str
    token: str | None


@dataclass(frozen=True, slots=True)
class Played:
    """A game a player took a seat at: at the single-player table (``room`` ``None``) or in a
    room (its code, whose game it is now), the seat, when they sat down."""

    game_id: str
    seat: str | None
    room: str | None
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredPlayer:
    """A player as the database holds them."""

    id: str
    name: str | None
    lang: str | None
    settings: str
    """JSON object."""
    created_at: datetime

    @classmethod
    def of(cls, row: PlayerRow) -> StoredPlayer:
        """The value of a row."""
        return cls(row.id, row.name, row.lang, row.settings, utc(row.created_at))


class PlayerStore:
    """The players in the store's database (each method one short transaction; they block:
    the site calls them from a worker thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, token: str, *, lang: str | None = None) -> StoredPlayer:
        """A new guest player known by ``token`` (only its hash is kept)."""
        moment, player_id = now(), secrets.token_urlsafe(PLAYER_ID_BYTES)
        row = {
            "id": player_id,
            "name": None,
            "lang": lang,
            "settings": "{}",
            "created_at": moment,
            "seen_at": moment,
        }
        session = {"token_hash": hash_token(token), "player_id": player_id, "created_at": moment}
        with unavailable(), self.engine.begin() as connection:
            connection.execute(insert(PlayerRow), row)
            connection.execute(insert(SessionRow), session)
        return StoredPlayer(player_id, None, lang, "{}", moment)

    def find(self, token: object) -> StoredPlayer | None:
        """The player whose token is ``token``, or ``None`` (no token, a malformed one, one
        nobody holds). The lookup is by the token's hash: whoever reads the database cannot
        use what it holds as a cookie."""
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH:
            return None
        with unavailable(), Session(self.engine) as session:
            row = session.scalars(
                select(PlayerRow)
                .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                .where(SessionRow.token_hash == hash_token(token))
            ).first()
            return None if row is None else StoredPlayer.of(row)

    def load(self, player_id: str) -> StoredPlayer | None:
        """The player of that id, or ``None``."""
        with unavailable(), Session(self.engine) as session:
            row = session.get(PlayerRow, player_id)
            return None if row is None else StoredPlayer.of(row)

    def update(self, player_id: str, values: Mapping[str, str | None]) -> StoredPlayer | None:
        """Change what the player keeps (:data:`PROFILE_FIELDS`: ``name``, ``lang``,
        ``settings``, already checked); answers the player as they now are (``None``: no
        such player)."""
        unknown = set(values) - PROFILE_FIELDS
        if unknown:
            raise ValueError(f"not a player's field: {sorted(unknown)}")
        with unavailable(), self.engine.begin() as connection:
            connection.execute(
                update(PlayerRow).where(PlayerRow.id == player_id).values(**values, seen_at=now())
            )
        return self.load(player_id)

    def sign_in(
        self, player_id: str, token: str, *, passkey_id: str | None, leaving: str | None
    ) -> None:
        """Open a session of the player for ``token`` (a sign-in with the passkey
        ``passkey_id``), closing the one of the token the browser came with (``leaving``):
        a token held before the sign-in never becomes the player's."""
        moment = now()
        session = {
            "token_hash": hash_token(token),
            "player_id": player_id,
            "passkey_id": passkey_id,
            "created_at": moment,
        }
        with unavailable(), self.engine.begin() as connection:
            if leaving:
                connection.execute(
                    delete(SessionRow).where(SessionRow.token_hash == hash_token(leaving))
                )
            connection.execute(insert(SessionRow), session)
            connection.execute(
                update(PlayerRow).where(PlayerRow.id == player_id).values(seen_at=moment)
            )

    def sign_out(self, token: str) -> None:
        """Close the session of ``token`` (the cookie no longer names anyone)."""
        with unavailable(), self.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.token_hash == hash_token(token)))

    def close_sessions_of_passkey(self, passkey_id: str) -> None:
        """Close the sessions opened with the passkey ``passkey_id`` (it was revoked)."""
        with unavailable(), self.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.passkey_id == passkey_id))

    def link_game(self, player_id: str, game_id: str, seat: str | None) -> None:
        """The player took ``seat`` at the game ``game_id`` (once is enough)."""
        row = {"player_id": player_id, "game_id": game_id, "seat": seat, "created_at": now()}
        self._link(PlayerGameRow, row)

    def link_game_of_token(self, token: object, game_id: str, seat: str | None) -> None:
        """The player holding ``token`` (a player cookie's) took ``seat`` at the game
        ``game_id``, and is noted seen; nothing if nobody holds it. One statement finds and
        links them, in one transaction with the note: the game dealt over a socket is linked
        without a lookup of its own (``TableService.again``)."""
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH:
            return
        moment = now()
        held = SessionRow.token_hash == hash_token(token)
        games = PlayerGameRow.__table__.c
        taken = select(
            SessionRow.player_id,
            literal(game_id, games.game_id.type).label("game_id"),
            literal(seat, games.seat.type).label("seat"),
            literal(moment, games.created_at.type).label("created_at"),
        ).where(held)
        columns = ["player_id", "game_id", "seat", "created_at"]
        holder = select(SessionRow.player_id).where(held).scalar_subquery()
        seen = update(PlayerRow).where(PlayerRow.id == holder).values(seen_at=moment)
        with contextlib.suppress(IntegrityError), unavailable(), self.engine.begin() as link:
            link.execute(insert(PlayerGameRow).from_select(columns, taken))
            link.execute(seen)

    def link_room(self, player_id: str, code: str, seat: str, *, token: str | None = None) -> None:
        """The player took ``seat`` in the room ``code`` (once is enough) with the seat
        token whose hash is ``token``: linked to the seat that token holds now (it may have
        moved since it was taken), and to the room's game if it is dealt; nothing if the
        token holds no seat any more (removed meanwhile). Without ``token`` (quick play),
        ``seat`` as given."""
        if token is None:
            row = {"player_id": player_id, "room_code": code, "seat": seat, "created_at": now()}
            self._link(PlayerRoomRow, row)
            return
        with unavailable(), self.engine.begin() as connection:
            room = connection.execute(
                select(_ROOMS.c.game_id, _ROOMS.c.state).where(_ROOMS.c.code == code)
            ).first()
            held = None if room is None else HeldSeats.read(room.state)
            now_at = None if held is None else held.seats.get(token)
            if room is None or now_at is None:
                return
            moment = now()
            row = {"player_id": player_id, "room_code": code, "seat": now_at}
            with contextlib.suppress(IntegrityError), connection.begin_nested():
                connection.execute(
                    insert(PlayerRoomRow), row | {"created_at": moment, "token_hash": token}
                )
            if room.game_id is not None:
                game = {"game_id": room.game_id, "created_at": moment}
                with contextlib.suppress(IntegrityError), connection.begin_nested():
                    connection.execute(insert(PlayerGameRow), row | game)
            connection.execute(
                update(PlayerRow).where(PlayerRow.id == player_id).values(seen_at=moment)
            )

    def link_room_game(self, code: str, game_id: str) -> None:
        """The room ``code`` dealt the game ``game_id``: each player who holds a seat there
        now took it, at that seat (again: nothing changes); one who left or was removed
        does not. A room that plays again keeps each of its games in its players' history,
        not only the latest."""
        rooms = PlayerRoomRow.__table__
        with unavailable(), self.engine.begin() as link:
            state = link.execute(select(_ROOMS.c.state).where(_ROOMS.c.code == code)).scalar()
            held = HeldSeats.read(state)
            holding = or_(
                rooms.c.token_hash.is_(None),
                rooms.c.token_hash.in_(sorted(held.seats) if held is not None else []),
            )
            taken = (
                select(
                    rooms.c.player_id,
                    literal(game_id).label("game_id"),
                    func.min(rooms.c.seat),  # one row per player, should one hold two seats
                    literal(code).label("room_code"),
                    literal(now()).label("created_at"),
                )
                .where(rooms.c.room_code == code, holding)
                .group_by(rooms.c.player_id)
            )
            columns = ["player_id", "game_id", "seat", "room_code", "created_at"]
            with contextlib.suppress(IntegrityError), link.begin_nested():
                link.execute(insert(PlayerGameRow).from_select(columns, taken))

    def _link(self, table: type[PlayerGameRow | PlayerRoomRow], row: Mapping[str, object]) -> None:
        """Link the player to a game or a seat (once is enough), and note them seen: a guest
        who plays is never purged."""
        with contextlib.suppress(IntegrityError), unavailable(), self.engine.begin() as link:
            link.execute(insert(table), row)
        seen = update(PlayerRow).where(PlayerRow.id == row["player_id"]).values(seen_at=now())
        with unavailable(), self.engine.begin() as connection:
            connection.execute(seen)

    def games_of(self, player_id: str) -> list[tuple[str, str | None]]:
        """The games the player took a seat at, ``(game id, seat)``, oldest first."""
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(PlayerGameRow.game_id, PlayerGameRow.seat)
                .where(PlayerGameRow.player_id == player_id)
                .order_by(PlayerGameRow.created_at)
            ).all()
            return [(game, seat) for game, seat in rows]

    def seated_at(self, game_id: str) -> tuple[str | None, str | None]:
        """Who sat at the game ``game_id`` as its history knows: ``(room code, player id)``,
        the room's code for a room's game (its saved state names each seat), else the
        player of a single player's table (``None``: nobody linked to it)."""
        with unavailable(), Session(self.engine) as session:
            linked = session.execute(
                select(PlayerGameRow.room_code, PlayerGameRow.player_id)
                .where(PlayerGameRow.game_id == game_id)
                .order_by(PlayerGameRow.created_at)
                .limit(1)
            ).first()
            room = session.scalars(
                select(_ROOMS.c.code).where(_ROOMS.c.game_id == game_id).limit(1)
            ).first()
        if linked is None:
            return room, None
        return linked[0] or room, linked[1]

    def rooms_of(self, player_id: str) -> list[tuple[str, str]]:
        """The room seats the player holds, ``(room code, seat)``, oldest first."""
        return [(held.code, held.seat) for held in self.seats_of(player_id)]

    def seats_of(self, player_id: str) -> list[HeldSeat]:
        """The room seats the player holds (and those they held until they left after the
        first deal), with their seat tokens' hashes, oldest first."""
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(PlayerRoomRow.room_code, PlayerRoomRow.seat, PlayerRoomRow.token_hash)
                .where(PlayerRoomRow.player_id == player_id)
                .order_by(PlayerRoomRow.created_at)
            ).all()
            return [HeldSeat(code, seat, token) for code, seat, token in rows]

    def rooms_under_way(self, player_id: str) -> list[str]:
        """The rooms where the player holds a seat now and whose game is dealt and not over,
        oldest first: the games the home offers to continue."""
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(PlayerRoomRow.room_code, PlayerRoomRow.token_hash, _ROOMS.c.state)
                .join(_ROOMS, _ROOMS.c.code == PlayerRoomRow.room_code)
                .join(_GAMES, _GAMES.c.id == _ROOMS.c.game_id)
                .where(PlayerRoomRow.player_id == player_id, _GAMES.c.finished == false())
                .order_by(PlayerRoomRow.created_at)
            ).all()
        codes = []
        for code, token, state in rows:
            held = HeldSeats.read(state)
            if token is not None and held is not None and token in held.seats:
                codes.append(code)
        return codes

    def played(self, player_id: str) -> list[Played]:
        """Every game the player took a seat at, at a table or in a room (each game the room
        dealt while they held a seat there, its latest too while they still do: it may be
        dealt before the link is written), the latest first."""
        with unavailable(), Session(self.engine) as session:
            games = session.execute(
                select(
                    PlayerGameRow.game_id,
                    PlayerGameRow.seat,
                    PlayerGameRow.room_code,
                    PlayerGameRow.created_at,
                ).where(PlayerGameRow.player_id == player_id)
            ).all()
            rooms = session.execute(
                select(
                    _ROOMS.c.game_id,
                    PlayerRoomRow.seat,
                    PlayerRoomRow.room_code,
                    PlayerRoomRow.created_at,
                    PlayerRoomRow.token_hash,
                    _ROOMS.c.state,
                )
                .join(_ROOMS, _ROOMS.c.code == PlayerRoomRow.room_code)
                .where(PlayerRoomRow.player_id == player_id, _ROOMS.c.game_id.is_not(None))
            ).all()
        found = {game: Played(game, seat, code, utc(at)) for game, seat, code, at in games}
        for game, seat, code, at, token, state in rooms:
            held = HeldSeats.read(state) if token is not None else None
            if token is None or (held is not None and token in held.seats):
                found.setdefault(game, Played(game, seat, code, utc(at)))
        return sorted(found.values(), key=lambda played: played.at, reverse=True)

    def kept_about(self, player_id: str) -> dict[str, list[dict[str, object]]]:
        """Everything kept about the player but their games' records, row by row (the
        tokens' hashes left out: no use to anyone, and the session's key)."""
        with unavailable(), Session(self.engine) as session:
            sessions = session.execute(
                select(SessionRow.created_at, SessionRow.passkey_id).where(
                    SessionRow.player_id == player_id
                )
            ).all()
            passkeys = session.scalars(
                select(PasskeyRow).where(PasskeyRow.player_id == player_id)
            ).all()
            return {
                "sessions": [
                    {"created_at": utc(at).isoformat(), "passkey": key} for at, key in sessions
                ],
                "passkeys": [
                    {
                        "id": key.id,
                        "sign_count": key.sign_count,
                        "created_at": utc(key.created_at).isoformat(),
                        "used_at": None if key.used_at is None else utc(key.used_at).isoformat(),
                    }
                    for key in passkeys
                ],
            }

    def erase(self, player_id: str) -> list[HeldSeat]:
        """Erase the player: their row and every row that names them (SQLite does not
        cascade; :func:`player_columns`): sessions, passkeys, ceremonies, links, quick-play
        seats, ratings, blocks and reports either way; their tournament entries and deals
        stay, under an id that names nobody (:func:`~cardavia.store.tournaments.
        forget_player`). Answers the room seats they held (:meth:`seats_of`), for their name
        to be taken out of those rooms."""
        seats = self.seats_of(player_id)
        with unavailable(), self.engine.begin() as connection:
            forget_player(connection, player_id)  # their tournament results stay, nameless
            for column in player_columns():
                connection.execute(delete(column.table).where(column == player_id))
            connection.execute(delete(PlayerRow).where(PlayerRow.id == player_id))
        return seats

    def purge_guests(self, idle: timedelta, *, moment: datetime | None = None) -> int:
        """Erase the guests (players without a passkey) not seen for ``idle``: past their
        cookie's life no browser holds their token, nobody can be them again. Answers how
        many were erased."""
        cutoff = (moment or now()) - idle
        with unavailable(), Session(self.engine) as session:
            gone = session.scalars(
                select(PlayerRow.id).where(
                    PlayerRow.seen_at < cutoff,
                    ~select(PasskeyRow.id).where(PasskeyRow.player_id == PlayerRow.id).exists(),
                )
            ).all()
        for player_id in gone:
            self.erase(player_id)
        return len(gone)


def player_columns() -> list[Column[Any]]:
    """Every column of the store's tables that names a player (a foreign key to
    ``players.id``): a player's rows, found in the schema itself, so that a table added later
    is erased with them without a list to keep up."""
    return [
        column
        for model in Base.metadata.sorted_tables
        for column in model.columns
        if any(key.column.table.name == PlayerRow.__tablename__ for key in column.foreign_keys)
    ]


def unlink_games(session: Session, games: object) -> None:
    """In ``session``'s transaction: forget the players' links to ``games`` (ids, or a
    subquery of them) being deleted (SQLite does not cascade)."""
    session.execute(delete(PlayerGameRow).where(PlayerGameRow.game_id.in_(games)))  # type: ignore[arg-type]


def follow_room_seats(connection: Connection, code: str, state: str) -> None:
    """In ``connection``'s transaction, the room ``code`` just saved as ``state``: its
    players' seats (``player_rooms``) follow their seat tokens — moved to the seat each
    token holds now, removed for a token that holds none before the first deal (freed,
    left: the person loses the room's games), kept where it was after it (a person who
    left: their name stays on that seat). Rows without a token are left as they are."""
    held = HeldSeats.read(state)
    if held is None:
        return
    rows = connection.execute(
        select(
            PlayerRoomRow.player_id,
            PlayerRoomRow.seat,
            PlayerRoomRow.token_hash,
            PlayerRoomRow.created_at,
        ).where(PlayerRoomRow.room_code == code, PlayerRoomRow.token_hash.is_not(None))
    ).all()
    out, moved = [], []
    for row in rows:
        seat = held.seats.get(str(row.token_hash))
        if seat is not None and seat != row.seat:
            out.append(row)
            moved.append(row._asdict() | {"room_code": code, "seat": seat})
        elif seat is None and not held.started:
            out.append(row)
    for row in out:  # all out first: two seats of one player may change places
        connection.execute(
            delete(PlayerRoomRow).where(
                PlayerRoomRow.room_code == code,
                PlayerRoomRow.player_id == row.player_id,
                PlayerRoomRow.seat == row.seat,
            )
        )
    for values in moved:
        with contextlib.suppress(IntegrityError), connection.begin_nested():
            connection.execute(insert(PlayerRoomRow), values)  # (held already by an older row)


def unlink_rooms(session: Session, codes: list[str]) -> None:
    """In ``session``'s transaction: forget the players' seats in the rooms ``codes``."""
    session.execute(delete(PlayerRoomRow).where(PlayerRoomRow.room_code.in_(codes)))


__all__ = [
    "PROFILE_FIELDS",
    "HeldSeat",
    "HeldSeats",
    "Played",
    "PlayerGameRow",
    "PlayerRoomRow",
    "PlayerRow",
    "PlayerStore",
    "SessionRow",
    "StoredPlayer",
    "follow_room_seats",
    "player_columns",
    "unlink_games",
    "unlink_rooms",
]
