"""The belote rules engine: pure functions and immutable values, no I/O, no clock, no global
random. Everything else in Cardavia stands on it.

This module is the engine's public face: what ``__all__`` names here is what the site, the
terminal, the rules oracle and the rules pages use (an import-linter contract keeps them to
it): the game's values and actions, and the rules' own numbers and judgements that a player
is taught (what a carré is worth, what a deal or a capot is worth, which announcement wins the
comparison). The submodules are the engine's own business and the computer players'.

>>> import random
>>> from cardavia.belote import DealState, Seat, find_rules
>>> state = DealState.deal(find_rules("maison"), dealer=Seat.N, rng=random.Random(1))
>>> len(state.hand(Seat.E)), state.to_move
(5, <Seat.E: 1>)
"""

from cardavia.belote.actions import (
    CAPOT,
    GENERALE,
    Action,
    Bid,
    Coinche,
    InvalidActionError,
    Pass,
    Play,
    Surcoinche,
    Take,
    parse_action,
    parse_bid_value,
)
from cardavia.belote.announcements import (
    CARRE_POINTS,
    Announcement,
    belote_pairs,
    best_announcements,
    classify,
    comparison_winner,
)
from cardavia.belote.auction import Contract
from cardavia.belote.cards import (
    ALL_CARDS,
    DECKS,
    FRENCH,
    SPANISH,
    Card,
    CardSet,
    Deck,
    InvalidCardError,
    Rank,
    Seat,
    Suit,
    Team,
    card_code,
    mask_cards,
    parse_card,
    parse_seat,
)
from cardavia.belote.deal import (
    BeloteEvent,
    CardChoice,
    CompletedTrick,
    IllegalActionError,
    Phase,
    Reason,
    card_choice,
)
from cardavia.belote.fair import DealCheck, check_deal, deck_from_seed, seed_hash
from cardavia.belote.game import DealState
from cardavia.belote.match import Match
from cardavia.belote.notation import DealRecord, Record, RecordError, read_record, write_record
from cardavia.belote.observation import Declaration, Observation
from cardavia.belote.play import (
    LAST_TRICK_BONUS,
    CardValues,
    Strain,
    trick_points,
    trick_winner,
    values_for,
)
from cardavia.belote.position import Position
from cardavia.belote.rules import ALIASES, PRESETS, Rules, find_rules
from cardavia.belote.scoring import USUAL_CARD_TOTAL, DealScore, capot_value, deal_points

__all__ = [
    "ALIASES",
    "ALL_CARDS",
    "CAPOT",
    "CARRE_POINTS",
    "DECKS",
    "FRENCH",
    "GENERALE",
    "LAST_TRICK_BONUS",
    "PRESETS",
    "SPANISH",
    "USUAL_CARD_TOTAL",
    "Action",
    "Announcement",
    "BeloteEvent",
    "Bid",
    "Card",
    "CardChoice",
    "CardSet",
    "CardValues",
    "Coinche",
    "CompletedTrick",
    "Contract",
    "DealCheck",
    "DealRecord",
    "DealScore",
    "DealState",
    "Deck",
    "Declaration",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "Match",
    "Observation",
    "Pass",
    "Phase",
    "Play",
    "Position",
    "Rank",
    "Reason",
    "Record",
    "RecordError",
    "Rules",
    "Seat",
    "Strain",
    "Suit",
    "Surcoinche",
    "Take",
    "Team",
    "belote_pairs",
    "best_announcements",
    "capot_value",
    "card_choice",
    "card_code",
    "check_deal",
    "classify",
    "comparison_winner",
    "deal_points",
    "deck_from_seed",
    "find_rules",
    "mask_cards",
    "parse_action",
    "parse_bid_value",
    "parse_card",
    "parse_seat",
    "read_record",
    "seed_hash",
    "trick_points",
    "trick_winner",
    "values_for",
    "write_record",
]
