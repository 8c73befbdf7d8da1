"""The coinche auction, move by move (docs/rules.md 4, rules-decisions.md "The auction").

An auction is the list of what was said, each move a plain tuple: ``("N", "pass")``,
``("N", "bid", 80, "H")`` (the value a number, or the word ``"capot"`` or ``"generale"``),
``("E", "coinche")``, ``("S", "surcoinche")``. :func:`auction_moves` says which moves may be
made next; it is written again from the rules, without the engine.

>>> sorted(auction_moves(KNOBS, "W", [("N", "bid", 80, "H"), ("E", "coinche")]))
[('S', 'pass'), ('S', 'surcoinche')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardavia.verify.cards import ALL_TRUMP, NO_TRUMP, SUITS, next_seat, team_of
from cardavia.verify.knobs import knob_choice, knob_flag

Move = tuple[object, ...]
"""One move of the auction: (seat, "pass" | "coinche" | "surcoinche") or (seat, "bid", value,
contract)."""

KNOBS: Mapping[str, object] = {
    "top_bids": "capot",
    "auction_contracts": False,
    "coinche_any_time": False,
    "outbid_after_coinche": False,
}
"""The knobs this module reads, as the coinche preset sets them (for the example above)."""


def bid_order(knobs: Mapping[str, object]) -> list[int | str]:
    """The values one may bid, from the lowest (docs/rules.md 4): 80, 90 … 160 then capot; with
    top_bids generale, 80 … 180, capot, générale."""
    if knob_choice(knobs, "top_bids", ("capot", "generale")) == "generale":
        return [*range(80, 190, 10), "capot", "generale"]
    return [*range(80, 170, 10), "capot"]


def bid_contracts(knobs: Mapping[str, object]) -> list[str]:
    """The contracts one may bid (docs/rules.md 4): the four suits; with auction_contracts, also
    no-trump and all-trump."""
    if knob_flag(knobs, "auction_contracts"):
        return [*SUITS, NO_TRUMP, ALL_TRUMP]
    return list(SUITS)


@dataclass
class AuctionSoFar:
    """What the moves so far have left: the turn, the highest bid, the coinche."""

    to_move: str
    bidder: str | None = None
    """The seat of the highest bid."""
    value: object = None
    """The value of the highest bid (a number, "capot" or "generale")."""
    coinche: int = 0
    """0; 1 after a coinche; 2 after a surcoinche."""
    passes: int = 0
    """Passes in a row since the last bid or coinche (or since the start)."""
    over: bool = False


def follow_auction(dealer: str, moves: Sequence[Move]) -> AuctionSoFar:
    """Where the auction stands after ``moves`` (docs/rules.md 4). The dealer's next speaks first;
    each move passes the turn to the next seat, except a coinche said out of turn
    (coinche_any_time). The auction is over after a surcoinche, after three passes in a row
    following a bid or a coinche, or after four passes without any bid."""
    so_far = AuctionSoFar(to_move=next_seat(dealer))
    for move in moves:
        seat, word = str(move[0]), move[1]
        if word == "pass":
            so_far.passes += 1
        elif word == "bid":
            # A bid cancels a coinche (possible only with outbid_after_coinche).
            so_far.bidder, so_far.value = str(seat), move[2]
            so_far.coinche = 0
            so_far.passes = 0
        elif word == "coinche":
            so_far.coinche = 1
            so_far.passes = 0
        elif word == "surcoinche":
            so_far.coinche = 2
        if seat == so_far.to_move:
            so_far.to_move = next_seat(so_far.to_move)
    if so_far.coinche == 2:
        so_far.over = True
    elif so_far.bidder is None:
        so_far.over = so_far.passes >= 4
    else:
        so_far.over = so_far.passes >= 3
    return so_far


def auction_moves(knobs: Mapping[str, object], dealer: str, moves: Sequence[Move]) -> set[Move]:
    """Every move that may be made now (none once the auction is over).

    docs/rules.md 4: the player to move may pass, or bid higher than the highest bid. An opponent
    of the highest bidder may coinche it, in turn (or out of turn with coinche_any_time),
    once. A coinche freezes the contract (FFB: "le fait de coincher fige le contrat"): after
    it nobody bids, and a player of the bidder's team may surcoinche in turn, or pass; with
    outbid_after_coinche (house tables) anyone may still bid higher, which cancels it.
    """
    so_far = follow_auction(dealer, moves)
    if so_far.over:
        return set()
    seat = so_far.to_move
    allowed: set[Move] = {(seat, "pass")}

    may_bid = so_far.coinche == 0 or knob_flag(knobs, "outbid_after_coinche")
    if may_bid:
        values = bid_order(knobs)
        if so_far.bidder is not None:
            values = values[[str(v) for v in values].index(str(so_far.value)) + 1 :]
        for value in values:
            for contract in bid_contracts(knobs):
                allowed.add((seat, "bid", value, contract))

    if so_far.bidder is not None:
        bidders = team_of(so_far.bidder)
        if so_far.coinche == 0:
            if knob_flag(knobs, "coinche_any_time"):
                coinchers = [s for s in ("N", "E", "S", "W") if team_of(s) != bidders]
            else:
                coinchers = [seat] if team_of(seat) != bidders else []
            for coincher in coinchers:
                allowed.add((coincher, "coinche"))
        elif so_far.coinche == 1 and team_of(seat) == bidders:
            allowed.add((seat, "surcoinche"))
    return allowed
