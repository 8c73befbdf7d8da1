"""What a seat is sent: its view of the table (docs/web.md, "View"), built on the server for
any seat and turned for the screen in one place.

- :func:`build_view`: what ``seat`` may know of the match, from its
  :class:`~cardavia.belote.Observation` only (nothing of the other hands until the deal is
  over), the match's public score sheet, the shuffle's commitment, and where each seat is
  drawn (:func:`screen_of`: the seat at the bottom, then round the table; seat codes stay
  the real ones everywhere).
- :func:`public_view`: a watcher's, nothing private; :func:`view_of` the part that is one
  observation (the training problems use it alone).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Final

from cardavia.belote import (
    Action,
    Bid,
    CompletedTrick,
    DealState,
    Match,
    Observation,
    Play,
    Seat,
    best_announcements,
    card_code,
)
from cardavia.live.protocol import SEAT_CODES, bid_value_json, encode_action
from cardavia.live.seating import Person, Seating
from cardavia.live.shuffles import FAIR_ALGORITHM, Commitment
from cardavia.words import Wording

TEAM_CODES: Final = ("NS", "EW")
WATCHER_BOTTOM: Final = Seat.S
"""Where a watcher (no seat) sees the table from: South at the bottom."""
PRIVATE_FIELDS: Final = ("hand", "legal", "refusals", "announced", "announce")
"""The fields of a seat's view that only that seat may see (a watcher's view leaves them
empty)."""


def screen_of(bottom: Seat) -> dict[str, str]:
    """Where each seat is drawn for someone at ``bottom``: ``bottom``, then ``right``,
    ``top`` and ``left`` in playing order (counterclockwise, docs/rules.md 2).

    >>> screen_of(Seat.N)
    {'bottom': 'N', 'right': 'E', 'top': 'S', 'left': 'W'}
    """
    return dict(_SCREENS[bottom])


def _screen(bottom: Seat) -> dict[str, str]:
    return {
        "bottom": SEAT_CODES[bottom],
        "right": SEAT_CODES[bottom.next],
        "top": SEAT_CODES[bottom.next.next],
        "left": SEAT_CODES[bottom.next.next.next],
    }


_SCREENS: Final[Mapping[Seat, Mapping[str, str]]] = {seat: _screen(seat) for seat in Seat}
"""Each seat's :func:`screen_of`, worked out once (every view has one)."""


def names_of(seating: Seating, now: float) -> dict[str, dict[str, Any]]:
    """Who sits in each seat, as every seat may know it: a display name, whether a computer
    player plays it now, whether its person is away."""
    return {
        SEAT_CODES[seat]: {
            "name": player.name if isinstance(player, Person) else None,
            "computer": not seating.person_plays(seat, now),
            "away": isinstance(player, Person) and player.away_since is not None,
        }
        for seat, player in zip(Seat, seating.players, strict=True)
    }


def _by_team(values: tuple[int, int] | list[int]) -> dict[str, int]:
    return {"NS": values[0], "EW": values[1]}


def _plays(plays: tuple[tuple[Seat, int], ...]) -> list[dict[str, str]]:
    return [{"seat": SEAT_CODES[seat], "card": card_code(card)} for seat, card in plays]


def _trick(trick: CompletedTrick) -> dict[str, Any]:
    """A finished trick as a view shows it (a copy: the view's own)."""
    return dict(_written_trick(trick))


@functools.lru_cache(maxsize=4096)
def _written_trick(trick: CompletedTrick) -> Mapping[str, Any]:
    """A finished trick written out once: it is the last trick of the next four views, and a
    trick of the deal's replay."""
    return {
        "leader": SEAT_CODES[trick.leader],
        "cards": _plays(trick.plays),
        "winner": SEAT_CODES[trick.winner],
        "points": trick.points,
    }


def _bids(history: tuple[Action, ...], wording: Wording, deck: str) -> list[dict[str, Any]]:
    """The auction as the view shows it (copies: the view's own). The cards come after it:
    the auction is the history up to its last bid, written once for every view of the play."""
    end = len(history)
    while end and isinstance(history[end - 1], Play):
        end -= 1
    return [dict(entry) for entry in _written_bids(history[:end], wording, deck)]


@functools.lru_cache(maxsize=1024)
def _written_bids(
    history: tuple[Action, ...], wording: Wording, deck: str
) -> tuple[Mapping[str, Any], ...]:
    """An auction's bids, each written out once (:func:`_written_bid`)."""
    return tuple(
        _written_bid(action, wording, deck) for action in history if not isinstance(action, Play)
    )


@functools.lru_cache(maxsize=4096)
def _written_bid(action: Action, wording: Wording, deck: str) -> Mapping[str, Any]:
    """A bid written out once for every view that shows it: the auction is sent again with
    every card of the deal, and its words are the dearest part of a view."""
    entry = {"seat": SEAT_CODES[action.seat], **encode_action(action)}
    strain = entry.get("strain")
    value = action.value if isinstance(action, Bid) else None
    entry["text"] = wording.bid(entry["kind"], strain=strain, value=value, deck=deck)
    return entry


def refusals(observation: Observation, wording: Wording) -> dict[str, dict[str, Any]]:
    """Why each card of the hand that may not be played now is refused, when it is this
    seat's turn to play; worked out from the observation alone (the seat's hand and the trick
    on the table) by :meth:`~cardavia.belote.Observation.card_choice`."""
    if not observation.is_my_turn_to_play:
        return {}
    choice = observation.card_choice()
    if not choice.refused:
        return {}
    reason = choice.reason
    message = wording.reason(reason, observation.rules.deck)  # one reason for every card
    return {
        card_code(card): {"code": reason.code, "message": message, "args": dict(reason.args)}
        for card in choice.refused
    }


def _result(observation: Observation, wording: Wording) -> dict[str, Any] | None:
    result = observation.result
    if result is None:
        return None
    names = iter(observation.revealed)
    lines = []
    for line in result.lines:
        args: dict[str, object] = {}
        if line.code == "capot":
            # The capot team's card points: the capot under the contract's scale.
            args["points"] = result.card_points[result.capot] if result.capot is not None else 0
        elif line.code == "announcement":
            seat, item = next(names, (None, None))
            if seat is not None and item is not None:
                args = {"name": wording.announcement(item.name), "seat": wording.seat(seat.name)}
        elif line.code == "multiplier":
            args["multiplier"] = result.multiplier
        elif line.code == "reserve":
            args["points"] = result.reserve
        lines.append(
            {
                "code": line.code,
                "text": wording.score_line(line.code, line.text, **args),
                "NS": line.ns,
                "EW": line.ew,
            }
        )
    # docs/rules.md 8: at a table whose failed takers lose their belote to the defenders, the
    # breakdown shows it where it was held, and the page says where it went.
    belote_moved = (
        result.made is False
        and observation.rules.belote_on_failure == "to_defenders"
        and result.belote[result.contract.team] > 0
    )
    return {
        "scores": _by_team(result.scores),
        "made": result.made,
        "belote_moved": belote_moved,
        "card_points": _by_team(result.card_points),
        "belote": _by_team(result.belote),
        "announcements": _by_team(result.announcements),
        "capot": TEAM_CODES[result.capot] if result.capot is not None else None,
        "multiplier": result.multiplier,
        "reserve": result.reserve,
        "lines": lines,
    }


def _deal_outcome(deal: DealState) -> dict[str, Any]:
    if deal.result is None:
        return {"NS": 0, "EW": 0, "outcome": "cancelled"}
    verdict = {True: "made", False: "failed", None: "litige"}[deal.result.made]
    return {**_by_team(deal.result.scores), "outcome": verdict}


def _match(match: Match) -> dict[str, Any]:
    """The score sheet: public, so it is read from the match rather than an observation."""
    return {
        "scores": _by_team(match.scores),
        "target": match.rules.target,
        "reserve": match.reserve,
        "deals": [_deal_outcome(deal) for deal in match.deals if deal.is_over],
        "winner": TEAM_CODES[match.winner] if match.winner is not None else None,
        "over": match.is_over,
    }


def _replay(deal: DealState) -> dict[str, Any] | None:
    """Every hand as dealt and every trick: shown only once the deal is over."""
    if not deal.is_over:
        return None
    hands = deal.dealt_hands()
    return {
        "hands": {SEAT_CODES[seat]: hands[seat].codes() for seat in Seat},
        "tricks": [_trick(trick) for trick in deal.tricks],
    }


def _fair(
    deal: DealState, commitment: Commitment | None, *, sealed: bool = False
) -> dict[str, Any] | None:
    """The view's ``fair``: the hash of the deal's seed from the start; the seed and the deck
    as dealt once the deal is over, for the player to check (not while it is ``sealed``);
    ``None`` for a deal dealt before the site committed to its shuffles."""
    if commitment is None:
        return None
    over = deal.is_over and not sealed
    return {
        "algorithm": FAIR_ALGORITHM,
        "hash": commitment.hash,
        "seed": commitment.seed if over else None,
        "deck": [card_code(card) for card in deal.deck] if over else None,
    }


def view_of(
    observation: Observation, wording: Wording, *, game_id: str = "", level: str = ""
) -> dict[str, Any]:
    """The part of the view that is one seat's observation of the deal."""
    obs = observation
    rules = obs.rules
    deck = rules.deck
    tricks_won = [0, 0]
    for trick in obs.tricks:
        tricks_won[trick.winner & 1] += 1
    return {
        "game": game_id,
        "level": level,
        "lang": wording.lang,
        "seat": SEAT_CODES[obs.seat],
        # The preset: a deck other than the preset's is a presentation choice.
        "rules": rules.preset,
        "deck": deck,
        "phase": obs.phase.value,
        "step": len(obs.history),
        "dealer": SEAT_CODES[obs.dealer],
        "to_move": SEAT_CODES[obs.to_move] if obs.to_move is not None else None,
        "hand": obs.hand.codes(),
        "hand_sizes": {SEAT_CODES[s]: obs.hand_sizes[s] for s in Seat},
        "turned": card_code(obs.turned_card) if obs.turned_card is not None else None,
        "bids": _bids(tuple(obs.history), wording, deck),
        "contract": _contract(obs, wording),
        "trick": _plays(obs.trick),
        "last_trick": _trick(obs.tricks[-1]) if obs.tricks else None,
        "tricks_won": _by_team(tricks_won),
        "points": _by_team(obs.points),
        **_announcements(obs, wording),
        "belote": [
            {
                "seat": SEAT_CODES[e.seat],
                "card": card_code(e.card),
                "word": e.word,
                "text": wording.belote(e.word),
            }
            for e in obs.belote_events
        ],
        "legal": [encode_action(a) for a in obs.legal_actions],
        "refusals": refusals(obs, wording),
        "result": _result(obs, wording),
    }


def _contract(obs: Observation, wording: Wording) -> dict[str, Any] | None:
    contract = obs.contract
    if contract is None:
        return None
    return {
        "taker": SEAT_CODES[contract.taker],
        "strain": contract.strain.code,
        "strain_name": _strain_name(wording, contract.strain.code, obs.rules.deck),
        "bid": bid_value_json(contract.bid),
        "coinche": contract.coinche,
    }


@functools.lru_cache(maxsize=256)
def _strain_name(wording: Wording, strain: str, deck: str) -> str:
    """A contract's strain as the language names it, once (every view of the play shows it)."""
    return wording.strain(strain, deck)


def _announcements(obs: Observation, wording: Wording) -> dict[str, list[dict[str, Any]]]:
    """What is known of the announcements: those declared, those shown at the second trick,
    this seat's own, and those it may announce now."""
    contract = obs.contract
    my_turn_to_announce = any(isinstance(a, Play) and a.announce for a in obs.legal_actions)
    proposed = (
        best_announcements(obs.hand.mask, contract.strain)
        if my_turn_to_announce and contract is not None
        else ()
    )
    return {
        "declarations": [
            {
                "seat": SEAT_CODES[d.seat],
                "name": d.name,
                "text": wording.announcement(d.name),
                "points": d.points,
            }
            for d in obs.declarations
        ],
        "revealed": [
            {
                "seat": SEAT_CODES[s],
                "name": a.name,
                "text": wording.announcement(a.name),
                "cards": a.card_set.codes(),
                "points": a.points,
            }
            for s, a in obs.revealed
        ],
        "announced": [
            {"name": a.name, "cards": a.card_set.codes(), "points": a.points}
            for a in obs.own_announcements
        ],
        "announce": [
            {
                "name": a.name,
                "text": wording.announcement(a.name),
                "cards": a.card_set.codes(),
                "points": a.points,
            }
            for a in proposed
        ],
    }


def build_view(
    match: Match,
    wording: Wording,
    *,
    seat: Seat | None,
    game_id: str = "",
    level: str = "",
    commitment: Commitment | None = None,
    sealed: bool = False,
) -> dict[str, Any]:
    """The ``View`` of docs/web.md: what ``seat`` may know of the current deal, built from
    :meth:`DealState.observation` only, plus the match's public score sheet, the hash of the
    deal's shuffle, once the deal is over its replay and seed (not while the table is
    ``sealed``: a tournament's deal shows what its seat saw until the tournament closes), and
    where each seat is drawn (``screen``). ``seat`` ``None``: a watcher's (:func:`public_view`,
    South at the bottom)."""
    deal = match.deal
    seen_from = WATCHER_BOTTOM if seat is None else seat
    observation = deal.observation(seen_from)
    view = view_of(observation, wording, game_id=game_id, level=level) | {
        "screen": screen_of(seen_from),
        "match": _match(match),
        "deal_number": len(match.deals),
        "next_deal": deal.is_over and not match.is_over,
        "replay": None if sealed else _replay(deal),
        "fair": _fair(deal, commitment, sealed=sealed),
    }
    return view if seat is not None else public_view(view)


def deal_record(
    deal: DealState, wording: Wording, commitment: Commitment | None = None
) -> dict[str, Any]:
    """What everyone at the table knows of one deal of a game (its rules, phase, dealer,
    bids, contract and result, as a watcher sees them); once the deal is over, with every
    hand as dealt, every trick and its shuffle's seed (:func:`_replay`, :func:`_fair`):
    never before."""
    seen = view_of(deal.observation(WATCHER_BOTTOM), wording)
    public = {name: seen[name] for name in ("rules", "deck", "phase", "dealer", "bids")}
    return public | {
        "contract": seen["contract"],
        "result": seen["result"],
        "outcome": _deal_outcome(deal)["outcome"] if deal.is_over else None,
        "replay": _replay(deal),
        "fair": _fair(deal, commitment) if deal.is_over else None,
    }


def public_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """What a watcher may see of a view: everything public, no hand, no choice of action."""
    public = dict(view)
    public["seat"] = None
    for name in PRIVATE_FIELDS:
        public[name] = {} if name == "refusals" else []
    return public


__all__ = [
    "PRIVATE_FIELDS",
    "WATCHER_BOTTOM",
    "build_view",
    "deal_record",
    "names_of",
    "public_view",
    "refusals",
    "screen_of",
    "view_of",
]
