"""The deal record: a whole deal or match written down, as text people read and as JSON.

Like PGN for chess, a record keeps what cannot be worked out (the rules, each deal's dealer
and deck, every action in order) and, for the reader, what can: the turned card, the hands,
the contract, the scores. Reading replays every action through the engine and checks every
stated fact, so a record that reads is a legal one; it is written back byte for byte.

The text form, one fact a line::

    [Rules "maison"]                 the preset (docs/rules.md 10), first
    [Knob tie "made"]                each knob that differs from it (Rules.differences())

    Deal 1
    Dealer: W
    Deck: 7S 8H ...                  the 32 cards in the order dealt: this fixes every hand
    Turned: 9H                       classic tables: the 21st card (derived)
    Hands: N: ..., E: ..., S: ..., W: ...   each seat's cards once dealt (derived)
    Bidding: N pass, E take H        every bid, coinche and surcoinche, in order
    Contract: E H                    (derived)
    Trick 1: N JH +announce, E 7H, S AH, W 8H
    ...
    Score: NS 90, EW 72 (made)       or ``cancelled``, or ``unfinished`` for a deal in play
    Total: NS 90, EW 72              the match so far, with any litige reserve (derived)
    Winner: NS                       once a team has won the match (derived)

Actions are written as :func:`~cardavia.belote.actions.parse_action` reads them. The lines
marked derived may be left out when reading; when present they must agree with the replay.
In classic bidding the hands are the eight cards after the second distribution, or the five
of the first when nobody took. A deal in play ends with ``Score: unfinished`` and may end
with a short trick; only the last deal of a record may be unfinished. ``#`` starts a comment.

>>> from cardavia.belote import Pass, Seat, find_rules
>>> from cardavia.belote.game import DealState
>>> state = DealState.from_deck(find_rules("cardavia"), dealer=Seat.W, deck=range(32))
>>> for _ in range(8):
...     state = state.apply(Pass(state.to_move))
>>> text = write_record(Record.from_deal(state))
>>> print(text.replace(" 8D 9D TD JD QD KD AD 7C 8C 9C TC JC QC KC AC", " ..."), end="")
[Rules "cardavia"]
<BLANKLINE>
Deal 1
Dealer: W
Deck: 7S 8S 9S TS JS QS KS AS 7H 8H 9H TH JH QH KH AH 7D ...
Turned: JD
Hands: N: 7S 8S 9S JH QH, E: TS JS QS KH AH, S: KS AS 7H 7D 8D, W: 8H 9H TH 9D TD
Bidding: N pass, E pass, S pass, W pass, N pass, E pass, S pass, W pass
Score: cancelled
Total: NS 0, EW 0
>>> read_record(text) == Record.from_deal(state)
True
>>> try:
...     read_record(text.replace("S pass, W pass\\n", "S take D, W pass\\n"))
... except RecordError as error:
...     print(error.line, error.problem)
8 S take D: D cannot be named in this round
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardavia.belote.actions import Action, InvalidActionError, Play, parse_action
from cardavia.belote.cards import (
    ALL_CARDS,
    Card,
    CardSet,
    InvalidCardError,
    Seat,
    card_code,
    parse_card,
    parse_seat,
)
from cardavia.belote.game import DealState, IllegalActionError, Phase
from cardavia.belote.match import Match
from cardavia.belote.rules import CHANGED_MARK, KNOBS, PRESETS, Rules, find_rules, preset_name

JSON_FORMAT: Final = "cardavia-record/1"
"""The ``format`` field of a JSON record: its kind and version."""


class RecordError(ValueError):
    """A record that cannot be read or replayed: the problem, and the line it is on (1-based;
    ``None`` where no line applies, as in JSON and in :meth:`Record.replay`)."""

    def __init__(self, problem: str, *, line: int | None = None) -> None:
        super().__init__(f"line {line}: {problem}" if line is not None else problem)
        self.problem = problem
        self.line = line


def _deck_problem(deck: Sequence[Card]) -> str | None:
    """What is wrong with a deck that is not the 32 cards once each, or ``None``."""
    if len(deck) == 32 and sorted(deck) == list(ALL_CARDS):
        return None
    details = [] if len(deck) == 32 else [f"it has {len(deck)}"]
    twice = sorted({card for card in deck if deck.count(card) > 1})
    if twice:
        details.append(" ".join(card_code(c) for c in twice) + " more than once")
    missing = sorted(set(ALL_CARDS) - set(deck))
    if missing:
        details.append(" ".join(card_code(c) for c in missing) + " missing")
    return "the deck must hold the 32 cards once each: " + ", ".join(details)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal as recorded: who dealt, the deck in the order dealt, every action in order."""

    dealer: Seat
    deck: tuple[Card, ...]
    """The 32 cards as dealt (:attr:`DealState.deck`): they fix every hand."""
    actions: tuple[Action, ...] = ()
    """Every bid and card, in the order made (:attr:`DealState.history`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "dealer", Seat(self.dealer))
        object.__setattr__(self, "deck", tuple(self.deck))
        object.__setattr__(self, "actions", tuple(self.actions))
        problem = _deck_problem(self.deck)
        if problem:
            raise ValueError(problem)

    @classmethod
    def from_deal(cls, state: DealState) -> DealRecord:
        """The record of a deal so far (the whole deal once it is over)."""
        if not state.deck:
            raise ValueError(
                "a position set up without a deck (DealState.from_position) has no record"
            )
        return cls(state.dealer, state.deck, state.history)


def _canonical_rules(rules: Rules) -> Rules:
    """The rules named as a record reads them back: the preset's name, with ``+`` when knobs
    differ from it (as :meth:`Rules.replace` names them)."""
    preset = find_rules(rules.preset)
    name = preset.name + (CHANGED_MARK if rules.differences() else "")
    return rules if rules.name == name else dataclasses.replace(rules, name=name)


@dataclass(frozen=True, slots=True)
class Record:
    """A deal or a match: the rules and each deal, in order. The results are not kept: they
    are what :meth:`replay` gives.

    The rules' name is put in the form the record reads back (``maison``, or ``maison+`` when
    knobs differ), so that a record written and read again is equal to itself.
    """

    rules: Rules
    deals: tuple[DealRecord, ...]

    def __post_init__(self) -> None:
        deals = tuple(self.deals)
        if not deals:
            raise ValueError("a record holds at least one deal")
        object.__setattr__(self, "deals", deals)
        object.__setattr__(self, "rules", _canonical_rules(self.rules))

    @classmethod
    def from_match(cls, match: Match) -> Record:
        """The record of a match so far: every deal, the one in play included."""
        return cls(match.rules, tuple(DealRecord.from_deal(deal) for deal in match.deals))

    @classmethod
    def from_deal(cls, state: DealState) -> Record:
        """The record of a single deal (the first of a match, if the rules play to a target)."""
        return cls(state.rules, (DealRecord.from_deal(state),))

    def replay(self) -> Match:
        """The match the record describes, every action checked by the engine; the deals
        follow each other through :meth:`Match.next_deal_from_deck`. :class:`RecordError`
        (without a line) names the deal and the action that the rules refuse."""
        last: Match | None = None
        for _number, match in _replayed(self):
            last = match
        assert last is not None
        return last

    def to_json(self) -> str:
        """The record as JSON: the same data, with each deal's result."""
        rules = {"name": self.rules.name, **self.rules.differences()}
        out = [
            "{",
            f'  "format": {_dumps(JSON_FORMAT)},',
            f'  "rules": {_dumps(rules)},',
            '  "deals": [',
        ]
        for number, match in _replayed(self):
            deal = self.deals[number - 1]
            out += [
                "    {",
                f'      "dealer": {_dumps(deal.dealer.name)},',
                f'      "deck": {_dumps([card_code(c) for c in deal.deck])},',
                f'      "actions": {_dumps([str(a) for a in deal.actions])},',
                f'      "result": {_dumps(_result_data(match))}',
                "    }," if number < len(self.deals) else "    }",
            ]
        out += ["  ]", "}"]
        return "\n".join(out) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Record:
        """The record of :meth:`to_json`'s text, replayed and checked (each deal's
        ``result``, when given, must be the replay's). :class:`RecordError` if it is not."""
        return _read_json(text)


def _replayed(record: Record) -> Iterable[tuple[int, Match]]:
    """The match as each deal of the record ends, with the deal's number."""
    match: Match | None = None
    for number, deal in enumerate(record.deals, 1):
        where = f"deal {number}"
        match = _next_deal(record.rules, match, deal.dealer, deal.deck, where=where)
        for index, action in enumerate(deal.actions, 1):
            match = _apply(match, action, where=f"{where}, action {index}")
        yield number, match


def _error(problem: str, *, line: int | None = None, where: str = "") -> RecordError:
    return RecordError(f"{where}: {problem}" if where else problem, line=line)


def _next_deal(
    rules: Rules,
    match: Match | None,
    dealer: Seat,
    deck: Sequence[Card],
    *,
    line: int | None = None,
    where: str = "",
) -> Match:
    """The match with the next deal of the record started (the first: a new match)."""
    problem = _deck_problem(deck)
    if problem:
        raise _error(problem, line=line, where=where)
    if match is None:
        return Match.from_deck(rules, dealer=dealer, deck=deck)
    problem = _follow_problem(match)
    if problem:
        raise _error(problem, line=line, where=where)
    if dealer != match.deal.dealer.next:
        raise _error(
            f"the dealer is {match.deal.dealer.next.name}, the previous dealer's next, "
            f"not {dealer.name}",
            line=line,
            where=where,
        )
    return match.next_deal_from_deck(deck)


def _follow_problem(match: Match) -> str | None:
    """Why no deal may follow the match's current one, or ``None``."""
    if not match.deal.is_over:
        return "the deal before is not over: only the last deal of a record may be unfinished"
    if match.is_over:
        won = f": {match.winner.name} won it" if match.winner is not None else ""
        return f"the match is over{won}; no deal follows"
    return None


def _apply(match: Match, action: Action, *, line: int | None = None, where: str = "") -> Match:
    """The match after an action, or the engine's reason for refusing it."""
    try:
        return match.apply(action)
    except IllegalActionError as error:
        raise _error(f"{action}: {error}", line=line, where=where) from None


# -- the facts a record states --------------------------------------------------------------


def _score_text(state: DealState) -> str:
    """The deal's outcome as the ``Score:`` line states it."""
    if state.phase is Phase.CANCELLED:
        return "cancelled"
    result = state.result
    if result is None:
        return "unfinished"
    verdict = {True: "made", False: "failed", None: "litige"}[result.made]
    return f"NS {result.scores[0]}, EW {result.scores[1]} ({verdict})"


def _total_text(match: Match) -> str:
    """The match's running total as the ``Total:`` line states it."""
    reserve = f", reserve {match.reserve}" if match.reserve else ""
    return f"NS {match.scores[0]}, EW {match.scores[1]}{reserve}"


def _hands_text(hands: Sequence[CardSet]) -> str:
    return ", ".join(f"{seat.name}: {hands[seat]}" for seat in Seat)


def _progress(state: DealState) -> str:
    """Where an unfinished deal stands, in words."""
    seat = state.to_move.name if state.to_move is not None else "-"
    if state.phase is Phase.BIDDING:
        return f"it is {seat}'s turn to bid"
    return f"it is {seat}'s turn in trick {len(state.tricks) + 1}"


def _result_data(match: Match) -> dict[str, Any]:
    """The JSON ``result`` of the match's current deal."""
    state = match.deal
    result = state.result
    outcome = _score_text(state)
    if result is not None:
        outcome = {True: "made", False: "failed", None: "litige"}[result.made]
    ended = state.is_over
    return {
        "outcome": outcome,
        "contract": str(state.contract) if state.contract is not None else None,
        "score": {"NS": result.scores[0], "EW": result.scores[1]} if result else None,
        "total": {"NS": match.scores[0], "EW": match.scores[1]} if ended else None,
        "reserve": match.reserve if ended else None,
        "winner": match.winner.name if match.winner is not None else None,
    }


def _knob_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


# -- the rules ------------------------------------------------------------------------------

_BASE: Final = PRESETS["cardavia"]


def _knob_value(knob: str, value: object) -> object:
    """A knob's value, checked to be of the knob's type (``bool``, ``int``, ``str``; ``int`` or
    ``None`` for the target), or :class:`ValueError` with the problem."""
    if knob == "name":
        raise ValueError("the rules' name is given by the Rules tag, not by a knob")
    if knob not in KNOBS:
        raise ValueError(f"unknown rules knob {knob!r}")
    default = getattr(_BASE, knob)
    is_number = isinstance(value, int) and not isinstance(value, bool)
    if knob == "target":
        if value is None or is_number:
            return value
        raise ValueError(f"rules knob 'target': {value!r} is not a number or none")
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise ValueError(f"rules knob {knob!r}: {value!r} is not true or false")
    if isinstance(default, int):
        if is_number:
            return value
        raise ValueError(f"rules knob {knob!r}: {value!r} is not a number")
    if isinstance(value, str):
        return value
    raise ValueError(f"rules knob {knob!r}: {value!r} is not text")


def _knob_from_text(knob: str, text: str) -> object:
    """A knob's value as the text form writes it (:func:`_knob_text`): ``true``/``false``,
    a number, ``none`` for no target, or the word itself."""
    default = getattr(_BASE, knob, "")
    word = text.strip()
    if knob == "target" and word.lower() == "none":
        return None
    if isinstance(default, bool) or knob not in KNOBS:
        return {"true": True, "false": False}.get(word.lower(), word)
    if (isinstance(default, int) or knob == "target") and word.isdigit():
        return int(word)
    return word


def _with_knob(rules: Rules, knob: str, value: object) -> Rules:
    """The rules with one knob changed, checked."""
    return rules.replace(**{knob: _knob_value(knob, value)})


# -- writing --------------------------------------------------------------------------------


def write_record(record: Record) -> str:
    """The text of a record (replayed, so that the derived lines can be written).

    :class:`RecordError` if the rules refuse one of its actions.
    """
    rules = record.rules
    lines = [f'[Rules "{rules.preset}"]']
    lines += [f'[Knob {k} "{_knob_text(v)}"]' for k, v in rules.differences().items()]
    for number, match in _replayed(record):
        lines += ["", *_deal_lines(number, match)]
    return "\n".join(lines) + "\n"


def _actions_line(head: str, actions: Iterable[Action]) -> str:
    text = ", ".join(str(a) for a in actions)
    return f"{head} {text}" if text else head


def _deal_lines(number: int, match: Match) -> list[str]:
    """The lines of the match's current deal."""
    state = match.deal
    lines = [
        f"Deal {number}",
        f"Dealer: {state.dealer.name}",
        f"Deck: {' '.join(card_code(c) for c in state.deck)}",
    ]
    if state.turned_card is not None:
        lines.append(f"Turned: {card_code(state.turned_card)}")
    lines.append(f"Hands: {_hands_text(state.dealt_hands())}")
    lines.append(_actions_line("Bidding:", state.bids))
    if state.contract is not None:
        lines.append(f"Contract: {state.contract}")
    plays = state.history[len(state.bids) :]
    for start in range(0, len(plays), 4):
        lines.append(_actions_line(f"Trick {start // 4 + 1}:", plays[start : start + 4]))
    lines.append(f"Score: {_score_text(state)}")
    if state.is_over:
        lines.append(f"Total: {_total_text(match)}")
        if match.winner is not None:
            lines.append(f"Winner: {match.winner.name}")
    return lines


# -- reading the text -----------------------------------------------------------------------

_TAG: Final = re.compile(r'\[\s*([A-Za-z]\w*)\s+(?:([A-Za-z]\w*)\s+)?"([^"]*)"\s*\]')
_DEAL: Final = re.compile(r"deal\s+(\d+)\s*:?", re.IGNORECASE)
_KEYED: Final = re.compile(r"([A-Za-z]+)(?:\s+(\d+))?\s*:(.*)")
_KEYS: Final = frozenset(
    ("dealer", "deck", "turned", "hands", "bidding", "contract", "score", "total", "winner")
)
_HAND_SEAT: Final = re.compile(r"(?<![^\s,])([NESWnesw])\s*:")


@dataclass(frozen=True, slots=True)
class _Line:
    """A line of a record with its content: ``key`` is ``tag``, ``deal``, ``trick``, the
    lower-case word before the colon, or ``?`` for a line that is none of these."""

    number: int
    key: str
    index: int | None
    value: str
    text: str


def _lines(text: str) -> list[_Line]:
    """The record's lines that say something, comments and blank lines left out."""
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        key, index, value = "?", None, content
        if content.startswith("["):
            key = "tag"
        elif deal := _DEAL.fullmatch(content):
            key, index = "deal", int(deal[1])
        elif keyed := _KEYED.fullmatch(content):
            word = keyed[1].lower()
            number_text, value = keyed[2], keyed[3].strip()
            if word == "trick" and number_text is not None:
                key, index = "trick", int(number_text)
            elif word in _KEYS and number_text is None:
                key = word
        lines.append(_Line(number, key, index, value, content))
    return lines


def _same(given: str, expected: str) -> bool:
    """Whether a stated fact is the expected one, up to spacing and case."""
    return " ".join(given.split()).casefold() == " ".join(expected.split()).casefold()


def _parse_action(text: str, line: int) -> Action:
    try:
        return parse_action(text)
    except InvalidActionError as error:
        raise RecordError(str(error), line=line) from None


def _action_texts(line: _Line) -> list[str]:
    """The comma-separated actions of a ``Bidding:`` or ``Trick n:`` line."""
    if not line.value:
        return []
    texts = [part.strip() for part in line.value.split(",")]
    if not all(texts):
        raise RecordError("an action is missing between two commas", line=line.number)
    return texts


def _parse_cards(text: str, line: int) -> list[Card]:
    try:
        return [parse_card(code) for code in text.replace(",", " ").split()]
    except InvalidCardError as error:
        raise RecordError(str(error), line=line) from None


def _parse_hands(line: _Line) -> dict[Seat, CardSet]:
    """The hands of a ``Hands:`` line: ``N: 7S 8S ..., E: ..., S: ..., W: ...``."""
    parts = _HAND_SEAT.split(line.value)
    if parts[0].strip(" ,"):
        raise RecordError(
            f"cannot read the hands {line.value!r}: expected 'N: cards, E: cards, S: cards, "
            "W: cards'",
            line=line.number,
        )
    hands: dict[Seat, CardSet] = {}
    for code, text in zip(parts[1::2], parts[2::2], strict=True):
        seat = parse_seat(code)
        if seat in hands:
            raise RecordError(f"{seat.name}'s hand is given twice", line=line.number)
        cards = _parse_cards(text, line.number)
        if len(set(cards)) != len(cards):
            raise RecordError(f"a card is given twice in {seat.name}'s hand", line=line.number)
        hands[seat] = CardSet(cards)
    missing = [seat.name for seat in Seat if seat not in hands]
    if missing:
        raise RecordError(f"the hands line gives no hand for {' '.join(missing)}", line=line.number)
    return hands


class _Reader:
    """Reads a record's text line by line, replaying each action as it comes, so that an
    error names the line where the record goes wrong."""

    def __init__(self, text: str) -> None:
        self.lines = _lines(text)
        self.end = max(1, len(text.splitlines()))
        self.pos = 0

    def peek(self) -> _Line | None:
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def missing(self, what: str) -> RecordError:
        line = self.peek()
        if line is None:
            return RecordError(f"the record ends where {what} is expected", line=self.end)
        return RecordError(f"expected {what}, found {line.text!r}", line=line.number)

    def expect(self, key: str, what: str) -> _Line:
        line = self.peek()
        if line is None or line.key != key:
            raise self.missing(what)
        self.pos += 1
        return line

    def optional(self, key: str) -> _Line | None:
        line = self.peek()
        if line is None or line.key != key:
            return None
        self.pos += 1
        return line

    def read(self) -> Record:
        rules = self.read_tags()
        deals: list[DealRecord] = []
        match: Match | None = None
        while True:
            deal, match = self.read_deal(len(deals) + 1, rules, match)
            deals.append(deal)
            if self.peek() is None:
                return Record(rules, tuple(deals))

    def read_tags(self) -> Rules:
        first = self.peek()
        if first is None:
            raise RecordError('the record is empty: it starts with [Rules "…"]', line=self.end)
        rules: Rules | None = None
        knobs: set[str] = set()
        while (line := self.peek()) is not None and line.key == "tag":
            self.pos += 1
            tag = _TAG.fullmatch(line.text)
            if tag is None:
                raise RecordError(
                    f'cannot read the tag {line.text!r}: expected [Rules "name"] or '
                    '[Knob name "value"]',
                    line=line.number,
                )
            name, knob, value = tag[1], tag[2], tag[3]
            if name not in ("Rules", "Knob"):
                raise RecordError(
                    f"unknown tag {name!r}: a record's tags are Rules and Knob", line=line.number
                )
            if name == "Rules":
                if knob is not None or rules is not None:
                    what = "is given twice" if rules is not None else "names only the preset"
                    raise RecordError(f"the Rules tag {what}", line=line.number)
                try:
                    rules = find_rules(value)
                except ValueError as error:
                    raise RecordError(str(error), line=line.number) from None
                continue
            if rules is None:
                raise RecordError('the Rules tag comes first: [Rules "…"]', line=line.number)
            if knob is None:
                raise RecordError(
                    'a Knob tag names the knob and its value: [Knob name "value"]',
                    line=line.number,
                )
            if knob in knobs:
                raise RecordError(f"the knob {knob!r} is given twice", line=line.number)
            knobs.add(knob)
            try:
                rules = _with_knob(rules, knob, _knob_from_text(knob, value))
            except ValueError as error:
                raise RecordError(str(error), line=line.number) from None
        if rules is None:
            raise self.missing('the Rules tag [Rules "…"]')
        return rules

    def read_deal(self, number: int, rules: Rules, match: Match | None) -> tuple[DealRecord, Match]:
        head = self.expect("deal", f"'Deal {number}'")
        if head.index != number:
            raise RecordError(f"expected Deal {number}, found Deal {head.index}", line=head.number)
        problem = _follow_problem(match) if match is not None else None
        if problem:
            raise RecordError(problem, line=head.number)
        line = self.expect("dealer", "the 'Dealer:' line")
        try:
            dealer = parse_seat(line.value)
        except ValueError as error:
            raise RecordError(str(error), line=line.number) from None
        if match is not None and match.deal.dealer.next != dealer:
            raise RecordError(
                f"the dealer is {match.deal.dealer.next.name}, the previous dealer's next, "
                f"not {dealer.name}",
                line=line.number,
            )
        line = self.expect("deck", "the 'Deck:' line")
        deck = _parse_cards(line.value, line.number)
        match = _next_deal(rules, match, dealer, deck, line=line.number)
        self.read_turned(match.deal)
        hands = self.optional("hands")
        given = _parse_hands(hands) if hands is not None else None

        line = self.expect("bidding", "the 'Bidding:' line")
        for text in _action_texts(line):
            action = _parse_action(text, line.number)
            if isinstance(action, Play):
                raise RecordError(
                    f"{action}: cards are played in the Trick lines, not in the bidding",
                    line=line.number,
                )
            match = _apply(match, action, line=line.number)
        # The hands are known once the bidding is over (in classic bidding the second
        # distribution goes by the taker); a deal still in the bidding is checked at its end.
        deferred = match.deal.phase is Phase.BIDDING
        if not deferred:
            _check_hands(hands, given, match.deal)
        self.read_contract(match.deal)
        match, short = self.read_tricks(match)
        self.read_result(match, short)
        if deferred:
            _check_hands(hands, given, match.deal)
        return DealRecord(dealer, match.deal.deck, match.deal.history), match

    def read_turned(self, state: DealState) -> None:
        line = self.optional("turned")
        if line is None:
            return
        if state.turned_card is None:
            raise RecordError("there is no turned card at auction tables", line=line.number)
        turned = card_code(state.turned_card)
        if not _same(line.value, turned):
            raise RecordError(
                f"the deck turns the {turned} (its 21st card), not {line.value!r}",
                line=line.number,
            )

    def read_contract(self, state: DealState) -> None:
        line = self.optional("contract")
        if line is None:
            return
        if state.contract is None:
            why = "the deal is cancelled" if state.phase is Phase.CANCELLED else _progress(state)
            raise RecordError(f"there is no contract: {why}", line=line.number)
        if not _same(line.value, str(state.contract)):
            raise RecordError(
                f"the bidding ends in the contract {state.contract}, not {line.value!r}",
                line=line.number,
            )

    def read_tricks(self, match: Match) -> tuple[Match, _Line | None]:
        """The ``Trick n:`` lines; answers the match and the last line if its trick is short
        (it may be, in an unfinished deal)."""
        short: _Line | None = None
        while (line := self.optional("trick")) is not None:
            state = match.deal
            if short is not None:
                raise _short_trick(short)
            if state.phase is Phase.BIDDING:
                raise RecordError(f"the bidding is not over: {_progress(state)}", line=line.number)
            if state.phase is Phase.CANCELLED:
                raise RecordError("the deal is cancelled: it has no tricks", line=line.number)
            if state.phase is Phase.OVER:
                raise RecordError("the deal is over: its eight tricks are played", line=line.number)
            expected = len(state.tricks) + 1
            if line.index != expected:
                raise RecordError(
                    f"expected Trick {expected}, found Trick {line.index}", line=line.number
                )
            texts = _action_texts(line)
            if not 1 <= len(texts) <= 4:
                raise _short_trick(line)
            for text in texts:
                action = _parse_action(text, line.number)
                if not isinstance(action, Play):
                    raise RecordError(
                        f"{action}: only cards are played in a trick", line=line.number
                    )
                match = _apply(match, action, line=line.number)
            if len(texts) < 4:
                short = line
        return match, short

    def read_result(self, match: Match, short: _Line | None) -> None:
        state = match.deal
        if state.phase is Phase.PLAYING and short is None:
            what = f"'Trick {len(state.tricks) + 1}:' or 'Score:'"
        else:
            what = "the 'Score:' line"
        line = self.expect("score", what)
        expected = _score_text(state)
        given_unfinished = _same(line.value, "unfinished")
        if short is not None and not given_unfinished:
            raise _short_trick(short)
        if not _same(line.value, expected):
            if expected == "unfinished":
                problem = (
                    f"the deal is not over ({_progress(state)}): its score is 'unfinished', "
                    f"not {line.value!r}"
                )
            elif given_unfinished:
                problem = f"the deal is over: the replay scores it {expected}, not 'unfinished'"
            else:
                problem = f"the replay scores the deal {expected}, not {line.value!r}"
            raise RecordError(problem, line=line.number)
        total = self.optional("total")
        if total is not None:
            if not state.is_over:
                raise RecordError("a deal in play has no total yet", line=total.number)
            expected = _total_text(match)
            if not _same(total.value, expected):
                raise RecordError(
                    f"the replay's total is {expected}, not {total.value!r}", line=total.number
                )
        winner = self.optional("winner")
        if winner is not None:
            if match.winner is None:
                raise RecordError("no team has won the match yet", line=winner.number)
            if not _same(winner.value, match.winner.name):
                raise RecordError(
                    f"{match.winner.name} won the match, not {winner.value!r}", line=winner.number
                )


def _check_hands(
    line: _Line | None, given: Mapping[Seat, CardSet] | None, state: DealState
) -> None:
    """Check a ``Hands:`` line against the hands the deck deals."""
    if line is None or given is None:
        return
    dealt = state.dealt_hands()
    for seat in Seat:
        if given[seat] != dealt[seat]:
            raise RecordError(
                f"the deck deals {seat.name} {dealt[seat]}, not {given[seat]}", line=line.number
            )


def _short_trick(line: _Line) -> RecordError:
    count = len(_action_texts(line))
    return RecordError(
        f"trick {line.index} names {count} card{'s' * (count != 1)}, not 4", line=line.number
    )


def read_record(text: str) -> Record:
    """The record of a text, replayed and checked: a record that reads is a legal one.

    :class:`RecordError` names the line and the problem.
    """
    return _Reader(text).read()


# -- reading JSON ---------------------------------------------------------------------------


def _keys(data: object, required: Iterable[str], optional: Iterable[str], where: str) -> None:
    """Check that ``data`` is an object with these keys and no others."""
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be a JSON object")
    needed, allowed = set(required), set(required) | set(optional)
    missing = sorted(needed - set(data))
    if missing:
        raise RecordError(f"{where} has no {', '.join(repr(k) for k in missing)}")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RecordError(f"{where}: unknown key {', '.join(repr(k) for k in unknown)}")


def _strings(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RecordError(f"{what} must be a list of strings")
    return value


def _json_rules(data: object) -> Rules:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise RecordError("the rules must be an object with the preset's 'name' and the knobs")
    try:
        rules = find_rules(preset_name(data["name"]))
    except ValueError as error:
        raise RecordError(f"rules: {error}") from None
    for knob, value in data.items():
        if knob != "name":
            try:
                rules = _with_knob(rules, knob, value)
            except ValueError as error:
                raise RecordError(f"rules: {error}") from None
    return rules


def _read_json(text: str) -> Record:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(
            f"not JSON: {error.msg} (column {error.colno})", line=error.lineno
        ) from None
    _keys(data, ("format", "rules", "deals"), (), "the record")
    if data["format"] != JSON_FORMAT:
        raise RecordError(f"the format is {data['format']!r}, not {JSON_FORMAT!r}")
    rules = _json_rules(data["rules"])
    items = data["deals"]
    if not isinstance(items, list) or not items:
        raise RecordError("'deals' must be a list of at least one deal")
    deals = []
    match: Match | None = None
    for number, item in enumerate(items, 1):
        where = f"deal {number}"
        _keys(item, ("dealer", "deck", "actions"), ("result",), where)
        try:
            dealer = parse_seat(item["dealer"])
            deck = [parse_card(code) for code in _strings(item["deck"], f"{where}: the deck")]
        except ValueError as error:
            raise _error(str(error), where=where) from None
        match = _next_deal(rules, match, dealer, deck, where=where)
        for index, text in enumerate(_strings(item["actions"], f"{where}: the actions"), 1):
            try:
                action = parse_action(text)
            except InvalidActionError as error:
                raise _error(str(error), where=f"{where}, action {index}") from None
            match = _apply(match, action, where=f"{where}, action {index}")
        if "result" in item:
            _check_result(item["result"], _result_data(match), where)
        deals.append(DealRecord(dealer, match.deal.deck, match.deal.history))
    return Record(rules, tuple(deals))


def _check_result(given: object, expected: Mapping[str, Any], where: str) -> None:
    _keys(given, (), tuple(expected), f"{where}: the result")
    assert isinstance(given, dict)
    for key, value in given.items():
        if value != expected[key] or type(value) is not type(expected[key]):
            raise _error(
                f"the replay gives the {key} {_dumps(expected[key])}, not {_dumps(value)}",
                where=where,
            )
