"""Fit the weights of the kinds of card players keep (:mod:`bezique.agents.holdings`).

Plays ``--deals`` deals of the variant's heuristic self-play and keeps a position every
``--every`` actions of the stock phase: the seat to act's observation and the other hand's
concealed cards by kind.  Starting from uniform worlds, each round draws ``--worlds`` worlds
a position with the current weights and multiplies each kind's weight (in each third of the
stock) by how much more often the real hands held it than the worlds did, until the worlds
hold each kind as often as the real hands.  The last fifth of the deals is held out: for them
it prints how many of the other hand's concealed cards a world gets right, uniform and
weighted.  ``--write`` puts the weights into ``HOLDING_WEIGHTS`` of the holdings module.

    taskset -c 0 python benchmarks/fit_holdings.py --variant rubicon --deals 60 --write
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from pathlib import Path

from fit_variant import put_table

from bezique import Rules, State
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.holdings import HOLDING_WEIGHTS, KINDS, PHASES, kind_of, phase_of
from bezique.agents.sampling import WorldSampler
from bezique.observation import Observation

MODULE = Path(__file__).resolve().parent.parent / "src" / "bezique" / "agents" / "holdings.py"
PSEUDO = 0.5  # kinds held in a phase's positions added to both counts (rare kinds move less)

# a position: the observation, its phase and the other hand's concealed cards (0..31)
Position = tuple[Observation, int, Counter[int]]


def concealed(state: State, seat: int, obs: Observation) -> Counter[int]:
    """The cards (0..31, with multiplicity) of the hand other than ``seat``'s, less those the
    seat has seen (``obs.opponent_known``)."""
    return Counter(p & 31 for p in state.hand(1 - seat)) - Counter(obs.opponent_known)


def positions(rules: Rules, deals: int, seed: int, every: int) -> list[list[Position]]:
    """A list of positions for each deal of heuristic self-play."""
    policy = HeuristicPolicy(solver_cards=0)
    out = []
    for d in range(deals):
        state = State.new_deal(rules, seed * 10_000 + d, dealer=d & 1)
        rows: list[Position] = []
        step = 0
        while not state.is_terminal() and not state.end_phase:
            if step % every == every - 1:
                seat = state.current_player()
                obs = state.observation(seat)
                rows.append((obs, phase_of(rules, obs.stock), concealed(state, seat, obs)))
            state.apply_action(policy.choose(state))
            step += 1
        out.append(rows)
    return out


def by_kind(rules: Rules, cards: Counter[int], trump: int) -> Counter[str]:
    """How many of ``cards`` are of each kind under ``trump``."""
    got: Counter[str] = Counter()
    for c, n in cards.items():
        got[kind_of(rules, c, trump)] += n
    return got


def weights_of(rules: Rules, table: list[list[float]], obs: Observation) -> list[float]:
    """The card weights of ``table`` for the position of ``obs``."""
    row = table[phase_of(rules, obs.stock)]
    return [row[KINDS.index(kind_of(rules, c, obs.trump))] for c in range(32)]


def worlds(rules: Rules, table: list[list[float]] | None, obs: Observation, n: int,
           rng: random.Random) -> list[Counter[int]]:
    """``n`` worlds' concealed other hands for ``obs`` (uniform worlds with no ``table``)."""
    sampler = WorldSampler(obs, weights=None if table is None else weights_of(rules, table, obs))
    out = []
    for _ in range(n):
        world = sampler.sample(rng)
        out.append(Counter(p & 31 for p in world.hand(1 - obs.seat))
                   - Counter(obs.opponent_known))
    return out


def fit(rules: Rules, train: list[Position], rounds: int, n: int,
        seed: int) -> list[list[float]]:
    """The weights after ``rounds`` rounds of matching the worlds' kinds to the real ones."""
    table = [[1.0] * len(KINDS) for _ in range(PHASES)]
    real = [Counter[str]() for _ in range(PHASES)]
    count = Counter(p for _, p, _ in train)
    for obs, phase, hand in train:
        real[phase] += by_kind(rules, hand, obs.trump)
    for r in range(rounds):
        rng = random.Random(seed * 100 + r)
        drawn = [Counter[str]() for _ in range(PHASES)]
        for obs, phase, _hand in train:
            for h in worlds(rules, table, obs, n, rng):
                for k, v in by_kind(rules, h, obs.trump).items():
                    drawn[phase][k] += v / n
        moved = []
        for p in range(PHASES):
            pseudo = PSEUDO * count[p] / max(1, len(KINDS))
            for i, k in enumerate(KINDS):
                factor = (real[p][k] + pseudo) / (drawn[p][k] + pseudo)
                table[p][i] = min(20.0, max(0.05, table[p][i] * factor))
                moved.append(abs(factor - 1.0))
        print(f"round {r + 1}: the kinds' counts off by {100 * statistics.mean(moved):.1f}% "
              "(mean, before this round's change)", flush=True)
    return table


def right(rules: Rules, table: list[list[float]] | None, held: list[Position], n: int,
          seed: int) -> float:
    """The mean number of the other hand's concealed cards a world gets right."""
    rng = random.Random(seed)
    got = []
    for obs, _phase, hand in held:
        for h in worlds(rules, table, obs, n, rng):
            got.append(sum((h & hand).values()))
    return statistics.mean(got)


def write(variant: str, table: list[list[float]]) -> None:
    """Put ``table`` into ``HOLDING_WEIGHTS[variant]`` of the holdings module."""
    tables = dict(HOLDING_WEIGHTS)
    tables[variant] = tuple(tuple(round(x, 3) for x in row) for row in table)
    lines = []
    for name in sorted(tables):
        lines.append(f'    "{name}": (')
        for row in tables[name]:  # (nine numbers a line)
            cells = [f"{x:.3g}," for x in row]
            lines.append("        (" + " ".join(cells[:9]))
            lines.append("         " + " ".join(cells[9:]).rstrip(",") + "),")
        lines.append("    ),")
    put_table(MODULE, "HOLDING_WEIGHTS: dict[str, tuple[tuple[float, ...], ...]] = {", lines,
              "HOLDING_WEIGHTS")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="rubicon")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--every", type=int, default=6, help="a position every N actions")
    ap.add_argument("--worlds", type=int, default=10, help="worlds a position and round")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write the weights into the module")
    args = ap.parse_args()
    rules = Rules.preset(args.variant)
    if rules.nplayers != 2:
        ap.error(f"{args.variant}: two seats only (the sampler of one other hand)")
    deals = positions(rules, args.deals, args.seed, args.every)
    cut = max(1, len(deals) * 4 // 5)
    train = [p for d in deals[:cut] for p in d]
    held = [p for d in deals[cut:] for p in d]
    print(f"{args.variant}: {len(train)} positions of {cut} deals to fit, {len(held)} of "
          f"{len(deals) - cut} held out")
    table = fit(rules, train, args.rounds, args.worlds, args.seed)
    for p in range(PHASES):
        print(f"  third {p + 1} of the stock: " + ", ".join(
            f"{k} {w:.2f}" for k, w in zip(KINDS, table[p], strict=True)))
    if held:
        print(f"held out: concealed cards right a world: uniform "
              f"{right(rules, None, held, args.worlds, args.seed):.3f}, weighted "
              f"{right(rules, table, held, args.worlds, args.seed):.3f}")
    if args.write:
        write(args.variant, table)
        print(f"written to {MODULE}")


if __name__ == "__main__":
    main()
