"""A real clock (issue #18 item 4): the thinking agents keep to their time budget a move.

A budget (the ``ms`` option, ``set_budget``, the engine protocol's ``budget_ms``) must never be
exceeded by more than 10%, the exact end solver and the search's close-call extension included;
the levels that think are defined by time (:mod:`bezique.agents.levels`).
"""

from __future__ import annotations

import time

import pytest

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.endgame import obs_hands
from bezique.agents.levels import LEVEL_MS, LEVELS, level_spec
from bezique.agents.search import SearchAgent
from bezique.agents.solver import EndSolver, SolverBudgetError
from bezique.agents.solver_tables import hand_mask
from bezique.cards import card_name


def _decision_times(preset: str, budget: float, deals: int,
                    seed0: int) -> list[tuple[float, float, str]]:
    """(milliseconds, share of them this process had the processor, what the decision was) of
    each decision of the search (seat 0, ``budget`` ms a move) over a few seeded deals against
    the heuristic.  The description (seed, phase, stock, legal actions, worlds played, the
    agent's lateness in ms) is there to explain a failure."""
    times = []
    for i in range(deals):
        s = State.new_deal(Rules.preset(preset), seed=seed0 + i, dealer=i % 2)
        n = s.rules.nplayers
        search = SearchAgent(seed=seed0 + i)
        agents = [search] + [make_agent("heuristic", seed=0) for _ in range(n - 1)]
        search.set_budget(budget)
        while not s.is_terminal():
            p = s.current_player()
            obs = s.observation(p)
            t0, c0 = time.perf_counter(), time.process_time()
            action = agents[p].act(obs)
            if p == 0:
                wall = time.perf_counter() - t0
                what = (f"seed {seed0 + i} {obs.phase} stock {obs.stock} legal {len(obs.legal)}"
                        f" worlds {search.last_worlds} late {1000.0 * search.late_s:.1f}")
                times.append((wall * 1000.0, (time.process_time() - c0) / max(wall, 1e-9), what))
            s.apply(action)
    return times


@pytest.mark.slow
@pytest.mark.parametrize("budget", [50.0, 200.0])
@pytest.mark.parametrize("preset", ["bezique", "binocle", "bezique3", "bezique4"])
def test_the_search_keeps_to_its_time_budget(preset: str, budget: float) -> None:
    # Every decision is judged by the clock on the wall, except one during which other
    # processes held the processor (this process had it less than 90% of the time): a busy
    # machine stretches the last steps after the agent's deadline, which no clock inside the
    # agent can prevent.  Such a decision is judged by the processor time it used instead.
    times = _decision_times(preset, budget, 2, 70)
    judged = [ms if share >= 0.9 else ms * share for ms, share, _ in times]
    assert max(judged) <= 1.1 * budget, sorted(times)[-5:]
    # and it uses the time it is given where there is a choice to think about
    assert max(ms for ms, _, _ in times) >= 0.5 * budget


def test_the_clock_is_the_smaller_of_the_budget_and_the_time_limit() -> None:
    agent = SearchAgent(seed=1)
    assert agent.budget() == 0.0  # a number of worlds, no clock
    agent.set_budget(300)
    assert agent.budget() == pytest.approx(0.3)
    agent.set_time_limit(100)  # the engine protocol's limit of a 'go'
    assert agent.budget() == pytest.approx(0.1)
    agent.set_time_limit(5000)
    assert agent.budget() == pytest.approx(0.3)


def test_with_no_time_to_think_the_search_plays_the_heuristics_move() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=4, dealer=1)
    heuristic = make_agent("heuristic", seed=0)
    for _ in range(12):  # a few tricks into the deal
        s.apply(heuristic.act(s.observation(s.current_player())))
    obs = s.observation(s.current_player())
    assert len(obs.legal) > 1
    agent = SearchAgent(seed=3)
    agent.set_budget(0.001)  # a microsecond: not one world can be played out
    best, means = agent.evaluate(obs)
    assert agent.last_worlds == 0 and means == {}
    # the heuristic's own choice, as the search makes it: in its first sampled world
    patient = SearchAgent(seed=3, prior=1e9, confidence=1e9, samples=1, extend=1)
    assert best == patient.evaluate(obs)[0]


def test_levels_are_defined_by_time() -> None:
    assert LEVELS[1] == "random" and LEVELS[2] == "heuristic"
    for lv in (3, 4, 5):
        agent = make_agent(level_spec(lv), seed=1)
        assert isinstance(agent, SearchAgent)
        assert agent.ms == LEVEL_MS[lv]
    assert LEVEL_MS[3] < LEVEL_MS[4] < LEVEL_MS[5]


def test_at_a_table_with_no_time_the_search_plays_the_heuristics_move() -> None:
    s = State.new_deal(Rules.preset("bezique4"), seed=2, dealer=3)
    heuristic = make_agent("heuristic", seed=0)
    while len(s.legal_actions()) < 2 or s.current_player() != 0:
        s.apply(heuristic.act(s.observation(s.current_player())))
    obs = s.observation(0)
    agent = SearchAgent(seed=5)
    agent.set_budget(0.001)
    action = agent.act(obs)
    assert agent.last_worlds == 0 and action in obs.legal
    patient = SearchAgent(seed=5, prior=1e9, confidence=1e9, samples=1)
    assert action == patient.act(obs)


def test_the_end_solver_gives_up_at_its_deadline() -> None:
    # a node budget set from the solver's measured speed can be too large where nodes cost more
    # than on average: the solver also looks at the clock itself (every 1024 nodes)
    s = State.new_deal(Rules.preset("binocle"), seed=1)  # 12 cards: about 5,000 nodes
    heuristic = make_agent("heuristic", seed=0)
    while not s.end_phase:
        s.apply(heuristic.act(s.observation(s.current_player())))
    obs = s.observation(s.current_player())
    mover, other, lead = obs_hands(obs)
    me, opp = hand_mask(mover, obs.rules.copies), hand_mask(other, obs.rules.copies)
    solver = EndSolver(obs.rules, obs.trump)
    solver.deadline = time.perf_counter() - 1.0  # already past
    with pytest.raises(SolverBudgetError, match="out of time"):
        solver.best_move(me, opp, lead)
    assert solver.nodes == 1024
    solver.deadline, solver.nodes = 0.0, 0  # no clock: it solves
    card, _ = solver.best_move(me, opp, lead)
    assert "play " + card_name(card) in obs.legal
    assert solver.nodes > 1024
