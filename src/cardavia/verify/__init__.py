"""The second, independent check of the belote rules, written from docs/rules.md alone.

Cardavia's rules engine (:mod:`cardavia.belote`) is fast; this package is slow and plain, so
that a person can check each rule against ``docs/rules.md`` by eye and the two can be compared on
many deals. It shares nothing with the engine but the card codes: rank then suit, ranks
``7 8 9 T J Q K A``, suits ``S H D C`` (``JH``, ``TD``). Seats are ``N E S W`` (play order
N -> E -> S -> W), teams ``NS`` and ``EW``; a contract is ``S``, ``H``, ``D``, ``C``, ``NT`` or
``AT``; a rule set is a mapping of the knobs named in ``docs/rules-decisions.md``.

>>> sorted(legal_cards({}, "H", [("W", "AS")], "N", ["KS", "7S", "JH", "9C", "TD"]))
['7S', 'KS']
>>> trick_winner("H", [("S", "AS"), ("W", "TS"), ("N", "7S"), ("E", "JH")])
'E'
>>> announcement_value(["7H", "8H", "9H"], "S")
('sequence', 20)
"""

from cardavia.verify.announcements import (
    announcement_value,
    announcement_winner,
    best_announcements,
)
from cardavia.verify.auction import auction_moves
from cardavia.verify.cards import card_points, trick_points
from cardavia.verify.checks import deal_problems
from cardavia.verify.play import legal_cards, trick_winner
from cardavia.verify.scoring import score_deal

__all__ = [
    "announcement_value",
    "announcement_winner",
    "auction_moves",
    "best_announcements",
    "card_points",
    "deal_problems",
    "legal_cards",
    "score_deal",
    "trick_points",
    "trick_winner",
]
