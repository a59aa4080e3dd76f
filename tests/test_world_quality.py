"""``benchmarks/world_quality.py --passes``: what the other seat's passes say about its hand."""

from __future__ import annotations

import random

from helpers import benchmark

from bezique import Rules, State
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.sampling import _replay
from bezique.cards import card_name

world_quality = benchmark("world_quality")


def _self_play(stock: int) -> State:
    """A Rubicon deal of the heuristic against itself, at its first lead with at most ``stock``
    cards left in the stock."""
    s = State.new_deal(Rules.preset("rubicon"), seed=3)
    p = HeuristicPolicy(solver_cards=0)
    while s.stock_left > stock or s.phase_id != 0:
        s.apply_action(p.choose(s))
    return s


def test_before_any_pass_every_world_explains_them_and_the_weights_change_nothing() -> None:
    s = State.new_deal(Rules.preset("rubicon"), seed=3)
    share, uniform, weighted, ess = world_quality.passes(s, s.current_player(), 8, 0.95,
                                                         random.Random(1))
    assert share == 1.0 and uniform == weighted and ess == 8.0


def test_late_in_the_deal_the_passes_rule_worlds_out() -> None:
    s = _self_play(20)
    seat = s.current_player()
    # the real other hand explains every pass of the heuristic that holds it ...
    assert world_quality.ready_points(s, 1 - seat) >= 0
    share, uniform, weighted, ess = world_quality.passes(s, seat, 30, 0.95, random.Random(1))
    # ... and uniform worlds mostly do not: the weights are uneven
    assert 0.0 <= share < 1.0 and 1.0 <= ess < 30.0
    assert uniform >= 0.0 and weighted >= 0.0
    # the premise: the real deal explains every pass (the sampler's count of passes with a
    # legal meld is 0 for it), where a uniform world mostly does not
    obs = s.observation(seat)
    hands = [[card_name(p) for p in h] for h in s.deal_hands]
    got = _replay(obs, hands, -1, [card_name(p) for p in s.stock], infer=True)
    assert got is not None and got[1] == 0 and got[0].scores == s.scores
