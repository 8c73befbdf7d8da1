"""The names of seats, suits, ranks and cards in each language, as the site's modules still
import them: :mod:`cardavia.words.names` is their home. Nothing in :mod:`cardavia.teach`
imports this module; it goes once the site imports :mod:`cardavia.words`.
"""

from cardavia.words.languages import LANGUAGES
from cardavia.words.names import (
    card_forms,
    card_name,
    card_short,
    rank_forms,
    rank_name,
    seat_name,
    suit_name,
    team_name,
)

__all__ = [
    "LANGUAGES",
    "card_forms",
    "card_name",
    "card_short",
    "rank_forms",
    "rank_name",
    "seat_name",
    "suit_name",
    "team_name",
]
