"""How good are the search's worlds?  Right cards and variety of the sampled other hands.

The search decides on worlds drawn by :class:`~bezique.agents.sampling.WorldSampler`: uniform
among the deals consistent with the seat's observation, or (``search:model=M``) weighted by how
well the opponent's past choices fit the heuristic's with that world's cards, drawn by a
Metropolis chain.  For positions of heuristic self-play this prints, for each sampler, the mean
number of the other hand's *hidden* cards a world gets right (cards the seat has seen in that
hand, shown melds and the like, not counted) and how many distinct hidden hands
``--worlds`` worlds hold: better inference gets more cards right, and a chain that mixes
slowly gives few distinct hands (the search then averages over fewer worlds than it thinks).

``--passes``: what the other seat's passes say.  A heuristic player declares whenever it wins a
trick and holds a legal meld, so each of its passes after a trick won says its hand then held
none.  For uniform worlds this prints how many explain every such pass (late in a multi-pack
deal hardly any do), and how far the points of the best meld the other hand could declare now
are from the truth: in uniform worlds, and in the same worlds weighted by ``1 - P`` for each
pass they do not explain (``--pass-weight P``), with the weights' effective number of worlds.

    taskset -c 0 python benchmarks/world_quality.py --variant rubicon --deals 4 --every 20 \\
        --worlds 60 --model 0,0.9
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter

from bezique import Rules, State
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.sampling import WorldSampler
from bezique.agents.targets import meld_targets


def hidden_hand(state: State, seat: int, known: Counter[int]) -> Counter[int]:
    """The cards (0..31, with multiplicity) of ``seat``'s hand less those in ``known``."""
    return Counter(c & 31 for c in state.hand(seat)) - known


def ready_points(state: State, seat: int) -> int:
    """The points of the best meld ``seat`` could declare now (0: none)."""
    melds = HeuristicPolicy._ready(state, meld_targets(state.rules, state.trump), seat)[0]
    return melds[0][0] if melds else 0


def passes(obs_state: State, seat: int, worlds: int, weight: float,
           rng: random.Random) -> tuple[float, float, float, float]:
    """(share of uniform worlds explaining every pass of the other seat, absolute error of the
    other hand's ready-meld points: uniform and pass-weighted, effective number of worlds)."""
    obs = obs_state.observation(seat)
    truth = ready_points(obs_state, 1 - seat)
    sampler = WorldSampler(obs, weight)  # (its likelihood counts the passes not explained)
    got: list[tuple[int, int]] = []
    while len(got) < worlds:
        for _i, _deal, world, loglik in sampler._consistent(rng):
            got.append((round(loglik / math.log(1.0 - weight)), ready_points(world, 1 - seat)))
            if len(got) == worlds:
                break
    w = [(1.0 - weight) ** k for k, _ in got]
    uniform = sum(r for _, r in got) / worlds
    weighted = sum(x * r for x, (_, r) in zip(w, got, strict=True)) / sum(w)
    ess = sum(w) ** 2 / sum(x * x for x in w)
    return (sum(1 for k, _ in got if k == 0) / worlds, abs(uniform - truth),
            abs(weighted - truth), ess)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="rubicon")
    ap.add_argument("--deals", type=int, default=4, help="heuristic self-play deals")
    ap.add_argument("--every", type=int, default=20, help="a position every N actions")
    ap.add_argument("--worlds", type=int, default=60)
    ap.add_argument("--model", default="0,0.9", help="samplers: model strengths, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--passes", action="store_true",
                    help="also what the other seat's passes say (see the module)")
    ap.add_argument("--pass-weight", type=float, default=0.95)
    args = ap.parse_args()
    rules = Rules.from_options(args.variant, {})
    if rules.nplayers != 2:
        ap.error(f"{args.variant}: two seats only (the sampler of one other hand)")
    models = [float(m) for m in args.model.split(",")]
    right: dict[float, list[float]] = {m: [] for m in models}
    distinct: dict[float, list[int]] = {m: [] for m in models}
    policy = HeuristicPolicy(solver_cards=0)
    positions = 0
    said: list[tuple[int, tuple[float, float, float, float]]] = []
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
                if args.passes:
                    said.append((state.stock_left, passes(
                        state, seat, args.worlds, args.pass_weight,
                        random.Random(args.seed * 7919 + step))))
            state.apply_action(policy.choose(state))
            step += 1
    print(f"{args.variant}: {positions} positions of {args.deals} heuristic deals, "
          f"{args.worlds} worlds each")
    for m in models:
        name = "uniform" if not m else f"model={m:g}"
        print(f"  {name:>10}: hidden cards right a world {statistics.mean(right[m]):.2f}; "
              f"distinct hidden hands in {args.worlds} worlds: median "
              f"{statistics.median(distinct[m]):g} (min {min(distinct[m])})")
    if said:
        half = max(1, rules.stock_size) // 2
        print(f"  the other seat's passes (each not explained weighs {1 - args.pass_weight:g}):")
        for name, part in (("more than half the stock left", [r for s, r in said if s > half]),
                           ("half or less left", [r for s, r in said if s <= half])):
            if part:
                print(f"    {name} ({len(part)} positions): uniform worlds explaining every "
                      f"pass {100 * statistics.mean(r[0] for r in part):.0f}%; other hand's "
                      f"ready-meld points, mean absolute error: uniform "
                      f"{statistics.mean(r[1] for r in part):.0f}, weighted "
                      f"{statistics.mean(r[2] for r in part):.0f} (effective worlds, median "
                      f"{statistics.median(r[3] for r in part):.0f} of {args.worlds})")


if __name__ == "__main__":
    main()
