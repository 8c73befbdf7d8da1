"""``cardavia``: play belote in the terminal, replay a record, ask the rules oracle.

- ``cardavia play``: you sit South; your partner North and the opponents East and West are
  computer players. Type a card's code (``JH``, ``10h``) or its number; ``?`` takes the
  first legal choice, ``q`` stops. It reads answers line by line, so it can be driven from a
  pipe, and prints plain text when the output is not a terminal.
- ``cardavia replay FILE``: a deal or match record, trick by trick, with the scores.
- ``cardavia query``: JSON questions on stdin, one JSON answer per line (:mod:`cardavia.query`).
"""

from __future__ import annotations

import io
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Annotated, Final, cast

import typer
from rich.console import Console
from rich.text import Text

from cardavia.ai.player import (
    Player,
    find_player,
    player_levels,
    told_the_score,
    with_declarations,
)
from cardavia.belote import (
    PRESETS,
    Action,
    Bid,
    Card,
    Coinche,
    DealState,
    Deck,
    InvalidActionError,
    Match,
    Observation,
    Pass,
    Phase,
    Play,
    Reason,
    Record,
    RecordError,
    Rules,
    Seat,
    Strain,
    Surcoinche,
    Take,
    card_code,
    check_deal,
    find_rules,
    parse_bid_value,
    parse_card,
    read_record,
    values_for,
)
from cardavia.query import serve
from cardavia.words import DEFAULT_LANGUAGE, Wording, load_catalogs

app = typer.Typer(
    help="Cardavia: belote, played and taught.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

HUMAN: Final = Seat.S
"""The seat of the person at the terminal (docs/rules.md 2: South, at the bottom)."""
Referee = Callable[[Action], Reason | None]
"""The engine at the table: why it refuses an action, or ``None`` if it takes it."""
RED_SUITS: Final = (1, 2)
"""Hearts and diamonds (copas and oros) are drawn in red."""


class StopGameError(Exception):
    """The person asked to stop (``q``) or the input ended."""


# -- how cards are printed ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardLabels:
    """How the terminal prints cards and suits for one deck and one output: the deck's own
    printed labels (what a player types back), red for hearts and diamonds, with plain letters
    where the output cannot print the suit symbols. The words around them are the one wording
    object's (:class:`cardavia.words.Wording`)."""

    deck: Deck
    symbols: bool

    def card(self, card: Card) -> Text:
        """A card's label, red for hearts and diamonds."""
        if self.deck.key == "french":
            suit = card >> 3
            mark = self.deck.suit_symbols[suit] if self.symbols else "SHDC"[suit]
            label = self.deck.rank_labels[card & 7] + mark
        else:
            label = self.deck.label(card)
        return Text(label, style="red" if card >> 3 in RED_SUITS else "")

    def in_suit(self, card: Card) -> Text:
        """A card in a row of its suit: the French label, or only the Spanish rank."""
        if self.deck.key == "french":
            return self.card(card)
        label = self.deck.rank_labels[card & 7]
        return Text(label, style="red" if card >> 3 in RED_SUITS else "")

    def suit(self, suit: int) -> str:
        """A suit's name, with its symbol when the output can print it."""
        name = self.deck.suit_names[suit]
        if self.deck.key == "french" and self.symbols:
            return f"{self.deck.suit_symbols[suit]} {name}"
        return name


def terminal_wording(rules: Rules) -> Wording:
    """The terminal's words: the engine's English (the source language of every catalog),
    naming the cards of the rules' deck."""
    return load_catalogs().wording(DEFAULT_LANGUAGE, rules.deck)


def _can_print(stream: IO[str], text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _console(stream: IO[str] | io.TextIOBase) -> Console:
    """A console on ``stream``: colours on a terminal, plain text in a pipe, no wrapping."""
    return Console(file=cast(IO[str], stream), highlight=False, soft_wrap=True, emoji=False)


# -- the table: what is printed as a deal goes on ------------------------------------------


class Table:
    """Prints a deal as it is played or replayed: the bids, the cards, the tricks, what is
    said (announcements, belote) and the score."""

    def __init__(
        self,
        console: Console,
        wording: Wording,
        labels: CardLabels,
        *,
        you: Seat | None = None,
        verbose: bool,
    ) -> None:
        self.console = console
        self.wording = wording
        self.labels = labels
        self.you = you
        """The seat of the person at the terminal, called "you"; ``None`` in a replay."""
        self.verbose = verbose
        """Print each card as it is played (the game) or only whole tricks (a replay)."""

    # -- words --

    def name(self, seat: Seat) -> str:
        """A seat's name: North, East, South, West."""
        return self.wording.seat(seat.name)

    def who(self, seat: Seat) -> str:
        """A seat's name, or "You"."""
        return "You" if seat == self.you else self.name(seat)

    def verb(self, seat: Seat, verb: str, third: str | None = None) -> str:
        """The seat and the verb agreed with it: "You pass", "North passes"."""
        if seat == self.you:
            return f"You {verb}"
        return f"{self.name(seat)} {third or verb + 's'}"

    def strain(self, strain: Strain) -> str:
        """A contract's strain in words: a suit as the deck prints it, no trump, all trump."""
        if strain.suit is None:
            return self.wording.strain(strain.code)
        return self.labels.suit(int(strain))

    def bid_value(self, value: int) -> str:
        """A bid's value in a sentence: a number, capot or générale (in lower case, where the
        table's labels capitalise them)."""
        return self.wording.bid_value(value).lower()

    def action_words(self, action: Action) -> Text:
        """An action in words, said by its seat."""
        seat = action.seat
        if isinstance(action, Pass):
            return Text(self.verb(seat, "pass", "passes"))
        if isinstance(action, Take):
            return Text(f"{self.verb(seat, 'take')} {self.strain(action.strain)}")
        if isinstance(action, Bid):
            value = self.bid_value(action.value)
            return Text(f"{self.verb(seat, 'bid')} {value} {self.strain(action.strain)}")
        if isinstance(action, Coinche):
            return Text(f"{self.verb(seat, 'coinche')}!")
        if isinstance(action, Surcoinche):
            return Text(f"{self.verb(seat, 'surcoinche')}!")
        return Text(f"{self.verb(seat, 'play')} ").append(self.labels.card(action.card))

    # -- lines --

    def say(self, *parts: str | Text, style: str = "") -> None:
        """Print one line made of text and labels."""
        line = Text(style=style)
        for part in parts:
            line.append(part if isinstance(part, Text) else Text(part))
        self.console.print(line)

    def cards(self, cards: Sequence[Card]) -> Text:
        """Labels of cards, separated by spaces."""
        line = Text()
        for index, card in enumerate(cards):
            if index:
                line.append(" ")
            line.append(self.labels.card(card))
        return line

    def deal_start(self, state: DealState, number: int, match: Match | None) -> None:
        """The head of a deal: its number, the dealer, the match score."""
        self.console.rule(f"Deal {number}")
        rules = state.rules
        head = f"Rules: {rules.name} · dealer: {self.name(state.dealer)}"
        if match is not None and rules.target is not None:
            head += f" · match to {rules.target}: NS {match.scores[0]}, EW {match.scores[1]}"
            if match.reserve:
                head += f" (litige reserve {match.reserve})"
        self.say(head)
        turned = state.turned_card
        if turned is not None:
            self.say("Turned card: ", self.labels.card(turned))

    def action(self, before: DealState, action: Action, after: DealState) -> None:
        """Narrate one action, what it made the players say and, when it ends one, the trick,
        the bidding or the deal."""
        if not isinstance(action, Play):
            self.say(self.action_words(action))
            if after.contract is not None and before.contract is None:
                self.contract(after)
            elif after.phase == Phase.CANCELLED:
                self.say("Everybody passed: the deal is cancelled.", style="bold")
            return
        seat = action.seat
        if self.verbose:
            self.say(self.action_words(action))
        if action.announce:
            said = ", ".join(f"{a.name} ({a.points})" for a in after.declared[seat])
            self.say(f"{self.verb(seat, 'announce')}: {said}")
        for event in after.belote_events[len(before.belote_events) :]:
            self.say(f"{self.who(seat)}: {event.word}!", style="bold")
        if len(after.tricks) > len(before.tricks):
            self.trick(len(after.tricks), after)
            if len(after.tricks) == 1 and after.rules.announcements:
                self.comparison(after)

    def contract(self, state: DealState) -> None:
        """The contract, once the bidding is over."""
        contract = state.contract
        assert contract is not None
        text = f"Contract: {self.strain(contract.strain)}"
        if contract.bid is not None:
            text = f"Contract: {self.bid_value(contract.bid)} "
            text += self.strain(contract.strain)
        text += f", taken by {self.name(contract.taker)}"
        text += ("", " · coinched (×2)", " · surcoinched (×4)")[contract.coinche]
        self.say(text, style="bold")

    def trick(self, number: int, state: DealState) -> None:
        """A finished trick: its cards in play order, who won it, its points."""
        done = state.tricks[number - 1]
        line = Text(f"Trick {number}: ")
        for index, (seat, card) in enumerate(done.plays):
            if index:
                line.append(", ")
            line.append(f"{seat.name} ")
            line.append(self.labels.card(card))
        line.append(f" → {self.name(done.winner)} ({done.points})")
        self.console.print(line)

    def comparison(self, state: DealState) -> None:
        """docs/rules.md 7: after the first trick, whose announcements count, cards shown."""
        if not any(state.declared):
            return
        winner = state.announcement_winner
        if winner is None:
            self.say("Announcements: equal; none counts.")
            return
        for seat in winner.seats:
            for item in state.declared[seat]:
                self.say(
                    f"Announcement counted: {item.name} ({item.points}) of {self.name(seat)}: ",
                    self.cards(list(item.card_set)),
                )

    def result(self, state: DealState) -> None:
        """The score breakdown of a finished deal."""
        if state.result is None:
            return
        self.console.print(Text(str(state.result)))


# -- playing in the terminal ---------------------------------------------------------------


class Game:
    """A game at the terminal: the person plays South, computer players the other seats."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[Player],
        *,
        deal_rng: random.Random,
        ai_rng: random.Random,
        console: Console,
        stdin: IO[str],
        wording: Wording,
        labels: CardLabels,
    ) -> None:
        self.rules = rules
        self.players = players
        self.deal_rng = deal_rng
        self.ai_rng = ai_rng
        self.console = console
        self.stdin = stdin
        self.echo = not stdin.isatty()
        self.table = Table(console, wording, labels, you=HUMAN, verbose=True)

    def run(self) -> int:
        """Play the match (or the single deal) until it ends or the person stops."""
        match = Match.start(self.rules, dealer=Seat.W, rng=self.deal_rng)
        number = 1
        try:
            while True:
                self.table.deal_start(match.deal, number, match)
                match = self.play_deal(match)
                deal = match.deal
                if deal.phase == Phase.OVER:
                    self.table.result(deal)
                    self.verdict(match)
                if match.is_over:
                    self.final(match)
                    return 0
                question = "Next deal: press Enter (q to stop)"
                if deal.phase == Phase.CANCELLED and not self.rules.is_match:
                    question = "A new deal is offered: press Enter (q to stop)"
                self.ask(question)
                match = match.next_deal(rng=self.deal_rng)
                number += 1
        except StopGameError:
            self.console.print()
            self.say_scores(match, "Stopped.")
            return 0

    def play_deal(self, match: Match) -> Match:
        """Play the current deal to its end."""
        while not match.deal.is_over:
            state = match.deal
            seat = state.to_move
            assert seat is not None
            if state.phase == Phase.PLAYING and not state.trick:
                self.show_trick_head(state)
            if seat == HUMAN:
                # The person sees what South may know, as a computer player does; the
                # engine at the table is the referee of their choice.
                action = self.human(state.observation(HUMAN), state.refusal)
            else:
                player = told_the_score(self.players[seat], match.scores)
                action = player.decide(state.observation(seat), self.ai_rng)
            match = match.apply(action)
            self.table.action(state, action, match.deal)
        return match

    def verdict(self, match: Match) -> None:
        """The deal's outcome in a sentence, and the match score."""
        result = match.deal.result
        assert result is not None
        takers = "you and North" if result.contract.team == HUMAN.team else "East and West"
        outcome = {True: "made", False: "failed", None: "a litige"}[result.made]
        self.table.say(f"The contract of {takers}: {outcome}.", style="bold")
        if self.rules.is_match:
            self.say_scores(match, "Match:")

    def say_scores(self, match: Match, head: str) -> None:
        """The running score of the match."""
        scores = match.scores
        self.table.say(f"{head} NS (you and North) {scores[0]}, EW {scores[1]}")

    def final(self, match: Match) -> None:
        """The end of the game."""
        scores = match.scores
        if scores[0] == scores[1]:
            self.table.say(f"A draw: {scores[0]} all.", style="bold")
        elif scores[0] > scores[1]:
            self.table.say(f"You and North win, {scores[0]} to {scores[1]}.", style="bold")
        else:
            self.table.say(f"East and West win, {scores[1]} to {scores[0]}.", style="bold")

    # -- asking the person ---------------------------------------------------------------

    def ask(self, question: str) -> str:
        """Ask a question and read one line; :class:`StopGameError` on ``q`` or at the end of
        the input."""
        self.console.print(Text(f"{question}: "), end="")
        line = self.stdin.readline()
        if not line:
            self.console.print()
            self.table.say("(the input has ended)")
            raise StopGameError
        answer = line.strip()
        if self.echo:
            self.console.print(Text(answer))
        if answer.lower() in ("q", "quit", "stop"):
            raise StopGameError
        return answer

    def human(self, observation: Observation, referee: Referee) -> Action:
        """The person's action, chosen from South's observation: a bid or a card, asked
        again until the ``referee`` (the rules engine at the table) accepts it."""
        if observation.phase == Phase.BIDDING:
            return self.human_bid(observation, referee)
        return self.human_card(observation, referee)

    def show_hand(self, observation: Observation, legal: Sequence[Card] | None) -> None:
        """The hand by suit; in the play the legal cards numbered, the others dimmed (in
        brackets); ``legal`` is ``None`` in the bidding."""
        hand = list(observation.hand)
        if observation.contract is not None:
            table = values_for(observation.rules, observation.contract.strain)
            trump = observation.contract.strain.suit
        else:
            table = values_for(observation.rules, Strain.NO_TRUMP)
            trump = None
        suits = sorted({c >> 3 for c in hand}, key=lambda s: (s != trump, s))
        self.table.say("Your hand:")
        for suit in suits:
            cards = sorted(
                (c for c in hand if c >> 3 == suit), key=lambda c: table.order[c], reverse=True
            )
            name = f"{self.table.labels.suit(suit)}{' (trump)' if suit == trump else ''}:"
            line = Text(f"  {name:<20}")
            for index, card in enumerate(cards):
                if index:
                    line.append("  ")
                if legal is None:
                    line.append(self.table.labels.in_suit(card))
                elif card in legal:
                    line.append(f"{legal.index(card) + 1}:", style="bold cyan")
                    line.append(self.table.labels.in_suit(card))
                else:
                    line.append("(", style="dim")
                    line.append(self.table.labels.in_suit(card).plain, style="dim")
                    line.append(")", style="dim")
            self.console.print(line)

    def numbered_legal(self, observation: Observation) -> list[Card]:
        """The legal cards in the order the hand shows them (their numbers)."""
        allowed = observation.card_choice().allowed
        assert observation.contract is not None
        table = values_for(observation.rules, observation.contract.strain)
        trump = observation.contract.strain.suit
        return sorted(
            allowed,
            key=lambda c: (c >> 3 != trump, c >> 3, -table.order[c]),
        )

    def show_trick_head(self, state: DealState) -> None:
        """At the start of a trick: its number, the contract and the points so far."""
        contract = state.contract
        assert contract is not None
        head = f"Trick {len(state.tricks) + 1} · contract "
        if contract.bid is not None:
            head += f"{self.table.bid_value(contract.bid)} "
        head += f"{self.table.strain(contract.strain)} by {self.table.name(contract.taker)}"
        head += ("", " (coinched)", " (surcoinched)")[contract.coinche]
        head += f" · points NS {state.points[0]}, EW {state.points[1]}"
        self.console.print()
        self.table.say(head, style="bold")

    def show_table(self, observation: Observation) -> None:
        """The cards on the table, or that it is the person's lead."""
        if not observation.trick:
            self.table.say("You lead.")
            return
        line = Text("On the table: ")
        for index, (seat, card) in enumerate(observation.trick):
            if index:
                line.append(", ")
            line.append(f"{self.table.name(seat)} ")
            line.append(self.table.labels.card(card))
        self.console.print(line)

    def human_card(self, observation: Observation, referee: Referee) -> Action:
        """Ask for a card until a legal one is given."""
        legal = self.numbered_legal(observation)
        self.show_table(observation)
        self.show_hand(observation, legal)
        numbers = "1" if len(legal) == 1 else f"1–{len(legal)}"
        while True:
            answer = self.ask(f"Your card (code or number {numbers}, ? for the first)")
            card = self.read_card(answer, legal)
            if card is None:
                continue
            reason = referee(Play(HUMAN, card))
            if reason is not None:
                self.refuse(reason)
                continue
            return with_declarations(observation, card)

    def read_card(self, answer: str, legal: Sequence[Card]) -> Card | None:
        """The card an answer names, or ``None`` (with a word why) if it names none."""
        if answer in ("", "help", "h"):
            self.table.say(
                "Type a card as it is shown (J♥, 10♦), its code (JH, 10h, 7s) or its number; "
                "? plays the first legal card; q stops."
            )
            return None
        if answer == "?":
            return legal[0]
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.table.say(f"There is no card number {number}: choose 1 to {len(legal)}.")
            return None
        try:
            return self.table.labels.deck.parse(answer)
        except ValueError as error:
            self.table.say(str(error))
            return None

    def refuse(self, reason: Reason) -> None:
        """Tell the person why the rules refuse their choice."""
        self.table.say(f"Not allowed: {reason.message}.", style="bold red")

    def human_bid(self, observation: Observation, referee: Referee) -> Action:
        """Ask for a bid until a legal one is given."""
        options = self.bid_options(observation.legal_actions)
        self.console.print()
        self.show_hand(observation, None)
        listing = "   ".join(f"{i + 1}: {self.bid_words(a)}" for i, a in enumerate(options))
        self.table.say("You may: ", listing)
        if observation.rules.bidding == "auction":
            self.table.say("or bid a value and a suit, e.g. '100 H', 'capot S'.")
        while True:
            answer = self.ask("Your bid (? for the first)")
            action = self.read_bid(answer, options)
            if action is None:
                continue
            reason = referee(action)
            if reason is not None:
                self.refuse(reason)
                continue
            return action

    def bid_options(self, legal: Sequence[Action]) -> list[Action]:
        """The numbered choices: pass, coinche/surcoinche, each take, the lowest bid in each
        strain."""
        mine = [a for a in legal if a.seat == HUMAN]
        options: list[Action] = [a for a in mine if not isinstance(a, Bid)]
        lowest: dict[Strain, Bid] = {}
        for action in mine:
            if isinstance(action, Bid) and action.strain not in lowest:
                lowest[action.strain] = action
        options += lowest.values()
        return options

    def bid_words(self, action: Action) -> str:
        """A choice in a word or two."""
        table = self.table
        if isinstance(action, Pass):
            return "pass"
        if isinstance(action, Take):
            return f"take {table.strain(action.strain)}"
        if isinstance(action, Bid):
            return f"bid {table.bid_value(action.value)} {table.strain(action.strain)}"
        if isinstance(action, Coinche):
            return "coinche"
        return "surcoinche"

    def read_bid(self, answer: str, options: Sequence[Action]) -> Action | None:
        """The bid an answer names, or ``None`` (with a word why)."""
        text = answer.lower().split()
        if not text or text[0] in ("help", "h"):
            self.table.say(
                "Type a choice's number, 'pass', 'take' (or 'take H'), '90 H', 'coinche'; "
                "? takes the first choice; q stops."
            )
            return None
        if answer == "?":
            return options[0]
        if len(text) == 1 and text[0].isdigit() and int(text[0]) < 80:
            number = int(text[0])
            if 1 <= number <= len(options):
                return options[number - 1]
            self.table.say(f"There is no choice number {number}: choose 1 to {len(options)}.")
            return None
        word = text[0]
        try:
            if word in ("p", "pass") and len(text) == 1:
                return Pass(HUMAN)
            if word == "coinche" and len(text) == 1:
                return Coinche(HUMAN)
            if word == "surcoinche" and len(text) == 1:
                return Surcoinche(HUMAN)
            if word in ("t", "take"):
                if len(text) == 2:
                    return Take(HUMAN, Strain.parse(text[1]))
                takes = [a for a in options if isinstance(a, Take)]
                if len(takes) == 1:
                    return takes[0]
                self.table.say("Name the suit: 'take H'.")
                return None
            if word == "bid":
                text = text[1:]
            if len(text) == 2:
                return Bid(HUMAN, parse_bid_value(text[0]), Strain.parse(text[1]))
            if len(text) == 1 and text[0].isdigit():
                self.table.say(f"Name the suit too: '{text[0]} H'.")
                return None
        except (InvalidActionError, ValueError) as error:
            self.table.say(str(error))
            return None
        self.table.say(f"Not a bid: {answer!r} (type 'help').")
        return None


# -- the commands --------------------------------------------------------------------------


def _rules_or_exit(name: str) -> Rules:
    try:
        return find_rules(name)
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


@app.command()
def play(
    rules: Annotated[str, typer.Option(help=f"The rule set: {', '.join(PRESETS)}.")] = "cardavia",
    level: Annotated[
        str, typer.Option(help=f"The computer players: {', '.join(player_levels())}.")
    ] = "club",
    seed: Annotated[
        int | None, typer.Option(help="Shuffle with this seed, to play the same cards again.")
    ] = None,
) -> None:
    """Play belote as South, with a computer partner against two computer opponents."""
    chosen = _rules_or_exit(rules)
    try:
        players = [find_player(level) for _ in Seat]
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if seed is None:
        # docs/rules.md 3: an unpredictable shuffle in play.
        deal_rng: random.Random = random.SystemRandom()
        ai_rng: random.Random = random.Random(random.SystemRandom().getrandbits(64))
    else:
        deal_rng, ai_rng = random.Random(seed), random.Random(seed + 1)
    stdout = sys.stdout
    labels = CardLabels(chosen.deck_names, symbols=_can_print(stdout, "♠♥♦♣→·×–"))
    console = _console(stdout if labels.symbols else _AsciiStream(stdout))
    game = Game(
        chosen,
        players,
        deal_rng=deal_rng,
        ai_rng=ai_rng,
        console=console,
        stdin=sys.stdin,
        wording=terminal_wording(chosen),
        labels=labels,
    )
    raise typer.Exit(game.run())


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record: the text form or its JSON.")],
) -> None:
    """Print a recorded deal or match trick by trick, with the score of each deal."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        typer.echo(f"error: cannot read {file}: {error}", err=True)
        raise typer.Exit(1) from None
    try:
        record = Record.from_json(text) if text.lstrip().startswith("{") else read_record(text)
        match = record.replay()
    except RecordError as error:
        typer.echo(f"error: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    stdout = sys.stdout
    symbols = _can_print(stdout, "♠♥♦♣→·×–")
    console = _console(stdout if symbols else _AsciiStream(stdout))
    labels = CardLabels(match.rules.deck_names, symbols=symbols)
    show_match(console, Table(console, terminal_wording(match.rules), labels, verbose=False), match)


def show_match(console: Console, table: Table, match: Match) -> None:
    """Print every deal of a match as it was played, then the match score."""
    replayed: Match | None = None
    for number, deal in enumerate(match.deals, start=1):
        start = deal.initial()
        replayed = (
            Match(match.rules, start)
            if replayed is None
            else replayed.next_deal_from_deck(deal.deck)
        )
        table.deal_start(start, number, replayed)
        hands = deal.dealt_hands()
        for seat in Seat:
            table.say(f"  {table.name(seat):<5}  ", table.cards(list(hands[seat])))
        state = start
        for action in deal.history:
            after = state.apply(action)
            replayed = replayed.apply(action)
            table.action(state, action, after)
            state = after
        if state.phase == Phase.OVER:
            table.result(state)
        elif state.phase != Phase.CANCELLED:
            table.say("(the deal is unfinished)")
    scores = match.scores
    console.rule("Total")
    line = f"NS {scores[0]}, EW {scores[1]}"
    if match.reserve:
        line += f" (litige reserve {match.reserve})"
    if match.winner is not None:
        line += f" · winner: {match.winner.name}"
    table.say(line)


@app.command()
def query() -> None:
    """Answer rules questions: JSON lines on stdin, one JSON answer a line on stdout.

    Queries: legal, trick, announcements, solve, playouts, decide (see cardavia.query).
    """
    try:
        serve(sys.stdin, sys.stdout)
    except BrokenPipeError:
        # The reader went away (``cardavia query | head -1``): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        raise typer.Exit(1) from None


class _AsciiStream(io.TextIOBase):
    """A text stream that writes what an ASCII-only output cannot print as plain letters."""

    _MAP: Final = str.maketrans(
        {
            "♠": "S",
            "♥": "H",
            "♦": "D",
            "♣": "C",
            "→": "->",
            "·": "-",
            "×": "x",
            "–": "-",
            "─": "-",
            "é": "e",
            "ç": "c",
        }
    )

    def __init__(self, stream: IO[str]) -> None:
        super().__init__()
        self.stream = stream
        self.target = getattr(stream, "encoding", None) or "ascii"

    def write(self, text: str) -> int:
        data = text.translate(self._MAP).encode(self.target, "replace").decode(self.target)
        return self.stream.write(data)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


@app.command()
def arena(
    a: Annotated[str, typer.Option("--a", help="The level measured.")] = "club",
    b: Annotated[str, typer.Option("--b", help="The level it plays against.")] = "beginner",
    preset: Annotated[str, typer.Option(help=f"The rule set: {', '.join(PRESETS)}.")] = "cardavia",
    deals: Annotated[int, typer.Option(help="Duplicate pairs to play (each deck twice).")] = 100,
    seed: Annotated[int, typer.Option(help="Everything is drawn from it.")] = 1,
    save: Annotated[
        Path | None, typer.Option(help="Keep the run in this file and resume it from there.")
    ] = None,
    play_only: Annotated[
        bool,
        typer.Option("--play-only", help="The card play alone: the club player bids for everyone."),
    ] = False,
    processes: Annotated[
        int,
        typer.Option(help="Pairs played side by side, one process each (the same figures).", min=1),
    ] = 1,
) -> None:
    """Duplicate deals between two levels (or versions: expert-2026-12, expert-next): the
    mean margin per deal with its 95% confidence interval (deal score; card points with
    --play-only), the contracts made, and the time per decision."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from cardavia.ai.arena import ArenaResult, run_arena

    _rules_or_exit(preset)
    resume = None
    if save is not None and save.exists():
        resume = ArenaResult.load(save)
        run = (resume.a, resume.b, resume.preset, resume.seed, resume.play_only)
        if run != (a, b, preset, seed, play_only):
            typer.echo(f"error: {save} holds another run", err=True)
            raise typer.Exit(2)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task(f"{a} vs {b}", total=deals)

        def advance(result: ArenaResult) -> None:
            progress.update(task, completed=len(result.margins), description=f"{result.mean:+.1f}")
            if save is not None:
                result.save(save)

        try:
            result = run_arena(
                a, b, preset=preset, pairs=deals, seed=seed, resume=resume, progress=advance,
                play_only=play_only, processes=processes,
            )  # fmt: skip
        except ValueError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
    typer.echo(result.summary())


@app.command("serve")
def serve_site(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    workers: Annotated[
        int, typer.Option(help="Web processes (several need CARDAVIA_REDIS_URL: docs/deploy.md).")
    ] = 1,
) -> None:
    """Run the website: the table and the rules pages (CARDAVIA_DATABASE_URL: where games are
    saved, SQLite cardavia.db by default), in one process or several, each with the same
    limits (cardavia.web.server); their metrics summed on CARDAVIA_METRICS_PORT when set
    (cardavia.metrics)."""
    import uvicorn

    from cardavia.metrics import metrics_port, serve_metrics
    from cardavia.web.server import server_options

    _upgrade_database(on_failure="the site serves it as it is")
    if (port_of_metrics := metrics_port()) is not None:
        serve_metrics(port_of_metrics)
    uvicorn.run(**server_options(host, port, workers))


database = typer.Typer(
    help="The database of the site (CARDAVIA_DATABASE_URL, SQLite cardavia.db by default).",
    no_args_is_help=True,
)
app.add_typer(database, name="db")


@database.command("upgrade")
def upgrade_database() -> None:
    """Bring the database's schema to the latest revision (cardavia serve does it on start;
    a database made before migrations is recognised by its columns first)."""
    if not _upgrade_database(on_failure=None):
        raise typer.Exit(1)


def _upgrade_database(*, on_failure: str | None) -> bool:
    """Upgrade the database (:func:`cardavia.store.upgrade_database`), saying what was done
    on stderr; a failure said there too (``on_failure``: what happens next) and answered
    false."""
    from cardavia.store import StoreUnavailableError
    from cardavia.store import upgrade_database as upgrade

    try:
        done = upgrade()
    except StoreUnavailableError as error:
        typer.echo(
            f"the database was not upgraded: {error}" + (f"; {on_failure}" if on_failure else ""),
            err=True,
        )
        return False
    if done.before == done.after:
        typer.echo(f"the database is at revision {done.after}", err=True)
    else:
        typer.echo(f"the database upgraded from {done.before or 'none'} to {done.after}", err=True)
    return True


@app.command("ai-worker")
def ai_worker(
    redis_url: Annotated[
        str, typer.Option(help="The Redis URL of the queue (default: $CARDAVIA_REDIS_URL).")
    ] = "",
    jobs: Annotated[int, typer.Option(help="Decisions at once (default: the cores).")] = 0,
) -> None:
    """Run an AI worker: decide the computer players' moves from the queue on Redis
    (cardavia.ai.worker), so that AI capacity grows with the workers started."""
    from cardavia.ai.worker import main as worker_main

    worker_main([*(["--redis-url", redis_url] if redis_url else []), "--jobs", str(jobs)])


# -- learning from a deal: its analysis, and checking its shuffle (issue 12) -----------------


def _record_or_exit(file: Path) -> Record:
    """The record in ``file`` (text or JSON), or a message and exit code 1."""
    try:
        text = file.read_text(encoding="utf-8")
        return Record.from_json(text) if text.lstrip().startswith("{") else read_record(text)
    except (OSError, UnicodeDecodeError, RecordError) as error:
        typer.echo(f"error: {file}: {error}", err=True)
        raise typer.Exit(1) from None


@app.command()
def analyse(
    file: Annotated[Path, typer.Argument(help="A record: the text form or its JSON.")],
    deal: Annotated[int, typer.Option(help="Which deal of the record, from 1 (the last: 0).")] = 0,
    seed: Annotated[
        int, typer.Option(help="The worlds of the seat-view light are drawn from it.")
    ] = 0,
    bidding: Annotated[
        str, typer.Option(help=f"The level that reviews the bidding: {', '.join(player_levels())}.")
    ] = "club",
) -> None:
    """What each card of a finished deal cost in deal score, double-dummy and from its seat's
    view (mistakes and bad luck), the moments of the deal, and the bidding."""
    from cardavia.ai.analysis import analyse as analyse_deal
    from cardavia.ai.analysis import text_report

    record = _record_or_exit(file)
    try:
        index = deal - 1
        if deal == 0:
            index, note = _last_finished_deal(record)
            if note:
                typer.echo(note)
        analysis = analyse_deal(record, deal=index, seed=seed, bidding_level=bidding)
    except (ValueError, IndexError, RecordError) as error:
        typer.echo(f"error: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(text_report(analysis))


def _last_finished_deal(record: Record) -> tuple[int, str]:
    """The index of the record's last deal played to its end, and a note when that is not
    the last deal (a match saved with its last deal unfinished): the note says which is
    analysed. Without such a deal, the last one (whose analysis then says why it cannot)."""
    deals = record.replay().deals
    if deals[-1].is_over:
        return -1, ""
    finished = [n for n, state in enumerate(deals) if state.is_over and state.contract is not None]
    if not finished:
        return -1, ""
    return finished[-1], (
        f"Deal {len(deals)} is unfinished: deal {finished[-1] + 1} is analysed, "
        "the last played to its end.\n"
    )


@app.command("verify-deal")
def verify_deal(
    seed: Annotated[str, typer.Argument(help="The seed revealed after the deal (64 hex digits).")],
    commitment: Annotated[
        str, typer.Argument(help="The SHA-256 hash shown before the deal (64 hex digits).")
    ],
    deck: Annotated[
        str | None, typer.Option(help='The deck dealt, as a record writes it: "7S 8S ...".')
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="A record whose deal's deck is checked.")
    ] = None,
    deal: Annotated[int, typer.Option(help="Which deal of the record, from 1 (the last: 0).")] = 0,
) -> None:
    """Check a deal's shuffle (docs/fair-deals.md): the seed's hash is the one shown before
    the deal, and the deck is the one the seed gives."""
    dealt: list[Card] | None = None
    if deck is not None:
        try:
            dealt = [parse_card(code) for code in deck.replace(",", " ").split()]
        except ValueError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
    elif record is not None:
        deals = _record_or_exit(record).deals
        if not -len(deals) <= deal - 1 < len(deals):
            typer.echo(f"error: {record} has {len(deals)} deals", err=True)
            raise typer.Exit(2)
        dealt = list(deals[deal - 1].deck)
    check = check_deal(seed, commitment, dealt)
    messages = {
        "bad_seed": "the seed is not 64 hexadecimal digits",
        "bad_hash": "the hash is not 64 hexadecimal digits",
        "seed_mismatch": "the seed's SHA-256 is not the hash shown before the deal",
        "deck_mismatch": "the deck dealt is not the deck the seed gives",
    }
    if check.deck:
        typer.echo("Deck: " + " ".join(card_code(c) for c in check.deck))
    if check.problem is not None:
        typer.echo(f"FAILED: {messages[check.problem]}")
        raise typer.Exit(1)
    typer.echo("OK: the seed matches the hash" + (" and the deck dealt" if dealt else ""))


# -- the tournaments' fair-play screen (issue 22) -----------------------------------------


@app.command("fair-play")
def fair_play(
    report: Annotated[
        Path, typer.Argument(help="The file the report is written to: JSON if it ends in .json.")
    ],
    tournament: Annotated[
        list[str] | None, typer.Option(help="A tournament's id (repeat it; none: every one).")
    ] = None,
    days: Annotated[
        int, typer.Option(help="Only the tournaments opened in the last DAYS days (0: all).")
    ] = 0,
    database_url: Annotated[
        str, typer.Option(help="The database (default: $CARDAVIA_DATABASE_URL).")
    ] = "",
    worlds: Annotated[
        int, typer.Option(help="Worlds of a card's seat view, at most (0: the screen's).")
    ] = 0,
    nodes: Annotated[
        int, typer.Option(help="Solver nodes of a card's seat view (0: the screen's).")
    ] = 0,
) -> None:
    """Screen the tournament deals for play improbably close to double-dummy: the players far
    outside the field are listed for a person to review, never accused
    (docs/tournament-robots.md)."""
    from datetime import UTC, datetime, timedelta

    from cardavia.store.db import GameStore
    from cardavia.store.db import database_url as chosen_database
    from cardavia.tournaments.fairplay import (
        NODE_BUDGET,
        WORLDS,
        report_json,
        report_text,
        screen,
    )

    since = datetime.now(UTC) - timedelta(days=days) if days > 0 else None
    store = GameStore(chosen_database(database_url or None), read_only=True)
    try:
        found = screen(
            store,
            tournaments=tournament or (),
            since=since,
            worlds=worlds or WORLDS,
            node_budget=nodes or NODE_BUDGET,
        )
    finally:
        store.close()
    as_json = report.suffix.lower() == ".json"
    report.write_text(report_json(found) if as_json else report_text(found), encoding="utf-8")
    typer.echo(
        f"{found.deals} deals screened, {len(found.listed)} players listed for review: {report}"
    )


if __name__ == "__main__":
    app()
