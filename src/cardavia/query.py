"""The rules oracle: questions about the rules asked as JSON, one per line, answered by the
engine (what ``cardavia query`` serves; the rules pages and other programs ask it).

Each request is a JSON object with a ``query`` and its arguments; the answer is one JSON
object. A request that cannot be answered gets ``{"error": "…"}`` and the next one is still
answered. An ``id`` in a request is copied into its answer, so a client may pipeline.

- ``legal``: which cards of ``hand`` may ``seat`` play to ``trick`` (docs/rules.md 5)?
  ``{"legal": [...], "illegal": {"card": "reason", ...}}``, the cards in the hand's order.
- ``trick``: who wins the ``trick`` (so far) and how many card points is it worth?
  ``{"winner": "E", "points": 41}``; ``"last": true`` adds the 10 of the last trick.
- ``announcements``: the best set of announcements ``hand`` can declare (docs/rules.md 7).
  ``{"announcements": [{"kind", "name", "cards", "points"}, ...], "total": 120}``.
- ``solve``: with all four ``hands`` known, the ``trick`` on the table (or the ``leader`` of
  an empty one) and the ``tricks_won`` so far (``{"NS": 0, "EW": 0}`` by default), the card
  points the side to move makes from here under best play (this trick, the tricks to come,
  the last trick's 10 and a capot included) with each of its legal cards, in the hand's
  order: ``{"to_move": "N", "values": {"JS": 95, "8S": 71}}``.
- ``playouts``: the same position played out ``n`` times at random (each card drawn among
  the legal ones; ``seed``, 0 by default, fixes the draws): the mean card points of each
  side and the seconds it took. ``{"NS": 81.2, "EW": 80.8, "n": 100000, "seconds": 0.04}``.
- ``decide``: what a computer player of ``level`` does as ``seat`` at the end of a deal
  ``record`` (the JSON form of :mod:`cardavia.belote.notation`, as an object or as text),
  seeing only that seat's observation of the record's last deal; ``seed`` (0 by default)
  makes the answer reproducible. ``{"action": "E JH"}``.

``rules`` is a preset's name (``cardavia``, ``maison``, ``coinche``, ``maghreb``) or an
object: ``{"name": "maison", "undertrump": "optional"}``. ``contract`` is ``S H D C`` (that
suit is trump), ``NT`` or ``AT``. Cards are codes such as ``JH``, ``TD``; seats ``N E S W``.

>>> answer({"query": "trick", "rules": "maison", "contract": "H",
...         "trick": [["S", "AS"], ["W", "TS"], ["N", "7S"], ["E", "JH"]]})
{'winner': 'E', 'points': 41}
>>> answer_line('{"query": "legal", "rules": "nope"}')
'{"error": "unknown rules \\'nope\\': expected one of cardavia, maison, coinche, maghreb"}'
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping
from typing import IO, Any, Final

from cardavia.ai.levels import find_player
from cardavia.ai.solver import KernelMissingError, playouts, solve_root
from cardavia.belote import (
    LAST_TRICK_BONUS,
    Card,
    CardSet,
    Position,
    Record,
    Rules,
    Seat,
    Strain,
    Team,
    best_announcements,
    card_choice,
    card_code,
    find_rules,
    parse_card,
    parse_seat,
    trick_points,
    trick_winner,
    values_for,
)

Answer = dict[str, Any]

MAX_PLAYOUTS: Final = 2_000_000
"""The most random playouts one ``playouts`` request may ask for (some seconds of work: the
session answers one request at a time)."""


class QueryError(ValueError):
    """A request that cannot be answered; its message is the answer's ``error``."""


def answer(request: object) -> Answer:
    """The answer to one request (already decoded from JSON); errors as ``{"error": …}``."""
    try:
        if not isinstance(request, dict):
            raise QueryError("a request must be a JSON object")
        kind = request.get("query")
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            known = ", ".join(HANDLERS)
            raise QueryError(f"unknown query {kind!r}: expected one of {known}")
        result = handler(request)
    except (ValueError, TypeError, KeyError) as error:
        result = {"error": str(error) if not isinstance(error, KeyError) else repr(error)}
    if isinstance(request, dict) and "id" in request:
        result = {"id": request["id"], **result}
    return result


def answer_line(line: str) -> str:
    """The JSON answer (one line) to one line of JSON. Never raises."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return json.dumps({"error": f"not JSON: {error}"})
    try:
        return json.dumps(answer(request), allow_nan=False)
    except ValueError:
        return json.dumps({"error": "the answer would not be JSON (a number out of range?)"})
    except Exception as error:  # never crash: a bug must not end the session
        return json.dumps({"error": f"internal error: {type(error).__name__}: {error}"})


def serve(lines: IO[str], out: IO[str]) -> int:
    """Answer each non-blank line of ``lines`` on ``out``, flushing after each answer, until
    the input ends; the number of lines answered."""
    count = 0
    while True:
        line = lines.readline()
        if not line:
            return count
        if not line.strip():
            continue
        out.write(answer_line(line) + "\n")
        out.flush()
        count += 1


# -- reading the arguments ------------------------------------------------------------------


def read_rules(value: object) -> Rules:
    """A preset's name, or an object with a preset's ``name`` and knobs to change."""
    if isinstance(value, str):
        return find_rules(value)
    if isinstance(value, Mapping):
        name = value.get("name")
        if not isinstance(name, str):
            raise QueryError("a rules object needs the 'name' of a preset")
        knobs = {str(k): v for k, v in value.items() if k != "name"}
        return find_rules(name).replace(**knobs)
    if value is None:
        raise QueryError("missing 'rules': a preset's name or an object")
    raise QueryError(f"rules must be a preset's name or an object, not {value!r}")


def read_contract(value: object) -> Strain:
    """The contract's strain: ``S H D C``, ``NT`` (also ``none``) or ``AT``."""
    if not isinstance(value, str):
        raise QueryError("missing 'contract': S, H, D, C, NT or AT")
    return Strain.parse(value)


def read_card(value: object) -> Card:
    """A card from its code."""
    if not isinstance(value, str):
        raise QueryError(f"a card is a code such as 'JH', not {value!r}")
    return parse_card(value)


def read_cards(value: object, what: str, *, most: int = 8) -> list[Card]:
    """A list of card codes, each card once."""
    if not isinstance(value, list):
        raise QueryError(f"'{what}' must be a list of card codes")
    cards = [read_card(code) for code in value]
    if len(set(cards)) != len(cards):
        raise QueryError(f"'{what}' holds a card twice")
    if len(cards) > most:
        raise QueryError(f"'{what}' holds {len(cards)} cards, at most {most}")
    return cards


def read_seat(value: object) -> Seat:
    """A seat from its letter."""
    if not isinstance(value, str):
        raise QueryError(f"a seat is one of N E S W, not {value!r}")
    return parse_seat(value)


def read_trick(value: object, *, most: int) -> list[tuple[Seat, Card]]:
    """The cards of a trick in play order as ``[seat, card]`` pairs; each seat after the
    one before it (docs/rules.md 2: N → E → S → W)."""
    if not isinstance(value, list):
        raise QueryError("'trick' must be a list of [seat, card] pairs")
    if len(value) > most:
        raise QueryError(f"a trick here holds at most {most} cards, not {len(value)}")
    plays: list[tuple[Seat, Card]] = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise QueryError(f"each play of a trick is [seat, card], not {item!r}")
        seat, card = read_seat(item[0]), read_card(item[1])
        if plays:
            expected = plays[-1][0].next
            if seat != expected:
                raise QueryError(
                    f"{seat.name} plays out of turn in the trick: after "
                    f"{plays[-1][0].name} comes {expected.name}"
                )
        if any(card == other for _, other in plays):
            raise QueryError(f"the {card_code(card)} is in the trick twice")
        plays.append((seat, card))
    return plays


def read_int(value: object, what: str, *, low: int, high: int | None = None) -> int:
    """A whole number (not a boolean) from ``low`` to ``high``."""
    if value is None:
        raise QueryError(f"missing '{what}': a whole number")
    if isinstance(value, bool) or not isinstance(value, int):
        raise QueryError(f"'{what}' must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        upper = f" to {high}" if high is not None else " or more"
        raise QueryError(f"'{what}' must be {low}{upper}, not {value}")
    return value


def read_hands(value: object) -> dict[Seat, list[Card]]:
    """The four hands, ``{"N": [...], "E": [...], "S": [...], "W": [...]}``, no card in two
    of them."""
    if not isinstance(value, Mapping):
        raise QueryError("'hands' must be an object with the cards of N, E, S and W")
    unknown = sorted(str(key) for key in value if key not in ("N", "E", "S", "W"))
    if unknown:
        raise QueryError(f"'hands' has {', '.join(map(repr, unknown))}: the seats are N E S W")
    hands: dict[Seat, list[Card]] = {}
    owner: dict[Card, Seat] = {}
    for seat in Seat:
        if seat.name not in value:
            raise QueryError(f"'hands' has no hand for {seat.name}")
        hands[seat] = read_cards(value[seat.name], f"hands.{seat.name}")
        for card in hands[seat]:
            if card in owner:
                raise QueryError(
                    f"the {card_code(card)} is in both {owner[card].name}'s and {seat.name}'s hands"
                )
            owner[card] = seat
    return hands


def read_tricks_won(value: object) -> tuple[int, int]:
    """The tricks N–S and E–W have taken so far: ``{"NS": 2, "EW": 1}``."""
    if not isinstance(value, Mapping) or set(value) != {"NS", "EW"}:
        raise QueryError('\'tricks_won\' must be an object {"NS": …, "EW": …}')
    ns = read_int(value["NS"], "tricks_won.NS", low=0, high=8)
    ew = read_int(value["EW"], "tricks_won.EW", low=0, high=8)
    return ns, ew


def read_position(request: Mapping[str, Any]) -> tuple[Position, dict[Seat, list[Card]]]:
    """A position with all four hands known (``solve``, ``playouts``): the rules, the
    contract, the hands, the trick on the table (each card legal when it was played) or the
    leader of an empty one, the tricks each side has taken; the engine's
    :class:`~cardavia.belote.Position` checks that they fit together. The hands are also
    answered as given, for their order."""
    rules = read_rules(request.get("rules"))
    strain = read_contract(request.get("contract"))
    hands = read_hands(request.get("hands"))
    trick = read_trick(request.get("trick", []), most=3)
    won = read_tricks_won(request.get("tricks_won", {"NS": 0, "EW": 0}))
    given = request.get("leader")
    leader = read_seat(given) if given is not None else None
    if not trick and leader is None:
        raise QueryError("the trick is empty: say who leads it with 'leader'")
    position = Position.from_rules(
        rules,
        strain,
        [sum(1 << card for card in hands[seat]) for seat in Seat],
        trick=trick,
        leader=leader,
        tricks_won=won,
    )
    refused = position.trick_refusal()
    if refused is not None:
        seat, card, reason = refused
        raise QueryError(f"{seat.name} could not play the {card_code(card)}: {reason.message}")
    return position, hands


def read_record(value: object) -> Record:
    """A deal record in its JSON form: the object itself, or its text."""
    if isinstance(value, Mapping):
        return Record.from_json(json.dumps(value))
    if isinstance(value, str):
        return Record.from_json(value)
    raise QueryError("'record' must be a deal record in its JSON form (an object or its text)")


# -- the queries --------------------------------------------------------------------------


def query_legal(request: Mapping[str, Any]) -> Answer:
    """Which cards of the hand may the seat play to the trick, and why not the others."""
    rules = read_rules(request.get("rules"))
    strain = read_contract(request.get("contract"))
    trick = read_trick(request.get("trick", []), most=3)
    seat = read_seat(request.get("seat"))
    hand = read_cards(request.get("hand"), "hand")
    if not hand:
        raise QueryError("'hand' is empty: nothing to play")
    if trick and seat != trick[-1][0].next:
        raise QueryError(
            f"{seat.name} is not next to play: after {trick[-1][0].name} comes "
            f"{trick[-1][0].next.name}"
        )
    in_trick = {card for _, card in trick}
    for card in hand:
        if card in in_trick:
            raise QueryError(f"the {card_code(card)} is both in the hand and in the trick")
    choice = card_choice(rules, strain, trick, seat, CardSet(hand))
    message = choice.reason.message
    legal = [card_code(c) for c in hand if c in choice.allowed]
    illegal = {card_code(c): message for c in hand if c not in choice.allowed}
    return {"legal": legal, "illegal": illegal}


def query_trick(request: Mapping[str, Any]) -> Answer:
    """Who wins the trick (so far) and its card points."""
    rules = read_rules(request.get("rules"))
    strain = read_contract(request.get("contract"))
    trick = read_trick(request.get("trick"), most=4)
    if not trick:
        raise QueryError("'trick' is empty")
    last = request.get("last", False)
    if not isinstance(last, bool):
        raise QueryError("'last' must be true or false")
    values = values_for(rules, strain)
    points = trick_points(values, [card for _, card in trick])
    if last:
        points += LAST_TRICK_BONUS
    return {"winner": trick_winner(values, trick).name, "points": points}


def query_announcements(request: Mapping[str, Any]) -> Answer:
    """The best announcements a hand can declare, and their total."""
    rules = read_rules(request.get("rules"))
    strain = read_contract(request.get("contract"))
    hand = read_cards(request.get("hand"), "hand")
    if not rules.announcements:
        raise QueryError(f"the {rules.name} rules have no announcements")
    mask = 0
    for card in hand:
        mask |= 1 << card
    best = best_announcements(mask, strain)
    items = [
        {
            "kind": item.kind,
            "name": item.name,
            "cards": [card_code(c) for c in item.card_set],
            "points": item.points,
        }
        for item in best
    ]
    return {"announcements": items, "total": sum(item.points for item in best)}


def query_solve(request: Mapping[str, Any]) -> Answer:
    """The points the side to move makes with each of its legal cards under best play."""
    position, hands = read_position(request)
    seat = position.to_move
    try:
        values = solve_root(position)
    except KernelMissingError as error:
        raise QueryError(str(error)) from None
    return {
        "to_move": seat.name,
        "values": {card_code(card): values[card] for card in hands[seat] if card in values},
    }


def query_playouts(request: Mapping[str, Any]) -> Answer:
    """The mean points of each side over random playouts of the position, and their time."""
    position, _ = read_position(request)
    n = read_int(request.get("n"), "n", low=1)
    if n > MAX_PLAYOUTS:
        raise QueryError(f"'n' is {n}: at most {MAX_PLAYOUTS} playouts in one request")
    seed = read_int(request.get("seed", 0), "seed", low=-(1 << 63), high=(1 << 64) - 1)
    start = time.perf_counter()
    try:
        ns, ew = playouts(position, n, seed)
    except KernelMissingError as error:
        raise QueryError(str(error)) from None
    seconds = time.perf_counter() - start
    return {Team.NS.name: ns, Team.EW.name: ew, "n": n, "seconds": round(seconds, 6)}


def query_decide(request: Mapping[str, Any]) -> Answer:
    """The action a computer player of a level takes as the seat to move in a record."""
    level = request.get("level")
    if not isinstance(level, str):
        raise QueryError("missing 'level': the computer player's level, such as 'strong'")
    player = find_player(level)
    seat = read_seat(request.get("seat"))
    seed = read_int(request.get("seed", 0), "seed", low=-(1 << 63), high=(1 << 64) - 1)
    if "record" not in request:
        raise QueryError("missing 'record': a deal record in its JSON form")
    state = read_record(request["record"]).replay().deal
    if state.is_over:
        raise QueryError(f"the record's last deal is over: it is {state.phase.value}")
    if state.to_move != seat:
        mover = state.to_move.name if state.to_move is not None else "nobody"
        raise QueryError(f"it is {mover}'s turn, not {seat.name}'s")
    action = player.decide(state.observation(seat), random.Random(seed))
    if action not in state.legal_actions:
        raise QueryError(f"the {level} player chose {action}, which the rules refuse")
    return {"action": str(action)}


HANDLERS: Final[dict[str, Callable[[Mapping[str, Any]], Answer]]] = {
    "legal": query_legal,
    "trick": query_trick,
    "announcements": query_announcements,
    "solve": query_solve,
    "playouts": query_playouts,
    "decide": query_decide,
}
"""The queries by name."""
