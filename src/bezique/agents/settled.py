"""Valuing positions of the one-deal games (Rubicon, Six-pack, Eight-pack) by their settlement.

In these games the deal is the whole game, and what it is worth is its settlement (RULES.md
9.0.7, :func:`bezique.scoring.settle`): the winner scores the difference in hundreds plus the
game bonus, or, if the loser stayed under the rubicon, both totals plus the rubicon bonus.  A
point is worth very different amounts depending on where the totals stand: the last hundred
that lifts the loser over the rubicon is worth thousands, a point that does not change a
hundred nothing.  The search AI therefore values its leaves here, for these games:

- :func:`settled_value`: a finished deal, the settlement's value for the seat (its winnings,
  or minus the other's).
- :func:`settled_after_end`: an end-phase position whose rest the exact solver valued (points
  still to win, the player to act's less the other's), split back into each side's points.
  The solver plays for that margin, not for the settlement; measured in Rubicon (heuristic
  self-play ends, see ``benchmarks/STRENGTH.md``) the split gave the settlement of the
  solver's own play in 300 of 300 ends, and play for the settlement itself (an exhaustive
  search) would have changed it in 13 of 200 ends of 8 cards, each by 100 either way (a
  hundred of the last trick's rounding), the winner never.
- :func:`settled_estimate`: a stock-phase position: each side's points so far plus what it
  is expected to win from here (the variant's fitted :func:`~bezique.agents.evaluation.
  side_worth`: its share of the stock left and the features of both hands), with the variant's
  fitted spread of a side's outcome around that, settled in expectation over a small grid
  (:func:`grid_settlement`, three totals a side) or, with ``normal=True`` (the search's
  ``settle=normal``), by :func:`expected_settlement`.  ``classic=True`` (the search's
  ``weights=classic``), or a variant with no fitted tuple, values the hands by the classic
  weights, fitted to classic deals, with the typical points and spread of :data:`_TYPICAL`;
  ``classic=True`` always settles them on the grid (the leaf values as before the variants
  had their own fit, exactly).
- :func:`expected_settlement`: the expected settlement when the two sides' final points are
  normal around their estimates, with the correlation measured in self-play (:data:`
  _CORRELATION`).  The sum and the difference of the two totals are then independent; over
  the difference it is exact (the settlement is piecewise linear in it: who wins, the rubicon,
  brisques counted, the minimum of 100, each a normal probability), over the sum a 5-point
  Gauss-Hermite rule (what is left to integrate there is smooth).  Hundreds are rounded down
  in expectation (a total's fraction of a hundred counts as 50).  So the value moves smoothly
  with a side's lead: a fresh symmetric deal is worth 0 and a small lead little, where the
  3x3 grid of :func:`grid_settlement` makes the sign of a whole rubicon hang on it (about
  +-1600 settled points for a 100-point lead at the start of a Rubicon deal).  It predicts
  the settlement of heuristic self-play better than the grid, but screened decision by
  decision it was no gain in play (``benchmarks/STRENGTH.md``), so the search keeps the grid
  by default.
- :func:`win_value` and :func:`win_estimate` (``win=True``; the search's ``settle=win``): the
  chance of winning the deal instead of its size, ``win_scale * (2 P - 1)``, for a player (or
  a measure) that counts deals won rather than points settled.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("rubicon"), seed=1)
>>> round(settled_estimate(s, 0)) == -round(settled_estimate(s, 1))
True
"""

from __future__ import annotations

import math

from ..cards import bit_list
from ..rules import Rules
from ..scoring import settle
from ..state import State
from .evaluation import SEARCH_WEIGHTS, VARIANT_WEIGHTS, WEIGHTS, features, side_worth

# A side's points in a deal and their spread (standard deviation), measured in heuristic
# self-play (60 Rubicon, 30 Six-pack, 8 Eight-pack deals); other rule sets scale by the rubicon.
_TYPICAL = {"rubicon": (860.0, 570.0), "sixpack": (3600.0, 1900.0),
            "eightpack": (10400.0, 5600.0)}

# three-point Gauss-Hermite grid for a normal spread: offsets in standard deviations, weights
_GRID = ((-math.sqrt(3.0), 1.0 / 6.0), (0.0, 2.0 / 3.0), (math.sqrt(3.0), 1.0 / 6.0))
# five-point Gauss-Hermite rule for a standard normal: offsets, weights
_GH5 = ((0.0, 8.0 / 15.0), (1.3556261799742659, 0.2220759220056126),
        (-1.3556261799742659, 0.2220759220056126), (2.8569700138728056, 0.011257411327720691),
        (-2.8569700138728056, 0.011257411327720691))
# the correlation of the two sides' outcomes around their estimates, per share of the stock
# left (it fades to about 0 at the end of the stock): measured on 800 held-out deals of
# heuristic self-play (``benchmarks/fit_evaluation.py --variant V``'s deals), -0.20 and -0.36
# with 90% or more of the stock left (see benchmarks/STRENGTH.md); used: these times the share
# of the stock left
_CORRELATION = {"rubicon": -0.2, "sixpack": -0.35}
_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_INV_SQRT2PI = 1.0 / math.sqrt(2.0 * math.pi)
_INF = float("inf")


def is_settled(rules: Rules) -> bool:
    """True for the one-deal games valued by their settlement (RULES.md 9.0.7)."""
    return rules.settlement == "portland" and rules.nplayers == 2


def _signed(rules: Rules, s: tuple[int, int], b: tuple[int, int], seat: int) -> int:
    """The settled value of deal points ``s`` and brisques ``b`` for ``seat``."""
    st = settle(s, b, game_bonus=rules.game_bonus, rubicon=rules.rubicon_at,
                rubicon_bonus=rules.rubicon_bonus_points, has_brisques=any(rules.card_points))
    if st.winner < 0:
        return 0
    return st.value if st.winner == seat else -st.value


def settled_value(state: State, seat: int) -> int:
    """A finished deal's settled value for ``seat``: its winnings, or minus the other's."""
    st = state.settlement()
    if st.winner < 0:
        return 0
    return st.value if st.winner == seat else -st.value


def settled_after_end(state: State, seat: int, value: int) -> int:
    """The settled value for ``seat`` of an end-phase ``state`` whose remaining points (card
    points in the hands and the last trick) the solver valued at ``value`` for the player to
    act (theirs less the other's): the last trick goes to the side that wins more of the rest,
    the card points (brisques, counted apart from the deal points) split as the value says."""
    rules = state.rules
    pts = rules.card_points
    mover = state.turn
    hands = state.hand_masks
    rest = sum(pts[p & 7] for h in hands for p in bit_list(h))
    if state.lead_card >= 0:
        rest += pts[state.lead_card & 7]
    last = rules.last_trick_points if rules.last_trick == "final" else 0
    total = rest + last
    mine = (total + value) // 2  # the mover's share
    s = list(state.scores)
    b = list(state.brisques)
    who = mover if mine * 2 >= total else 1 - mover
    s[who] += last
    got = mine - (last if who == mover else 0)  # the mover's card points
    b[mover] += max(0, got)
    b[1 - mover] += max(0, rest - got)
    return _signed(rules, (s[0], s[1]), (b[0], b[1]), seat)


def _cdf(z: float) -> float:
    """The standard normal distribution function at ``z``."""
    return 0.5 * (1.0 + math.erf(z * _INV_SQRT2))


def _diff_sd(sd: float, rho: float) -> float:
    """The standard deviation of the difference of two totals, ``sd`` each, correlated ``rho``
    (never 0: it divides)."""
    return max(1e-9, sd * math.sqrt(max(0.0, 2.0 * (1.0 - rho))))


def win_scale(rules: Rules) -> int:
    """The points-equivalent of a sure win for :func:`win_value` (the game bonus plus the
    rubicon line: about a settled deal's size, so the search's ``prior`` keeps its meaning)."""
    return rules.game_bonus + rules.rubicon_at


def win_value(rules: Rules, settled: float) -> float:
    """A settled value read as a win (+:func:`win_scale`), a draw (0) or a loss (-) only: the
    search's ``settle=win``, which plays for the chance of winning the deal, not its size.

    >>> from bezique import Rules
    >>> r = Rules.preset("rubicon")
    >>> win_value(r, 3200), win_value(r, 0), win_value(r, -600)
    (1500.0, 0.0, -1500.0)
    """
    return float(win_scale(rules)) * ((settled > 0) - (settled < 0))


def win_estimate(rules: Rules, est: tuple[float, float], sd: float, rho: float,
                 seat: int) -> float:
    """``win_scale * (2 P - 1)`` for ``seat``, P the chance that its final points (without
    brisques, which decide only ties) are more than the other's, when the two sides' totals
    are normal around ``est``, ``sd`` each, with correlation ``rho``.

    >>> from bezique import Rules
    >>> r = Rules.preset("rubicon")
    >>> win_estimate(r, (900.0, 900.0), 400.0, 0.0, 0)
    0.0
    >>> [round(win_estimate(r, (900.0 + d, 900.0), 400.0, 0.0, 0)) for d in (0, 100, 400, 4000)]
    [0, 210, 781, 1500]
    """
    p = _cdf((est[0] - est[1]) / _diff_sd(sd, rho))
    if seat == 1:
        p = 1.0 - p
    return win_scale(rules) * (2.0 * p - 1.0)


def settled_estimate(state: State, seat: int, classic: bool = False,
                     normal: bool = False, win: bool = False, searcher: bool = False) -> float:
    """The expected settled value for ``seat`` of a stock-phase ``state`` (see the module);
    ``win``: instead the chance of winning the deal, P(more points without brisques) over the
    normal distribution of the two totals, as ``win_scale * (2 P - 1)``; ``searcher``: ``seat``
    is the search playing the heuristic, its side valued by the first tuple of the variant's
    :data:`~bezique.agents.evaluation.SEARCH_WEIGHTS`, the other by the second (a variant
    without them as before)."""
    rules = state.rules
    if state.is_terminal():
        v = float(settled_value(state, seat))
        return win_value(rules, v) if win else v
    left = state.stock_left / max(1, rules.stock_size)
    s = state.scores
    b = state.brisques
    f = (features(state, 0), features(state, 1))
    fitted = None if classic else VARIANT_WEIGHTS.get(rules.variant)
    est = []
    # the tuples of the seat's side and of the other's: the search's own games' (searcher) or
    # the variant's self-play tuple for both
    sides = SEARCH_WEIGHTS.get(rules.variant) if searcher and not classic else None
    if sides is None and fitted is not None:
        sides = (fitted, fitted)
    if sides is not None:
        spread = sides[0][1]
        for side in (0, 1):
            est.append(s[side] + side_worth(f[side], f[1 - side], left,
                                            sides[0] if side == seat else sides[1]))
    else:
        typical, spread = _TYPICAL.get(rules.variant,
                                       (0.9 * rules.rubicon_at, 0.5 * rules.rubicon_at))
        future = typical * left
        for side in (0, 1):
            worth = sum(w * x for w, x in zip(WEIGHTS, f[side], strict=True))
            est.append(s[side] + worth + future)
    sd = spread_at(spread, left)
    if win:
        rho = _CORRELATION.get(rules.variant, 0.0) * left
        return win_estimate(rules, (est[0], est[1]), sd, rho, seat)
    if classic or not normal:
        return grid_settlement(rules, (est[0], est[1]), (b[0], b[1]), sd, seat)
    return expected_settlement(rules, (est[0], est[1]), (b[0], b[1]), sd, seat,
                               _CORRELATION.get(rules.variant, 0.0) * left, (s[0], s[1]))


def spread_at(spread: float, left: float) -> float:
    """The standard deviation of a side's outcome with ``left`` of the stock still to come,
    for a variant whose spread with the whole stock left is about ``spread``.

    >>> spread_at(500.0, 1.0), spread_at(500.0, 0.0)
    (525.0, 25.0)
    """
    return spread * math.sqrt(left) + 0.05 * spread


_BRISQUES: dict[Rules, int] = {}  # the brisques in a rule set's deck (0: none)


def _shares(rules: Rules, b: tuple[int, int]) -> tuple[float, float]:
    """Each side's brisques at the end: those taken so far (``b``) and half of those still
    out."""
    deck = _BRISQUES.get(rules)
    if deck is None:
        deck = _BRISQUES[rules] = sum(rules.card_points[p & 7] for p in rules.deck)
    if not deck:
        return 0.0, 0.0
    out = deck - b[0] - b[1]
    return b[0] + out / 2, b[1] + out / 2


def grid_settlement(rules: Rules, est: tuple[float, float], b: tuple[int, int],
                    sd: float, seat: int) -> float:
    """The expected settled value for ``seat`` when the two sides' final points are ``est``
    give or take ``sd`` each (independent, three points a side) and the brisques still out
    (``b``: taken so far) are shared evenly: the leaf value of ``weights=classic``."""
    b0, b1 = _shares(rules, b)
    value = 0.0
    for d0, w0 in _GRID:
        for d1, w1 in _GRID:
            t0 = max(0, int(est[0] + d0 * sd))
            t1 = max(0, int(est[1] + d1 * sd))
            value += w0 * w1 * _signed(rules, (t0, t1), (int(b0), int(b1)), seat)
    return value


def expected_settlement(rules: Rules, est: tuple[float, float], b: tuple[int, int],
                        sd: float, seat: int, rho: float = 0.0,
                        now: tuple[int, int] | None = None) -> float:
    """The expected settled value for ``seat`` when the two sides' final points (without
    brisques) are normal around ``est``, ``sd`` each, with correlation ``rho``, and the
    brisques still out (``b``: taken so far) are shared evenly (see the module).  ``now``, the
    points so far, rules out the rubicon of a side whose points and brisques already reach
    the line.

    >>> from bezique import Rules
    >>> r = Rules.preset("rubicon")
    >>> expected_settlement(r, (860.0, 860.0), (0, 0), 570.0, 0)
    0.0
    >>> lead = [round(expected_settlement(r, (860.0 + d, 860.0), (0, 0), 570.0, 0))
    ...         for d in (25, 50, 100, 200)]
    >>> lead == sorted(lead) and 0 < lead[0] < 100 and lead[-1] < 600
    True
    """
    bw = _shares(rules, b)
    rubicon = float(rules.rubicon_at)
    safe = (now is not None and now[0] + b[0] >= rubicon,
            now is not None and now[1] + b[1] >= rubicon)
    su = sd * math.sqrt(max(0.0, 0.5 * (1.0 + rho)))  # sd of the mean of the two totals
    sv = _diff_sd(sd, rho)  # ... of their difference
    mu = est[0] - est[1]
    mid = 0.5 * (est[0] + est[1])
    rules_at = (rubicon, float(rules.rubicon_bonus_points), float(rules.game_bonus),
                any(rules.card_points))
    value = 0.0
    for x, w in _GH5:
        u = mid + x * su
        value += w * (_winnings(rules_at, u, mu, sv, bw[0], bw[1], safe[1])
                      - _winnings(rules_at, u, -mu, sv, bw[1], bw[0], safe[0]))
    return value if seat == 0 else -value


def _winnings(rules_at: tuple[float, float, float, bool], u: float, mu: float, sv: float,
              bw: float, bl: float, safe: bool) -> float:
    """E[settled value to side W, if W wins], over W's lead ``v`` ~ N(``mu``, ``sv``) in
    points, with the mean of the two totals at ``u`` (so W has u + v/2, the loser L
    u - v/2) and final brisques ``bw`` and ``bl``; ``safe``: L cannot be rubiconed;
    ``rules_at``: the rubicon line, its bonus, the game bonus, whether brisques exist.

    The settlement is piecewise linear in ``v`` (F(x), hundreds rounded down, counted as
    x - 50): L is rubiconed above ``cut_rub`` (W scores both totals and the bonus, and the
    minimum 100 for L's hundreds above ``cut_low``), else W scores the game bonus and the
    difference, at least 100, in totals with brisques when L's points are under the line
    (above ``cut_bris``)."""
    rubicon, bonus, game, brisques = rules_at
    cut_rub = _INF if safe else 2.0 * (u + bl - rubicon)
    cut_bris = 2.0 * (u - rubicon) if brisques else _INF
    cut_low = 2.0 * (u - 150.0)
    extra = bw - bl  # the lead in brisques, when they count
    cuts = sorted(c for c in (cut_rub, cut_bris, cut_low, 100.0, 100.0 - extra) if 0.0 < c < _INF)
    cuts.append(_INF)
    lo = 0.0
    z = -mu / sv
    p_lo = _cdf(z)
    f_lo = _INV_SQRT2PI * math.exp(-0.5 * z * z)
    total = 0.0
    for hi in cuts:
        if hi <= lo:
            continue
        v = lo + 1.0 if hi == _INF else 0.5 * (lo + hi)  # a lead inside (lo, hi)
        # the settlement there: a + c * v
        if v > cut_rub:
            if u - 0.5 * v >= 150.0:
                a, c = 2.0 * u - 100.0 + bonus, 0.0
            else:
                a, c = u + 50.0 + bonus, 0.5
        else:
            d = extra if v > cut_bris else 0.0
            if v + d < 100.0:
                a, c = game + 100.0, 0.0
            else:
                a, c = game + d, 1.0
        if hi == _INF:
            p_hi, f_hi = 1.0, 0.0
        else:
            z = (hi - mu) / sv
            p_hi = _cdf(z)
            f_hi = _INV_SQRT2PI * math.exp(-0.5 * z * z)
        p = p_hi - p_lo
        total += a * p + c * (mu * p - sv * (f_hi - f_lo))  # E[a + c v; lo < v < hi]
        lo, p_lo, f_lo = hi, p_hi, f_hi
    return total
