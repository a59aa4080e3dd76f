"""The exact end-phase solver: a new version against an old one, on the same positions, in one run.

Usage::

    python benchmarks/bench_solver.py [--old REV] [--positions N] [--variant V ...] [--json]

The positions are the first end-phase trick (12 cards each in Binocle, 8 in classic Bezique) of
deals played by heuristic self-play (``HeuristicPolicy`` for both seats), seeds 1, 2, ... .  Each
position is solved by the old solver (``src/bezique/agents/solver.py`` at git revision ``REV``,
default ``HEAD``; ``--old none`` skips it) and by the working tree's solver; the values must be
equal and the best actions equal, or of equal value (checked by solving the position after each
best action with the old solver).  Prints median, 90th and 99th percentile and max of the time of
``solve`` (ms of this process's CPU time, ``time.process_time``, so that other jobs on a shared
machine weigh less; ``--wall`` for wall-clock time) and of the nodes, for each solver (the two
count different things: the old one every card played, the new one the trick positions it
searched).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from bezique import Rules, State
from bezique.agents import endgame as new_solver
from bezique.agents.heuristic import HeuristicPolicy

ROOT = Path(__file__).resolve().parent.parent


def load_old(rev: str) -> ModuleType:
    """The solver module as it was at git revision ``rev`` (imported inside the package, so its
    relative imports resolve)."""
    src = subprocess.run(["git", "show", f"{rev}:src/bezique/agents/solver.py"], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "solver_old.py"
    path.write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("bezique.agents._solver_old", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def heuristic_end_positions(rules: Rules, n: int, seed: int = 1) -> list[State]:
    """The first end-phase trick of ``n`` deals played by the heuristic for both seats."""
    policy = HeuristicPolicy(solver_cards=0)
    out = []
    sd = seed
    while len(out) < n:
        s = State.new_deal(rules, seed=sd, dealer=sd % 2)
        sd += 1
        while not s.end_phase and not s.is_terminal():
            s.apply_action(policy.choose(s))
        if not s.is_terminal():
            out.append(s)
    return out


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(xs: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(xs), 3), "p90": round(pct(xs, 0.90), 3),
            "p99": round(pct(xs, 0.99), 3), "max": round(max(xs), 3)}


def bench(variant: str, n: int, old: ModuleType | None, wall: bool = False) -> dict[str, Any]:
    clock = time.perf_counter if wall else time.process_time
    rules = Rules.preset(variant)
    positions = heuristic_end_positions(rules, n)
    times: dict[str, list[float]] = {"old": [], "new": []}
    nodes: dict[str, list[float]] = {"old": [], "new": []}
    same_best = 0
    new_solver.solve(positions[0])  # warm up: the move tables are built once per rule set
    if old is not None:
        old.solve(positions[0])
    for s in positions:
        t = clock()
        rn = new_solver.solve(s)
        times["new"].append((clock() - t) * 1000)
        nodes["new"].append(rn.nodes)
        if old is None:
            continue
        t = clock()
        ro = old.solve(s)
        times["old"].append((clock() - t) * 1000)
        nodes["old"].append(ro.nodes)
        assert ro.value == rn.value, (variant, ro, rn)
        if ro.best == rn.best:
            same_best += 1
        else:  # the new best action must keep the value
            q = s.current_player()
            c = s.clone()
            before = c.brisques
            c.apply(rn.best)
            gain = [c.brisques[i] - before[i] for i in (0, 1)]
            if c.is_terminal():
                rest = rules.last_trick_points if rules.last_trick == "final" else 0
                gain[c.last_trick_winner] += rest
                total = gain[q] - gain[1 - q]
            else:
                r = old.solve(c).value
                total = gain[q] - gain[1 - q] + (r if c.current_player() == q else -r)
            assert total == ro.value, (variant, ro, rn, total)
    out: dict[str, Any] = {"variant": variant, "positions": len(positions),
                           "cards": len(positions[0].hand(positions[0].current_player()))}
    for k in ("old", "new"):
        if times[k]:
            out[k] = {"ms": summary(times[k]), "nodes": summary(nodes[k])}
    if old is not None:
        out["same_best"] = same_best
        out["speedup_median"] = round(statistics.median(times["old"])
                                      / statistics.median(times["new"]), 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default="HEAD", help="git revision of the old solver, or 'none'")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--variant", nargs="*", default=["binocle", "bezique"])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    args = ap.parse_args()
    old = None if args.old == "none" else load_old(args.old)
    results = [bench(v, args.positions, old, args.wall) for v in args.variant]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        print(f"{r['variant']}: {r['positions']} positions, {r['cards']} cards each"
              + (f", same best action {r['same_best']}/{r['positions']}" if "same_best" in r
                 else ""))
        for k in ("old", "new"):
            if k in r:
                ms, nd = r[k]["ms"], r[k]["nodes"]
                print(f"  {k}: ms median {ms['median']}  p90 {ms['p90']}  p99 {ms['p99']}  "
                      f"max {ms['max']}   nodes median {nd['median']:.0f}  p99 {nd['p99']:.0f}  "
                      f"max {nd['max']:.0f}")
        if "speedup_median" in r:
            print(f"  speedup (median): {r['speedup_median']}x")


if __name__ == "__main__":
    main()
