"""Fit the card-location network (:mod:`cardavia.ai.card_location`) on self-play records and
write its weights.

Every moment before a card is played, in every deal of the records, is seen from each of
the four seats: the features are the seat's observation (:func:`features`), the targets
where each card hidden from it really lies. One deal in ten (by its place in the files) is
kept apart to judge the network: the mean log-likelihood of each hidden card's true seat,
each card's estimate shared among the seats that may hold it as at the table, against the
same share by the room each seat has left (every consistent world alike), and how often the
seat thought likeliest is the right one.

    uv run --group training python training/card_location.py training/data/*.jsonl

The network is scikit-learn's multi-layer perceptron (one hidden layer, rectified, a
logistic output for each card and seat), trained epoch by epoch with Adam; the epoch that
does best on the deals kept apart is the one written.
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

from cardavia.ai.card_location import (
    WEIGHTS,
    LocationModel,
    block,
    constraints,
    features,
    hidden_cards,
    suit_order,
)
from cardavia.belote import DealState, Play, Seat
from cardavia.belote.notation import Record

POWERS = (1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2)
"""The powers of the network's scores tried in calibrating it."""


def samples(line: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The features, targets and room of every (moment, seat) of one recorded deal: the room
    is, for each card hidden from the seat and each other seat, 1 where that seat may hold it
    (not known void of it, with room left), for the judging."""
    record = Record.from_json(line)
    deal = record.deals[0]
    state = DealState.from_deck(record.rules, dealer=deal.dealer, deck=deal.deck)
    xs, ys, rooms = [], [], []
    for action in deal.actions:
        if isinstance(action, Play):
            for seat in range(4):
                observation = state.observation(Seat(seat))
                table = constraints(observation)
                known, excluded = table
                order = suit_order(observation)
                hidden = hidden_cards(observation, known)
                y = np.zeros(96, dtype=np.float32)
                room = np.zeros(96, dtype=np.float32)
                for relative in range(1, 4):
                    other = (seat + relative) % 4
                    hand = state.hands[other]
                    free = observation.hand_sizes[other] > known[other].bit_count()
                    for card in range(32):
                        if not hidden >> card & 1:
                            continue
                        at = (order[card >> 3] * 8 + (card & 7)) * 3 + relative - 1
                        if hand >> card & 1:
                            y[at] = 1
                        if free and not excluded[other] >> card & 1:
                            room[at] = observation.hand_sizes[other] - known[other].bit_count()
                xs.append(features(observation, table))
                ys.append(y)
                rooms.append(room)
        state = state.apply(action)
    return np.array(xs), np.array(ys), np.array(rooms)


def judged(chances: np.ndarray, y: np.ndarray, room: np.ndarray) -> tuple[float, float]:
    """The mean log-likelihood of each hidden card's true seat and how often the likeliest
    seat is it, ``chances`` shared among the seats with room (rows: samples, 32 × 3)."""
    weights = (chances * (room > 0)).reshape(-1, 32, 3)
    truth = y.reshape(-1, 32, 3)
    total = weights.sum(axis=2)
    cards = truth.sum(axis=2) > 0
    true_weight = (weights * truth).sum(axis=2)
    logs = np.log(np.clip(true_weight[cards] / total[cards], 1e-9, 1))
    right = weights.argmax(axis=2)[cards] == truth.argmax(axis=2)[cards]
    return float(logs.mean()), float(right.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path, nargs="+", help="self-play files (JSON lines)")
    parser.add_argument("--hidden", type=int, default=128, help="units in the hidden layer")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--without", default="", help="feature blocks left out (zeroed)")
    parser.add_argument("--alpha", type=float, default=1e-3, help="the weights' L2 penalty")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    if args.without and args.out.resolve() == WEIGHTS.resolve():
        parser.error("--without is for measuring what a part brings: write elsewhere (--out)")
    # The training group's library, needed here only (the tests read the samples without it).
    from sklearn.neural_network import MLPClassifier

    lines = [line for path in args.records for line in path.read_text().splitlines() if line]
    started = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.processes, mp_context=context) as pool:
        parts = list(pool.map(samples, lines, chunksize=8))
    train = [p for i, p in enumerate(parts) if i % 10]
    held = [p for i, p in enumerate(parts) if not i % 10]
    x, y, _ = (np.concatenate(column) for column in zip(*train, strict=True))
    hx, hy, hroom = (np.concatenate(column) for column in zip(*held, strict=True))
    for name in filter(None, args.without.split(",")):
        x[:, block(name)] = 0
        hx[:, block(name)] = 0
    print(
        f"{len(lines)} deals: {len(x)} samples to train on, {len(hx)} kept apart "
        f"({time.perf_counter() - started:.0f} s to read)"
    )
    base, base_right = judged(hroom, hy, hroom)
    print(f"room alone: log-likelihood {base:.4f} a card, likeliest seat right {base_right:.3f}")
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
        network.partial_fit(x[order], y[order], classes=None if epoch > 1 else np.arange(96))
        chances = network.predict_proba(hx)
        # Calibrated as temperature scaling does (Guo et al. 2017): the scores to the power
        # that the deals kept apart find likeliest.
        power, score, right = max(
            ((p, *judged(chances**p, hy, hroom)) for p in POWERS), key=lambda t: t[1]
        )
        mark = ""
        if score > best:
            best, mark = score, " (kept)"
            model = LocationModel(
                network.coefs_[0].astype(np.float32),
                network.intercepts_[0].astype(np.float32),
                network.coefs_[1].astype(np.float32),
                network.intercepts_[1].astype(np.float32),
                power,
            )
            np.savez_compressed(
                args.out,
                hidden_weights=model.hidden_weights,
                hidden_bias=model.hidden_bias,
                out_weights=model.out_weights,
                out_bias=model.out_bias,
                power=np.array(model.power, dtype=np.float32),
                trained_on=np.array(json.dumps({"deals": len(lines), "epoch": epoch})),
            )
        print(
            f"epoch {epoch}: log-likelihood {score:.4f} a card (power {power}), "
            f"right {right:.3f}{mark}"
        )
    print(f"written: {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
