"""How good are the search's worlds?  Right cards and variety of the sampled other hands.

The search decides on worlds drawn by :class:`~bezique.agents.sampling.WorldSampler`: uniform
among the deals consistent with the seat's observation, or (``search:model=M``) weighted by how
well the opponent's past choices fit the heuristic's with that world's cards, drawn by a
Metropolis chain.  For positions of heuristic self-play this prints, for each sampler, the mean
number of the other hand's *hidden* cards a world gets right (cards the seat has seen in that
hand, shown melds and the like, not counted) and how many distinct hidden hands
``--worlds`` worlds hold: better inference gets more cards right, and a chain that mixes
slowly gives few distinct hands (the search then averages over fewer worlds than it thinks).

    taskset -c 0 python benchmarks/world_quality.py --variant rubicon --deals 4 --every 20 \\
        --worlds 60 --model 0,0.9
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter

from bezique import Rules, State
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.sampling import WorldSampler


def hidden_hand(state: State, seat: int, known: Counter[int]) -> Counter[int]:
    """The cards (0..31, with multiplicity) of ``seat``'s hand less those in ``known``."""
    return Counter(c & 31 for c in state.hand(seat)) - known


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="rubicon")
    ap.add_argument("--deals", type=int, default=4, help="heuristic self-play deals")
    ap.add_argument("--every", type=int, default=20, help="a position every N actions")
    ap.add_argument("--worlds", type=int, default=60)
    ap.add_argument("--model", default="0,0.9", help="samplers: model strengths, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = Rules.from_options(args.variant, {})
    if rules.nplayers != 2:
        ap.error(f"{args.variant}: two seats only (the sampler of one other hand)")
    models = [float(m) for m in args.model.split(",")]
    right: dict[float, list[float]] = {m: [] for m in models}
    distinct: dict[float, list[int]] = {m: [] for m in models}
    policy = HeuristicPolicy(solver_cards=0)
    positions = 0
    for d in range(args.deals):
        state = State.new_deal(rules, args.seed * 1000 + d, dealer=1)
        step = 0
        while not state.is_terminal():
            if step % args.every == args.every - 1 and not state.end_phase:
                seat = state.current_player()
                obs = state.observation(seat)
                known = Counter(obs.opponent_known)
                real = hidden_hand(state, 1 - seat, known)
                positions += 1
                for m in models:
                    sampler = WorldSampler(obs, 0.0, m, policy if m else None)
                    rng = random.Random(args.seed * 7919 + step)
                    hands = []
                    for _ in range(args.worlds):
                        w = sampler.sample(rng)
                        h = hidden_hand(w, 1 - seat, known)
                        hands.append(tuple(sorted(h.elements())))
                        right[m].append(sum((h & real).values()))
                    distinct[m].append(len(set(hands)))
            state.apply_action(policy.choose(state))
            step += 1
    print(f"{args.variant}: {positions} positions of {args.deals} heuristic deals, "
          f"{args.worlds} worlds each")
    for m in models:
        name = "uniform" if not m else f"model={m:g}"
        print(f"  {name:>10}: hidden cards right a world {statistics.mean(right[m]):.2f}; "
              f"distinct hidden hands in {args.worlds} worlds: median "
              f"{statistics.median(distinct[m]):g} (min {min(distinct[m])})")


if __name__ == "__main__":
    main()
