"""Fit the play-policy network (:mod:`cardavia.ai.play_policy`) on self-play records and
write its weights.

Every card played in the records with a choice (two legal cards or more) is a sample: the
features are the player's observation just before it (the card-location network's,
:func:`~cardavia.ai.card_location.features`), the target the card it played. One deal in
ten (by its place in the files) is kept apart to judge the network: the mean log-chance of
the card really played among the legal ones, against every legal card alike, and how often
the likeliest card is the one played.

    uv run --group training python training/play_policy.py training/data/*.jsonl

The network is scikit-learn's multi-layer perceptron (one hidden layer, rectified, a
softmax over the 32 cards), trained epoch by epoch with Adam; the epoch that does best on
the deals kept apart is the one written, with the scores' calibrated temperature.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from cardavia.ai.card_location import features
from cardavia.ai.play_policy import WEIGHTS, PolicyModel, framed_bits, framing
from cardavia.belote import DealState, Play
from cardavia.belote.notation import Record

POWERS = (0.6, 0.8, 1.0, 1.2, 1.5)
"""The inverse temperatures of the network's scores tried in calibrating it."""


def samples(line: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The features, the card played (its place in the frame) and the legal cards (ones in
    the frame) of every card of one recorded deal played with a choice."""
    record = Record.from_json(line)
    deal = record.deals[0]
    state = DealState.from_deck(record.rules, dealer=deal.dealer, deck=deal.deck)
    xs, cards, legal = [], [], []
    for action in deal.actions:
        if isinstance(action, Play) and state.legal_cards().mask.bit_count() > 1:
            observation = state.observation(action.seat)
            frame = framing(observation)
            xs.append(features(observation))
            cards.append(frame[action.card])
            legal.append(framed_bits([state.legal_cards().mask], frame)[0])
        state = state.apply(action)
    return np.array(xs), np.array(cards, dtype=np.intp), np.array(legal)


def judged(chances: np.ndarray, cards: np.ndarray) -> tuple[float, float]:
    """The mean log-chance of the cards played and how often the likeliest is the one."""
    picked = chances[np.arange(len(cards)), cards]
    logs = np.log(np.clip(picked, 1e-9, 1))
    return float(logs.mean()), float((chances.argmax(axis=1) == cards).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path, nargs="+", help="self-play files (JSON lines)")
    parser.add_argument("--hidden", type=int, default=128, help="units in the hidden layer")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--alpha", type=float, default=1e-3, help="the weights' L2 penalty")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    # The training group's library, needed here only (the tests read the samples without it).
    from sklearn.neural_network import MLPClassifier

    lines = [line for path in args.records for line in path.read_text().splitlines() if line]
    started = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.processes, mp_context=context) as pool:
        parts = list(pool.map(samples, lines, chunksize=8))
    train = [p for i, p in enumerate(parts) if i % 10 and len(p[0])]
    held = [p for i, p in enumerate(parts) if not i % 10 and len(p[0])]
    x, y, _ = (np.concatenate(column) for column in zip(*train, strict=True))
    hx, hy, hlegal = (np.concatenate(column) for column in zip(*held, strict=True))
    print(
        f"{len(lines)} deals: {len(x)} cards to train on, {len(hx)} kept apart "
        f"({time.perf_counter() - started:.0f} s to read)"
    )
    base, base_right = judged(hlegal / hlegal.sum(axis=1, keepdims=True), hy)
    print(f"every legal card alike: log-chance {base:.4f} a card, right {base_right:.3f}")
    network = MLPClassifier(
        hidden_layer_sizes=(args.hidden,),
        alpha=args.alpha,
        batch_size=256,
        learning_rate_init=1e-3,
        random_state=0,
    )
    best = -math.inf
    rng = np.random.default_rng(0)
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(x))
        network.partial_fit(x[order], y[order], classes=None if epoch > 1 else np.arange(32))
        weights = [w.astype(np.float32) for w in network.coefs_]
        biases = [b.astype(np.float32) for b in network.intercepts_]
        scored = []
        for power in POWERS:
            model = PolicyModel(weights[0], biases[0], weights[1], biases[1], power)
            scored.append((power, *judged(model.chances(model.hidden(hx), hlegal), hy)))
        power, score, right = max(scored, key=lambda t: t[1])
        mark = ""
        if score > best:
            best, mark = score, " (kept)"
            np.savez_compressed(
                args.out,
                hidden_weights=weights[0],
                hidden_bias=biases[0],
                out_weights=weights[1],
                out_bias=biases[1],
                power=np.array(power, dtype=np.float32),
                trained_on=np.array(json.dumps({"deals": len(lines), "epoch": epoch})),
            )
        print(
            f"epoch {epoch}: log-chance {score:.4f} a card (power {power}), right {right:.3f}{mark}"
        )
    print(f"written: {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
