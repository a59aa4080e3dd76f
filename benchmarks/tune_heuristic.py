"""Tune the heuristic's numbers (:class:`~bezique.agents.heuristic.HeuristicParams`) by play.

Each candidate plays duplicated deals against the current best (the same deals for every
candidate, seats swapped), policy against policy on the full state: the heuristic reads only
what its seat may see, so this equals agent-against-agent play and is much faster.  A change
is kept when it wins by more than ``--z`` standard errors of the paired results.  The search
AI's rollouts use the result (``TUNED`` in ``bezique/agents/heuristic.py``); the ``heuristic``
agent itself keeps the club player's defaults, the fixed baseline of ``benchmarks/STRENGTH.md``.

    python benchmarks/tune_heuristic.py --pairs 2000 --jobs 2 --rounds 2
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import statistics
import time

from bezique import Rules
from bezique.agents.heuristic import HeuristicParams, HeuristicPolicy
from bezique.state import State

RULES = Rules.preset("bezique")


def play_pair(args: tuple[int, HeuristicParams, HeuristicParams]) -> float:
    """Points a deal of ``a`` less ``b``'s, averaged over both halves of deal ``seed``."""
    seed, a, b = args
    pa, pb = HeuristicPolicy(params=a), HeuristicPolicy(params=b)
    total = 0.0
    for half in (0, 1):
        state = State.new_deal(RULES, seed, dealer=1)
        seats = (pa, pb) if half == 0 else (pb, pa)
        while not state.is_terminal():
            state.apply_action(seats[state.current_player()].choose(state))
        me = half
        total += state.scores[me] - state.scores[1 - me]
    return total / 2


def match(a: HeuristicParams, b: HeuristicParams, pairs: int, seed: int,
          pool: multiprocessing.pool.Pool | None) -> tuple[float, float]:
    """(mean points a deal of ``a`` less ``b``, its standard error)."""
    tasks = [(seed * 1_000_003 + i, a, b) for i in range(pairs)]
    diffs = pool.map(play_pair, tasks, chunksize=20) if pool else list(map(play_pair, tasks))
    return statistics.mean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5


def variants(p: HeuristicParams) -> list[tuple[str, HeuristicParams]]:
    """Neighbours of ``p``: each number a little up and down."""
    out = []
    for f in dataclasses.fields(p):
        v = getattr(p, f.name)
        if f.name == "complete":
            for k in (0.7, 1.4):
                new = tuple([v[0]] + [min(1.0, x * k) for x in v[1:]])
                out.append((f"complete*{k}", dataclasses.replace(p, complete=new)))
            continue
        # a worth that may be 0 or negative moves by steps of 5 points; the others by factors
        additive = f.name == "lead_worth"
        for x in ([v - 5.0, v + 5.0] if additive else [v * 0.7, v * 1.4]):
            out.append((f"{f.name}={x:.3g}", dataclasses.replace(p, **{f.name: x})))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--z", type=float, default=2.0)
    args = ap.parse_args()
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    best = HeuristicParams()
    t0 = time.time()
    for rnd in range(args.rounds):
        improved = False
        for name, cand in variants(best):
            m, se = match(cand, best, args.pairs, args.seed + rnd, pool)
            keep = m > args.z * se
            print(f"round {rnd + 1} {name:28s} {m:+7.1f} ± {se:4.1f}"
                  f"{'  kept' if keep else ''}  ({(time.time() - t0) / 60:.1f} min)", flush=True)
            if keep:
                best, improved = cand, True
        if not improved:
            break
    base = HeuristicParams()
    m, se = match(best, base, args.pairs, args.seed + 100, pool)
    print(f"tuned vs defaults on fresh deals: {m:+.1f} ± {se:.1f} points a deal")
    print(best)


if __name__ == "__main__":
    main()
