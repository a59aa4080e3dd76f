"""A researcher's misuses of the adapters are one clear exception, and one's own agents run on
Ray: the defects found walking the README's "For researchers" workflow."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bezique import IllegalActionError, OptionError, Rules
from bezique.agents import base, make_agent, register_agent
from bezique.observation import Observation

np = pytest.importorskip("numpy", reason="the adapters need numpy")


def test_action_int_takes_what_a_discrete_space_holds_and_refuses_the_rest() -> None:
    from bezique.encoding import action_int

    assert action_int(3) == 3
    assert action_int(np.int64(4)) == 4
    assert action_int(np.array(5)) == 5
    for bad in (1.5, 2.0, "play AS", np.array([1, 2]), np.array([1]), None):
        with pytest.raises(IllegalActionError, match="an action is one int index"):
            action_int(bad)


def test_gymnasium_refuses_a_float_or_an_array_of_several_instead_of_truncating() -> None:
    pytest.importorskip("gymnasium", reason="needs the rl extra")
    from bezique.gymnasium_env import BeziqueEnv

    e = BeziqueEnv("bezique", opponent="random")
    e.reset(seed=0)
    legal = int(np.flatnonzero(e.action_masks())[0])
    before = e.seat_observation()
    # before the fix: 1.5 was played as index 1 (or ended the episode as illegal), an array
    # of two raised numpy's TypeError from inside step
    for bad in (legal + 0.5, np.array([legal, legal]), str(legal)):
        with pytest.raises(IllegalActionError, match="an action is one int index"):
            e.step(bad)  # type: ignore[arg-type]
    assert e.seat_observation() == before  # nothing was played
    obs, _, _, _, info = e.step(np.int64(legal))
    assert obs.shape == (371,) and "illegal_action" not in info


def test_pettingzoo_raw_refuses_a_float_and_names_its_agents() -> None:
    pytest.importorskip("pettingzoo", reason="needs the rl extra")
    from bezique.pettingzoo import raw_env

    e = raw_env()
    e.reset(seed=0)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    with pytest.raises(IllegalActionError, match="an action is one int index"):
        e.step(legal + 0.7)  # before: truncated to ``legal`` and played
    with pytest.raises(OptionError, match=r"unknown agent 'player_2' \(the agents: player_0"):
        e.observe("player_2")  # before: tuple.index's ValueError
    e.step(np.int64(legal))


def _dealt(spec: str) -> object:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    import bezique.openspiel  # noqa: F401

    state = pyspiel.load_game(spec).new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


def test_openspiel_resample_refuses_a_seat_that_is_not_one() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    state = _dealt("python_bezique(variant=bezique)")
    sampler = random.Random(1).random
    for bad in (2, 5, -1):
        # before: IndexError from the engine, or (-1) a RecordError about the stock's size
        with pytest.raises(pyspiel.SpielError, match=r"player_id must be a seat 0 to 1"):
            state.resample_from_infostate(bad, sampler)  # type: ignore[attr-defined]
    world = state.resample_from_infostate(np.int64(0), sampler)  # type: ignore[attr-defined]
    assert world.information_state_string(0) == state.information_state_string(0)  # type: ignore[attr-defined]


def test_openspiel_an_id_out_of_range_says_the_range() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    state = _dealt("python_bezique(variant=bezique)")
    with pytest.raises(pyspiel.SpielError, match=r"9999 is not a legal action here "
                                                 r"\(action ids are 0 to 228\)"):
        state.apply_action(9999)  # type: ignore[attr-defined]  # before: "(meld #9898)"


# ---------------------------------------------------------------- one's own agent on Ray

NAME = "review-last"


class Last:
    """Plays the last legal action."""

    name = NAME

    def act(self, obs: Observation) -> str:
        return obs.legal[-1]


def make_last(seed: int | None = None) -> Last:
    return Last()


@pytest.fixture
def own_agent() -> Iterator[str]:
    register_agent(NAME, "plays the last legal action")(make_last)
    yield NAME
    base._REGISTRY.pop(NAME, None)  # (leave the registry as the other tests know it)


def test_own_agent_is_listed_for_the_workers(own_agent: str) -> None:
    from bezique.distributed import register_missing, user_agents

    mine = user_agents()  # (other tests in this process may have registered their own too)
    names = [a[0] for a in mine]
    assert own_agent in names
    assert not {"heuristic", "policy", "random", "search"} & set(names)  # the package's stay
    assert all(not a[1].__module__.startswith("bezique") for a in mine)
    base._REGISTRY.pop(own_agent)
    register_missing(mine)  # what a worker does before its task
    assert make_agent(own_agent).act is not None


def test_own_agent_plays_a_tournament_on_ray(own_agent: str) -> None:
    ray = pytest.importorskip("ray", reason="tournaments on Ray need the research extra")
    from bezique.tournament import run_tournament

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=1, include_dashboard=False, logging_level=logging.ERROR,
                 log_to_driver=False)
    try:
        rules = Rules.preset("bezique")
        # before the fix: "unknown agent 'review-last'" from the workers
        remote = run_tournament([own_agent, "random"], rules, deals=2, seed=3, ray="local")
    finally:
        if started:
            ray.shutdown()
    local = run_tournament([own_agent, "random"], rules, deals=2, seed=3)
    assert {k: m.to_json() for k, m in remote.matches.items()} == {
        k: m.to_json() for k, m in local.matches.items()}


def test_an_installed_package_offers_its_agent_by_entry_point(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A package that declares ``[project.entry-points."bezique.agents"] review-first =
    "reviewpkg:make_first"`` gives the command and make_agent its agent by name, loaded when
    first asked for; one that cannot be imported is one OptionError."""
    import sys
    import types
    from importlib.metadata import EntryPoint

    from click.testing import CliRunner

    from bezique.cli import main

    pkg = types.ModuleType("reviewpkg")

    def make_first(seed: int | None = None) -> Any:
        """Plays the first legal action."""
        return types.SimpleNamespace(name="review-first", act=lambda obs: obs.legal[0])

    pkg.make_first = make_first  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "reviewpkg", pkg)
    offered = [EntryPoint("review-first", "reviewpkg:make_first", base.ENTRY_POINTS),
               EntryPoint("review-broken", "no_such_pkg_here:make", base.ENTRY_POINTS)]
    monkeypatch.setattr(base, "_entry_points", lambda: offered)
    try:
        assert make_agent("review-first", seed=1).act is not None
        summaries = base.agent_summaries()  # (`bezique agents`: a broken one says why)
        assert summaries["review-first"] == "Plays the first legal action."
        assert "could not be loaded" in summaries["review-broken"]
        listed = CliRunner().invoke(main, ["agents"])
        assert listed.exit_code == 0, listed.output
        assert "review-first: Plays the first legal action." in listed.output
        res = CliRunner().invoke(main, ["arena", "review-first", "random", "--deals", "2"])
        assert res.exit_code == 0 and res.output.startswith("review-first vs random: 2 deals")
        with pytest.raises(OptionError, match="agent 'review-broken' \\(no_such_pkg_here:make\\) "
                                              "could not be loaded"):
            make_agent("review-broken")
    finally:
        base._REGISTRY.pop("review-first", None)
