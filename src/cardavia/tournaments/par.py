"""The par of a tournament deal (docs/tournaments.md, "The par"): the computer players' own
result on it, from the tournament's seat — four computer players of the tournament's
version (:attr:`~cardavia.tournaments.service.Tournament.players`: the one it was made with)
play the deal from its seed and dealer, and the result is kept (``tournament_pars``) as the
datum each player's result is also shown against.

It is worked out in the background, one deal at a time, once someone has entered the
tournament and until it closes (:func:`next_missing`, :func:`compute`); several processes may
work out the same one: the first kept stands. Each decision is seeded as at the tournament's
tables (:func:`~cardavia.ai.decisions.decision_seed`: the deal's seed, the seat, the level's
version, the actions so far), so a par is the computer players' own play of the deal, the same
wherever it is worked out; and its decisions are shared with the tournament's tables
(:mod:`cardavia.ai.shared`) where their lines meet.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol

from cardavia.ai.decisions import decision_key, decision_seed
from cardavia.ai.shared import Share
from cardavia.belote import Action, Match, Observation, find_rules
from cardavia.belote.fair import deck_from_seed
from cardavia.store.base import now
from cardavia.store.db import GameStore
from cardavia.tournaments.deals import PLAYER_SEAT, DealResult, result_of
from cardavia.tournaments.service import Tournament, dealt


class Decide(Protocol):
    """A computer player's decision: its level or version, the seat's observation, the
    decision's seed, the match score (a tournament's deal: a single deal, 0–0, as at its
    tables) and how it is shared with the tournament's tables (as
    :meth:`cardavia.ai.decisions.Decisions.decide` takes them)."""

    def __call__(
        self,
        level: str,
        observation: Observation,
        seed: int,
        *,
        match_scores: tuple[int, int] | None = None,
        share: Share | None = None,
    ) -> Awaitable[Action]: ...


SCORES = (0, 0)
"""The match score of a tournament's deal, at its tables and in its par: a single deal."""

MAX_ACTIONS = 200
"""More actions than any deal takes (bids and 32 cards): a guard, never reached."""


@dataclass(frozen=True, slots=True)
class Missing:
    """A tournament deal whose par is not yet known."""

    tournament: Tournament
    number: int


def next_missing(store: GameStore) -> Missing | None:
    """The first deal of a tournament not yet closed, and entered by someone, whose par is not
    known (``None``: every such par is known; a tournament nobody plays costs nothing).
    Blocking: a worker thread."""
    for stored in store.tournaments.entered_not_closed():
        known = store.tournaments.pars(stored.id)
        for number in range(1, stored.deals + 1):
            if number not in known:
                return Missing(Tournament.of(stored), number)
    return None


async def play_out(tournament: Tournament, number: int, decide: Decide) -> DealResult:
    """Deal ``number`` played by four computer players of the tournament's version: its
    result from :data:`PLAYER_SEAT`'s team."""
    seed, dealer = dealt(tournament, number)
    keep = max(0.0, (tournament.closes_at - now()).total_seconds())
    rules = find_rules(tournament.preset).replace(target=None)
    match = Match.from_deck(rules, dealer=dealer, deck=deck_from_seed(seed))
    for _ in range(MAX_ACTIONS):
        deal = match.deal
        if deal.is_over or deal.to_move is None:
            break
        seat = deal.to_move
        observation = deal.observation(seat)
        chance = decision_seed(seed.hex(), seat, tournament.players, deal.history)
        key = decision_key(seed.hex(), observation, tournament.players, match_scores=SCORES)
        action = await decide(
            tournament.players, observation, chance, match_scores=SCORES, share=Share(key, keep)
        )
        match = match.apply(action)
    return result_of(match.deals[0], PLAYER_SEAT.team)


async def compute(store: GameStore, missing: Missing, decide: Decide) -> DealResult:
    """Work out a missing par and keep it (the first kept stands)."""
    result = await play_out(missing.tournament, missing.number, decide)
    await asyncio.to_thread(keep, store, missing, result)
    return result


def keep(store: GameStore, missing: Missing, result: DealResult) -> None:
    """Keep a par worked out (the first kept stands)."""
    store.tournaments.set_par(
        missing.tournament.id,
        missing.number,
        margin=result.margin,
        contract=result.contract,
        game_id=None,
        moment=now(),
    )


__all__ = [
    "MAX_ACTIONS",
    "SCORES",
    "Decide",
    "Missing",
    "compute",
    "keep",
    "next_missing",
    "play_out",
]
