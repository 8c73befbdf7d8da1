"""Hints: during play, the action the ``expert`` level would choose, and one reason why.

A hint is computed from the seat's :class:`~cardavia.belote.Observation` only, never from
hidden cards: the card by the expert's own search (its worlds drawn from the observation,
weighed by the others' bids and plays, valued in the deal's score), on a smaller budget so
that a hint comes quickly; the bid by the search levels' bidding simulation. The reason is
a code with arguments for the site to word in its languages ("keeps_trump_nine_guarded",
"partner_holds_trick" …), read off the observation and the search's values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final

from cardavia.ai.bidding import STRONG_BIDDING, bid_by_simulation
from cardavia.ai.club import ClubPlayer
from cardavia.ai.expert import ExpertPlayer
from cardavia.ai.player import with_declarations
from cardavia.ai.strong import legal_cards
from cardavia.belote import (
    Action,
    Bid,
    Card,
    CardValues,
    Coinche,
    Observation,
    Pass,
    Phase,
    Play,
    Surcoinche,
    Take,
    card_code,
    values_for,
)
from cardavia.belote.search import winning_index

HINT_NODES: Final = 1_200_000
"""The expert's search budget for a hint's card, in solver nodes (a hint must come quickly;
the level itself spends 6 million)."""

HINT_WORLDS: Final = 12

REASONS: Final = (
    "only_card",
    "partner_holds_trick",
    "takes_the_trick",
    "takes_the_lead",
    "keeps_trump_nine_guarded",
    "draws_trumps",
    "cashes_master",
    "saves_points",
    "best_on_average",
    "bid_pays",
    "pass_pays",
    "coinche_pays",
)
"""Every reason code a hint may give (the site has words for each, in six languages)."""

Arg = str | int | float


@dataclass(frozen=True, slots=True)
class Reason:
    """Why: a code of :data:`REASONS` and its arguments (cards as codes, points as numbers)."""

    code: str
    args: tuple[tuple[str, Arg], ...] = ()

    def arg(self, name: str) -> Arg | None:
        return dict(self.args).get(name)


@dataclass(frozen=True, slots=True)
class Hint:
    """The action to take, why, and what the search found for each card (the seat's team's
    mean score margin, with a little of the card points; empty for a bid or a forced card)."""

    action: Action
    reason: Reason
    values: tuple[tuple[Card, float], ...] = field(default=())


def _wins(card_values: CardValues, trick: tuple[tuple[object, Card], ...], card: Card) -> bool:
    cards = [c for _, c in trick]
    return winning_index(card_values, [*cards, card]) == len(cards)


def _is_master(card_values: CardValues, observation: Observation, card: Card) -> bool:
    """Whether no card of its suit that is still out (not played, not in this hand) beats it."""
    out = ~(observation.played.mask | observation.hand.mask)
    return not card_values.beats[card] & out


def play_reason(
    observation: Observation, card: Card, values: dict[Card, float], card_values: CardValues
) -> Reason:
    """Why ``card`` is the one to play, from what the seat sees and the search's values."""
    legal = legal_cards(observation)
    if len(legal) == 1:
        return Reason("only_card", (("card", card_code(card)),))
    ranked = sorted(values.values(), reverse=True)
    gain = round(ranked[0] - ranked[1], 1) if len(ranked) > 1 else 0.0
    args: tuple[tuple[str, Arg], ...] = (("card", card_code(card)), ("gain", gain))
    trick = observation.trick
    contract = observation.contract
    assert contract is not None
    me = observation.seat
    trump = card_values.trump_mask
    if trick:
        leader = winning_index(card_values, [c for _, c in trick])
        holder = trick[leader][0]
        if holder == me.partner and not _wins(card_values, trick, card):
            return Reason("partner_holds_trick", (*args, ("points", card_values.points[card])))
        if _wins(card_values, trick, card):
            points = sum(card_values.points[c] for _, c in trick) + card_values.points[card]
            code = "takes_the_trick" if len(trick) == 3 else "takes_the_lead"
            return Reason(code, (*args, ("points", points)))
    nine = _trump_card(card_values, rank=2)
    jack = _trump_card(card_values, rank=4)
    hand = observation.hand.mask
    if (
        nine is not None
        and jack is not None
        and hand >> nine & 1
        and not (hand | observation.played.mask) >> jack & 1
        and (hand & trump).bit_count() >= 2
        and not trump >> card & 1
        and any(trump >> c & 1 for c in legal)
    ):
        return Reason("keeps_trump_nine_guarded", args)
    if not trick and trump >> card & 1 and me.team == contract.team:
        return Reason("draws_trumps", args)
    if not trick and _is_master(card_values, observation, card):
        return Reason("cashes_master", args)
    if trick and card_values.points[card] == min(card_values.points[c] for c in legal):
        return Reason("saves_points", (*args, ("points", card_values.points[card])))
    return Reason("best_on_average", args)


def _trump_card(card_values: CardValues, *, rank: int) -> Card | None:
    """The card of the trump suit with this rank (0 = 7 … 7 = ace), in a suit contract."""
    suit = card_values.strain.suit
    return None if suit is None else int(suit) * 8 + rank


def bid_reason(action: Action) -> Reason:
    """Why a bid: what the simulation found it pays (the reason codes of bids)."""
    if isinstance(action, Pass):
        return Reason("pass_pays")
    if isinstance(action, Coinche | Surcoinche):
        return Reason("coinche_pays")
    if isinstance(action, Bid):
        return Reason("bid_pays", (("strain", action.strain.code), ("value", action.value)))
    if isinstance(action, Take):
        return Reason("bid_pays", (("strain", action.strain.code),))
    return Reason("best_on_average")


def hint(
    observation: Observation,
    seed: int = 0,
    *,
    node_budget: int = HINT_NODES,
    worlds: int = HINT_WORLDS,
) -> Hint:
    """What the ``expert`` level would do in ``observation``, and one reason; the same from
    the same observation and seed."""
    if not observation.legal_actions:
        raise ValueError("it is not this seat's turn")
    rng = random.Random(f"hint:{seed}")
    if observation.phase is Phase.BIDDING:
        action = bid_by_simulation(observation, rng, STRONG_BIDDING)
        if action is None or action not in observation.legal_actions:
            action = ClubPlayer().decide(observation, rng)
        return Hint(action, bid_reason(action))
    contract = observation.contract
    assert contract is not None
    card_values = values_for(observation.rules, contract.strain)
    legal = legal_cards(observation)
    if len(legal) == 1:
        card = legal[0]
        return Hint(
            with_declarations(observation, card), play_reason(observation, card, {}, card_values)
        )
    player = ExpertPlayer(
        worlds=worlds // 2, node_budget=node_budget, close_budget=node_budget // 2, candidates=96
    )
    values = player.play_values(observation, rng)
    # As the expert chooses: the best value; on a tie, the card worth fewer points, weaker.
    card = max(
        legal,
        key=lambda c: (
            round(values.get(c, -1e9), 6),
            -card_values.points[c],
            -card_values.order[c],
        ),
    )
    ordered = tuple((c, round(values[c], 3)) for c in sorted(values))
    return Hint(
        with_declarations(observation, card),
        play_reason(observation, card, values, card_values),
        ordered,
    )


def hint_data(given: Hint) -> dict[str, Any]:
    """A hint as JSON-ready data: the action as the records write it (``S JH``, ``N bid 90
    H``), the card's code for a card, the reason's code and arguments."""
    action = given.action
    return {
        "action": str(action),
        "card": card_code(action.card) if isinstance(action, Play) else None,
        "reason": {"code": given.reason.code, "args": dict(given.reason.args)},
        "values": {card_code(card): value for card, value in given.values},
    }


__all__ = [
    "HINT_NODES",
    "REASONS",
    "Hint",
    "Reason",
    "bid_reason",
    "hint",
    "hint_data",
    "play_reason",
]
