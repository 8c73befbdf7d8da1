"""The tournaments' worked examples, scored by hand: the pure scoring
(``test_scoring.py``) and the store's closing (``test_standings.py``) are both held to them,
and ``fill`` writes one into a store as the tournament's rows."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from fractions import Fraction

from sqlalchemy import insert, update

from cardavia.store.db import GameStore, new_token
from cardavia.store.passkeys import PasskeyRow
from cardavia.store.tournaments import DealPlayedRow, EntryRow, ParRow, TournamentRow

OPENS = datetime(2026, 12, 2, tzinfo=UTC)
CLOSES = OPENS + timedelta(days=1)


@dataclass(frozen=True)
class Worked:
    """A tournament of ``deals`` deals: each player's margins by deal (``None``: begun, not
    finished), who holds a passkey, and the answers worked by hand."""

    deals: int
    played: Mapping[str, Mapping[int, int | None]]
    keyed: frozenset[str]
    percents: Mapping[int, Mapping[str, Fraction]]
    """Deal → player → percentage, for the finished deals."""
    scores: Mapping[str, Fraction]
    places: Mapping[str, int | None]
    contracts: Mapping[tuple[str, int], str] = field(default_factory=dict)


# Five results on deal 1 (the largest field), four on deal 2, two on deal 3: deals 2 and 3
# are factored up to five results (Neuberg). Bob began deal 3 and did not finish it, Cleo
# never began it, Eve entered and played nothing: 25 % each such deal. Gus is a guest: his
# results are in the field, his score his own, no place. Bob and Cleo tie for second.
CLUB = Worked(
    deals=3,
    played={
        "ana": {1: 100, 2: 0, 3: 40},
        "bob": {1: 20, 2: 30, 3: None},
        "cleo": {1: 20, 2: 30},
        "dan": {1: -50, 2: 30, 3: -10},
        "eve": {},
        "gus": {1: 20},
    },
    keyed=frozenset({"ana", "bob", "cleo", "dan", "eve"}),
    percents={
        # Deal 1, five results: Ana beats four (4/4); Bob, Cleo and Gus beat Dan and tie
        # each other (1 + ½ + ½ = 2 of 4); Dan beats none.
        1: {
            "ana": Fraction(100),
            "bob": Fraction(50),
            "cleo": Fraction(50),
            "gus": Fraction(50),
            "dan": Fraction(0),
        },
        # Deal 2, four results of five: (MP + ½) · 5/4 − ½ on a top of 4. Ana: 0 →
        # 0.125 = 3.125 %; the three at +30: 1 + ½ + ½ = 2 → 2.625 = 65.625 %.
        2: {
            "ana": Fraction(25, 8),
            "bob": Fraction(525, 8),
            "cleo": Fraction(525, 8),
            "dan": Fraction(525, 8),
        },
        # Deal 3, two results of five: Ana 1 → 1.5 · 5/2 − ½ = 3.25 = 81.25 %; Dan 0 → 0.75
        # = 18.75 %.
        3: {"ana": Fraction(325, 4), "dan": Fraction(75, 4)},
    },
    scores={
        "ana": (100 + Fraction(25, 8) + Fraction(325, 4)) / 3,  # 61.458…
        "bob": (50 + Fraction(525, 8) + 25) / 3,  # 46.875
        "cleo": (50 + Fraction(525, 8) + 25) / 3,  # 46.875
        "dan": (0 + Fraction(525, 8) + Fraction(75, 4)) / 3,  # 28.125
        "eve": Fraction(25),
        "gus": (50 + 25 + 25) / Fraction(3),  # 33.333…
    },
    places={"ana": 1, "bob": 2, "cleo": 2, "dan": 4, "eve": 5, "gus": None},
    contracts={
        ("ana", 1): "S 100 S",
        ("bob", 1): "S 80 S",
        ("cleo", 1): "S 80 S",
        ("gus", 1): "W 80 H",
        ("dan", 1): "W 80 H",
    },
)

# One player, one deal of twelve: a field of one scores 50 %, the eleven others 25 %.
ALONE = Worked(
    deals=12,
    played={"solo": {1: -80}},
    keyed=frozenset({"solo"}),
    percents={1: {"solo": Fraction(50)}},
    scores={"solo": (50 + 11 * Fraction(25)) / 12},
    places={"solo": 1},
)


def keep_passkey(store: GameStore, player_id: str, made: datetime = OPENS) -> None:
    """A passkey for the player, made at ``made`` (by default as the tournament opens: one
    that existed then ranks its player; one made later does not)."""
    store.passkeys.add(f"key-{player_id}", player_id, b"public key", 0)
    with store.engine.begin() as connection:
        connection.execute(
            update(PasskeyRow).where(PasskeyRow.player_id == player_id).values(created_at=made)
        )


def fill(
    store: GameStore, worked: Worked, tournament_id: str = "daily-coinche-20261202"
) -> dict[str, str]:
    """Write ``worked`` into ``store`` as a tournament closing at :data:`CLOSES`: its
    players (named after the example, a passkey for those keyed), entries and deals played,
    and a par of +30 on every deal. Answers the example's names → the players' ids."""
    ids: dict[str, str] = {}
    for name in worked.played:
        player = store.players.create(new_token())
        store.players.update(player.id, {"name": name.title()})
        if name in worked.keyed:
            keep_passkey(store, player.id)
        ids[name] = player.id
    with store.engine.begin() as connection:
        connection.execute(
            insert(TournamentRow),
            {
                "id": tournament_id,
                "kind": "daily",
                "preset": "coinche",
                "level": "club",
                "version": "club-1",
                "deals": worked.deals,
                "opens_at": OPENS,
                "closes_at": CLOSES,
                "seeds": json.dumps(["00"] * worked.deals),
                "commitments": json.dumps(["00"] * worked.deals),
                "created_at": OPENS,
            },
        )
        connection.execute(
            insert(EntryRow),
            [
                {"tournament_id": tournament_id, "player_id": ids[name], "started_at": OPENS}
                for name in worked.played
            ],
        )
        deals = [
            {
                "tournament_id": tournament_id,
                "number": number,
                "player_id": ids[name],
                "game_id": f"{name}-{number}",
                "started_at": OPENS,
                "finished_at": None if margin is None else OPENS + timedelta(minutes=number),
                "margin": margin,
                "score_us": None if margin is None else max(margin, 0),
                "score_them": None if margin is None else max(-margin, 0),
                "contract": (
                    None if margin is None else worked.contracts.get((name, number), "pass")
                ),
            }
            for name, margins in worked.played.items()
            for number, margin in margins.items()
        ]
        if deals:
            connection.execute(insert(DealPlayedRow), deals)
        connection.execute(
            insert(ParRow),
            [
                {
                    "tournament_id": tournament_id,
                    "number": number,
                    "margin": 30,
                    "contract": "S 80 S",
                    "game_id": f"par-{number}",
                    "computed_at": OPENS,
                }
                for number in range(1, worked.deals + 1)
            ],
        )
    return ids
