"""Deals anyone can check: the deck derived from a secret seed by a published algorithm, and
the seed committed to before the deal by its hash (docs/fair-deals.md).

Before a deal the server draws a seed (32 random bytes, ``secrets.token_bytes(32)``) and
shows its SHA-256 hash; it deals :func:`deck_from_seed` of it. Once the deal is over it
reveals the seed, and anyone recomputes the hash and the deck (:func:`check_deal`): a seed
that does not match the hash, or a deck that is not the one the seed gives, is caught.

The derivation is pure (no clock, no global random), so the browser, the command line
(``cardavia verify-deal``) and a reader with the document in hand all find the same deck:

1. a stream of bytes: HMAC-SHA256 with the seed as key of ``b"cardavia-deck/1"`` followed by
   a 4-byte big-endian counter (0, 1, 2, …), the blocks laid end to end, read as 32-bit
   big-endian unsigned integers;
2. a Fisher–Yates shuffle of the cards in code order (``7S 8S … AS 7H … AC``): for ``i``
   from 31 down to 1, draw integers until one is below ``2**32 - 2**32 % (i + 1)``
   (rejection, so that every position is exactly as likely) and swap card ``i`` with card
   ``x % (i + 1)``;
3. the shuffled list is the deck in the order dealt (:meth:`DealState.from_deck`).

>>> seed = bytes(32)
>>> commitment = seed_hash(seed)
>>> commitment[:16]
'66687aadf862bd77'
>>> deck = deck_from_seed(seed)
>>> check_deal(seed.hex(), commitment, deck).ok
True
>>> check_deal(seed.hex(), commitment, deck[1:] + deck[:1]).problem
'deck_mismatch'
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from cardavia.belote.cards import ALL_CARDS, Card

ALGORITHM: Final = "cardavia-deck/1"
"""The name and version of the derivation; also the HMAC message's prefix."""

SEED_BYTES: Final = 32

Problem = Literal["bad_seed", "bad_hash", "seed_mismatch", "deck_mismatch"]
"""Why a deal fails its check: the seed or the hash is not well formed (64 hexadecimal
digits), the seed's hash is not the one shown before the deal, or the deck dealt is not the
one the seed gives."""


def seed_hash(seed: bytes) -> str:
    """The commitment shown before the deal: the seed's SHA-256, in hexadecimal."""
    return hashlib.sha256(seed).hexdigest()


def _stream(seed: bytes) -> Iterator[int]:
    """32-bit big-endian integers from HMAC-SHA256(seed, ALGORITHM ‖ counter)."""
    counter = 0
    prefix = ALGORITHM.encode("ascii")
    while True:
        block = hmac.new(seed, prefix + counter.to_bytes(4, "big"), hashlib.sha256).digest()
        for start in range(0, len(block), 4):
            yield int.from_bytes(block[start : start + 4], "big")
        counter += 1


def deck_from_seed(seed: bytes) -> tuple[Card, ...]:
    """The 32 cards in the order dealt, derived from ``seed`` (the module's steps 1–3)."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")
    deck = list(ALL_CARDS)
    numbers = _stream(seed)
    for i in range(len(deck) - 1, 0, -1):
        size = i + 1
        limit = 2**32 - 2**32 % size
        x = next(numbers)
        while x >= limit:
            x = next(numbers)
        j = x % size
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def parse_hex(text: str, *, size: int = SEED_BYTES) -> bytes | None:
    """``size`` bytes written in hexadecimal (case and surrounding blanks ignored), or
    ``None``."""
    text = text.strip().lower()
    if len(text) != 2 * size or any(c not in "0123456789abcdef" for c in text):
        return None
    return bytes.fromhex(text)


@dataclass(frozen=True, slots=True)
class DealCheck:
    """The result of checking a revealed seed against its commitment and the deck dealt."""

    problem: Problem | None
    deck: tuple[Card, ...] = ()
    """The deck the seed gives (empty if the seed is not well formed)."""

    @property
    def ok(self) -> bool:
        return self.problem is None


def check_deal(seed: str, commitment: str, dealt: Sequence[Card] | None = None) -> DealCheck:
    """Check a revealed ``seed`` (hexadecimal) against the ``commitment`` shown before the
    deal and, if given, the deck ``dealt``."""
    raw = parse_hex(seed)
    if raw is None:
        return DealCheck("bad_seed")
    deck = deck_from_seed(raw)
    if parse_hex(commitment) is None:
        return DealCheck("bad_hash", deck)
    if not hmac.compare_digest(seed_hash(raw), commitment.strip().lower()):
        return DealCheck("seed_mismatch", deck)
    if dealt is not None and tuple(dealt) != deck:
        return DealCheck("deck_mismatch", deck)
    return DealCheck(None, deck)


__all__ = [
    "ALGORITHM",
    "DealCheck",
    "Problem",
    "check_deal",
    "deck_from_seed",
    "parse_hex",
    "seed_hash",
]
