"""Teaching the rules: each language's names for cards, the worked examples of the rules
pages, and the words that explain them.

- :mod:`cardavia.teach.names`: seats, suits, ranks and cards named in French, English, Arabic,
  Polish, Hindi and Spanish, for the French and the Spanish-suited deck (also the table's
  screen-reader labels).
- :mod:`cardavia.teach.examples`: the examples as data, computed by the engine and verified by
  :mod:`cardavia.verify`.
- :mod:`cardavia.teach.explain` and :mod:`cardavia.teach.pages`: the pages' content, every
  sentence generated from the example it explains (:mod:`cardavia.teach.catalog`: the
  ``rules`` gettext domain).
- :mod:`cardavia.teach.pictures`: the cards drawn as SVG.

>>> from cardavia.belote.cards import parse_card
>>> card_name(parse_card("JH"), "hi")
'पान का गुलाम'
>>> all_verified()
True
"""

from cardavia.teach.examples import (
    ANNOUNCEMENT_EXAMPLES,
    LEGAL_EXAMPLES,
    SCORING_EXAMPLES,
    all_verified,
    announcement_results,
    legal_results,
    scoring_results,
)
from cardavia.teach.names import (
    LANGUAGES,
    card_name,
    card_short,
    rank_name,
    seat_name,
    suit_name,
    team_name,
)

__all__ = [
    "ANNOUNCEMENT_EXAMPLES",
    "LANGUAGES",
    "LEGAL_EXAMPLES",
    "SCORING_EXAMPLES",
    "all_verified",
    "announcement_results",
    "card_name",
    "card_short",
    "legal_results",
    "rank_name",
    "scoring_results",
    "seat_name",
    "suit_name",
    "team_name",
]
