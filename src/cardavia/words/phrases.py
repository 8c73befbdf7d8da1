"""The phrasebook of the ``messages`` domain: every sentence the table says by a code, as
the English message id that the catalogs translate.

The engine speaks in codes (a refusal's :class:`~cardavia.belote.Reason`, a score line's
code, an announcement's name); these tables give each code its words, marked with :func:`N_`
so that Babel's extractor finds them (the catalog test relies on it). The site's own errors
and the few pages it writes itself are here too: they are said through the same wording.

>>> REASONS["must_follow"]
'You must follow suit ({suit}).'
>>> PLURALS["too_large"][1]
'The message is too long: at most {count} bytes are accepted.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from cardavia.belote import CAPOT, GENERALE
from cardavia.words.filling import N_, NP_

STRAIN_NAMES: Final[Mapping[str, str]] = {"NT": N_("no trump"), "AT": N_("all trump")}
PHASE_REFUSALS: Final[Mapping[str, str]] = {
    "bidding": N_("That cannot be done now: the bidding is not over."),
    "playing": N_("That cannot be done now: the cards are being played."),
    "over": N_("That cannot be done now: the deal is over."),
    "cancelled": N_("That cannot be done now: the deal was cancelled."),
    "classic bidding": N_("At this table you take or pass: there are no bids with a value."),
    "auction": N_("At this table you bid a value and a suit, or pass."),
}
"""The engine's ``wrong_phase`` refusal, worded for each ``phase`` argument it gives."""

REASONS: Final[Mapping[str, str]] = {
    "must_follow": N_("You must follow suit ({suit})."),
    "must_overtrump": N_("You must play a higher trump. The trump to beat: {card}."),
    "must_beat": N_("You must play a higher card. The card to beat: {card}."),
    "must_trump": N_("You have no card of the suit led: you must trump ({suit})."),
    "must_undertrump": N_(
        "You cannot beat the trump on the table ({card}), but you must still play a trump ({suit})."
    ),
    "overtrump_if_trumping": N_(
        "If you trump, you must play higher than the trump on the table ({card})."
    ),
    "not_your_turn": N_("It is not your turn: {to_move} is to play."),
    "not_in_hand": N_("That card is not in your hand: {card}."),
    "not_an_action": N_("That is not something a player can do."),
    "must_take_turned_suit": N_("In the first round you may only take the turned suit ({suit})."),
    "strain_not_allowed": N_("In this round you cannot choose {strain}."),
    "bid_too_low": N_("Your bid must be higher than {value}."),
    "bid_not_allowed": N_("These rules have no such bid: {value} {strain}."),
    "cannot_coinche": N_("Only an opponent of the last bidder may coinche, and only once."),
    "cannot_surcoinche": N_("Only the team that bid may surcoinche, after a coinche."),
    "contract_frozen": N_("The coinche has frozen the contract: nobody may bid higher."),
    "no_announcement": N_("You have no announcement to make."),
    "announce_too_late": N_("Announcements are made with your first card only."),
    "no_announcements_in_rules": N_("These rules have no announcements."),
    "belote_automatic": N_("At this table belote is announced automatically."),
    "belote_not_held": N_(
        "You say belote with the first of the trump king and queen, holding both."
    ),
}
"""How each refusal code of the engine (``game.MESSAGES``) is said to the player, who is the
seat that tried: the sentences speak to them directly."""

ERRORS: Final[Mapping[str, str]] = {
    "bad_json": N_("The message could not be read: it is not valid JSON."),
    "not_an_object": N_("The message must be a JSON object."),
    "unknown_type": N_("Unknown message type: {type}."),
    "unknown_kind": N_("Unknown action: {kind}."),
    "missing_field": N_("Something is missing from the message: {field}."),
    "unknown_field": N_("The message has a field it should not have: {field}."),
    "bad_field": N_("This field has a wrong value: {field}."),
    "unknown_card": N_("There is no such card: {card}."),
    "unknown_strain": N_("There is no such trump choice: {strain}."),
    "bad_bid_value": N_("That is not a bid value: {value}."),
    "deal_not_over": N_("The deal is not over yet."),
    "match_over": N_("The match is over: start a new game."),
    "game_not_over": N_("This game is not over yet: play its next deal."),
    "game_not_found": N_("This game does not exist (or no longer exists)."),
    "missing_token": N_("This game can only be played with its access key."),
    "bad_token": N_("This access key does not open this game."),
    "unknown_rules": N_("Unknown rules: {rules}."),
    "unknown_level": N_("Unknown level: {level}."),
    "unknown_language": N_("Unknown language: {lang}."),
    "unknown_deck": N_("Unknown card deck: {deck}."),
    "not_found": N_("There is nothing at this address."),
    "internal": N_("Something went wrong on the server. Your game is saved: try again."),
    "stale": N_("The game changed elsewhere meanwhile: here it is as it stands."),
    "unavailable": N_(
        "The server cannot save right now. Your game is saved as it stands: try again in a moment."
    ),
    "bad_origin": N_("This request comes from another site: it is refused."),
    "not_json": N_("The request must be sent as JSON (application/json)."),
    "method_not_allowed": N_("This method is not allowed at this address."),
    "body_timeout": N_("The request took too long to arrive: send it again."),
    "rate_limited": N_("Too many requests: wait a moment, then try again."),
    "too_many_games": N_(
        "Too many games created from this address: wait a minute, then try again."
    ),
    "too_many_sockets": N_("Too many connections to this game: close one, then try again."),
    "too_slow": N_(
        "This connection could not keep up with the game: reconnect to see it as it stands."
    ),
    # Rooms (cardavia.web.rooms).
    "room_not_found": N_("There is no room with this code (or it has closed)."),
    "blank_name": N_("A display name needs at least one letter or digit that shows."),
    "seat_taken": N_("This seat is taken: choose another one."),
    "room_full": N_("Every seat of this room is taken."),
    "not_creator": N_("Only the player who created the room can do that."),
    "already_started": N_("The game has started: the seats can no longer change this way."),
    "not_started": N_("The game has not started yet."),
    "too_many_rooms": N_("Too many rooms created from this address: wait a while, or close one."),
    "too_many_attempts": N_("Too many wrong codes: wait a minute, then try again."),
    "unknown_phrase": N_("There is no such quick phrase: {value}."),
    "watching": N_("You are watching this table: watchers do not play."),
    "removed": N_("You no longer have a seat in this room."),
    # The action clock (cardavia.web.clock).
    "too_late": N_("Too late: the clock ran out, and a computer player made this move for you."),
    # Players (cardavia.web.routes.passkeys).
    "passkey_refused": N_("The passkey was not accepted: try again."),
    # Safety (cardavia.web.safety).
    "not_in_room": N_("You can only do that about a player of a room you sat in."),
    "not_a_person": N_(
        "Nobody sits in this seat: only a person can be blocked, reported or asked to be a friend."
    ),
    "yourself": N_("That is your own seat."),
    # Friends (cardavia.live.friends).
    "cannot_befriend": N_("You cannot ask this player to be your friend."),
    "no_watchers": N_("The players of this table no longer allow watchers."),
    # Told while the site is closed (cardavia.live.push).
    "push_unavailable": N_("This site sends no notifications while it is closed."),
    "bad_subscription": N_(
        "This browser's subscription to notifications could not be read: switch the setting "
        "off, then on again."
    ),
    # Quick play (cardavia.web.quickplay).
    "not_waiting": N_("You are no longer waiting for a table: press “Play now” again."),
    # Tournaments (cardavia.web.tournaments).
    "tournament_closed": N_("This tournament has closed: its deals can no longer be played."),
    "tournament_no_hints": N_(
        "No hints at a tournament table: everyone plays its deals on their own."
    ),
    "tournament_sealed": N_(
        "Every hand of this tournament deal, and its analysis, are shown once the tournament "
        "has closed."
    ),
}
"""The errors of the site itself (a malformed message, a wrong key, …) by code."""

PLURALS: Final[Mapping[str, tuple[str, str]]] = {
    "too_large": NP_(
        "The message is too long: at most {count} byte is accepted.",
        "The message is too long: at most {count} bytes are accepted.",
    ),
    "reserve": NP_(
        "Litige: {count} point waits for the winner of the next deal.",
        "Litige: {count} points wait for the winner of the next deal.",
    ),
    "bad_name": NP_(
        "Choose a display name of 1 to {count} letter.",
        "Choose a display name of 1 to {count} letters.",
    ),
}
"""Messages whose wording depends on a number, ``(singular, plural)``: the errors
``too_large`` and ``bad_name`` (the number is ``args["count"]``) and the score line
``reserve``."""


BID_WORDS: Final[Mapping[str, str]] = {
    "pass": N_("Pass"),
    "take": N_("Takes {strain}"),
    "bid": N_("{value} {strain}"),
    "coinche": N_("Coinche"),
    "surcoinche": N_("Surcoinche"),
}
"""A bid as the bidding history records it ("West: Takes clubs", "Ouest : Prend à trèfle"),
never as the button that makes it."""
CHOICE_WORDS: Final[Mapping[str, str]] = {"take": N_("Take: {strain}")}
"""A bid as a choice offered (a button, a problem's answers, the analysis's better bid):
"Take: clubs", "Prendre à trèfle"; the other bids read the same either way."""
BID_VALUE_WORDS: Final[Mapping[int, str]] = {CAPOT: N_("Capot"), GENERALE: N_("Générale")}
ANNOUNCEMENT_NAMES: Final[Mapping[str, str]] = {
    "tierce": N_("Tierce"),
    "cinquante": N_("Fifty"),
    "cent": N_("Hundred"),
    "carré": N_("Carré"),
}
"""The engine's names of announcements (:attr:`Announcement.name`), as the table says them."""
BELOTE_WORDS: Final[Mapping[str, str]] = {"belote": N_("Belote!"), "rebelote": N_("Rebelote!")}
SCORE_LINES: Final[Mapping[str, str]] = {
    "cards": N_("Card points"),
    "last_trick": N_("Last trick (dix de der)"),
    "capot": N_("Capot: all eight tricks ({points})"),
    "announcement": N_("{name} ({seat})"),
    "belote": N_("Belote–rebelote"),
    "contract_made": N_("Contract made"),
    "contract_failed": N_("Contract failed"),
    "contract_litige": N_("Litige: a tie"),
    "multiplier": N_("Multiplied by {multiplier}"),
    "rounding": N_("Rounded to the nearest ten"),
    "total": N_("Score of the deal"),
}
"""The lines of a deal's score breakdown (:class:`ScoreLine.code`); ``reserve`` is plural."""


PRESET_NAMES: Final[Mapping[str, str]] = {
    "cardavia": N_("Cardavia table"),
    "maison": N_("House rules"),
    "coinche": N_("Coinche (official rules)"),
    "maghreb": N_("Maghreb (Spanish deck)"),
}
PRESET_DESCRIPTIONS: Final[Mapping[str, str | tuple[str, str]]] = {
    "cardavia": N_("A single deal: you and your partner against two opponents."),
    "maison": NP_(
        "A match to {target} point, with announcements.",
        "A match to {target} points, with announcements.",
    ),
    "coinche": NP_(
        "A match to {target} point: an auction, coinche and surcoinche.",
        "A match to {target} points: an auction, coinche and surcoinche.",
    ),
    "maghreb": NP_(
        "A match to {target} point with the Spanish deck and announcements.",
        "A match to {target} points with the Spanish deck and announcements.",
    ),
}
"""A preset's one line: a match's is a plural message, by its target (Polish "do 1000
punktów", Arabic "حتى 1000 نقطة")."""
LEVEL_NAMES: Final[Mapping[str, str]] = {
    "beginner": N_("Beginner"),
    "club": N_("Club player"),
    "strong": N_("Strong"),
    "expert": N_("Expert"),
}
"""The computer players' levels as the new-game form names them (later levels included)."""
PAGE_TEXTS: Final[Mapping[str, str]] = {
    "not_found_title": N_("Page not found"),
    "not_found": N_("There is no page at this address."),
    "choose_language": N_("Choose your language:"),
}
"""The few words of the pages the server writes itself (the 404 page)."""
