"""The playing levels measured against each other in Elo, with 95% intervals (issue #18 item 4).

Usage::

    taskset -c 0 python benchmarks/levels_elo.py [--games 200 | --deals N] [--pairs 1-2,2-3,3-4,4-5]
        [--variant bezique] [--jobs 1] [--seed 1] [--out FILE] [--save DIR]

Each pair of levels (``bezique.agents.levels.LEVELS``) plays a match in the arena
(:func:`bezique.arena.run_match`: duplicated games or deals, seats swapped), giving the Elo
difference of the higher level over the lower with its 95% interval.  The ladder then anchors
level 1 at 0 and adds the differences of adjacent pairs; a level's interval adds the pairs'
half-widths in quadrature (the matches are independent).  The levels that think are defined by
time, so give each game a core of its own (``--jobs`` no more than the free cores) or the
levels are weaker than they are.  The Markdown table is printed, and written to ``--out``.
With ``--save DIR`` every game is kept as a record in ``DIR/<lower>-<higher>/`` and a run that
was stopped goes on where it stopped when started again with the same arguments (the arena's
``resume``): the whole ladder takes many hours of one core, more than one sitting.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from bezique import Rules
from bezique.agents.levels import LEVEL_NAMES, LEVELS
from bezique.arena import MatchResult, run_match


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """``"1-2,2-3"`` -> [(1, 2), (2, 3)] (each a lower and a higher level).

    >>> parse_pairs("1-2, 3-5")
    [(1, 2), (3, 5)]
    """
    out = []
    for part in text.split(","):
        lo, hi = (int(x) for x in part.strip().split("-"))
        if lo not in LEVELS or hi not in LEVELS or lo >= hi:
            raise SystemExit(f"bad pair {part.strip()!r}: levels 1 to 5, the lower first")
        out.append((lo, hi))
    return out


def ladder(results: dict[tuple[int, int], MatchResult]) -> dict[int, tuple[float, float]]:
    """(Elo, 95% half-width) of each level reachable from level 1 through adjacent pairs."""
    out: dict[int, tuple[float, float]] = {1: (0.0, 0.0)}
    for lv in range(2, 6):
        m = results.get((lv - 1, lv))
        if m is None or lv - 1 not in out:
            break
        base, var = out[lv - 1]
        # the match is (higher level) A against (lower level) B: A's Elo over B
        lo, hi = m.elo_ci95
        half = (hi - lo) / 2.0
        out[lv] = (base + m.elo, math.sqrt(var * var + half * half))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    count = ap.add_mutually_exclusive_group()
    count.add_argument("--games", type=int, default=None, help="1000-point games a pair")
    count.add_argument("--deals", type=int, default=None, help="single deals a pair")
    ap.add_argument("--pairs", default="1-2,2-3,3-4,4-5")
    ap.add_argument("--variant", default="bezique")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--save", type=Path, default=None,
                    help="keep each pair's games in DIR/L-H/ and resume from them")
    args = ap.parse_args()
    games, deals = args.games, args.deals
    if games is None and deals is None:
        games = 200
    rules = Rules.preset(args.variant)
    results: dict[tuple[int, int], MatchResult] = {}
    lines = [f"Levels in Elo ({args.variant}; {games or deals} "
             f"{'games' if games else 'deals'} a pair, seed {args.seed})", "",
             "| pair | A (higher) | B (lower) | A wins | B wins | draws | Elo A−B [95%] | time |",
             "|---|---|---|---|---|---|---|---|"]
    for lo, hi in parse_pairs(args.pairs):
        t0 = time.perf_counter()
        save = None if args.save is None else args.save / f"{lo}-{hi}"
        m = run_match(LEVELS[hi], LEVELS[lo], rules, games=games, deals=deals, seed=args.seed,
                      jobs=args.jobs, save=save, resume=save is not None)
        results[(lo, hi)] = m
        a, b = m.wins
        e_lo, e_hi = m.elo_ci95
        lines.append(f"| {hi}–{lo} | {LEVELS[hi]} | {LEVELS[lo]} | {a} | {b} | {m.draws} | "
                     f"{m.elo:+.0f} [{e_lo:+.0f}, {e_hi:+.0f}] | "
                     f"{(time.perf_counter() - t0) / 60:.1f} min |")
        print(lines[-1], flush=True)
    lines += ["", "| level | name | spec | Elo (level 1 = 0) [95%] |", "|---|---|---|---|"]
    for lv, (elo, half) in ladder(results).items():
        lines.append(f"| {lv} | {LEVEL_NAMES[lv]} | {LEVELS[lv]} | {elo:+.0f} "
                     f"[{elo - half:+.0f}, {elo + half:+.0f}] |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
