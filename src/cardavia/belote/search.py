"""The engine's second face: the internals that the computer players' search needs.

:mod:`cardavia.belote` is the engine's public face, and everything else of the project uses
it alone. The computer players (:mod:`cardavia.ai`) are the one exception, on purpose: a
search plays millions of cards in its head, so it works on the engine's own representation
(cards as bits of a 32-bit mask, a trick's winner by index, a contract's points as plain
ints) rather than on the public values, and it scores imagined deals with the very functions
that score real ones, so that its idea of a deal's outcome is never a copy that drifts from
the rules. Those functions are named here, and only here, for :mod:`cardavia.ai` (an
import-linter contract in pyproject.toml keeps it to :mod:`cardavia.belote` and this module);
the site, the terminal and the rules oracle use the public face only.

Nothing is defined here: each name stays where the engine defines and tests it. What the
rules pages teach as well (:func:`~cardavia.belote.belote_pairs`,
:func:`~cardavia.belote.comparison_winner`, :func:`~cardavia.belote.deal_points`,
:func:`~cardavia.belote.capot_value`, :data:`~cardavia.belote.USUAL_CARD_TOTAL`) is on the
public face, and the search takes it from there.

- masks of cards: :data:`FULL_MASK`, :data:`SUIT_MASKS`, :data:`RANK_MASKS`;
- the play: :func:`winning_index` (the card winning a trick so far), :func:`constraint`
  (which cards a seat may play, as a rule over masks);
- the auction: :func:`auction_status`, :func:`classic_status` (where the bidding stands),
  :func:`auction_strains`, :func:`classic_strains`, :func:`bid_values`,
  :func:`top_numbered_bid` (what may be bid);
- announcements: :data:`BELOTE_POINTS`;
- scoring: :data:`USUAL_DEAL_TOTAL`, :func:`deal_outcome`, :func:`score_deal`,
  :func:`round_score`;
- dealing: :func:`cut_and_shuffle` (the arena deals as the table does).
"""

from cardavia.belote.announcements import (
    BELOTE_POINTS,
    RANK_MASKS,
)
from cardavia.belote.auction import (
    auction_status,
    auction_strains,
    bid_values,
    classic_status,
    classic_strains,
    top_numbered_bid,
)
from cardavia.belote.cards import FULL_MASK, SUIT_MASKS
from cardavia.belote.game import cut_and_shuffle
from cardavia.belote.play import constraint, winning_index
from cardavia.belote.scoring import (
    USUAL_DEAL_TOTAL,
    deal_outcome,
    round_score,
    score_deal,
)

__all__ = [
    "BELOTE_POINTS",
    "FULL_MASK",
    "RANK_MASKS",
    "SUIT_MASKS",
    "USUAL_DEAL_TOTAL",
    "auction_status",
    "auction_strains",
    "bid_values",
    "classic_status",
    "classic_strains",
    "constraint",
    "cut_and_shuffle",
    "deal_outcome",
    "round_score",
    "score_deal",
    "top_numbered_bid",
    "winning_index",
]
