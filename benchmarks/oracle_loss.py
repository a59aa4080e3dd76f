"""An agent's loss against a perfect-information oracle, and how often it finds the solver's move.

Usage::

    taskset -c 1 python benchmarks/oracle_loss.py search:ms=3000 [--opponent heuristic]
        [--deals 50] [--seed 1] [--variant bezique] [--log FILE.jsonl] [--summary FILE.jsonl]

The agent plays ``--deals`` deals against ``--opponent``, each deal twice with the seats
swapped (the same cards).  At every decision of the agent with more than one legal action, the
oracle, which sees every card and the order of the stock, values each legal action: it applies
the action to the real state and plays the deal out, both seats by the heuristic until the end
phase and then perfectly (the exact end solver).  The decision's *loss* is the oracle's value of
its best action less that of the agent's action (0 when the agent chose a best one); a deal's
loss is the sum over the agent's decisions.

In the end phase (the last eight tricks of classic Bezique) the oracle is exact and the agent
sees every card too (the unseen cards are the other hand), so there the loss is 0 exactly when
the agent found the solver's move (one of them, when several are as good): the report gives the
share of those decisions it found.  Before the end phase the oracle's continuation is the
heuristic (an exact perfect-information solve of the stock phase is out of reach): it knows how
each action turns out, the cards each side will draw included, but looks only one action ahead.
The stock-phase loss is mostly what the hidden cards and the unknown stock cost any player, so it
is large; the agent's mistakes add to it, and of two agents the one with the lower loss plays
better against the same opponent.

Each finished pair of plays is appended to ``--log`` as one JSON line, and a run given the same
log goes on from where it stopped (``--summary`` prints the report of a log without playing).
Only this script gives the oracle the real state: no agent sees it.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.rollout import Rollout


def oracle_values(state: State, seat: int, roll: Rollout) -> dict[str, float]:
    """The full oracle's value for ``seat`` of every legal action in the real ``state``: it
    knows the order of the stock too, so each action has one outcome."""
    out = {}
    for text in state.legal_action_strings():
        s = state.clone()
        s.apply(text)
        out[text] = roll.value(s, seat, 0)
    return out


def play(rules: Rules, agent: str, opponent: str, seed: int, deal: int, seat: int,
         roll: Rollout) -> dict[str, Any]:
    """One deal with ``agent`` in ``seat``: its decisions' losses, split by phase."""
    state = State.new_deal(rules, seed * 100_003 + deal, dealer=deal & 1)
    players = {seat: make_agent(agent, seed=seed * 1000 + deal),
               1 - seat: make_agent(opponent, seed=seed * 1000 + deal + 7)}
    stock: list[float] = []
    end: list[float] = []
    think = 0.0
    while not state.is_terminal():
        p = state.current_player()
        obs = state.observation(p)
        t0 = time.perf_counter()
        text = players[p].act(obs)
        if p == seat:
            think += time.perf_counter() - t0
            if len(obs.legal) > 1:
                values = oracle_values(state, seat, roll)
                loss = max(values.values()) - values[text]
                (end if state.end_phase else stock).append(loss)
        state.apply(text)
    return {"seat": seat, "stock": stock, "end": end,
            "think_s": round(think, 2), "points": list(state.scores)}


def summary(rows: list[dict[str, Any]]) -> str:
    """The report of the logged plays."""
    end = [x for r in rows for x in r["end"]]
    stock = [x for r in rows for x in r["stock"]]
    per_deal = [sum(r["stock"]) + sum(r["end"]) for r in rows]
    se = statistics.stdev(per_deal) / math.sqrt(len(rows)) if len(rows) > 1 else math.nan
    found = sum(1 for x in end if x <= 1e-9)
    think = sum(r["think_s"] for r in rows)
    decisions = len(stock) + len(end)
    return "\n".join([
        f"plays (deal x seat): {len(rows)}; agent decisions with a choice: {decisions} "
        f"({len(stock)} before the end phase, {len(end)} in it); "
        f"thinking {think / max(decisions, 1):.2f} s a decision",
        f"loss against the oracle: {statistics.mean(per_deal):.1f} ± {se:.1f} points a deal "
        f"(standard error); {statistics.mean(stock) if stock else 0:.2f} a decision before the "
        f"end phase, {statistics.mean(end) if end else 0:.2f} in it",
        f"end phase: the solver's move (or one as good) found in {found} of {len(end)} "
        f"decisions ({100 * found / max(len(end), 1):.1f}%)",
    ])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("agent", nargs="?", default="search:ms=3000",
                    help="agent spec (default: level 5, search:ms=3000)")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--deals", type=int, default=50, help="deals, each played in both seats")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="bezique")
    ap.add_argument("--log", type=Path, default=None, help="JSON lines, one per pair; resumes")
    ap.add_argument("--summary", type=Path, default=None, help="report a log and stop")
    args = ap.parse_args(argv)
    if args.summary is not None:
        lines = args.summary.read_text().splitlines()
        print(summary([r for line in lines for r in json.loads(line)["plays"]]))
        return
    rules = Rules.preset(args.variant)
    roll = Rollout(HeuristicPolicy(solver_cards=0), solver_cards=rules.hand_size,
                   solver_nodes=50_000_000)
    rows: list[dict[str, Any]] = []
    done: set[int] = set()
    if args.log is not None and args.log.exists():
        for line in args.log.read_text().splitlines():
            rec = json.loads(line)
            done.add(rec["deal"])
            rows.extend(rec["plays"])
    for deal in range(args.deals):
        if deal in done:
            continue
        plays = [play(rules, args.agent, args.opponent, args.seed, deal, seat, roll)
                 for seat in (0, 1)]
        rows.extend(plays)
        if args.log is not None:
            with args.log.open("a") as f:
                f.write(json.dumps({"agent": args.agent, "opponent": args.opponent,
                                    "variant": args.variant, "seed": args.seed, "deal": deal,
                                    "plays": plays}) + "\n")
        print(f"deal {deal + 1}/{args.deals}: loss "
              + " / ".join(f"{sum(p['stock']) + sum(p['end']):.0f}" for p in plays), flush=True)
    print(summary(rows))


if __name__ == "__main__":
    main()
