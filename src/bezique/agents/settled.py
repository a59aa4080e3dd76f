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
- :func:`settled_estimate`: a stock-phase position: each side's points so far plus what it
  is expected to win from here (the variant's fitted :func:`~bezique.agents.evaluation.
  side_worth`: its share of the stock left and the features of both hands), with the variant's
  fitted spread of a side's outcome around that, averaged over a small grid (three points a
  side, Gauss-Hermite weights).  ``classic=True`` (the search's ``weights=classic``), or a
  variant with no fitted tuple, values the hands by the classic weights, fitted to classic
  deals, with the typical points and spread of :data:`_TYPICAL`, as before the variants had
  their own fit.

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
from .evaluation import VARIANT_WEIGHTS, WEIGHTS, features, side_worth

# A side's points in a deal and their spread (standard deviation), measured in heuristic
# self-play (60 Rubicon, 30 Six-pack, 8 Eight-pack deals); other rule sets scale by the rubicon.
_TYPICAL = {"rubicon": (860.0, 570.0), "sixpack": (3600.0, 1900.0),
            "eightpack": (10400.0, 5600.0)}

# three-point Gauss-Hermite grid for a normal spread: offsets in standard deviations, weights
_GRID = ((-math.sqrt(3.0), 1.0 / 6.0), (0.0, 2.0 / 3.0), (math.sqrt(3.0), 1.0 / 6.0))


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


def settled_estimate(state: State, seat: int, classic: bool = False) -> float:
    """The expected settled value for ``seat`` of a stock-phase ``state`` (see the module)."""
    rules = state.rules
    if state.is_terminal():
        return float(settled_value(state, seat))
    left = state.stock_left / max(1, rules.stock_size)
    s = state.scores
    b = state.brisques
    f = (features(state, 0), features(state, 1))
    fitted = None if classic else VARIANT_WEIGHTS.get(rules.variant)
    est = []
    if fitted is not None:
        spread = fitted[1]
        for side in (0, 1):
            est.append(s[side] + side_worth(f[side], f[1 - side], left, fitted))
    else:
        typical, spread = _TYPICAL.get(rules.variant,
                                       (0.9 * rules.rubicon_at, 0.5 * rules.rubicon_at))
        future = typical * left
        for side in (0, 1):
            worth = sum(w * x for w, x in zip(WEIGHTS, f[side], strict=True))
            est.append(s[side] + worth + future)
    return expected_settlement(rules, (est[0], est[1]), (b[0], b[1]), spread_at(spread, left),
                               seat)


def spread_at(spread: float, left: float) -> float:
    """The standard deviation of a side's outcome with ``left`` of the stock still to come,
    for a variant whose spread with the whole stock left is about ``spread``.

    >>> spread_at(500.0, 1.0), spread_at(500.0, 0.0)
    (525.0, 25.0)
    """
    return spread * math.sqrt(left) + 0.05 * spread


def expected_settlement(rules: Rules, est: tuple[float, float], b: tuple[int, int],
                        sd: float, seat: int) -> float:
    """The expected settled value for ``seat`` when the two sides' final points are ``est``
    give or take ``sd`` each (independent, three points a side) and the brisques still out
    (``b``: taken so far) are shared evenly."""
    bris_left = 0
    if any(rules.card_points):
        bris_left = sum(rules.card_points[p & 7] for p in rules.deck) - b[0] - b[1]
    b0 = int(b[0] + bris_left / 2)
    b1 = int(b[1] + bris_left / 2)
    value = 0.0
    for d0, w0 in _GRID:
        for d1, w1 in _GRID:
            t0 = max(0, int(est[0] + d0 * sd))
            t1 = max(0, int(est[1] + d1 * sd))
            value += w0 * w1 * _signed(rules, (t0, t1), (b0, b1), seat)
    return value
