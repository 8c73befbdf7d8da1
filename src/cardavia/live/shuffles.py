"""How a deal is shuffled, and how a player checks it (docs/fair-deals.md): each deal is
dealt from a secret seed whose hash is shown before the deal, the seed once it is over."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardavia.belote import deck_from_seed, seed_hash

FAIR_ALGORITHM: Final = "cardavia-deck/1"
"""How a deck is derived from its seed (docs/fair-deals.md)."""
SEED_BYTES: Final = 32
"""The length of a deal's secret seed."""


@dataclass(frozen=True, slots=True)
class Commitment:
    """How a deal was shuffled (docs/fair-deals.md): its secret seed and the seed's hash,
    shown before the deal; the seed is shown once the deal is over."""

    seed: str
    """The seed, in hexadecimal: never sent before the deal is over."""
    hash: str


def new_commitment(seed: bytes) -> tuple[Commitment, tuple[int, ...]]:
    """The commitment of a seed and the deck it deals."""
    return Commitment(seed.hex(), seed_hash(seed)), deck_from_seed(seed)


def commitment_of(seed: str) -> Commitment:
    """The commitment of a seed kept in hexadecimal."""
    return Commitment(seed, seed_hash(bytes.fromhex(seed)))


__all__ = ["FAIR_ALGORITHM", "SEED_BYTES", "Commitment", "commitment_of", "new_commitment"]
