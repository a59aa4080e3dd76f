"""A learned evaluation of stock-phase positions, for the search AI's rollouts.

The search plays a few tricks past each candidate action and then needs to know what the
position is worth: the points already scored are certain, but the cards in each hand are worth
something too (melds they may still make, trumps and aces for the last tricks).  How much is a
question of fact, so the weights are fitted: :func:`features` describes one seat's hand from a
full-information :class:`~bezique.state.State` (a sampled world), and ``benchmarks/
fit_evaluation.py`` regresses the points each seat went on to win in thousands of deals between
two heuristic players on the difference of their features.  :func:`evaluate` is then the points
so far plus the fitted value of the difference.

The features, for one seat: the points of the melds its cards could still make, grouped by how
many cards are missing (0 to 3; the missing cards must still be in the stock), also weighted by
how much of the stock is left; its trumps, trump aces and tens, other aces and tens, also
weighted by how little of the stock is left; whether it leads next; and an unscored seven of
trumps while the turn-up lies.

The one-deal games (Rubicon, Six-pack; RULES.md 9.0.7) are valued by their settlement, which
needs each side's likely *total*, not only the difference: for them :data:`VARIANT_WEIGHTS`
holds one tuple per variant (names :data:`SIDE_TERMS`), fitted by ``benchmarks/
fit_evaluation.py --variant V`` on that variant's heuristic self-play: the points a side goes
on to win (without brisques) regressed on the share of the stock left, its own features and the
other side's, and the spread of a side's outcome around that (fitted to the settlement, see
:func:`bezique.agents.settled.settled_estimate`).  :func:`side_worth` is that fitted value.
"""

from __future__ import annotations

from ..state import State
from .targets import card_counts, meld_targets

#: Names of the features of :func:`features`, in order.
FEATURES = (
    "meld0", "meld1", "meld2", "meld3",
    "meld0_stock", "meld1_stock", "meld2_stock", "meld3_stock",
    "trumps", "trump_brisques", "aces", "tens",
    "trumps_late", "trump_brisques_late", "aces_late", "tens_late",
    "lead", "seven",
)

# fitted by benchmarks/fit_evaluation.py (do not edit by hand) -- begin weights
WEIGHTS: tuple[float, ...] = (
    0.3504, 0.3075, 0.1345, 0.0551,
    -0.1563, -0.1251, -0.0333, 0.0028,
    4.247, 16.17, 6.303, 3.134,
    1, 3.176, 0.3733, -3.617,
    -6.25, 13.43,
)
# fitted by benchmarks/fit_evaluation.py -- end weights

#: Names of a :data:`VARIANT_WEIGHTS` tuple, in order: the points a side still wins per share
#: of the stock left (``future``), the spread of its outcome (``spread``: standard deviation
#: with the whole stock left, see :mod:`bezique.agents.settled`), then one weight per feature of
#: the side's own hand and one per feature of the other's.
SIDE_TERMS = ("future", "spread", *(f"own_{n}" for n in FEATURES),
              *(f"other_{n}" for n in FEATURES))

# fitted by benchmarks/fit_evaluation.py --variant V (do not edit by hand) -- begin variants
VARIANT_WEIGHTS: dict[str, tuple[float, ...]] = {
    "rubicon": (
        890.28, 409.93, 0.73619, 0.27119, 0.11526, 0.12609,
        0.15006, 0.1296, 0.16413, 0.00042446, 8.8095, 6.8988,
        2.0432, -8.0653, 6.2386, 3.9845, 6.9021, 2.933,
        -38.312, 0, -0.0050887, 0.024015, 0.039845, 0.03465,
        -0.13808, -0.25321, -0.26759, -0.12897, -0.83182, 7.0036,
        12.61, 27.633, -11.531, -16.472, -18.602, -32.543,
        -41.448, 0,
    ),
    "sixpack": (
        3255.2, 1619, 0.92995, 0.40686, 0.1747, 0.10808,
        -0.050631, 0.4132, 0.4615, 0.18322, 5.879, -165.71,
        8.3305, -19.045, 11.756, 224.8, -9.4701, 12.433,
        -61.926, 0, 0.049354, 0.072185, 0.08815, 0.086004,
        -0.45818, -0.61382, -0.54445, -0.26462, 0.49444, 120.61,
        67.386, 49.266, -45.918, -155.17, -57.925, -48.672,
        -70.439, 0,
    ),
}
# fitted by benchmarks/fit_evaluation.py --variant V -- end variants

#: A variant's tuples (as :data:`VARIANT_WEIGHTS`) for the search's own games against the
#: heuristic: (the searching side's, the heuristic's), fitted on the positions of arena
#: records of the search against the heuristic, shrunk towards the variant's self-play tuple
#: (``benchmarks/fit_search_side.py``).  The search plays its side better than the heuristic
#: it was fitted on, so what its hand is worth differs: the search's ``weights=search``.
# fitted by benchmarks/fit_search_side.py (do not edit by hand) -- begin search sides
SEARCH_WEIGHTS: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {
    "rubicon": (
        (
            889.32, 409.93, 0.93818, 0.33533, 0.16657, 0.1804,
            0.016947, 0.096987, 0.22947, 0.074372, 12.4, 5.5981,
            0.78296, 5.3999, -0.35761, 4.5422, 12.726, -26.339,
            -29.864, 0, 0.0092619, 0.018871, 0.034633, 0.028696,
            -0.54833, -0.30824, -0.3497, -0.16384, 2.8885, 24.689,
            11.617, 25.086, -12.144, -1.5846, -14.307, -23.923,
            -51.139, 0,
        ),
        (
            857.06, 409.93, 0.54403, 0.25495, 0.10466, 0.12662,
            0.46795, 0.21479, 0.18788, 0.006442, 3.1313, 31.181,
            -6.9154, -5.3263, 1.9311, 9.5394, 13.304, 3.3332,
            -51.882, 0, 0.008012, 0.027676, 0.037008, 0.03197,
            -0.032436, -0.20668, -0.25283, -0.12997, -6.4072, 7.7722,
            8.3609, 22.478, -5.4994, -19.58, -19.015, -29.09,
            -60.669, 0,
        ),
    ),
}
# fitted by benchmarks/fit_search_side.py -- end search sides


def stock_mask(state: State) -> int:
    """The physical cards still to be drawn: the stock left and the turn-up."""
    mask = 0
    for q in state.stock[state.stock_pos:]:
        mask |= 1 << q
    if state.turnup_phys >= 0:
        mask |= 1 << state.turnup_phys
    return mask


def scored32(state: State, seat: int) -> list[tuple[int, int]]:
    """``seat``'s melds so far as (kind, 32-bit card set)."""
    out = []
    for k, m in state.meld_log[seat]:
        f = 0
        while m:
            f |= m & 0xFFFFFFFF
            m >>= 32
        out.append((k, f))
    return out


def features(state: State, seat: int) -> list[float]:
    """The features of ``seat``'s position (see :data:`FEATURES`), from a full-information
    state in the stock phase.  Melds already scored (the same kind on the same cards, or any
    four of that kind) are not counted again."""
    rules = state.rules
    trump = state.trump
    tg = meld_targets(rules, trump)
    copies = state.copies
    mine = card_counts(state.hand_masks[seat] | state.shown_masks[seat], copies)
    pool = card_counts(stock_mask(state), copies)
    sf = state.stock_left / max(1, rules.stock_size)
    late = 1.0 - sf
    by_miss = [0.0, 0.0, 0.0, 0.0]
    scored = set(scored32(state, seat))
    kinds = {k for k, _ in scored}
    for kind, pts, needs in tg.fixed:
        cards = 0
        held = 0
        miss = 0
        ok = True
        for c, n in needs:
            cards |= 1 << c
            k = mine[c]
            held += k
            if k < n:
                if pool[c] < n - k:
                    ok = False
                    break
                miss += n - k
        if ok and held and miss <= 3 and (kind, cards) not in scored:
            by_miss[miss] += pts
    for kind, pts, rank, n in tg.fours:
        if kind in kinds:
            continue
        have = 0
        extra = 0
        for suit in range(4):
            c = suit * 8 + rank
            k = mine[c]
            if tg.distinct:
                have += 1 if k else 0
                extra += 0 if k else min(pool[c], 1)
            else:
                have += k
                extra += pool[c]
        if not have:
            continue
        miss = max(0, n - have)
        if miss <= 3 and miss <= extra:
            by_miss[miss] += pts
    trumps = high = aces = tens = 0
    for c in range(32):
        k = mine[c]
        if not k:
            continue
        r = c & 7
        if c >> 3 == trump:
            if r <= 1:
                high += k
            else:
                trumps += k
        elif r == 0:
            aces += k
        elif r == 1:
            tens += k
    lead = 1.0 if state.turn == seat and state.lead_card < 0 else 0.0
    seven = 0.0
    if state.turnup_phys >= 0 and state.unscored_seven(seat) >= 0:
        seven = 1.0
    return [
        by_miss[0], by_miss[1], by_miss[2], by_miss[3],
        by_miss[0] * sf, by_miss[1] * sf, by_miss[2] * sf, by_miss[3] * sf,
        float(trumps), float(high), float(aces), float(tens),
        trumps * late, high * late, aces * late, tens * late,
        lead, seven,
    ]


def so_far(state: State, seat: int) -> float:
    """Points ``seat`` has over the other so far, brisques taken counted when they score at
    the end of the deal."""
    s = state.scores
    diff = float(s[seat] - s[1 - seat])
    if state.rules.brisques == "end" and not state.is_terminal():
        b = state.brisques
        diff += b[seat] - b[1 - seat]
    return diff


def evaluate(state: State, seat: int, weights: tuple[float, ...] = WEIGHTS) -> float:
    """The learned value of a stock-phase state for ``seat``: points so far (see
    :func:`so_far`) plus the fitted worth of the difference of the two seats' features."""
    base = so_far(state, seat)
    if state.is_terminal():
        return base
    a = features(state, seat)
    b = features(state, 1 - seat)
    return base + sum(w * (x - y) for w, x, y in zip(weights, a, b, strict=True))


def side_worth(own: list[float], other: list[float], left: float,
               weights: tuple[float, ...]) -> float:
    """The points a side is expected to win from a stock-phase position to the end of the
    deal, by a variant's fitted ``weights`` (:data:`VARIANT_WEIGHTS`, names
    :data:`SIDE_TERMS`): ``future`` times ``left`` (the share of the stock left), plus the
    weighted features of its hand (``own``) and of the other's (``other``).

    >>> w = (600.0, 0.0, *[0.0] * len(FEATURES), *[0.0] * len(FEATURES))
    >>> side_worth([1.0] * len(FEATURES), [0.0] * len(FEATURES), 0.5, w)
    300.0
    """
    n = len(FEATURES)
    worth = weights[0] * left
    for i in range(n):
        worth += weights[2 + i] * own[i] + weights[2 + n + i] * other[i]
    return worth
