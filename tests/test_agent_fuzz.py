"""Every computer player answers every position of every preset with a legal action.

A deal is played by a random mover that passes a declaring turn with a drawn probability (so
that deals arise in which no meld fixes trumps, or few melds are declared at all: positions the
agents' own self-play never reaches), and at every few decisions the heuristic and a small search
must each choose, from the seat's observation, an action that is legal there, and the hints'
reasons for the heuristic's move (:func:`~bezique.agents.explain.explain`, the hints' "why")
must come out as words.  (Found this way:
the heuristic's end-phase rules of thumb crashed in a Rubicon end with no trumps fixed.)  A few
deals a preset in the normal run, many more under ``pytest -m slow``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.explain import explain
from bezique.rules import PRESETS

AGENTS = ("heuristic", "search:samples=2", "search:samples=2,solver_cards=0")


def _check_deal(variant: str, seed: int, pass_share: float, every: int) -> None:
    rules = Rules.preset(variant)
    state = State.new_deal(rules, seed=seed)
    rng = random.Random(seed)
    agents = [make_agent(spec, seed=seed) for spec in AGENTS]
    step = 0
    while not state.is_terminal():
        legal = state.legal_action_strings()
        if len(legal) > 1 and step % every == 0:
            obs = state.observation(state.current_player())
            for spec, agent in zip(AGENTS, agents, strict=True):
                text = agent.act(obs)
                assert text in legal, (variant, seed, spec, text)
                if spec == "heuristic":  # the hint, in words (none for some actions)
                    why = explain(obs, text)
                    assert all(isinstance(w, str) and w for w in why), (variant, text, why)
        if "pass" in legal and rng.random() < pass_share:
            state.apply("pass")
        else:
            state.apply(rng.choice(legal))
        step += 1


@pytest.mark.parametrize("variant", sorted(PRESETS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), pass_share=st.sampled_from([0.0, 0.9, 1.0]))
def test_agents_answer_positions_of_random_deals(variant: str, seed: int,
                                                 pass_share: float) -> None:
    _check_deal(variant, seed, pass_share, every=11)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PRESETS))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), pass_share=st.floats(0.0, 1.0))
def test_agents_answer_positions_of_many_random_deals(variant: str, seed: int,
                                                      pass_share: float) -> None:
    _check_deal(variant, seed, pass_share, every=5)
