"""Playing strength: search vs heuristic, search vs random, heuristic vs random (issue #3).

Usage::

    python benchmarks/strength.py [--deals 200] [--games 50] [--jobs 2] [--seed 1]
        [--search search] [--search-deals N] [--search-games N] [--only NAME,...]
        [--solver-positions 30] [--decision-deals 0] [--out benchmarks/STRENGTH.md]

Every match is played in the arena (``bezique.arena``): duplicated deals (each deal twice, seats
swapped) and duplicated 1000-point games.  The Markdown report is rewritten after each match, so
a run stopped early keeps what it measured.  ``--search-deals`` / ``--search-games`` lower the
counts of the two matches with the search agent when time is short; the report says so.
Matches: ``heuristic-random``, ``search-random``, ``search-heuristic`` (``--only`` picks some).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.endgame import solve
from bezique.agents.search import candidates
from bezique.arena import MatchResult, run_match

HERE = Path(__file__).resolve().parent
MATCHES = ("heuristic-random", "search-random", "search-heuristic")


@dataclass
class Row:
    """One finished match and its wall time."""

    result: MatchResult
    seconds: float


def _fmt_row(r: Row) -> str:
    m = r.result
    a, b = m.agents
    wa, wb = m.wins
    lo, hi = m.elo_ci95
    ppd = m.points_per_deal
    what = "games" if m.mode == "games" else "deals"
    return (f"| {a} | {b} | {what} | {m.games} | {wa} | {wb} | {m.draws} | "
            f"{100 * wa / m.games:.1f}% | {ppd[0]:.1f} – {ppd[1]:.1f} | "
            f"{m.elo:+.0f} [{lo:+.0f}, {hi:+.0f}] | {r.seconds / 60:.1f} min |")


def _win_rate(m: MatchResult) -> tuple[float, float, float]:
    """A's share of games won and its 95% interval (pairs as units, see the arena)."""
    lo, hi = m.score_ci95
    return m.wins[0] / m.games, lo, hi


def _target_line(rows: dict[tuple[str, str, str], Row], a: str, b: str, need: float,
                 label: str) -> str:
    key = (a, b, "games")
    if key not in rows:
        return f"| {label} | ≥ {100 * need:.0f}% | not measured | – |"
    m = rows[key].result
    p, lo, hi = _win_rate(m)
    verdict = "met" if p >= need else "not met"
    return (f"| {label} | ≥ {100 * need:.0f}% | {100 * p:.1f}% of {m.games} games "
            f"(95% interval {100 * lo:.0f}–{100 * hi:.0f}%) | {verdict} |")


def solver_times(n: int, seed: int) -> tuple[float, float, int]:
    """Median and worst ms, and median nodes, of the exact solver on the first of the last
    eight tricks, in deals played to that point by two heuristic players."""
    rules = Rules.preset("bezique")
    times: list[float] = []
    nodes: list[int] = []
    for i in range(n):
        state = State.new_deal(rules, seed=seed * 7919 + i)
        agents = [make_agent("heuristic", seed=i), make_agent("heuristic", seed=i + 1)]
        while not (state.end_phase and state.phase == "lead"):
            p = state.current_player()
            state.apply(agents[p].act(state.observation(p)))
        res = solve(state.observation(state.current_player()))
        times.append(res.ms)
        nodes.append(res.nodes)
    return statistics.median(times), max(times), int(statistics.median(nodes))


def decision_times(spec: str, n: int, seed: int) -> tuple[float, float, float, int]:
    """Seconds the search agent thinks a decision in ``n`` deals of two heuristic players
    (it answers every decision of seat 0, the heuristic's move is played): median over all
    decisions, median and 90th percentile over those with a real choice (more than one
    candidate, before the end phase), and how many decisions were timed."""
    rules = Rules.preset("bezique")
    every: list[float] = []
    real: list[float] = []
    for i in range(n):
        state = State.new_deal(rules, seed=seed * 104_729 + i)
        agents = [make_agent("heuristic", seed=i), make_agent("heuristic", seed=i + 1)]
        search = make_agent(spec, seed=i)
        while not state.is_terminal():
            p = state.current_player()
            obs = state.observation(p)
            if p == 0:
                t0 = time.perf_counter()
                search.act(obs)
                dt = time.perf_counter() - t0
                every.append(dt)
                if len(candidates(obs)) > 1 and not (obs.stock == 0 and obs.turnup is None):
                    real.append(dt)
            state.apply(agents[p].act(obs))
    real.sort()
    return (statistics.median(every), statistics.median(real), real[int(0.9 * len(real))],
            len(every))


def _git_commit() -> str:
    """The commit checked out, with ``+changes`` if ``src`` differs from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "../src"], cwd=HERE,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def write_report(path: Path, args: argparse.Namespace, command: str,
                 rows: dict[tuple[str, str, str], Row], solver: tuple[float, float, int] | None,
                 done: bool, started: str, commit: str,
                 decisions: tuple[float, float, float, int] | None = None) -> None:
    """The Markdown report of the rows measured so far."""
    lines = [
        "# Playing strength",
        "",
        f"Produced by `{command}`",
        f"(started {started}, {'finished' if done else 'still running / stopped early'}; "
        f"code of commit {commit}; {platform.python_implementation()} "
        f"{platform.python_version()} on {os.cpu_count()} cores shared with other work).",
        "",
        "Duplicated play: every deal (game) is played twice with the same cards and the seats",
        "swapped; *played* counts both halves.  Games are to 1000 points.  A draw is a single",
        "deal with equal points.  Elo is A minus B from A's score fraction (draws half), with a",
        "95% interval over the duplicated pairs (see `bezique.arena`).",
        "",
        "| A | B | mode | played | A wins | B wins | draws | A won | points/deal A – B "
        "| Elo A−B [95%] | time |",
        "|---|---|---|---:|---:|---:|---:|---:|---|---|---:|",
    ]
    lines += [_fmt_row(r) for r in rows.values()]
    lines += [
        "",
        "## Targets (issue #3)",
        "",
        "| target | wanted | measured | |",
        "|---|---|---|---|",
        _target_line(rows, "heuristic", "random", 0.95, "heuristic wins games vs random"),
        _target_line(rows, args.search, "heuristic", 0.70,
                     "search wins 1000-point games vs heuristic"),
    ]
    if solver is not None:
        med, worst, nodes = solver
        lines.append(f"| exact solver, first of the last eight tricks | – | median {med:.1f} ms "
                     f"(worst {worst:.1f} ms, median {nodes} nodes) over "
                     f"{args.solver_positions} positions | – |")
    if decisions is not None:
        med, med_real, p90, count = decisions
        lines.append(f"| search decision time, one core | ≤ 1 s median | median {med:.2f} s over "
                     f"{count} decisions of {args.decision_deals} deals; with a real choice "
                     f"median {med_real:.2f} s, 90th percentile {p90:.2f} s | "
                     f"{'met' if med <= 1.0 else 'not met'} |")
    short = [
        name for name in MATCHES
        if name.startswith("search") and name in args.only
        and (args.search_deals < args.deals or args.search_games < args.games)
    ]
    notes = list(args.note)
    if short:
        notes.insert(0, (
            f"The matches with `{args.search}` were run over {args.search_deals} deals and "
            f"{args.search_games} games instead of {args.deals} and {args.games}: the search "
            "agent takes most of a second per decision and this machine's two cores were "
            "shared.  The full run is "
            f"`python benchmarks/strength.py --deals {args.deals} --games {args.games} "
            f"--jobs {args.jobs}`."))
    if notes:
        lines += ["", "## Notes", "", *(f"- {n}" for n in notes)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="duplicated deals per match")
    ap.add_argument("--games", type=int, default=50, help="duplicated games per match")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search", default="search", help="spec of the search agent")
    ap.add_argument("--search-deals", type=int, default=None,
                    help="deals for the matches with the search agent (default --deals)")
    ap.add_argument("--search-games", type=int, default=None,
                    help="games for the matches with the search agent (default --games)")
    ap.add_argument("--only", default=",".join(MATCHES),
                    help=f"comma-separated matches to run ({', '.join(MATCHES)})")
    ap.add_argument("--solver-positions", type=int, default=30,
                    help="positions for the solver timing (0: skip)")
    ap.add_argument("--decision-deals", type=int, default=0,
                    help="deals over which to time the search agent's decisions (0: skip)")
    ap.add_argument("--note", action="append", default=[], help="a note for the report")
    ap.add_argument("--out", type=Path, default=HERE / "STRENGTH.md")
    args = ap.parse_args()
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in args.only if s not in MATCHES]
    if unknown:
        ap.error(f"unknown match {unknown[0]!r} (known: {', '.join(MATCHES)})")
    args.search_deals = args.deals if args.search_deals is None else args.search_deals
    args.search_games = args.games if args.search_games is None else args.search_games
    command = "python benchmarks/strength.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = _git_commit()  # the code this run loaded
    rules = Rules.preset("bezique")
    rows: dict[tuple[str, str, str], Row] = {}
    solver = None
    if args.solver_positions > 0:
        solver = solver_times(args.solver_positions, args.seed)
        print(f"solver: median {solver[0]:.1f} ms", file=sys.stderr)
    decisions = None
    if args.decision_deals > 0:
        decisions = decision_times(args.search, args.decision_deals, args.seed)
        print(f"decisions: median {decisions[0]:.2f} s", file=sys.stderr)
    write_report(args.out, args, command, rows, solver, False, started, commit, decisions)
    for name in args.only:
        a, b = name.split("-")
        a = args.search if a == "search" else a
        search = name.startswith("search")
        for mode, count in (("deals", args.search_deals if search else args.deals),
                            ("games", args.search_games if search else args.games)):
            if count <= 0:
                continue
            t0 = time.perf_counter()
            kw = {mode: count}
            m = run_match(a, b, rules, seed=args.seed, jobs=args.jobs, **kw)
            row = Row(m, time.perf_counter() - t0)
            rows[(a, b, mode)] = row
            print(_fmt_row(row), file=sys.stderr, flush=True)
            write_report(args.out, args, command, rows, solver, False, started, commit,
                         decisions)
    write_report(args.out, args, command, rows, solver, True, started, commit, decisions)
    print(f"report written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
