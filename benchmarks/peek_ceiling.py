"""How much do the hidden cards cost the search?  The search played with the other hand shown.

Issue #13 asks the search to win 65% of duplicated Rubicon and Six-pack deals against the
heuristic; it wins about 62% of Rubicon deals (``benchmarks/STRENGTH.md``).  This benchmark
plays the arena's duplicated deals (the same cards and the same agents' seeds as ``bezique
arena search heuristic --variant V --seed S``, pair by pair) with a search that *peeks*: every
world it samples is the real deal, the other hand exactly as it is, and only the undrawn stock
shuffled (``--peek all``: the stock in its real order too, full clairvoyance).  Everything else
(worlds, rollouts, horizon, leaf values, the head start for the heuristic's choice) is the
search's own, so the difference from the fair search is what its sampling of the hidden cards
costs it: a ceiling for any better inference of the hidden cards within this method, and a
yardstick for the 65% target.

It runs the pure-Python build (the peek replaces the search's world sampler, which a compiled
build calls directly), so it is about three times slower than the arena:

    taskset -c 0 python benchmarks/peek_ceiling.py --variant rubicon --pairs 40 --seed 1 \\
        [--peek hand|all] [--games] [--spec search] [--log FILE]

``--games`` plays duplicated games to the target instead of single deals (the arena's
``--games``; the peek holds in every deal).  ``--log`` keeps one JSON line a pair and resumes
from it (each line names the setting it was played with, and a log of another setting is
refused: give each its own file).  The report is the arena's summary
(:class:`~bezique.arena.MatchResult`): the peeking search's deals won, its Elo with the 95%
interval (pairs as the unit) and its settled points a deal.
"""

from __future__ import annotations

import os

os.environ["BEZIQUE_PURE"] = "1"  # before bezique is imported: the peek needs the .py modules

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import bezique.agents.search as search_mod
from bezique import Rules, State, arena
from bezique.arena import HalfResult, MatchResult, PairResult, PairTask, play_pair

REAL: list[State] = []  # the deal being played (set by the arena's play_deal, patched below)
PEEK = ["hand"]
WORLDS = [0]  # worlds the peeking sampler gave (so the report shows that the peek was used)


class PeekSampler:
    """Stands in for :class:`~bezique.agents.sampling.WorldSampler`: the real deal, its undrawn
    stock shuffled (``hand``) or not (``all``)."""

    def __init__(self, obs: Any, *args: Any, **kwargs: Any) -> None:
        self.state = REAL[0]

    def sample(self, rng: random.Random, deadline: float = 0.0) -> State:
        WORLDS[0] += 1
        world = self.state.clone()
        if PEEK[0] == "hand":  # (as the opponent model's sampler reshuffles its worlds)
            rest = list(world.stock[world.stock_pos:])
            rng.shuffle(rest)
            world.stock = world.stock[:world.stock_pos] + tuple(rest)
        return world


_play_deal = arena.play_deal


def peeked_play_deal(state: State, agents: Any) -> None:
    """The arena's play_deal with the real deal made known to the peeking sampler."""
    REAL[:] = [state]
    _play_deal(state, agents)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="rubicon")
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spec", default="search", help="the peeking search's agent spec")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--peek", choices=("hand", "all"), default="hand")
    ap.add_argument("--games", action="store_true",
                    help="duplicated games to the target (the arena's --games), not single deals")
    ap.add_argument("--log", type=Path, default=None, help="JSON lines, one a pair; resumes")
    args = ap.parse_args()
    PEEK[0] = args.peek
    search_mod.WorldSampler = PeekSampler  # type: ignore[misc,assignment]
    arena.play_deal = peeked_play_deal
    rules = Rules.from_options(args.variant, {})
    if rules.nplayers != 2:
        ap.error(f"{args.variant}: two seats only (the sampler of one other hand)")
    options = tuple(sorted(rules.options().items()))
    mode = "games" if args.games else "deals"
    setting = {"variant": rules.variant, "seed": args.seed, "spec": args.spec,
               "opponent": args.opponent, "peek": args.peek, "mode": mode}
    done: dict[int, dict[str, Any]] = {}
    if args.log and args.log.exists():
        for line in args.log.read_text().splitlines():
            row = json.loads(line)
            # rows name their setting (older logs' rows do not: they are taken as they are)
            other = {k: row[k] for k in setting if k in row and row[k] != setting[k]}
            if other:
                ap.error(f"{args.log}: pair {row['pair']} was played with {other}, not this "
                         "run's setting (a log is of one setting: give each its own file)")
            done[row["pair"]] = row
    for i in range(args.pairs):
        if i in done:
            continue
        t0 = time.perf_counter()
        task = PairTask(i, (args.spec, args.opponent), rules.variant, options, mode,
                        args.seed, False)
        res = play_pair(task)
        row = {"pair": i, **setting, "scores": [h.score for h in res.halves],
               "points": [list(h.points) for h in res.halves],
               "deals": [h.deals for h in res.halves],
               "seconds": round(time.perf_counter() - t0, 1)}
        done[i] = row
        if args.log:
            with args.log.open("a") as f:
                f.write(json.dumps(row) + "\n")
        print(f"pair {i}: {row['scores']} {row['points']} ({row['seconds']} s)", flush=True)
    # the arena's own summary of the pairs (score, interval, Elo, points a deal)
    match = MatchResult((args.spec, args.opponent), mode, args.seed, [
        PairResult(i, tuple(HalfResult(sc, (pt[0], pt[1]), n)  # type: ignore[arg-type]
                            for sc, pt, n in zip(done[i]["scores"], done[i]["points"],
                                                 done[i].get("deals", [1, 1]), strict=True)))
        for i in sorted(done) if i < args.pairs])
    lo, hi = match.elo_ci95
    pa, pb = match.points_per_deal
    played = (f"{match.games} games ({match.deals_played} deals)" if args.games
              else f"{match.games} deals")
    both = sum(1 for p in match.pairs if p.score == 1.0)
    lost = sum(1 for p in match.pairs if p.score == 0.0)
    print(f"{args.spec} peeking ({args.peek}) v {args.opponent}, {args.variant}, "
          f"{played}: won {match.wins[0]}, lost {match.wins[1]}, drawn {match.draws}: "
          f"{match.score:.1%}, Elo {match.elo:+.0f} [{lo:+.0f}, {hi:+.0f}]; {pa:.1f} - {pb:.1f} "
          f"settled points a deal; pairs won twice {both}, split "
          f"{len(match.pairs) - both - lost}, lost twice {lost} "
          f"({WORLDS[0]} worlds peeked this run)")


if __name__ == "__main__":
    main()
