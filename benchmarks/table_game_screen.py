"""Does playing for the game win more table games?  A screen, decision by decision.

At a table of three or four the search plays for the game near its target
(:mod:`bezique.agents.table_game`); ``search:game=0`` values every rollout by the deal's points
instead.  Positions: the search's decisions with a choice in deals against the heuristic that
start at game totals drawn between 40% and 95% of the target for each side (a game's last
deals), kept where a side could reach the target in the deal (:meth:`TableFrame.of`).  Both
settings choose on the same worlds (the same seed, a fixed number of worlds and no clock), and
where they differ each choice is valued by an oracle that knows every hand: the deal played out
from the real state by the table heuristic for every seat over ``--orders`` orders of the undrawn
stock (the same orders for both), then the game decided by the rules or, when it goes on, valued
by the chances of :func:`~bezique.agents.table_game.win_chances` at the new totals.  The report is
the gain of playing for the game in percentage points of games won a decision (decisions where
both agree count as 0), with its standard error.

    taskset -c 0 python benchmarks/table_game_screen.py --variant bezique4 --deals 10 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from compare_decisions import reshuffled

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.search import SearchAgent
from bezique.agents.table_game import TableFrame, by_side, side_of, side_points, win_chances
from bezique.agents.table_play import TablePolicy
from bezique.agents.table_search import table_candidates
from bezique.observation import Observation


def start_totals(rules: Rules, rng: random.Random) -> list[int]:
    """Game totals per seat for a deal near the target: each side between 40% and 95% of it
    (partners' totals split evenly)."""
    n = rules.nplayers
    mates = rules.partner(0) >= 0
    sides = [rng.randint(int(0.4 * rules.target), int(0.95 * rules.target))
             for _ in range(2 if mates else n)]
    if mates:
        return [sides[i % 2] // 2 + (sides[i % 2] % 2 if i < 2 else 0) for i in range(n)]
    return sides


def positions(rules: Rules, deals: int, seed: int) -> list[tuple[State, Observation]]:
    """(real state, observation) at the search's choices near the target in ``deals`` deals
    against the heuristic (the search in seat ``d % n`` of deal ``d``)."""
    out = []
    n = rules.nplayers
    for d in range(deals):
        rng = random.Random(seed * 7919 + d)
        state = State.new_deal(rules, seed * 1000 + d, dealer=d % n,
                               totals=start_totals(rules, rng))
        seat = d % n
        search = make_agent("search", seed=d)
        other = make_agent("heuristic", seed=d)
        while not state.is_terminal():
            p = state.current_player()
            obs = state.observation(p)
            if p == seat and len(table_candidates(obs)) > 1 and TableFrame.of(obs) is not None:
                out.append((state.clone(), obs))
            state.apply((search if p == seat else other).act(obs))
    return out


def oracle(state: State, text: str, seat: int, orders: int, seed: int) -> float:
    """The chance that ``seat``'s side wins the game after ``text``, over ``orders`` random
    orders of the undrawn stock, the deal played out by the table heuristic."""
    rules = state.rules
    policy = TablePolicy(HeuristicPolicy(solver_cards=0))
    mean, sd = side_points(rules)
    side = side_of(rules, seat)
    rng = random.Random(seed)
    values = []
    for _ in range(orders):
        s = reshuffled(state, rng)
        s.apply(text)
        while not s.is_terminal():
            s.apply_action(policy.choose(s))
        if s.winner is not None:
            values.append(1.0 if s.winner == side else 0.0)
        else:
            needs = [rules.target - g for g in by_side(rules, s.game_scores)]
            values.append(win_chances(needs, mean, sd)[side])
    return statistics.fmean(values)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bezique4", help="bezique3 or bezique4")
    ap.add_argument("--solo", action="store_true", help="bezique4 without partnerships")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=30, help="the search's samples (x2 at tables)")
    ap.add_argument("--orders", type=int, default=32)
    args = ap.parse_args()
    rules = Rules.preset(args.variant, **({"partnership": False} if args.solo else {}))
    t0 = time.perf_counter()
    pos = positions(rules, args.deals, args.seed)
    print(f"{len(pos)} positions near the target in {args.deals} deals "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    gains = []
    differ = 0
    for k, (state, obs) in enumerate(pos):
        choice = []
        for game in (1, 0):
            agent = SearchAgent(seed=k, samples=args.samples, game=game)
            agent.table.ms = 0.0  # no clock: the same worlds for both settings
            choice.append(agent.table.evaluate(obs, random.Random(k))[0])
        if choice[0] == choice[1]:
            gains.append(0.0)
            continue
        differ += 1
        a, b = (oracle(state, t, obs.seat, args.orders, args.seed * 31 + k) for t in choice)
        gains.append(100.0 * (a - b))
        print(f"  {k}: for the game {choice[0]!r} ({a:.3f}), for the deal {choice[1]!r} "
              f"({b:.3f})", flush=True)
    se = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
    print(f"{args.variant}{' solo' if args.solo else ''}: {len(gains)} decisions, {differ} differ; "
          f"gain of playing for the game {statistics.fmean(gains):+.2f} +- {se:.2f} percentage "
          f"points of games won a decision ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
