"""The two bidding systems and the contract they end in (docs/rules.md 4).

The classic table bids in two rounds around a turned card (seed 004); the coinche table holds
an auction with values, coinche and surcoinche (FFB contrée). Both are read off the sequence
of bids made so far, so that a state needs to keep nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from cardavia.belote.actions import CAPOT, GENERALE, Action, Bid, Coinche, Pass, Surcoinche, Take
from cardavia.belote.cards import Seat, Suit, Team
from cardavia.belote.play import Strain
from cardavia.belote.rules import Rules

MULTIPLIERS: Final = (1, 2, 4)
"""Score multiplier by coinche level: none, coinched, surcoinched (docs/rules.md 8)."""


@dataclass(frozen=True, slots=True)
class Contract:
    """What the bidding decided: who took, what is trump, and (coinche) the bid and doubling."""

    taker: Seat
    strain: Strain
    bid: int | None = None
    """The auction's value (80 … 180, capot 250, générale 500); ``None`` at classic tables."""
    coinche: int = 0
    """0, 1 coinched (×2), 2 surcoinched (×4)."""

    @property
    def team(self) -> Team:
        """The takers' team."""
        return self.taker.team

    @property
    def multiplier(self) -> int:
        """×1, ×2 (coinche) or ×4 (surcoinche)."""
        return MULTIPLIERS[self.coinche]

    @property
    def is_capot(self) -> bool:
        """A capot bid: all eight tricks for the takers."""
        return self.bid == CAPOT

    @property
    def is_generale(self) -> bool:
        """A générale bid: all eight tricks for the taker alone."""
        return self.bid == GENERALE

    def __str__(self) -> str:
        text = f"{self.taker.name} {self.strain.code}"
        if self.bid is not None:
            word = {CAPOT: "capot", GENERALE: "generale"}.get(self.bid, str(self.bid))
            text = f"{self.taker.name} {word} {self.strain.code}"
        return text + ("", " coinche", " surcoinche")[self.coinche]


def bid_values(rules: Rules) -> tuple[int, ...]:
    """The values one may bid, in order (docs/rules.md 4: 80 … 160 then capot; with ``top_bids``
    ``generale`` also 170, 180 and générale)."""
    return _BID_VALUES[rules.top_bids]


def top_numbered_bid(rules: Rules) -> int:
    """The highest bid below capot (docs/rules.md 4: 160; 180 with ``top_bids`` ``generale``)."""
    return _TOP_NUMBERED[rules.top_bids]


def auction_strains(rules: Rules) -> tuple[Strain, ...]:
    """The strains one may bid: the suits, and no-trump / all-trump with ``auction_contracts``."""
    return _ALL_STRAINS if rules.auction_contracts else _SUIT_STRAINS


_BID_VALUES: Final = {
    "capot": (*range(80, 161, 10), CAPOT),
    "generale": (*range(80, 181, 10), CAPOT, GENERALE),
}
_TOP_NUMBERED: Final[dict[str, int]] = {
    name: max(v for v in values if v < CAPOT) for name, values in _BID_VALUES.items()
}
_ALL_STRAINS: Final = tuple(Strain)
_SUIT_STRAINS: Final = _ALL_STRAINS[:4]


@dataclass(frozen=True, slots=True)
class ClassicStatus:
    """Where a classic bidding stands: the round, and the contract if someone took."""

    round: int
    contract: Contract | None
    cancelled: bool


def classic_status(bids: Sequence[Action]) -> ClassicStatus:
    """The status of two-round bidding after ``bids`` (docs/rules.md 4, seed 004)."""
    for bid in bids:
        if isinstance(bid, Take):
            return ClassicStatus(1 if len(bids) <= 4 else 2, Contract(bid.seat, bid.strain), False)
    if len(bids) >= 8:
        return ClassicStatus(2, None, True)
    return ClassicStatus(1 if len(bids) < 4 else 2, None, False)


def classic_strains(rules: Rules, round_: int, turned_suit: Suit) -> tuple[Strain, ...]:
    """What may be taken: round 1 the turned suit; round 2 any other suit, and no-trump or
    all-trump with ``round2_contracts`` (docs/rules.md 4)."""
    return _classic_strains(round_ == 1, rules.round2_contracts, int(turned_suit))


@cache
def _classic_strains(first_round: bool, round2_contracts: bool, turned: int) -> tuple[Strain, ...]:
    """:func:`classic_strains`, made once for each case (it is asked at every classic bid)."""
    if first_round:
        return (_ALL_STRAINS[turned],)
    others = tuple(strain for strain in _SUIT_STRAINS if strain != turned)
    return (*others, Strain.NO_TRUMP, Strain.ALL_TRUMP) if round2_contracts else others


@dataclass(frozen=True, slots=True)
class AuctionStatus:
    """Where a coinche auction stands."""

    best: Bid | None
    """The highest bid so far."""
    coinche: int
    """0, 1 after a coinche, 2 after a surcoinche."""
    coincher: Seat | None
    passes: int
    """Passes in a row since the last bid or coinche (or since the start)."""
    over: bool
    cancelled: bool

    @property
    def contract(self) -> Contract | None:
        """The contract, once the auction is over with a bid."""
        if not self.over or self.best is None:
            return None
        return Contract(self.best.seat, self.best.strain, self.best.value, self.coinche)


def can_outbid(rules: Rules, status: AuctionStatus) -> bool:
    """Whether a bid may still be made: not after a coinche (docs/rules.md 4; FFB contrée: "le
    fait de coincher fige le contrat, empêchant ainsi toute possibilité de surenchère"),
    unless ``outbid_after_coinche`` (house tables, where an outbid cancels the coinche)."""
    return status.coinche == 0 or rules.outbid_after_coinche


def auction_status(bids: Sequence[Action]) -> AuctionStatus:
    """The status of a coinche auction after ``bids`` (docs/rules.md 4, docs/rules-decisions.md)."""
    best: Bid | None = None
    coinche = 0
    coincher: Seat | None = None
    passes = 0
    for bid in bids:
        if isinstance(bid, Pass):
            passes += 1
        elif isinstance(bid, Bid):
            # A bid after a coinche (outbid_after_coinche only) cancels the coinche.
            best, coinche, coincher, passes = bid, 0, None, 0
        elif isinstance(bid, Coinche):
            coinche, coincher, passes = 1, bid.seat, 0
        elif isinstance(bid, Surcoinche):
            coinche = 2
    if coinche == 2:
        return AuctionStatus(best, 2, coincher, passes, True, False)
    if best is None:
        return AuctionStatus(None, 0, None, passes, passes >= 4, passes >= 4)
    return AuctionStatus(best, coinche, coincher, passes, passes >= 3, False)
