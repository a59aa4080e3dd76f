"""The ``openspiel-ismcts`` agent: OpenSpiel's ISMCTS bot as one of our agents, by name, in the
arena, the engine protocol and ``bezique agents``; it sees only its seat's observation, and a
missing OpenSpiel is a one-line error."""

from __future__ import annotations

import json
import random
import sys
import time

import pytest
from click.testing import CliRunner

from bezique import Rules, State
from bezique.agents import agent_names, agent_options, make_agent
from bezique.arena import run_match
from bezique.cli import main
from bezique.engine import Engine
from bezique.errors import OptionError
from bezique.worlds import resample_from_infostate

pytest.importorskip("pyspiel", reason="the openspiel-ismcts agent needs the openspiel extra")

FAST = "openspiel-ismcts:simulations=3"


def _mid_deal(seed: int, moves: int) -> State:
    """A deal after ``moves`` random actions and then up to a choice of several actions."""
    s = State.new_deal(Rules.preset("bezique"), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply_action(rng.choice(s.legal_actions()))
    while len(s.legal_actions()) < 2:
        s.apply_action(s.legal_actions()[0])
    return s


def test_agent_is_listed_with_its_options() -> None:
    assert "openspiel-ismcts" in agent_names()
    assert agent_options("openspiel-ismcts") == {
        "simulations": 100, "worlds": -1, "uct_c": 300.0, "rollouts": 1, "ms": 0.0}
    out = CliRunner().invoke(main, ["agents"]).output
    assert "openspiel-ismcts: OpenSpiel's own ISMCTS bot" in out
    assert "simulations=100, worlds=-1, uct_c=300.0" in out


def test_agent_plays_legal_actions_through_the_arena_and_is_deterministic() -> None:
    rules = Rules.preset("bezique")
    first = run_match(FAST + ",worlds=2", "random", rules, deals=2, seed=5)
    again = run_match(FAST + ",worlds=2", "random", rules, deals=2, seed=5)
    assert first.games == 2
    assert first.to_json() == again.to_json()


def test_decision_depends_only_on_the_seats_view_not_on_the_hidden_cards() -> None:
    real = _mid_deal(11, 9)
    seat = real.current_player()
    other = resample_from_infostate(real, seat, random.Random(3))
    assert other.observation(seat) == real.observation(seat)
    assert [real.hand(1 - seat), list(real.stock)] != [other.hand(1 - seat), list(other.stock)]
    a = make_agent(FAST, seed=7).act(real.observation(seat))
    b = make_agent(FAST, seed=7).act(other.observation(seat))
    assert a == b
    assert a in real.observation(seat).legal


def test_a_budget_too_small_for_any_simulation_still_searches_enough_to_choose() -> None:
    state = _mid_deal(4, 6)
    obs = state.observation(state.current_player())
    agent = make_agent("openspiel-ismcts:ms=0.001", seed=2)
    assert agent.act(obs) in obs.legal
    assert agent.last_simulations == 2  # type: ignore[attr-defined]


def test_time_budget_runs_as_many_simulations_as_fit() -> None:
    agent = make_agent("openspiel-ismcts", seed=1)
    agent.set_budget(150)  # type: ignore[attr-defined]
    state = _mid_deal(2, 4)
    obs = state.observation(state.current_player())
    start = time.perf_counter()
    assert agent.act(obs) in obs.legal
    assert time.perf_counter() - start < 2.0
    assert agent.last_simulations >= 2  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("budget", [50.0, 200.0])
def test_the_bot_keeps_to_its_time_budget(budget: float) -> None:
    # issue #18 item 4: no decision more than 10% over its budget (judged by processor time
    # when other processes held the processor, as in tests/test_clock.py)
    agent = make_agent("openspiel-ismcts", seed=3)
    agent.set_budget(budget)  # type: ignore[attr-defined]
    judged, walls = [], []
    for seed in (11, 12):
        s = State.new_deal(Rules.preset("bezique"), seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal() and len(judged) < 40:
            if s.current_player() == 0 and len(s.legal_actions()) > 1:
                obs = s.observation(0)
                t0, c0 = time.perf_counter(), time.process_time()
                s.apply(agent.act(obs))
                wall = time.perf_counter() - t0
                share = (time.process_time() - c0) / wall
                judged.append(1000.0 * (wall if share >= 0.9 else wall * share))
                walls.append(1000.0 * wall)
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    assert max(judged) <= 1.1 * budget, sorted(judged)[-5:]
    assert max(walls) >= 0.5 * budget  # and it uses the time it is given


def test_engine_protocol_names_the_agent_in_its_agent_field() -> None:
    e = Engine()
    assert "openspiel-ismcts" in e.handle('{"cmd": "hello"}')["agents"]
    hand = ["AS", "TS", "KS", "QS", "JD", "9C", "8C", "7C"]
    got = e.handle(json.dumps({"cmd": "new", "seat": 0, "dealer": 1, "turnup": "7H",
                               "agent": FAST, "hand": hand, "seed": 1}))
    assert got == {"ok": True, "to_act": 0}
    answer = e.handle('{"cmd": "go", "budget_ms": 50}')
    assert answer["ok"], answer
    assert answer["action"].startswith("play ")


@pytest.mark.parametrize("spec, message", [
    ("openspiel-ismcts:simulations=1", "simulations must be at least 2"),
    ("openspiel-ismcts:worlds=0", "worlds must be -1"),
    ("openspiel-ismcts:rollouts=0", "rollouts must be at least 1"),
    ("openspiel-ismcts:bogus=1", "agent 'openspiel-ismcts' has no option 'bogus'"),
])
def test_bad_options_are_one_option_error(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_agent(spec)


def test_without_openspiel_the_agent_is_a_clear_one_line_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "open_spiel.python.algorithms", None)
    with pytest.raises(OptionError, match=r"needs OpenSpiel.*pip install 'bezique\[openspiel\]'"):
        make_agent("openspiel-ismcts")
    result = CliRunner().invoke(main, ["arena", "openspiel-ismcts", "random", "--deals", "2"])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "bezique: error: agent 'openspiel-ismcts' needs OpenSpiel" in result.output


def test_bezique_play_takes_openspiels_ismcts_as_the_opponent(tmp_path: object,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """``bezique play --opponent openspiel-ismcts:...``: any agent, not only a level, sits at
    the table; the save names it and a resumed game keeps it."""
    from pathlib import Path

    from bezique.tui.session import PlayConfig, Session, save_description

    path = Path(str(tmp_path)) / "game.json"
    spec = "openspiel-ismcts:simulations=8"
    s = Session.new(PlayConfig(seed=4, opponent=spec), path)
    assert s.agent_spec == spec and s.strength() == spec
    for _ in range(6):
        if s.computer_to_act():
            s.computer_move()
        else:
            s.play(s.observation().legal[0])
    data = json.loads(path.read_text())
    assert data["play"]["opponent"] == spec and data["players"][1] == f"Computer ({spec})"
    again = Session.resume(path)
    assert again.agent_spec == spec and type(again.agents[1]).__name__ == type(
        s.agents[1]).__name__
    assert spec in save_description(path)
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(tmp_path))
    bad = CliRunner().invoke(main, ["play", "--opponent", "openspiel-ismcts:wrong=1"])
    assert bad.exit_code == 2 and "has no option 'wrong'" in bad.output
    assert len(bad.output.strip().splitlines()) == 1
