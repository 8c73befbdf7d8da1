"""Systematic resampling: drawing from weighted samples so that each is kept in proportion to
its weight, with the least noise a draw can add.

Both search levels draw many candidate deals cheaply and keep fewer of them, by their
weights, for the costly part (the bidding simulation: :func:`cardavia.ai.bidding.draw_worlds`;
expert's card play: :mod:`cardavia.ai.expert`). One uniform number places ``count`` evenly
spaced pointers on the weights laid end to end (Kitagawa 1996; Douc & Cappé 2005 compare the
schemes): a sample of twice the weight is kept twice as often, and no sample is kept more
than one time more than its share.

>>> import random
>>> systematic(["a", "b", "c"], [0.0, 1.0, 3.0], 8, random.Random(1))
['b', 'b', 'c', 'c', 'c', 'c', 'c', 'c']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def systematic(
    items: Sequence[T], weights: Sequence[float], count: int, rng: random.Random
) -> list[T]:
    """``count`` of ``items`` drawn in proportion to ``weights``, in their order; all alike if
    no weight is positive."""
    total = sum(weights)
    if total <= 0:
        weights = [1.0] * len(items)
        total = float(len(items))
    step = total / count
    pointer = rng.random() * step
    cumulative = 0.0
    kept: list[T] = []
    for item, weight in zip(items, weights, strict=True):
        cumulative += weight
        while pointer < cumulative and len(kept) < count:
            kept.append(item)
            pointer += step
    if len(kept) < count:  # the sum's rounding can leave the last pointer out
        heaviest = max(range(len(items)), key=weights.__getitem__)
        kept.extend([items[heaviest]] * (count - len(kept)))
    return kept


__all__ = ["systematic"]
