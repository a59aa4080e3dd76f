"""Playing for the game at a table of three or four: each side's chance of winning the game.

Three- and four-handed games are played to 2000 (RULES.md 9.4, 9.5, with §2.6): near the
target a deal's points matter only as far as they win the game.  This module owns that value
for :class:`~bezique.agents.table_search.TableSearch`, as :mod:`bezique.agents.game_value` does
for two seats:

- :func:`win_chances`: each side's chance of winning from the points it still needs, the rest of
  the deal in play (a mean and a spread a side) and the whole deals after it, a side's points a
  deal gamma distributed with the mean and spread of :data:`SIDE_POINTS` (measured in heuristic
  self-play by ``benchmarks/deal_points.py``; *k* deals are then gamma too), the sides
  independent.  Points never go down, so a side has reached the target within *k* deals exactly
  when its points after *k* deals have; the side that reaches it in an earlier deal wins, and of
  sides that reach it in the same deal the higher total (RULES.md 2.6): the chance that the one
  ahead before the deal stays ahead (a normal approximation).  For two sides this agrees with
  :class:`~bezique.agents.game_value.WinTable`'s exact programme to within a few points of
  percentage (``tests/test_table_game.py``).
- :class:`TableFrame`: whether a decision plays for the game at all (:meth:`TableFrame.of`: only
  when a side could reach the target in this deal, so that far from it the search keeps valuing
  the deal's points, exactly as before), a finished rollout's value (:meth:`TableFrame.finished`:
  1 or 0 once the engine has decided the game, else the chances at the new totals), a horizon
  leaf's (:meth:`TableFrame.leaf`), and the slope that turns a chance into points so that the
  search's ``prior`` keeps its meaning.

A side is a seat, or two partners whose points add (seats 0 & 2 against 1 & 3), numbered as
:attr:`~bezique.state.State.winner` numbers them.

>>> a, b = win_chances([100.0, 1500.0], 400.0, 200.0)
>>> a > 0.95 and abs(a + b - 1.0) < 1e-9
True
>>> [round(p, 2) for p in win_chances([800.0, 800.0, 800.0], 280.0, 120.0)]
[0.33, 0.33, 0.33]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..observation import Observation
from ..rules import Rules
from ..state import State

# One side's points in one deal (mean, standard deviation), the heuristic in every seat:
#   taskset -c 0 python benchmarks/deal_points.py --deals 400 --seed 1 bezique3 bezique4 \
#       bezique4-solo
# (a side: a seat, or in bezique4 two partners; bezique4-solo is four players each for itself)
# (session 23, compiled build: 400 deals each; the first two sides' points correlate at -0.11,
# -0.22 and -0.08: the chances treat them as independent)
SIDE_POINTS: dict[str, tuple[float, float]] = {
    "bezique3": (257.0, 136.0),
    "bezique4": (566.0, 206.0),
    "bezique4-solo": (241.0, 163.0),
}
# a side "could reach the target in this deal" when it needs at most the mean of the rest of the
# deal plus this many standard deviations (as game_value.REACH_SD)
REACH_SD = 4.0
# the smallest slope (chance per point) used to turn chances into points
MIN_SLOPE = 1e-4
# deals looked ahead at most (a side needing 2000 reaches it in about seven)
MAX_DEALS = 60
# the step (points) of the slope's difference quotient
SLOPE_STEP = 50.0

_SQRT2 = math.sqrt(2.0)

# what a seat's cards are still worth in a full-information state (``search.potential``)
Potential = Callable[[State, int], float]


def side_points(rules: Rules) -> tuple[float, float]:
    """(mean, standard deviation) of one side's points in a deal of ``rules``' table game.

    >>> side_points(Rules.preset("bezique4")) == SIDE_POINTS["bezique4"]
    True
    """
    key = rules.variant
    if rules.nplayers == 4 and rules.partner(0) < 0:
        key = f"{key}-solo"
    return SIDE_POINTS.get(key, SIDE_POINTS["bezique3"])


def side_of(rules: Rules, seat: int) -> int:
    """The number of ``seat``'s side: the seat, or with partners 0 (seats 0 & 2) or 1."""
    return seat % 2 if rules.partner(seat) >= 0 else seat


def by_side(rules: Rules, per_seat: Sequence[float]) -> list[float]:
    """Per-seat numbers added up by side (partners' add)."""
    if rules.nplayers == 4 and rules.partner(0) >= 0:
        return [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
    return list(per_seat)


def _lower_gamma(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x) (a series below a + 1, a
    continued fraction above, as in Numerical Recipes' ``gammp``)."""
    if x <= 0.0:
        return 0.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1.0:
        term = total = 1.0 / a
        ap = a
        for _ in range(500):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-12:
                break
        return min(1.0, total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-12:
            break
    return max(0.0, 1.0 - math.exp(log_front) * h)


def _reached(need: float, mean: float, var: float) -> float:
    """P(points of mean ``mean`` and variance ``var``, gamma distributed, are at least
    ``need``)."""
    if need <= 0.0:
        return 1.0
    if var <= 0.0 or mean <= 0.0:
        return 1.0 if mean >= need else 0.0
    return 1.0 - _lower_gamma(mean * mean / var, need * mean / var)


def _ahead(lead: float, var: float) -> float:
    """P(a side ``lead`` points ahead before a deal is still ahead after it, the difference of
    the two sides' points in it of variance ``var``; normal)."""
    if var <= 0.0:
        return 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
    return 0.5 * math.erfc(-lead / (_SQRT2 * math.sqrt(var)))


def win_chances(needs: Sequence[float], mean: float, sd: float, rest: Sequence[float] = (),
                rest_sd: float = 0.0) -> list[float]:
    """Each side's chance of winning the game needing ``needs`` more points, a side's points a
    deal gamma distributed with ``mean`` and ``sd``; with ``rest`` (each side's expected points
    still to come in the deal in play, spread ``rest_sd``) the deal in play is the first, else
    the next deal is.  Sides that reach the target in the same deal are told apart by the
    chance that the one ahead before it stays ahead."""
    n = len(needs)
    now = bool(rest)
    prev = [0.0] * n
    wins = [0.0] * n
    for k in range(MAX_DEALS):
        full = k if now else k + 1  # whole deals after the one in play
        var = full * sd * sd + (rest_sd * rest_sd if now else 0.0)
        got = [full * mean + (rest[i] if now else 0.0) for i in range(n)]
        cdf = [max(prev[i], _reached(needs[i], got[i], var)) for i in range(n)]
        first = [cdf[i] - prev[i] for i in range(n)]  # reaching it in this deal
        for i in range(n):
            if first[i] > 0.0:
                share = first[i]
                for j in range(n):
                    if j != i:
                        beat = _ahead(needs[j] - needs[i] + got[i] - got[j], 2.0 * var)
                        share *= 1.0 - cdf[j] + beat * first[j]
                wins[i] += share
        prev = cdf
        if math.prod(1.0 - c for c in cdf) < 1e-9:
            break
    total = sum(wins)
    return [w / total for w in wins] if total > 0.0 else [1.0 / n] * n


@dataclass(frozen=True)
class TableFrame:
    """How a table decision values its rollouts when it plays for the game: the target, a
    side's points a deal, and the slope (chance per point of the seat's side) that turns a
    chance into points."""

    target: int
    mean: float
    sd: float
    slope: float

    @staticmethod
    def of(obs: Observation) -> TableFrame | None:
        """The frame of a decision at a table of three or four near the target, or None when
        no side could reach it in this deal (then the deal's points are the value, as ever)."""
        rules = obs.rules
        if rules.nplayers < 3 or rules.settlement != "totals":
            return None
        mean, sd = side_points(rules)
        left = min(1.0, (obs.stock + rules.nplayers * len(obs.hand)) / max(1, rules.deck_size))
        bris = obs.brisques if rules.brisques == "end" else (0,) * rules.nplayers
        have = by_side(rules, [obs.totals[i] + obs.scores[i] + bris[i]
                               for i in range(rules.nplayers)])
        needs = [rules.target - h for h in have]
        if min(needs) > mean * left + REACH_SD * sd * math.sqrt(left):
            return None
        side = side_of(rules, obs.seat)
        rest = [mean * left] * len(needs)
        spread = sd * math.sqrt(left)
        up, down = list(needs), list(needs)
        up[side] -= SLOPE_STEP
        down[side] += SLOPE_STEP
        slope = (win_chances(up, mean, sd, rest, spread)[side]
                 - win_chances(down, mean, sd, rest, spread)[side]) / (2.0 * SLOPE_STEP)
        return TableFrame(rules.target, mean, sd, max(MIN_SLOPE, slope))

    def finished(self, state: State, seat: int) -> float:
        """A finished deal's chance of winning the game for ``seat``'s side, in points (divided
        by :attr:`slope`): 1 or 0 once the game is decided, else the chances at its totals."""
        rules = state.rules
        side = side_of(rules, seat)
        winner = state.winner
        if winner is not None:
            return (1.0 if winner == side else 0.0) / self.slope
        needs = [self.target - g for g in by_side(rules, state.game_scores)]
        return win_chances(needs, self.mean, self.sd)[side] / self.slope

    def leaf(self, state: State, seat: int, potential: Potential) -> float:
        """A deal in progress valued for ``seat``'s side, in points: each seat's points and
        brisques so far, what its cards are still worth (``potential``) and its share of the
        stock still to draw, with the spread of the rest of a deal."""
        rules = state.rules
        n = rules.nplayers
        end = rules.brisques == "end"
        s, b, t = state.scores, state.brisques, state.totals
        have = by_side(rules, [t[i] + s[i] + (b[i] if end else 0) + potential(state, i)
                               for i in range(n)])
        left = state.stock_left / max(1, rules.stock_size)
        needs = [self.target - h for h in have]
        rest = [self.mean * left] * len(needs)
        spread = self.sd * math.sqrt(left) + 0.05 * self.sd
        chances = win_chances(needs, self.mean, self.sd, rest, spread)
        return chances[side_of(rules, seat)] / self.slope


__all__ = ["SIDE_POINTS", "TableFrame", "by_side", "side_of", "side_points", "win_chances"]
