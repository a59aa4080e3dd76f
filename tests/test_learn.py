"""The learned policy and value (bezique.learn, ``bezique train``, the ``policy`` agent): the
features see only the observation, inference in plain Python is numpy's forward pass, a training
run is seeded and resumable, the shipped weights load and play legal moves, records name the
weights' version, and bad options are one line with exit status 2."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import bezique.learn as learn
from bezique import Rules, State
from bezique.agents import agent_label, make_agent
from bezique.agents.features import ACTION_NAMES, OBS_NAMES, decision_features
from bezique.agents.networks import WEIGHTS_DIR, from_json, load, shipped, version_of
from bezique.cli import main
from bezique.errors import BeziqueError, OptionError
from bezique.learn.train import as_arrays, policy_forward, value_forward
from bezique.worlds import resample_from_infostate

ROOT = Path(__file__).resolve().parent.parent
RULES = Rules.preset("bezique")


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def played(seed: int, steps: int, variant: str = "bezique") -> State:
    """A deal after ``steps`` random actions (or at its end)."""
    state = State.new_deal(Rules.preset(variant), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 140),
       variant=st.sampled_from(["bezique", "binocle"]))
def test_features_depend_only_on_the_observation(seed: int, steps: int, variant: str) -> None:
    """Two worlds the seat cannot tell apart give it the same vectors."""
    state = played(seed, steps, variant)
    if state.is_terminal():
        return
    seat = state.current_player()
    world = resample_from_infostate(state, seat, random.Random(seed + 1))
    assert world.observation(seat) == state.observation(seat)
    mine = decision_features(state.observation(seat))
    assert decision_features(world.observation(seat)) == mine
    assert len(mine[0]) == len(OBS_NAMES)
    assert all(len(a) == len(ACTION_NAMES) for a in mine[1])
    # the other seat's view of the same world is another vector (the test can fail)
    other = 1 - seat
    assert decision_features(state.observation(other))[0] != mine[0]


def test_features_follow_the_trumps_not_the_suit_names() -> None:
    """The ace of trumps is one input whatever the trump suit."""
    obs = State.new_deal(RULES, seed=11).observation(0)
    x, _ = decision_features(obs)
    for c in obs.hand:
        if c >> 3 == obs.trump and c & 7 == 0:
            assert x[OBS_NAMES.index("mine_trumpA")] > 0


def positions(count: int) -> list[State]:
    out = []
    for k in range(count):
        state = played(100 + k, 5 * k)
        if not state.is_terminal():
            out.append(state)
    return out


def test_inference_is_deterministic_and_matches_the_numpy_forward_pass() -> None:
    data = json.loads((WEIGHTS_DIR / "bezique.json").read_text(encoding="utf-8"))
    model = shipped()
    pol = as_arrays(np, data["policy"])
    val = as_arrays(np, data["value"])
    checked = 0
    for state in positions(20):
        obs = state.observation(state.current_player())
        x, acts = decision_features(obs)
        scores = model.scores(obs)
        assert model.scores(obs) == scores  # the same every time
        assert load(WEIGHTS_DIR / "bezique.json").scores(obs) == scores
        want = policy_forward(np, pol, np.array([x]), np.array(acts),
                              np.zeros(len(acts), dtype=np.int64))
        assert np.allclose(scores, want, rtol=1e-9, atol=1e-9)
        got = model.value(obs)
        assert got == pytest.approx(float(value_forward(np, val, np.array([x]))[0]), abs=1e-9)
        probs = model.probabilities(obs)
        assert sum(probs) == pytest.approx(1.0) and len(probs) == len(obs.legal)
        checked += 1
    assert checked >= 18


def test_the_shipped_weights_load_with_their_version() -> None:
    raw = (WEIGHTS_DIR / "bezique.json").read_bytes()
    assert learn.VERSION == hashlib.sha256(raw).hexdigest()[:10] == shipped().version
    assert shipped().variant == "bezique"
    assert shipped().meta["deals"] >= 100  # trained by a real run, not a test's


def test_the_weights_ship_as_package_data() -> None:
    """``pip install .`` takes the weights along: the package-data pattern covers them."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = conf["tool"]["setuptools"]["package-data"]["bezique"]
    package = WEIGHTS_DIR.parent.parent  # where bezique is installed from
    shipped_files = {p.relative_to(package) for p in WEIGHTS_DIR.glob("*.json")}
    assert shipped_files
    for f in shipped_files:
        assert any(f.match(p) for p in patterns), f
    assert "numpy" in conf["project"]["optional-dependencies"]["train"]


def test_weights_of_other_features_are_refused() -> None:
    data = json.loads((WEIGHTS_DIR / "bezique.json").read_text(encoding="utf-8"))
    data["obs_names"] = data["obs_names"][:-1]
    with pytest.raises(BeziqueError, match="other features"):
        from_json(data, "x")
    data = json.loads((WEIGHTS_DIR / "bezique.json").read_text(encoding="utf-8"))
    data["policy"]["v"] = data["policy"]["v"][:-1]
    with pytest.raises(BeziqueError, match="policy v"):
        from_json(data, "x")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_policy_agent_plays_legal_moves_through_a_deal(seed: int) -> None:
    state = State.new_deal(RULES, seed=seed)
    agents = [make_agent("policy", seed=seed), make_agent("random", seed=seed)]
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        text = agents[seat].act(obs)
        assert text in obs.legal
        state.apply(text)
        moves += seat == 0
    assert moves > 30


def test_the_policy_agent_plays_its_top_scored_action() -> None:
    agent = make_agent("policy", seed=3)
    model = shipped()
    for state in positions(12):
        obs = state.observation(state.current_player())
        scores = model.scores(obs)
        pick = agent.act(obs)
        assert scores[obs.legal.index(pick)] == max(scores)


def test_the_policy_agent_refuses_bad_weights(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="cannot read weights"):
        make_agent(f"policy:weights={tmp_path / 'none.json'}")
    obs = State.new_deal(Rules.preset("rubicon"), seed=1).observation(0)
    with pytest.raises(OptionError, match="no learned weights"):
        make_agent("policy").act(obs)


def test_weights_learned_from_one_variant_are_refused_for_another() -> None:
    """Bezique's weights (the shipped file given by name) in a Rubicon or Binocle deal: one
    OptionError naming both variants, from the policy and from each use the search makes of
    them (before, the policy played Rubicon as if it were Bezique)."""
    path = WEIGHTS_DIR / "bezique.json"
    for variant in ("rubicon", "binocle"):
        s = State.new_deal(Rules.preset(variant), seed=1)
        obs = s.observation(s.current_player())
        for spec in (f"policy:weights={path}", f"search:samples=2,head=policy,net={path}",
                     f"search:samples=2,evaluation=net,net={path}",
                     f"search:samples=2,rollout=policy,net={path}", "search:head=policy"):
            with pytest.raises(OptionError, match=f"bezique deals, not {variant}|no learned "
                                                  f"weights are shipped for {variant}"):
                make_agent(spec, seed=1).act(obs)
    s = State.new_deal(Rules.preset("bezique"), seed=1)  # and in Bezique they play
    obs = s.observation(s.current_player())
    assert make_agent(f"policy:weights={path}", seed=1).act(obs) in obs.legal
    assert make_agent(f"search:samples=2,head=policy,net={path}", seed=1).act(obs) in obs.legal


def test_records_name_the_policy_with_its_weights_version(tmp_path: Path) -> None:
    assert agent_label("policy") == f"policy@{learn.VERSION}"
    assert agent_label("heuristic") == "heuristic"
    out = tmp_path / "match"
    result = run("arena", "policy", "random", "--deals", "1", "--seed", "3", "--save",
                 str(out))
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.json"))
    assert len(files) == 2
    players = json.loads(files[0].read_text(encoding="utf-8"))["players"]
    assert players == [f"policy@{learn.VERSION}", "random"]
    shown = run("replay", str(files[0]))
    assert shown.exit_code == 0, shown.output
    assert f"policy@{learn.VERSION}" in shown.stdout
    # the match resumes from its records: the names match
    again = run("arena", "policy", "random", "--deals", "1", "--seed", "3", "--save",
                str(out), "--resume")
    assert again.exit_code == 0, again.output


def train(out: Path, deals: int, *extra: str, teacher: str = "heuristic") -> Any:
    return run("train", "--out", str(out), "--deals", str(deals), "--teacher", teacher,
               "--epochs", "2", "--hidden", "4", "--seed", "5", *extra)


def test_a_tiny_training_run_is_seeded_and_resumable(tmp_path: Path) -> None:
    one = train(tmp_path / "one", 3)
    assert one.exit_code == 0, one.output
    assert "3 played now" in one.stdout
    weights = (tmp_path / "one" / "weights.json").read_bytes()
    report = json.loads((tmp_path / "one" / "report.json").read_text(encoding="utf-8"))
    assert 0.0 <= report["policy_accuracy"] <= 1.0 and report["value_rmse"] > 0
    assert report["heuristic_accuracy"] > 0.9  # the teacher is the heuristic itself
    # the same arguments in another folder: the same weights, byte for byte
    two = tmp_path / "two"
    assert train(two, 3).exit_code == 0
    assert (two / "weights.json").read_bytes() == weights
    # resumable: a run cut short (a deal's shard missing) plays only what is missing,
    # leaves the other shards alone and ends with the same weights
    shards = sorted((two / "deals").glob("*.json"))
    assert len(shards) == 3
    kept = shards[0].stat().st_mtime_ns
    shards[1].unlink()
    (two / "weights.json").unlink()
    again = train(two, 3)
    assert again.exit_code == 0, again.output
    assert "1 played now" in again.stdout
    assert shards[0].stat().st_mtime_ns == kept
    assert (two / "weights.json").read_bytes() == weights
    # the weights play: the policy agent takes them as an option
    agent = make_agent(f"policy:weights={two / 'weights.json'}", seed=1)
    obs = State.new_deal(RULES, seed=9).observation(0)
    assert agent.act(obs) in obs.legal
    assert agent_label(f"policy:weights={two / 'weights.json'}") == (
        f"policy@{version_of(weights)}")
    # more deals extend the data (the first ones are not played again)
    more = train(two, 4)
    assert more.exit_code == 0 and "1 played now" in more.stdout


def test_soft_targets_learn_the_search_teachers_averages(tmp_path: Path) -> None:
    """A search teacher's shards keep its average result of each candidate; ``--soft`` makes
    the policy's targets from them, so the weights differ from the same run without it, and
    the chosen move stays each soft target's likeliest action."""
    from bezique.learn.data import examples, load_shard
    from bezique.learn.train import soft_target

    hard = train(tmp_path / "hard", 2, teacher="search:samples=4")
    assert hard.exit_code == 0, hard.output
    shutil.copytree(tmp_path / "hard" / "deals", tmp_path / "soft" / "deals")
    shutil.copy(tmp_path / "hard" / "train.json", tmp_path / "soft" / "train.json")
    soft = train(tmp_path / "soft", 2, "--soft", "5", teacher="search:samples=4")
    assert soft.exit_code == 0, soft.output
    assert "0 played now" in soft.stdout  # the same shards, trained on otherwise
    assert ((tmp_path / "soft" / "weights.json").read_bytes()
            != (tmp_path / "hard" / "weights.json").read_bytes())
    meta = json.loads((tmp_path / "soft" / "weights.json").read_text(encoding="utf-8"))["meta"]
    assert meta["soft"] == 5.0 and meta["soft_decisions"] > 10
    weighed = [0, 0]
    for k in (0, 1):  # (deal 1 is held out: the run trains on deal 0)
        for d in examples(RULES, load_shard(tmp_path / "soft", k)):
            target = soft_target(d, 5.0)
            assert abs(sum(target) - 1.0) < 1e-9 and len(target) == len(d.actions)
            if d.means is None:
                assert target[d.choice] == 1.0
                continue
            weighed[k] += 1
            assert d.means[d.choice] is not None
            assert max(range(len(target)), key=target.__getitem__) == d.choice or (
                d.means[d.choice] + 5.0 <= max(m for m in d.means if m is not None))
            assert all(p == 0.0 for p, m in zip(target, d.means, strict=True) if m is None)
    assert weighed[0] == meta["soft_decisions"] and weighed[1] > 10
    # a teacher with no averages (the heuristic): --soft says it learned the moves alone
    plain = train(tmp_path / "plain", 1, "--soft", "5")
    assert plain.exit_code == 0 and "learned the moves alone" in plain.stdout
    assert "learned the moves alone" not in soft.stdout


@pytest.mark.parametrize(("args", "says"), [
    (["--deals", "0"], "--deals"),
    (["--soft", "-1"], "--soft"),
    (["--epochs", "0"], "--epochs"),
    (["--hidden", "33"], "--hidden"),
    (["--variant", "rubicon"], "--variant"),
    (["--teacher", "nosuch"], "unknown agent"),
    (["--teacher", "search:samples=0"], "samples"),
])
def test_bad_train_options_are_one_line_with_status_2(tmp_path: Path, args: list[str],
                                                      says: str) -> None:
    result = run("train", "--out", str(tmp_path / "run"), *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bezique: error: "), result.stderr
    assert says in lines[0]
    assert not (tmp_path / "run" / "weights.json").exists()


def test_a_folder_of_another_run_is_refused(tmp_path: Path) -> None:
    first = train(tmp_path / "run", 1)
    assert first.exit_code == 0
    assert ", 1 deal (1 played now)" in first.stdout  # one deal, not "1 deals"
    result = run("train", "--out", str(tmp_path / "run"), "--deals", "1", "--teacher",
                 "heuristic", "--seed", "6")
    assert result.exit_code == 2
    assert "another run" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_search_may_value_its_horizon_with_the_network() -> None:
    """``search:evaluation=net`` (and ``blend``) play legal moves; other values are refused."""
    for spec in ("search:samples=3,evaluation=net", "search:samples=3,evaluation=blend"):
        agent = make_agent(spec, seed=1)
        for state in positions(6):
            obs = state.observation(state.current_player())
            assert agent.act(obs) in obs.legal
    with pytest.raises(OptionError, match="net or blend"):
        make_agent("search:evaluation=deep")


def test_the_search_may_give_the_head_start_to_the_policy() -> None:
    """``search:head=policy``: the learned policy's top action gets the head start; with a
    prior no rollout can overcome, the search plays exactly that action."""
    model = shipped()
    sure = make_agent("search:samples=2,head=policy,prior=100000", seed=1)
    for state in positions(10):
        obs = state.observation(state.current_player())
        scores = model.scores(obs)
        pick = sure.act(obs)
        assert pick in obs.legal
        if not obs.end_phase and obs.phase != "declare":
            assert scores[obs.legal.index(pick)] == max(scores)
    with pytest.raises(OptionError, match="head must be"):
        make_agent("search:head=oracle")


def test_the_search_may_play_its_own_later_moves_by_the_policy() -> None:
    """``search:rollout=policy``: in a rollout the searching seat's moves are the learned
    policy's top action (ties: the heuristic's), the other seat's the heuristic's; the search
    with it plays legal moves, the same for two deals the seat cannot tell apart; a variant
    with no shipped weights is refused in one line."""
    from bezique.agents.heuristic import HeuristicPolicy
    from bezique.agents.rollout import Rollout
    from bezique.agents.search_learned import learned_chooser

    model = shipped()
    choose = learned_chooser(model)
    club = HeuristicPolicy(solver_cards=0)
    differs = 0
    for state in positions(8):
        seat = state.current_player()
        obs = state.observation(seat)
        # the chooser is the policy's top action, with the heuristic's choice in this world
        # as the features' heuristic input
        pick = state.action_to_string(club.choose(state))
        x, acts = decision_features(obs, pick)
        scores = model.scores_of(x, acts)
        chosen = state.action_to_string(choose(state))
        assert scores[obs.legal.index(chosen)] == max(scores)
        # a rollout plays the seat's moves by it, the other's by the heuristic
        roll = Rollout(club, solver_cards=0)
        roll.choose_own = choose
        t = state.clone()
        roll.value(t, seat)
        u = state.clone()
        while not u.is_terminal():
            u.apply_action(choose(u) if u.turn == seat else club.choose(u))
        assert t.history() == u.history()
        v = state.clone()
        while not v.is_terminal():
            v.apply_action(club.choose(v))
        differs += v.history() != u.history()
        agent = make_agent("search:samples=3,rollout=policy", seed=2)
        twin = resample_from_infostate(state, seat, random.Random(5))
        assert agent.act(obs) == make_agent("search:samples=3,rollout=policy",
                                            seed=2).act(twin.observation(seat))
    assert differs  # the policy is not the heuristic under another name
    # records name the weights the search played with
    assert agent_label("search:rollout=policy") == f"search:rollout=policy@{learn.VERSION}"
    assert agent_label("search:samples=3") == "search:samples=3"
    rubicon = State.new_deal(Rules.preset("rubicon"), seed=1)
    with pytest.raises(OptionError, match="no learned weights are shipped for rubicon"):
        make_agent("search:rollout=policy").act(rubicon.observation(rubicon.current_player()))


def test_the_search_takes_its_learned_weights_from_a_file(tmp_path: Path) -> None:
    """``search:net=FILE``: head=policy (and rollout=policy, evaluation=net) use the weights in
    FILE, not the shipped ones; a file that does not load is refused in one line, exit 2 on
    the command line."""
    data = json.loads((WEIGHTS_DIR / "bezique.json").read_text(encoding="utf-8"))
    data["policy"]["v"] = [-x for x in data["policy"]["v"]]  # every score turned round
    data["policy"]["u"] = [-x for x in data["policy"]["u"]]
    path = tmp_path / "turned.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    turned = load(path)
    spec = f"search:samples=2,head=policy,prior=100000,net={path}"
    differs = 0
    for state in positions(10):
        obs = state.observation(state.current_player())
        if obs.end_phase or obs.phase == "declare" or len(obs.legal) < 2:
            continue
        pick = make_agent(spec, seed=1).act(obs)
        scores = turned.scores(obs)
        assert scores[obs.legal.index(pick)] == max(scores)
        differs += pick != make_agent("search:samples=2,head=policy,prior=100000",
                                      seed=1).act(obs)
    assert differs
    assert agent_label(spec) == f"{spec}@{turned.version}" != f"{spec}@{learn.VERSION}"
    agent = make_agent(f"search:samples=2,rollout=policy,evaluation=net,net={path}", seed=1)
    obs = positions(3)[-1].observation(positions(3)[-1].current_player())
    assert agent.act(obs) in obs.legal
    missing = tmp_path / "none.json"
    with pytest.raises(OptionError, match="cannot read weights"):
        make_agent(f"search:net={missing}")
    for bad in (str(missing), "5"):  # (a number is a file name that does not load either)
        result = run("arena", f"search:net={bad}", "heuristic", "--deals", "2")
        assert result.exit_code == 2
        assert f"cannot read weights {bad}" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
