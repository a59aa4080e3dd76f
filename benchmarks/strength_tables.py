"""Playing strength at a table of three or four (issue #14): duplicated deals, running totals.

bezique4 (partnership): every deal is played twice with the same cards, team A (``--a``, seats
0 & 2) against team B (``--b``, seats 1 & 3), then the teams swap sides.  A team wins a deal when
its side's points (the partners' added) are higher.  bezique3: every deal is played three times
with agent A in each seat in turn and agent B in the other two; A wins a deal when its points are
the highest (alone), against an expected third.

The report gives deals won with a 95% interval over the duplicated sets (the mean of each set's
share, normal approximation) and the median decision time of agent A (its decisions with more
than one legal action), and prints a running total after every deal so that a run cut short
still says how far it got.

    python benchmarks/strength_tables.py --variant bezique4 --deals 200 --seed 1 > out.txt
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

from bezique import Rules, State
from bezique.agents import make_agent


def play(rules: Rules, seed: int, specs: list[str], a_seats: set[int],
         times: list[float]) -> tuple[int, ...]:
    """One deal of ``seed`` with agent ``specs[i]`` at seat ``i``; its scores.  The decision
    times of the seats in ``a_seats`` with a real choice are added to ``times``."""
    agents = [make_agent(spec, seed=seed * 10 + i) for i, spec in enumerate(specs)]
    state = State.new_deal(rules, seed=seed)
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        start = time.perf_counter()
        text = agents[seat].act(obs)
        if seat in a_seats and len(obs.legal) > 1:
            times.append(time.perf_counter() - start)
        state.apply(text)
    return state.scores


def interval(shares: list[float]) -> tuple[float, float, float]:
    """(mean, low, high) of the 95% normal interval of the mean of ``shares``."""
    m = statistics.fmean(shares)
    if len(shares) < 2:
        return m, 0.0, 1.0
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares))
    return m, max(0.0, m - half), min(1.0, m + half)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bezique4", choices=("bezique3", "bezique4"))
    ap.add_argument("--a", default="search")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0,
                    help="start at this deal (0-based): go on with a run cut short, then add "
                         "the two runs' per-deal lines")
    args = ap.parse_args(argv)
    rules = Rules.preset(args.variant)
    n = rules.nplayers
    times: list[float] = []
    shares: list[float] = []
    played = 0
    pts_a = pts_b = 0.0
    begin = time.time()
    print(f"# {args.variant}: A = {args.a}, B = {args.b}, {args.deals} duplicated deals from seed "
          f"{args.seed}" + (f", from deal {args.first + 1}" if args.first else ""), flush=True)
    for d in range(args.first, args.deals):
        seed = args.seed * 100_000 + d
        wins = 0.0
        if n == 4:
            for a_first in (True, False):
                a_seats = {0, 2} if a_first else {1, 3}
                specs = [args.a if i in a_seats else args.b for i in range(4)]
                s = play(rules, seed, specs, a_seats, times)
                a_side = sum(s[i] for i in a_seats)
                b_side = sum(s) - a_side
                wins += 1.0 if a_side > b_side else 0.5 if a_side == b_side else 0.0
                pts_a += a_side
                pts_b += b_side
            halves = 2
        else:
            for a_seat in range(3):
                specs = [args.a if i == a_seat else args.b for i in range(3)]
                s = play(rules, seed, specs, {a_seat}, times)
                best_other = max(s[i] for i in range(3) if i != a_seat)
                wins += 1.0 if s[a_seat] > best_other else 0.0
                pts_a += s[a_seat]
                pts_b += sum(s[i] for i in range(3) if i != a_seat) / 2
            halves = 3
        played += halves
        shares.append(wins / halves)
        m, lo, hi = interval(shares)
        med = statistics.median(times) if times else 0.0
        print(f"deal {d + 1}/{args.deals}: A won {sum(x * halves for x in shares):g} of "
              f"{played} ({100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]); points/deal A "
              f"{pts_a / played:.0f} B {pts_b / played:.0f}; A's median decision "
              f"{1000 * med:.0f} ms over {len(times)}; {(time.time() - begin) / 60:.1f} min",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
