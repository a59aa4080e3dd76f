"""Playing for the game, not the deal: the chance of winning the game from a deal's points.

A game of the two-handed classic games (Bezique, Binocle) is played to a target (RULES.md 2.6):
near it a deal's points matter only as far as they win the game.  This module owns that value:

- :class:`WinTable`: P(win | points each side still needs) at the start of a deal, from a small
  dynamic programme over the distribution of one deal's points per seat: a gamma distribution
  with the mean and spread of :data:`DEAL_POINTS` (measured in heuristic self-play by
  ``benchmarks/deal_points.py``), the two seats independent, on a grid of :func:`grid_step`
  points.  A side that reaches the target alone wins; when both do, the higher total (an
  approximation of RULES.md 2.6's counting order, which the exact leaves below apply).
- :func:`finished_value`: a finished deal: 1 or 0 when the game was decided (the engine's own
  :attr:`~bezique.state.State.winner`), otherwise the table at the new totals.
- :func:`end_value`: an end-phase position valued by the exact solver (the points still to win,
  split between the sides), decided by :func:`bezique.scoring.game_winner` or the table.
- :func:`horizon_value`: a stock-phase position: each side's points so far, the fitted worth of
  its hand (:mod:`bezique.agents.evaluation`) and its share of the points still to come, with
  the spread of the rest of a deal around that (a three-point grid a side).
- :class:`GameFrame`: whether a decision plays for the game at all (:meth:`GameFrame.of`: only
  when a side could reach the target in this deal, so that far from it the search keeps
  valuing the deal's point margin, exactly as before), and the scale that turns a probability
  into points-equivalents (the table's slope at the root), so that the search's ``prior``
  keeps its meaning.

>>> t = WinTable(1000)
>>> round(t.p(500, 500), 3)
0.5
>>> t.p(50, 900) > 0.95 > 0.05 > t.p(900, 50)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..cards import bit_list
from ..observation import Observation
from ..rules import Rules
from ..scoring import game_winner
from ..state import State
from .evaluation import WEIGHTS, features

# One seat's points in one deal (mean, standard deviation), heuristic against heuristic:
#   taskset -c 0 python benchmarks/deal_points.py --deals 400 --seed 1 bezique binocle
# (the two seats' points correlate at -0.15 in Bezique, -0.22 in Binocle: the table treats
# them as independent)
DEAL_POINTS: dict[str, tuple[float, float]] = {"bezique": (285.0, 143.0), "binocle": (294.0, 92.0)}
# a side "could reach the target in this deal" when it needs at most the mean of the rest of
# the deal plus this many standard deviations (4: about the 99.5th percentile measured)
REACH_SD = 4.0
# the smallest slope (probability per point) used to turn probabilities into points
MIN_SLOPE = 1e-4
# grid cells of the table a side: needs above the last are valued as the last
MAX_CELLS = 40

# three-point Gauss-Hermite grid for a normal spread: offsets in standard deviations, weights
_GRID = ((-math.sqrt(3.0), 1.0 / 6.0), (0.0, 2.0 / 3.0), (math.sqrt(3.0), 1.0 / 6.0))


def deal_points(rules: Rules) -> tuple[float, float]:
    """(mean, standard deviation) of one seat's points in a deal of ``rules``' game."""
    return DEAL_POINTS.get(rules.variant, DEAL_POINTS["bezique"])


def grid_step(target: int) -> int:
    """The table's grid in points: 50 for targets up to 2000, coarser for longer games (at
    most :data:`MAX_CELLS` cells a side).

    >>> grid_step(1000), grid_step(2000), grid_step(3000)
    (50, 50, 75)
    """
    return max(50, -(-target // MAX_CELLS))


def _gamma_pmf(mean: float, sd: float, step: int) -> list[float]:
    """The gamma distribution of ``mean`` and ``sd`` on cells of ``step`` points (cell k holds
    the mass around k * step), cut at 8 standard deviations."""
    shape = (mean / sd) ** 2
    scale = sd * sd / mean
    top = int((mean + 8 * sd) / step) + 1
    dens = []
    for k in range(top + 1):
        x = max(k * step, 0.25 * step)
        dens.append(math.exp((shape - 1) * math.log(x) - x / scale - math.lgamma(shape)
                             - shape * math.log(scale)))
    total = sum(dens)
    return [d / total for d in dens]


# the tables computed so far, by (target, mean, standard deviation)
_TABLES: dict[tuple[int, float, float], list[list[float]]] = {}


class WinTable:
    """P(win the game | points each side still needs) at the start of a deal (see the
    module); computed once per (target, distribution) and cached."""

    def __init__(self, target: int, mean: float = 285.0, sd: float = 143.0) -> None:
        self.target = target
        self.step = grid_step(target)
        self.cells = min(MAX_CELLS, -(-target // self.step))
        key = (target, mean, sd)
        table = _TABLES.get(key)
        if table is None:
            table = _TABLES[key] = self._compute(_gamma_pmf(mean, sd, self.step))
        self.w = table

    def _compute(self, pmf: list[float]) -> list[list[float]]:
        """w[a][b]: the chance of winning needing a cells against b (1 <= a, b <= cells)."""
        n = self.cells
        k = len(pmf)
        cdf = [0.0]  # cdf[j]: the mass of cells below j
        for q in pmf:
            cdf.append(cdf[-1] + q)

        def below(j: int) -> float:
            return cdf[min(max(j, 0), k)]

        def at(j: int) -> float:
            return pmf[j] if 0 <= j < k else 0.0

        w = [[0.0] * (n + 1) for _ in range(n + 1)]
        p0 = pmf[0]
        for a in range(1, n + 1):
            for b in range(1, n + 1):
                total = 0.0
                for x in range(k):
                    px = pmf[x]
                    i = a - x
                    if i <= 0:
                        # reached by -i over: the other wins only by going further over
                        total += px * (below(b - i) + 0.5 * at(b - i))
                        continue
                    row = w[i]
                    inner = 0.0
                    for y in range(min(b, k)):
                        if x == 0 and y == 0:
                            continue
                        inner += pmf[y] * row[b - y]
                    total += px * inner  # (the other reaching alone: worth 0)
                w[a][b] = total / (1.0 - p0 * p0)
        return w

    def p(self, need: float, other: float) -> float:
        """The chance that the side needing ``need`` more points wins against one needing
        ``other`` (both above 0), at the start of a deal (between grid points: bilinear)."""
        step = self.step
        n = self.cells
        a = min(max(need / step, 1.0), float(n))
        b = min(max(other / step, 1.0), float(n))
        i, j = min(int(a), n - 1), min(int(b), n - 1)
        if n == 1:
            return self.w[1][1]
        fa, fb = a - i, b - j
        w = self.w
        return ((1 - fa) * ((1 - fb) * w[i][j] + fb * w[i][j + 1])
                + fa * ((1 - fb) * w[i + 1][j] + fb * w[i + 1][j + 1]))


def table_for(rules: Rules) -> WinTable:
    """The :class:`WinTable` of ``rules``' target and deal-points distribution."""
    mean, sd = deal_points(rules)
    return WinTable(rules.target, mean, sd)


def after_deal(table: WinTable, seat: int, finals: tuple[int, int]) -> float:
    """The chance for ``seat`` with game totals ``finals`` at a deal's end, by the simple rule
    (a side alone at the target wins, the higher total when both are; else the table)."""
    target = table.target
    mine, theirs = finals[seat], finals[1 - seat]
    if mine >= target or theirs >= target:
        if mine == theirs:
            return 0.5
        return 1.0 if mine > theirs else 0.0
    return table.p(target - mine, target - theirs)


def finished_value(state: State, seat: int, table: WinTable) -> float:
    """A finished deal's chance of winning the game for ``seat``."""
    winner = state.winner
    if winner is not None:
        return 1.0 if winner == seat else 0.0
    g = state.game_scores
    return table.p(table.target - g[seat], table.target - g[1 - seat])


def end_value(state: State, seat: int, value: int, table: WinTable) -> float:
    """The chance of winning for ``seat`` from an end-phase ``state`` whose remaining points
    the solver valued at ``value`` for the player to act (theirs less the other's): the
    card points and the last trick split as the value says, the game decided by RULES.md 2.6
    (:func:`bezique.scoring.game_winner`) or valued by the table."""
    rules = state.rules
    pts = rules.card_points
    mover = state.turn
    rest = sum(pts[p & 7] for h in state.hand_masks for p in bit_list(h))
    if state.lead_card >= 0:
        rest += pts[state.lead_card & 7]
    last = rules.last_trick_points if rules.last_trick == "final" else 0
    mine = (rest + last + value) // 2  # the mover's share of the rest
    who = mover if mine * 2 >= rest + last else 1 - mover
    got = [0, 0]
    got[mover] = max(0, mine - (last if who == mover else 0))
    got[1 - mover] = max(0, rest - got[mover])
    s, b, t = state.scores, state.brisques, state.totals
    before = [t[i] + s[i] + (last if i == who else 0) for i in (0, 1)]
    bris = [b[i] + got[i] for i in (0, 1)]
    if rules.brisques == "immediate":
        before = [before[i] - b[i] for i in (0, 1)]  # (scores already hold the brisques)
    final = [before[i] + bris[i] for i in (0, 1)]
    dealer = state.dealer
    if rules.end_check == "immediate" and max(final) >= rules.target:
        return after_deal(table, seat, (final[0], final[1]))
    w = game_winner(rules.target, before, final, (1 - dealer, dealer), who)
    if w >= 0:
        return 1.0 if w == seat else 0.0
    return table.p(table.target - final[seat], table.target - final[1 - seat])


def expected_finals(state: State, weights: tuple[float, ...] = WEIGHTS
                    ) -> tuple[tuple[float, float], float]:
    """Each side's expected game total at the end of a stock-phase ``state``'s deal (totals,
    points so far, the fitted worth of its hand, its share of the points still to come), and
    the standard deviation of a side's rest of the deal."""
    rules = state.rules
    mean, sd = deal_points(rules)
    left = state.stock_left / max(1, rules.stock_size)
    s, b, t = state.scores, state.brisques, state.totals
    est = []
    for side in (0, 1):
        worth = sum(w * x for w, x in zip(weights, features(state, side), strict=True))
        got = s[side] + (b[side] if rules.brisques == "end" else 0)
        est.append(t[side] + got + worth + mean * left)
    return (est[0], est[1]), sd * math.sqrt(left) + 0.05 * sd


def horizon_value(state: State, seat: int, table: WinTable) -> float:
    """The expected chance of winning for ``seat`` of a stock-phase ``state`` (see
    :func:`expected_finals`), over three outcomes a side."""
    if state.is_terminal():
        return finished_value(state, seat, table)
    (e0, e1), sd = expected_finals(state)
    value = 0.0
    for d0, w0 in _GRID:
        for d1, w1 in _GRID:
            finals = (int(e0 + d0 * sd), int(e1 + d1 * sd))
            value += w0 * w1 * after_deal(table, seat, finals)
    return value


@dataclass(frozen=True)
class GameFrame:
    """How a decision values its leaves when it plays for the game: the table, and the slope
    (probability per point of the seat's margin) that turns a probability into points."""

    table: WinTable
    slope: float

    @staticmethod
    def of(obs: Observation) -> GameFrame | None:
        """The frame of a two-seat decision near the target, or None when neither side could
        reach it in this deal (then the deal's point margin is the value, as ever)."""
        rules = obs.rules
        if rules.nplayers != 2 or rules.settlement != "totals":
            return None
        mean, sd = deal_points(rules)
        size = max(1, rules.deck_size)
        left = min(1.0, (obs.stock + 2 * len(obs.hand)) / size)
        reach = mean * left + REACH_SD * sd * math.sqrt(left)
        seat = obs.seat
        bris = obs.brisques if rules.brisques == "end" else (0, 0)
        have = [obs.totals[i] + obs.scores[i] + bris[i] for i in (0, 1)]
        needs = [rules.target - h for h in have]
        if min(needs) > reach:
            return None
        table = table_for(rules)
        # the slope at the root's expected end of deal, both sides' share of the rest added
        mine = max(1.0, needs[seat] - mean * left)
        theirs = max(1.0, needs[1 - seat] - mean * left)
        h = float(table.step)
        slope = ((table.p(mine - h, theirs) - table.p(mine + h, theirs))
                 + (table.p(mine, theirs + h) - table.p(mine, theirs - h))) / (4.0 * h)
        return GameFrame(table, max(MIN_SLOPE, slope))
