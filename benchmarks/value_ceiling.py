"""How much better could a value network at the search's horizon be than the fitted evaluation?

Usage::

    python benchmarks/value_ceiling.py [--deals 20000] [--seed 100000] [--hidden 32] \
        [--epochs 10] [--cards] [--jobs 1]

The search values its horizon leaves in full-information worlds by
:func:`bezique.agents.evaluation.evaluate`: the points so far plus a linear function of the
difference of the two hands' :func:`~bezique.agents.evaluation.features`.  This script asks
whether a network over the same inputs (or, with ``--cards``, also each hand card by card, suits
seen from the trumps, and the stock left) predicts the rest of the deal better, on the data
the linear weights are fitted on (``fit_evaluation.py``): every lead of the stock phase in
``--deals`` deals between two heuristic players, the points seat 0 goes on to win from there
less seat 1's.  The last fifth of the deals is held out.

The network is antisymmetric in the seats, ``f(a, b) - f(b, a)`` for a network ``f`` with one
hidden layer of ``--hidden`` rectified units over both hands' inputs ``a`` and ``b``, plus a
linear part on ``a - b`` that starts at the least-squares fit; it is trained with Adam (numpy,
minibatches of 256).  The report: held-out root mean squared error and share of variance
explained, for the linear fit and after each epoch of the network.
"""

from __future__ import annotations

import argparse
import multiprocessing
from functools import partial

import numpy as np
from fit_evaluation import leads

from bezique import State
from bezique.agents.evaluation import features
from bezique.agents.targets import card_counts

Row = tuple[list[float], list[float], float]


def cards(state: State, seat: int) -> list[float]:
    """The seat's cards (hand and shown) card by card, trumps first, and the stock left."""
    counts = card_counts(state.hand_masks[seat] | state.shown_masks[seat], state.copies)
    trump = state.trump
    order = [trump] + [s for s in range(4) if s != trump]
    return ([counts[s * 8 + r] / state.copies for s in order for r in range(8)]
            + [state.stock_left / max(1, state.rules.stock_size)])


def with_cards(state: State, seat: int) -> list[float]:
    """The fitted evaluation's features of the seat, then its cards (:func:`cards`)."""
    return features(state, seat) + cards(state, seat)


def play(seed: int, card_by_card: bool) -> list[Row]:
    """One heuristic deal: (seat 0's inputs, seat 1's inputs, points still to come) at each
    lead of the stock phase (``fit_evaluation.leads``)."""
    return leads(seed, with_cards if card_by_card else features)


def arrays(deals: list[list[Row]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = [r for d in deals for r in d]
    return (np.array([r[0] for r in rows]), np.array([r[1] for r in rows]),
            np.array([r[2] for r in rows]))


def report(name: str, y: np.ndarray, pred: np.ndarray) -> None:
    res = y - pred
    print(f"{name}: RMSE {np.sqrt((res ** 2).mean()):.2f} points, "
          f"R2 {1 - res.var() / y.var():.4f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=100000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--cards", action="store_true", help="add the hands card by card")
    args = ap.parse_args()
    seeds = range(args.seed, args.seed + args.deals)
    with multiprocessing.Pool(args.jobs) as pool:
        deals = pool.map(partial(play, card_by_card=args.cards), seeds, chunksize=50)
    cut = int(len(deals) * 0.8)
    a, b, y = arrays(deals[:cut])
    at, bt, yt = arrays(deals[cut:])
    print(f"{len(y)} training positions, {len(yt)} held out (sd {yt.std():.1f} points)")
    w = np.linalg.lstsq(a - b, y, rcond=None)[0]
    report("linear (the fitted evaluation's form)", yt, (at - bt) @ w)

    rng = np.random.default_rng(args.seed)
    both = np.concatenate([a, b])
    mu, sd = both.mean(0), both.std(0) + 1e-6
    scale = y.std()
    an, bn, atn, btn = ((x - mu) / sd for x in (a, b, at, bt))
    d, h = a.shape[1], args.hidden
    params = [rng.normal(0, (1 / d) ** 0.5, (2 * d, h)), np.zeros(h),
              rng.normal(0, (1 / h) ** 0.5, h) * 0.1, w * sd / scale]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]

    def forward(x: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        w1, b1, w2, lin = params
        x1, x2 = np.concatenate([x, z], 1), np.concatenate([z, x], 1)
        h1, h2 = np.maximum(x1 @ w1 + b1, 0), np.maximum(x2 @ w1 + b1, 0)
        return h1 @ w2 - h2 @ w2 + (x - z) @ lin, (x1, x2, h1, h2)

    step = 0
    for epoch in range(args.epochs):
        order = rng.permutation(len(y))
        for s in range(0, len(y), 256):
            j = order[s:s + 256]
            x, z = an[j], bn[j]
            p, (x1, x2, h1, h2) = forward(x, z)
            g = 2 * (p - y[j] / scale) / len(j)
            w2 = params[2]
            gh1 = np.outer(g, w2) * (h1 > 0)
            gh2 = -np.outer(g, w2) * (h2 > 0)
            grads = [x1.T @ gh1 + x2.T @ gh2 + 1e-5 * params[0], gh1.sum(0) + gh2.sum(0),
                     h1.T @ g - h2.T @ g, (x - z).T @ g]
            step += 1
            for p_, g_, (m, v) in zip(params, grads, moments, strict=True):
                m *= 0.9
                m += 0.1 * g_
                v *= 0.999
                v += 0.001 * g_ * g_
                p_ -= 1e-3 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        report(f"network, epoch {epoch + 1}", yt, forward(atn, btn)[0] * scale)


if __name__ == "__main__":
    main()
