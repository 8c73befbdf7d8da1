"""Deals anyone can check: the commitment to the seed, the deck derived from it, and every
kind of tampering caught."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from cardavia.belote.cards import card_code, parse_card
from cardavia.belote.fair import check_deal, deck_from_seed, parse_hex, seed_hash

ZERO_DECK = (
    "7D AS JS 7H 8C AC KH JH QC 7S JD 9C TS QD 8S TD "
    "QH 7C TH TC 9D JC 9S KD AD QS AH KC 8D 9H 8H KS"
)


def documented(seed: bytes) -> list[int]:
    """The derivation exactly as docs/fair-deals.md writes it."""

    def numbers() -> Iterator[int]:
        k = 0
        while True:
            block = hmac.new(
                seed, b"cardavia-deck/1" + k.to_bytes(4, "big"), hashlib.sha256
            ).digest()
            for start in range(0, 32, 4):
                yield int.from_bytes(block[start : start + 4], "big")
            k += 1

    deck, stream = list(range(32)), numbers()
    for i in range(31, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_published_vector() -> None:
    seed = bytes(32)
    assert seed_hash(seed) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    assert " ".join(card_code(c) for c in deck_from_seed(seed)) == ZERO_DECK


@pytest.mark.parametrize("n", range(20))
def test_the_code_follows_the_document(n: int) -> None:
    seed = random.Random(n).randbytes(32)
    assert list(deck_from_seed(seed)) == documented(seed)
    assert sorted(deck_from_seed(seed)) == list(range(32))


def test_commit_then_reveal_round_trips() -> None:
    seed = random.Random(7).randbytes(32)
    commitment = seed_hash(seed)  # shown before the deal
    deck = deck_from_seed(seed)  # dealt
    check = check_deal(seed.hex(), commitment, deck)  # after the deal, by anyone
    assert check.ok and check.problem is None and check.deck == deck
    assert check_deal(seed.hex().upper(), f" {commitment.upper()} ", list(deck)).ok


def test_tampering_is_caught() -> None:
    seed = random.Random(8).randbytes(32)
    commitment = seed_hash(seed)
    deck = deck_from_seed(seed)
    # Two cards swapped in the deck dealt.
    swapped = list(deck)
    swapped[0], swapped[5] = swapped[5], swapped[0]
    assert check_deal(seed.hex(), commitment, swapped).problem == "deck_mismatch"
    # Another seed revealed (one bit flipped): its hash is not the one shown.
    other = bytes([seed[0] ^ 1]) + seed[1:]
    assert check_deal(other.hex(), commitment, deck_from_seed(other)).problem == "seed_mismatch"
    # A commitment changed after the fact.
    assert check_deal(seed.hex(), seed_hash(other), deck).problem == "seed_mismatch"
    # Not a seed, not a hash.
    assert check_deal("xyz", commitment, deck).problem == "bad_seed"
    assert check_deal(seed.hex()[:-2], commitment, deck).problem == "bad_seed"
    assert check_deal(seed.hex(), "00", deck).problem == "bad_hash"
    assert parse_hex("g" * 64) is None


def test_every_card_lands_everywhere_alike() -> None:
    """A loose check of the shuffle's fairness: where the ace of spades lands over many seeds."""
    ace = parse_card("AS")
    places = Counter(deck_from_seed(random.Random(n).randbytes(32)).index(ace) for n in range(3200))
    assert len(places) == 32
    expected = 100
    chi2 = sum((count - expected) ** 2 / expected for count in places.values())
    assert chi2 < 70  # 31 degrees of freedom: above 70 happens with odds below one in 10,000
