"""How much of the search's choice is its worlds' luck?  The same positions, two seeds.

The search departs from the heuristic's choice when another action beats it by ``confidence``
standard errors over the sampled worlds.  With many near-equal candidates (a Six-pack hand of
twelve cards, where a trick's cards score nothing) the best of them clears one standard error by
chance alone, so the search's choice can depend on which worlds it drew.  This script takes the
search's decisions with a choice in deals against the heuristic
(``compare_decisions.positions``, every third one), lets each agent spec choose in every
position with seed 1 and again with seed 2, and prints how often the two seeds agree and how
often each departs from the heuristic agent's choice:

    taskset -c 0 python benchmarks/seed_agreement.py --variant sixpack --deals 3 --seed 5 \\
        search search:confidence=2

``--cache FILE`` keeps the positions for the next run.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from compare_decisions import cached_positions

from bezique.agents import make_agent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+", help="agent specs, e.g. search search:confidence=2")
    ap.add_argument("--variant", default="bezique")
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--every", type=int, default=3, help="keep every n-th position")
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args()
    t0 = time.perf_counter()
    pos = cached_positions(args.variant, args.deals, args.seed, args.cache)[::args.every]
    heuristic = make_agent("heuristic", seed=1)
    sound = [heuristic.act(obs) for _, obs in pos]
    print(f"{args.variant}: {len(pos)} positions ({time.perf_counter() - t0:.0f} s)")
    for spec in args.specs:
        picks = []
        for seed in (1, 2):
            agent = make_agent(spec, seed=seed)
            picks.append([agent.act(obs) for _, obs in pos])
        n = len(pos)
        agree = sum(a == b for a, b in zip(*picks, strict=True))
        departs = [sum(a != h for a, h in zip(p, sound, strict=True)) for p in picks]
        print(f"  {spec}: the two seeds agree in {agree} of {n} ({100 * agree / n:.1f}%); "
              f"departs from the heuristic in {departs[0]} and {departs[1]} "
              f"({100 * (departs[0] + departs[1]) / (2 * n):.1f}%)  "
              f"[{time.perf_counter() - t0:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
