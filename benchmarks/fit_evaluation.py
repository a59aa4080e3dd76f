"""Fit the weights of the search AI's evaluation (:mod:`bezique.agents.evaluation`).

Usage::

    python benchmarks/fit_evaluation.py [--deals 4000] [--jobs 2] [--seed 1] [--write]
    python benchmarks/fit_evaluation.py --variant rubicon|sixpack|eightpack [--deals N] [--write]

Two heuristic players play ``--deals`` deals of classic Bezique.  At every lead of the stock
phase the script records the difference of the two seats' :func:`features` and the points seat 0
went on to win from there less seat 1's (brisques included).  A ridge least-squares fit of the
second on the first gives the weights; the last fifth of the deals is held out to report how much
of the variance the fit explains, next to the weights in the module now.  ``--write`` puts the
new weights into ``src/bezique/agents/evaluation.py``.

``--variant`` (a one-deal game: Rubicon, Six-pack, Eight-pack) fits that variant's tuple of
:data:`~bezique.agents.evaluation.VARIANT_WEIGHTS` instead, on its own heuristic self-play: at
every lead of the stock phase, for each side, the points (without brisques) it went on to win
regressed on the share of the stock left and both hands' features (ridge least squares, numpy);
then the spread: the value (see :func:`~bezique.agents.settled.spread_at`) whose expected
settlement (over the search's default grid, :func:`~bezique.agents.settled.grid_settlement`)
best predicts the deals' settled values on the training positions.  It reports, on the held-out
fifth, how much of the variance of the settled values the estimate explains: with the new
tuple, with the tuple in the module now (if any), each also by the normal integral of
``search:settle=normal`` (:func:`~bezique.agents.settled.expected_settlement`), and with the
classic weights (``search:weights=classic``).  ``--write``
puts the tuple into the module (``VARIANT_WEIGHTS[variant]``); the classic weights are not
touched.
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from fit_variant import fit_variant

from bezique import Rules, State
from bezique.agents.evaluation import FEATURES, WEIGHTS, features, so_far
from bezique.agents.heuristic import HeuristicPolicy
from bezique.state import LEAD

Sample = tuple[list[float], float]
MODULE = Path(__file__).resolve().parent.parent / "src" / "bezique" / "agents" / "evaluation.py"


def leads(seed: int, inputs: Callable[[State, int], list[float]] = features,
          ) -> list[tuple[list[float], list[float], float]]:
    """One deal between two heuristic players: at every lead of the stock phase, seat 0's and
    seat 1's ``inputs`` and the points seat 0 goes on to win from there less seat 1's."""
    rules = Rules.preset("bezique")
    state = State.new_deal(rules, seed, dealer=seed & 1)
    policy = HeuristicPolicy()
    rows: list[tuple[list[float], list[float], float]] = []
    while not state.is_terminal():
        if state.phase_id == LEAD and not state.end_phase:
            rows.append((inputs(state, 0), inputs(state, 1), so_far(state, 0)))
        state.apply_action(policy.choose(state))
    final = float(state.scores[0] - state.scores[1])
    return [(a, b, final - now) for a, b, now in rows]


def play(seed: int) -> list[Sample]:
    """One deal between two heuristic players: (feature difference, points still to come)."""
    return [([x - y for x, y in zip(a, b, strict=True)], rest) for a, b, rest in leads(seed)]


def solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row[:], b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / p
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(samples: list[Sample], ridge: float) -> list[float]:
    """Ridge least squares (no intercept: the model is antisymmetric in the seats)."""
    k = len(FEATURES)
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for x, y in samples:
        for i in range(k):
            xi = x[i]
            if xi:
                xty[i] += xi * y
                row = xtx[i]
                for j in range(k):
                    row[j] += xi * x[j]
    scale = [max(xtx[i][i], 1e-9) for i in range(k)]
    for i in range(k):
        xtx[i][i] += ridge * scale[i]
    return solve_linear(xtx, xty)


def r2(samples: list[Sample], w: tuple[float, ...] | list[float]) -> float:
    """Share of the variance of the points to come that the weights explain."""
    ys = [y for _, y in samples]
    mean = statistics.fmean(ys)
    tot = sum((y - mean) ** 2 for y in ys)
    res = sum((y - sum(a * b for a, b in zip(w, x, strict=True))) ** 2 for x, y in samples)
    return 1.0 - res / tot


def write(weights: list[float]) -> None:
    """Replace the WEIGHTS block of the evaluation module."""
    text = MODULE.read_text(encoding="utf-8")
    rows = []
    for i in range(0, len(weights), 4):
        rows.append("    " + " ".join(f"{w:.4g}," for w in weights[i:i + 4]))
    block = "WEIGHTS: tuple[float, ...] = (\n" + "\n".join(rows) + "\n)\n"
    new, n = re.subn(r"WEIGHTS: tuple\[float, \.\.\.\] = \(\n.*?\n\)\n", block, text,
                     flags=re.S)
    if n != 1:
        sys.exit("could not find the WEIGHTS block")
    MODULE.write_text(new, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--variant", default="bezique",
                    help="bezique (the classic weights, the default) or a one-deal game: "
                         "rubicon, sixpack, eightpack (its own tuple)")
    args = ap.parse_args()
    if args.variant != "bezique":
        fit_variant(args.variant, args.deals, args.seed, args.ridge, args.jobs, args.write)
        return
    t0 = time.time()
    seeds = [args.seed * 1_000_003 + i for i in range(args.deals)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        per_deal = pool.map(play, seeds, chunksize=20)
    cut = len(per_deal) * 4 // 5
    train = [s for d in per_deal[:cut] for s in d]
    test = [s for d in per_deal[cut:] for s in d]
    w = fit(train, args.ridge)
    print(f"{len(train)} training and {len(test)} held-out positions from {args.deals} deals "
          f"in {time.time() - t0:.0f} s")
    print(f"held-out R^2: fitted {r2(test, w):.3f}, current {r2(test, WEIGHTS):.3f}")
    for name, new, old in zip(FEATURES, w, WEIGHTS, strict=True):
        print(f"  {name:22s} {new:9.4f}   (now {old:g})")
    if args.write:
        write(w)
        print(f"wrote {MODULE}")


if __name__ == "__main__":
    main()
