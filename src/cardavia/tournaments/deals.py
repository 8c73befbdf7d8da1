"""A tournament's deals: their seeds and the hashes published for them, the seat every player
plays, who deals each deal, and what a finished deal gives the standings (docs/tournaments.md,
"The deals").

Every player of a tournament plays deal ``n`` from the same deck (:func:`deck_from_seed` of
its seed), the same dealer and the same seat, with the same computer players: so two results
of one deal differ only by what the people did.

>>> seeds = new_seeds(3)
>>> [len(seed) for seed in seeds], len(commitments(seeds)[0])
([32, 32, 32], 64)
>>> [dealer_of(number).name for number in range(1, 6)]
['E', 'N', 'W', 'S', 'E']
>>> contract_code(None)
'pass'
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cardavia.belote import Contract, DealState, Seat, Team, seed_hash

PLAYER_SEAT: Final = Seat.S
"""The seat every player of a tournament plays, at every deal."""

DEALERS: Final = (Seat.E, Seat.N, Seat.W, Seat.S)
"""Who deals deal 1, 2, 3, 4 (then again): the player speaks first, second, third and last
in turn (play turns to the right: East deals, South speaks first)."""


def new_seeds(count: int) -> list[bytes]:
    """``count`` secret seeds of 32 bytes from the system's secure generator."""
    return [secrets.token_bytes(32) for _ in range(count)]


def commitments(seeds: Sequence[bytes]) -> list[str]:
    """The SHA-256 of each seed, in hexadecimal: what the tournament publishes before it
    opens (docs/fair-deals.md)."""
    return [seed_hash(seed) for seed in seeds]


def dealer_of(number: int) -> Seat:
    """The dealer of deal ``number`` (from 1)."""
    return DEALERS[(number - 1) % len(DEALERS)]


def contract_code(contract: Contract | None) -> str:
    """A contract in a short, stable form for grouping the field's results (``S 110 H
    coinche``, ``N H`` at classic tables); ``pass`` when all four passed."""
    return "pass" if contract is None else str(contract)


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a finished deal gives the standings, from the player's team's side."""

    margin: int
    """The team's deal score less the opponents' (0 when all four passed)."""
    score_us: int
    score_them: int
    contract: str
    """:func:`contract_code` of the final contract."""


def result_of(state: DealState, team: Team = PLAYER_SEAT.team) -> DealResult:
    """The result of a finished deal for ``team`` (all four passing: a zero margin)."""
    if state.result is None:
        return DealResult(0, 0, 0, contract_code(None))
    us, them = state.result.score(team), state.result.score(team.other)
    return DealResult(us - them, us, them, contract_code(state.result.contract))


__all__ = [
    "DEALERS",
    "PLAYER_SEAT",
    "DealResult",
    "commitments",
    "contract_code",
    "dealer_of",
    "new_seeds",
    "result_of",
]
