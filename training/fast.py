"""Fit the fast level's networks (:mod:`cardavia.ai.fast`) on the expert's self-play records
and write their weights.

The records are ``training/self_play.py``'s (``--player expert``): every card of each deal
is the expert's, and so are the bids of half the deals (the deal numbers 2 and 3 modulo 4;
the others were bid by the club player: a deal's number is found again from its deck). The
samples:

- **play**: every card played with a choice (two legal cards or more), the player's
  observation just before it read as :func:`~cardavia.ai.card_location.features` reads it,
  the card it played; each also with the suits other than trump in two other orders (the
  same decision in other suits);
- **bid**: every bidding action of the expert with a choice, read by
  :func:`~cardavia.ai.fast.bid_features`, the class of the action
  (:func:`~cardavia.ai.fast.bid_class`); each also in three other orders of the suits.

One deal in ten (by its place in the files) is kept apart, in its own suits only, to judge
the networks: the mean
log-chance of the expert's choice among the legal ones, and how often the network's first
choice is the expert's. The networks (rectified layers, a softmax over the legal choices
only) are fitted here with numpy alone, by Adam on minibatches; the epoch that does best on
the deals kept apart is the one written.

    uv run python training/fast.py /work/data/expert-next.jsonl

It prints, for each network and epoch, the judge's figures, and writes
``src/cardavia/ai/fast.npz``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

from cardavia.ai.card_location import features
from cardavia.ai.fast import (
    BID_CLASSES,
    WEIGHTS,
    FastModel,
    Network,
    SuitOrder,
    bid_class,
    bid_features,
)
from cardavia.ai.play_policy import framed_bits, framing
from cardavia.belote import DealState, Phase, Play
from cardavia.belote.notation import Record
from cardavia.belote.search import cut_and_shuffle

PRESETS = ("coinche", "cardavia")
"""As ``training/self_play.py`` plays them: deal ``n`` is of ``PRESETS[n % 2]``."""
CARD_BLOCKS = 24
"""The features' first 24 blocks of 32 are cards in the frame (hand … turned): the ones the
suits' order moves."""

Arrays = tuple[np.ndarray, np.ndarray, np.ndarray]


def numbers_by_deck(limit: int) -> dict[tuple[int, ...], int]:
    """Each self-play deal number below ``limit`` by its deck (as ``self_play.py`` deals)."""
    found = {}
    for number in range(limit):
        rng = random.Random(f"training-{PRESETS[number % 2]}-{number}")
        found[tuple(cut_and_shuffle(rng))] = number
    return found


def other_orders(rng: random.Random, count: int, *, keep_first: bool) -> list[SuitOrder]:
    """``count`` orders of the suits other than the natural one (the first suit kept first
    when ``keep_first``: the trump suit, in card play)."""
    orders: list[SuitOrder] = []
    while len(orders) < count:
        rest = [1, 2, 3] if keep_first else [0, 1, 2, 3]
        rng.shuffle(rest)
        order = (0, *rest) if keep_first else tuple(rest)
        if order != (0, 1, 2, 3) and order not in orders:
            orders.append((order[0], order[1], order[2], order[3]))
    return orders


def reordered(x: np.ndarray, order: SuitOrder) -> np.ndarray:
    """Play features with the frame's suits moved: suit ``s`` of the frame to ``order[s]``."""
    moved = x.copy()
    cards = x[: CARD_BLOCKS * 32].reshape(CARD_BLOCKS, 4, 8)
    target = moved[: CARD_BLOCKS * 32].reshape(CARD_BLOCKS, 4, 8)
    for suit in range(4):
        target[:, order[suit]] = cards[:, suit]
    return moved


@dataclass(frozen=True)
class Reader:
    """Reads a record's samples (picklable: the processes make their own)."""

    expert_bids: frozenset[int] | None
    """The deal numbers whose bids are the expert's (``None``: every deal's)."""
    numbers: dict[tuple[int, ...], int]

    def samples(self, item: tuple[str, bool]) -> tuple[Arrays, Arrays]:
        """The play samples and the bid samples of one recorded deal (``item``: its line, and
        whether to add the copies in other suits)."""
        line, augment = item
        record = Record.from_json(line)
        deal = record.deals[0]
        state = DealState.from_deck(record.rules, dealer=deal.dealer, deck=deal.deck)
        number = self.numbers.get(tuple(deal.deck), -1)
        bids_are_experts = self.expert_bids is None or number in self.expert_bids
        rng = random.Random(line)
        play: list[list[np.ndarray]] = [[], [], []]
        bid: list[list[np.ndarray]] = [[], [], []]
        for action in deal.actions:
            observation = state.observation(action.seat)
            if len(observation.legal_actions) > 1:
                if isinstance(action, Play) and state.legal_cards().mask.bit_count() > 1:
                    frame = framing(observation)
                    x = features(observation)
                    legal = framed_bits([state.legal_cards().mask], frame)[0]
                    place = int(frame[action.card])
                    keep_first = (
                        observation.contract is not None and observation.contract.strain < 4
                    )
                    for order in [
                        (0, 1, 2, 3),
                        *other_orders(rng, 2 * augment, keep_first=keep_first),
                    ]:
                        o = (order[0], order[1], order[2], order[3])
                        play[0].append(reordered(x, o))
                        play[1].append(np.array(o[place >> 3] * 8 + (place & 7)))
                        play[2].append(legal.reshape(4, 8)[np.argsort(o)].reshape(32))
                elif state.phase is Phase.BIDDING and bids_are_experts:
                    for order in [(0, 1, 2, 3), *other_orders(rng, 3 * augment, keep_first=False)]:
                        o = (order[0], order[1], order[2], order[3])
                        target = bid_class(action, o)
                        if target is None:
                            continue
                        mask = np.zeros(BID_CLASSES, dtype=np.float32)
                        for other in observation.legal_actions:
                            index = bid_class(other, o)
                            if index is not None:
                                mask[index] = 1
                        bid[0].append(bid_features(observation, o))
                        bid[1].append(np.array(target))
                        bid[2].append(mask)
            state = state.apply(action)
        return _stacked(play, 32), _stacked(bid, BID_CLASSES)


def _stacked(parts: list[list[np.ndarray]], classes: int) -> Arrays:
    if not parts[0]:
        return (np.zeros((0, 0), np.float32), np.zeros(0, np.int64), np.zeros((0, classes)))
    x, y, legal = (np.array(column) for column in parts)
    return x.astype(np.float32), y.astype(np.int64), legal.astype(np.float32)


class Trainer:
    """A multi-layer perceptron fitted by Adam, its output a softmax over the legal classes."""

    def __init__(self, sizes: list[int], *, seed: int, rate: float, alpha: float) -> None:
        rng = np.random.default_rng(seed)
        self.weights = [
            (rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32)
            for a, b in pairwise(sizes)
        ]
        self.biases = [np.zeros(b, np.float32) for b in sizes[1:]]
        self.rate, self.alpha, self.steps = rate, alpha, 0
        params = [*self.weights, *self.biases]
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def network(self) -> Network:
        return Network(tuple(w.copy() for w in self.weights), tuple(b.copy() for b in self.biases))

    def step(self, x: np.ndarray, y: np.ndarray, legal: np.ndarray) -> None:
        """One minibatch: forward, the masked softmax's gradient, backward, Adam."""
        layers = [x]
        for index, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            out = layers[-1] @ w + b
            layers.append(np.maximum(out, 0) if index < len(self.weights) - 1 else out)
        grad = chances(layers[-1], legal)
        grad[np.arange(len(y)), y] -= 1
        grad /= len(y)
        grads_w, grads_b = [], []
        for index in range(len(self.weights) - 1, -1, -1):
            grads_w.append(layers[index].T @ grad + self.alpha * self.weights[index])
            grads_b.append(grad.sum(axis=0))
            if index:
                grad = (grad @ self.weights[index].T) * (layers[index] > 0)
        self._adam([*reversed(grads_w), *reversed(grads_b)])

    def _adam(self, grads: list[np.ndarray]) -> None:
        self.steps += 1
        beta1, beta2 = 0.9, 0.999
        correction = np.sqrt(1 - beta2**self.steps) / (1 - beta1**self.steps)
        for param, grad, m, v in zip(
            [*self.weights, *self.biases], grads, self.m, self.v, strict=True
        ):
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            param -= self.rate * correction * m / (np.sqrt(v) + 1e-8)


def chances(scores: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The softmax of ``scores`` over the legal classes (rows: samples)."""
    masked = np.where(legal > 0, scores, -np.inf)
    masked = masked - masked.max(axis=1, keepdims=True)
    weights = np.exp(masked)
    result: np.ndarray = weights / weights.sum(axis=1, keepdims=True)
    return result


def judged(network: Network, data: Arrays) -> tuple[float, float]:
    """The mean log-chance of the expert's choices and how often the first choice is it."""
    x, y, legal = data
    picked = chances(network.scores(x), legal)
    logs = np.log(np.clip(picked[np.arange(len(y)), y], 1e-9, 1))
    return float(logs.mean()), float((picked.argmax(axis=1) == y).mean())


def batches(size: int, batch: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    order = rng.permutation(size)
    for start in range(0, size, batch):
        yield order[start : start + batch]


def fit(
    name: str, train: Arrays, held: Arrays, hidden: list[int], args: argparse.Namespace
) -> Network:
    """The network of ``name`` fitted on ``train``, the epoch best on ``held`` kept."""
    x, y, legal = train
    trainer = Trainer(
        [x.shape[1], *hidden, legal.shape[1]], seed=0, rate=args.rate, alpha=args.alpha
    )
    base = np.log(1 / held[2].sum(axis=1)).mean()
    print(
        f"{name}: {len(x)} samples to train on, {len(held[0])} kept apart; "
        f"every legal choice alike: log-chance {base:.4f}"
    )
    best, kept = -np.inf, trainer.network()
    rng = np.random.default_rng(0)
    for epoch in range(1, args.epochs + 1):
        started = time.perf_counter()
        for rows in batches(len(x), args.batch, rng):
            trainer.step(x[rows], y[rows], legal[rows])
        network = trainer.network()
        score, right = judged(network, held)
        mark = ""
        if score > best:
            best, kept, mark = score, network, " (kept)"
        print(
            f"  epoch {epoch}: log-chance {score:.4f}, the expert's choice first {right:.3f}"
            f" ({time.perf_counter() - started:.0f} s){mark}",
            flush=True,
        )
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path, nargs="+", help="self-play files (JSON lines)")
    parser.add_argument("--play-hidden", default="384", help="the play network's layers")
    parser.add_argument("--bid-hidden", default="128", help="the bid network's layers")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--alpha", type=float, default=3e-4, help="the weights' L2 penalty")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--numbers", type=int, default=200_000, help="deal numbers looked for")
    parser.add_argument(
        "--all-bids", action="store_true", help="every deal's bids are the expert's"
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    lines = [line for path in args.records for line in path.read_text().splitlines() if line]
    started = time.perf_counter()
    numbers = numbers_by_deck(args.numbers)
    experts = None if args.all_bids else frozenset(n for n in range(args.numbers) if n % 4 >= 2)
    reader = Reader(experts, numbers)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.processes, mp_context=context) as pool:
        items = [(line, bool(i % 10)) for i, line in enumerate(lines)]
        parts = list(pool.map(reader.samples, items, chunksize=8))
    print(f"{len(lines)} deals read in {time.perf_counter() - started:.0f} s")
    networks = []
    for kind, hidden in ((0, args.play_hidden), (1, args.bid_hidden)):
        train = [p[kind] for i, p in enumerate(parts) if i % 10 and len(p[kind][0])]
        held = [p[kind] for i, p in enumerate(parts) if not i % 10 and len(p[kind][0])]
        joined = [
            tuple(np.concatenate(c) for c in zip(*group, strict=True)) for group in (train, held)
        ]
        layers = [int(size) for size in hidden.split(",") if size]
        networks.append(fit(("play", "bid")[kind], joined[0], joined[1], layers, args))
    model = FastModel(networks[0], networks[1])
    model.save(args.out, trained_on=json.dumps({"deals": len(lines)}))
    print(f"written: {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
