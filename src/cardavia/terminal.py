"""Belote in the terminal: a game played as South against computer players, and a record
replayed trick by trick, printed with the deck's own card labels (plain letters where the
output cannot print the suit symbols). ``cardavia play`` and ``cardavia replay`` (cli.py)
call :func:`play_in_terminal` and :func:`print_match`; the words are the one wording object's
(:class:`cardavia.words.Wording`), in the engine's English.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Final, cast

from rich.console import Console
from rich.text import Text

from cardavia.ai.player import Player, told_the_score, with_declarations
from cardavia.belote import (
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
    Rules,
    Seat,
    Strain,
    Surcoinche,
    Take,
    parse_bid_value,
    values_for,
)
from cardavia.words import DEFAULT_LANGUAGE, Wording, load_catalogs

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


SYMBOLS: Final = "♠♥♦♣→·×–"
"""What the terminal prints beyond ASCII: where the output cannot, plain letters instead."""


def _output(stream: IO[str]) -> tuple[Console, bool]:
    """A console on ``stream`` and whether it prints the suit symbols."""
    symbols = _can_print(stream, SYMBOLS)
    return _console(stream if symbols else _AsciiStream(stream)), symbols


def play_in_terminal(rules: Rules, players: Sequence[Player], *, seed: int | None) -> int:
    """Play a game at the terminal (stdin and stdout) as South; the exit code."""
    if seed is None:
        # docs/rules.md 3: an unpredictable shuffle in play.
        deal_rng: random.Random = random.SystemRandom()
        ai_rng: random.Random = random.Random(random.SystemRandom().getrandbits(64))
    else:
        deal_rng, ai_rng = random.Random(seed), random.Random(seed + 1)
    console, symbols = _output(sys.stdout)
    game = Game(
        rules,
        players,
        deal_rng=deal_rng,
        ai_rng=ai_rng,
        console=console,
        stdin=sys.stdin,
        wording=terminal_wording(rules),
        labels=CardLabels(rules.deck_names, symbols=symbols),
    )
    return game.run()


def print_match(match: Match) -> None:
    """Print a replayed record on stdout, deal by deal, with the scores."""
    console, symbols = _output(sys.stdout)
    labels = CardLabels(match.rules.deck_names, symbols=symbols)
    show_match(console, Table(console, terminal_wording(match.rules), labels, verbose=False), match)
