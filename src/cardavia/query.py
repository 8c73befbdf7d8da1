"""The rules oracle: questions about the rules asked as JSON, one per line, answered by the
engine (what ``cardavia query`` serves; the rules pages and other programs ask it).

Each request is a JSON object with a ``query`` and its arguments; the answer is one JSON
object. A request that cannot be answered gets ``{"error": "…"}`` and the next one is still
answered. An ``id`` in a request is copied into its answer, so a client may pipeline.

- ``legal``: which cards of ``hand`` may ``seat`` play to ``trick`` (RULES.md 5)?
  ``{"legal": [...], "illegal": {"card": "reason", ...}}``, the cards in the hand's order.
- ``trick``: who wins the ``trick`` (so far) and how many card points is it worth?
  ``{"winner": "E", "points": 41}``; ``"last": true`` adds the 10 of the last trick.
- ``announcements``: the best set of announcements ``hand`` can declare (RULES.md 7).
  ``{"announcements": [{"kind", "name", "cards", "points"}, ...], "total": 120}``.

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
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any, Final

from cardavia.belote.announcements import best_announcements
from cardavia.belote.cards import Card, Seat, card_code, parse_card, parse_seat
from cardavia.belote.game import Reason
from cardavia.belote.play import LAST_TRICK_BONUS, Strain, constraint, table_for, winning_index
from cardavia.belote.rules import Rules, find_rules

Answer = dict[str, Any]


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
    one before it (RULES.md 2: N → E → S → W)."""
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
    mask = 0
    for card in hand:
        mask |= 1 << card
    rule = constraint(rules, table_for(rules, strain), trick, seat, mask)
    message = Reason(rule.code, rule.reason_args()).message
    legal = [card_code(c) for c in hand if rule.allowed >> c & 1]
    illegal = {card_code(c): message for c in hand if not rule.allowed >> c & 1}
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
    table = table_for(rules, strain)
    cards = [card for _, card in trick]
    winner = trick[winning_index(table, cards)][0]
    points = sum(table.points[card] for card in cards) + (LAST_TRICK_BONUS if last else 0)
    return {"winner": winner.name, "points": points}


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


HANDLERS: Final[dict[str, Callable[[Mapping[str, Any]], Answer]]] = {
    "legal": query_legal,
    "trick": query_trick,
    "announcements": query_announcements,
}
"""The queries by name."""


def answer_all(lines: Iterable[str]) -> list[str]:
    """The answers to several lines (blank lines skipped), for tests and scripts."""
    return [answer_line(line) for line in lines if line.strip()]
