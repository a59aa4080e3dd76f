"""Compare two agents decision by decision, valued by an oracle that knows the hidden hand.

Positions are the search agent's decisions with a real choice (before the end phase) in deals
it plays against the heuristic.  Both agents choose in every position, seeing only its
observation; where they differ, each action is valued by playing the deal out from the real
state (the heuristic for both seats, the solver for the last tricks) over ``--orders`` random
orders of the undrawn stock, the same orders for both actions.  The report is the mean gain a
decision of A over B with its standard error; decisions where both agree count as 0.

The oracle's continuation is the heuristic, so it favours moves that are good against it; and it
is noisy (a deal's points swing by hundreds).  In our runs it was about twice as precise per
minute as whole matches: use it to screen variants, then confirm in the arena.

    python benchmarks/compare_decisions.py search:samples=150 search --deals 16 --orders 32

``--variant`` takes the positions from deals of another two-seat preset (default ``bezique``).
In the one-deal games (``rubicon``, ``sixpack``, ``eightpack``) the oracle's values, and so the
gains, are settled values (RULES.md 9.0.7: the deal played out as above, then settled), e.g.
the search with the variant's own evaluation weights against the classic ones::

    python benchmarks/compare_decisions.py search search:weights=classic --variant rubicon \
        --same-seed --deals 12 --orders 32 --cache /tmp/rubicon.pkl --every 50

With ``--game`` the positions are near the target of a game (deals started at random game
totals, only the decisions where a side could reach the target in the deal) and the oracle's
value is the chance of winning the game (the deal played out as above, then the game decided
by the rules or valued by :mod:`bezique.agents.game_value`'s table), e.g. playing for the game
against playing for the deal::

    python benchmarks/compare_decisions.py search search:game=0 --game --same-seed --deals 12

With ``--same-seed`` both agents sample the same worlds, so two settings of the search differ
only where the setting changes the choice: far less noise (``search`` against
``search:extend=1``: ± 0.2 a decision over 1,200 decisions, against ± 1.3 over 400 with
different seeds).  ``--cache FILE`` keeps the positions for the next comparison.
"""

from __future__ import annotations

import argparse
import collections
import pickle
import random
import statistics
import time
from pathlib import Path

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.game_value import GameFrame, table_for
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.search import Rollout, candidates
from bezique.agents.settled import is_settled
from bezique.observation import Observation


def positions(rules: Rules, deals: int, seed: int,
              near: bool = False) -> list[tuple[State, Observation]]:
    """(real state, observation) at the search agent's real choices in ``deals`` deals against
    the heuristic (the search sits in seat 0 and 1 in turn).  With ``near``, each deal starts
    with game totals drawn between 40% and 95% of the target for each side, and only the
    decisions near it are kept (:meth:`GameFrame.of`: a side could reach the target in
    this deal), as in the last deals of a game."""
    out = []
    for d in range(deals):
        totals = None
        if near:
            rng = random.Random(seed * 7919 + d)
            totals = [rng.randint(int(0.4 * rules.target), int(0.95 * rules.target))
                      for _ in range(2)]
        state = State.new_deal(rules, seed * 1000 + d, dealer=1, totals=totals)
        seat = d % 2
        agents = {seat: make_agent("search", seed=d), 1 - seat: make_agent("heuristic", seed=d)}
        while not state.is_terminal():
            p = state.current_player()
            obs = state.observation(p)
            if p == seat and len(candidates(obs)) > 1 and not (
                    obs.stock == 0 and obs.turnup is None) and not (
                    near and GameFrame.of(obs) is None):
                out.append((state.clone(), obs))
            state.apply(agents[p].act(obs))
    return out


def cached_positions(variant: str, deals: int, seed: int, cache: Path | None,
                     near: bool = False) -> list[tuple[State, Observation]]:
    """:func:`positions`, read from ``cache`` when it exists (else written there)."""
    if cache is not None and cache.exists():
        with cache.open("rb") as f:
            found: list[tuple[State, Observation]] = pickle.load(f)
    else:
        found = positions(Rules.preset(variant), deals, seed, near)
        if cache is not None:
            with cache.open("wb") as f:
                pickle.dump(found, f)
    if found and found[0][0].rules.variant != variant:
        raise SystemExit(f"{cache} holds {found[0][0].rules.variant} positions, not {variant}")
    return found


def reshuffled(state: State, rng: random.Random) -> State:
    """A copy of ``state`` with its undrawn stock in a random order (the oracle knows every
    hand, not the order of the cards still to draw)."""
    s = state.clone()
    rest = list(s.stock[s.stock_pos:])
    rng.shuffle(rest)
    s.stock = s.stock[:s.stock_pos] + tuple(rest)
    return s


def oracle(state: State, text: str, seat: int, orders: int, seed: int, roll: Rollout) -> float:
    """Mean deal result for ``seat`` after ``text`` over random orders of the undrawn stock
    (settled values in the one-deal games: :meth:`Rollout.value` settles them)."""
    rng = random.Random(seed)
    values = []
    for _ in range(orders):
        s = reshuffled(state, rng)
        s.apply(text)
        values.append(roll.value(s, seat, 0))
    return statistics.mean(values)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="agent spec, e.g. search:samples=150")
    ap.add_argument("b", help="agent spec to compare with, e.g. search")
    ap.add_argument("--deals", type=int, default=16, help="deals that give the positions")
    ap.add_argument("--orders", type=int, default=32, help="stock orders per oracle value")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--variant", default="bezique",
                    help="the two-seat preset the positions come from (bezique, binocle, "
                         "rubicon, sixpack, eightpack)")
    ap.add_argument("--min-stock", type=int, default=0)
    ap.add_argument("--max-stock", type=int, default=99)
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep the positions in this file (pickle), to compare more variants "
                         "on the same positions without playing their deals again")
    ap.add_argument("--every", type=int, default=0,
                    help="also print the running result every this many decisions (a run "
                         "stopped early keeps what it measured)")
    ap.add_argument("--game", action="store_true",
                    help="positions near the target of a game (deals started at random game "
                         "totals), each action valued by the chance of winning the game "
                         "(bezique, binocle)")
    ap.add_argument("--same-seed", action="store_true",
                    help="give both agents the same seed, so that they differ only where their "
                         "options make them (e.g. search:extend=4 against search:extend=1)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    found = cached_positions(args.variant, args.deals, args.seed, args.cache, args.game)
    pos = [(s, o) for s, o in found if args.min_stock <= o.stock <= args.max_stock]
    roll = Rollout(HeuristicPolicy(solver_cards=0), solver_cards=8, solver_nodes=200_000)
    rules = Rules.preset(args.variant)
    if args.game:  # the chance of winning the game (a slope of 1: probabilities, not points)
        if is_settled(rules) or rules.nplayers != 2:
            raise SystemExit(f"--game: {args.variant} has no game of several deals to win")
        roll.game = GameFrame(table_for(rules), 1.0)
    scale = 100.0 if args.game else 1.0  # (the chance of winning in percentage points)
    gains: list[float] = []
    by_phase: dict[str, list[float]] = collections.defaultdict(list)
    for i, (state, obs) in enumerate(pos):
        if args.every and i and i % args.every == 0:
            print(f"  after {i}: {statistics.mean(gains):+.2f} ± "
                  f"{statistics.stdev(gains) / i ** 0.5:.2f}; "
                  f"{sum(len(v) for v in by_phase.values())} differ", flush=True)
        a = make_agent(args.a, seed=i).act(obs)
        b = make_agent(args.b, seed=i if args.same_seed else i + 7919).act(obs)
        if a == b:
            gains.append(0.0)
            continue
        g = scale * (oracle(state, a, obs.seat, args.orders, i, roll)
                     - oracle(state, b, obs.seat, args.orders, i, roll))
        gains.append(g)
        by_phase[obs.phase].append(g)
    mean = statistics.mean(gains)
    se = statistics.stdev(gains) / len(gains) ** 0.5
    differ = sum(len(v) for v in by_phase.values())
    unit = "settled points" if is_settled(rules) else "points"
    if args.game:
        unit = "percentage points of games won"
    print(f"{args.a} vs {args.b} ({args.variant}): {mean:+.2f} ± {se:.2f} {unit} a decision "
          f"over {len(gains)} decisions; {differ} differ "
          + " ".join(f"({k}: {len(v)}, {sum(v):+.0f})" for k, v in sorted(by_phase.items()))
          + f"; {(time.perf_counter() - t0) / 60:.1f} min")


if __name__ == "__main__":
    main()
