"""The second research review: the adapters as a researcher uses them, for every variant they
claim.  OpenSpiel's four-handed partnership rewards a side, every true/false option can be
turned off in a game (and the OpenSpiel ISMCTS agent plays those rules), a pickled game makes
states, PettingZoo's own render check passes, and the environments' keywords are checked."""

from __future__ import annotations

import functools
import pickle
import random
from typing import Any

import pytest

from bezique import OptionError, Rules, State

np = pytest.importorskip("numpy", reason="the adapters need numpy")


def _pyspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    import bezique.openspiel  # noqa: F401  (registers python_bezique)

    return pyspiel


def _random_deal(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_partners_share_their_sides_result() -> None:
    pyspiel = _pyspiel()
    from bezique.scoring import sides

    state = _random_deal(pyspiel.load_game("python_bezique(variant=bezique4)"), 2)
    a, b = sides(state.engine.scores)
    # before: each seat's points less the other three's average, so a seat gained by its
    # partner scoring less (e.g. [90, -90, 90, -90] was [-23.3, 30.0, -63.3, 56.7])
    assert state.returns() == [a - b, b - a, a - b, b - a]
    assert [state.player_return(s) for s in range(4)] == state.returns()
    # without partnerships every seat plays for itself, as the engine's returns say
    alone = _random_deal(pyspiel.load_game("python_bezique(variant=bezique4,off=partnership)"),
                         2)
    assert alone.returns() == alone.engine.returns()
    assert sum(alone.returns()) == pytest.approx(0)


@pytest.mark.parametrize("variant", ["bezique3", "bezique4"])
def test_openspiel_random_sim_test_at_the_tables(variant: str) -> None:
    pyspiel = _pyspiel()
    pyspiel.random_sim_test(pyspiel.load_game(f"python_bezique(variant={variant})"), num_sims=1,
                            serialize=True, verbose=False)


@pytest.mark.parametrize(("variant", "option"), [("binocle", "fours_distinct_suits"),
                                                 ("bezique4", "partnership")])
def test_openspiel_turns_off_a_true_by_default_option(variant: str, option: str) -> None:
    pyspiel = _pyspiel()
    from bezique.openspiel import game_for

    rules = Rules.preset(variant, **{option: False})
    game = game_for(rules, 0)
    # before: OpenSpiel passes False for every option not given, so False was read as "the
    # variant's default" (True) and the game silently had other rules than asked for
    assert game.rules == rules and not getattr(game.rules, option)
    assert pyspiel.load_game(str(game)).rules == rules
    assert pyspiel.load_game(f"python_bezique(variant={variant},off={option})").rules == rules
    assert getattr(pyspiel.load_game(f"python_bezique(variant={variant})").rules, option)
    for bad, match in ((f"off={option}+foo", "names true/false options"),
                       (f"{option}=True,off={option}", "given true and named in 'off'")):
        with pytest.raises(OptionError, match=match):
            pyspiel.load_game(f"python_bezique(variant={variant},{bad})")


def test_state_from_engine_refuses_a_game_of_other_rules() -> None:
    _pyspiel()
    from bezique.openspiel import game_for, state_from_engine

    world = State.new_deal(Rules.preset("binocle", fours_distinct_suits=False), 3, dealer=0)
    with pytest.raises(ValueError, match="rules or dealer differ"):
        state_from_engine(game_for(Rules.preset("binocle"), 0), world)
    assert state_from_engine(game_for(world.rules, 0), world).engine is not None


def test_the_openspiel_ismcts_agent_plays_binocle_without_distinct_suits() -> None:
    _pyspiel()
    from bezique.agents import make_agent

    # before: its game had Binocle's default rules, so a world's actions did not replay there
    # ("... is not a legal action with an id here") once four of a kind came up
    rules = Rules.preset("binocle", fours_distinct_suits=False)
    world = State.new_deal(rules, 1, dealer=1)
    rng = random.Random(4)
    while len(world.history()) < 40:
        world.apply(rng.choice(world.legal_action_strings()))
    agent = make_agent("openspiel-ismcts:simulations=2", seed=1)
    game = agent._game(rules, world.dealer)
    assert game.rules == rules
    obs = world.observation(world.current_player())
    assert agent.act(obs) in obs.legal


@pytest.mark.parametrize("name", ["python_bezique(variant=binocle)",
                                  "python_bezique(variant=sixpack,cut_bonus=true,cut_range=20_28)"])
def test_a_pickled_game_makes_states(name: str) -> None:
    pyspiel = _pyspiel()
    game = pyspiel.load_game(name)
    copy = pickle.loads(pickle.dumps(game))
    # before: the copy kept OpenSpiel's game string only, without the rules: new_initial_state
    # raised AttributeError ('BeziqueGame' object has no attribute 'layout')
    assert str(copy) == str(game) and copy.rules == game.rules
    state = copy.new_initial_state()
    assert state.is_chance_node()
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1)


def test_pettingzoo_render_test_and_the_human_mode(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo", reason="needs the rl extra")
    from pettingzoo.test import render_test

    from bezique.pettingzoo import env

    # before: PettingZoo's check builds the env with render_mode="human" first: OptionError
    render_test(functools.partial(env, variant="binocle"))
    capsys.readouterr()
    e = env(variant="bezique", render_mode="human")
    e.reset(seed=0)
    assert e.render() is None
    assert "view player_" in capsys.readouterr().out
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    assert "view player_" in capsys.readouterr().out  # printed after a step too


@pytest.mark.parametrize("bad", [{"dealer": 1.0}, {"dealer": True}, {"game": "yes"},
                                 {"game": 1}])
def test_the_environments_refuse_ill_typed_keywords(bad: dict[str, Any]) -> None:
    pytest.importorskip("pettingzoo", reason="needs the rl extra")
    from bezique.gymnasium_env import BeziqueEnv
    from bezique.pettingzoo import raw_env

    # before: a float seat failed deep inside with mypyc's TypeError at reset, True sat in
    # seat 1, and game="yes" played whole games
    for make in (raw_env, functools.partial(BeziqueEnv, opponent="random")):
        with pytest.raises(OptionError, match=next(iter(bad))):
            make(**bad).reset(seed=0)


def test_the_environments_refuse_a_reward_or_seat_that_is_no_number() -> None:
    pytest.importorskip("pettingzoo", reason="needs the rl extra")
    from bezique.gymnasium_env import BeziqueEnv
    from bezique.pettingzoo import env

    for seat in (1.0, True, 2, "0"):
        with pytest.raises(OptionError, match="seat must be 0 or 1"):
            BeziqueEnv(opponent="random", seat=seat)
    # before: accepted, and "x" came back from step as the reward of an unmasked index
    with pytest.raises(OptionError, match="illegal_reward must be a number"):
        BeziqueEnv(opponent="random", illegal_reward="x")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="illegal_reward must be a number"):
        env(illegal_reward="x")  # type: ignore[arg-type]
    e = BeziqueEnv(opponent="random", seat=np.int64(1), illegal_reward=np.float32(-5))
    _, info = e.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    assert e.step(bad)[1:3] == (-5.0, True)


@pytest.mark.parametrize("name", ["Rubicon", "Sixpack", "Eightpack"])
def test_gymnasium_registers_every_two_handed_game(name: str) -> None:
    gymnasium = pytest.importorskip("gymnasium", reason="needs the rl extra")
    import bezique.gymnasium_env  # noqa: F401
    from bezique.encoding import spec

    # before: only bezique/Bezique-v0 and bezique/Binocle-v0 were registered
    e = gymnasium.make(f"bezique/{name}-v0", opponent="random")
    obs, info = e.reset(seed=0)
    assert obs.shape == (spec(Rules.preset(name.lower())).obs_size,)
    assert info["action_mask"].any()
