"""Engine speed on one core: random deals, clone, apply/undo, declaring-turn legal actions, solver.

Usage::

    python benchmarks/bench_engine.py [--seconds S] [--json] [--variant bezique] [--deals-only]

Each measurement runs for about ``--seconds`` seconds.  ``--json`` prints one object with at least
``random_deals_per_s``, ``clone_per_s``, ``solve_ms_median`` and ``solve_ms_p99``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from bezique import Rules, State
from bezique import actions as act


def _timed(fn: Callable[[], int], seconds: float) -> float:
    """Run ``fn`` (returning a work count) until ``seconds`` elapse; work per second."""
    done = 0
    start = time.perf_counter()
    while True:
        done += fn()
        el = time.perf_counter() - start
        if el >= seconds:
            return done / el


def random_deal(rules: Rules, seed: int) -> State:
    """Play one whole deal with uniformly random legal actions through the public API.

    The pick is ``la[int(rng.random() * len(la))]``: uniform, and cheaper than
    ``rng.choice``, whose cost (about 1.5 us a call) belongs to the harness, not the engine."""
    rng = random.Random(seed)
    rand = rng.random
    s = State.new_deal(rules, seed=seed)
    legal, apply, over = s.legal_actions, s.apply_action, s.is_terminal
    while not over():
        la = legal()
        apply(la[int(rand() * len(la))])
    return s


def mid_deal(rules: Rules, seed: int, steps: int = 40) -> State:
    """A state some way into a random deal, with a card to lead."""
    rng = random.Random(seed)
    s = State.new_deal(rules, seed=seed)
    n = 0
    while not s.is_terminal() and (n < steps or s.phase != "lead"):
        s.apply_action(rng.choice(s.legal_actions()))
        n += 1
    return s


def rich_declaring_state(rules: Rules, seed: int = 0, tries: int = 200) -> State:
    """A declaring turn with many shown cards: players who always meld and keep their shown
    cards; the start of the declaring turn with the most shown cards over ``tries`` deals."""
    best: State | None = None
    best_n = -1
    for sd in range(seed, seed + tries):
        rng = random.Random(sd)
        s = State.new_deal(rules, seed=sd)
        while not s.is_terminal() and not s.end_phase:
            la = s.legal_actions()
            if s.phase == "declare":
                if act.is_play(s.history()[-1][1]):
                    n = len(s.shown(s.current_player()))
                    if n > best_n:
                        best, best_n = s.clone(), n
                melds = [a for a in la if act.is_meld(a)]
                s.apply_action(max(melds, key=lambda a: len(act.meld_cards(a))) if melds
                               else act.PASS)
                continue
            concealed = [a for a in la if "*" not in s.action_to_string(a)]
            s.apply_action(rng.choice(concealed or la))
    assert best is not None
    return best


def end_positions(rules: Rules, n: int, seed: int = 1) -> list[State]:
    """States at the first of the end-phase tricks from ``n`` random deals."""
    out = []
    sd = seed
    while len(out) < n:
        rng = random.Random(sd)
        s = State.new_deal(rules, seed=sd)
        sd += 1
        while not s.end_phase and not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            out.append(s)
    return out


def measure(seconds: float, variant: str, deals_only: bool = False) -> dict[str, Any]:
    """Every measurement (or only random deals per second), as a dict."""
    rules = Rules.preset(variant)
    import bezique.state

    res: dict[str, Any] = {"variant": variant, "python": platform.python_version(),
                           "machine": platform.machine(),
                           "compiled": getattr(bezique, "COMPILED",
                                               not bezique.state.__file__.endswith(".py"))}
    seeds = iter(range(10**9))
    res["random_deals_per_s"] = round(_timed(lambda: (random_deal(rules, next(seeds)), 1)[1],
                                             seconds), 1)
    if deals_only:
        return res
    base = mid_deal(rules, 5)

    def clones() -> int:
        c = base.clone
        for _ in range(1000):
            c()
        return 1000

    res["clone_per_s"] = round(_timed(clones, seconds))
    lead = base.legal_actions()[0]
    base.apply_action(lead)
    follows = base.legal_actions()
    base.undo_action()

    def apply_undo() -> int:
        # one whole trick: lead, follow, then undo both
        ap, un = base.apply_action, base.undo_action
        for f in follows:
            ap(lead)
            ap(f)
            un()
            un()
        return 2 * len(follows)

    res["apply_undo_per_s"] = round(_timed(apply_undo, seconds))

    def legal() -> int:
        f = base.legal_actions
        for _ in range(500):
            f()
        return 500

    res["legal_actions_per_s"] = round(_timed(legal, seconds))
    rich = rich_declaring_state(rules)
    res["declare_shown_cards"] = len(rich.shown(rich.current_player()))
    res["declare_legal_actions"] = len(rich.legal_actions())

    def legal_declare() -> int:
        f = rich.legal_actions
        for _ in range(50):
            f()
        return 50

    res["declare_legal_per_s"] = round(_timed(legal_declare, seconds))
    tracemalloc.start()
    snap0 = tracemalloc.take_snapshot()
    keep = [mid_deal(rules, 100 + i) for i in range(50)]
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(st.size_diff for st in snap1.compare_to(snap0, "filename"))
    res["bytes_per_state_with_history"] = round(grown / len(keep))
    res.update(measure_solver(rules, seconds))
    return res


def measure_solver(rules: Rules, seconds: float) -> dict[str, Any]:
    """Median and 99th percentile of the exact solver from the first end-phase trick."""
    try:
        from bezique.agents.endgame import solve
    except ImportError:
        return {"solve_ms_median": None, "solve_ms_p99": None, "solve_positions": 0}
    times = []
    positions = end_positions(rules, 200)
    deadline = time.perf_counter() + max(seconds * 10, 5.0)
    for s in positions:
        t = time.perf_counter()
        solve(s)
        times.append((time.perf_counter() - t) * 1000)
        if time.perf_counter() > deadline and len(times) >= 20:
            break
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    return {
        "solve_ms_median": round(statistics.median(times), 3),
        "solve_ms_p99": round(p99, 3),
        "solve_positions": len(times),
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, measure, print a table or JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--variant", default="bezique")
    ap.add_argument("--deals-only", action="store_true",
                    help="measure random deals per second only (for interleaved comparisons)")
    args = ap.parse_args(argv)
    res = measure(args.seconds, args.variant, args.deals_only)
    if args.json:
        print(json.dumps(res))
    else:
        width = max(len(k) for k in res)
        for k, v in res.items():
            print(f"{k:<{width}}  {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
