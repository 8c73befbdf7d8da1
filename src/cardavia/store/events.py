"""The events of a game's record, with one owner: written here, read here, folded here.

A game is saved as its record (JSON of :mod:`cardavia.belote.notation`) followed by the
events appended since, one short transaction each: an action (``{"action": "N pass"}``, in
the record's notation) or a new deal (``{"deal": {"dealer": "E", "deck": [...]},
"seed": ...}``: the 32 cards as dealt and the secret seed they were dealt from, docs/fair-
deals.md). :func:`fold_events` folds them into the record text (the store, loading a game);
:func:`apply_event` into a match (a server catching up with another's moves).

>>> read_event(action_event("N pass"))
ActionEvent(action='N pass')
>>> read_event(deal_event("E", ["7S"], "ab")).seed
'ab'
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.belote import Match, parse_card
from cardavia.belote import parse_action as parse_notation

log = logging.getLogger(__name__)

_PLAIN = re.compile(r"[ !#-\[\]-~]*")
"""Text that JSON writes as it is: printable ASCII but ``"`` and ``\\``."""


@dataclass(frozen=True, slots=True)
class ActionEvent:
    """An action, in the record's notation (``str(action)``: ``"N pass"``)."""

    action: str


@dataclass(frozen=True, slots=True)
class DealEvent:
    """A new deal: its dealer (``"N"``), the cards as dealt, and the seed they were dealt
    from (hexadecimal; ``None`` in games saved before deals were seeded)."""

    dealer: str
    deck: tuple[str, ...]
    seed: str | None = None


Event = ActionEvent | DealEvent
"""One event of a game's record."""


def action_event(action: str) -> str:
    """The event of one action, in the record's notation (``str(action)``): written as
    :func:`json.dumps` would (``{"action": "S 7H"}``), by hand when the action needs no
    escape (every action of the engine: one per move, on the hot path)."""
    if _PLAIN.fullmatch(action):
        return f'{{"action": "{action}"}}'
    return json.dumps({"action": action}, ensure_ascii=False)


def deal_event(dealer: str, deck: Sequence[str], seed: str | None = None) -> str:
    """The event of a new deal: its dealer (``N``), the 32 cards as dealt and the secret seed
    they were dealt from, hexadecimal (docs/fair-deals.md; the record keeps no seed)."""
    event: dict[str, object] = {"deal": {"dealer": dealer, "deck": list(deck)}}
    if seed is None:
        return json.dumps(event)
    event["seed"] = seed
    return json.dumps(event, separators=(",", ":"))


def read_event(text: str) -> Event:
    """An event as written by :func:`action_event` or :func:`deal_event`
    (:class:`ValueError` for anything else)."""
    try:
        data = json.loads(text)
        if "deal" in data:
            deal = data["deal"]
            seed = data.get("seed")
            return DealEvent(
                str(deal["dealer"]),
                tuple(str(code) for code in deal["deck"]),
                seed if isinstance(seed, str) else None,
            )
        return ActionEvent(str(data["action"]))
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"not an event: {text[:80]!r}") from error


def event_seed(text: str) -> str | None:
    """The seed a deal event carries (``None``: an action, or a deal dealt before deals were
    seeded, or something unreadable)."""
    try:
        event = read_event(text)
    except ValueError:
        return None
    return event.seed if isinstance(event, DealEvent) else None


def apply_event(match: Match, text: str) -> Match:
    """The match after one event, checked by the engine (:class:`ValueError` if it does not
    follow on)."""
    event = read_event(text)
    if isinstance(event, DealEvent):
        if match.deal.dealer.next.name != event.dealer:
            raise ValueError(f"the dealer is not {event.dealer}")
        return match.next_deal_from_deck([parse_card(code) for code in event.deck])
    action = parse_notation(event.action)
    reason = match.deal.refusal(action)
    if reason is not None:
        raise ValueError(f"{action} refused: {reason.code}")
    return match.apply(action)


def fold_events(record: str, events: Sequence[str]) -> str:
    """The record (JSON of :mod:`cardavia.belote.notation`) with ``events`` appended: an
    action to the last deal's actions (whose result, stale, is dropped: the replay computes
    it), a new deal as a new entry. A record that cannot be read is given back as it is (its
    replay will say what is wrong).

    >>> fold_events('{"deals": [{"actions": [], "result": {}}]}', [action_event("N pass")])
    '{"deals": [{"actions": ["N pass"]}]}'
    """
    if not events:
        return record
    try:
        data = json.loads(record)
        deals = data["deals"]
        for text in events:
            event = read_event(text)
            if isinstance(event, DealEvent):
                deals.append({"dealer": event.dealer, "deck": list(event.deck), "actions": []})
            else:
                deals[-1]["actions"].append(event.action)
                deals[-1].pop("result", None)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        log.error("a record's events cannot be folded in", exc_info=True)
        return record
    return json.dumps(data, ensure_ascii=False)


def deal_seeds(events: Sequence[str], deals: int) -> dict[int, str]:
    """The seeds of the deals dealt by ``events`` (a whole game's), by deal number, for a
    game now at ``deals`` deals (the last deal events are its last deals)."""
    seeded: list[DealEvent] = []
    for text in events:
        try:
            event = read_event(text)
        except ValueError:
            continue
        if isinstance(event, DealEvent):
            seeded.append(event)
    return {
        number: event.seed
        for number, event in enumerate(seeded, start=deals - len(seeded) + 1)
        if event.seed is not None
    }


__all__ = [
    "ActionEvent",
    "DealEvent",
    "Event",
    "action_event",
    "apply_event",
    "deal_event",
    "deal_seeds",
    "event_seed",
    "fold_events",
    "read_event",
]
