"""Fit a one-deal game's evaluation tuple (``fit_evaluation.py --variant V``).

The search values a horizon leaf of Rubicon, Six-pack or Eight-pack by the expected settlement
of both sides' likely final points (:mod:`bezique.agents.settled`).  This module fits, on that
variant's heuristic self-play, what those likely points are (:func:`bezique.agents.evaluation.
side_worth`: the points a side still wins, from the share of the stock left and both hands'
features) and the spread around them, and writes the tuple into
``VARIANT_WEIGHTS[variant]`` of ``src/bezique/agents/evaluation.py``.
"""

from __future__ import annotations

import multiprocessing
import random
import re
import sys
import time
from pathlib import Path

from bezique import Rules, State
from bezique.agents.evaluation import (
    FEATURES,
    SIDE_TERMS,
    VARIANT_WEIGHTS,
    WEIGHTS,
    features,
    side_worth,
)
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.settled import (
    _CORRELATION,
    _TYPICAL,
    expected_settlement,
    grid_settlement,
    spread_at,
)
from bezique.scoring import settle
from bezique.state import LEAD

MODULE = Path(__file__).resolve().parent.parent / "src" / "bezique" / "agents" / "evaluation.py"

# one stock-phase lead: (share of the stock left, scores, brisques, features of seat 0 and 1)
Position = tuple[float, tuple[int, int], tuple[int, int], list[float], list[float]]
# a deal: its positions, and its final scores and brisques
Deal = tuple[list[Position], tuple[int, int], tuple[int, int]]

# the spreads tried, as multiples of the held-out residual's standard deviation with the whole
# stock left
SPREAD_FACTORS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3)
SPREAD_POSITIONS = 4000  # positions the spread is chosen on (and the settled R^2 measured on)


def play(job: tuple[str, int]) -> Deal:
    """One deal of ``variant`` between two heuristic players, every stock-phase lead kept."""
    variant, seed = job
    rules = Rules.preset(variant)
    state = State.new_deal(rules, seed, dealer=seed & 1)
    policy = HeuristicPolicy()
    rows: list[Position] = []
    size = max(1, rules.stock_size)
    while not state.is_terminal():
        if state.phase_id == LEAD and not state.end_phase:
            s, b = state.scores, state.brisques
            rows.append((state.stock_left / size, (s[0], s[1]), (b[0], b[1]),
                         features(state, 0), features(state, 1)))
        state.apply_action(policy.choose(state))
    s, b = state.scores, state.brisques
    return rows, (s[0], s[1]), (b[0], b[1])


def settled(rules: Rules, s: tuple[int, int], b: tuple[int, int]) -> int:
    """The settled value of a finished deal for seat 0."""
    st = settle(s, b, game_bonus=rules.game_bonus, rubicon=rules.rubicon_at,
                rubicon_bonus=rules.rubicon_bonus_points, has_brisques=any(rules.card_points))
    return 0 if st.winner < 0 else st.value if st.winner == 0 else -st.value


def _design(deals: list[Deal]) -> tuple[list[list[float]], list[float]]:
    """One row a side and position: (share left, own features, other's), points still won."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for rows, final, _ in deals:
        for left, s, _b, f0, f1 in rows:
            for side, own, other in ((0, f0, f1), (1, f1, f0)):
                xs.append([left, *own, *other])
                ys.append(float(final[side] - s[side]))
    return xs, ys


def _estimates(rules: Rules, pos: Position, weights: tuple[float, ...] | None
               ) -> tuple[float, float]:
    """Both sides' expected final points: by a variant tuple, or (None) by the classic
    weights and the typical points of :data:`bezique.agents.settled._TYPICAL`."""
    left, s, _b, f0, f1 = pos
    if weights is not None:
        return (s[0] + side_worth(f0, f1, left, weights), s[1] + side_worth(f1, f0, left, weights))
    typical, _ = _TYPICAL.get(rules.variant, (0.9 * rules.rubicon_at, 0.5 * rules.rubicon_at))
    return (s[0] + sum(w * x for w, x in zip(WEIGHTS, f0, strict=True)) + typical * left,
            s[1] + sum(w * x for w, x in zip(WEIGHTS, f1, strict=True)) + typical * left)


def settled_r2(rules: Rules, sample: list[tuple[Position, int]],
               weights: tuple[float, ...] | None, spread: float, normal: bool = False) -> float:
    """Share of the variance of the settled values of ``sample`` (position, seat 0's final
    settled value) that the expected settlement explains, as the search computes it: over the
    small grid (:func:`~bezique.agents.settled.grid_settlement`), or with ``normal`` (the
    search's ``settle=normal``, a variant tuple only) by the normal integral
    (:func:`~bezique.agents.settled.expected_settlement`)."""
    err = 0.0
    acts = [v for _, v in sample]
    mean = sum(acts) / len(acts)
    tot = sum((v - mean) ** 2 for v in acts)
    rho = _CORRELATION.get(rules.variant, 0.0)
    for pos, actual in sample:
        left, s, b = pos[0], pos[1], pos[2]
        est = _estimates(rules, pos, weights)
        sd = spread_at(spread, left)
        if normal and weights is not None:
            v = expected_settlement(rules, est, b, sd, 0, rho * left, s)
        else:
            v = grid_settlement(rules, est, b, sd, 0)
        err += (v - actual) ** 2
    return 1.0 - err / tot


def tuple_lines(weights: tuple[float, ...], indent: str) -> list[str]:
    """``weights`` as the lines of a tuple's body in the evaluation module, six a line."""
    return [indent + " ".join(f"{x:.5g}," for x in weights[i:i + 6])
            for i in range(0, len(weights), 6)]


def put_table(module: Path, head: str, lines: list[str], name: str) -> None:
    """Replace the body of the table that starts with the line ``head`` in ``module`` (the
    evaluation module's path) by ``lines``; exit naming the table ``name`` if it is not there."""
    text = module.read_text(encoding="utf-8")
    block = head + "\n" + "\n".join(lines) + "\n}\n"
    new, n = re.subn(re.escape(head) + r"\n.*?\n?\}\n", lambda _m: block, text, flags=re.S)
    if n != 1:
        sys.exit(f"could not find the {name} block")
    module.write_text(new, encoding="utf-8")


def write(variant: str, weights: tuple[float, ...]) -> None:
    """Put ``weights`` into ``VARIANT_WEIGHTS[variant]`` of the evaluation module."""
    table = dict(VARIANT_WEIGHTS)
    table[variant] = weights
    lines = []
    for name in sorted(table):
        lines.append(f'    "{name}": (')
        lines.extend(tuple_lines(table[name], "        "))
        lines.append("    ),")
    put_table(MODULE, "VARIANT_WEIGHTS: dict[str, tuple[float, ...]] = {", lines,
              "VARIANT_WEIGHTS")


def fit_variant(variant: str, deals: int, seed: int, ridge: float, jobs: int,
                write_it: bool) -> tuple[float, ...]:
    """Play, fit, report and (``write_it``) write ``variant``'s tuple; returns it."""
    import numpy as np  # (the fit's one user of numpy: `pip install -e '.[train]'`)

    rules = Rules.preset(variant)
    if rules.settlement != "portland" or rules.nplayers != 2:
        sys.exit(f"{variant} is not a one-deal game of two (rubicon, sixpack, eightpack)")
    t0 = time.time()
    todo = [(variant, seed * 1_000_003 + i) for i in range(deals)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            played = pool.map(play, todo, chunksize=10)
    else:
        played = [play(j) for j in todo]
    cut = len(played) * 4 // 5
    train, test = played[:cut], played[cut:]
    xs, ys = _design(train)
    x, y = np.array(xs), np.array(ys)
    xtx = x.T @ x
    scale = np.maximum(np.diag(xtx), 1e-9)
    coef = np.linalg.solve(xtx + ridge * np.diag(scale), x.T @ y)
    tx, ty = (np.array(a) for a in _design(test))
    res = ty - tx @ coef
    print(f"{variant}: {len(ys)} training and {len(ty)} held-out side positions from {deals} "
          f"deals in {time.time() - t0:.0f} s")
    print(f"held-out R^2 of the points a side still wins: {1 - res.var() / ty.var():.3f}")
    # the residual's spread with most of the stock left: the scale of the spreads tried
    full = tx[:, 0] > 0.9
    sd_full = float(res[full].std()) if full.any() else float(res.std())
    n = len(FEATURES)
    c = [float(v) for v in coef]

    def tuple_of(spread: float) -> tuple[float, ...]:
        return (c[0], spread, *c[1:1 + n], *c[1 + n:1 + 2 * n])

    rng = random.Random(seed)

    def sample_of(part: list[Deal]) -> list[tuple[Position, int]]:
        every = [(pos, settled(rules, final, fb)) for rows, final, fb in part for pos in rows]
        return rng.sample(every, min(SPREAD_POSITIONS, len(every)))

    fit_on, held = sample_of(train), sample_of(test)
    tried = {k: settled_r2(rules, fit_on, tuple_of(k * sd_full), k * sd_full)
             for k in SPREAD_FACTORS}
    best = max(tried, key=lambda k: tried[k])
    print("spread (share of the residual's sd " + f"{sd_full:.0f}" + "): "
          + ", ".join(f"{k:g}: {v:.4f}" for k, v in tried.items()) + f"; chose {best:g}")
    weights = tuple_of(best * sd_full)
    print(f"held-out settled values, R^2 over {len(held)} positions: fitted "
          f"{settled_r2(rules, held, weights, weights[1]):.4f} (settle=normal "
          f"{settled_r2(rules, held, weights, weights[1], True):.4f})", end="")
    now = VARIANT_WEIGHTS.get(variant)
    if now is not None:
        print(f", now {settled_r2(rules, held, now, now[1]):.4f} (settle=normal "
              f"{settled_r2(rules, held, now, now[1], True):.4f})", end="")
    classic_spread = _TYPICAL.get(variant, (0.0, 0.5 * rules.rubicon_at))[1]
    print(f", classic weights {settled_r2(rules, held, None, classic_spread):.4f}")
    for name, w in zip(SIDE_TERMS, weights, strict=True):
        print(f"  {name:26s} {w:10.4f}")
    if write_it:
        write(variant, weights)
        print(f"wrote {variant} into {MODULE}")
    return weights
