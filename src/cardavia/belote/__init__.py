"""The belote rules engine: pure functions and immutable values, no I/O, no clock, no global
random. Everything else in Cardavia stands on it.

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
)
from cardavia.belote.announcements import Announcement, best_announcements
from cardavia.belote.auction import Contract
from cardavia.belote.cards import (
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
    parse_card,
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
from cardavia.belote.game import DealState
from cardavia.belote.match import Match
from cardavia.belote.notation import DealRecord, Record, RecordError, read_record, write_record
from cardavia.belote.observation import Observation
from cardavia.belote.play import Strain
from cardavia.belote.rules import PRESETS, Rules, find_rules
from cardavia.belote.scoring import DealScore

__all__ = [
    "CAPOT",
    "FRENCH",
    "GENERALE",
    "PRESETS",
    "SPANISH",
    "Action",
    "Announcement",
    "BeloteEvent",
    "Bid",
    "Card",
    "CardChoice",
    "CardSet",
    "Coinche",
    "CompletedTrick",
    "Contract",
    "DealRecord",
    "DealScore",
    "DealState",
    "Deck",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "Match",
    "Observation",
    "Pass",
    "Phase",
    "Play",
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
    "best_announcements",
    "card_choice",
    "card_code",
    "find_rules",
    "parse_action",
    "parse_card",
    "read_record",
    "write_record",
]
