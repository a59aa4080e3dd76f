"""The one-deal games' own evaluation: the fitted tuples of Rubicon and Six-pack, how the search
values its horizon leaves with them, and the classic weights kept as ``weights=classic``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.evaluation import (
    FEATURES,
    SEARCH_WEIGHTS,
    SIDE_TERMS,
    VARIANT_WEIGHTS,
    WEIGHTS,
    features,
    side_worth,
)
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.rollout import Rollout
from bezique.agents.settled import (
    _TYPICAL,
    expected_settlement,
    grid_settlement,
    settled_estimate,
    settled_value,
    spread_at,
    win_estimate,
    win_scale,
)
from bezique.errors import OptionError
from bezique.scoring import settle
from bezique.state import LEAD


def _stock_lead(variant: str, seed: int, share: float = 0.5) -> State:
    """A heuristic self-play deal of ``variant`` at its first stock-phase lead with at most
    ``share`` of the stock left."""
    s = State.new_deal(Rules.preset(variant), seed=seed)
    p = HeuristicPolicy()
    while s.stock_left > s.rules.stock_size * share:
        s.apply_action(p.choose(s))
    while s.phase_id != LEAD or s.end_phase:
        s.apply_action(p.choose(s))
    return s


@pytest.mark.parametrize("variant", ["rubicon", "sixpack"])
def test_each_one_deal_game_has_its_fitted_tuple(variant: str) -> None:
    w = VARIANT_WEIGHTS[variant]
    assert len(w) == len(SIDE_TERMS) == 2 + 2 * len(FEATURES)
    rules = Rules.preset(variant)
    future, spread = w[0], w[1]
    # a side wins hundreds of points (Rubicon) or thousands (Six-pack) from the start, give or
    # take a spread of the same order: the rubicon line sets the scale
    assert 0.3 * rules.rubicon_at < future < 2 * rules.rubicon_at
    assert 0.2 * rules.rubicon_at < spread < rules.rubicon_at


def test_the_classic_reading_of_a_leaf_is_as_before_the_fit() -> None:
    # values of settled_estimate before the variants had their own tuple (commit a15800c):
    # ``classic=True`` (the search's weights=classic) keeps them exactly, and Eight-pack,
    # which has no tuple of its own, is valued so by default.  (Re-read at a15800c in session
    # 18 for the positions the fixed heuristic now reaches: its "held twice" fix changed them.)
    pinned = {"rubicon": (54, 1661.111111), "sixpack": (84, 911.111111),
              "eightpack": (112, 1022.222222)}
    for variant, (stock, value) in pinned.items():
        s = _stock_lead(variant, 11)
        assert s.stock_left == stock
        assert settled_estimate(s, 0, classic=True) == pytest.approx(value, abs=1e-6)
        assert settled_estimate(s, 1, classic=True) == pytest.approx(-value, abs=1e-6)
    # Eight-pack, with no tuple of its own, keeps the classic weights: on the grid by
    # default, by the normal integral with settle=normal
    s = _stock_lead("eightpack", 11)
    assert settled_estimate(s, 0) == settled_estimate(s, 0, classic=True)
    rules = s.rules
    typical, spread = _TYPICAL["eightpack"]
    left = s.stock_left / rules.stock_size
    est = tuple(s.scores[i] + sum(w * x for w, x in zip(WEIGHTS, features(s, i), strict=True))
                + typical * left for i in (0, 1))
    sd = spread_at(spread, left)
    assert settled_estimate(s, 0, normal=True) == pytest.approx(
        expected_settlement(rules, est, s.brisques, sd, 0, 0.0, s.scores))
    assert settled_estimate(s, 0) == pytest.approx(grid_settlement(rules, est, s.brisques, sd, 0))
    for variant in ("rubicon", "sixpack"):
        s = _stock_lead(variant, 11)
        assert settled_estimate(s, 0) != settled_estimate(s, 0, classic=True)
        # classic=True is the grid whatever normal says
        assert settled_estimate(s, 0, True, True) == settled_estimate(s, 0, classic=True)
        assert settled_estimate(s, 0, normal=True) != settled_estimate(s, 0)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["rubicon", "sixpack"]), st.integers(0, 10_000), st.integers(0, 120))
def test_the_estimate_is_zero_sum_and_bounded(variant: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    s = State.new_deal(Rules.preset(variant), seed=seed)
    for _ in range(steps):
        if s.end_phase or s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    if s.end_phase or s.is_terminal():
        return
    rules = s.rules
    a, b = settled_estimate(s, 0), settled_estimate(s, 1)
    assert a == pytest.approx(-b, abs=1e-6)
    n = settled_estimate(s, 0, normal=True)
    assert n == pytest.approx(-settled_estimate(s, 1, normal=True), abs=1e-6)
    # no settlement is worth more than both sides' likely totals and the bonuses
    w = VARIANT_WEIGHTS[variant]
    left = s.stock_left / rules.stock_size
    f0, f1 = features(s, 0), features(s, 1)
    most = (sum(s.scores) + abs(side_worth(f0, f1, left, w)) + abs(side_worth(f1, f0, left, w))
            + 6 * w[1] + rules.rubicon_bonus_points + rules.game_bonus + 2000)
    assert abs(a) <= most and abs(n) <= most


@pytest.mark.parametrize(("variant", "deals"), [("rubicon", 90), ("sixpack", 20)])
def test_the_fit_predicts_the_points_to_come_better_than_the_classic_weights(
        variant: str, deals: int) -> None:
    # heuristic self-play deals the fit never saw: what a side goes on to win from a stock-phase
    # lead is nearer the variant's fitted worth than the classic weights' worth plus the typical
    # share of the rest (benchmarks/fit_evaluation.py --variant measured R^2 0.35 in Rubicon over
    # 800 held-out deals of the heuristic as fixed in session 18; over 90 deals the squared
    # error is 2-11% smaller in 5 samples of 5, in Six-pack over 20 deals 8-18% smaller in 5 of
    # 5; 30 and 10 deals, as before the fix, were too few: 0.998 and 1.003 of the classic's)
    rules = Rules.preset(variant)
    policy = HeuristicPolicy()
    w = VARIANT_WEIGHTS[variant]
    typical = _TYPICAL[variant][0]
    err = {"fitted": 0.0, "classic": 0.0}
    for i in range(deals):
        s = State.new_deal(rules, seed=7_000_000 + i, dealer=i & 1)
        leads: list[State] = []
        while not s.is_terminal():
            if s.phase_id == LEAD and not s.end_phase and s.trick_count % 4 == 0:
                leads.append(s.clone())
            s.apply_action(policy.choose(s))
        for t in leads:
            left = t.stock_left / rules.stock_size
            f0, f1 = features(t, 0), features(t, 1)
            for side, own, other in ((0, f0, f1), (1, f1, f0)):
                won = s.scores[side] - t.scores[side]
                err["fitted"] += (side_worth(own, other, left, w) - won) ** 2
                classic = sum(a * b for a, b in zip(WEIGHTS, own, strict=True)) + typical * left
                err["classic"] += (classic - won) ** 2
    assert err["fitted"] < 0.99 * err["classic"]


def test_the_search_options_pick_the_weights_and_the_settlement() -> None:
    s = _stock_lead("rubicon", 5)
    for spec, attr in (("search:weights=classic", "classic_weights"),
                       ("search:weights=search", "search_weights"),
                       ("search:settle=normal", "settle_normal"),
                       ("search:settle=win", "settle_win")):
        assert getattr(make_agent(spec, seed=1).rollout, attr)
        assert not getattr(make_agent("search", seed=1).rollout, attr)
    # a horizon leaf is valued by the weights and the settlement the options picked: the
    # estimate of the position one trick on
    t = s.clone()
    policy = HeuristicPolicy(solver_cards=0)
    stop = t.trick_count + 1
    while t.trick_count < stop or t.phase_id != LEAD:
        t.apply_action(policy.choose(t))
    roll = Rollout(HeuristicPolicy(solver_cards=0))
    leaves = {}
    for classic, normal in ((False, False), (True, False), (False, True)):
        roll.classic_weights, roll.settle_normal = classic, normal
        leaves[classic, normal] = roll.value(s.clone(), 0, horizon=1)
        assert leaves[classic, normal] == settled_estimate(t, 0, classic, normal)
    assert len(set(leaves.values())) == 3
    roll.classic_weights, roll.settle_normal, roll.settle_win = False, False, True
    assert roll.value(s.clone(), 0, horizon=1) == settled_estimate(t, 0, win=True)
    with pytest.raises(OptionError, match="weights must be variant, classic or search"):
        make_agent("search:weights=rubicon", seed=1)
    with pytest.raises(OptionError, match="settle must be auto, grid, normal or win"):
        make_agent("search:settle=exact", seed=1)


def test_the_search_sides_value_the_searching_seat_by_its_own_games() -> None:
    # weights=search: the searching seat's side by the first tuple of SEARCH_WEIGHTS (fitted on
    # the search's own games against the heuristic), the other side by the second, settled on
    # the grid with the variant's spread; a variant without them, or weights=classic, as before
    rubicon = SEARCH_WEIGHTS["rubicon"]
    for tup in rubicon:
        assert len(tup) == len(SIDE_TERMS)
        assert tup[1] == VARIANT_WEIGHTS["rubicon"][1]
    # the search turns the melds it holds into points more often than the heuristic does
    ready = 2 + FEATURES.index("meld0")
    assert rubicon[0][ready] > VARIANT_WEIGHTS["rubicon"][ready] > rubicon[1][ready]
    s = _stock_lead("rubicon", 5)
    rules = s.rules
    left = s.stock_left / rules.stock_size
    f = (features(s, 0), features(s, 1))
    for seat in (0, 1):
        est = tuple(s.scores[i] + side_worth(f[i], f[1 - i], left,
                                             rubicon[0] if i == seat else rubicon[1])
                    for i in (0, 1))
        sd = spread_at(rubicon[0][1], left)
        want = grid_settlement(rules, est, s.brisques, sd, seat)
        assert settled_estimate(s, seat, searcher=True) == pytest.approx(want)
        assert settled_estimate(s, seat, searcher=True) != settled_estimate(s, seat)
        assert settled_estimate(s, seat, classic=True, searcher=True) == settled_estimate(
            s, seat, classic=True)
    assert "sixpack" not in SEARCH_WEIGHTS
    t = _stock_lead("sixpack", 5)
    assert settled_estimate(t, 0, searcher=True) == settled_estimate(t, 0)
    # the rollout reads the option at its horizon leaves (one trick on)
    policy = HeuristicPolicy(solver_cards=0)
    t = s.clone()
    stop = t.trick_count + 1
    while t.trick_count < stop or t.phase_id != LEAD:
        t.apply_action(policy.choose(t))
    roll = Rollout(HeuristicPolicy(solver_cards=0))
    roll.search_weights = True
    assert roll.value(s.clone(), 1, horizon=1) == settled_estimate(t, 1, searcher=True)


def _settle_mc(rules: Rules, est: tuple[float, float], sd: float, rho: float,
               n: int, seed: int) -> float:
    """Seat 0's mean settlement over ``n`` draws of the two totals (normal, correlated ``rho``),
    each settled by the rules themselves, the brisques shared evenly."""
    rng = random.Random(seed)
    half = sum(rules.card_points[p & 7] for p in rules.deck) // 2
    total = 0
    for _ in range(n):
        z0, z1 = rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0)
        x1 = rho * z0 + (1.0 - rho * rho) ** 0.5 * z1
        t = (max(0, int(est[0] + sd * z0)), max(0, int(est[1] + sd * x1)))
        st = settle(t, (half, half), game_bonus=rules.game_bonus, rubicon=rules.rubicon_at,
                    rubicon_bonus=rules.rubicon_bonus_points, has_brisques=any(rules.card_points))
        total += 0 if st.winner < 0 else st.value if st.winner == 0 else -st.value
    return total / n


@pytest.mark.parametrize("variant", ["rubicon", "sixpack"])
def test_the_expected_settlement_is_the_settlement_averaged_over_the_normal(variant: str) -> None:
    # the integral against the rules' own settlement of random totals: a rubicon likely, a
    # close race near the line, a clear lead late, a long way to go with a small lead (the
    # 3x3 grid valued that last at about a rubicon: 1642 settled points in Rubicon)
    rules = Rules.preset(variant)
    r = rules.rubicon_at
    cases = [((0.7 * r, 0.4 * r), 0.3 * r, -0.1), ((1.05 * r, r), 0.15 * r, 0.0),
             ((1.5 * r, r), 0.1 * r, 0.0), ((0.9 * r, 0.8 * r), 0.55 * r, -0.2)]
    for i, (est, sd, rho) in enumerate(cases):
        want = _settle_mc(rules, est, sd, rho, 40_000, i)
        got = expected_settlement(rules, est, (0, 0), sd, 0, rho)
        # (the draws' own error is about 1% of the rubicon; the integral rounds hundreds in
        # expectation)
        assert got == pytest.approx(want, abs=0.03 * r), (est, sd, rho)
    # the small lead at the start: a few hundred settled points at most, not a rubicon
    small = expected_settlement(rules, (0.9 * r, 0.8 * r), (0, 0), 0.55 * r, 0, -0.2)
    assert 0 < small < 0.5 * r


@pytest.mark.parametrize("variant", ["rubicon", "sixpack"])
def test_the_expected_settlement_is_smooth_and_monotone_in_a_lead(variant: str) -> None:
    rules = Rules.preset(variant)
    r = rules.rubicon_at
    for sd in (0.05 * r, 0.2 * r, 0.55 * r):
        for mid in (0.6 * r, r, 1.4 * r):
            # a symmetric position is worth nothing to either side
            assert expected_settlement(rules, (mid, mid), (0, 0), sd, 0, -0.1) == 0.0
            # the lead with the sum fixed: never worth less for more of it, and no jump
            # bigger than the lead's step can make (the settlement's slope is at most the
            # rubicon's swing over the difference's spread)
            step = 0.01 * r
            last = None
            for k in range(-60, 61):
                d = k * step
                v = expected_settlement(rules, (mid + d / 2, mid - d / 2), (0, 0), sd, 0, -0.1)
                assert v == pytest.approx(
                    -expected_settlement(rules, (mid + d / 2, mid - d / 2), (0, 0), sd, 1, -0.1))
                if last is not None:
                    assert v >= last - 1e-6
                    most = step * (1.0 + (3 * r + rules.rubicon_bonus_points) / sd)
                    assert v - last <= most, (sd, mid, d)
                last = v
        # one side's total alone moving: continuous (a rubiconed loser pays its own points,
        # so more of them may cost more, but never by a jump)
        prev = None
        for k in range(0, 201):
            v = expected_settlement(rules, (k * 0.01 * r, r), (0, 0), sd, 0)
            if prev is not None:
                assert abs(v - prev) <= 0.01 * r * (1.0 + (3 * r + rules.rubicon_bonus_points)
                                                     / sd)
            prev = v


def test_a_side_that_reached_the_line_cannot_be_rubiconed() -> None:
    rules = Rules.preset("rubicon")
    # seat 1 has 980 points and 40 brisques: safe, whatever the normal spread says
    est, sd = (1500.0, 1000.0), 150.0
    free = expected_settlement(rules, est, (0, 40), sd, 0)
    safe = expected_settlement(rules, est, (0, 40), sd, 0, 0.0, (1200, 980))
    assert free > safe
    # then seat 0 wins the game bonus and the difference (with brisques counted when seat 1's
    # points stay under the line): about 500 + 500, never a rubicon's 1300 + 1500 + 1000
    assert 800 < safe < 1300


@pytest.mark.parametrize("variant", ["rubicon", "sixpack"])
def test_the_win_reading_is_the_chance_of_winning_the_deal(variant: str) -> None:
    """``settle=win``: a leaf is worth ``win_scale * (2 P(win) - 1)``: the two seats' readings
    cancel, more points for a side never lower its chance, and a finished deal (played out by
    the rollout) is a sure win, draw or loss by the settlement's winner."""
    rules = Rules.preset(variant)
    scale = win_scale(rules)
    for seed in range(6):
        s = _stock_lead(variant, seed)
        w0, w1 = settled_estimate(s, 0, win=True), settled_estimate(s, 1, win=True)
        assert -scale < w0 < scale
        assert w0 == pytest.approx(-w1, abs=1e-6)
    leads = range(-900, 901, 50)
    lead = [win_estimate(rules, (1000.0 + d, 1000.0), 300.0, -0.1, 0) for d in leads]
    assert lead == sorted(lead) and lead[0] < 0 < lead[-1]
    other = [win_estimate(rules, (1000.0 + d, 1000.0), 300.0, -0.1, 1) for d in leads]
    assert [-x for x in lead] == pytest.approx(other)
    roll = Rollout(HeuristicPolicy(solver_cards=0))
    roll.settle_win, roll.solver_cards = True, 0
    s = State.new_deal(rules, seed=3)
    done = s.clone()
    policy = HeuristicPolicy(solver_cards=0)
    while not done.is_terminal():
        done.apply_action(policy.choose(done))
    v = settled_value(done, 0)
    assert roll.value(s.clone(), 0) == scale * ((v > 0) - (v < 0)) != 0
