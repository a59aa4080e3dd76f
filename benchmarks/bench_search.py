"""The search agent's speed: worlds evaluated per second, and time per decision, on one core.

Usage::

    python benchmarks/bench_search.py [--deals 6] [--variant bezique] [--agent search] [--json]

Positions come from deals the heuristic plays against itself (seeds 0..deals-1); at every
decision of seat 0 with more than one legal action, the agent (default ``search``, the default
level's settings) decides from the seat's observation, and the worlds it sampled (its
``last_worlds``) and the time it took are added up.  Worlds per second is the figure the engine
core's speed buys: each world is a sampled deal played out a few tricks by heuristic rollouts
for every candidate, then valued.  Run it on two checkouts to compare (``PYTHONPATH=OLD/src``),
and with ``BEZIQUE_PURE=1`` for the pure-Python build.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import bezique
from bezique import Rules, State
from bezique.agents import make_agent


def measure(variant: str, spec: str, deals: int) -> dict[str, float]:
    rules = Rules.preset(variant)
    heuristic = make_agent("heuristic", seed=0)
    worlds = 0
    times: list[float] = []
    for seed in range(deals):
        agent = make_agent(spec, seed=seed)
        s = State.new_deal(rules, seed=seed, dealer=seed % 2)
        while not s.is_terminal():
            p = s.current_player()
            obs = s.observation(p)
            if p == 0 and len(obs.legal) > 1:
                t0 = time.process_time()
                action = agent.act(obs)
                times.append(time.process_time() - t0)
                worlds += getattr(agent, "last_worlds", 0)
            else:
                action = heuristic.act(obs) if p == 1 else obs.legal[0]
            s.apply(action)
    total = sum(times)
    return {
        "decisions": len(times),
        "worlds": worlds,
        "seconds": round(total, 2),
        "worlds_per_s": round(worlds / total, 1) if total else 0.0,
        "decision_ms_median": round(statistics.median(times) * 1000, 1) if times else 0.0,
        "decision_ms_p90": round(statistics.quantiles(times, n=10)[-1] * 1000, 1)
        if len(times) >= 10 else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--variant", default="bezique")
    ap.add_argument("--agent", default="search")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res = measure(args.variant, args.agent, args.deals)
    res["compiled"] = bool(getattr(bezique, "COMPILED", False))
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>20}: {v}")


if __name__ == "__main__":
    main()
