"""Measure one deal's points per side in heuristic self-play, for the game-win tables.

The search plays for the game (:mod:`bezique.agents.game_value`): the chance of winning from
the points each side still needs comes from a small dynamic programme over the distribution of
one deal's points per seat.  This script measures that distribution (heuristic against
heuristic, the dealer alternating) and prints its mean, standard deviation, quantiles, the
correlation of the two seats' points, and the gamma distribution with the same mean and
spread (the two numbers stored in ``game_value.DEAL_POINTS``).

    taskset -c 0 python benchmarks/deal_points.py --deals 400 --seed 1 bezique binocle

At a table of three or four (``bezique3``, ``bezique4``; ``bezique4-solo`` is four players
each for themselves) a side is a seat, or two partners whose points add: the numbers are a
side's, for :data:`bezique.agents.table_game.SIDE_POINTS`.

    taskset -c 0 python benchmarks/deal_points.py --deals 400 --seed 1 \\
        bezique3 bezique4 bezique4-solo
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from bezique import Rules, State
from bezique.agents import make_agent


def rules_of(preset: str) -> Rules:
    """The rules of ``preset`` (``bezique4-solo``: four-handed without partnerships)."""
    if preset == "bezique4-solo":
        return Rules.preset("bezique4", partnership=False)
    return Rules.preset(preset)


def measure(preset: str, deals: int, seed: int) -> list[tuple[int, ...]]:
    """Each deal's final points per side (a seat, or partners added), the heuristic for every
    seat."""
    rules = rules_of(preset)
    agent = make_agent("heuristic", seed=seed)
    n = rules.nplayers
    out = []
    for i in range(deals):
        s = State.new_deal(rules, seed=seed * 1_000_003 + i, dealer=i % n)
        while not s.is_terminal():
            s.apply(agent.act(s.observation(s.current_player())))
        pts = s.scores
        out.append((pts[0] + pts[2], pts[1] + pts[3]) if s.partner(0) >= 0 else tuple(pts))
    return out


def report(preset: str, pts: list[tuple[int, ...]]) -> None:
    """Print the distribution's summary and the fitted gamma."""
    xs = sorted(p for d in pts for p in d)
    n = len(xs)
    mean = statistics.fmean(xs)
    sd = statistics.stdev(xs)
    corr = statistics.correlation([d[0] for d in pts], [d[1] for d in pts])
    qs = {q: xs[min(n - 1, int(q * n))] for q in (0.01, 0.1, 0.5, 0.9, 0.99, 0.995)}
    shape = (mean / sd) ** 2
    print(f"{preset}: {len(pts)} deals, {n} side-deals")
    print(f"  mean {mean:.1f}  sd {sd:.1f}  first two sides' correlation {corr:+.3f}")
    print("  quantiles " + "  ".join(f"{q:g}: {v}" for q, v in qs.items()))
    print(f"  P(a seat scores >= 1000 in one deal) {sum(x >= 1000 for x in xs) / n:.4f}")
    print(f"  gamma: shape {shape:.3f} scale {sd * sd / mean:.2f}"
          f"  -> ({mean:.0f}, {sd:.0f}) for DEAL_POINTS or SIDE_POINTS[{preset!r}]")
    # how well the gamma fits: its mean + k sd against the measured tail
    for k in (2, 3):
        print(f"  share above mean + {k} sd: {sum(x > mean + k * sd for x in xs) / n:.4f}"
              f"  (normal: {0.5 * math.erfc(k / math.sqrt(2)):.4f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("presets", nargs="*", default=["bezique", "binocle"])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for preset in args.presets:
        t0 = time.perf_counter()
        pts = measure(preset, args.deals, args.seed)
        report(preset, pts)
        print(f"  ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
