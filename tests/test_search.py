"""The search AI (determinized Monte Carlo): it never sees hidden cards, and it plays well."""

from __future__ import annotations

import random

import pytest
from helpers import deal, play

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.endgame import solve
from bezique.agents.levels import DEFAULT_LEVEL, LEVELS, level_spec
from bezique.agents.sampling import sample_world
from bezique.agents.search import SearchAgent
from bezique.errors import OptionError


def _position(seed: int, steps: int, variant: str = "bezique") -> State:
    rng = random.Random(seed)
    s = State.new_deal(Rules.preset(variant), seed=seed)
    for _ in range(steps):
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_choice_does_not_change_when_the_hidden_cards_change() -> None:
    for seed in (1, 2, 3):
        s = _position(seed, 9 + seed * 7)
        seat = s.current_player()
        obs = s.observation(seat)
        # another real state that this seat cannot tell from the first
        other = sample_world(obs, random.Random(seed + 50))
        assert other.observation(seat) == obs
        assert other.hand(1 - seat) != s.hand(1 - seat) or other.stock != s.stock
        # also with the opponent model (its chain reads only the observation) and the tuned
        # rollout policy
        for spec in ("search:samples=3", "search:samples=3,model=0.8",
                     "search:samples=3,rollout=tuned", "search:samples=3,rollout=own"):
            a = make_agent(spec, seed=11).act(obs)
            b = make_agent(spec, seed=11).act(other.observation(seat))
            assert a == b and a in obs.legal, spec


def test_same_observation_in_two_dealt_positions_gives_one_answer() -> None:
    # the same hand for seat 0 and turn-up, different cards for seat 1 and in the stock
    s1 = deal(hand0=["AS", "TS", "KH", "QH", "9C", "8D", "7S", "JD"], turnup="9H")
    s2 = deal(hand0=["AS", "TS", "KH", "QH", "9C", "8D", "7S", "JD"], turnup="9H",
              hand1=["QS", "AD", "AC", "TH", "KS"])
    assert s1.observation(0) == s2.observation(0) and s1.hand(1) != s2.hand(1)
    a = SearchAgent(seed=4, samples=3).act(s1.observation(0))
    b = SearchAgent(seed=4, samples=3).act(s2.observation(0))
    assert a == b


def test_end_phase_plays_the_solvers_move() -> None:
    s = _position(5, 0)
    rng = random.Random(5)
    while not s.end_phase:
        s.apply_action(rng.choice(s.legal_actions()))
    seat = s.current_player()
    assert SearchAgent(seed=1, samples=2).act(s.observation(seat)) == solve(s).best


def test_declares_a_big_meld_rather_than_pass() -> None:
    s = deal(hand0=["AH", "TH", "KH", "QH", "JH", "9S", "8D", "AC"], hand1=["7S"], turnup="8H")
    play(s, "play AC", "play 7S")
    # the royal marriage first, then the sequence after another trick: 290 rather than 250
    assert SearchAgent(seed=1, samples=3).act(s.observation(0)) in ("meld KH QH",
                                                                     "meld AH TH KH QH JH")


def test_search_plays_whole_deals_legally_in_both_variants() -> None:
    for variant in ("bezique", "binocle"):
        s = State.new_deal(Rules.preset(variant), seed=8)
        agents = [make_agent("search:samples=1,rollout=random", seed=1),
                  make_agent("heuristic", seed=2)]
        while not s.is_terminal():
            p = s.current_player()
            text = agents[p].act(s.observation(p))
            assert text in s.legal_action_strings()
            s.apply(text)


def test_options_are_checked() -> None:
    with pytest.raises(OptionError):
        make_agent("search:samples=0")
    with pytest.raises(OptionError):
        make_agent("search:rollout=magic")
    with pytest.raises(OptionError):
        make_agent("search:nosuch=1")
    with pytest.raises(OptionError):
        make_agent("search:horizon=-1")
    with pytest.raises(OptionError):
        make_agent("search:model=1")
    for bad in ("1", "-0.5", "often", "true"):
        with pytest.raises(OptionError, match="infer must be auto"):
            make_agent(f"search:infer={bad}")


def test_the_confidence_is_a_number_from_0() -> None:
    """A bad confidence is one clear OptionError, never a traceback; a number is the standard
    errors a rival must clear, at two seats and at tables alike."""
    for bad in ("-1", "sure", "true"):
        with pytest.raises(OptionError, match="confidence must be a number from 0"):
            make_agent(f"search:confidence={bad}")
    agent = make_agent("search:confidence=2", seed=1)
    assert isinstance(agent, SearchAgent)
    assert agent.confidence == agent.table.confidence == 2.0
    assert isinstance(default := make_agent("search"), SearchAgent) and default.confidence == 1.0


def test_the_inference_from_passes_is_on_in_the_classic_family_and_asked_for_elsewhere() -> None:
    auto = make_agent("search")
    assert isinstance(auto, SearchAgent)
    assert auto.inference(Rules.preset("bezique")) == 0.9
    assert auto.inference(Rules.preset("binocle")) == 0.9
    assert auto.inference(Rules.preset("rubicon")) == 0.0
    assert auto.inference(Rules.preset("sixpack")) == 0.0
    asked = make_agent("search:infer=0.95")
    off = make_agent("search:infer=0")
    assert isinstance(asked, SearchAgent) and isinstance(off, SearchAgent)
    for variant in ("bezique", "rubicon", "sixpack"):
        assert asked.inference(Rules.preset(variant)) == 0.95
        assert off.inference(Rules.preset(variant)) == 0.0


def test_levels_name_registered_agents() -> None:
    assert level_spec(1) == "random" and level_spec(2) == "heuristic"
    assert level_spec(DEFAULT_LEVEL).startswith("search")
    for lv in LEVELS:
        make_agent(level_spec(lv), seed=1)


def test_potential_counts_a_meld_waiting_in_hand() -> None:
    from bezique.agents.search import evaluate, potential

    with_pair = deal(hand0=["QS", "JD", "9C", "8C", "7C", "9D", "8D", "7D"], turnup="9H")
    without = deal(hand0=["QS", "8S", "9C", "8C", "7C", "9D", "8D", "7D"], turnup="9H")
    assert potential(with_pair, 0) > potential(without, 0) + 20
    # at the start nothing is scored: the evaluation is the difference of the potentials
    assert evaluate(with_pair, 0) == potential(with_pair, 0) - potential(with_pair, 1)


def test_a_time_budget_sets_how_many_worlds_are_searched() -> None:
    s = _position(8, 6)
    obs = s.observation(s.current_player())
    agent = SearchAgent(seed=2)
    agent.set_budget(40)
    assert agent.evaluate(obs)[0] in obs.legal
    short = agent.last_worlds
    agent.set_budget(600)
    agent.evaluate(obs)
    assert 2 <= short < agent.last_worlds
    agent.set_budget(0)
    agent.evaluate(obs)
    assert agent.last_worlds == agent.samples
    with pytest.raises(OptionError):
        agent.set_budget(-5)
    assert make_agent("search:ms=50", seed=1).ms == 50


def test_without_a_clear_margin_the_search_plays_the_heuristics_move() -> None:
    # demanding an impossible margin leaves the heuristic's choice in every position
    for seed in range(4):
        s = _position(seed, 10 + 4 * seed)
        if s.phase == "declare":
            s.apply("pass")
        obs = s.observation(s.current_player())
        cautious = SearchAgent(seed=seed, samples=6, prior=1e9)
        assert cautious.act(obs) == make_agent("heuristic", seed=seed).act(obs)


def test_paired_standard_error() -> None:
    from bezique.agents.search import _stderr

    assert _stderr([3.0, 5.0, 7.0], [1.0, 1.0, 1.0]) == pytest.approx(2 / 3 ** 0.5)
    assert _stderr([2.0, 4.0], [1.0, 3.0]) == 0.0


def test_close_calls_late_in_the_stock_get_more_worlds() -> None:
    # find late stock-phase positions where the first worlds leave the call open
    extended = 0
    for seed in range(40):
        s = _position(seed, 40 + seed % 7)
        if s.is_terminal() or s.end_phase or s.stock_left >= 26:
            continue
        obs = s.observation(s.current_player())
        if len(obs.legal) < 2:
            continue
        agent = SearchAgent(seed=seed, samples=8, extend=3)
        choice, means = agent.evaluate(obs)
        assert choice in obs.legal and set(means) <= set(obs.legal)
        assert 8 <= agent.last_worlds <= 24
        if agent.last_worlds > 8:
            extended += 1
            # the same first worlds without the extension: fewer worlds, and the extension
            # never moves the search away from the heuristic without the margin
            plain = SearchAgent(seed=seed, samples=8, extend=1)
            plain.evaluate(obs)
            assert plain.last_worlds == 8
            strict = SearchAgent(seed=seed, samples=8, extend=3, prior=1e9)
            assert strict.act(obs) == make_agent("heuristic").act(obs)
        if extended >= 2:
            break
    assert extended >= 2
    with pytest.raises(OptionError):
        make_agent("search:extend=0")
