"""The oracle of ``benchmarks/oracle_loss.py``: what its figures mean holds on real deals."""

from __future__ import annotations

from helpers import benchmark

from bezique import Rules, State
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.rollout import Rollout

oracle_loss = benchmark("oracle_loss")
RULES = Rules.preset("bezique")
ROLL = Rollout(HeuristicPolicy(solver_cards=0), solver_cards=8, solver_nodes=50_000_000)


def test_a_deal_is_measured_at_every_choice_and_the_full_oracle_never_loses() -> None:
    play = oracle_loss.play(RULES, "heuristic", "random", 1, 0, 0, ROLL)
    assert len(play["stock"]) > 10
    # the oracle's best is at least as good as any action, the agent's included
    assert all(x >= 0 for x in play["stock"])
    # the heuristic plays the end phase by the solver: every end decision is a best one
    assert play["end"] and all(x == 0 for x in play["end"])
    text = oracle_loss.summary([play])
    assert f"found in {len(play['end'])} of {len(play['end'])} decisions (100.0%)" in text


def test_the_oracles_values_are_the_deal_played_out() -> None:
    state = State.new_deal(RULES, 3, dealer=0)
    seat = state.current_player()
    values = oracle_loss.oracle_values(state, seat, ROLL)
    assert set(values) == set(state.legal_action_strings())
    # the value of an action is the margin at the end of the deal played out from it
    text = next(iter(values))
    s = state.clone()
    s.apply(text)
    policy = HeuristicPolicy(solver_cards=0)
    while not s.is_terminal() and not s.end_phase:
        s.apply_action(policy.choose(s))
    assert values[text] == ROLL.value(s, seat, 0)
