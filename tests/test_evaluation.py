"""The search AI's learned evaluation: what its features count, and that the fit predicts."""

from __future__ import annotations

import random
import statistics

from helpers import deal, win_trick
from hypothesis import given, settings
from hypothesis import strategies as st

from bezique import Rules, State
from bezique.agents.evaluation import FEATURES, WEIGHTS, evaluate, features, so_far
from bezique.agents.heuristic import HeuristicPolicy
from bezique.state import LEAD

F = {name: i for i, name in enumerate(FEATURES)}


def test_one_weight_per_feature() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=3)
    assert len(WEIGHTS) == len(FEATURES) == len(features(s, 0))


def test_a_held_marriage_counts_until_it_is_declared() -> None:
    # hearts are trumps: KH QH is a royal marriage (40) held whole, nothing missing
    s = deal(hand0=["KH", "QH", "7C", "8C", "9C", "7D", "8D", "9D"], turnup="8H")
    before = features(s, 0)
    assert before[F["meld0"]] >= 40
    win_trick(s, keep=["KH", "QH"])
    s.apply("meld KH QH")
    after = features(s, 0)
    assert after[F["meld0"]] == before[F["meld0"]] - 40


def test_a_meld_missing_a_card_counts_only_while_the_card_can_come() -> None:
    # spades trumps; AS TS KS QS in hand, JS in the stock: the sequence misses one card
    s = deal(hand0=["AS", "TS", "KS", "QS", "7C", "8C", "9C", "7D"], turnup="8S",
             stock=["JS"])
    assert features(s, 0)[F["meld1"]] >= 250
    # both jacks of spades with the other seat: the sequence cannot be made
    t = deal(hand0=["AS", "TS", "KS", "QS", "7C", "8C", "9C", "7D"],
             hand1=["JS", "JS"], turnup="8S")
    assert features(t, 0)[F["meld1"]] < 250


def test_cards_for_the_last_tricks_are_counted() -> None:
    s = deal(hand0=["AS", "TS", "9S", "AC", "TD", "7C", "8C", "7D"], turnup="8S")
    f = features(s, 0)
    assert (f[F["trump_brisques"]], f[F["trumps"]], f[F["aces"]], f[F["tens"]]) == (2, 1, 1, 1)
    assert f[F["seven"]] == 0
    g = features(deal(hand0=["7S", "7C"], turnup="8S"), 0)
    assert g[F["seven"]] == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_the_evaluation_is_zero_sum(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    s = State.new_deal(Rules.preset("bezique"), seed=seed)
    for _ in range(steps):
        if s.end_phase:
            break
        s.apply_action(rng.choice(s.legal_actions()))
    assert abs(evaluate(s, 0) + evaluate(s, 1)) < 1e-9


def test_the_fitted_weights_predict_fresh_deals() -> None:
    # on deals the fit never saw, the evaluation predicts the points still to come better
    # than the points so far alone (squared error lower)
    rules = Rules.preset("bezique")
    policy = HeuristicPolicy()
    err_fit: list[float] = []
    err_zero: list[float] = []
    for seed in range(900_000, 900_060):
        s = State.new_deal(rules, seed, dealer=seed & 1)
        rows = []
        while not s.is_terminal():
            if s.phase_id == LEAD and not s.end_phase:
                rows.append((evaluate(s, 0), so_far(s, 0)))
            s.apply_action(policy.choose(s))
        final = s.scores[0] - s.scores[1]
        for pred, now in rows:
            err_fit.append((final - pred) ** 2)
            err_zero.append((final - now) ** 2)
    assert statistics.fmean(err_fit) < 0.95 * statistics.fmean(err_zero)
