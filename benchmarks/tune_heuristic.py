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
from bezique.agents.heuristic import HeuristicParams, HeuristicPolicy, tuned_params
from bezique.agents.settled import is_settled, settled_value
from bezique.state import State


def play_pair(args: tuple[str, int, dict[str, object], dict[str, object]]) -> float:
    """Points a deal of ``a`` less ``b``'s, averaged over both halves of deal ``seed``; in the
    one-deal games (RULES.md 9.0.7) settled values, not points.  (The parameters travel as
    dicts: a compiled build's frozen dataclass does not unpickle in a worker.)"""
    variant, seed, a, b = args
    rules = Rules.preset(variant)
    pa = HeuristicPolicy(params=HeuristicParams(**a))  # type: ignore[arg-type]
    pb = HeuristicPolicy(params=HeuristicParams(**b))  # type: ignore[arg-type]
    total = 0.0
    for half in (0, 1):
        state = State.new_deal(rules, seed, dealer=1)
        seats = (pa, pb) if half == 0 else (pb, pa)
        while not state.is_terminal():
            state.apply_action(seats[state.current_player()].choose(state))
        me = half
        if is_settled(rules):
            total += settled_value(state, me)
        else:
            total += state.scores[me] - state.scores[1 - me]
    return total / 2


def match(a: HeuristicParams, b: HeuristicParams, pairs: int, seed: int,
          pool: multiprocessing.pool.Pool | None, variant: str = "bezique"
          ) -> tuple[float, float]:
    """(mean points a deal of ``a`` less ``b``, its standard error)."""
    da, db = dataclasses.asdict(a), dataclasses.asdict(b)
    tasks = [(variant, seed * 1_000_003 + i, da, db) for i in range(pairs)]
    diffs = pool.map(play_pair, tasks, chunksize=20) if pool else list(map(play_pair, tasks))
    return statistics.mean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5


# the numbers that may be 0 or negative, and the step they move by (at ``--step 1.4``)
_ADDITIVE = {"lead_worth": 5.0, "lead_points": 0.25}


def variants(p: HeuristicParams, step: float = 1.4) -> list[tuple[str, HeuristicParams]]:
    """Neighbours of ``p``: each number a little up and down (by the factor ``step``, or for
    a number that may be 0 or negative by its :data:`_ADDITIVE` unit times ``step`` / 1.4)."""
    out = []
    for f in dataclasses.fields(p):
        v = getattr(p, f.name)
        if f.name == "complete":
            for k in (1.0 / step, step):
                new = tuple([v[0]] + [min(1.0, x * k) for x in v[1:]])
                out.append((f"complete*{k}", dataclasses.replace(p, complete=new)))
            continue
        # a worth that may be 0 or negative moves by steps (5 points, a quarter of a card's
        # points); the others by factors
        unit = _ADDITIVE.get(f.name)
        d = (unit or 0.0) * step / 1.4
        for x in ([v - d, v + d] if unit else [v / step, v * step]):
            out.append((f"{f.name}={x:.3g}", dataclasses.replace(p, **{f.name: x})))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--z", type=float, default=2.0)
    ap.add_argument("--step", type=float, default=1.4, help="factor a number moves by")
    ap.add_argument("--variant", default="bezique",
                    help="a two-seat preset; the one-deal games are tuned on settled values")
    ap.add_argument("--start", choices=("defaults", "tuned"), default="defaults",
                    help="begin from the club defaults or from the variant's tuned numbers")
    args = ap.parse_args()
    if Rules.preset(args.variant).nplayers != 2:
        ap.error(f"{args.variant}: two seats only")
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    best = tuned_params(args.variant) if args.start == "tuned" else HeuristicParams()
    t0 = time.time()
    for rnd in range(args.rounds):
        improved = False
        for i in range(len(variants(best, args.step))):
            # (each candidate a neighbour of the best so far, kept changes included)
            name, cand = variants(best, args.step)[i]
            m, se = match(cand, best, args.pairs, args.seed + rnd, pool, args.variant)
            keep = m > args.z * se
            print(f"round {rnd + 1} {name:28s} {m:+7.1f} ± {se:4.1f}"
                  f"{'  kept' if keep else ''}  ({(time.time() - t0) / 60:.1f} min)", flush=True)
            if keep:
                best, improved = cand, True
        if not improved:
            break
    base = HeuristicParams()
    m, se = match(best, base, args.pairs, args.seed + 100, pool, args.variant)
    print(f"tuned vs defaults on fresh deals: {m:+.1f} ± {se:.1f} "
          f"{'settled points' if is_settled(Rules.preset(args.variant)) else 'points'} a deal")
    print(best)


if __name__ == "__main__":
    main()
